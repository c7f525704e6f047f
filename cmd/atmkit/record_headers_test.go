package main

import (
	"bytes"
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// TestRecordSweepsGatewayHeaderSecrets: a gateway that echoes the secret
// --header value the recorder sends it (X-Api-Key) in its answer's body
// (as is, URL-escaped, XML- and JSON-escaped) and headers (X-Echo,
// WWW-Authenticate) is recorded with every one of them REDACTED, as the
// service key is; the client gets the answer as the gateway gave it. The
// cassette held the secret before.
func TestRecordSweepsGatewayHeaderSecrets(t *testing.T) {
	t.Parallel()
	const secret = "Gateway/Secret&31337"
	jsonForm, err := json.Marshal(secret)
	if err != nil {
		t.Fatal(err)
	}
	forms := []string{secret, url.QueryEscape(secret), html.EscapeString(secret), strings.Trim(string(jsonForm), `"`)}
	echo := func(h http.Handler) http.Handler {
		edit := editing(func(r *http.Request, _ string, body []byte) []byte {
			v := r.Header.Get("X-Api-Key")
			j, _ := json.Marshal(v)
			quoted := " [" + v + "|" + url.QueryEscape(v) + "|" + html.EscapeString(v) + "|" + strings.Trim(string(j), `"`) + "]"
			return bytes.ReplaceAll(body, []byte("Nova Scotia"), []byte("Nova Scotia"+quoted))
		})(h)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			v := r.Header.Get("X-Api-Key")
			w.Header().Set("X-Echo", v)
			w.Header().Set("WWW-Authenticate", `Bearer realm="gw", error_description="key `+v+`"`)
			edit.ServeHTTP(w, r)
		})
	}
	up := startMock(t, leakKey, echo)
	cassette := t.TempDir() + "/gw"
	r := startCmd(t, nil, "record", "--upstream", up, "--cassette", cassette, "--addr", "127.0.0.1:0",
		"--header", "X-Api-Key: "+secret, "--header", "Accept: text/xml")
	resp, err := http.Get(r.base + asmx.ServicePath + "/" + asmx.OpReturnProvinces + "?" + asmx.ParamKey + "=" + leakKey)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Echo") != secret {
		t.Errorf("through the proxy: status %d, X-Echo %q, want 200 and the gateway's echo as it came", resp.StatusCode, resp.Header.Get("X-Echo"))
	}
	for _, f := range forms {
		if !strings.Contains(string(body), f) {
			t.Errorf("the client's answer lacks the gateway's echo %q: %.400s", f, body)
		}
	}
	if code := r.stop(); code != exitOK {
		t.Fatalf("record: exit %d\nstdout: %s\nstderr: %s", code, r.stdout, r.stderr)
	}
	text := readText(t, cassette+".yaml")
	for _, f := range forms {
		if strings.Contains(text, f) {
			t.Errorf("the cassette holds the --header secret as %q:\n%s", f, text)
		}
	}
	if !strings.Contains(text, "Nova Scotia [REDACTED|REDACTED|REDACTED|REDACTED]") {
		t.Errorf("the cassette lacks the echo with the secret REDACTED:\n%s", text)
	}
	noLeak(t, "the cassette", text)
	checkNoKey(t, secret, r.stdout.String()+r.stderr.String())
}

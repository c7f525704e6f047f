package cassettes_test

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
)

// TestRecorderSweepsSecrets: the values WithSecrets names (a gateway's
// credential under a name that says nothing of one, X-Partner-Id) are
// swept from what the Recorder writes wherever an upstream echoes them
// (its body, as is, percent-encoded, XML- and JSON-escaped; its headers),
// the request's header included; the client gets the answer as it came.
// A cassette recorded before without them is swept of them too when a
// recording with them appends to it.
func TestRecorderSweepsSecrets(t *testing.T) {
	t.Parallel()
	const secret = "Partner/Secret&4242"
	j, err := json.Marshal(secret)
	if err != nil {
		t.Fatal(err)
	}
	forms := []string{secret, url.QueryEscape(secret), html.EscapeString(secret), strings.Trim(string(j), `"`)}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v := r.Header.Get("X-Partner-Id")
		w.Header().Set("X-Echo", v)
		w.Header().Set("WWW-Authenticate", `Bearer error_description="partner `+v+`"`)
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		jv, _ := json.Marshal(v)
		_, _ = io.WriteString(w, "gateway refused "+r.URL.Path+": "+v+" "+url.QueryEscape(v)+" "+html.EscapeString(v)+" "+strings.Trim(string(jv), `"`)+"\n")
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "gw.yaml")
	call := func(rec *cassettes.Recorder, p string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, up.URL+asmx.ServicePath+p, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Partner-Id", secret)
		resp, err := rec.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if resp.Header.Get("X-Echo") != secret || !strings.Contains(string(b), strings.Join(forms, " ")) {
			t.Errorf("%s: the client got X-Echo %q and %q, want the answer as it came", p, resp.Header.Get("X-Echo"), b)
		}
	}
	for _, step := range []struct {
		name  string
		opts  []cassettes.Option
		leaks bool // the cassette holds the secret after it
	}{
		{"without WithSecrets", nil, true},
		{"appended to with WithSecrets", []cassettes.Option{cassettes.WithSecrets(secret)}, false},
	} {
		rec, err := cassettes.New(path, append([]cassettes.Option{cassettes.WithMode(cassettes.ModeRecordAll)}, step.opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		call(rec, "/"+strings.ReplaceAll(step.name, " ", "-"))
		if err := rec.Stop(); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		held := false
		for _, f := range forms {
			held = held || strings.Contains(string(b), f)
		}
		if held != step.leaks {
			t.Errorf("%s: the cassette holds the secret: %v, want %v:\n%s", step.name, held, step.leaks, b)
		}
	}
}

// TestRecorderSweepsOtherJSONEscapes: a gateway's JSON writer that
// escapes a secret otherwise than Go's and ASP.NET's (lua-cjson's and
// PHP's \/ for '/', System.Text.Json's \u002B for '+', any writer's \u
// for a letter) has it swept from the cassette all the same, the call's
// key as well; the client gets the answer as it came.
func TestRecorderSweepsOtherJSONEscapes(t *testing.T) {
	t.Parallel()
	const secret = "Partner/Secret+4242"
	forms := []string{`Partner\/Secret+4242`, `Partner/Secret\u002B4242`, `Partner\/Secret\u002b4242`, `\u0050artner/Secret+4242`}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("X-Error", `{"partner":"`+forms[0]+`"}`)
		w.WriteHeader(http.StatusForbidden)
		_, _ = io.WriteString(w, `{"message":"refused","partner":["`+strings.Join(forms, `","`)+`"],"key":"`+strings.ReplaceAll(r.URL.Query().Get("strAtmServiceKey"), "-", `\u002d`)+`"}`)
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "gw.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithSecrets(secret))
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodGet, up.URL+asmx.ServicePath+"/"+asmx.OpReturnProvinces+"?strAtmServiceKey="+url.QueryEscape(testKey), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rec.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), strings.Join(forms, `","`)) {
		t.Errorf("the client got %q, want the answer as it came", b)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	if b, err = os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	for _, f := range append(forms, strings.ReplaceAll(testKey, "-", `\u002d`)) {
		if strings.Contains(string(b), f) {
			t.Errorf("the cassette holds %s:\n%s", f, b)
		}
	}
	if !strings.Contains(string(b), `REDACTED","REDACTED","REDACTED","REDACTED"],"key":"REDACTED"`) {
		t.Errorf("the cassette's body is not the answer swept:\n%s", b)
	}
}

// TestRecorderSweepsOtherXMLReferences: a gateway's XML (or HTML) writer
// that writes a secret's characters as references other than .NET's and
// Go's (Python's &#x27; for an apostrophe, a letter as &#x6B;, &#38; for
// &) has it swept from the cassette, and the call's key as well; the
// client gets the answer as it came.
func TestRecorderSweepsOtherXMLReferences(t *testing.T) {
	t.Parallel()
	const secret = "partner's&Secret4242"
	forms := []string{`partner&#x27;s&amp;Secret4242`, `partner's&#38;Secret4242`, `&#x70;artner&#39;s&#x26;Secret4242`}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.WriteHeader(http.StatusForbidden)
		_, _ = io.WriteString(w, `<error partner="`+forms[0]+`"><p>`+forms[1]+`</p><p>`+forms[2]+`</p><key>`+strings.ReplaceAll(r.URL.Query().Get("strAtmServiceKey"), "K", "&#x4B;")+`</key></error>`)
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "gw.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithSecrets(secret))
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodGet, up.URL+asmx.ServicePath+"/"+asmx.OpReturnProvinces+"?strAtmServiceKey="+url.QueryEscape(testKey), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rec.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), forms[2]) {
		t.Errorf("the client got %q, want the answer as it came", b)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	if b, err = os.ReadFile(path); err != nil {
		t.Fatal(err)
	}
	for _, f := range append(forms, strings.ReplaceAll(testKey, "K", "&#x4B;")) {
		if strings.Contains(string(b), f) {
			t.Errorf("the cassette holds %s:\n%s", f, b)
		}
	}
	if !strings.Contains(string(b), `<error partner="REDACTED"><p>REDACTED</p><p>REDACTED</p><key>REDACTED</key></error>`) {
		t.Errorf("the cassette's body is not the answer swept:\n%s", b)
	}
}

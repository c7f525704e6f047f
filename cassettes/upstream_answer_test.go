package cassettes_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/mockserver"
)

// TestUpstreamEchoedKeyNotServedToOthers: a deployment that echoes the
// caller's key in its answer gives it back to that caller only. The
// episode is indexed for later calls of the question as the cassette holds
// it, the key scrubbed: a later caller, with its own key, is not served the
// first caller's.
func TestUpstreamEchoedKeyNotServedToOthers(t *testing.T) {
	t.Parallel()
	keyRE := regexp.MustCompile(`<strAtmServiceKey>([^<]*)</strAtmServiceKey>`)
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		key := ""
		if m := keyRE.FindSubmatch(b); m != nil {
			key = string(m[1])
		}
		w.Header().Set("Content-Type", asmx.ContentTypeSOAP11)
		fmt.Fprintf(w, `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap=%q><soap:Body>`+
			`<ReturnProvincesResponse xmlns=%q><ReturnProvincesResult><string>Ontario</string><string>session %s</string>`+
			`</ReturnProvincesResult></ReturnProvincesResponse></soap:Body></soap:Envelope>`, asmx.NamespaceSOAP11, asmx.DefaultNamespace, key)
	}))
	defer echo.Close()
	path := filepath.Join(t.TempDir(), "echo.yaml")
	idx, srv := onMissServer(t, cassettes.Upstream{URL: echo.URL, Record: path})
	defer srv.Close()
	defer idx.Close()
	q := query{Op: asmx.OpReturnProvinces}
	status, body := do(t, srv.Client(), request(t, srv.URL, asmx.SOAP11, q, testKey, false))
	if status != http.StatusOK || !strings.Contains(body, testKey) {
		t.Fatalf("first call: got %d, want the upstream's answer as it came (its own key echoed)\n%s", status, body)
	}
	const other = "other-caller-key-77"
	for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP12} {
		status, body = do(t, srv.Client(), request(t, srv.URL, b, q, other, false))
		if status != http.StatusOK {
			t.Fatalf("%s later call: status %d\n%s", b, status, body)
		}
		if strings.Contains(body, testKey) || strings.Contains(body, "s3cr3t") {
			t.Errorf("%s later call, with another key, is served the first caller's key:\n%s", b, body)
		}
		if !strings.Contains(body, cassettes.Placeholder) {
			t.Errorf("%s later call: want the answer as the cassette holds it (%s)\n%s", b, cassettes.Placeholder, body)
		}
	}
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}
	assertNoKey(t, path)
}

// TestUpstreamJSONErrorKeepsItsMark: a JSON error the upstream answers
// with ASP.NET AJAX's mark (jsonerror: true), by which script clients tell
// an error from a result, reaches the app with the mark, as a JSON error
// replayed from a cassette does.
func TestUpstreamJSONErrorKeepsItsMark(t *testing.T) {
	t.Parallel()
	_, _, up := smallStandIn(t, mockserver.WithKeys(testKey), mockserver.WithJSONErrors(mockserver.JSONErrorsAjax))
	path := filepath.Join(t.TempDir(), "jsonerr.yaml")
	idx, srv := onMissServer(t, cassettes.Upstream{URL: up.URL, Record: path})
	defer srv.Close()
	defer idx.Close()
	q := query{Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "44.709777"}, {"dblLongitude", "-63.571423"}, {"bytRadius", "1"}}}
	direct, err := up.Client().Do(request(t, up.URL, asmx.JSON, q, "wrong-key-1234", false))
	if err != nil {
		t.Fatal(err)
	}
	direct.Body.Close()
	if direct.StatusCode != http.StatusInternalServerError || direct.Header.Get("jsonerror") != "true" {
		t.Fatalf("the upstream itself: %d, jsonerror %q; want a marked 500", direct.StatusCode, direct.Header.Get("jsonerror"))
	}
	resp, err := srv.Client().Do(request(t, srv.URL, asmx.JSON, q, "wrong-key-1234", false))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusInternalServerError || resp.Header.Get("jsonerror") != "true" {
		t.Errorf("forwarded: %d, jsonerror %q; want the upstream's marked 500\n%s", resp.StatusCode, resp.Header.Get("jsonerror"), body)
	}
}

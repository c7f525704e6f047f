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

package cassettes_test

import (
	"fmt"
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

// TestRecorderSweepsTheStatusLine: a gateway that quotes what it refused
// in its status line's reason phrase (403 Key K not allowed, 401 Bad
// partner S) has neither the call's key nor a WithSecrets value recorded
// there: the cassette's status field is swept as its headers are. The
// client still gets the status line as it came.
func TestRecorderSweepsTheStatusLine(t *testing.T) {
	t.Parallel()
	const secret = "Partner/Secret4242"
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reason := "Key " + r.URL.Query().Get("strAtmServiceKey") + " not allowed for partner " + r.Header.Get("X-Partner-Id")
		c, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close()
		_, _ = fmt.Fprintf(buf, "HTTP/1.1 403 %s\r\nContent-Type: text/plain\r\nContent-Length: 6\r\nConnection: close\r\n\r\nrefuse", reason)
		_ = buf.Flush()
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
	req.Header.Set("X-Partner-Id", secret)
	resp, err := rec.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if !strings.Contains(resp.Status, testKey) || !strings.Contains(resp.Status, secret) {
		t.Errorf("the client got the status %q, want it as it came", resp.Status)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	noKeyIn(t, "the cassette", string(b))
	if strings.Contains(string(b), secret) {
		t.Errorf("the cassette holds the secret:\n%s", b)
	}
	if !strings.Contains(string(b), "403 Key REDACTED not allowed for partner REDACTED") {
		t.Errorf("the cassette's status is not the one that came swept:\n%s", b)
	}
}

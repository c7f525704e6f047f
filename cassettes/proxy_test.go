package cassettes

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/mocktest"
)

// An unreachable upstream must not put the key of the failed request in the
// log or the answer: net/http's *url.Error quotes the whole URL. A key in
// the path (.../service.asmx/KEY, a client that built its URL wrong), sent
// before any call carried it, is masked too: a segment after the .asmx
// file that names no operation.
func TestProxyErrorDoesNotLogTheKey(t *testing.T) {
	t.Parallel()
	dead := mocktest.ClosedPort(t) // nothing listens there
	up, _ := url.Parse(dead)
	var logs bytes.Buffer
	proxy := httptest.NewServer(NewProxy(up, http.DefaultTransport, slog.New(slog.NewTextHandler(&logs, nil))))
	defer proxy.Close()
	// The key in the query, and in the path of a URL built with & for ?.
	for _, path := range []string{"/service/service.asmx/ReturnProvinces?strAtmServiceKey=s3cr3t-key-123",
		"/service/service.asmx/ReturnProvinces&strAtmServiceKey=s3cr3t-key-123",
		"/service/service.asmx/s3cr3t-key-123", "/atm/service-v2.asmx/ReturnProvinces/s3cr3t%2Dkey%2D123"} {
		resp, err := http.Get(proxy.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadGateway {
			t.Errorf("%s: status: got %d, want %d", path, resp.StatusCode, http.StatusBadGateway)
		}
		for name, text := range map[string]string{"log": logs.String(), "answer": string(body)} {
			if strings.Contains(text, "s3cr3t-key-123") {
				t.Errorf("%s: the %s holds the key: %q", path, name, text)
			}
		}
	}
	if !strings.Contains(logs.String(), "proxy") {
		t.Errorf("log: got %q, want a proxy error line", logs.String())
	}
}

// TestProxyRecordsAnUnparsableQueryAsSent: a query that does not parse (a
// bad escape, a semicolon, which ASP.NET reads as part of a value) reaches
// the upstream as the caller sent it, not cleaned by net/http's reverse
// proxy (which drops such pairs, the key's included), and is recorded as
// sent, the key scrubbed (with what a ';' joins to it, which ASP.NET reads
// as part of it). It used to be forwarded unrecorded, with a warning.
func TestProxyRecordsAnUnparsableQueryAsSent(t *testing.T) {
	t.Parallel()
	got := make(chan string, 1)
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.URL.RawQuery
		_, _ = io.WriteString(w, "<ok/>")
	}))
	defer upstream.Close()
	up, _ := url.Parse(upstream.URL)
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	for query, scrubbed := range map[string]string{
		"strAtmServiceKey=s3cr3t-key-123&x=%zz":   "strAtmServiceKey=REDACTED&x=%zz",
		"x=1;y=2&strAtmServiceKey=s3cr3t-key-123": "x=1;y=2&strAtmServiceKey=REDACTED",
		"strAtmServiceKey=s3cr3t-key-123;x=1":     "strAtmServiceKey=REDACTED",
	} {
		path := filepath.Join(t.TempDir(), "atm.yaml")
		rec, err := New(path, WithMode(ModeRecordAll), WithTransport(http.DefaultTransport), WithLogger(logger), WithSaveInterval(0))
		if err != nil {
			t.Fatal(err)
		}
		proxy := httptest.NewServer(NewProxy(up, rec, logger))
		resp, err := http.Get(proxy.URL + "/service/service.asmx/ReturnProvinces?" + query)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		proxy.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d, want 200", query, resp.StatusCode)
		}
		if sent := <-got; sent != query {
			t.Errorf("the upstream got the query %q, want %q as the caller sent it", sent, query)
		}
		if err := rec.Stop(); err != nil {
			t.Fatal(err)
		}
		list, err := ReadFile(path)
		if err != nil || len(list) != 1 || !strings.HasSuffix(list[0].Request.URL, "?"+scrubbed) {
			t.Fatalf("%s: the cassette holds %d interactions (%v), want the call recorded as %q", query, len(list), err, scrubbed)
		}
		if b, err := os.ReadFile(path); err != nil || strings.Contains(string(b), "s3cr3t-key-123") {
			t.Errorf("%s: the cassette holds the key (%v):\n%s", query, err, b)
		}
	}
	if strings.Contains(logs.String(), "forwarded without recording") {
		t.Errorf("log: got a warning: %q", logs.String())
	}
	if strings.Contains(logs.String(), "s3cr3t-key-123") {
		t.Errorf("the log holds the key: %q", logs.String())
	}
}

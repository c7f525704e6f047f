package cassettes_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// TestProxyFailureMasksKeysNoted: once a call answered 200 has carried a
// key, the recording proxy's 502 answer and its log line for a request
// that holds that key outside a call (a path .../service.asmx/KEY,
// another parameter's value), which the upstream then fails, do not show
// it: the error quoted the request's URL, masked of the request's own
// strAtmServiceKey only.
func TestProxyFailureMasksKeysNoted(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "noted.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Stop()
	var logs mocktest.SyncBuffer
	upURL, _ := url.Parse(up.URL)
	proxy := httptest.NewServer(cassettes.NewProxy(upURL, rec, slog.New(slog.NewTextHandler(&logs, nil))))
	defer proxy.Close()
	if status, body := do(t, proxy.Client(), request(t, proxy.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)); status != http.StatusOK {
		t.Fatalf("the key's call: got %d %.200q, want 200", status, body)
	}
	up.Close() // the upstream fails from now on
	for _, u := range []string{
		proxy.URL + asmx.ServicePath + "/" + url.PathEscape(testKey),
		proxy.URL + asmx.ServicePath + "/ReturnProvinces?note=" + url.QueryEscape(testKey),
	} {
		status, body := do(t, proxy.Client(), mustGet(t, u))
		if status != http.StatusBadGateway {
			t.Errorf("GET %s: got %d %.200q, want 502", u, status, body)
		}
		noKeyIn(t, "the 502 answer", body)
	}
	noKeyIn(t, "the log", logs.String())
}

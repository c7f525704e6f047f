package cassettes_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
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

// TestRecorderWarningMasksPathKey: the Recorder's warning that an answer
// does not decompress (the client asked for gzip; the upstream's body is
// no gzip) names the request before the interaction is scrubbed: a key
// in its path (.../ReturnProvinces/strAtmServiceKey=K, which the
// deployment's error page echoes) was logged as sent.
func TestRecorderWarningMasksPathKey(t *testing.T) {
	t.Parallel()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("not gzip at all"))
	}))
	defer up.Close()
	var logs mocktest.SyncBuffer
	path := filepath.Join(t.TempDir(), "warn.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: rec}
	for _, u := range []string{
		up.URL + asmx.ServicePath + "/ReturnProvinces/strAtmServiceKey=" + url.PathEscape(testKey),
		up.URL + asmx.ServicePath + "/ReturnProvinces/" + "\u017ftrAtmServiceKey=" + url.PathEscape(testKey),
	} {
		req := mustGet(t, u)
		req.Header.Set("Accept-Encoding", "gzip")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logs.String(), "does not decompress") {
		t.Fatalf("no warning logged:\n%s", logs.String())
	}
	noKeyIn(t, "the log", logs.String())
	assertNoKey(t, path)
}

package verify_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cassettes/verify"
)

// TestUpdateSweepsTheKey: Update rewriting a cassette that holds the key
// it was given (Options.Key) where no call carries it (a request
// .../service.asmx/KEY recorded before, or without, any call with the key
// answered 200, and the answer echoing it) writes it swept, as a
// recording sweeps a key once a call with it is answered 200: the rewrite
// kept it, though the report masked it. A secret (a --header value, which
// may be any text) is not swept.
func TestUpdateSweepsTheKey(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	const secret = "gw-secret-0815"
	path := filepath.Join(t.TempDir(), "update.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	for _, seg := range []string{testKey, secret} {
		do(t, rec.Client(), mustGet(t, up.URL+asmx.ServicePath+"/"+url.PathEscape(seg)))
	}
	// A call with a wrong key: refused when recorded, answered when
	// verified with the key: it drifts, and Update rewrites the file.
	if status, _ := do(t, rec.Client(), request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, "wrong-key-1234")); status != http.StatusInternalServerError {
		t.Fatalf("the wrong key's call: status %d, want 500", status)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), testKey) || !strings.Contains(string(b), secret) {
		t.Fatalf("the recording holds neither the key nor the secret: nothing to sweep\n%s", b)
	}
	r := mustRun(t, path, up.URL, verify.Options{Secrets: []string{secret}})
	if files, n, err := r.Update(); err != nil || len(files) != 1 || n == 0 {
		t.Fatalf("Update: %v, %d answers, %v: want the cassette rewritten", files, n, err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), testKey) {
		t.Errorf("the cassette Update wrote holds the key")
	}
	if !strings.Contains(string(b), secret) {
		t.Errorf("Update swept a secret, which may be any text (text/xml)")
	}
}

// TestFailureMasksPathKeys: the report of a request the deployment closes
// the connection on names its address with each path segment after the
// .asmx file that names no operation masked, as the description beside
// it and atmkit record's progress lines do: a key in the path
// (.../service.asmx/KEY) that is not the one verify was given was shown.
func TestFailureMasksPathKeys(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	const other = "Other-Key-9876"
	path := filepath.Join(t.TempDir(), "failure.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	do(t, rec.Client(), mustGet(t, up.URL+asmx.ServicePath+"/"+other))
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	dropping := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, other) {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	defer dropping.Close()
	texts := map[string]string{}
	r, err := run(t, path, dropping.URL, verify.Options{})
	if err != nil {
		texts["error"] = err.Error()
	}
	if r != nil {
		var junit bytes.Buffer
		if err := r.WriteJUnit(&junit); err != nil {
			t.Fatal(err)
		}
		texts["report"], texts["JUnit"] = lines(r), junit.String()
		for _, res := range r.Results {
			if res.Err != nil {
				texts["result"] += res.Err.Error()
			}
		}
	}
	if !strings.Contains(texts["report"]+texts["error"], "closed the connection") {
		t.Fatalf("no failure reported: %q", texts)
	}
	for name, text := range texts {
		if strings.Contains(text, other) {
			t.Errorf("the %s holds the key in the path:\n%.600s", name, text)
		}
	}
}

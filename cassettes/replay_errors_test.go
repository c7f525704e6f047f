package cassettes_test

import (
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/mocktest"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/mockserver"
	"gopkg.in/dnaeon/go-vcr.v3/recorder"
)

// TestReplayErrorsAcrossBindings: a recorded error served in another
// binding is what the deployment answers there. A SOAP fault of the
// service's own SoapException becomes the HTTP GET/POST text ASMX writes
// for it (the message HTML-encoded, a line end; no type name), and an
// error that did not come from ASMX's protocol (IIS's 503 page) is served
// as recorded whatever the binding, not wrapped in a fault.
func TestReplayErrorsAcrossBindings(t *testing.T) {
	t.Parallel()
	h, err := mockserver.New(mockserver.WithKeys(testKey),
		mockserver.WithFault(mockserver.Fault{Operation: asmx.OpReturnInstitutions, SOAPFault: &mockserver.SOAPFault{Code: "Server", Text: `Database is <down> & "out"`}}),
		mockserver.WithFault(mockserver.Fault{Operation: asmx.OpReturnProvinces, Status: http.StatusServiceUnavailable}))
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(h)
	defer up.Close()
	inst := query{Op: asmx.OpReturnInstitutions}
	prov := query{Op: asmx.OpReturnProvinces}
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		do(t, proxy.Client(), request(t, proxy.URL, asmx.SOAP12, inst, testKey, false))
		do(t, proxy.Client(), request(t, proxy.URL, asmx.SOAP12, prov, testKey, false))
	})
	replay := replayed(t, path, testKey)
	for _, q := range []query{inst, prov} {
		for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP12, asmx.HTTPGet, asmx.HTTPPost} {
			want := answerOf(t, up, request(t, up.URL, b, q, testKey, false))
			got := answerOf(t, replay, request(t, replay.URL, b, q, testKey, false))
			if got != want {
				t.Errorf("%s over %s replayed:\n%s\nthe deployment answers:\n%s", q.Op, b, got, want)
			}
		}
	}
}

// answerOf is the status, content type and body of srv's answer to req.
func answerOf(t *testing.T, srv *httptest.Server, req *http.Request) string {
	t.Helper()
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.Status + " " + resp.Header.Get("Content-Type") + "\n" + string(body)
}

// TestReplayOrderPerBinding: a question recorded with several answers
// gives the n-th request in each binding the n-th answer (docs: "the
// n-th request in its binding gets the n-th answer recorded in that
// binding"): a retry test recorded over SOAP (a fault, then the answer)
// replays the same to a SOAP client whether or not a GET client asked the
// question first.
func TestReplayOrderPerBinding(t *testing.T) {
	t.Parallel()
	h, err := mockserver.New(mockserver.WithKeys(testKey),
		mockserver.WithFault(mockserver.Fault{Operation: asmx.OpReturnProvinces, Times: 1, SOAPFault: &mockserver.SOAPFault{Code: "Server", Text: "Try again"}}))
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(h)
	defer up.Close()
	prov := query{Op: asmx.OpReturnProvinces}
	var recordedAnswers []string
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		for range 2 {
			recordedAnswers = append(recordedAnswers, answerOf(t, proxy, request(t, proxy.URL, asmx.SOAP11, prov, testKey, false)))
		}
	})
	if recordedAnswers[0] == recordedAnswers[1] {
		t.Fatalf("recorded the same answer twice:\n%s", recordedAnswers[0])
	}
	replay := replayed(t, path, testKey)
	if got := answerOf(t, replay, request(t, replay.URL, asmx.HTTPGet, prov, testKey, false)); !strings.Contains(got, "Try again") {
		t.Errorf("the first GET request got\n%s\nwant the first answer (the fault) re-served over GET", got)
	}
	for i, want := range append(recordedAnswers, recordedAnswers[1]) {
		if got := answerOf(t, replay, request(t, replay.URL, asmx.SOAP11, prov, testKey, false)); got != want {
			t.Errorf("SOAP request %d got\n%s\nwant\n%s", i, got, want)
		}
	}
}

// TestLoadIndexRefusesBadStatus: a cassette whose response code no HTTP
// answer has (a hand edit: 0, 2000, 99, 100) is refused when it is
// loaded, naming the file and the interaction; replayed, it made every
// call it answered panic in net/http (the client got a torn answer).
func TestLoadIndexRefusesBadStatus(t *testing.T) {
	t.Parallel()
	golden, err := os.ReadFile(filepath.Join("testdata", "golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{"0", "-1", "99", "100", "2000"} {
		path := filepath.Join(t.TempDir(), "edited.yaml")
		text := strings.Replace(string(golden), "code: 200", "code: "+code, 1)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := cassettes.LoadIndex([]string{path})
		if !errors.Is(err, cassettes.ErrInvalidCassette) || !strings.Contains(err.Error(), path+": interaction 0: response code "+code) {
			t.Errorf("code %s: got %v, want ErrInvalidCassette naming %s and interaction 0", code, err, path)
		}
	}
}

// TestReplayOfRawKeysServesNoKey: a cassette recorded by go-vcr itself
// holds the keys sent, and the deployment's answers may echo them (a
// fault naming the refused key). Replayed, no answer, journal entry or
// admin API answer holds either key: the index scrubs the cassette as a
// Recorder would have written it, its key rejection marked.
func TestReplayOfRawKeysServesNoKey(t *testing.T) {
	t.Parallel()
	const good, bad = "Good-Key-31415", "Stale-Key-27182"
	deployment := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := r.URL.Query().Get(asmx.ParamKey)
		w.Header().Set("Content-Type", asmx.ContentTypeText)
		if key != good {
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = io.WriteString(w, "The service key "+key+" is not valid.\r\n")
			return
		}
		w.Header().Set("Content-Type", asmx.ContentTypeXML)
		_, _ = io.WriteString(w, `<?xml version="1.0" encoding="utf-8"?>`+"\n<provinces>\n  <!-- for "+key+" -->\n  <province><code>NS</code></province>\n</provinces>")
	}))
	defer deployment.Close()
	path := filepath.Join(t.TempDir(), "govcr")
	rec, err := recorder.NewWithOptions(&recorder.Options{CassetteName: path, Mode: recorder.ModeRecordOnly})
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{bad, good} {
		resp, err := rec.GetDefaultClient().Get(deployment.URL + asmx.ServicePath + "/ReturnProvinces?" + asmx.ParamKey + "=" + key)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path + ".yaml")
	if err != nil || !strings.Contains(string(raw), good) || !strings.Contains(string(raw), bad) {
		t.Fatalf("go-vcr's cassette holds no raw keys (%v): the test tests nothing", err)
	}
	replay := replayed(t, path, "ci-key-1")
	var seen []string
	for _, key := range []string{"ci-key-1", "other-key-2"} {
		seen = append(seen, answerOf(t, replay, mustGet(t, replay.URL+asmx.ServicePath+"/ReturnProvinces?"+asmx.ParamKey+"="+key)))
	}
	if !strings.Contains(seen[0], "<code>NS</code>") || !strings.Contains(seen[1], "is not valid") {
		t.Fatalf("replayed: %q, want the answer to the accepted key, then the recorded rejection", seen)
	}
	seen = append(seen, answerOf(t, replay, mustGet(t, replay.URL+"/__admin/requests")))
	for _, s := range seen {
		for _, key := range []string{good, bad} {
			if strings.Contains(s, key) {
				t.Errorf("key %s served:\n%s", key, s)
			}
		}
	}
}

// TestLoadIndexReadsAFileOnce: a cassette named twice (a directory and a
// file in it, "atm" and "atm.yaml") is read once: its interactions and key
// rejections are not counted twice in the banner.
func TestLoadIndexReadsAFileOnce(t *testing.T) {
	t.Parallel()
	golden := filepath.Join("testdata", "golden.yaml")
	one, err := cassettes.LoadIndex([]string{golden})
	if err != nil {
		t.Fatal(err)
	}
	for _, paths := range [][]string{{golden, golden}, {golden, filepath.Join("testdata", "golden")}, {golden, "./" + golden}} {
		ix, err := cassettes.LoadIndex(paths)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := ix.Stats(), one.Stats(); got.Files != 1 || got.Interactions != want.Interactions || got.Calls != want.Calls {
			t.Errorf("LoadIndex(%q): %d files, %d interactions, %d calls; want 1, %d, %d", paths, got.Files, got.Interactions, got.Calls, want.Interactions, want.Calls)
		}
	}
}

// replayed serves the cassette at path as atmkit serve --replay does (a
// miss is a fault), accepting key, until the test ends.
func replayed(t *testing.T, path, key string) *httptest.Server {
	t.Helper()
	return replayServer(t, []string{path}, nil, mockserver.WithKeys(key))
}

// TestReplayMissNamesNoPath: the error a call no cassette holds gets names
// the nearest recording's cassette by its file name only, in every
// binding: where cassettes lie on the server is the log's business (the
// log keeps the full path), not the app's.
func TestReplayMissNamesNoPath(t *testing.T) {
	t.Parallel()
	const ns = "http://atmref.example.org/atmService"
	src, err := os.ReadFile(filepath.Join("testdata", "reference-typed.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "secret-place")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ref.yaml")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	idx, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	var log mocktest.SyncBuffer
	h, err := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault), mockserver.WithNamespace(ns),
		mockserver.WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	q := query{Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "44.6488"}, {"dblLongitude", "-63.5752"}, {"bytRadius", "9"}}}
	for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP12, asmx.HTTPGet, asmx.HTTPPost, asmx.JSON} {
		status, body := do(t, srv.Client(), requestNS(t, srv.URL, ns, b, q, testKey, false))
		switch {
		case status != http.StatusInternalServerError || !strings.Contains(body, "nearest recording"):
			t.Errorf("%s: got %d %.300q, want 500 naming the nearest recording", b, status, body)
		case strings.Contains(body, dir):
			t.Errorf("%s: the error names the cassette's directory %s: %q", b, dir, body)
		case !strings.Contains(body, "ref.yaml#"):
			t.Errorf("%s: got %q, want the cassette named by its file name", b, body)
		}
	}
	if !strings.Contains(log.String(), path+"#") {
		t.Errorf("the log does not name the cassette by its path %s:\n%s", path, log.String())
	}
}

// TestRecorderRefusesBadStatus: the Go API's Recorder, in the modes that
// replay, refuses a cassette whose response code no HTTP answer has (a hand
// edit), naming the file and the interaction, as LoadIndex does: replayed
// through a server of the test's own (a reverse proxy over the Recorder),
// every call it answered panicked in net/http's WriteHeader.
func TestRecorderRefusesBadStatus(t *testing.T) {
	t.Parallel()
	golden, err := os.ReadFile(filepath.Join("testdata", "golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []cassettes.Mode{cassettes.ModeReplayOnly, cassettes.ModeRecordOnce, cassettes.ModeRecordNew} {
		for _, code := range []string{"0", "99", "2000"} {
			path := filepath.Join(t.TempDir(), "edited.yaml")
			text := strings.Replace(string(golden), "code: 200", "code: "+code, 1)
			if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
			rec, err := cassettes.New(path, cassettes.WithMode(mode))
			if err == nil {
				_ = rec.Stop()
			}
			if !errors.Is(err, cassettes.ErrInvalidCassette) || !strings.Contains(err.Error(), path+": interaction 0: response code "+code) {
				t.Errorf("mode %v, code %s: got %v, want ErrInvalidCassette naming %s and interaction 0", mode, code, err, path)
			}
		}
	}
	// The cassette as recorded replays.
	path := filepath.Join(t.TempDir(), "golden.yaml")
	if err := os.WriteFile(path, golden, 0o600); err != nil {
		t.Fatal(err)
	}
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeReplayOnly))
	if err != nil {
		t.Fatal(err)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
}

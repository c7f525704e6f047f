package cassettes_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
	"gopkg.in/dnaeon/go-vcr.v3/recorder"
)

// marks returns, per interaction of the cassette at path, whether it is
// marked as a key rejection.
func marks(t *testing.T, path string) []bool {
	t.Helper()
	list := readCassette(t, path)
	out := make([]bool, len(list))
	for k, i := range list {
		out[k] = cassettes.KeyRejected(i)
	}
	return out
}

// TestRecorderMarksKeyRejections: errors answered to a key that never got
// a 200 while another key did are marked, in every binding, including
// those recorded before the proof (the file is rewritten); and no answer
// is marked while no key has been answered 200. Saved after every
// capture, or after every other step only (a mark then changes on
// interactions already written and on others not yet).
func TestRecorderMarksKeyRejections(t *testing.T) {
	t.Parallel()
	for _, everyCapture := range []bool{true, false} {
		t.Run(fmt.Sprintf("saved on every capture: %t", everyCapture), func(t *testing.T) {
			t.Parallel()
			testRecorderMarksKeyRejections(t, everyCapture)
		})
	}
}

func testRecorderMarksKeyRejections(t *testing.T, everyCapture bool) {
	up, _ := standIn(t) // accepts testKey only
	path := filepath.Join(t.TempDir(), "keys.yaml")
	interval := time.Duration(0) // saved on every capture
	if !everyCapture {
		interval = time.Hour // saved by Save below, and Stop
	}
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithSaveInterval(interval))
	if err != nil {
		t.Fatal(err)
	}
	provinces := query{Op: asmx.OpReturnProvinces}
	city := query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "1"}}}
	steps := []struct {
		b      asmx.Binding
		q      query
		key    string
		status int
		marks  []bool // of the file after the step
	}{
		{asmx.HTTPGet, provinces, "wrong-key-1", 500, []bool{false}},
		{asmx.SOAP11, provinces, "wrong-key-1", 500, []bool{false, false}},
		{asmx.HTTPGet, provinces, testKey, 200, []bool{true, true, false}},
		{asmx.SOAP12, city, "wrong-key-2", 500, []bool{true, true, false, true}},
		{asmx.JSON, query{Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "1"}, {"dblLongitude", "2"}, {"bytRadius", "3"}}},
			"wrong-key-3", 500, []bool{true, true, false, true, true}},
		{asmx.HTTPPost, city, testKey, 200, []bool{true, true, false, true, true, false}},
	}
	for k, s := range steps {
		if status, body := do(t, rec.Client(), request(t, up.URL, s.b, s.q, s.key, false)); status != s.status {
			t.Fatalf("step %d: %s over %s: status %d, want %d: %s", k, s.q, s.b, status, s.status, body)
		}
		if !everyCapture {
			if k%2 == 1 {
				continue
			}
			if err := rec.Save(); err != nil {
				t.Fatal(err)
			}
		}
		if got := marks(t, path); !equalBools(got, s.marks) {
			t.Errorf("after step %d: marks %v, want %v", k, got, s.marks)
		}
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	if last := steps[len(steps)-1].marks; !equalBools(marks(t, path), last) {
		t.Errorf("after Stop: marks %v, want %v", marks(t, path), last)
	}
	assertNoKey(t, path)
	raw := readFile(t, path)
	if n := strings.Count(raw, cassettes.RejectedPlaceholder); n < 4 {
		t.Errorf("the cassette holds %q %d times, want it in the 4 rejected requests", cassettes.RejectedPlaceholder, n)
	}
	for _, k := range []string{"wrong-key-1", "wrong-key-2", "wrong-key-3"} {
		if strings.Contains(raw, k) {
			t.Errorf("the cassette holds the key %q", k)
		}
	}
}

// TestRecorderUnmarksALaterAcceptedKey: an error to a second key is a
// rejection until that key is answered 200; then it is unmarked.
func TestRecorderUnmarksALaterAcceptedKey(t *testing.T) {
	t.Parallel()
	const second = "second-key-5150"
	h, err := mockserver.New(mockserver.WithKeys(testKey, second))
	if err != nil {
		t.Fatal(err)
	}
	var failed atomic.Bool
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The second key's first call meets a passing failure.
		if strings.Contains(r.URL.RawQuery, second) && failed.CompareAndSwap(false, true) {
			http.Error(w, "Server is busy.", http.StatusServiceUnavailable)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "unmark.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithSaveInterval(0))
	if err != nil {
		t.Fatal(err)
	}
	steps := []struct {
		q      query
		key    string
		status int
		marks  []bool
	}{
		{query{Op: asmx.OpReturnProvinces}, testKey, 200, []bool{false}},
		{query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "1"}}}, second, 503, []bool{false, true}},
		{query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "2"}}}, second, 200, []bool{false, false, false}},
	}
	for k, s := range steps {
		if status, body := do(t, rec.Client(), request(t, up.URL, asmx.HTTPGet, s.q, s.key, false)); status != s.status {
			t.Fatalf("step %d: status %d, want %d: %s", k, status, s.status, body)
		}
		if got := marks(t, path); !equalBools(got, s.marks) {
			t.Errorf("after step %d: marks %v, want %v", k, got, s.marks)
		}
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
}

// TestRecorderWarnsNotOfKeyRejections: a wrong key's fault beside the
// right key's answer to the same question is a key rejection, not another
// answer: recording either order logs no "got another answer" warning.
// Appending later, an answer that does differ is warned of, counting the
// answers recorded to keys that were not rejected (the file's marks).
func TestRecorderWarnsNotOfKeyRejections(t *testing.T) {
	t.Parallel()
	h, err := mockserver.New(mockserver.WithKeys(testKey))
	if err != nil {
		t.Fatal(err)
	}
	var changed atomic.Bool
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if changed.Load() && strings.Contains(r.URL.RawQuery, testKey) {
			w.Header().Set("Content-Type", asmx.ContentTypeXML)
			_, _ = w.Write([]byte("<provinces />"))
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "warn.yaml")
	provinces, city := query{Op: asmx.OpReturnProvinces}, query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "1"}}}
	record := func(steps []struct {
		q      query
		key    string
		status int
	}) string {
		t.Helper()
		var logs mocktest.SyncBuffer
		rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithSaveInterval(0),
			cassettes.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
		if err != nil {
			t.Fatal(err)
		}
		for k, s := range steps {
			if status, body := do(t, rec.Client(), request(t, up.URL, asmx.HTTPGet, s.q, s.key, false)); status != s.status {
				t.Fatalf("step %d: status %d, want %d: %s", k, status, s.status, body)
			}
		}
		if err := rec.Stop(); err != nil {
			t.Fatal(err)
		}
		return logs.String()
	}
	logs := record([]struct {
		q      query
		key    string
		status int
	}{
		{provinces, testKey, 200}, {provinces, "wrong-key-1", 500}, // the right key first
		{city, "wrong-key-2", 500}, {city, testKey, 200}, // the wrong key first
	})
	if strings.Contains(logs, "got another answer") {
		t.Errorf("a key rejection was warned of as another answer:\n%s", logs)
	}
	if got, want := marks(t, path), []bool{false, true, true, false}; !equalBools(got, want) {
		t.Errorf("marks %v, want %v", got, want)
	}
	changed.Store(true)
	logs = record([]struct {
		q      query
		key    string
		status int
	}{{provinces, "wrong-key-3", 500}, {provinces, testKey, 200}})
	if strings.Count(logs, "got another answer") != 1 || !strings.Contains(logs, "answers=2") {
		t.Errorf("log:\n%s\nwant one warning of a changed answer, answers=2 (the rejection not counted)", logs)
	}
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestReplayKeyRejections: a question recorded with a wrong key and then
// the right one replays the right answer to accepted keys; the recorded
// rejection answers only keys the mock rejects, as recorded, in its
// binding (GET and POST alike), and the mock's own fault answers elsewhere
// and a missing key.
func TestReplayKeyRejections(t *testing.T) {
	t.Parallel()
	// The deployment words its rejection its own way, unlike the mock.
	live, _ := standIn(t)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.RequestURI = ""
		r.URL.Scheme, r.URL.Host = "http", strings.TrimPrefix(live.URL, "http://")
		resp, err := live.Client().Transport.RoundTrip(r)
		if err != nil {
			t.Error(err)
			return
		}
		defer resp.Body.Close()
		body := strings.ReplaceAll(mustRead(t, resp), "The service key (strAtmServiceKey) is not valid.", "Unknown service key.")
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.WriteHeader(resp.StatusCode)
		_, _ = w.Write([]byte(body))
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "rejected.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	provinces := query{Op: asmx.OpReturnProvinces}
	city := query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "7"}}}
	type answer struct {
		status int
		ct     string
		body   string
	}
	recorded := map[string]answer{}
	for _, s := range []struct {
		b   asmx.Binding
		q   query
		key string
	}{
		{asmx.HTTPGet, provinces, "wrong-key"},
		{asmx.SOAP11, provinces, "wrong-key"},
		{asmx.HTTPGet, provinces, testKey},
		{asmx.SOAP11, provinces, testKey},
		{asmx.HTTPGet, city, "wrong-key"}, // never asked with the right key
	} {
		resp, err := rec.Client().Do(request(t, up.URL, s.b, s.q, s.key, false))
		if err != nil {
			t.Fatal(err)
		}
		recorded[s.b.String()+s.q.Op+s.q.String()+(s.key)] = answer{resp.StatusCode, resp.Header.Get("Content-Type"), mustRead(t, resp)}
		resp.Body.Close()
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	ix, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	if st := ix.Stats(); st.KeyRejections != 3 || st.Answers != 2 {
		t.Fatalf("got %d key rejections and %d answers, want 3 and 2", st.KeyRejections, st.Answers)
	}
	rejectedGet := recorded["get"+provinces.Op+provinces.String()+"wrong-key"]
	rejectedSOAP := recorded["soap11"+provinces.Op+provinces.String()+"wrong-key"]
	rightGet := recorded["get"+provinces.Op+provinces.String()+testKey]
	rightSOAP := recorded["soap11"+provinces.Op+provinces.String()+testKey]
	if !strings.Contains(rejectedGet.body, "Unknown service key.") || !strings.Contains(rejectedSOAP.body, "Unknown service key.") {
		t.Fatalf("the recorded rejections do not hold the deployment's words: %q, %q", rejectedGet.body, rejectedSOAP.body)
	}

	for _, keys := range [][]string{{"the-only-key"}, nil} {
		h, err := mockserver.New(mockserver.WithReplay(ix, mockserver.MissFault), mockserver.WithKeys(keys...))
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		defer srv.Close()
		rows := []struct {
			name  string
			b     asmx.Binding
			q     query
			key   string
			check func(a answer) bool
		}{
			{"an accepted key over get", asmx.HTTPGet, provinces, "the-only-key", func(a answer) bool { return a == rightGet }},
			{"an accepted key over soap11", asmx.SOAP11, provinces, "the-only-key", func(a answer) bool { return a == rightSOAP }},
			{"a rejected key over get", asmx.HTTPGet, provinces, "bad", func(a answer) bool { return a == rejectedGet }},
			{"a rejected key over post", asmx.HTTPPost, provinces, "bad", func(a answer) bool { return a == rejectedGet }},
			{"a rejected key over soap11", asmx.SOAP11, provinces, "bad", func(a answer) bool { return a == rejectedSOAP }},
			{"a rejected key over soap12", asmx.SOAP12, provinces, "bad", func(a answer) bool {
				return a.status == 500 && a.ct == asmx.ContentTypeSOAP12 && strings.Contains(a.body, asmx.NamespaceSOAP12)
			}},
			{"a missing key over get", asmx.HTTPGet, provinces, "", func(a answer) bool { return a.status == 500 && a != rejectedGet }},
			{"an accepted key, a question recorded only with a wrong key", asmx.HTTPGet, city, "the-only-key", func(a answer) bool {
				return a.status == 500 && strings.Contains(a.body, "only a key rejection of it")
			}},
		}
		if keys == nil { // every non-empty key is accepted: a marked answer never answers
			rows = append(rows[:2], struct {
				name  string
				b     asmx.Binding
				q     query
				key   string
				check func(a answer) bool
			}{"any key over get", asmx.HTTPGet, provinces, "bad", func(a answer) bool { return a == rightGet }})
		}
		for _, r := range rows {
			resp, err := srv.Client().Do(request(t, srv.URL, r.b, r.q, r.key, false))
			if err != nil {
				t.Fatal(err)
			}
			a := answer{resp.StatusCode, resp.Header.Get("Content-Type"), mustRead(t, resp)}
			resp.Body.Close()
			if !r.check(a) {
				t.Errorf("keys %q, %s: got %d %q %.300q", keys, r.name, a.status, a.ct, a.body)
			}
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// keyCall is a call recorded with a key, and the status the stand-in
// answers it with.
type keyCall struct {
	b      asmx.Binding
	q      query
	key    string
	status int
}

// recordKeyCalls records calls from a stand-in that accepts testKey only
// into a new cassette named name (ModeRecordAll), failing unless each is
// answered with its status. It returns the stand-in, the Recorder, which
// the caller stops, and the cassette's path.
func recordKeyCalls(t *testing.T, name string, calls []keyCall) (*httptest.Server, *cassettes.Recorder, string) {
	t.Helper()
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), name)
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range calls {
		if status, body := do(t, rec.Client(), request(t, up.URL, c.b, c.q, c.key, false)); status != c.status {
			t.Fatalf("%s over %s with key %q: status %d, want %d: %s", c.q, c.b, c.key, status, c.status, body)
		}
	}
	return up, rec, path
}

// TestScrubKeepsKeyRejections: atmkit's placeholders are already
// redacted. Scrubbing a cassette with key rejections (recorded in every
// binding, or the reference deployment's) replaces nothing and leaves the
// file byte for byte; scrubbing one that also holds a credential replaces
// only that, keeps every mark, and the cassette replays as before: the
// right answer to accepted keys, the rejection to rejected ones.
func TestScrubKeepsKeyRejections(t *testing.T) {
	t.Parallel()
	provinces := query{Op: asmx.OpReturnProvinces}
	coords := query{Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "1"}, {"dblLongitude", "2"}, {"bytRadius", "3"}}}
	_, rec, recordedPath := recordKeyCalls(t, "rejections.yaml", []keyCall{
		{asmx.HTTPGet, provinces, testKey, 200},
		{asmx.SOAP11, provinces, "wrong-key-1", 500},
		{asmx.SOAP12, provinces, "wrong-key-1", 500},
		{asmx.HTTPGet, provinces, "wrong-key-1", 500},
		{asmx.HTTPPost, provinces, "wrong-key-2", 500},
		{asmx.JSON, coords, "wrong-key-2", 500},
		{asmx.SOAP11, provinces, testKey, 200},
	})
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	if got, want := marks(t, recordedPath), []bool{false, true, true, true, true, true, false}; !equalBools(got, want) {
		t.Fatalf("recorded marks %v, want %v", got, want)
	}

	for name, src := range map[string]string{
		"recorded in every binding": recordedPath,
		"reference typed":           filepath.Join("testdata", "reference-typed.yaml"),
		"reference legacy":          filepath.Join("testdata", "reference-legacy.yaml"),
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "copy.yaml")
			before := readFile(t, src)
			if err := os.WriteFile(path, []byte(before), 0o600); err != nil {
				t.Fatal(err)
			}
			wantMarks := marks(t, path)
			if !slices.Contains(wantMarks, true) {
				t.Fatalf("%s holds no key rejection", src)
			}
			list := readCassette(t, path)
			for _, i := range list {
				rejection := cassettes.KeyRejected(i)
				if n := cassettes.Scrub(i); n != 0 {
					t.Errorf("interaction %d (key rejection %v): Scrub replaced %d values, want 0", i.ID, rejection, n)
				}
			}
			n, inter, err := cassettes.ScrubFile(path)
			if err != nil || n != 0 || inter != 0 {
				t.Errorf("ScrubFile: got %d values in %d interactions (%v), want 0 in 0", n, inter, err)
			}
			if after := readFile(t, path); after != before {
				t.Errorf("ScrubFile changed the cassette")
			}
		})
	}

	// A credential beside the marks: only it is replaced.
	path := filepath.Join(t.TempDir(), "cookie.yaml")
	list := readCassette(t, recordedPath)
	list[1].Response.Headers = http.Header{"Set-Cookie": {"session=0123456789"}}
	writeCassette(t, path, list)
	if n, inter, err := cassettes.ScrubFile(path); err != nil || n != 1 || inter != 1 {
		t.Fatalf("ScrubFile: got %d values in %d interactions (%v), want 1 in 1", n, inter, err)
	}
	if got, want := marks(t, path), marks(t, recordedPath); !equalBools(got, want) {
		t.Errorf("marks after scrubbing: %v, want %v", got, want)
	}
	if raw := readFile(t, path); strings.Contains(raw, "0123456789") || strings.Count(raw, cassettes.RejectedPlaceholder) != strings.Count(readFile(t, recordedPath), cassettes.RejectedPlaceholder) {
		t.Errorf("after scrubbing: the cookie survives or marks changed:\n%s", raw)
	}
	replayKeys(t, "after scrubbing", path, provinces, 1, asmx.SOAP11, asmx.SOAP12, asmx.HTTPGet, asmx.HTTPPost)
}

// replayKeys replays the cassette at path with one accepted key,
// "the-only-key", and checks q in each binding: the accepted key gets 200
// on each of its calls, a rejected key the recorded 500. It returns the
// index's stats.
func replayKeys(t *testing.T, name, path string, q query, calls int, bindings ...asmx.Binding) cassettes.IndexStats {
	t.Helper()
	ix, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	defer ix.Close()
	h, err := mockserver.New(mockserver.WithReplay(ix, mockserver.MissFault), mockserver.WithKeys("the-only-key"))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, b := range bindings {
		for k := range calls {
			if status, body := do(t, srv.Client(), request(t, srv.URL, b, q, "the-only-key", false)); status != 200 {
				t.Errorf("%s: an accepted key over %s, call %d: got %d, want 200 every time: %.200s", name, b, k+1, status, body)
			}
		}
		if status, _ := do(t, srv.Client(), request(t, srv.URL, b, q, "bad", false)); status != 500 {
			t.Errorf("%s: a rejected key over %s: got %d, want the recorded 500", name, b, status)
		}
	}
	return ix.Stats()
}

// TestEmptyKeyKeptAndRejected: an empty key is no secret: it is recorded
// empty in every binding, and its error is a key rejection, marked by
// the empty key itself. Replayed, a question recorded with the right key
// and an empty one answers accepted keys the right answer every time, in
// every binding (the empty key's fault is no second answer to them).
func TestEmptyKeyKeptAndRejected(t *testing.T) {
	t.Parallel()
	provinces := query{Op: asmx.OpReturnProvinces}
	coords := query{Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "1"}, {"dblLongitude", "2"}, {"bytRadius", "3"}}}
	up, rec, path := recordKeyCalls(t, "empty.yaml", []keyCall{
		{asmx.HTTPGet, provinces, testKey, 200}, {asmx.SOAP11, provinces, testKey, 200}, {asmx.JSON, coords, testKey, 200},
		{asmx.HTTPGet, provinces, "", 500}, {asmx.HTTPPost, provinces, "", 500}, {asmx.JSON, coords, "", 500},
	})
	// The key as an empty element, as a client that sends a null writes it.
	for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP12} {
		req := request(t, up.URL, b, provinces, "", false)
		body := strings.Replace(mustReadBody(t, req), "<strAtmServiceKey></strAtmServiceKey>", "<strAtmServiceKey/>", 1)
		req.Body, req.ContentLength = io.NopCloser(strings.NewReader(body)), int64(len(body))
		if status, answer := do(t, rec.Client(), req); status != 500 {
			t.Fatalf("%s with <strAtmServiceKey/>: status %d, want 500: %s", b, status, answer)
		}
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	if got, want := marks(t, path), []bool{false, false, false, true, true, true, true, true}; !equalBools(got, want) {
		t.Errorf("marks %v, want %v", got, want)
	}
	raw := readFile(t, path)
	if n := strings.Count(raw, cassettes.RejectedPlaceholder); n != 0 {
		t.Errorf("the cassette holds %q %d times, want none: an empty key is recorded empty", cassettes.RejectedPlaceholder, n)
	}
	for _, empty := range []string{"strAtmServiceKey=&", "strAtmServiceKey=\n", "<strAtmServiceKey/>"} {
		if !strings.Contains(raw, empty) {
			t.Errorf("the cassette holds no %q: the empty key was not recorded empty", empty)
		}
	}
	ix, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	if st := ix.Stats(); st.KeyRejections != 5 || st.Answers != 3 {
		t.Errorf("got %d key rejections and %d answers, want 5 and 3", st.KeyRejections, st.Answers)
	}
	h, err := mockserver.New(mockserver.WithReplay(ix, mockserver.MissFault), mockserver.WithKeys(testKey))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP12, asmx.HTTPGet, asmx.HTTPPost} {
		for n := range 3 {
			if status, body := do(t, srv.Client(), request(t, srv.URL, b, provinces, testKey, false)); status != 200 {
				t.Errorf("call %d over %s with the right key: status %d, want 200: %.300s", n+1, b, status, body)
			}
		}
	}
}

// mustReadBody reads the body of a request written to be sent.
func mustReadBody(t *testing.T, req *http.Request) string {
	t.Helper()
	b, err := io.ReadAll(req.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReplayKeepsJSONErrorMark: ASP.NET's script handler marks its JSON
// errors with the header jsonerror: true, by which clients and atmkit
// conform tell them; a recorded one is replayed with it.
func TestReplayKeepsJSONErrorMark(t *testing.T) {
	t.Parallel()
	h, err := mockserver.New(mockserver.WithKeys(testKey), mockserver.WithJSONErrors(mockserver.JSONErrorsAjax))
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(h)
	defer up.Close()
	path := filepath.Join(t.TempDir(), "ajax.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	coords := query{Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "1"}, {"dblLongitude", "2"}, {"bytRadius", "3"}}}
	for _, key := range []string{testKey, "wrong-key-1"} {
		do(t, rec.Client(), request(t, up.URL, asmx.JSON, coords, key, false))
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	srv := replayed(t, path, testKey)
	resp, err := srv.Client().Do(request(t, srv.URL, asmx.JSON, coords, "another-wrong-key", false))
	if err != nil {
		t.Fatal(err)
	}
	body := mustRead(t, resp)
	resp.Body.Close()
	if resp.StatusCode != 500 || resp.Header.Get("jsonerror") != "true" || resp.Header.Get("Content-Type") != asmx.ContentTypeJSONError {
		t.Errorf("the recorded JSON key rejection: got %d, Content-Type %q, jsonerror %q: %.200s; want 500, %q, true",
			resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("jsonerror"), body, asmx.ContentTypeJSONError)
	}
}

// TestReplayRequestsToldApartByHeaders: requests the server reads as no
// call are matched as sent, and ASMX answers the same body differently by
// its Content-Type and SOAPAction (a SOAP 1.1 envelope sent as SOAP 1.2 is
// 415, an empty or unknown SOAPAction a fault): each gets its own
// recording, whatever order they come in.
func TestReplayRequestsToldApartByHeaders(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	body := `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ReturnProvinces xmlns="` +
		asmx.DefaultNamespace + `"><strAtmServiceKey>` + testKey + `</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`
	send := func(c *http.Client, base, ct, action string) (int, string) {
		req, err := http.NewRequest(http.MethodPost, base+asmx.ServicePath, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", ct)
		if action != "-" {
			req.Header.Set("SOAPAction", action)
		}
		return do(t, c, req)
	}
	variants := []struct{ ct, action string }{
		{asmx.ContentTypeSOAP12, "-"}, {asmx.ContentTypeXML, `""`}, {asmx.ContentTypeXML, `"urn:no-such-action"`},
	}
	path := filepath.Join(t.TempDir(), "raw.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]int{}
	for k, v := range variants {
		want[k], _ = send(rec.Client(), up.URL, v.ct, v.action)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	if want[0] != 415 || want[1] != 500 || want[2] != 500 {
		t.Fatalf("recorded statuses %v, want 415, 500, 500", want)
	}
	srv := replayed(t, path, testKey)
	for _, k := range []int{2, 1, 0, 0, 1} {
		if status, answer := send(srv.Client(), srv.URL, variants[k].ct, variants[k].action); status != want[k] {
			t.Errorf("Content-Type %s, SOAPAction %s: status %d, want %d as recorded: %.200s", variants[k].ct, variants[k].action, status, want[k], answer)
		}
	}
}

// TestScrubFileMarksKeyRejections: a cassette recorded with go-vcr alone
// (raw keys, a wrong key's faults beside the right key's answers) is
// scrubbed with the key rejections marked by the Recorder's rule, so a
// replay answers an accepted key the right answer every time, not the
// answers in turn.
func TestScrubFileMarksKeyRejections(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t) // accepts testKey only
	path := filepath.Join(t.TempDir(), "elsewhere.yaml")
	r, err := recorder.NewWithOptions(&recorder.Options{CassetteName: strings.TrimSuffix(path, ".yaml"), Mode: recorder.ModeRecordOnly})
	if err != nil {
		t.Fatal(err)
	}
	provinces := query{Op: asmx.OpReturnProvinces}
	city := query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "7"}}}
	calls := []struct {
		b   asmx.Binding
		q   query
		key string
	}{
		{asmx.HTTPGet, provinces, testKey},
		{asmx.SOAP11, provinces, "wrong-key-1"},
		{asmx.HTTPGet, provinces, "wrong-key-1"},
		{asmx.SOAP11, provinces, testKey},
		{asmx.HTTPGet, city, "wrong-key-2"}, // never asked with the right key
		{asmx.HTTPGet, provinces, ""},       // an empty key: marked by itself
	}
	for _, c := range calls {
		if status, body := do(t, r.GetDefaultClient(), request(t, up.URL, c.b, c.q, c.key, false)); (status == 200) != (c.key == testKey) {
			t.Fatalf("%s over %s with key %q: status %d: %s", c.q, c.b, c.key, status, body)
		}
	}
	if err := r.Stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(readFile(t, path), testKey) {
		t.Fatal("go-vcr's cassette holds no raw key: nothing to scrub")
	}
	raw := filepath.Join(t.TempDir(), "raw.yaml")
	if err := os.WriteFile(raw, []byte(readFile(t, path)), 0o600); err != nil {
		t.Fatal(err)
	}

	list := readCassette(t, path)
	if n, inter, rej := cassettes.ScrubList(list); n < 6 || inter != 6 || rej != 3 {
		t.Errorf("ScrubList: %d values in %d interactions, %d key rejections; want at least 6 in 6, 3", n, inter, rej)
	}
	if n, inter, err := cassettes.ScrubFile(path); err != nil || n < 6 || inter != 6 {
		t.Fatalf("ScrubFile: %d values in %d interactions (%v), want at least 6 in 6", n, inter, err)
	}
	if got, want := marks(t, path), []bool{false, true, true, false, true, true}; !equalBools(got, want) {
		t.Errorf("marks after scrubbing: %v, want %v", got, want)
	}
	scrubbed := readFile(t, path)
	for _, key := range []string{testKey, "wrong-key-1", "wrong-key-2"} {
		if strings.Contains(scrubbed, key) {
			t.Errorf("the scrubbed cassette holds %q", key)
		}
	}

	// Replayed, scrubbed or not (the index marks a raw cassette as scrub
	// would), an accepted key gets the right answer every time.
	for name, p := range map[string]string{"scrubbed": path, "not scrubbed": raw} {
		if st := replayKeys(t, name, p, provinces, 3, asmx.HTTPGet, asmx.SOAP11); st.KeyRejections != 4 {
			t.Errorf("%s: the index holds %d key rejections, want 4", name, st.KeyRejections)
		}
	}
}

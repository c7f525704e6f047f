package cassettes_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/mockserver"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// TestConcurrentRecording sends parallel requests, distinct and identical,
// through the proxy while it records (run with -race).
func TestConcurrentRecording(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "parallel.yaml")
	rec, proxy := recordingProxy(t, up.URL, path, cassettes.WithSaveInterval(time.Millisecond))
	const workers, each, distinct = 16, 25, 40
	var wg sync.WaitGroup
	var failed atomic.Int64
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for n := 0; n < each; n++ {
				id := (w*each + n) % distinct
				q := query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", strconv.Itoa(id)}}}
				resp, err := proxy.Client().Do(request(t, proxy.URL, asmx.HTTPGet, q, testKey, false))
				if err != nil || resp.StatusCode != 200 {
					failed.Add(1)
					continue
				}
				resp.Body.Close()
			}
		}(w)
	}
	wg.Wait()
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := rec.Stop(); err != nil { // twice is fine
		t.Fatal(err)
	}
	if failed.Load() > 0 {
		t.Fatalf("%d requests failed", failed.Load())
	}
	list := readCassette(t, path)
	// The stand-in answers each question the same way every time: one
	// interaction per distinct question.
	if len(list) != distinct {
		t.Fatalf("got %d interactions, want %d (one per distinct question and answer)", len(list), distinct)
	}
	assertNoKey(t, path)
	// Nothing that changes on every recording: no Date, no duration.
	for _, i := range list {
		if i.Response.Headers.Get("Date") != "" || i.Response.Duration != 0 {
			t.Fatalf("interaction %d holds a Date %q or a duration %v", i.ID, i.Response.Headers.Get("Date"), i.Response.Duration)
		}
	}
	status, body := do(t, proxy.Client(), request(t, proxy.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false))
	if status != http.StatusBadGateway {
		t.Fatalf("a request after Stop: status %d, want 502: %s", status, body)
	}
	// The answer names the cassette by its file name, not where it lies.
	if !strings.Contains(body, filepath.Base(path)) || strings.Contains(body, filepath.Dir(path)) {
		t.Errorf("a request after Stop: got %q, want the cassette's file name without its directory %s", body, filepath.Dir(path))
	}
}

// changing answers each call with a new count, to test sequences.
func changing(t *testing.T) *httptest.Server {
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", asmx.ContentTypeXML)
		w.Header().Set("Set-Cookie", "sid="+testKey)
		fmt.Fprintf(w, `<?xml version="1.0" encoding="utf-8"?>`+"\n<provinces><n>%d</n></provinces>", n.Add(1)/2)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRecorderSequence: repeated identical requests are recorded once per
// distinct answer and replayed in recorded order, then the last forever.
func TestRecorderSequence(t *testing.T) {
	t.Parallel()
	srv := changing(t)
	path := filepath.Join(t.TempDir(), "seq")
	rec, err := cassettes.New(path) // ModeRecordOnce, no cassette yet: records
	if err != nil {
		t.Fatal(err)
	}
	q := query{Op: asmx.OpReturnProvinces}
	var recorded []string
	for i := 0; i < 5; i++ { // answers 0 1 1 2 2
		_, body := do(t, rec.Client(), request(t, srv.URL, asmx.HTTPGet, q, testKey, false))
		recorded = append(recorded, body)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	if n := mustLen(t, path); n != 3 {
		t.Fatalf("recorded %d interactions, want 3 (one per distinct answer)", n)
	}
	assertNoKey(t, path+".yaml")

	srv.Close()
	rep, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeReplayOnly))
	if err != nil {
		t.Fatal(err)
	}
	defer rep.Stop()
	want := []string{recorded[0], recorded[1], recorded[3], recorded[3], recorded[3]}
	for i, w := range want {
		// Another key and SOAP-free GET in another parameter order: same question.
		_, got := do(t, rep.Client(), request(t, srv.URL, asmx.HTTPGet, q, "other", i%2 == 0))
		if got != w {
			t.Fatalf("replay %d: got %q, want %q", i, got, w)
		}
	}
	_, err = rep.Client().Do(request(t, srv.URL, asmx.HTTPGet, query{Op: asmx.OpReturnInstitutions}, "k", false))
	if !errors.Is(err, cassettes.ErrNoInteraction) {
		t.Fatalf("unrecorded request: got %v, want ErrNoInteraction", err)
	}
}

func mustLen(t *testing.T, path string) int {
	t.Helper()
	list := readCassette(t, path)
	return len(list)
}

func TestErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	_, err := cassettes.New(filepath.Join(dir, "missing"), cassettes.WithMode(cassettes.ModeReplayOnly))
	if !errors.Is(err, cassettes.ErrCassetteNotFound) {
		t.Errorf("missing cassette: got %v, want ErrCassetteNotFound", err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("version: 1\ninteractions: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := cassettes.New(bad); !errors.Is(err, cassettes.ErrUnsupportedFormat) {
		t.Errorf("version 1: got %v, want ErrUnsupportedFormat", err)
	}
	if err := os.WriteFile(bad, []byte("{{{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := cassettes.LoadIndex([]string{bad}); !errors.Is(err, cassettes.ErrInvalidCassette) {
		t.Errorf("not YAML: got %v, want ErrInvalidCassette", err)
	}
	if _, err := cassettes.New(bad, cassettes.WithMode(cassettes.Mode(42))); !errors.Is(err, cassettes.ErrInvalidMode) {
		t.Errorf("mode 42: got %v, want ErrInvalidMode", err)
	}
	if _, err := cassettes.ParseMode("sometimes"); !errors.Is(err, cassettes.ErrInvalidMode) {
		t.Errorf("ParseMode: got %v", err)
	}
	// A directory is no cassette: it would record into a hidden DIR/.yaml
	// that no directory replay reads.
	if _, err := cassettes.New(dir+string(filepath.Separator), cassettes.WithMode(cassettes.ModeRecordAll)); err == nil || !strings.Contains(err.Error(), "names a directory") {
		t.Errorf("a directory: got %v, want an error saying it names a directory", err)
	}
}

// TestRecordNewEpisodes: ModeRecordNew replays what it has and appends the rest.
func TestRecordNewEpisodes(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "new.yaml")
	q1 := query{Op: asmx.OpReturnProvinces}
	q2 := query{Op: asmx.OpReturnInstitutions}
	for round, qs := range [][]query{{q1}, {q1, q2, q2}} {
		rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordNew))
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range qs {
			if status, _ := do(t, rec.Client(), request(t, up.URL, asmx.SOAP12, q, testKey, false)); status != 200 {
				t.Fatalf("round %d: status %d", round, status)
			}
		}
		if err := rec.Stop(); err != nil {
			t.Fatal(err)
		}
	}
	if n := mustLen(t, path); n != 2 {
		t.Fatalf("got %d interactions, want 2", n)
	}
}

// TestRecordFormValueWithLeadingBreak: a POST form value that yaml.v3 would
// write as a literal block it cannot read back (a line break, then indented
// text) is recorded so that the cassette loads, keeps the value exactly and
// replays it, recorded directly or through go-vcr.
func TestRecordFormValueWithLeadingBreak(t *testing.T) {
	t.Parallel()
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", asmx.ContentTypeXML)
		fmt.Fprintf(w, "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<city>%s</city>", asmx.AppendEscaped(nil, r.PostFormValue(asmx.ParamCity)))
	}))
	t.Cleanup(echo.Close)
	const city = "\n  indented"
	q := query{Op: asmx.OpReturnAtmSearchByAddress, Params: [][2]string{{asmx.ParamAddress, "1 Main St"}, {asmx.ParamCity, city}}}
	for _, mode := range []cassettes.Mode{cassettes.ModeRecordAll, cassettes.ModeRecordNew} {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "form.yaml")
			rec, err := cassettes.New(path, cassettes.WithMode(mode))
			if err != nil {
				t.Fatal(err)
			}
			status, recorded := do(t, rec.Client(), request(t, echo.URL, asmx.HTTPPost, q, testKey, false))
			if err := rec.Stop(); err != nil {
				t.Fatal(err)
			}
			if status != http.StatusOK || !strings.Contains(recorded, "<city>"+city+"</city>") {
				t.Fatalf("recording: status %d, answer %q", status, recorded)
			}
			list := readCassette(t, path)
			if len(list) != 1 {
				t.Fatalf("cassette holds %d interactions, want 1", len(list))
			}
			if got := list[0].Request.Form[asmx.ParamCity]; !slices.Equal(got, []string{city}) {
				t.Fatalf("cassette holds the city %q, want %q", got, city)
			}
			c, err := cassette.Load(strings.TrimSuffix(path, ".yaml"))
			if err != nil || !slices.Equal(c.Interactions[0].Request.Form[asmx.ParamCity], []string{city}) {
				t.Fatalf("go-vcr loads %v: %v", c, err)
			}
			rep, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeReplayOnly))
			if err != nil {
				t.Fatal(err)
			}
			defer rep.Stop()
			if _, got := do(t, rep.Client(), request(t, echo.URL, asmx.HTTPPost, q, "other", false)); got != recorded {
				t.Errorf("replay: got %q, want %q", got, recorded)
			}
			// What yaml.v3 used to read back: the line break lost.
			lost := query{Op: q.Op, Params: [][2]string{q.Params[0], {asmx.ParamCity, "  indented"}}}
			if _, err := rep.Client().Do(request(t, echo.URL, asmx.HTTPPost, lost, "other", false)); !errors.Is(err, cassettes.ErrNoInteraction) {
				t.Errorf("the city without its line break: got %v, want ErrNoInteraction", err)
			}
		})
	}
}

// TestStopIsFinal: a call in flight when Stop is called still gets its
// answer, but the cassette Stop wrote stays as it is and Len with it: with
// a save after each interaction, the late answer used to be appended and
// the file rewritten after Stop had returned (a process exiting then could
// leave a temporary file beside the cassette, and said it saved fewer
// interactions than Len counted).
func TestStopIsFinal(t *testing.T) {
	t.Parallel()
	h, err := mockserver.New(mockserver.WithKeys(testKey))
	if err != nil {
		t.Fatal(err)
	}
	arrived, release := make(chan struct{}), make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, asmx.OpReturnInstitutions) {
			close(arrived)
			<-release
		}
		h.ServeHTTP(w, r)
	}))
	defer up.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "final.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithSaveInterval(0))
	if err != nil {
		t.Fatal(err)
	}
	if status, body := do(t, rec.Client(), request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)); status != 200 {
		t.Fatalf("first call: %d %s", status, body)
	}
	late := make(chan int, 1)
	go func() {
		resp, err := rec.Client().Do(request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnInstitutions}, testKey, false))
		if err != nil {
			late <- 0
			return
		}
		resp.Body.Close()
		late <- resp.StatusCode
	}()
	<-arrived
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	close(release)
	if status := <-late; status != 200 {
		t.Errorf("the call in flight at Stop: status %d, want the upstream's 200", status)
	}
	if got, err := os.ReadFile(path); err != nil || string(got) != string(saved) {
		t.Errorf("the cassette changed after Stop returned (%v):\n%s", err, got)
	}
	if n := rec.Len(); n != 1 {
		t.Errorf("Len after Stop: %d, want the 1 interaction saved", n)
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 1 {
		t.Errorf("the cassette's directory holds %v (%v), want the cassette only", entries, err)
	}
}

// TestLaxContentTypeForwarded: a SOAP call whose content type has a
// parameter that does not parse reaches the upstream and is recorded in
// every recording mode, also through go-vcr's recorder (ModeRecordNew),
// whose form parsing fails on it (atmkit's own capture records it). It
// used to fail in both without reaching the upstream, then was forwarded
// unrecorded in ModeRecordNew.
func TestLaxContentTypeForwarded(t *testing.T) {
	t.Parallel()
	h, err := mockserver.New(mockserver.WithKeys(testKey))
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(h)
	defer up.Close()
	body := `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ReturnProvinces xmlns="http://tempuri.org/atmService">` +
		`<strAtmServiceKey>` + testKey + `</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`
	for _, tc := range []struct {
		mode cassettes.Mode
		want int
	}{{cassettes.ModeRecordAll, 1}, {cassettes.ModeRecordNew, 1}} {
		path := filepath.Join(t.TempDir(), "lax.yaml")
		rec, err := cassettes.New(path, cassettes.WithMode(tc.mode))
		if err != nil {
			t.Fatal(err)
		}
		req, err := http.NewRequest(http.MethodPost, up.URL+"/service/service.asmx", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "text/xml; charset")
		req.Header.Set("SOAPAction", `"http://tempuri.org/atmService/ReturnProvinces"`)
		if status, got := do(t, rec.Client(), req); status != 200 {
			t.Errorf("mode %v: %d %.300s", tc.mode, status, got)
		}
		if n := rec.Len(); n != tc.want {
			t.Errorf("mode %v: %d interactions recorded, want %d", tc.mode, n, tc.want)
		}
		if err := rec.Stop(); err != nil && !errors.Is(err, cassettes.ErrNothingRecorded) {
			t.Error(err)
		}
	}
}

// TestRecorderHoldsTheCassette: a Recorder that may record holds its
// cassette until Stop, so a second one (a parallel test, another process)
// and a rewrite (ScrubFile) fail with ErrCassetteBusy rather than drop the
// first one's interactions; one that only replays holds nothing.
func TestRecorderHoldsTheCassette(t *testing.T) {
	t.Parallel()
	srv := changing(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "held")
	// What a save cut short by SIGKILL leaves (atomicfile's temporary
	// file) is removed by the next holder; another cassette's is not.
	stale, other := filepath.Join(dir, ".held.yaml.12345.tmp"), filepath.Join(dir, ".other.yaml.12345.tmp")
	for _, f := range []string{stale, other} {
		if err := os.WriteFile(f, []byte("interactions:\n  - id: 0\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithSaveInterval(0))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("a killed save's temporary file is left: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another cassette's temporary file was removed: %v", err)
	}
	do(t, rec.Client(), request(t, srv.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false))
	for _, mode := range []cassettes.Mode{cassettes.ModeRecordAll, cassettes.ModeRecordNew} {
		if r2, err := cassettes.New(path+".yaml", cassettes.WithMode(mode)); !errors.Is(err, cassettes.ErrCassetteBusy) {
			if r2 != nil {
				_ = r2.Stop()
			}
			t.Errorf("a second recorder in mode %v: got %v, want ErrCassetteBusy", mode, err)
		}
	}
	if _, _, err := cassettes.ScrubFile(path); !errors.Is(err, cassettes.ErrCassetteBusy) {
		t.Errorf("ScrubFile while recording: got %v, want ErrCassetteBusy", err)
	}
	for _, mode := range []cassettes.Mode{cassettes.ModeReplayOnly, cassettes.ModeRecordOnce} { // the cassette exists: both only replay
		rep, err := cassettes.New(path, cassettes.WithMode(mode))
		if err != nil {
			t.Fatalf("a recorder in mode %v (replaying) while another records: %v", mode, err)
		}
		_ = rep.Stop()
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	once, err := cassettes.New(path) // replays, holding nothing
	if err != nil {
		t.Fatal(err)
	}
	defer once.Stop()
	again, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordNew))
	if err != nil {
		t.Fatalf("a recorder once the first stopped: %v", err)
	}
	do(t, again.Client(), request(t, srv.URL, asmx.HTTPGet, query{Op: asmx.OpReturnInstitutions}, testKey, false))
	if err := again.Stop(); err != nil {
		t.Fatal(err)
	}
	if n := mustLen(t, path); n != 2 {
		t.Errorf("the cassette holds %d interactions, want both recorders' 2", n)
	}
}

// TestRecordSpoolsBetweenSaves: between saves (an hour apart here, as on a
// long recording's large cassette), what was recorded waits encoded in a
// spool file beside the cassette, not in memory; Stop writes the whole
// cassette from it and removes it.
func TestRecordSpoolsBetweenSaves(t *testing.T) {
	t.Parallel()
	big := strings.Repeat("<ATM><Name>Spooled</Name></ATM>", 2048) // 62 KB
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", asmx.ContentTypeXML)
		fmt.Fprintf(w, `<?xml version="1.0" encoding="utf-8"?>`+"\n<ATMs><City>%s</City>%s</ATMs>", r.URL.Query().Get("intCityID"), big)
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	path := filepath.Join(dir, "spooled.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithSaveInterval(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	const calls = 40 // 2.4 MB of answers
	for k := range calls {
		q := query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", strconv.Itoa(k)}}}
		if status, body := do(t, rec.Client(), request(t, srv.URL, asmx.HTTPGet, q, testKey, false)); status != 200 {
			t.Fatalf("call %d: %d %.200s", k, status, body)
		}
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("the cassette was written before its save: %v", err)
	}
	spools, _ := filepath.Glob(filepath.Join(dir, ".spooled.yaml.spool-*.tmp"))
	if len(spools) != 1 {
		t.Fatalf("got spool files %q, want one", spools)
	}
	if st, err := os.Stat(spools[0]); err != nil || st.Size() < 1<<20 {
		t.Errorf("the spool holds %v bytes (err %v), want the calls past the first MB", st.Size(), err)
	} else if st.Mode().Perm()&0o077 != 0 {
		t.Errorf("the spool is readable by others: %v", st.Mode())
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	list := readCassette(t, path)
	if len(list) != calls {
		t.Fatalf("the cassette holds %d interactions, want %d", len(list), calls)
	}
	for k, i := range list {
		if want := "<City>" + strconv.Itoa(k) + "</City>" + big; !strings.Contains(i.Response.Body, want) {
			t.Fatalf("interaction %d: the answer is not the call's: %.100s", k, i.Response.Body)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
		t.Errorf("left beside the cassette after Stop: %q", left)
	}
}

// TestRecordIntoForeignCassette: recording into a cassette made elsewhere,
// which holds raw keys, writes it back scrubbed: the interactions it held
// as every one recorded.
func TestRecordIntoForeignCassette(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	golden, err := os.ReadFile(filepath.Join("testdata", "golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "foreign.yaml")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(golden), cassettes.Placeholder, testKey)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []cassettes.Mode{cassettes.ModeRecordAll, cassettes.ModeRecordNew} {
		rec, err := cassettes.New(path, cassettes.WithMode(mode))
		if err != nil {
			t.Fatal(err)
		}
		do(t, rec.Client(), request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnInstitutions}, testKey, false))
		if err := rec.Stop(); err != nil {
			t.Fatal(err)
		}
		assertNoKey(t, path)
	}
}

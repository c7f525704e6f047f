package cassettes_test

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/mockserver"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// TestBeforeSaveHookCannotWriteAKey: what a BeforeSave hook writes into an
// interaction is scrubbed as the capture was, so no hook can put a key back
// into the file; without such a hook the interaction is scrubbed once.
func TestBeforeSaveHookCannotWriteAKey(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	const leaked = "hook-written-key-7731"
	for name, hook := range map[string]func(*cassette.Interaction) error{
		"key in the URL": func(i *cassette.Interaction) error {
			i.Request.URL += "&strAtmServiceKey=" + leaked
			return nil
		},
		"key in the body": func(i *cassette.Interaction) error {
			i.Request.Body = "<strAtmServiceKey>" + leaked + "</strAtmServiceKey>"
			return nil
		},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "hooked.yaml")
			rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithHook(cassettes.BeforeSave, hook))
			if err != nil {
				t.Fatal(err)
			}
			if status, body := do(t, rec.Client(), request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)); status != 200 {
				t.Fatalf("status %d: %.200s", status, body)
			}
			if err := rec.Stop(); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), leaked) || strings.Contains(string(b), testKey) {
				t.Errorf("the cassette holds a key:\n%s", b)
			}
			if !strings.Contains(string(b), cassettes.Placeholder) {
				t.Errorf("the cassette holds no %s:\n%s", cassettes.Placeholder, b)
			}
		})
	}
}

// TestBeforeSaveHookSeesWhatJoins: a BeforeSave hook runs on an
// interaction only when it joins the cassette (atmkit record's progress
// lines say "recorded" from it). A call answered after Stop is not
// recorded, and its hook does not run; one whose hook was running when
// Stop came is in the file Stop writes.
func TestBeforeSaveHookSeesWhatJoins(t *testing.T) {
	t.Parallel()
	h, err := mockserver.New(mockserver.WithKeys(testKey))
	if err != nil {
		t.Fatal(err)
	}
	late := query{Op: asmx.OpReturnAtmSearchByInstitution, Params: [][2]string{{"intInstitutionID", "3"}}}
	arrived, answer := make(chan struct{}), make(chan struct{})
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, late.Op) {
			close(arrived)
			<-answer
		}
		h.ServeHTTP(w, r)
	}))
	defer up.Close()
	var mu sync.Mutex
	var hooked []string
	entered, release := make(chan struct{}), make(chan struct{})
	hook := func(i *cassette.Interaction) error {
		op := cassettes.EntryOf(i).Operation
		mu.Lock()
		hooked = append(hooked, op)
		mu.Unlock()
		if op == asmx.OpReturnInstitutions {
			close(entered)
			<-release
		}
		return nil
	}
	path := filepath.Join(t.TempDir(), "joins.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithSaveInterval(0),
		cassettes.WithHook(cassettes.BeforeSave, hook))
	if err != nil {
		t.Fatal(err)
	}
	if status, body := do(t, rec.Client(), request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)); status != 200 {
		t.Fatalf("first call: %d %.200s", status, body)
	}
	// A call at the upstream as Stop comes, answered after it.
	lateStatus := make(chan int, 1)
	go func() {
		status, _ := do(t, rec.Client(), request(t, up.URL, asmx.HTTPGet, late, testKey, false))
		lateStatus <- status
	}()
	<-arrived
	// A call whose hook runs as Stop comes.
	held := make(chan int, 1)
	go func() {
		status, _ := do(t, rec.Client(), request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnInstitutions}, testKey, false))
		held <- status
	}()
	<-entered
	stopped := make(chan error, 1)
	go func() { stopped <- rec.Stop() }()
	for { // until Stop has begun: a call then fails with ErrStopped
		_, err := rec.RoundTrip(request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false))
		if errors.Is(err, cassettes.ErrStopped) {
			break
		}
		runtime.Gosched()
	}
	close(release)
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	close(answer)
	if status := <-lateStatus; status != 200 {
		t.Errorf("the call answered after Stop: status %d, want the upstream's 200", status)
	}
	if status := <-held; status != 200 {
		t.Errorf("the call whose hook ran at Stop: status %d, want 200", status)
	}
	var ops []string
	for _, i := range readCassette(t, path) {
		ops = append(ops, cassettes.EntryOf(i).Operation)
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(ops, hooked) {
		t.Errorf("the cassette holds %q, the BeforeSave hook saw %q: want the same interactions", ops, hooked)
	}
}

// TestBeforeReplayHookChangesItsOwnCopy: a BeforeReplay hook changing the
// maps of the interaction it is given in place (its Form, its headers)
// changes its own copy when the recorder answers again a call go-vcr
// cannot record (ModeRecordNew, a query net/http does not parse): calls
// replayed at once do not race on the recorded one (go test -race), and
// no replay sees what the hook wrote at another.
func TestBeforeReplayHookChangesItsOwnCopy(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	var mu sync.Mutex
	var stale []string
	hook := func(i *cassette.Interaction) error {
		if i.Request.Form.Get("hooked") != "" || i.Response.Headers.Get("X-Hooked") != "" {
			mu.Lock()
			stale = append(stale, i.Request.Form.Get("hooked"))
			mu.Unlock()
		}
		i.Request.Form.Set("hooked", "yes")
		i.Response.Headers.Set("X-Hooked", "yes")
		return nil
	}
	path := filepath.Join(t.TempDir(), "unparsed.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordNew), cassettes.WithSaveInterval(0),
		cassettes.WithHook(cassettes.BeforeReplay, hook))
	if err != nil {
		t.Fatal(err)
	}
	call := func() *http.Request {
		req := request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)
		req.URL.RawQuery += "&x=%zz" // net/http does not parse it; ASP.NET does
		return req
	}
	if status, body := do(t, rec.Client(), call()); status != 200 {
		t.Fatalf("first call: %d %.200s", status, body)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				if status, body := do(t, rec.Client(), call()); status != 200 {
					t.Errorf("replay: %d %.200s", status, body)
				}
			}
		}()
	}
	wg.Wait()
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(stale) > 0 {
		t.Errorf("%d replays handed the hook an interaction holding what it wrote at another", len(stale))
	}
}

// TestBeforeReplayHookLeavesTheCassetteAlone: a BeforeReplay hook
// changing the headers of a fresh capture in place changes its own
// interaction, not the one the cassette holds, which a save may be
// writing at that moment (go test -race). The hook waits for a save that
// writes its interaction, as the recorder's periodic save would while a
// slower hook runs.
func TestBeforeReplayHookLeavesTheCassetteAlone(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	var path string // the subtest's cassette
	hook := func(i *cassette.Interaction) error {
		i.Response.Headers.Set("X-Hooked", "yes")
		i.Request.Headers.Set("X-Hooked", "yes")
		for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(time.Millisecond) {
			if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), asmx.OpReturnProvinces) {
				return nil
			}
		}
		return errors.New("no save wrote the interaction within 10s")
	}
	for _, mode := range []cassettes.Mode{cassettes.ModeRecordAll, cassettes.ModeRecordNew} {
		t.Run(mode.String(), func(t *testing.T) {
			path = filepath.Join(t.TempDir(), "replayhook.yaml")
			rec, err := cassettes.New(path, cassettes.WithMode(mode), cassettes.WithSaveInterval(time.Millisecond),
				cassettes.WithHook(cassettes.BeforeReplay, hook))
			if err != nil {
				t.Fatal(err)
			}
			if status, body := do(t, rec.Client(), request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)); status != 200 {
				t.Fatalf("status %d: %.200s", status, body)
			}
			if err := rec.Stop(); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), "X-Hooked") {
				t.Errorf("the cassette holds what the BeforeReplay hook wrote:\n%.2000s", b)
			}
		})
	}
}

// TestHookCallingStop: a hook that calls the recorder's Stop never hangs
// the call. An AfterCapture hook's Stop stops the recording (the call's
// interaction is not recorded: Stop came first, and found nothing to
// write); a BeforeSave hook's, run
// while its interaction joins the cassette (which Stop waits for), is
// refused with ErrStopInHook and the recording goes on.
func TestHookCallingStop(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	for _, tt := range []struct {
		name      string
		stage     cassettes.Stage
		wantStop  error // what the hook's Stop returns
		wantAfter error // what the next call gets
	}{
		{"AfterCapture", cassettes.AfterCapture, cassettes.ErrNothingRecorded, cassettes.ErrStopped},
		{"BeforeSave", cassettes.BeforeSave, cassettes.ErrStopInHook, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "stop.yaml")
			var rec *cassettes.Recorder
			stopErr := make(chan error, 1)
			hook := func(i *cassette.Interaction) error {
				select {
				case stopErr <- rec.Stop():
				default: // the hook's Stop once
				}
				return nil
			}
			rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithHook(tt.stage, hook))
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan int, 1)
			go func() {
				resp, err := rec.Client().Do(request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false))
				if err != nil {
					t.Error(err)
					done <- 0
					return
				}
				resp.Body.Close()
				done <- resp.StatusCode
			}()
			select { // a hang detector, not a timing assertion
			case status := <-done:
				if status != http.StatusOK {
					t.Fatalf("the call: status %d, want 200", status)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the call hangs: the hook's Stop never returned")
			}
			if err := <-stopErr; !errors.Is(err, tt.wantStop) {
				t.Errorf("the hook's Stop: got %v, want %v", err, tt.wantStop)
			}
			_, err = rec.Client().Do(request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnInstitutions}, testKey, false))
			if !errors.Is(err, tt.wantAfter) {
				t.Errorf("the next call: got %v, want %v", err, tt.wantAfter)
			}
			err = rec.Stop()
			if tt.stage == cassettes.BeforeSave {
				if err != nil {
					t.Fatalf("Stop: %v", err)
				}
				if n := len(readCassette(t, path)); n != 2 {
					t.Errorf("the cassette holds %d interactions, want 2", n)
				}
			} else if !errors.Is(err, cassettes.ErrNothingRecorded) {
				t.Errorf("Stop again: got %v, want the first Stop's ErrNothingRecorded", err)
			}
		})
	}
}

// TestBeforeReplayHookReachesTheClientOnACapture: what a BeforeReplay hook
// changes in the answer (a header set, a header removed, the body) reaches
// the client on a fresh capture too, as go-vcr's recorder returns the
// interaction its hooks changed, in every mode that captures (ModeRecordNew
// through go-vcr's recorder, and a call go-vcr cannot record); the
// headers the hook leaves alone come as the server sent them (its Date
// too, which the cassette drops), and the cassette holds none of it.
func TestBeforeReplayHookReachesTheClientOnACapture(t *testing.T) {
	t.Parallel()
	mock, _ := standIn(t)
	target, err := url.Parse(mock.URL)
	if err != nil {
		t.Fatal(err)
	}
	iis := httputil.NewSingleHostReverseProxy(target)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Powered-By", "ASP.NET") // as IIS adds it
		iis.ServeHTTP(w, r)
	}))
	t.Cleanup(up.Close)
	hook := func(i *cassette.Interaction) error {
		i.Response.Headers.Set("X-Hooked", "yes")
		i.Response.Headers.Del("X-Powered-By")
		if !strings.HasSuffix(i.Response.Body, "<!-- hooked -->") { // go-vcr hands a replay the interaction the hooks changed before
			i.Response.Body += "<!-- hooked -->"
		}
		return nil
	}
	for _, tt := range []struct {
		mode     cassettes.Mode
		unparsed bool // a query net/http does not parse (%zz): go-vcr's recorder refuses it
	}{
		{cassettes.ModeRecordAll, false},
		{cassettes.ModeRecordOnce, false},
		{cassettes.ModeRecordNew, false},
		{cassettes.ModeRecordNew, true},
	} {
		t.Run(fmt.Sprint(tt.mode, tt.unparsed), func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "hooked.yaml")
			rec, err := cassettes.New(path, cassettes.WithMode(tt.mode), cassettes.WithHook(cassettes.BeforeReplay, hook))
			if err != nil {
				t.Fatal(err)
			}
			call := func() *http.Request {
				req := request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)
				if tt.unparsed {
					req.URL.RawQuery += "&x=%zz"
				}
				return req
			}
			direct, err := http.DefaultClient.Do(call())
			if err != nil {
				t.Fatal(err)
			}
			plain, _ := io.ReadAll(direct.Body)
			direct.Body.Close()
			if direct.Header.Get("X-Powered-By") == "" || direct.Header.Get("Date") == "" {
				t.Fatalf("the stand-in sends no X-Powered-By or Date: %v", direct.Header)
			}
			for n, what := range []string{"the capture", "the call again"} { // ModeRecordNew replays it
				resp, err := rec.Client().Do(call())
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if got := resp.Header.Get("X-Hooked"); got != "yes" {
					t.Errorf("%s: X-Hooked: got %q, want %q", what, got, "yes")
				}
				if got := resp.Header.Values("X-Powered-By"); len(got) > 0 {
					t.Errorf("%s: X-Powered-By: got %q, want none (the hook removed it)", what, got)
				}
				if got, want := string(b), string(plain)+"<!-- hooked -->"; !strings.HasSuffix(got, want) {
					t.Errorf("%s: body: got %.300q, want it to end %.300q", what, got, want)
				}
				if got := resp.Header.Get("Content-Type"); got != direct.Header.Get("Content-Type") {
					t.Errorf("%s: Content-Type: got %q, want %q", what, got, direct.Header.Get("Content-Type"))
				}
				if n == 0 && resp.Header.Get("Date") == "" {
					t.Errorf("the capture: no Date: the headers the hook left alone come as the server sent them")
				}
			}
			if err := rec.Stop(); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), "X-Hooked") || strings.Contains(string(b), "hooked -->") {
				t.Errorf("the cassette holds what the BeforeReplay hook wrote:\n%.2000s", b)
			}
		})
	}
}

// TestBeforeSaveHookStopsOnAGoroutine: a BeforeSave hook ends the
// recording by starting Stop on a goroutine and returning without waiting
// for it, as Stop's documentation says (waiting would deadlock: Stop waits
// for the hook). That Stop returns once the hook has, with the hook's
// interaction in the cassette, and the recording is over.
func TestBeforeSaveHookStopsOnAGoroutine(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "stop.yaml")
	var rec *cassettes.Recorder
	stopErr := make(chan error, 1)
	var once sync.Once
	hook := func(i *cassette.Interaction) error {
		once.Do(func() { go func() { stopErr <- rec.Stop() }() })
		return nil
	}
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithHook(cassettes.BeforeSave, hook))
	if err != nil {
		t.Fatal(err)
	}
	if status, body := do(t, rec.Client(), request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)); status != 200 {
		t.Fatalf("the call: status %d: %.200s", status, body)
	}
	if err := <-stopErr; err != nil {
		t.Fatalf("the goroutine's Stop: %v", err)
	}
	if n := len(readCassette(t, path)); n != 1 {
		t.Errorf("the cassette holds %d interactions, want 1 (the hook's)", n)
	}
	if _, err := rec.Client().Do(request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnInstitutions}, testKey, false)); !errors.Is(err, cassettes.ErrStopped) {
		t.Errorf("the next call: got %v, want %v", err, cassettes.ErrStopped)
	}
}

package cassettes

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/internal/mocktest"
)

// TestSaverSpacesSavesByTheirDuration: after a save that took d, the saver
// waits at least saveBackoff×d before the next one, and never less than
// the save interval, so a long recording, whose saves take longer as its
// file grows, does not spend its time rewriting it. The saver's clock is
// one that moves a second at every reading, so that every save takes a
// second however fast the machine; the waits it asks for are noted, and
// end at once.
func TestSaverSpacesSavesByTheirDuration(t *testing.T) {
	t.Parallel()
	upstream := echoN(t)
	clk := &stepClock{}
	const interval = 3 * time.Millisecond
	path := filepath.Join(t.TempDir(), "long.yaml")
	rec, err := New(path, WithMode(ModeRecordAll), WithSaveInterval(interval), clk.option)
	if err != nil {
		t.Fatal(err)
	}
	const calls = 5
	for n := range calls {
		resp, err := rec.Client().Get(fmt.Sprintf("%s/service/service.asmx/ReturnProvinces?strAtmServiceKey=k&n=%d", upstream.URL, n))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		// Each call saved before the next: one save per call.
		for !rec.savedAll() {
			time.Sleep(time.Millisecond)
		}
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	waits := clk.noted()
	if len(waits) != calls {
		t.Fatalf("the saver waited %d times, want %d (once per call): %v", len(waits), calls, waits)
	}
	if waits[0] != interval {
		t.Errorf("first wait: got %s, want the save interval %s", waits[0], interval)
	}
	for j, w := range waits[1:] {
		if w < saveBackoff*time.Second {
			t.Errorf("wait %d, after a save of 1s: got %s, want at least %s", j+1, w, saveBackoff*time.Second)
		}
	}
	list, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != calls {
		t.Errorf("cassette: %d interactions, want %d", len(list), calls)
	}
}

// savedAll reports whether everything recorded has been written.
func (r *Recorder) savedAll() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.saved == r.dirty
}

// TestSaverWhenSavesFail: while the cassette cannot be written (its
// directory became a file), the failure is logged once with the file's
// name, not at every save; the failed saves are spaced as written ones
// are (a failed write of a large file is as long as a good one); the file
// keeps its last complete version; once it can be written again, the next
// save writes everything recorded and says so.
func TestSaverWhenSavesFail(t *testing.T) {
	t.Parallel()
	upstream := echoN(t)
	clk := &stepClock{}
	var logged mocktest.SyncBuffer
	logger := slog.New(slog.NewTextHandler(&logged, nil))
	const interval = 3 * time.Millisecond
	dir := filepath.Join(t.TempDir(), "cassettes")
	path := filepath.Join(dir, "failing.yaml")
	rec, err := New(path, WithMode(ModeRecordAll), WithSaveInterval(interval), WithLogger(logger), clk.option)
	if err != nil {
		t.Fatal(err)
	}
	call := func(n int) {
		t.Helper()
		resp, err := rec.Client().Get(fmt.Sprintf("%s/service/service.asmx/ReturnProvinces?strAtmServiceKey=k&n=%d", upstream.URL, n))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	waitSaves := func(n int) { // the saver has tried n saves
		t.Helper()
		for {
			tried := len(clk.noted())
			if tried >= n && (n == 0 || rec.idle()) {
				return
			}
			time.Sleep(time.Millisecond)
		}
	}
	call(0)
	for !rec.savedAll() {
		time.Sleep(time.Millisecond)
	}
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	const failing = 3
	for n := 1; n <= failing; n++ {
		call(n)
		waitSaves(1 + n)
	}
	text := logged.String()
	if got := strings.Count(text, "level=ERROR"); got != 1 || !strings.Contains(text, "cassette="+path) || !strings.Contains(text, "write cassette "+path) {
		t.Errorf("%d failed saves: %d error lines, want 1 naming %s:\n%s", failing, got, path, text)
	}
	for j, w := range clk.noted()[2:] {
		if w < saveBackoff*time.Second {
			t.Errorf("wait %d, after a failed save of 1s: got %s, want at least %s", j+2, w, saveBackoff*time.Second)
		}
	}

	if err := os.Remove(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, saved, 0o644); err != nil { // the version the failed saves left
		t.Fatal(err)
	}
	call(failing + 1)
	for !rec.savedAll() {
		time.Sleep(time.Millisecond)
	}
	text = logged.String()
	if !strings.Contains(text, "level=INFO msg=\"saved cassette again") {
		t.Errorf("the save after the failures is not told:\n%s", text)
	}
	list, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != failing+2 {
		t.Errorf("cassette: %d interactions, want %d", len(list), failing+2)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
}

// idle reports whether no new interaction waits for the saver's next try.
func (r *Recorder) idle() bool {
	select {
	case <-r.kick:
		r.kick <- struct{}{}
		return false
	default:
	}
	r.saveMu.Lock() // no save under way
	defer r.saveMu.Unlock()
	return true
}

// stepClock is a saver's clock (config.now, config.after) that moves a
// second at every reading, so that every save takes a second however fast
// the machine, and notes the waits asked of it, which end at once.
type stepClock struct {
	mu    sync.Mutex
	clock time.Time
	waits []time.Duration
}

// option gives the Recorder c's clock.
func (c *stepClock) option(cfg *config) { cfg.now, cfg.after = c.now, c.after }

func (c *stepClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.clock = c.clock.Add(time.Second)
	return c.clock
}

func (c *stepClock) after(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	c.waits = append(c.waits, d)
	c.mu.Unlock()
	ch := make(chan time.Time, 1)
	ch <- time.Time{}
	return ch
}

// noted returns the waits asked so far.
func (c *stepClock) noted() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.waits)
}

// echoN is an upstream answering every call with its query parameter n.
func echoN(t *testing.T) *httptest.Server {
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		fmt.Fprintf(w, "<ok>%s</ok>", r.URL.Query().Get("n"))
	}))
	t.Cleanup(upstream.Close)
	return upstream
}

// TestSaveNamesInteractions: what a save logs of an interaction names it
// as every message does: by its id, and its position too when the
// cassette holds that id more than once (ids edited by hand, kept); an
// interaction recorded gets an id the file holds nowhere else, so it is
// named by its id alone.
func TestSaveNamesInteractions(t *testing.T) {
	t.Parallel()
	golden, err := os.ReadFile(filepath.Join("testdata", "golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(golden), "    - id: 0\n", "    - id: 7\n", 1)
	text = strings.Replace(text, "    - id: 2\n", "    - id: 1\n", 1)
	path := filepath.Join(t.TempDir(), "atm.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	rec, err := New(path, WithMode(ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = rec.Stop() }()
	for _, c := range []struct {
		id, pos int
		want    string
	}{{7, 0, "7"}, {1, 1, "1@1"}, {1, 2, "1@2"}, {8, 3, "8"}} {
		if got := rec.name(c.id, c.pos); got != c.want {
			t.Errorf("interaction %d at %d named %q, want %q", c.id, c.pos, got, c.want)
		}
	}
}

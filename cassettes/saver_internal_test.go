package cassettes

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"
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
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		fmt.Fprintf(w, "<ok>%s</ok>", r.URL.Query().Get("n"))
	}))
	defer upstream.Close()
	var (
		mu    sync.Mutex
		clock time.Time
		waits []time.Duration
	)
	now := func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		clock = clock.Add(time.Second)
		return clock
	}
	after := func(d time.Duration) <-chan time.Time {
		mu.Lock()
		waits = append(waits, d)
		mu.Unlock()
		c := make(chan time.Time, 1)
		c <- time.Time{}
		return c
	}
	const interval = 3 * time.Millisecond
	path := filepath.Join(t.TempDir(), "long.yaml")
	rec, err := New(path, WithMode(ModeRecordAll), WithSaveInterval(interval), func(c *config) { c.now, c.after = now, after })
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
	mu.Lock()
	defer mu.Unlock()
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

package cassettes_test

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
)

// TestRecorderSweepsEarlierInteractions: an interaction recorded before
// its key's first call answered 200 (a request to .../service.asmx/KEY,
// whose answer echoes it) is swept of the key at the next save, whether
// that interaction was saved already (spooled) or still waits for a
// save: the Recorder swept a 200 call's keys from later interactions
// only, and the file kept the key for good (cassette scrub cannot find it
// once the file holds no raw key), nor does the spool beside it, which
// held the key's old bytes. The interaction recorded between stays
// as it was, and the file reads back whole.
func TestRecorderSweepsEarlierInteractions(t *testing.T) {
	t.Parallel()
	for _, savedFirst := range []bool{true, false} {
		t.Run(fmt.Sprintf("saved first %v", savedFirst), func(t *testing.T) {
			t.Parallel()
			up, _ := standIn(t)
			path := filepath.Join(t.TempDir(), "earlier.yaml")
			rec, proxy := recordingProxy(t, up.URL, path, cassettes.WithSaveInterval(time.Hour))
			send := func(req *http.Request) {
				t.Helper()
				resp, err := proxy.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
			}
			send(mustGet(t, proxy.URL+asmx.ServicePath+"/"+url.PathEscape(testKey)))
			send(request(t, proxy.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, "wrong-key-01", false))
			if savedFirst {
				if err := rec.Save(); err != nil {
					t.Fatal(err)
				}
			}
			send(request(t, proxy.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false))
			if err := rec.Save(); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			noKeyIn(t, "the cassette saved after the key's call", string(b))
			// Nor does the spool beside it, which the saves write from.
			others, err := filepath.Glob(filepath.Join(filepath.Dir(path), ".*"))
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range others {
				b, err := os.ReadFile(o)
				if err != nil {
					t.Fatal(err)
				}
				noKeyIn(t, filepath.Base(o), string(b))
			}
			if !strings.Contains(string(b), cassettes.Placeholder+" Web Service method name is not valid.") {
				t.Errorf("the cassette does not hold the echo, swept:\n%s", b)
			}
			if err := rec.Stop(); err != nil {
				t.Fatal(err)
			}
			list := readCassette(t, path)
			if len(list) != 3 {
				t.Fatalf("the cassette holds %d interactions, want 3", len(list))
			}
			if i := list[1]; !strings.Contains(i.Request.URL, cassettes.Placeholder) || i.ID != 1 || i.Response.Code != http.StatusInternalServerError {
				t.Errorf("the wrong key's call: got %d %s (id %d), want its key replaced and its id kept", i.Response.Code, i.Request.URL, i.ID)
			}
			assertNoKey(t, path)
		})
	}
}

// TestRecorderSweepsConcurrentInteractions: requests holding the key
// outside a call, recorded while the key's first 200 call is (before it,
// beside it, after it, on many connections, saves coming between), leave
// no key in the file Stop writes: whichever way they interleave with the
// key being noted, each is swept as it joins, as it waits for a save or
// at the next save.
func TestRecorderSweepsConcurrentInteractions(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "concurrent.yaml")
	rec, proxy := recordingProxy(t, up.URL, path, cassettes.WithSaveInterval(time.Millisecond))
	send := func(req *http.Request) error {
		resp, err := proxy.Client().Do(req)
		if err != nil {
			return err
		}
		return resp.Body.Close()
	}
	beside := func(n int) *http.Request {
		return mustGet(t, proxy.URL+asmx.ServicePath+"/"+url.PathEscape(testKey)+fmt.Sprintf("?n=%d", n))
	}
	for n := range 10 { // surely before
		if err := send(beside(n)); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for n := 10; n < 40; n++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			req := beside(n)
			if n == 20 {
				req = request(t, proxy.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)
			}
			if err := send(req); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	if n := len(readCassette(t, path)); n != 40 {
		t.Errorf("the cassette holds %d interactions, want 40", n)
	}
	assertNoKey(t, path)
}

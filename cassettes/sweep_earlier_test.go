package cassettes_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/mockserver"
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

// TestRecorderSweepsSavedAtOnce: once the call that reveals a key (its
// first answered 200) has returned, the cassette file holds that key
// nowhere, whatever the save interval: the Recorder swept the
// interactions a save had written before the key was known (a request to
// .../service.asmx/KEY) only at its next save, so the file kept the key
// for the save interval, for good if the process was killed meanwhile.
// So too when the revealing call is not kept (its answer is one recorded
// already, another key's), and over a cassette that held the key when
// the recording began (ModeRecordNew).
func TestRecorderSweepsSavedAtOnce(t *testing.T) {
	t.Parallel()
	const other = "other-KEY-7777"
	for _, c := range []struct {
		name   string
		before []string // the keys of calls to record (and save) before
		mode   cassettes.Mode
	}{
		{"kept", nil, cassettes.ModeRecordAll},
		{"a repeated answer", []string{other}, cassettes.ModeRecordAll},
		{"recording again", nil, cassettes.ModeRecordNew},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 7, ATMs: 50})
			if err != nil {
				t.Fatal(err)
			}
			up := mockserver.NewTestServer(t, mockserver.WithDataset(ds), mockserver.WithKeys(testKey, other))
			path := filepath.Join(t.TempDir(), "atonce.yaml")
			rec, proxy := recordingProxy(t, up.URL, path, cassettes.WithSaveInterval(time.Hour))
			send := func(req *http.Request) {
				t.Helper()
				status, body := do(t, proxy.Client(), req)
				if status == http.StatusBadGateway {
					t.Fatalf("%s: %d %.200s", req.URL, status, body)
				}
			}
			for _, k := range c.before {
				send(request(t, proxy.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, k, false))
			}
			send(mustGet(t, proxy.URL+asmx.ServicePath+"/"+url.PathEscape(testKey)))
			if c.mode == cassettes.ModeRecordNew {
				if err := rec.Stop(); err != nil {
					t.Fatal(err)
				}
				rec, err = cassettes.New(path, cassettes.WithMode(c.mode), cassettes.WithSaveInterval(time.Hour))
				if err != nil {
					t.Fatal(err)
				}
				u, _ := url.Parse(up.URL)
				proxy = httptest.NewServer(cassettes.NewProxy(u, rec, nil))
				defer proxy.Close()
			} else if err := rec.Save(); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), testKey) {
				t.Fatalf("the file saved before the key's call does not hold the key: nothing to sweep\n%s", b)
			}
			send(request(t, proxy.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false))
			b, err = os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			noKeyIn(t, "the cassette once the key's call returned", string(b))
			if err := rec.Stop(); err != nil {
				t.Fatal(err)
			}
			assertNoKey(t, path)
		})
	}
}

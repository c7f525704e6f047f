package cassettes_test

import (
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
)

// TestRecordPathKeyAgain: recording again (ModeRecordAll, atmkit record's
// mode, and ModeRecordNew) a session whose request with the key in its
// path (.../service.asmx/KEY) comes before the key's first 200 call adds
// nothing, as for every other request: captured before the key was known,
// it differed from the one recorded before (its path and echo swept to
// REDACTED), and once the key's call swept it, it was the same, kept
// twice. So too the same request sent again in the session once the key
// was noted (swept as it joined, the same as the one swept before). A
// request in that place holding no key (a mistyped operation) is still
// recorded, and the file holds the key nowhere.
func TestRecordPathKeyAgain(t *testing.T) {
	t.Parallel()
	for _, mode := range []cassettes.Mode{cassettes.ModeRecordAll, cassettes.ModeRecordNew} {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			up, _ := standIn(t)
			path := filepath.Join(t.TempDir(), "again.yaml")
			session := func(mode cassettes.Mode, extra ...string) int {
				t.Helper()
				rec, proxy := recordingProxy(t, up.URL, path, cassettes.WithMode(mode))
				get := func(p string) {
					t.Helper()
					if status, body := do(t, proxy.Client(), mustGet(t, proxy.URL+asmx.ServicePath+"/"+p)); status != http.StatusInternalServerError {
						t.Fatalf("GET .../%s: %d %.200s, want the deployment's 500", p, status, body)
					}
				}
				get(url.PathEscape(testKey))
				for _, b := range []asmx.Binding{asmx.HTTPGet, asmx.SOAP11} {
					if status, body := do(t, proxy.Client(), request(t, proxy.URL, b, query{Op: asmx.OpReturnProvinces}, testKey, false)); status != http.StatusOK {
						t.Fatalf("%s: %d %.200s", b, status, body)
					}
				}
				for _, p := range extra {
					get(p)
				}
				if err := rec.Stop(); err != nil {
					t.Fatal(err)
				}
				return rec.Len()
			}
			first := session(cassettes.ModeRecordAll, url.PathEscape(testKey)) // again once the key is noted: the same
			if first != 3 {
				t.Errorf("the first session: %d interactions, want 3 (the key in the path once, the two calls)", first)
			}
			if again := session(mode); again != first {
				t.Errorf("recording the session again: %d interactions, were %d: want nothing added", again, first)
			}
			if again := session(mode, "ReturnProvincez"); again != first+1 {
				t.Errorf("recording it again with a mistyped operation: %d interactions, were %d: want it added", again, first)
			}
			list := readCassette(t, path)
			if u := list[len(list)-1].Request.URL; !strings.HasSuffix(u, "/ReturnProvincez") {
				t.Errorf("the last interaction: %s, want the mistyped operation", u)
			}
			assertNoKey(t, path)
		})
	}
}

// TestRecordNewNotesReplayedKeys: in ModeRecordNew, a call the cassette
// answers 200 (replayed, not sent) notes its key as a call recorded so
// does: a request recorded in the same session with that key in its
// path (.../service.asmx/KEY, whose answer echoes it) is swept of it.
// The key of a replayed call was never noted, and the file kept the key
// for good (cassette scrub cannot tell it from a mistyped operation).
func TestRecordNewNotesReplayedKeys(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "replayed.yaml")
	call := func(proxy string) *http.Request {
		return request(t, proxy, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)
	}
	rec, proxy := recordingProxy(t, up.URL, path)
	if status, body := do(t, proxy.Client(), call(proxy.URL)); status != http.StatusOK {
		t.Fatalf("the call: %d %.200s", status, body)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	rec, proxy = recordingProxy(t, up.URL, path, cassettes.WithMode(cassettes.ModeRecordNew))
	do(t, proxy.Client(), mustGet(t, proxy.URL+asmx.ServicePath+"/"+url.PathEscape(testKey)))
	if status, body := do(t, proxy.Client(), call(proxy.URL)); status != http.StatusOK {
		t.Fatalf("the call replayed: %d %.200s", status, body)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	if n := len(readCassette(t, path)); n != 2 {
		t.Errorf("the cassette holds %d interactions, want 2", n)
	}
	assertNoKey(t, path)
}

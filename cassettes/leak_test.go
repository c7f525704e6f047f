package cassettes_test

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
)

// closedURL returns the base URL of a loopback port that refuses
// connections while t runs.
func closedURL(t *testing.T) string {
	t.Helper()
	return mocktest.ClosedPort(t)
}

// droppingURL returns the base URL of a mock that drops every connection.
func droppingURL(t *testing.T) string {
	t.Helper()
	ts := mockserver.NewTestServer(t, mockserver.WithFault(mockserver.Fault{Drop: true}))
	return ts.URL
}

// silentURL returns the base URL of a server that reads requests and never
// answers until the test ends.
func silentURL(t *testing.T) string {
	t.Helper()
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-done:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(func() { close(done); srv.Close() })
	return srv.URL
}

// noKeyIn fails the test if testKey appears in what.
func noKeyIn(t *testing.T, what, s string) {
	t.Helper()
	if strings.Contains(s, testKey) {
		t.Errorf("%s holds the key: %.400q", what, s)
	}
}

// failingUpstreams are the transports failures the leak tests drive.
func failingUpstreams(t *testing.T) map[string]string {
	return map[string]string{"closed port": closedURL(t), "drop": droppingURL(t), "timeout": silentURL(t)}
}

// leakQuery is a call every binding can make.
var leakQuery = query{Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{
	{"strPostalCode", ""}, {"dblLatitude", "44.6"}, {"dblLongitude", "-63.5"}, {"bytRadius", "5"}}}

// shortTransport gives up on an upstream that does not answer within 50ms.
func shortTransport() http.RoundTripper {
	return &http.Transport{ResponseHeaderTimeout: 50 * time.Millisecond}
}

// TestUpstreamFailureHidesKey: a replaying server forwarding misses to an
// upstream that fails answers with an error that names the failure, not the
// key, and logs none; no cassette is left behind.
func TestUpstreamFailureHidesKey(t *testing.T) {
	t.Parallel()
	for name, up := range failingUpstreams(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "up.yaml")
			idx, err := cassettes.LoadIndex(nil, cassettes.WithUpstream(cassettes.Upstream{URL: up, Record: path, Transport: shortTransport()}))
			if err != nil {
				t.Fatal(err)
			}
			var logs mocktest.SyncBuffer
			h, err := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault),
				mockserver.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))))
			if err != nil {
				t.Fatal(err)
			}
			q := leakQuery
			for _, b := range asmx.Bindings {
				rr := httptest.NewRecorder()
				h.ServeHTTP(rr, request(t, "http://x", b, q, testKey, false))
				if rr.Code != http.StatusInternalServerError || !strings.Contains(rr.Body.String(), "upstream") {
					t.Errorf("%s: got %d %.300q, want a 500 naming the upstream", b, rr.Code, rr.Body)
				}
				noKeyIn(t, b.String()+" answer", rr.Body.String())
			}
			if err := idx.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
			noKeyIn(t, "log", logs.String())
			if !strings.Contains(logs.String(), "upstream") {
				t.Errorf("log: got %q, want the upstream errors", logs.String())
			}
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("cassette %s: got %v, want none written", path, err)
			}
		})
	}
}

// TestProxyFailureHidesKey: the recording proxy answers 502 when the
// upstream fails, and neither the answer nor the log holds the key.
func TestProxyFailureHidesKey(t *testing.T) {
	t.Parallel()
	for name, up := range failingUpstreams(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "rec.yaml")
			rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithTransport(shortTransport()))
			if err != nil {
				t.Fatal(err)
			}
			var logs mocktest.SyncBuffer
			upURL, _ := url.Parse(up)
			proxy := httptest.NewServer(cassettes.NewProxy(upURL, rec, slog.New(slog.NewTextHandler(&logs, nil))))
			defer proxy.Close()
			q := leakQuery
			for _, b := range asmx.Bindings {
				status, body := do(t, proxy.Client(), request(t, proxy.URL, b, q, testKey, false))
				if status != http.StatusBadGateway {
					t.Errorf("%s: got %d %.200q, want 502", b, status, body)
				}
				noKeyIn(t, b.String()+" answer", body)
			}
			if err := rec.Stop(); !errors.Is(err, cassettes.ErrNothingRecorded) {
				t.Errorf("Stop: got %v, want ErrNothingRecorded", err)
			}
			noKeyIn(t, "log", logs.String())
			if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("cassette %s: got %v, want none written", path, err)
			}
		})
	}
}

// urlErrorTransport fails every request with a *url.Error quoting its URL,
// as a transport built on an http.Client does.
type urlErrorTransport struct{}

func (urlErrorTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, &url.Error{Op: "Get", URL: r.URL.String(), Err: errors.New("connection reset")}
}

// TestRecorderErrorHidesKey: the errors of the Go API mask the key, also in
// the *url.Error errors.As finds.
func TestRecorderErrorHidesKey(t *testing.T) {
	t.Parallel()
	q := leakQuery
	for name, rt := range map[string]http.RoundTripper{"url.Error": urlErrorTransport{}, "closed port": http.DefaultTransport} {
		for _, mode := range []cassettes.Mode{cassettes.ModeRecordAll, cassettes.ModePassthrough} {
			t.Run(name+" "+mode.String(), func(t *testing.T) {
				t.Parallel()
				rec, err := cassettes.New(filepath.Join(t.TempDir(), "c.yaml"), cassettes.WithMode(mode), cassettes.WithTransport(rt))
				if err != nil {
					t.Fatal(err)
				}
				defer rec.Stop()
				for _, b := range asmx.Bindings {
					_, err := rec.RoundTrip(request(t, closedURL(t), b, q, testKey, false))
					if err == nil {
						t.Fatalf("%s: RoundTrip succeeded, want an error", b)
					}
					noKeyIn(t, b.String()+" error", err.Error())
					var ue *url.Error
					if errors.As(err, &ue) {
						noKeyIn(t, b.String()+" *url.Error", ue.Error())
					} else if name == "url.Error" {
						t.Errorf("%s: errors.As *url.Error: got false, want the transport's error", b)
					}
				}
			})
		}
	}
}

// TestRecordOnceNothingRecorded: a record-once recorder that saw no request
// writes no cassette and says so; one that saw a request writes it.
func TestRecordOnceNothingRecorded(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "empty.yaml")
	rec, err := cassettes.New(path)
	if err != nil {
		t.Fatal(err)
	}
	err = rec.Stop()
	if !errors.Is(err, cassettes.ErrNothingRecorded) || !strings.Contains(err.Error(), path) {
		t.Errorf("Stop: got %v, want ErrNothingRecorded naming %s", err, path)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("cassette: got %v, want no file", err)
	}

	up, _ := standIn(t)
	rec, err = cassettes.New(path)
	if err != nil {
		t.Fatal(err)
	}
	q := query{Op: asmx.OpReturnProvinces}
	if status, body := do(t, rec.Client(), request(t, up.URL, asmx.HTTPGet, q, testKey, false)); status != 200 {
		t.Fatalf("recorded call: got %d %.200q", status, body)
	}
	if err := rec.Stop(); err != nil {
		t.Fatalf("Stop after a call: %v", err)
	}
	if list, err := cassettes.ReadFile(path); err != nil || len(list) != 1 {
		t.Errorf("cassette: got %d interactions (%v), want 1", len(list), err)
	}
}

// TestRecorderBadOptions: options that make no sense fail New.
func TestRecorderBadOptions(t *testing.T) {
	t.Parallel()
	for name, opt := range map[string]cassettes.Option{
		"negative save interval": cassettes.WithSaveInterval(-time.Second),
		"unknown mode":           cassettes.WithMode(cassettes.Mode(42)),
	} {
		if rec, err := cassettes.New(filepath.Join(t.TempDir(), "c.yaml"), opt); err == nil {
			rec.Stop()
			t.Errorf("%s: New succeeded, want an error", name)
		}
	}
}

// TestNothingRecordedLeavesNoDirectory: a recorder that recorded nothing
// removes the directories it made for its cassette (and its lock file),
// leaving the file system as it found it; a directory that was there
// before stays, and so does one another file came into meanwhile.
func TestNothingRecordedLeavesNoDirectory(t *testing.T) {
	t.Parallel()
	for _, mode := range []cassettes.Mode{cassettes.ModeRecordOnce, cassettes.ModeRecordAll, cassettes.ModeRecordNew} {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			rec, err := cassettes.New(filepath.Join(root, "testdata", "cassettes", "atm"), cassettes.WithMode(mode))
			if err != nil {
				t.Fatal(err)
			}
			if err := rec.Stop(); !errors.Is(err, cassettes.ErrNothingRecorded) {
				t.Fatalf("Stop: got %v, want ErrNothingRecorded", err)
			}
			if left, _ := os.ReadDir(root); len(left) != 0 {
				t.Errorf("left in the directory the cassette's were made in: %v, want nothing", left)
			}

			// The directory was there: it stays, empty.
			there := filepath.Join(root, "there")
			if err := os.Mkdir(there, 0o755); err != nil {
				t.Fatal(err)
			}
			if rec, err = cassettes.New(filepath.Join(there, "atm"), cassettes.WithMode(mode)); err != nil {
				t.Fatal(err)
			}
			if err := rec.Stop(); !errors.Is(err, cassettes.ErrNothingRecorded) {
				t.Fatalf("Stop: got %v, want ErrNothingRecorded", err)
			}
			if left, err := os.ReadDir(there); err != nil || len(left) != 0 {
				t.Errorf("a directory that was there: got %v (%v), want it kept, empty", left, err)
			}

			// A file came into the directory made: it stays with it.
			made := filepath.Join(root, "made")
			if rec, err = cassettes.New(filepath.Join(made, "sub", "atm"), cassettes.WithMode(mode)); err != nil {
				t.Fatal(err)
			}
			other := filepath.Join(made, "notes.txt")
			if err := os.WriteFile(other, []byte("mine\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := rec.Stop(); !errors.Is(err, cassettes.ErrNothingRecorded) {
				t.Fatalf("Stop: got %v, want ErrNothingRecorded", err)
			}
			if _, err := os.Stat(other); err != nil {
				t.Errorf("a file another wrote beside the cassette's directory: %v", err)
			}
			if _, err := os.Stat(filepath.Join(made, "sub")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the empty directory made for the cassette: got %v, want it removed", err)
			}
		})
	}
}

// TestRecorderSweepsAKeyOutsideACall: a call's key that a later request
// carries outside a call (the path .../service.asmx/KEY, answered "KEY
// Web Service method name is not valid.") reaches neither the cassette
// nor the hooks: each interaction was scrubbed alone, and the request
// held no strAtmServiceKey to find it by. Wrong keys sent before do not
// crowd it out.
func TestRecorderSweepsAKeyOutsideACall(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "beside.yaml")
	rec, proxy := recordingProxy(t, up.URL, path)
	q := query{Op: asmx.OpReturnProvinces}
	beside, err := http.NewRequest("GET", proxy.URL+asmx.ServicePath+"/"+url.PathEscape(testKey), nil)
	if err != nil {
		t.Fatal(err)
	}
	// Wrong keys first, more of them than the keys swept: the key the
	// deployment accepts is swept all the same.
	var reqs []*http.Request
	for n := range 20 {
		reqs = append(reqs, request(t, proxy.URL, asmx.HTTPGet, q, fmt.Sprintf("wrong-key-%02d", n), false))
	}
	reqs = append(reqs, request(t, proxy.URL, asmx.HTTPGet, q, testKey, false), beside)
	for _, req := range reqs {
		resp, err := proxy.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	noKeyIn(t, "the cassette", string(b))
	if !strings.Contains(string(b), cassettes.Placeholder+" Web Service method name is not valid.") {
		t.Errorf("the cassette does not hold the echo, swept:\n%s", b)
	}
}

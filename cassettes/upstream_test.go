package cassettes_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/mockserver"
)

// TestUpstreamOnMiss: a replaying server forwards a call it has no
// recording of, records the episode into the cassette, and answers it;
// after the upstream is gone the episode still answers, in every XML binding.
func TestUpstreamOnMiss(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "grow.yaml")
	idx, err := cassettes.LoadIndex(nil, cassettes.WithUpstream(cassettes.Upstream{URL: up.URL, Record: path}))
	if err != nil {
		t.Fatal(err)
	}
	h, _ := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault))
	srv := httptest.NewServer(h)
	defer srv.Close()
	q := query{Op: asmx.OpReturnAtmSearchByInstitution, Params: [][2]string{{"intInstitutionID", "3"}}}
	_, direct := do(t, up.Client(), request(t, up.URL, asmx.SOAP11, q, testKey, false))
	status, body := do(t, srv.Client(), request(t, srv.URL, asmx.SOAP11, q, testKey, false))
	if status != 200 || !slices.Equal(values(t, asmx.SOAP11, body), values(t, asmx.SOAP11, direct)) {
		t.Fatalf("forwarded: status %d\n%s", status, body)
	}
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}
	up.Close()
	assertNoKey(t, path)

	idx2, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := mockserver.New(mockserver.WithReplay(idx2, mockserver.MissFault))
	for _, b := range asmx.XMLBindings {
		rr := httptest.NewRecorder()
		h2.ServeHTTP(rr, request(t, "http://x", b, q, "k", false))
		if rr.Code != 200 || !slices.Equal(values(t, b, rr.Body.String()), values(t, asmx.SOAP11, direct)) {
			t.Fatalf("%s after recording: status %d\n%s", b, rr.Code, rr.Body)
		}
	}
}

// TestUpstreamTimeout: a call forwarded to an upstream that does not answer
// within Upstream.Timeout is answered with a Server fault saying so.
func TestUpstreamTimeout(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer silent.Close()
	defer close(release)
	path := filepath.Join(t.TempDir(), "silent.yaml")
	idx, err := cassettes.LoadIndex(nil, cassettes.WithUpstream(cassettes.Upstream{URL: silent.URL, Record: path, Timeout: 200 * time.Millisecond}))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	h, _ := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault))
	srv := httptest.NewServer(h)
	defer srv.Close()
	status, body := do(t, srv.Client(), request(t, srv.URL, asmx.SOAP11, query{Op: asmx.OpReturnProvinces}, testKey, false))
	if want := "upstream: no answer within 200ms"; status != 500 || !strings.Contains(body, want) {
		t.Errorf("got %d %q, want a Server fault saying %q", status, body, want)
	}
}

// TestUpstreamEndsWithTheClient: a call forwarded to the upstream ends when
// the client hangs up, long before the upstream timeout.
func TestUpstreamEndsWithTheClient(t *testing.T) {
	t.Parallel()
	arrived, gone, release := make(chan struct{}), make(chan struct{}), make(chan struct{})
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		close(arrived)
		select {
		case <-r.Context().Done():
			close(gone)
		case <-release:
		}
	}))
	defer silent.Close()
	idx, err := cassettes.LoadIndex(nil, cassettes.WithUpstream(cassettes.Upstream{URL: silent.URL,
		Record: filepath.Join(t.TempDir(), "gone.yaml"), Timeout: time.Minute}))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	h, _ := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault))
	srv := httptest.NewServer(h)
	defer srv.Close()
	defer close(release) // first: what still waits on the upstream ends
	// The client hangs up once the call has reached the upstream (not
	// after a fixed time, which a loaded machine can outlast before the
	// call is even forwarded).
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	reached := make(chan bool, 1)
	go func() {
		select {
		case <-arrived:
			reached <- true
		case <-time.After(10 * time.Second):
			reached <- false
		}
		cancel()
	}()
	req := request(t, srv.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false).WithContext(ctx)
	if resp, err := srv.Client().Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("got an answer (%d), want the client's own cancellation", resp.StatusCode)
	}
	if !<-reached {
		t.Fatal("the call did not reach the upstream within 10 s")
	}
	select {
	case <-gone:
	case <-time.After(10 * time.Second):
		t.Fatal("the forwarded call still runs 10 s after the client hung up")
	}
}

// TestUpstreamBrokenAnswerNamesNoPath: an upstream that breaks off its
// answer is a Server fault naming the cassette by its file name only: where
// it lies on the machine is the log's business, not the app's.
func TestUpstreamBrokenAnswerNamesNoPath(t *testing.T) {
	t.Parallel()
	short := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		_, _ = w.Write([]byte("<soap:Envelope"))
	}))
	defer short.Close()
	dir := t.TempDir()
	path := filepath.Join(dir, "broken.yaml")
	idx, err := cassettes.LoadIndex(nil, cassettes.WithUpstream(cassettes.Upstream{URL: short.URL, Record: path}))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	h, _ := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault))
	srv := httptest.NewServer(h)
	defer srv.Close()
	status, body := do(t, srv.Client(), request(t, srv.URL, asmx.SOAP11, query{Op: asmx.OpReturnProvinces}, testKey, false))
	if status != 500 || !strings.Contains(body, "upstream: ") || !strings.Contains(body, "broken.yaml") {
		t.Errorf("got %d %q, want a Server fault naming the upstream and the cassette", status, body)
	}
	if strings.Contains(body, dir) {
		t.Errorf("the fault names the cassette's directory %s: %q", dir, body)
	}
}

package cassettes_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/mockserver"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// TestUpstreamOnMiss: a replaying server forwards a call it has no
// recording of, records the episode into the cassette, and answers it;
// after the upstream is gone the episode still answers, in every XML binding.
func TestUpstreamOnMiss(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "grow.yaml")
	idx, srv := onMissServer(t, cassettes.Upstream{URL: up.URL, Record: path})
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
	idx, srv := onMissServer(t, cassettes.Upstream{URL: silent.URL, Record: path, Timeout: 200 * time.Millisecond})
	defer idx.Close()
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
	idx, srv := onMissServer(t, cassettes.Upstream{URL: silent.URL,
		Record: filepath.Join(t.TempDir(), "gone.yaml"), Timeout: time.Minute})
	defer idx.Close()
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
	idx, srv := onMissServer(t, cassettes.Upstream{URL: short.URL, Record: path})
	defer idx.Close()
	defer srv.Close()
	status, body := do(t, srv.Client(), request(t, srv.URL, asmx.SOAP11, query{Op: asmx.OpReturnProvinces}, testKey, false))
	if status != 500 || !strings.Contains(body, "upstream: ") || !strings.Contains(body, "broken.yaml") {
		t.Errorf("got %d %q, want a Server fault naming the upstream and the cassette", status, body)
	}
	if strings.Contains(body, dir) {
		t.Errorf("the fault names the cassette's directory %s: %q", dir, body)
	}
}

// countingUpstream is the stand-in behind a counter of the calls it got,
// by binding and operation ("soap11 ReturnAtmSearchByAddress").
func countingUpstream(t *testing.T, h http.Handler) (*httptest.Server, func() map[string]int) {
	t.Helper()
	var mu sync.Mutex
	got := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		i := &cassette.Interaction{Request: cassette.Request{Method: r.Method, URL: r.URL.String(), Headers: r.Header, Body: string(body)}}
		e := cassettes.EntryOf(i)
		mu.Lock()
		got[e.Binding+" "+e.Operation]++
		mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		return maps.Clone(got)
	}
}

// TestUpstreamParameterOrder: ASMX binds parameters by name in every
// binding (ASMX-NOTES: XmlSerializer matches SOAP children by name, in any
// order; GET and POST read the query and form by name), so a question
// asked again with its parameters in another order, prefixed or padded,
// is the question the live index holds: forwarded once (the first time,
// in any form), answered from the episode recorded after, and recorded
// once.
func TestUpstreamParameterOrder(t *testing.T) {
	t.Parallel()
	standin, ds := standIn(t)
	up, got := countingUpstream(t, standin.Config.Handler)
	path := filepath.Join(t.TempDir(), "order.yaml")
	idx, srv := onMissServer(t, cassettes.Upstream{URL: up.URL, Record: path}, mockserver.WithKeys(testKey))
	defer srv.Close()
	xmlQs, _ := queries(ds)
	q := xmlQs[5] // ReturnAtmSearchByAddress: five parameters and the key
	want := map[asmx.Binding][]string{}
	for _, b := range asmx.Bindings {
		_, direct := do(t, standin.Client(), request(t, standin.URL, b, q, testKey, false))
		want[b] = []string{direct}
	}
	// Reversed first (the miss forwarded), then in the document's order,
	// then reversed again. (The key stays first: request's variant would
	// pad it too, and a padded key is another key to ASMX.)
	rev := query{Op: q.Op, Params: slices.Clone(q.Params)}
	slices.Reverse(rev.Params)
	for k, asked := range []query{rev, q, rev} {
		variant := k != 1
		for _, b := range asmx.Bindings {
			status, body := do(t, srv.Client(), request(t, srv.URL, b, asked, testKey, false))
			if status != http.StatusOK || (b != asmx.JSON && !slices.Equal(values(t, b, body), values(t, b, want[b][0]))) || (b == asmx.JSON && body != want[b][0]) {
				t.Errorf("%s %s (reversed %v): got %d %s", b, q, variant, status, body)
			}
		}
	}
	for k, n := range got() {
		if n > 1 {
			t.Errorf("%s: forwarded %d times, want once", k, n)
		}
	}
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}
	entries, err := cassettes.List(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, e := range entries {
		if seen[e.Binding+" "+e.Operation]++; seen[e.Binding+" "+e.Operation] > 1 {
			t.Errorf("%s %s recorded more than once", e.Binding, e.Operation)
		}
	}
	t.Logf("forwarded: %v", got())
}

// TestUpstreamForwardsAGapOnce: the episodes recorded during the run
// join the live index at once. A question recorded twice over SOAP 1.1
// with different answers, as a DataSet whose GET root only the
// deployment shows (so no SOAP answer can be re-wrapped for GET before a
// GET answer is known), is forwarded over GET once; the later GET calls
// get the second SOAP answer re-wrapped, the root now known, and go to no
// upstream.
func TestUpstreamForwardsAGapOnce(t *testing.T) {
	t.Parallel()
	full := filepath.Join("testdata", "variant-sets.yaml")
	upIdx, err := cassettes.LoadIndex([]string{full})
	if err != nil {
		t.Fatal(err)
	}
	upMock, err := mockserver.New(mockserver.WithReplay(upIdx, mockserver.MissFault), mockserver.WithNamespace(refdeploy.Sets.Namespace))
	if err != nil {
		t.Fatal(err)
	}
	up, got := countingUpstream(t, upMock)
	soap := filterCassette(t, full, "soap11", func(e cassettes.Entry, i *cassette.Interaction) bool {
		return e.Binding == "soap11" && e.Operation == asmx.OpReturnProvinces && e.Status == http.StatusOK
	})
	list, err := cassettes.ReadFile(soap)
	if err != nil || len(list) != 1 {
		t.Fatalf("got %d interactions (%v), want one SOAP 1.1 ReturnProvinces", len(list), err)
	}
	second := *list[0]
	second.Response.Body = strings.Replace(second.Response.Body, "Nova Scotia", "Nouvelle-Écosse", 1)
	if second.Response.Body == list[0].Response.Body {
		t.Fatal("the recorded answer names no Nova Scotia: the test tests nothing")
	}
	writeCassette(t, soap, append(list, &second))
	idx, err := cassettes.LoadIndex([]string{soap}, cassettes.WithUpstream(cassettes.Upstream{URL: up.URL, Record: filepath.Join(t.TempDir(), "grow.yaml")}))
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	h, _ := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault), mockserver.WithNamespace(refdeploy.Sets.Namespace))
	srv := httptest.NewServer(h)
	defer srv.Close()
	for n := range 4 {
		status, body := do(t, srv.Client(), requestNS(t, srv.URL, refdeploy.Sets.Namespace, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false))
		want := "Nova Scotia" // the deployment's, forwarded
		if n > 0 {
			want = "Nouvelle-Écosse" // the second recorded
		}
		if status != http.StatusOK || !strings.Contains(body, "<Title>"+want+"</Title>") {
			t.Errorf("GET call %d: got %d %.400s, want 200 naming %s", n+1, status, body, want)
		}
	}
	if n := got()["get "+asmx.OpReturnProvinces]; n != 1 {
		t.Errorf("GET ReturnProvinces forwarded %d times, want once", n)
	}
}

// TestUpstreamSourceOfLaterCalls: the journal says "upstream" only of the
// call the upstream answered; a later call answered from the episode
// recorded then (the upstream sees it not) names the cassette it went into,
// in its binding and re-wrapped for another.
func TestUpstreamSourceOfLaterCalls(t *testing.T) {
	t.Parallel()
	_, upMock, up := smallStandIn(t)
	path := filepath.Join(t.TempDir(), "grow.yaml")
	idx, srv := onMissServer(t, cassettes.Upstream{URL: up.URL, Record: path})
	defer srv.Close()
	defer idx.Close()
	q := query{Op: asmx.OpReturnInstitutions}
	for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP11, asmx.SOAP12} {
		if status, body := do(t, srv.Client(), request(t, srv.URL, b, q, testKey, false)); status != http.StatusOK {
			t.Fatalf("%s: status %d\n%.400s", b, status, body)
		}
	}
	if n := len(upMock.Journal(mockserver.RequestFilter{Operation: asmx.OpReturnInstitutions})); n != 1 {
		t.Fatalf("the upstream got %d calls, want 1", n)
	}
	// The mock's journal is the replaying server's: read it over its admin API.
	resp, err := srv.Client().Get(srv.URL + "/__admin/requests")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct{ Requests []mockserver.JournalEntry }
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatal(err)
	}
	var sources []string
	for _, e := range got.Requests {
		sources = append(sources, e.Source)
	}
	if want := []string{mockserver.SourceUpstream, "grow.yaml", "grow.yaml"}; !slices.Equal(sources, want) {
		t.Errorf("journal sources %q, want %q", sources, want)
	}
}

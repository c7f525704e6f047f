package mockserver

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
)

// provincesClient is the kind of client an app that depends on the service
// writes: it calls ReturnProvinces over HTTP GET with its own per-attempt
// timeout, and retries timeouts and 5xx answers a few times.
type provincesClient struct {
	base     string
	key      string
	http     *http.Client // its Timeout bounds one attempt
	attempts int
	backoff  time.Duration
}

// statusError is a non-200 answer.
type statusError struct{ code int }

func (e *statusError) Error() string { return fmt.Sprintf("status %d", e.code) }

// Provinces returns the province codes, retrying as the client's policy says.
func (c *provincesClient) Provinces(ctx context.Context) ([]string, error) {
	var last error
	for i := range c.attempts {
		if i > 0 {
			select {
			case <-time.After(c.backoff):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		codes, err := c.once(ctx)
		if err == nil {
			return codes, nil
		}
		last = err
		var se *statusError
		var ue *url.Error
		retry := (errors.As(err, &se) && se.code >= 500) || (errors.As(err, &ue) && ue.Timeout())
		if !retry {
			return nil, err
		}
	}
	return nil, fmt.Errorf("ReturnProvinces: %d attempts failed, the last: %w", c.attempts, last)
}

func (c *provincesClient) once(ctx context.Context) ([]string, error) {
	q := url.Values{"strAtmServiceKey": {c.key}}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/service/service.asmx/ReturnProvinces?"+q.Encode(), nil)
	if err != nil {
		return nil, err
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		_, _ = io.Copy(io.Discard, resp.Body)
		return nil, &statusError{resp.StatusCode}
	}
	var doc struct {
		Provinces []struct {
			Code string `xml:"code"`
		} `xml:"province"`
	}
	if err := xml.NewDecoder(resp.Body).Decode(&doc); err != nil {
		return nil, fmt.Errorf("ReturnProvinces: %w", err)
	}
	codes := make([]string, len(doc.Provinces))
	for i, p := range doc.Provinces {
		codes[i] = p.Code
	}
	return codes, nil
}

// clientTimeout is the client's timeout per attempt: long enough that on
// a loaded machine only the attempt a fault delays by a minute reaches it
// (at 300 ms, a plain answer once took longer under CI).
const clientTimeout = 2 * time.Second

func newProvincesClient(base string) *provincesClient {
	return &provincesClient{base: base, key: "test-key", http: &http.Client{Timeout: clientTimeout}, attempts: 3, backoff: 10 * time.Millisecond}
}

// waitForRequests polls the journal until it holds n entries matching f: a
// request the client gave up on is journaled when the server notices.
func waitForRequests(t *testing.T, s *Server, f RequestFilter, n int) []JournalEntry {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := s.Journal(f)
		if len(got) >= n || time.Now().After(deadline) {
			slices.SortFunc(got, func(a, b JournalEntry) int { return a.Time.Compare(b.Time) })
			return got
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestDownstreamClientTimeoutAndRetry is what an app's own test looks like:
// the first attempt outlasts the client's timeout, the second gets a 503, the
// third succeeds; the journal shows all three.
func TestDownstreamClientTimeoutAndRetry(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("test-key"),
		WithFault(Fault{Operation: asmx.OpReturnProvinces, Delay: time.Minute, Times: 1}),
		WithFault(Fault{Operation: asmx.OpReturnProvinces, Status: http.StatusServiceUnavailable, Times: 1}))
	client := newProvincesClient(ts.URL)

	start := time.Now()
	codes, err := client.Provinces(context.Background())
	if err != nil {
		t.Fatalf("Provinces: %v", err)
	}
	if elapsed := time.Since(start); elapsed < clientTimeout {
		t.Errorf("the client returned after %s, want at least its timeout %s", elapsed, clientTimeout)
	}
	if want := []string{"NB", "NS", "PE", "NL", "ON"}; !slices.Equal(codes, want) {
		t.Errorf("codes: got %q, want %q", codes, want)
	}

	got := waitForRequests(t, ts.Server, RequestFilter{Operation: asmx.OpReturnProvinces}, 3)
	if len(got) != 3 {
		t.Fatalf("journal: got %d ReturnProvinces requests, want 3: %+v", len(got), got)
	}
	want := []struct {
		status      int
		fault, kind string
	}{
		{0, "f1", noteCanceled},
		{http.StatusServiceUnavailable, "f2", ""},
		{http.StatusOK, "", ""},
	}
	for i, w := range want {
		e := got[i]
		if e.Status != w.status || e.Fault != w.fault || e.Error != w.kind {
			t.Errorf("attempt %d: got status %d, fault %q, error %q; want %d, %q, %q", i+1, e.Status, e.Fault, e.Error, w.status, w.fault, w.kind)
		}
		if e.Binding != asmx.HTTPGet || e.Method != http.MethodGet {
			t.Errorf("attempt %d: got %s %s, want GET in binding get", i+1, e.Method, e.Binding)
		}
		if k := e.Params[asmx.ParamKey]; k != "te****" {
			t.Errorf("attempt %d: key in the journal: got %q, want %q", i+1, k, "te****")
		}
	}
	if f := ts.Faults(); len(f) != 0 {
		t.Errorf("faults with times=1 left after applying: %+v", f)
	}
}

// TestDownstreamClientGivesUp: a fault without times fails every attempt.
func TestDownstreamClientGivesUp(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	if _, err := ts.AddFault(Fault{Operation: "returnprovinces", Binding: asmx.HTTPGet, Status: 502}); err != nil {
		t.Fatal(err)
	}
	_, err := newProvincesClient(ts.URL).Provinces(context.Background())
	var se *statusError
	if !errors.As(err, &se) || se.code != 502 {
		t.Fatalf("Provinces: got error %v, want the last attempt's status 502", err)
	}
	// An attempt the client gave up on (its timeout, on a loaded machine)
	// is journaled when the server notices: wait for it.
	if n := len(waitForRequests(t, ts.Server, RequestFilter{}, 3)); n != 3 {
		t.Errorf("journal: got %d requests, want 3 attempts", n)
	}
	ts.ClearFaults()
	if _, err := newProvincesClient(ts.URL).Provinces(context.Background()); err != nil {
		t.Errorf("after ClearFaults: %v", err)
	}
}

func TestTestServerURLAndClose(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	u, err := url.Parse(ts.URL)
	if err != nil || u.Scheme != "http" || u.Hostname() != "127.0.0.1" || u.Path != "" {
		t.Errorf("URL: got %q, want http://127.0.0.1:<port>", ts.URL)
	}
	if want := ts.URL + "/service/service.asmx"; ts.ServiceURL() != want {
		t.Errorf("ServiceURL: got %q, want %q", ts.ServiceURL(), want)
	}
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))

	// A request held by a long delay is in flight when Close begins; Close
	// ends the delay and waits for the request to finish.
	if _, err := ts.AddFault(Fault{Delay: time.Hour, Times: 1}); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		resp, err := http.Get(ts.URL + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=k")
		if err == nil {
			resp.Body.Close()
		}
		errc <- err
	}()
	waitInFlight(t, ts)
	var wg sync.WaitGroup
	for range 3 { // concurrent and repeated Close calls all return
		wg.Go(ts.Close)
	}
	wg.Wait()
	ts.Close()
	if err := <-errc; err == nil {
		t.Error("the delayed request succeeded; want its connection dropped by Close")
	}
	if _, err := http.Get(ts.URL + "/__admin/health"); err == nil {
		t.Error("the server answers after Close")
	}
	if got := ts.Journal(RequestFilter{}); len(got) != 2 || got[1].Error != noteCanceled {
		t.Errorf("journal after Close: got %+v, want the delayed request noted %q", got, noteCanceled)
	}
}

// TestCloseJournalsAbandonedCalls is the pattern docs/testing.md shows for
// counting retries: a call the client gave up on during a delay is journaled
// when the server notices the connection close, maybe after the client's
// next calls; once Close has returned, it is in the journal, Canceled.
func TestCloseJournalsAbandonedCalls(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()),
		WithFault(Fault{Operation: asmx.OpReturnProvinces, Delay: time.Hour, Times: 1}),
		WithFault(Fault{Operation: asmx.OpReturnProvinces, Status: http.StatusServiceUnavailable, Times: 1}))
	client := &http.Client{Timeout: clientTimeout}
	url := ts.URL + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=k"
	var timeouts int
	for range 3 {
		resp, err := client.Get(url)
		if err != nil {
			timeouts++
			continue
		}
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			break
		}
	}
	if timeouts == 0 {
		t.Fatal("no attempt timed out; want the first held by the delay")
	}
	ts.Close()
	got := ts.Journal(RequestFilter{Operation: asmx.OpReturnProvinces})
	if len(got) != 3 {
		t.Fatalf("journal after Close: got %d calls, want 3: %+v", len(got), got)
	}
	canceled := ts.Journal(RequestFilter{Fault: "f1"})
	if len(canceled) != 1 || canceled[0].Error != noteCanceled || canceled[0].Status != 0 {
		t.Errorf("the abandoned call: got %+v, want one entry of f1, status 0, error %q", canceled, noteCanceled)
	}
}

// waitInFlight waits until a request has taken the server's only fault (one
// with times=1), so it is inside the fault's delay.
func waitInFlight(t *testing.T, ts *TestServer) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for len(ts.Faults()) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("no request took the fault within 10s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestStartTestServerBadOption(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "no-such-dir")
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		opts    []Option
		wantErr string
	}{
		{"generated seed 0", []Option{WithGeneratedDataset(0, 10)}, "seed"},
		{"fault needs effect", []Option{WithFault(Fault{Operation: asmx.OpReturnProvinces})}, "at least one"},
		{"unknown operation", []Option{WithFault(Fault{Operation: "Nope", Status: 500})}, "Nope"},
		{"journal size", []Option{WithJournalSize(-1)}, "negative"},
		{"empty key", []Option{WithKeys("good", "")}, "key 2 of 2 is empty"},
		{"blank key", []Option{WithKeys(" ")}, "empty"},
		{"namespace not a URI", []Option{WithNamespace("notaurl")}, `"notaurl" is not an absolute URI`},
		{"namespace empty", []Option{WithNamespace("")}, "namespace is empty"},
		{"namespace with a space", []Option{WithNamespace("http://x/a b")}, "white space"},
		{"max body 0", []Option{WithMaxBodyBytes(0)}, "max body bytes 0"},
		{"max body negative", []Option{WithMaxBodyBytes(-5)}, "max body bytes -5"},
		{"fixtures dir missing", []Option{WithFixturesDir(missing)}, "does not exist"},
		{"fixtures dir a file", []Option{WithFixturesDir(file)}, "not a directory"},
		{"fixtures dir empty name", []Option{WithFixturesDir("")}, "want a directory"},
		{"missing dir after a generated set", []Option{WithGeneratedDataset(42, 10), WithFixturesDir(missing)}, "does not exist"},
		{"missing dir before a generated set", []Option{WithFixturesDir(missing), WithGeneratedDataset(42, 10)}, "does not exist"},
		{"two data sets", []Option{WithDataset(smallDataset()), WithGeneratedDataset(42, 10)}, "WithDataset and WithGeneratedDataset(42, 10) both choose"},
		{"nil data set", []Option{WithDataset(nil)}, "WithDataset(nil)"},
		{"nil replayer", []Option{WithReplay(nil, MissFault)}, "WithReplay(nil)"},
		{"unknown miss policy", []Option{WithReplay(panickingReplayer{}, MissPolicy(7))}, "miss policy 7"},
		{"admin token with a line break", []Option{WithAdminToken("tok\nen")}, "line break"},
		{"nil option", []Option{WithKeys("k"), nil}, "option 2 of 2 is nil"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			ts, err := StartTestServer(tt.opts...)
			if err == nil {
				ts.Close()
				t.Fatalf("StartTestServer succeeded, want an error containing %q", tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("got %q, want an error containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestNamespaceAccepted(t *testing.T) {
	t.Parallel()
	for _, ns := range []string{asmx.DefaultNamespace, "http://tempuri.org/", "urn:example:atm", "https://example.org/ns?v=2"} {
		if _, err := New(WithDataset(smallDataset()), WithNamespace(ns)); err != nil {
			t.Errorf("WithNamespace(%q): got %v, want nil", ns, err)
		}
	}
}

func TestWithGeneratedDataset(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithGeneratedDataset(42, 50))
	if n := len(ts.Dataset().ATMs); n != 50 {
		t.Errorf("ATMs: got %d, want 50", n)
	}
	again := NewTestServer(t, WithGeneratedDataset(42, 50))
	a := call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnAllAtms, paramsFor(asmx.OpReturnAllAtms, "k"))
	b := call(t, again.URL, asmx.HTTPGet, asmx.OpReturnAllAtms, paramsFor(asmx.OpReturnAllAtms, "k"))
	if a.status != 200 || a.body != b.body {
		t.Errorf("the same seed served different data (status %d)", a.status)
	}
}

// TestNewContextEnded: NewContext with an ended context serves nothing and
// says why, whichever option chose the data set; the indexing loops stop
// at their first look at the context. New read, generated and indexed the
// whole data set first (serve --fixtures of a million ATMs heard Ctrl-C
// only after about 10 s).
func TestNewContextEnded(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := fixtures.Save(dir, smallDataset()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for name, opt := range map[string]Option{
		"WithDataset": WithDataset(smallDataset()), "WithFixturesDir": WithFixturesDir(dir),
		"WithGeneratedDataset": WithGeneratedDataset(42, 50), "embedded": WithNamespace(testNS),
	} {
		if s, err := NewContext(ctx, opt); !errors.Is(err, context.Canceled) || s != nil {
			t.Errorf("%s: got %v (a server: %t), want context.Canceled and none", name, err, s != nil)
		}
	}
	ds := smallDataset()
	byID := make([]int32, len(ds.ATMs))
	for i := range byID {
		byID[i] = int32(i)
	}
	keys := 0
	x := newKeyIndex(ctx, byID, func(dst []byte, i int32) []byte { keys++; return append(dst, ds.ATMs[i].Address.PostalCode...) })
	if keys != 0 || len(x.hashes) != 0 {
		t.Errorf("key index with an ended context: made %d keys, kept %d; want none", keys, len(x.hashes))
	}
	if tr := newKDTree(ctx, ds.ATMs, byID); len(tr.boxes) != 0 {
		t.Errorf("k-d tree with an ended context: %d boxes, want none", len(tr.boxes))
	}
}

// TestTestServerCloseUnusedConnection: a connection a client opened but
// sent no request on (a transport dials ahead, a health probe) does not
// hold Close up: Close closes it at once, as httptest.Server.Close does,
// instead of the HTTP server's shutdown counting it in flight for its
// first 5 s. The grace period here is shorter than those 5 s, so a
// connection left open would make the shutdown run out of it.
func TestTestServerCloseUnusedConnection(t *testing.T) {
	t.Parallel()
	ts, err := startTestServer(2*time.Second, WithDataset(smallDataset()))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// An idle keep-alive connection and a new one that sent nothing.
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))
	ts.Close()
	if ts.stopErr != nil {
		t.Errorf("Close with an unused connection open: the shutdown ended with %v, want the connection closed at once", ts.stopErr)
	}
	_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := conn.Read(make([]byte, 1)); err == nil {
		t.Errorf("the unused connection is still open after Close: read %d bytes", n)
	}
}

// errorsOf is a testing.TB that keeps the errors reported to it instead of
// failing the test: for checking that a TestServer fails its test.
type errorsOf struct {
	testing.TB
	errs []string
}

func (e *errorsOf) Errorf(format string, args ...any) {
	e.errs = append(e.errs, fmt.Sprintf(format, args...))
}

// TestJournalFilterTypoFailsTheTest: a TestServer's journal filter naming
// no operation fails the test that made it (it would match nothing); a
// known operation, in any case, and WSDL do not.
func TestJournalFilterTypoFailsTheTest(t *testing.T) {
	t.Parallel()
	tb := &errorsOf{TB: t}
	ts := NewTestServer(tb, WithDataset(smallDataset()))
	for _, op := range []string{asmx.OpReturnProvinces, "returnprovinces", "WSDL", ""} {
		ts.Journal(RequestFilter{Operation: op})
	}
	if len(tb.errs) != 0 {
		t.Fatalf("known operations: got errors %q", tb.errs)
	}
	ts.Journal(RequestFilter{Operation: "ReturnProvince"})
	if len(tb.errs) != 1 || !strings.Contains(tb.errs[0], `unknown operation "ReturnProvince": want one of ReturnAllAtms,`) {
		t.Errorf("a misspelt operation: got errors %q, want one naming it and the operations", tb.errs)
	}
}

package verify_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cassettes/verify"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
)

// rejectedKey is the key the recorded key rejection was sent with.
const rejectedKey = "not-a-key-of-the-deployment"

// recordDeployment records calls of base into a new cassette through the
// recording proxy: every XML question in the four XML bindings, the JSON
// ones, the WSDL, the help page, and a call with a wrong key, marked as a
// key rejection. It returns the cassette's path.
func recordDeployment(t testing.TB, base string, ds *fixtures.Dataset) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "atm.yaml")
	rec, proxy := recordingProxy(t, base, path)
	xmlQs, jsonQs := queries(ds)
	for _, q := range xmlQs {
		for _, b := range asmx.XMLBindings {
			if status, body := do(t, proxy.Client(), request(t, proxy.URL, b, q, testKey)); status != 200 {
				t.Fatalf("record %s %s: status %d: %s", b, q, status, body)
			}
		}
	}
	for _, q := range jsonQs {
		if status, body := do(t, proxy.Client(), request(t, proxy.URL, asmx.JSON, q, testKey)); status != 200 {
			t.Fatalf("record json %s: status %d: %s", q, status, body)
		}
	}
	for _, p := range []string{asmx.ServicePath + "?WSDL", asmx.ServicePath} {
		do(t, proxy.Client(), mustGet(t, proxy.URL+p))
	}
	if status, _ := do(t, proxy.Client(), request(t, proxy.URL, asmx.SOAP12, xmlQs[0], rejectedKey)); status != 500 {
		t.Fatalf("a wrong key: status %d, want 500", status)
	}
	proxy.Close()
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	markRejections(t, path)
	return path
}

// recordedStandIn starts a stand-in (standIn) and records it into a new
// cassette (recordDeployment): it returns the stand-in, its data set and
// the cassette's path.
func recordedStandIn(t testing.TB) (*httptest.Server, *fixtures.Dataset, string) {
	t.Helper()
	up, ds := standIn(t)
	return up, ds, recordDeployment(t, up.URL, ds)
}

// markRejections marks the recorded calls answered 500 as key rejections,
// as the recorder marks them.
func markRejections(t testing.TB, path string) {
	t.Helper()
	list := readCassette(t, path)
	for _, i := range list {
		if i.Response.Code == 500 && !cassettes.KeyRejected(i) {
			i.Request.Body = strings.Replace(i.Request.Body, "strAtmServiceKey>"+cassettes.Placeholder+"<", "strAtmServiceKey>"+cassettes.RejectedPlaceholder+"<", 1)
			if !cassettes.KeyRejected(i) {
				t.Fatalf("interaction %d: could not mark it as a key rejection", i.ID)
			}
		}
	}
	writeCassette(t, path, list)
}

// editor is a proxy in front of a deployment that edits its answers: the
// drifted deployment of the tests.
func editor(t testing.TB, base string, edit func(r *http.Request, contentType string, body []byte) []byte) string {
	t.Helper()
	up, _ := url.Parse(base)
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(up) },
		ModifyResponse: func(resp *http.Response) error {
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				return err
			}
			body = edit(resp.Request, resp.Header.Get("Content-Type"), body)
			resp.Body = io.NopCloser(bytes.NewReader(body))
			resp.ContentLength = int64(len(body))
			resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
			return nil
		},
	}
	srv := httptest.NewServer(rp)
	t.Cleanup(srv.Close)
	return srv.URL
}

// renameResult renames the result element of SOAP answers of ReturnAtmSearchByCity.
func renameResult(_ *http.Request, _ string, body []byte) []byte {
	return bytes.ReplaceAll(body, []byte("ReturnAtmSearchByCityResult>"), []byte("ReturnAtmSearchByCityReturn>"))
}

// run verifies the cassette at path against upstream, with testKey unless
// opts has a key.
func run(t testing.TB, path, upstream string, opts verify.Options) (*verify.Report, error) {
	t.Helper()
	opts.Upstream = upstream
	if opts.Key == "" {
		opts.Key = testKey
	}
	return verify.Run(context.Background(), []string{path}, opts)
}

// mustRun is run, failing the test on an error.
func mustRun(t testing.TB, path, upstream string, opts verify.Options) *verify.Report {
	t.Helper()
	r, err := run(t, path, upstream, opts)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// lines writes the report's drifted results as the command prints them.
func lines(r *verify.Report) string {
	var b strings.Builder
	for _, res := range r.Results {
		b.WriteString("#" + strconv.Itoa(res.ID) + " " + res.Name() + ": " + res.Summary() + "\n")
		for _, d := range res.Differences {
			b.WriteString("    " + d.String() + "\n")
		}
		if res.Note != "" {
			b.WriteString("    note: " + res.Note + "\n")
		}
	}
	return b.String()
}

func TestVerifyUnchanged(t *testing.T) {
	t.Parallel()
	up, _, path := recordedStandIn(t)
	for _, conc := range []int{1, 4} {
		r := mustRun(t, path, up.URL, verify.Options{Concurrency: conc})
		if r.Drifted() || r.Count(verify.Same) != len(r.Results) {
			t.Errorf("concurrency %d: an unchanged deployment drifted:\n%s", conc, lines(r))
		}
	}
}

// check is one expectation of a verify report.
type check func(t *testing.T, r *verify.Report)

// drifted wants the interactions of binding and operation to have
// drifted with verdict v, each with a difference whose text holds want.
func drifted(binding, op string, v verify.Verdict, want string) check {
	return func(t *testing.T, r *verify.Report) {
		t.Helper()
		n := 0
		for _, res := range r.Results {
			if res.Binding != binding || res.Operation != op || res.KeyRejection {
				continue
			}
			n++
			var texts []string
			for _, d := range res.Differences {
				texts = append(texts, d.String())
			}
			if res.Verdict != v || !strings.Contains(strings.Join(texts, "\n"), want) {
				t.Errorf("#%d %s: got %q %q; want %s with a difference holding %q", res.ID, res.Name(), res.Summary(), texts, v, want)
			}
		}
		if n == 0 {
			t.Errorf("no %s %s interaction in the report", binding, op)
		}
	}
}

// onlyIn wants every interaction but those of the bindings and operations
// named ("soap12 ReturnAtmSearchByCity", or a binding alone) to be the same.
func onlyIn(names ...string) check {
	return func(t *testing.T, r *verify.Report) {
		t.Helper()
		for _, res := range r.Results {
			if slices.Contains(names, res.Binding) || slices.Contains(names, res.Binding+" "+res.Operation) {
				continue
			}
			if res.Verdict != verify.Same {
				t.Errorf("#%d %s: got %q, want %q", res.ID, res.Name(), res.Summary(), "same")
			}
		}
	}
}

// allSame wants every interaction to be the same.
func allSame(t *testing.T, r *verify.Report) {
	t.Helper()
	if got := r.Count(verify.Same); got != len(r.Results) {
		t.Errorf("got %d interactions the same, want all %d:\n%s", got, len(r.Results), lines(r))
	}
}

func TestVerifyDrift(t *testing.T) {
	t.Parallel()
	up, _, path := recordedStandIn(t)
	for _, tc := range []struct {
		name   string
		edit   func(*http.Request, string, []byte) []byte
		ignore bool
		checks []check
	}{
		{"location dropped from SOAP 1.2", mocktest.SOAP12DropsLastLocation, false, []check{
			drifted("soap12", asmx.OpReturnAtmSearchByCity, verify.ValuesDrifted,
				"/Envelope/Body/ReturnAtmSearchByCityResponse/ReturnAtmSearchByCityResult/atmLocations/locations/location: 4 recorded, 3 live"),
			drifted("soap12", asmx.OpReturnAtmSearchByCoordinates, verify.ValuesDrifted, "/locations/location: "),
			onlyIn("soap12"),
		}},
		{"location dropped, values ignored", mocktest.SOAP12DropsLastLocation, true, []check{allSame}},
		{"JSON latitude shifted", mocktest.JSONShiftsFirstLocation("latitude", 0.001), false, []check{
			drifted("json", asmx.OpReturnAtmSearchByCoordinates, verify.ValuesDrifted, "$.locations[0].coordinates.latitude: recorded 44.709777, live 44.710777"),
			drifted("json", asmx.OpReturnAtmSearchByAddress, verify.ValuesDrifted, "$.locations[0].coordinates.latitude: recorded "),
			onlyIn("json"),
		}},
		{"JSON latitude shifted, values ignored", mocktest.JSONShiftsFirstLocation("latitude", 0.001), true, []check{allSame}},
		{"result element renamed", renameResult, false, []check{
			drifted("soap11", asmx.OpReturnAtmSearchByCity, verify.StructureDrifted,
				"/Envelope/Body/ReturnAtmSearchByCityResponse: ReturnAtmSearchByCityResult renamed to ReturnAtmSearchByCityReturn"),
			drifted("soap12", asmx.OpReturnAtmSearchByCity, verify.StructureDrifted, "renamed to ReturnAtmSearchByCityReturn"),
			onlyIn("soap11 ReturnAtmSearchByCity", "soap12 ReturnAtmSearchByCity"),
		}},
		{"result element renamed, values ignored", renameResult, true, []check{
			drifted("soap12", asmx.OpReturnAtmSearchByCity, verify.StructureDrifted, "renamed to ReturnAtmSearchByCityReturn"),
			onlyIn("soap11 ReturnAtmSearchByCity", "soap12 ReturnAtmSearchByCity"),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustRun(t, path, editor(t, up.URL, tc.edit), verify.Options{IgnoreValues: tc.ignore})
			for _, c := range tc.checks {
				c(t, r)
			}
		})
	}
}

// TestVerifyCouldNotCheck: a refused key, a closed port and a silent
// upstream stop the run with an error naming why, and no key in it.
func TestVerifyCouldNotCheck(t *testing.T) {
	t.Parallel()
	up, _, path := recordedStandIn(t)
	closed := mocktest.ClosedPort(t)
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	defer silent.Close()
	for _, tc := range []struct {
		name     string
		upstream string
		key      string
		timeout  time.Duration // short only where nothing answers
		sentinel error
		want     string
	}{
		{"refused key", up.URL, "Refused-Key-777", 10 * time.Second, verify.ErrKeyRefused, "as it answers a made-up key"},
		{"closed port", closed, testKey, 10 * time.Second, verify.ErrNoAnswer, "connection refused at " + closed},
		{"silent upstream", silent.URL, testKey, 200 * time.Millisecond, verify.ErrNoAnswer, "no answer from " + silent.URL + "/service/service.asmx within 200ms"},
		{"a path the deployment does not have", up.URL + "/atm", testKey, 10 * time.Second, verify.ErrNotFound,
			"answered 404 \"404 page not found\" (recorded: 200) at " + up.URL + "/atm/service/service.asmx; is the upstream the URL the service is at, its base path included?"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := run(t, path, tc.upstream, verify.Options{Key: tc.key, Timeout: tc.timeout, Concurrency: 4})
			if !errors.Is(err, tc.sentinel) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got error %v, want %v holding %q", err, tc.sentinel, tc.want)
			}
			if strings.Contains(err.Error(), tc.key) {
				t.Errorf("the error holds the key: %v", err)
			}
			if got := r.Count(verify.NotChecked); got != len(r.Results) {
				t.Errorf("got %d interactions not checked, want all %d:\n%s", got, len(r.Results), lines(r))
			}
		})
	}
}

// TestVerifyMovedNamespaceIsDrift: a deployment whose namespace changed
// answers every SOAP call, with any key, with ASMX's unknown-SOAPAction
// fault: that is drift of the interface, not a refused key.
func TestVerifyMovedNamespaceIsDrift(t *testing.T) {
	t.Parallel()
	_, ds, path := recordedStandIn(t)
	h, err := mockserver.New(mockserver.WithDataset(ds), mockserver.WithKeys(testKey), mockserver.WithNamespace("http://moved.example.org/atm"))
	if err != nil {
		t.Fatal(err)
	}
	moved := httptest.NewServer(h)
	defer moved.Close()
	r, err := run(t, path, moved.URL, verify.Options{Concurrency: 1})
	if err != nil {
		t.Fatalf("got %v, want a report of drift (not a refused key)", err)
	}
	if r.Count(verify.StructureDrifted) == 0 || r.Count(verify.NotChecked) != 0 {
		t.Errorf("got %d drifted, %d not checked; want the SOAP calls drifted, every call checked:\n%s",
			r.Count(verify.StructureDrifted), r.Count(verify.NotChecked), lines(r))
	}
}

// TestVerifyUpdate: --update's API rewrites the drifted answers; the
// cassette then verifies as the same, holds no key, and its key
// rejection stays marked.
func TestVerifyUpdate(t *testing.T) {
	t.Parallel()
	up, _, path := recordedStandIn(t)
	before := readCassette(t, path)
	drift := editor(t, up.URL, renameResult)
	r := mustRun(t, path, drift, verify.Options{})
	// Not while a recorder writes the cassette: one would drop the other's.
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordNew))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Update(); !errors.Is(err, cassettes.ErrCassetteBusy) || !strings.Contains(err.Error(), "verify it again once the recording has stopped") {
		t.Errorf("Update while a recorder holds the cassette: got %v, want ErrCassetteBusy saying what to do", err)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	// Not once the context has ended (Ctrl-C): nothing is rewritten.
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	if files, _, err := r.UpdateContext(ended); !errors.Is(err, context.Canceled) || len(files) > 0 {
		t.Errorf("UpdateContext with an ended context: got %q, %v; want nothing rewritten and context.Canceled", files, err)
	}
	if again, err := os.ReadFile(path); err != nil || string(again) != string(raw) {
		t.Errorf("UpdateContext with an ended context rewrote the cassette (%v)", err)
	}
	files, n, err := r.Update()
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 1 || n != 2 {
		t.Errorf("got %d answers replaced in %q, want 2 in one file", n, files)
	}
	assertNoKey(t, path)
	after := readCassette(t, path)
	if len(after) != len(before) {
		t.Fatalf("got %d interactions after the update, want %d", len(after), len(before))
	}
	for k := range after {
		if after[k].Request.Body != before[k].Request.Body || after[k].Request.URL != before[k].Request.URL {
			t.Errorf("interaction %d: the request changed", k)
		}
		if cassettes.KeyRejected(after[k]) != cassettes.KeyRejected(before[k]) {
			t.Errorf("interaction %d: key rejection mark lost or added", k)
		}
	}
	again := mustRun(t, path, drift, verify.Options{})
	allSame(t, again)
	if r, err = run(t, path, up.URL, verify.Options{}); err != nil || !r.Drifted() {
		t.Errorf("the updated cassette against the old deployment: drifted %v, err %v; want drift", r != nil && r.Drifted(), err)
	}
}

// TestVerifyUpdateScrubsNamedHeaders: Update redacts the headers it is
// given in the answers it writes, as the recorder's --scrub-header does.
func TestVerifyUpdateScrubsNamedHeaders(t *testing.T) {
	t.Parallel()
	up, _, path := recordedStandIn(t)
	driftURL, _ := url.Parse(editor(t, up.URL, renameResult))
	traced := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(driftURL) },
		ModifyResponse: func(resp *http.Response) error {
			resp.Header.Set("X-Trace-Ident", "trace-4711")
			return nil
		},
	})
	defer traced.Close()
	r := mustRun(t, path, traced.URL, verify.Options{})
	if _, n, err := r.Update("x-trace-ident"); err != nil || n == 0 {
		t.Fatalf("Update: %d replaced, %v; want the drifted answers replaced", n, err)
	}
	text, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(text), "trace-4711") || !strings.Contains(string(text), "X-Trace-Ident") {
		t.Errorf("the updated cassette holds the named header's value, or lost the header:\n%s", text)
	}
	list := readCassette(t, path)
	for _, i := range list {
		if i.Response.Headers.Get("Date") != "" {
			t.Errorf("interaction %d: the rewritten answer holds a Date header (it changes on every run)", i.ID)
		}
	}
}

// TestVerifyKeyNeverWritten: an upstream that echoes the key in its
// answers and headers: the report, its JUnit form and the updated
// cassette hold no key.
func TestVerifyKeyNeverWritten(t *testing.T) {
	t.Parallel()
	up, _, path := recordedStandIn(t)
	echo := editor(t, up.URL, func(_ *http.Request, _ string, body []byte) []byte {
		return bytes.ReplaceAll(body, []byte("Dartmouth"), []byte("Dartmouth "+testKey))
	})
	r := mustRun(t, path, echo, verify.Options{})
	if !strings.Contains(lines(r), `live "Dartmouth REDACTED"`) {
		t.Errorf("the report does not show the echoed key as REDACTED:\n%s", lines(r))
	}
	var junit bytes.Buffer
	if err := r.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Update(); err != nil {
		t.Fatal(err)
	}
	cassette, _ := os.ReadFile(path)
	for name, text := range map[string]string{"report": lines(r), "JUnit": junit.String(), "cassette": string(cassette)} {
		for _, form := range []string{testKey, url.QueryEscape(testKey)} {
			if strings.Contains(text, form) {
				t.Errorf("%s holds the key (%q)", name, form)
			}
		}
	}
}

// TestVerifyRate: with a rate, the upstream never sees more requests in
// a quarter second than the rate allows, twice over, plus the concurrency
// (requests held up on their way may arrive together): a generous bound
// no slow machine breaks, which a run without the limit (every request
// within a few milliseconds) breaks at once. The limiter's exact schedule
// is TestLimiterSchedule's.
func TestVerifyRate(t *testing.T) {
	t.Parallel()
	up, _, path := recordedStandIn(t)
	list := readCassette(t, path)
	three := slices.Concat(list, list, list) // the same interactions, three times
	writeCassette(t, path, three)
	var (
		mu      sync.Mutex
		arrived []time.Time
	)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		arrived = append(arrived, time.Now())
		mu.Unlock()
		httputilForward(w, r, up.URL)
	}))
	defer front.Close()
	const rate, conc, window = 100, 4, 250 * time.Millisecond
	r := mustRun(t, path, front.URL, verify.Options{Rate: rate, Concurrency: conc})
	allSame(t, r)
	mu.Lock()
	defer mu.Unlock()
	if len(arrived) != len(three) {
		t.Fatalf("the upstream saw %d requests, want %d", len(arrived), len(three))
	}
	most := 2*rate*int(window/time.Millisecond)/1000 + conc
	if most >= len(arrived) {
		t.Fatalf("the test proves nothing: %d requests, at most %d allowed in a window", len(arrived), most)
	}
	for i := range arrived {
		n := 0
		for j := i; j < len(arrived) && arrived[j].Sub(arrived[i]) < window; j++ {
			n++
		}
		if n > most {
			t.Fatalf("%d requests within %s from request %d, want at most %d", n, window, i, most)
		}
	}
}

// httputilForward sends r on to base and copies the answer back.
func httputilForward(w http.ResponseWriter, r *http.Request, base string) {
	up, _ := url.Parse(base)
	(&httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(up) }}).ServeHTTP(w, r)
}

// TestVerifyRetriesADroppedConnection: a connection closed without an
// answer is tried once more; closed twice, the run stops.
func TestVerifyRetriesADroppedConnection(t *testing.T) {
	t.Parallel()
	up, _, path := recordedStandIn(t)
	for _, tc := range []struct {
		name  string
		drops int // of each request's attempts
	}{{"dropped once", 1}, {"dropped twice", 2}} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			seen := map[string]int{}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				r.Body = io.NopCloser(bytes.NewReader(b))
				k := r.URL.String() + string(b)
				mu.Lock()
				seen[k]++
				n := seen[k]
				mu.Unlock()
				if n <= tc.drops {
					conn, _, err := http.NewResponseController(w).Hijack()
					if err == nil {
						conn.Close()
					}
					return
				}
				httputilForward(w, r, up.URL)
			}))
			defer srv.Close()
			r, err := run(t, path, srv.URL, verify.Options{})
			switch tc.drops {
			case 1:
				if err != nil {
					t.Fatal(err)
				}
				allSame(t, r)
			default:
				if !errors.Is(err, verify.ErrNoAnswer) || !strings.Contains(err.Error(), "closed the connection without an answer") {
					t.Errorf("got %v, want ErrNoAnswer: closed the connection without an answer", err)
				}
			}
		})
	}
}

// TestVerifyOrderAndOnResult: with several workers, results come in
// cassette order, each once, to OnResult and in the report.
func TestVerifyOrderAndOnResult(t *testing.T) {
	t.Parallel()
	up, _, path := recordedStandIn(t)
	var seen []int
	r := mustRun(t, path, up.URL, verify.Options{Concurrency: 8, OnResult: func(res verify.Result) {
		seen = append(seen, res.ID)
	}})
	var want []int
	for k, res := range r.Results {
		if res.ID != k {
			t.Errorf("result %d: got ID %d, want %d", k, res.ID, k)
		}
		want = append(want, k)
	}
	if !slices.Equal(seen, want) {
		t.Errorf("OnResult saw %v, want %v", seen, want)
	}
}

// TestVerifyNeedsKey: recorded calls need a key.
func TestVerifyNeedsKey(t *testing.T) {
	t.Parallel()
	_, err := verify.Run(context.Background(), []string{"../testdata/golden.yaml"}, verify.Options{Upstream: "http://127.0.0.1:1"})
	if !errors.Is(err, verify.ErrNoKey) {
		t.Errorf("got %v, want ErrNoKey", err)
	}
}

// TestVerifyEmptyKeySentEmpty: a call recorded with an empty key (an app's
// test of a missing key) is sent with an empty key again, not with a
// made-up one, so the deployment answers what it recorded.
func TestVerifyEmptyKeySentEmpty(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "empty.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	provinces := query{Op: asmx.OpReturnProvinces}
	for _, s := range []struct {
		b   asmx.Binding
		key string
	}{{asmx.HTTPGet, testKey}, {asmx.HTTPGet, ""}, {asmx.HTTPPost, ""}, {asmx.SOAP11, ""}} {
		do(t, rec.Client(), request(t, up.URL, s.b, provinces, s.key))
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, path, up.URL, verify.Options{})
	if r.Drifted() || r.Count(verify.Same) != 4 {
		t.Errorf("the empty key's answers drifted:\n%s", lines(r))
	}
}

// TestVerifyRefusesNoStatus: a hand-edited cassette whose answer has a
// code no answer has (0, a status line without one) cannot be checked:
// ErrInvalidCassette naming the interaction, not drift on every run.
func TestVerifyRefusesNoStatus(t *testing.T) {
	t.Parallel()
	up, _, path := recordedStandIn(t)
	list := readCassette(t, path)
	list[1].Response.Code = 0
	writeCassette(t, path, list)
	if _, err := run(t, path, up.URL, verify.Options{}); !errors.Is(err, cassettes.ErrInvalidCassette) || !strings.Contains(err.Error(), "interaction 1: response code 0") {
		t.Errorf("got %v, want ErrInvalidCassette naming interaction 1 and its code", err)
	}
}

// TestVerifyRawKeyCassette: a cassette made elsewhere, not scrubbed (its
// calls carry the raw key, an answer echoed it): the report shows no key
// (the echo drifts as REDACTED), and Update writes the whole cassette
// scrubbed, the calls that did not drift included.
func TestVerifyRawKeyCassette(t *testing.T) {
	t.Parallel()
	up, _, path := recordedStandIn(t)
	list := readCassette(t, path)
	echoed, raw := -1, 0
	for k, i := range list {
		if i.Response.Code != 200 || !strings.Contains(i.Request.Body, cassettes.Placeholder) {
			continue
		}
		i.Request.Body = strings.ReplaceAll(i.Request.Body, cassettes.Placeholder, testKey)
		raw++
		if echoed < 0 && strings.Contains(i.Response.Body, "Dartmouth") {
			i.Response.Body = strings.Replace(i.Response.Body, "Dartmouth", "Dartmouth "+testKey, 1)
			echoed = k
		}
	}
	if echoed < 0 || raw < 2 {
		t.Fatalf("%d raw calls, echo at %d: the test tests nothing", raw, echoed)
	}
	writeCassette(t, path, list)
	r := mustRun(t, path, up.URL, verify.Options{})
	noKeyInReports(t, r)
	if !strings.Contains(lines(r), `recorded "Dartmouth REDACTED"`) {
		t.Errorf("the echo does not drift as REDACTED:\n%s", lines(r))
	}
	if _, n, err := r.Update(); err != nil || n != 1 {
		t.Fatalf("Update: %d replaced, %v; want the echo's answer", n, err)
	}
	assertNoKey(t, path)
	if again, err := run(t, path, up.URL, verify.Options{}); err != nil || again.Drifted() {
		t.Errorf("the updated cassette: drifted %v, %v; want the same", again != nil && again.Drifted(), err)
	}
}

// TestVerifyNamesDuplicateIDs: verify's "#N" of an interaction whose id
// the cassette holds twice (ids edited by hand) adds its position in the
// file, "#0@2", in the text and the JUnit report alike.
func TestVerifyNamesDuplicateIDs(t *testing.T) {
	t.Parallel()
	up, _, path := recordedStandIn(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Replace(data, []byte("\n    - id: 2\n"), []byte("\n    - id: 0\n"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mustRun(t, path, up.URL, verify.Options{})
	var text strings.Builder
	for _, res := range r.Results[:4] {
		if err := res.WriteText(&text); err != nil {
			t.Fatal(err)
		}
	}
	var junit bytes.Buffer
	if err := r.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"  #0@0 ", "  #1 ", "  #0@2 ", "  #3 "} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text does not hold %q:\n%s", want, text.String())
		}
	}
	for _, want := range []string{`name="#0@0 `, `name="#0@2 `} {
		if !strings.Contains(junit.String(), want) {
			t.Errorf("the JUnit report does not hold %q:\n%.2000s", want, junit.String())
		}
	}
}

// TestVerifyKeyBesideTheCall: a cassette made elsewhere holds the key
// where no call carries it (a client that called the path
// .../service.asmx/KEY, answered "KEY Web Service method name is not
// valid."): the report and its JUnit form hold no key, and the answer,
// the key swept as the live one's is, is the same. The JUnit report
// named the key in the test case and in a drift, recorded raw against
// live REDACTED.
func TestVerifyKeyBesideTheCall(t *testing.T) {
	t.Parallel()
	up, _, path := recordedStandIn(t)
	list := readCassette(t, path)
	beside := *list[0]
	beside.ID = len(list)
	u, err := url.Parse(beside.Request.URL)
	if err != nil {
		t.Fatal(err)
	}
	u.Path, u.RawQuery = asmx.ServicePath+"/"+testKey, ""
	beside.Request.URL, beside.Request.Method, beside.Request.Body, beside.Request.Headers = u.String(), "GET", "", http.Header{}
	beside.Request.RequestURI, beside.Request.Form, beside.Request.ContentLength = u.RequestURI(), nil, 0
	body := testKey + " Web Service method name is not valid.\r\n"
	beside.Response.Code, beside.Response.Status, beside.Response.Body = 500, "500 Internal Server Error", body
	beside.Response.Headers = http.Header{"Content-Type": {"text/plain; charset=utf-8"}, "Content-Length": {strconv.Itoa(len(body))}}
	beside.Response.ContentLength = int64(len(body))
	writeCassette(t, path, append(list, &beside))
	r := mustRun(t, path, up.URL, verify.Options{})
	noKeyInReports(t, r)
	if r.Drifted() {
		t.Errorf("drifted, want the same:\n%s", lines(r))
	}
}

// noKeyInReports fails t if r's report lines or its JUnit form hold the
// test's key.
func noKeyInReports(t *testing.T, r *verify.Report) {
	t.Helper()
	var junit bytes.Buffer
	if err := r.WriteJUnit(&junit); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"report": lines(r), "JUnit": junit.String()} {
		if strings.Contains(text, testKey) {
			t.Errorf("the %s holds the key:\n%s", name, text)
		}
	}
}

// TestWriteJUnitFileFailureNamesTheReport: a JUnit report that cannot be
// written says so with its path and the cause, once: it said "JUnit report:
// write cassette PATH: …", as if a cassette were being written.
func TestWriteJUnitFileFailureNamesTheReport(t *testing.T) {
	t.Parallel()
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(notDir, "junit.xml")
	err := (&verify.Report{}).WriteJUnitFile(path)
	if err == nil || strings.Contains(err.Error(), "cassette") || !strings.HasPrefix(err.Error(), "JUnit report "+path+": ") ||
		strings.Count(err.Error(), path) != 1 {
		t.Errorf("got %v, want an error beginning %q, naming it once and no cassette", err, "JUnit report "+path+": ")
	}
}

package verify

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"github.com/atmkit/atmkit/internal/redact"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Errors of Run. They are wrapped with what happened; test for them with
// errors.Is.
var (
	// ErrNoKey: an interaction to verify carries a scrubbed service key and
	// Options.Key is empty.
	ErrNoKey = errors.New("a service key is needed")
	// ErrKeyRefused: the deployment answers the given key as it answers a
	// made-up one, so no answer can be compared.
	ErrKeyRefused = errors.New("the deployment refuses the key")
	// ErrNoAnswer: the deployment gave no answer (nothing listens, no
	// answer within the timeout, a TLS failure, a dropped connection) or
	// one too large to read; the run stopped there.
	ErrNoAnswer = errors.New("no answer from the deployment")
	// ErrUnavailable: the first call, recorded with another status, was
	// answered 502, 503 or 504: a gateway's error or a server that cannot
	// serve now, no answer of the service; the run stopped there.
	ErrUnavailable = errors.New("the deployment is unavailable")
	// ErrNotFound: the first call, recorded with another status, was
	// answered 404: the deployment has no such path (an upstream URL
	// without the service's base path, or with one too many), so no answer
	// can be compared; the run stopped there.
	ErrNotFound = errors.New("the deployment has no such path")
)

// DefaultTimeout bounds each request of Run unless
// Options.Timeout says otherwise.
const DefaultTimeout = 30 * time.Second

// DefaultMaxDifferences is how many value differences a Result keeps
// unless Options.MaxDifferences says otherwise (all are counted).
const DefaultMaxDifferences = 5

// Options configure Run. Only Upstream is required (and Key, when
// the cassettes hold calls of the service).
type Options struct {
	// Upstream is the base URL of the live deployment, such as
	// https://atm.example.org. Each recorded request goes to the same path
	// below it (from the service path on) as it went to when recorded.
	Upstream string
	// Key replaces the scrubbed service key (cassettes.Placeholder) of
	// every recorded call. It never appears in a report, an error or an
	// updated cassette.
	Key string
	// WrongKey is sent instead of the key of recorded key rejections
	// (cassettes.RejectedPlaceholder); default: a made-up key.
	WrongKey string
	// Secrets are more values never to show or write (the values of gateway
	// headers the Transport adds): they are masked in errors and replaced
	// by cassettes.Placeholder in answers.
	Secrets []string
	// Transport reaches the deployment (default http.DefaultTransport).
	// Redirects are not followed: a recorded redirect is compared as one.
	Transport http.RoundTripper
	// Timeout bounds each request, from sending it to the answer's last
	// byte (default DefaultTimeout).
	Timeout time.Duration
	// Concurrency is how many requests may be in flight at once (default 1).
	Concurrency int
	// Rate is the most requests started per second; 0 means no limit. The
	// starts are spaced evenly, 1/Rate apart, so a long run never bursts.
	Rate float64
	// IgnoreValues compares the structure only (status, content type,
	// element tree, names, namespaces and types), not the values: the data
	// of a deployment changes daily, its shape should not.
	IgnoreValues bool
	// RequestEncoding is the requestEncoding of the deployment the
	// cassettes were recorded from (default UTF-8): the recorded queries
	// and forms that name no charset are read in it for the results'
	// parameters (Result.Name), as a mock replaying them with it reads
	// them (cassettes.WithRequestEncoding). It changes nothing sent: each
	// request goes again byte for byte as recorded, the key aside.
	RequestEncoding asmx.RequestEncoding
	// MaxDifferences is how many value differences each result keeps
	// (default DefaultMaxDifferences); all are counted.
	MaxDifferences int
	// OnResult, when set, is called with each result in cassette order as
	// soon as it and every result before it are known. Calls are
	// serialized; OnResult must not block for long.
	OnResult func(Result)
}

// job is one recorded interaction to verify.
type job struct {
	file string
	i    *cassette.Interaction // scrubbed
	name string                // its name in the file (recorded.Names)
	raw  cassette.Request      // its URL and body as the file holds them, for Update to find it again
	n    int                   // index in the report
	pos  int                   // index in the file
}

// Run re-sends every interaction recorded in the cassettes at paths
// (files, or directories of them) to the live deployment at
// opts.Upstream and compares each answer with the recording: status,
// content type, the element tree of XML answers (envelope, wrapper and
// result names, namespaces, order, types) or the members and types of JSON
// ones, then the values. Each call is sent in the binding it was recorded
// in, with opts.Key in place of the scrubbed key; a recorded key rejection
// is sent with a wrong key and compared with that recording.
//
// The report holds one result per interaction. The error is non-nil when
// the run could not check the deployment: no key given where one is needed
// (ErrNoKey), the key refused (ErrKeyRefused), or a request that got no
// answer (ErrNoAnswer; the run stops there and the interactions not sent
// are NotChecked), the first call answered by a gateway's error
// (ErrUnavailable) or 404 (ErrNotFound), or a cassette that cannot be read. Drift is no error:
// see Report.Drifted.
func Run(ctx context.Context, paths []string, opts Options) (*Report, error) {
	base, err := url.Parse(opts.Upstream)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("verify: upstream %q: want an http or https URL", upstreamText(opts))
	}
	switch {
	case opts.Concurrency < 0:
		return nil, fmt.Errorf("verify: concurrency %d is negative", opts.Concurrency)
	case opts.Rate < 0:
		return nil, fmt.Errorf("verify: rate %g is negative", opts.Rate)
	case opts.Timeout < 0:
		return nil, fmt.Errorf("verify: timeout %s is negative", opts.Timeout)
	}
	files, err := cassettes.Files(paths...)
	if err != nil {
		return nil, err
	}
	report := &Report{Upstream: upstreamText(opts), Files: files, IgnoreValues: opts.IgnoreValues,
		key: opts.Key}
	var jobs []job
	needKey := 0
	for _, f := range files {
		list, err := cassettes.ReadFileContext(ctx, f)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("verify: interrupted: %w", err)
		}
		if err != nil {
			return nil, err
		}
		// A cassette written elsewhere (go-vcr's own, its client asking
		// for gzip) may hold answers compressed: compared by what they
		// say, as replay serves them, not by their compressed bytes.
		// A status no answer has (a hand-edited cassette's code: 0) would
		// drift on every run: refused, as replay refuses it.
		names := recorded.Names(list)
		for pos, i := range list {
			if c := i.Response.Code; c < 200 || c > 599 {
				return nil, fmt.Errorf("%w: %s: interaction %s: response code %d is no status of an HTTP answer (200 to 599)", cassettes.ErrInvalidCassette, f, names[pos], c)
			}
			if _, err := recorded.Decompress(i); err != nil {
				return nil, fmt.Errorf("%w: %s: interaction %s: %w", cassettes.ErrInvalidCassette, f, names[pos], err)
			}
		}
		// A cassette made elsewhere may hold raw keys: verified as a
		// Recorder would have written it (in memory; the file is left as
		// it is), so that no key it holds reaches a report (an answer
		// that echoed it) and every call is sent with Options.Key.
		raw := make([]cassette.Request, len(list))
		for pos, i := range list {
			raw[pos] = cassette.Request{URL: i.Request.URL, Body: i.Request.Body}
		}
		cassettes.ScrubList(list)
		for _, i := range list {
			// The key (and the secrets) where no call carries it (a
			// path .../service.asmx/KEY that an answer echoes): swept
			// from the recorded answer as from the live one (scrub), so
			// that it neither drifts nor reaches a report.
			ph := cassettes.Placeholder
			if cassettes.KeyRejected(i) {
				ph = cassettes.RejectedPlaceholder
			}
			recorded.Sweep(&i.Response, ph, append([]string{opts.Key}, opts.Secrets...)...)
		}
		for pos, i := range list {
			jobs = append(jobs, job{file: f, i: i, name: names[pos], raw: raw[pos], n: len(jobs), pos: pos})
			if c, ok := recorded.CallOf(i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body); ok && c.Key == cassettes.Placeholder {
				needKey++
			}
		}
	}
	if needKey > 0 && opts.Key == "" {
		return nil, fmt.Errorf("%w: %d recorded calls carry a scrubbed key", ErrNoKey, needKey)
	}
	v := newVerifier(base, opts)
	report.Results = make([]Result, len(jobs))
	for _, j := range jobs {
		e := cassettes.EntryOf(j.i, cassettes.WithRequestEncoding(opts.RequestEncoding))
		e.Name = j.name
		maskEntry(&e, append([]string{opts.Key}, opts.Secrets...))
		report.Results[j.n] = Result{File: j.file, Entry: e, Verdict: NotChecked,
			pos: j.pos, request: j.raw}
	}
	start := time.Now()
	err = v.run(ctx, jobs, report.Results)
	report.Duration = time.Since(start)
	return report, err
}

// verifier runs one Run.
type verifier struct {
	base     *url.URL
	opts     Options
	rt       http.RoundTripper
	timeout  time.Duration
	wrongKey string
	limit    *limiter
	max      int

	mu      sync.Mutex // guards the fields below
	stopErr error      // the first failure that stopped the run
	done    []bool     // results known
	next    int        // first result not yet given to OnResult
}

func newVerifier(base *url.URL, opts Options) *verifier {
	v := &verifier{base: base, opts: opts, rt: opts.Transport, timeout: opts.Timeout, wrongKey: opts.WrongKey,
		limit: newLimiter(opts.Rate), max: opts.MaxDifferences}
	if v.rt == nil {
		v.rt = http.DefaultTransport
	}
	if v.timeout == 0 {
		v.timeout = DefaultTimeout
	}
	if v.max <= 0 {
		v.max = DefaultMaxDifferences
	}
	if v.wrongKey == "" || v.wrongKey == opts.Key {
		var b [6]byte
		_, _ = rand.Read(b[:])
		v.wrongKey = "atmkit-verify-wrong-key-" + hex.EncodeToString(b[:])
	}
	return v
}

// run verifies jobs, storing each result in results: first one call (the
// preflight, which also tells whether the key is refused), then the rest by
// opts.Concurrency workers.
func (v *verifier) run(ctx context.Context, jobs []job, results []Result) error {
	v.done = make([]bool, len(jobs))
	if len(jobs) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	first := 0
	for k, j := range jobs {
		if c, ok := recorded.CallOf(j.i.Request.Method, j.i.Request.URL, j.i.Request.Headers, j.i.Request.Body); ok && c.Key == cassettes.Placeholder && j.i.Response.Code < 300 {
			first = k
			break
		}
	}
	if err := v.preflight(ctx, jobs[first], results); err != nil {
		v.stop(err)
		v.finish(results)
		return err
	}
	queue := make(chan job)
	workers := max(v.opts.Concurrency, 1)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range queue {
				v.verifyOne(ctx, cancel, j, results)
			}
		}()
	}
feed:
	for k, j := range jobs {
		if k == first {
			continue
		}
		select {
		case queue <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(queue)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		v.stop(err) // interrupted; a no-op when a failure stopped the run
	}
	v.finish(results)
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.stopErr
}

// verifyOne verifies one job unless the run stopped; a request that got no
// answer stops the run.
func (v *verifier) verifyOne(ctx context.Context, cancel context.CancelFunc, j job, results []Result) {
	if ctx.Err() != nil {
		return
	}
	if err := v.limit.wait(ctx); err != nil {
		return
	}
	res := results[j.n]
	if _, err := v.check(ctx, j, &res); err != nil {
		if ctx.Err() != nil {
			return // the run stopped while this one was under way
		}
		if v.stop(err) {
			cancel()
		}
		res.Err = err
	}
	v.store(j.n, res, results)
}

// stop records the first error that stops the run; it reports whether err
// was the first.
func (v *verifier) stop(err error) bool {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.stopErr != nil {
		return false
	}
	if errors.Is(err, context.Canceled) {
		err = fmt.Errorf("verify: interrupted: %w", err)
	}
	v.stopErr = err
	return true
}

// store records a result and hands every result now known in order to
// OnResult.
func (v *verifier) store(n int, res Result, results []Result) {
	v.mu.Lock()
	defer v.mu.Unlock()
	results[n] = res
	v.done[n] = true
	for v.next < len(results) && v.done[v.next] {
		if v.opts.OnResult != nil {
			v.opts.OnResult(results[v.next])
		}
		v.next++
	}
}

// finish marks the results of the interactions not sent and hands them to
// OnResult.
func (v *verifier) finish(results []Result) {
	v.mu.Lock()
	why := v.stopErr
	v.mu.Unlock()
	for n := range results {
		v.mu.Lock()
		done := v.done[n]
		v.mu.Unlock()
		if done {
			continue
		}
		res := results[n]
		res.Verdict = NotChecked
		if why != nil {
			res.Err = errors.New("the run stopped before its answer came")
		}
		v.store(n, res, results)
	}
}

// preflight verifies the first call with the key. A call recorded with a
// success that now gets an error is sent again with a made-up key: the
// same answer to both means the key is refused.
func (v *verifier) preflight(ctx context.Context, j job, results []Result) error {
	if err := v.limit.wait(ctx); err != nil {
		return err
	}
	res := results[j.n]
	live, err := v.check(ctx, j, &res)
	if err != nil {
		res.Err = err
		v.store(j.n, res, results)
		return err
	}
	// A gateway's error, or a server that cannot serve now, answers for
	// no service: nothing can be compared.
	if code := live.Response.Code; unavailable(code) && j.i.Response.Code != code {
		res.Verdict, res.Err = NotChecked, fmt.Errorf("%w: %s answered %d %s (recorded: %d), the error of a gateway or of a server that cannot serve now, not an answer of the service",
			ErrUnavailable, res.Name(), code, answerText(&live.Response), j.i.Response.Code)
		v.store(j.n, res, results)
		return res.Err
	}
	// A path the deployment does not have: most likely the upstream URL
	// leaves out the service's base path (or adds one); every call would
	// drift alike.
	if code := live.Response.Code; code == http.StatusNotFound && j.i.Response.Code != code {
		res.Verdict, res.Err = NotChecked, fmt.Errorf("%w: %s answered 404 %s (recorded: %d) at %s; is the upstream the URL the service is at, its base path included?",
			ErrNotFound, res.Name(), answerText(&live.Response), j.i.Response.Code, redact.Text(redact.URL(live.Request.URL), v.secrets()...))
		v.store(j.n, res, results)
		return res.Err
	}
	// An error ASMX gives before the service's code runs (an unknown
	// SOAPAction or namespace, a missing parameter) does not depend on the
	// key: that is drift, reported as the comparison found it. A refused
	// key is answered 500 by ASMX, 401 or 403 by a gateway.
	if !res.KeyRejection && j.i.Response.Code < 300 && refusal(live.Response.Code) && !asmx.IsFrameworkError(live.Response.Body) {
		if err := v.limit.wait(ctx); err != nil {
			return err
		}
		wrong, err := v.send(ctx, j.i, v.wrongKey)
		if err != nil {
			res.Err = err
			v.store(j.n, res, results)
			return err
		}
		v.scrub(wrong, cassettes.Placeholder)
		if wrong.Response.Code == live.Response.Code && wrong.Response.Body == live.Response.Body {
			res.Verdict, res.Err = NotChecked, fmt.Errorf("%w: %s answered %d %s, as it answers a made-up key",
				ErrKeyRefused, res.Name(), live.Response.Code, answerText(&live.Response))
			v.store(j.n, res, results)
			return res.Err
		}
	}
	v.store(j.n, res, results)
	return nil
}

// unavailable reports whether status says that no service answered: a
// gateway's error (502, 504) or a server that cannot serve now (503).
func unavailable(status int) bool {
	return status == http.StatusBadGateway || status == http.StatusServiceUnavailable || status == http.StatusGatewayTimeout
}

// refusal reports whether status may answer a refused key: ASMX's 500 (a
// fault, or the text of the exception), a gateway's 401 or 403.
func refusal(status int) bool {
	return status == http.StatusInternalServerError || status == http.StatusUnauthorized || status == http.StatusForbidden
}

// check sends j's request and compares the answer with the recording,
// filling res. It returns the live interaction, scrubbed.
func (v *verifier) check(ctx context.Context, j job, res *Result) (*cassette.Interaction, error) {
	ph, key := cassettes.Placeholder, v.opts.Key
	if res.KeyRejection {
		ph, key = cassettes.RejectedPlaceholder, v.wrongKey
	}
	start := time.Now()
	live, err := v.send(ctx, j.i, key)
	res.Duration = time.Since(start)
	if err != nil {
		res.Verdict = NotChecked
		return nil, err
	}
	v.scrub(live, ph)
	c := compareAnswers(&j.i.Response, &live.Response, v.opts.IgnoreValues, v.max)
	res.Differences, res.StructureCount, res.ValueCount, res.Note = c.diffs(), c.structureN, c.valueN, c.note
	switch {
	case c.structureN > 0:
		res.Verdict = StructureDrifted
	case c.valueN > 0:
		res.Verdict = ValuesDrifted
	default:
		res.Verdict = Same
	}
	if res.Verdict != Same {
		resp := live.Response
		res.Live = &resp
	}
	return live, nil
}

// upstreamText is opts.Upstream as reports and errors show it: its
// password, its strAtmServiceKey value, the key and the secrets masked (a
// gateway's token in its path or query, given as a secret).
func upstreamText(opts Options) string {
	return redact.Text(redact.URL(opts.Upstream), append([]string{opts.Key}, opts.Secrets...)...)
}

// scrub scrubs a live interaction as a cassette holds it, with ph for the
// key. An answer that does not name strAtmServiceKey has nothing scrub's
// patterns match: its body skips them (they are most of the time spent)
// and only gets the sweep of the keys sent.
func (v *verifier) scrub(live *cassette.Interaction, ph string) {
	body := live.Response.Body
	named := redact.HasParamName(body)
	if !named {
		live.Response.Body = ""
	}
	recorded.Scrub(live, ph)
	if !named {
		live.Response.Body = body
	}
	recorded.Sweep(&live.Response, ph, append([]string{v.opts.Key, v.wrongKey}, v.opts.Secrets...)...)
}

// maskEntry masks keys (the key and the secrets) in what e shows of a
// request: the method and path of one that is no call
// (.../service.asmx/KEY), and the parameters. The path's segments after
// the .asmx file that name no operation are masked whatever they hold, as
// atmkit record's progress lines mask them: another key may stand there.
func maskEntry(e *cassettes.Entry, keys []string) {
	if e.Binding == "" {
		e.Operation = recorded.MaskPathKeysURL(e.Operation)
	}
	e.Operation = redact.Text(e.Operation, keys...)
	for k := range e.Params {
		e.Params[k][1] = redact.Text(e.Params[k][1], keys...)
	}
}

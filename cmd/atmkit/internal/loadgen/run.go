package loadgen

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/atmkit/atmkit/internal/redact"
)

// Options set the shape of a run. Zero fields take the defaults noted.
type Options struct {
	// Connections is the number of keep-alive connections, each driven by
	// its own goroutine with one request in flight (default 32).
	Connections int
	// Duration is how long requests are measured (default 10s).
	Duration time.Duration
	// Warmup is how long the same connections send requests before the
	// measured Duration begins; warm-up responses are not counted.
	Warmup time.Duration
	// ExpectStatus is the status every response must have (default 200);
	// any other counts as an error.
	ExpectStatus int
	// ExpectLength, when positive, is the body length every response must
	// have; any other counts as an error.
	ExpectLength int64
	// ExpectBody, when not nil, is the body the run's first response must
	// have, byte for byte: that response is read on the first connection
	// before the warm-up and the measured time begin, so the requests
	// measured cost no more, and any other answer (or none) counts as one
	// error. The later responses are checked against ExpectLength.
	ExpectBody []byte
	// DialTimeout bounds each connection attempt (default 5s).
	DialTimeout time.Duration
}

func (o Options) withDefaults() Options {
	if o.Connections <= 0 {
		o.Connections = 32
	}
	if o.Duration <= 0 {
		o.Duration = 10 * time.Second
	}
	if o.ExpectStatus == 0 {
		o.ExpectStatus = 200
	}
	if o.DialTimeout <= 0 {
		o.DialTimeout = 5 * time.Second
	}
	return o
}

// Result is what one run (or several, combined) measured.
type Result struct {
	// Requests counts the responses that met the expectations within the
	// measured time; Errors counts failed requests (wrong status or length,
	// connection or protocol errors).
	Requests int64
	Errors   int64
	// Bytes is the body bytes of the counted responses.
	Bytes int64
	// Elapsed is the measured time (the sum, for combined results).
	Elapsed time.Duration
	// FirstError describes the first error seen, if any.
	FirstError string
	// Latency holds the latency of every counted request, from writing the
	// request to reading the last byte of the response.
	Latency *Histogram
}

// RPS is the counted requests per second of elapsed time.
func (r Result) RPS() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// P50 is the median latency.
func (r Result) P50() time.Duration { return r.quantile(0.50) }

// P99 is the 99th percentile latency.
func (r Result) P99() time.Duration { return r.quantile(0.99) }

func (r Result) quantile(q float64) time.Duration {
	if r.Latency == nil {
		return 0
	}
	return r.Latency.Quantile(q)
}

// Combine sums results of several runs of the same request (for example
// rounds alternating between servers): counts and elapsed times add up,
// latencies merge.
func Combine(rs ...Result) Result {
	out := Result{Latency: &Histogram{}}
	for _, r := range rs {
		out.Requests += r.Requests
		out.Errors += r.Errors
		out.Bytes += r.Bytes
		out.Elapsed += r.Elapsed
		if out.FirstError == "" {
			out.FirstError = r.FirstError
		}
		if r.Latency != nil {
			out.Latency.Merge(r.Latency)
		}
	}
	return out
}

// Run sends req over opts.Connections keep-alive connections for
// opts.Warmup plus opts.Duration and reports what it measured. It fails only
// when req is unusable or no connection could be opened at all; a server
// that fails requests shows up in Result.Errors. Cancelling ctx ends the run
// early with what was measured so far.
func Run(ctx context.Context, req Request, opts Options) (Result, error) {
	opts = opts.withDefaults()
	t, err := req.prepare()
	if err != nil {
		return Result{}, err
	}
	// One connection first, so that an unreachable target is an error
	// rather than a run full of errors.
	first, err := dial(t, opts.DialTimeout)
	if err != nil {
		return Result{}, fmt.Errorf("load %s: %w", redact.URL(req.URL), err)
	}
	var checkErr error
	if opts.ExpectBody != nil && !t.head {
		first, checkErr = check(ctx, first, opts)
	}
	start := time.Now()
	r := &runner{
		t:       t,
		opts:    opts,
		measure: start.Add(opts.Warmup),
		end:     start.Add(opts.Warmup + opts.Duration),
		conns:   map[*conn]bool{},
	}
	stop := context.AfterFunc(ctx, r.interrupt)
	defer stop()
	workers := make([]*worker, opts.Connections)
	var wg sync.WaitGroup
	for i := range workers {
		w := &worker{r: r, hist: &Histogram{}}
		workers[i] = w
		var c *conn
		if i == 0 {
			c = first
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.run(c)
		}()
	}
	wg.Wait()
	elapsed := opts.Duration
	if now := time.Now(); now.Before(r.end) {
		elapsed = max(0, now.Sub(r.measure)) // interrupted
	}
	res := Result{Elapsed: elapsed, Latency: &Histogram{}}
	if checkErr != nil {
		res.Errors, res.FirstError = 1, checkErr.Error()
	}
	for _, w := range workers {
		res.Requests += w.requests
		res.Errors += w.errors
		res.Bytes += w.bytes
		res.Latency.Merge(w.hist)
		if res.FirstError == "" && w.firstErr != nil {
			res.FirstError = w.firstErr.Error()
		}
	}
	return res, nil
}

// runner is the state shared by the workers of one run.
type runner struct {
	t            *target
	opts         Options
	measure, end time.Time

	interrupted atomic.Bool

	mu    sync.Mutex // guards conns
	conns map[*conn]bool
}

// interrupt ends the run now: every open connection's deadline passes.
func (r *runner) interrupt() {
	r.interrupted.Store(true)
	r.mu.Lock()
	defer r.mu.Unlock()
	for c := range r.conns {
		_ = c.nc.SetDeadline(time.Now())
	}
}

// track registers c for interruption and sets its deadline to the run's end;
// it reports false when the run is already over.
func (r *runner) track(c *conn) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.interrupted.Load() || !time.Now().Before(r.end) {
		return false
	}
	r.conns[c] = true
	_ = c.nc.SetDeadline(r.end)
	return true
}

func (r *runner) untrack(c *conn) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.conns, c)
}

func (r *runner) over(now time.Time) bool {
	return !now.Before(r.end) || r.interrupted.Load()
}

// worker drives one connection at a time.
type worker struct {
	r                       *runner
	requests, errors, bytes int64
	hist                    *Histogram
	firstErr                error
}

func (w *worker) fail(err error) {
	w.errors++
	if w.firstErr == nil {
		w.firstErr = err
	}
}

// run loops until the run is over, redialling after errors and after
// responses that close the connection.
func (w *worker) run(c *conn) {
	r := w.r
	for {
		if c == nil {
			var err error
			if c, err = dial(r.t, r.opts.DialTimeout); err != nil {
				now := time.Now()
				if r.over(now) {
					return
				}
				if !now.Before(r.measure) { // the warm-up's are not counted, as its requests
					w.fail(err)
				}
				time.Sleep(10 * time.Millisecond)
				continue
			}
		}
		if !r.track(c) {
			c.close()
			return
		}
		reuse := w.loop(c)
		r.untrack(c)
		c.close()
		c = nil
		if !reuse && r.over(time.Now()) {
			return
		}
	}
}

// loop sends requests on c until the run is over (false) or c must be
// replaced (true).
func (w *worker) loop(c *conn) bool {
	r := w.r
	for {
		t0 := time.Now()
		resp, err := c.do(nil)
		now := time.Now()
		if r.over(now) {
			return false // the request straddles the end: not counted
		}
		counted := !now.Before(r.measure)
		if err != nil {
			if counted {
				w.fail(err)
			}
			return true
		}
		if counted {
			switch {
			case resp.status != r.opts.ExpectStatus:
				w.fail(fmt.Errorf("status %d, want %d", resp.status, r.opts.ExpectStatus))
			case r.opts.ExpectLength > 0 && resp.length != r.opts.ExpectLength:
				w.fail(fmt.Errorf("body of %d bytes, want %d", resp.length, r.opts.ExpectLength))
			default:
				w.requests++
				w.bytes += resp.length
				w.hist.Record(now.Sub(t0))
			}
		}
		if resp.close {
			return true
		}
	}
}

// check sends the request once on c, before a run's clock starts, and
// compares the whole response with opts' ExpectStatus and ExpectBody,
// reading the body through without keeping it (an answer of a million
// ATMs is hundreds of megabytes). It returns the connection to go on with
// (nil when c must be replaced) and what was wrong, if anything. The wait
// is bounded by checkTimeout or the run's own length, the longer, and by
// ctx, whose end is no error.
func check(ctx context.Context, c *conn, opts Options) (*conn, error) {
	_ = c.nc.SetDeadline(time.Now().Add(max(checkTimeout, opts.Warmup+opts.Duration)))
	stop := context.AfterFunc(ctx, func() { _ = c.nc.SetDeadline(time.Now()) })
	cmp := &bodyCheck{want: opts.ExpectBody, diff: -1}
	resp, err := c.do(cmp)
	stop()
	switch {
	case ctx.Err() != nil:
		c.close()
		return nil, nil
	case err != nil:
		c.close()
		return nil, fmt.Errorf("the first answer: %w", err)
	}
	var bad error
	switch {
	case resp.status != opts.ExpectStatus:
		bad = fmt.Errorf("the first answer: status %d, want %d", resp.status, opts.ExpectStatus)
	case cmp.n != int64(len(cmp.want)):
		bad = fmt.Errorf("the first answer: body of %d bytes, want %d", cmp.n, len(cmp.want))
	case cmp.diff >= 0:
		bad = fmt.Errorf("the first answer's body differs from the one expected at byte %d (of %d)", cmp.diff, len(cmp.want))
	}
	if resp.close {
		c.close()
		return nil, bad
	}
	_ = c.nc.SetDeadline(time.Time{})
	return c, bad
}

// checkTimeout is the least time check waits for the answer it checks: a
// run of 100 ms on a busy machine may wait longer for one answer, which
// is not measured.
const checkTimeout = 10 * time.Second

// bodyCheck compares the bytes written to it with want, in order,
// keeping none of them: n counts them, diff is the offset of the first
// that differs from want's (or lies past its end), -1 while none does.
type bodyCheck struct {
	want []byte
	n    int64
	diff int64
}

func (b *bodyCheck) Write(p []byte) (int, error) {
	if b.diff < 0 {
		rest := b.want[min(b.n, int64(len(b.want))):]
		k := min(len(p), len(rest))
		switch {
		case !bytes.Equal(p[:k], rest[:k]):
			i := 0
			for p[i] == rest[i] {
				i++
			}
			b.diff = b.n + int64(i)
		case k < len(p):
			b.diff = b.n + int64(k)
		}
	}
	b.n += int64(len(p))
	return len(p), nil
}

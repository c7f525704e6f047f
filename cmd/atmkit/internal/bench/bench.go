package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/banner"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/health"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/loadgen"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/neterr"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/internal/serve"
	"github.com/atmkit/atmkit/internal/tlsconf"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
)

// Config is one run of atmkit bench: its flags, each checked on its own
// by the command. Run checks how they combine.
type Config struct {
	Op      string // the operation called (default ReturnAtmSearchByCoordinates; with AtmsScale ReturnAtmSearchByAddressWithMaximum)
	Binding string // the binding: soap11, soap12, get, post or json

	Connections int           // keep-alive connections, one request in flight on each (default 32; with AtmsScale 16)
	Duration    time.Duration // measured time per server, split over the rounds
	Warmup      time.Duration // unmeasured warm-up per server before the rounds (WireMock gets at least 5 s), and up to 100 ms of it before each round (0: none)
	Rounds      int           // rounds, the servers' order reversed each round (0: one per second of Duration, 2 to 30)

	Target    string       // base URL of a running service measured instead of an in-process mock
	Fixtures  string       // data set directory of the in-process mock
	ATMs      int          // or a data set of this many ATMs, generated with Seed
	Seed      uint64       // the seed of a generated data set (ATMs, AtmsScale)
	Key       string       // the service key sent
	Namespace string       // the service namespace
	Params    []string     // name=value overrides of the call's default parameters
	Shape     *shape.Shape // the in-process mock's result shape (nil: the built-in one)

	WireMock    bool   // also measure WireMock serving the same answer from a stub
	CopyCeiling bool   // also measure a ceiling that copies the answer from as many pieces as it has locations before writing it
	WireMockJar string // WireMock's standalone jar (default: found in the npm package wiremock)
	CPUProfile  string // write a CPU profile of the measured rounds to this file

	Replay      []string // the in-process mock replays these cassette files or directories
	ReplayScale bool     // measure mocks replaying cassettes of ReplaySizes interactions
	ReplaySizes string   // "10,10000" (default DefaultReplaySizes); implies ReplayScale

	AtmsScale bool   // measure atmkit serve processes on generated data sets of AtmsSizes ATMs
	AtmsSizes string // "10000,1000000" (default DefaultAtmsSizes); implies AtmsScale
	Exe       string // the atmkit executable AtmsScale and a Target run start (default os.Executable)

	// Log receives progress lines; nil discards them.
	Log io.Writer
}

// UsageError is the error of a Config whose settings do not combine (or a
// value Run found wrong): the command line's fault. Flag and Problem, when
// Flag is not empty, are the one setting at fault (without its dashes) and
// what is wrong with its value, for the command to name where the value
// came from (the flag, an ATMKIT_ variable).
type UsageError struct {
	Msg           string
	Flag, Problem string
}

// Error returns the message, as the command line reports it.
func (e *UsageError) Error() string { return e.Msg }

func usagef(format string, args ...any) error { return &UsageError{Msg: fmt.Sprintf(format, args...)} }

// TargetError is the error of a Target that could not be measured: nothing
// listens there, it does not answer the call with a 200, or its answer is
// not the service's (a server that is no ATM service). The command exits 2
// for it: the target could not be checked.
type TargetError struct{ Err error }

// Error returns the wrapped error's text.
func (e *TargetError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *TargetError) Unwrap() error { return e.Err }

// ExitCode is 2: a target that could not be checked.
func (e *TargetError) ExitCode() int { return 2 }

// target is one server measured.
type target struct {
	name   string
	url    string // base URL
	warmup time.Duration
	runs   []loadgen.Result // one a round measured whole
	cut    []loadgen.Result // of the round an interruption cut short: in the totals, no round

	body []byte // its answer, when its own (AtmsScale); else the run's
	// Of an atmkit serve process (AtmsScale): its process id, its data
	// set's size and its resident memory once it listened.
	pid       int
	atms      int
	rssLoaded int64
}

// Run measures what cfg says and returns the report. A server that
// answered with errors is in the report (Report.Err), not an error of Run.
// When ctx ends before measuring starts (while a large data set loads, say)
// it returns ErrNotMeasured; once measuring, ErrInterrupted with the report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	report, err := run(ctx, cfg)
	if report == nil && err != nil && ctx.Err() != nil {
		return nil, ErrNotMeasured
	}
	if report != nil && err == nil {
		err = report.unanswered()
	}
	return report, err
}

// ErrUnanswered is wrapped by the error of a run, its report complete, in
// which a server answered no call while it was measured, and failed none:
// each call outlasted its round (a --target slower than -d allows), so
// the server was not measured, and its 0 requests a second and the
// ratios against them say nothing. Its exit code is 2, as a TargetError's.
var ErrUnanswered = errors.New("answered no call while it was measured")

// unansweredError is ErrUnanswered for one server.
type unansweredError struct{ msg string }

func (e *unansweredError) Error() string { return e.msg }

func (e *unansweredError) Unwrap() error { return ErrUnanswered }

func (e *unansweredError) ExitCode() int { return 2 }

// unanswered is the error of r when a server in it answered no call in
// the time measured, and failed none: a TargetError for --target's
// server, an unansweredError for another; nil when every server answered.
func (r *Report) unanswered() error {
	for _, res := range r.Results {
		if res.Requests > 0 || res.Errors > 0 {
			continue
		}
		d := time.Duration(r.DurationSec * float64(time.Second))
		name := "the server " + res.Server
		if res.Server == "target" {
			name = "the target"
		}
		err := &unansweredError{msg: fmt.Sprintf("bench: %s answered no call in the %s it was measured (%s of %s): each took longer than its round; give a longer -d or fewer --rounds",
			name, d, plural(r.Rounds, "round"), d/time.Duration(max(1, r.Rounds)))}
		if res.Server == "target" {
			return &TargetError{Err: err}
		}
		return err
	}
	return nil
}

func run(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.AtmsScale || cfg.AtmsSizes != "" {
		return runAtmsScale(ctx, cfg)
	}
	if cfg.Op == "" {
		cfg.Op = asmx.OpReturnAtmSearchByCoordinates
	}
	if cfg.Connections == 0 {
		cfg.Connections = 32
	}
	op, b, err := cfg.operation()
	if err != nil {
		return nil, err
	}
	var sizes []int
	if cfg.ReplayScale || cfg.ReplaySizes != "" {
		cfg.ReplayScale = true
		if sizes, err = parseSizes("--replay-sizes", cfg.ReplaySizes, DefaultReplaySizes, "counts of interactions", maxReplaySize); err != nil {
			return nil, err
		}
	}
	switch {
	case health.IsServiceURL(cfg.Target):
		return nil, usagef("--target is the service's URL; want the base URL it is served under, such as http://127.0.0.1:8080 (bench calls /service/service.asmx under it)")
	case cfg.Target != "" && (cfg.Fixtures != "" || cfg.ATMs > 0):
		return nil, usagef("--target measures a running service; --fixtures and --atms are for the in-process mock")
	case cfg.Fixtures != "" && cfg.ATMs > 0:
		return nil, usagef("give --fixtures or --atms, not both")
	case cfg.ReplayScale && (cfg.Target != "" || len(cfg.Replay) > 0 || cfg.WireMock || cfg.CopyCeiling):
		return nil, usagef("--replay-scale records its own cassettes for in-process mocks; not with --target, --replay, --wiremock or --copy-ceiling")
	case cfg.Shape != nil && cfg.Target != "":
		return nil, usagef("--shape is for the in-process mock, not with --target")
	case len(cfg.Replay) > 0 && cfg.Target != "":
		return nil, usagef("--replay is for the in-process mock, not with --target")
	case cfg.CPUProfile != "" && cfg.Target != "":
		return nil, usagef("--cpuprofile profiles this process; --target's server and its ceiling run in processes of their own")
	case cfg.CopyCeiling && cfg.Target != "":
		return nil, usagef("--copy-ceiling splits the in-process mock's gap; not with --target, whose ceiling runs in a process of its own")
	}
	if err := cfg.checkLoad(); err != nil {
		return nil, err
	}
	if err := cfg.checkWireMockJar(); err != nil {
		return nil, err
	}
	ds, dsName, err := cfg.dataset(ctx)
	if err != nil {
		return nil, err
	}
	params, err := callParams(op, defaultParams(ds, benchCity, benchProvince, cfg.Key), cfg.Params)
	if err != nil {
		return nil, err
	}
	report := newReport(cfg, op, b, params, dsName)

	// The servers under test: a running one, the mock in this process (on
	// the data set or replaying cassettes), or mocks replaying cassettes of
	// each size. want is the answer they give, which the ceiling repeats.
	var cleanup cleanups
	defer cleanup.run()
	req := callRequest(b, cfg.Namespace, op.Name, params)
	var targets []*target
	var want *loadgen.Response
	if cfg.ReplayScale {
		targets, want, err = replayScale(ctx, cfg, ds, op, b, req, sizes, report, &cleanup)
	} else {
		targets, want, err = mockTargets(ctx, cfg, ds, req, report, &cleanup)
	}
	if err != nil {
		return nil, err
	}
	report.ResponseBytes = len(want.Body)
	report.Locations = countLocations(want.Body)

	ceiling, err := startCeiling(ctx, cfg, want, &cleanup)
	if err != nil {
		return nil, err
	}
	report.CeilingProcess = cfg.Target != ""
	targets = append(targets, &target{name: "ceiling", url: ceiling, warmup: cfg.Warmup})
	if cfg.CopyCeiling {
		cc, err := startServer(loadgen.NewCopyingCeiling(want, max(1, report.Locations)))
		if err != nil {
			return nil, fmt.Errorf("bench: copying ceiling: %w", err)
		}
		cleanup.add(func() { _ = cc.Close() })
		targets = append(targets, &target{name: "copy-ceiling", url: cc.URL, warmup: cfg.Warmup})
	}
	if cfg.WireMock {
		wm, err := startWireMock(ctx, cfg.WireMockJar, cfg.Log)
		if err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		cleanup.add(wm.stop)
		if err := wm.stub(ctx, b, cfg.Namespace, op.Name, params, at(req, wm.url), want); err != nil {
			return nil, fmt.Errorf("bench: %w", err)
		}
		targets = append(targets, &target{name: "wiremock", url: wm.url, warmup: max(cfg.Warmup, 5*time.Second)})
	}

	fmt.Fprintf(cfg.Log, "atmkit bench: %s %s, %d-byte response; %s, %s per server in %s\n",
		b, op.Name, len(want.Body), plural(cfg.Connections, "connection"), cfg.Duration, plural(cfg.Rounds, "round"))
	interrupted := measure(ctx, cfg, req, want.Body, targets)
	if interrupted != nil && !errors.Is(interrupted, ErrInterrupted) {
		return nil, interrupted
	}

	rps := map[string]float64{}
	for _, t := range targets {
		r := t.total()
		rps[t.name] = r.RPS()
		report.Results = append(report.Results, resultOf(t, r))
	}
	if cfg.ReplayScale {
		// Every larger cassette against the smallest (issue 6: at least
		// 0.8), and each against the ceiling, for information.
		small := targets[0].name
		for _, t := range targets[:len(sizes)] {
			if t.name != small && rps[small] > 0 {
				report.Ratios[t.name+"/"+small] = ratio(rps[t.name], rps[small])
				report.Targets[t.name+"/"+small] = replayScaleTarget
			}
			if rps["ceiling"] > 0 {
				report.Ratios[t.name+"/ceiling"] = ratio(rps[t.name], rps["ceiling"])
			}
		}
	} else {
		name := targets[0].name
		if rps["ceiling"] > 0 {
			report.Ratios[name+"/ceiling"] = ratio(rps[name], rps["ceiling"])
			if name != "replay" {
				report.Targets[name+"/ceiling"] = ceilingTarget(op.Name)
			}
		}
		if cfg.CopyCeiling && rps["copy-ceiling"] > 0 {
			// For telling the copy from the rest of the mock's work: no target.
			report.Ratios[name+"/copy-ceiling"] = ratio(rps[name], rps["copy-ceiling"])
			if rps["ceiling"] > 0 {
				report.Ratios["copy-ceiling/ceiling"] = ratio(rps["copy-ceiling"], rps["ceiling"])
			}
		}
		if cfg.WireMock && rps["wiremock"] > 0 {
			report.Ratios[name+"/wiremock"] = ratio(rps[name], rps["wiremock"])
			report.Targets[name+"/wiremock"] = wireMockTarget
		}
	}
	report.addRoundRatios(targets)
	return report.interrupted(interrupted)
}

// ErrInterrupted is the error of a run whose context ended (Ctrl-C) before
// it measured every round: Run returns it with the report of what was
// measured until then, marked Interrupted. Its exit code is 2: the run was
// not measured whole, so no check passed or failed.
var ErrInterrupted error = interruptedError{}

type interruptedError struct{}

func (interruptedError) Error() string {
	return "bench: interrupted: the figures above are of the rounds until then, not of the whole run"
}

func (interruptedError) ExitCode() int { return 2 }

// ErrNotMeasured is the error of a run whose context ended (Ctrl-C) before
// it started measuring: while it loaded or generated the data set, started
// the servers, recorded cassettes or warmed the servers up. There is no
// report; its exit code is 2, as ErrInterrupted's.
var ErrNotMeasured error = notMeasuredError{}

type notMeasuredError struct{}

func (notMeasuredError) Error() string {
	return "bench: interrupted before measuring started; nothing was measured"
}

func (notMeasuredError) ExitCode() int { return 2 }

// interrupted marks r as the partial report of an interrupted run when err
// (measure's) is ErrInterrupted, and returns r and err.
func (r *Report) interrupted(err error) (*Report, error) {
	r.Interrupted = err != nil
	return r, err
}

// operation looks up Op and Binding.
func (cfg *Config) operation() (*asmx.Operation, asmx.Binding, error) {
	op, ok := asmx.LookupOperation(cfg.Op)
	if !ok {
		return nil, 0, usagef("unknown operation %q", cfg.Op)
	}
	b, err := asmx.ParseBinding(cfg.Binding)
	if err != nil {
		return nil, 0, usagef("%v", err)
	}
	if b == asmx.JSON && !op.JSON {
		return nil, 0, usagef("%s has no JSON binding", op.Name)
	}
	return op, b, nil
}

// checkLoad checks the load's settings and sets the default of Rounds.
func (cfg *Config) checkLoad() error {
	switch {
	case cfg.Connections < 1 || cfg.Connections > MaxConnections:
		return usagef("-c: want 1 to %d", MaxConnections)
	case cfg.Duration <= 0:
		return usagef("-d must be positive")
	case cfg.Rounds < 0:
		return usagef("--rounds must not be negative")
	}
	if cfg.Rounds == 0 {
		cfg.Rounds = min(max(int(cfg.Duration/time.Second), 2), 30)
	}
	// A round of 0 ns would be the load generator's default, 10 s; an odd
	// count's last round is two halves of one.
	if cfg.Duration/time.Duration(cfg.Rounds) < time.Millisecond {
		return usagef("-d %s over %s is under a millisecond a round; give a longer -d or fewer --rounds", cfg.Duration, plural(cfg.Rounds, "round"))
	}
	return nil
}

// dataset loads or makes the data set of the in-process mock; with a
// Target it is the embedded set, used only to pick default parameters.
func (cfg *Config) dataset(ctx context.Context) (*fixtures.Dataset, string, error) {
	switch {
	case cfg.Fixtures != "":
		start := time.Now()
		if fixtures.IsLarge(cfg.Fixtures) { // seconds of silence otherwise
			fmt.Fprintf(cfg.Log, "atmkit bench: loading %s\n", cfg.Fixtures)
		}
		ds, err := fixtures.LoadContext(ctx, cfg.Fixtures)
		if ctx.Err() != nil {
			return nil, "", ctx.Err()
		}
		if err != nil { // files that cannot be read, or problems in them: a wrong setting
			problem := strings.TrimPrefix(err.Error(), "load fixtures "+cfg.Fixtures+": ")
			if _, p, ok := cli.ServeProblem(err, cfg.Fixtures); ok { // as serve says it: several point to fixtures check
				problem = p
			}
			return nil, "", &UsageError{Msg: fmt.Sprintf("--fixtures %s: %s", cfg.Fixtures, problem), Flag: "fixtures", Problem: problem}
		}
		fmt.Fprintf(cfg.Log, "atmkit bench: loaded %s in %s\n", atmsText(len(ds.ATMs)), time.Since(start).Round(time.Millisecond))
		return ds, fmt.Sprintf("%s (%s)", cfg.Fixtures, atmsText(len(ds.ATMs))), nil
	case cfg.ATMs > 0:
		start, opts := time.Now(), fixtures.GenerateOptions{Seed: cfg.Seed, ATMs: cfg.ATMs}
		if cfg.ATMs >= fixtures.LargeATMs {
			fmt.Fprintf(cfg.Log, "atmkit bench: generating %d ATMs (seed %d)\n", cfg.ATMs, cfg.Seed)
		}
		if cfg.ATMs >= progressATMs {
			opts.Progress = (&banner.Counter{W: cfg.Log, Cmd: "bench", Verb: "generated", Tail: "ATMs", Start: start}).Step
		}
		ds, err := fixtures.GenerateContext(ctx, opts)
		if err != nil {
			return nil, "", fmt.Errorf("bench: generate %d ATMs: %w", cfg.ATMs, err)
		}
		if cfg.ATMs >= fixtures.LargeATMs {
			fmt.Fprintf(cfg.Log, "atmkit bench: generated %d ATMs in %s\n", cfg.ATMs, time.Since(start).Round(time.Millisecond))
		}
		return ds, fmt.Sprintf("generated, seed %d (%s)", cfg.Seed, atmsText(len(ds.ATMs))), nil
	}
	ds, err := fixtures.Default()
	if err != nil {
		return nil, "", fmt.Errorf("bench: embedded data set: %w", err)
	}
	if cfg.Target != "" {
		return ds, "the target's", nil
	}
	return ds, fmt.Sprintf("embedded (%s)", atmsText(len(ds.ATMs))), nil
}

// progressATMs is the size from which generating a data set reports its
// progress at each tenth, as atmkit fixtures generate does.
const progressATMs = 100_000

// MaxConnections is the most connections (-c) a run opens: each is a
// goroutine with a latency histogram of its own, and an open file on both
// ends of the loopback (twice for the in-process servers), so a mistyped
// -c of millions would exhaust memory and files before measuring anything.
const MaxConnections = 10000

// cleanups holds what a run closes when it ends: servers, indexes, the
// temporary directories of its cassettes and data sets. run calls them
// last first, so servers close before their files go.
type cleanups []func()

func (c *cleanups) add(fn func()) { *c = append(*c, fn) }

func (c *cleanups) run() {
	for i := len(*c) - 1; i >= 0; i-- {
		(*c)[i]()
	}
	*c = nil
}

// mockTargets starts the in-process mock (on the data set, or replaying
// the Replay cassettes), or takes the Target service, and fetches the
// answer to req from it.
func mockTargets(ctx context.Context, cfg Config, ds *fixtures.Dataset, req loadgen.Request, report *Report, cleanup *cleanups) ([]*target, *loadgen.Response, error) {
	name, base := "target", strings.TrimRight(cfg.Target, "/")
	start, large := time.Now(), false // large: a mock on a large data set, which takes a while to start
	if base == "" {
		name = "mock"
		opts := []mockserver.Option{mockserver.WithDataset(ds), mockserver.WithNamespace(cfg.Namespace), mockserver.WithShape(cfg.Shape)}
		if len(cfg.Replay) > 0 {
			name = "replay"
			idx, err := cassettes.LoadIndexContext(ctx, cfg.Replay)
			if errors.Is(err, cassettes.ErrCassetteNotFound) || errors.Is(err, cassettes.ErrInvalidCassette) ||
				errors.Is(err, cassettes.ErrUnsupportedFormat) || errors.Is(err, cassettes.ErrCassetteBusy) {
				return nil, nil, usagef("--replay %s: %v", strings.Join(cfg.Replay, " "), err) // a wrong setting, as serve --replay says
			}
			if err != nil {
				return nil, nil, fmt.Errorf("bench: %w", err)
			}
			cleanup.add(func() { _ = idx.Close() })
			st := idx.Stats()
			if st.Calls == 0 {
				return nil, nil, fmt.Errorf("bench: --replay %s: no call of the service in %d interactions of %d files",
					strings.Join(cfg.Replay, " "), st.Interactions, st.Files)
			}
			report.Cassettes = append(report.Cassettes, Cassette{Server: name, Path: strings.Join(cfg.Replay, " "),
				Files: st.Files, Interactions: st.Interactions, Calls: st.Calls})
			opts = append(opts, mockserver.WithReplay(idx, mockserver.MissFault))
		}
		if large = len(ds.ATMs) >= fixtures.LargeATMs && len(cfg.Replay) == 0; large { // seconds of silence otherwise
			fmt.Fprintf(cfg.Log, "atmkit bench: starting the mock on %d ATMs (indexing them)\n", len(ds.ATMs))
		}
		mock, err := startMock(ctx, opts...)
		var fit *shape.FitError
		if errors.As(err, &fit) { // --shape cannot hold the data set's values: a wrong setting
			return nil, nil, usagef("--shape %s", strings.TrimPrefix(fit.Error(), "the shape "))
		}
		if err != nil {
			return nil, nil, err
		}
		cleanup.add(func() { _ = mock.Close() })
		base = mock.URL
	}
	want, err := fetch(ctx, name, at(req, base))
	if err == nil && large { // a million ATMs: tens of seconds on a loaded machine
		fmt.Fprintf(cfg.Log, "atmkit bench: the mock is ready after %s\n", time.Since(start).Round(time.Millisecond))
	}
	if err == nil && cfg.Target != "" {
		b, _ := asmx.ParseBinding(cfg.Binding) // checked by operation
		err = checkAnswer(name, b, want)
	}
	var refused *refusedError
	switch {
	case err != nil && cfg.Target != "" && ctx.Err() == nil:
		return nil, nil, &TargetError{Err: err}
	case errors.As(err, &refused): // the in-process mock refuses what --op, --binding and --param ask: a wrong setting
		return nil, nil, &UsageError{Msg: strings.TrimPrefix(refused.Error(), "bench: ")}
	case err != nil:
		return nil, nil, err
	}
	return []*target{{name: name, url: base, warmup: cfg.Warmup}}, want, nil
}

// startCeiling serves the ceiling, want, and returns its base URL: in this
// process, or, for a --target run, in a process of its own (see
// ceilingchild.go).
func startCeiling(ctx context.Context, cfg Config, want *loadgen.Response, cleanup *cleanups) (string, error) {
	if cfg.Target == "" {
		ceiling, err := startServer(loadgen.NewCeiling(want))
		if err != nil {
			return "", fmt.Errorf("bench: ceiling: %w", err)
		}
		cleanup.add(func() { _ = ceiling.Close() })
		return ceiling.URL, nil
	}
	exe := cfg.Exe
	if exe == "" {
		var err error
		if exe, err = os.Executable(); err != nil {
			return "", fmt.Errorf("bench: find atmkit for the ceiling process: %w", err)
		}
	}
	child, err := startCeilingChild(ctx, exe, want)
	if err != nil {
		return "", err
	}
	cleanup.add(child.stop)
	return child.url, nil
}

// startServer serves h on a loopback port with the one server lifecycle
// (the timeouts atmkit serve has).
func startServer(h http.Handler) (*serve.Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen on loopback: %w", err)
	}
	return serve.Start(ln, h, serve.Options{Grace: 5 * time.Second}), nil
}

// startMock serves a mock server with opts on a loopback port; ctx's end
// stops the indexing of its data set.
func startMock(ctx context.Context, opts ...mockserver.Option) (*serve.Server, error) {
	srv, err := mockserver.NewContext(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	s, err := startServer(srv)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	return s, nil
}

// fetch sends req once to the server called name and returns its answer,
// which must be a 200.
func fetch(ctx context.Context, name string, req loadgen.Request) (*loadgen.Response, error) {
	fctx, cancel := context.WithTimeout(ctx, firstAnswerTimeout)
	defer cancel()
	resp, err := loadgen.Fetch(fctx, req)
	if err != nil && ctx.Err() == nil && errors.Is(fctx.Err(), context.DeadlineExceeded) {
		// A process stopped (SIGSTOP, a debugger) or a server that takes
		// connections and never answers: a wait of its own, no Go error text.
		return nil, fmt.Errorf("bench: the %s took the connection but sent no answer, or not all of it, to the first call within %s; is it stopped or stuck?", name, firstAnswerTimeout)
	}
	var x *tlsconf.Error
	if errors.As(err, &x) && x.Kind == tlsconf.PlainToTLS {
		return nil, fmt.Errorf("bench: %s: %s; the load generator speaks plain HTTP only: measure the service where it serves plain HTTP (atmkit serve without TLS)", name, x.Problem)
	}
	if err != nil && name == "target" && neterr.Refused(err) { // as conform says it
		return nil, fmt.Errorf("bench: target: connection refused at %s: nothing listens at that address and port. Is the service running, and are --target's host and port right?", redact.URL(req.URL))
	}
	if err != nil {
		return nil, fmt.Errorf("bench: %s: %w", name, err)
	}
	if resp.Status != 200 {
		text := answerText(resp.Header.Get("Content-Type"), resp.Body)
		switch {
		case strings.HasPrefix(name, "replay"):
			return nil, &refusedError{fmt.Sprintf("bench: the %s answered %d, not 200 (the call measured, set by --op, --binding and --param, must be recorded in the cassette): %s", name, resp.Status, text)}
		case name == "mock":
			return nil, &refusedError{fmt.Sprintf("bench: the mock refuses the call measured (set by --op, --binding and --param) with %d: %s", resp.Status, text)}
		case name == "target" && !faultRE.Match(resp.Body) &&
			(resp.Status == http.StatusNotFound || resp.Status == http.StatusMethodNotAllowed || resp.Status == http.StatusNotImplemented):
			// No service answered: a web server's page, or a path it does not serve.
			return nil, fmt.Errorf("bench: the %s answered %d, not 200: %s; is --target the base URL atmkit serve answers at (it calls /service/service.asmx under it)?", name, resp.Status, text)
		}
		return nil, fmt.Errorf("bench: the %s answered %d, not 200: %s", name, resp.Status, text)
	}
	return resp, nil
}

// firstAnswerTimeout bounds the wait for a server's whole answer to the
// first call, which bench makes before measuring (a variable for the
// tests): loadgen.Fetch's own bound, which a 1 GB ReturnAllAtms of a
// million ATMs stays well within.
var firstAnswerTimeout = time.Minute

// refusedError is the answer of an in-process mock, not a 200, to the call
// measured, before any measuring: the call's settings are wrong (a
// --param the service cannot read, a call the --replay cassette lacks).
type refusedError struct{ msg string }

func (e *refusedError) Error() string { return e.msg }

// checkAnswer checks that want, the 200 answer of the server called name
// to the call in binding b, is an answer of the service: XML (no HTML
// page) for SOAP, GET and POST, a JSON object or array for JSON. A web server on the port that is no ATM
// service (a page, an API of its own) would otherwise be measured, and
// its figures set against a ceiling serving the same wrong bytes.
func checkAnswer(name string, b asmx.Binding, want *loadgen.Response) error {
	ct := strings.ToLower(want.Header.Get("Content-Type"))
	kind := "xml"
	if b == asmx.JSON {
		kind = "json"
	}
	body := bytes.TrimSpace(want.Body)
	bad := strings.Contains(ct, "html") || len(body) == 0 || body[0] != '<'
	if kind == "json" {
		bad = len(body) == 0 || (body[0] != '{' && body[0] != '[')
	}
	if bad {
		return fmt.Errorf("bench: the %s answered 200 with %q, %.80q, not the %s answer of the ATM service: is --target the service's base URL?",
			name, want.Header.Get("Content-Type"), want.Body, strings.ToUpper(kind))
	}
	return nil
}

// ceilingTarget is the target ratio to the ceiling: 0.9 for every call,
// the README's goal of serving within a whisker of a bare server writing
// the same bytes.
func ceilingTarget(string) float64 { return 0.9 }

// wireMockTarget is how many times WireMock's throughput the mock serves at
// least.
const wireMockTarget = 5

var errNoJar = errors.New("WireMock standalone jar not found")

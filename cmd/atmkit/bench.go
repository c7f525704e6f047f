package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"html"
	"io"
	"maps"
	"net"
	"net/url"
	"os"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/loadgen"
	"github.com/atmkit/atmkit/mockserver"
)

const benchExamples = `  atmkit bench                                  # SOAP 1.1 coordinate search, 32 connections, 10 s
  atmkit bench --binding json -d 5s
  atmkit bench --op ReturnAllAtms --binding get --json
  atmkit bench --atms 1000000 --op ReturnAtmSearchByCoordinates --param bytRadius=10
  atmkit bench --wiremock                        # also WireMock (npm install wiremock; Java 17)
  atmkit bench --replay-scale                    # replay from cassettes of 10 and 10,000 interactions
  atmkit bench --replay-sizes 10,1000,10000 --binding get -d 5s
  atmkit bench --replay testdata/atm.yaml --op ReturnProvinces   # a mock replaying your cassette
  atmkit bench --atms-scale                      # 10 nearest to a Halifax postal code at 10,000 and 1,000,000 ATMs; peak RSS
  atmkit bench --atms-sizes 10000,100000,1000000 --op ReturnAtmSearchByCoordinates --param bytRadius=5
  atmkit bench --target http://127.0.0.1:8080 --key demo-key
  atmkit bench --shape shape.yaml --binding get  # the mock serving a deployment's shape`

// benchFlags are the flags of atmkit bench.
type benchFlags struct {
	op, binding string
	conns       int
	duration    time.Duration
	warmup      time.Duration
	rounds      int
	target      string
	json        bool
	fixtures    string
	atms        int
	seed        uint64
	key         string
	namespace   string
	params      listFlag
	wiremock    bool
	wiremockJar string
	cpuProfile  string

	replayScale bool     // --replay-scale: mocks replaying cassettes of each size
	replaySizes string   // --replay-sizes: "10,10000"
	replay      listFlag // --replay: the mock replays these cassettes
	shape       string   // --shape: the in-process mock's result shape

	atmsScale bool   // --atms-scale: atmkit serve processes on generated data sets of each size (bench_scale.go)
	atmsSizes string // --atms-sizes: "10000,1000000"
}

func (f *benchFlags) register(m *Main) *flag.FlagSet {
	fs := newFlagSet("bench", "bench [flags]", benchExamples, m.Stderr)
	fs.StringVar(&f.op, "op", asmx.OpReturnAtmSearchByCoordinates, "operation to call")
	fs.StringVar(&f.binding, "binding", "soap11", "binding: soap11, soap12, get, post or json")
	fs.IntVar(&f.conns, "c", 32, "keep-alive connections, one request in flight on each")
	fs.DurationVar(&f.duration, "d", 10*time.Second, "measured time per server (split over the rounds)")
	fs.DurationVar(&f.warmup, "warmup", time.Second, "unmeasured warm-up per server before the rounds (WireMock gets at least 5s)")
	fs.IntVar(&f.rounds, "rounds", 0, "rounds alternating the servers' order, so drift of a noisy machine hits all alike (0: one per second of -d, 2 to 30)")
	fs.StringVar(&f.target, "target", "", "base URL of a running service to measure instead of an in-process mock")
	fs.BoolVar(&f.json, "json", false, "print the results as JSON")
	fs.StringVar(&f.fixtures, "fixtures", "", "data set directory for the in-process mock (default: the embedded data set)")
	fs.IntVar(&f.atms, "atms", 0, "generate a data set of this many ATMs for the in-process mock")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the data set generated with --atms")
	fs.StringVar(&f.key, "key", "bench-key", "service key sent")
	fs.StringVar(&f.namespace, "namespace", asmx.DefaultNamespace, "service namespace")
	fs.Var(&f.params, "param", "parameter of the call as name=value, overriding the default (repeatable)")
	fs.BoolVar(&f.wiremock, "wiremock", false, "also measure WireMock serving the same answer from a stub")
	fs.StringVar(&f.wiremockJar, "wiremock-jar", "", "WireMock standalone jar (default: found in the npm package wiremock)")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the measured rounds (server and generator alike) to this file")
	fs.BoolVar(&f.replayScale, "replay-scale", false, "measure mocks replaying cassettes of --replay-sizes interactions, recorded into a temporary directory, each holding the call among distinct others; each larger against the smallest (target 0.8)")
	fs.StringVar(&f.replaySizes, "replay-sizes", "", "interactions per cassette of --replay-scale, comma-separated, the smallest the reference (default "+defaultReplaySizes+"; implies --replay-scale)")
	fs.StringVar(&f.shape, "shape", "", "result shape file of the in-process mock (default: the built-in shape)")
	fs.Var(&f.replay, "replay", "the in-process mock replays this cassette file or directory (repeatable; the call measured must be recorded in it)")
	fs.BoolVar(&f.atmsScale, "atms-scale", false, "measure atmkit serve processes serving generated data sets (--seed) of --atms-sizes ATMs side by side, each larger against the smallest (target 0.8), with each process's peak resident memory (VmHWM; target < 1 GB up to 1,000,000 ATMs); unless given, --op is "+asmx.OpReturnAtmSearchByAddressWithMaximum+" (intMaximumAtms 10, 25 km, a Halifax postal code every set knows) and -c is 16")
	fs.StringVar(&f.atmsSizes, "atms-sizes", "", "ATMs per data set of --atms-scale, comma-separated, the smallest the reference (default "+defaultAtmsSizes+"; implies --atms-scale)")
	return fs
}

// benchTarget is one server measured.
type benchTarget struct {
	name   string
	url    string // base URL
	warmup time.Duration
	runs   []loadgen.Result

	length int64 // the length of its answer, when its own (--atms-scale)
	// Of an atmkit serve process (--atms-scale): its process id, its data
	// set's size and its resident memory once it listened.
	pid       int
	atms      int
	rssLoaded int64
}

// benchReport is the outcome of atmkit bench; it is also the --json output.
type benchReport struct {
	Operation     string             `json:"operation"`
	Binding       string             `json:"binding"`
	Params        map[string]string  `json:"params"`
	Locations     int                `json:"locations,omitempty"`
	ResponseBytes int                `json:"responseBytes"`
	DataSet       string             `json:"dataSet"`
	Connections   int                `json:"connections"`
	DurationSec   float64            `json:"durationSeconds"`
	Rounds        int                `json:"rounds"`
	CPUs          int                `json:"cpus"`
	Cassettes     []benchCassette    `json:"cassettes,omitempty"`
	Results       []benchResult      `json:"results"`
	Ratios        map[string]float64 `json:"ratios"`
	Targets       map[string]float64 `json:"targets"`
	// PeakRSSTargets bounds servers' peak resident memory, in MB
	// (--atms-scale).
	PeakRSSTargets map[string]float64 `json:"peakRssTargetsMB,omitempty"`
}

// benchCassette describes cassettes a mock replays: one recorded by
// --replay-scale, or those given with --replay.
type benchCassette struct {
	Server       string  `json:"server"`
	Path         string  `json:"path,omitempty"` // --replay only: the temporary ones are gone
	Files        int     `json:"files"`
	Interactions int     `json:"interactions"`
	Calls        int     `json:"calls"`
	Bytes        int64   `json:"bytes,omitempty"`
	RecordSec    float64 `json:"recordSeconds,omitempty"`
}

// benchResult is one server's combined figures.
type benchResult struct {
	Server     string  `json:"server"`
	URL        string  `json:"url"`
	Requests   int64   `json:"requests"`
	Errors     int64   `json:"errors"`
	RPS        float64 `json:"requestsPerSecond"`
	P50ms      float64 `json:"p50Ms"`
	P99ms      float64 `json:"p99Ms"`
	MaxMs      float64 `json:"maxMs"`
	FirstError string  `json:"firstError,omitempty"`

	// Of an atmkit serve process (--atms-scale): its data set's size, its
	// answer's length, and its resident memory in MB (10^6 bytes) once it
	// listened, at the end, and at its peak (VmHWM).
	ATMs          int     `json:"atms,omitempty"`
	ResponseBytes int     `json:"responseBytes,omitempty"`
	RSSLoadedMB   float64 `json:"rssLoadedMB,omitempty"`
	RSSMB         float64 `json:"rssMB,omitempty"`
	PeakRSSMB     float64 `json:"peakRssMB,omitempty"`
}

func (m *Main) runBench(ctx context.Context, args []string) error {
	var f benchFlags
	fs := f.register(m)
	if err := m.parseFlags(fs, args, nil); err != nil {
		return err
	}
	m.hideKeys(f.key)
	if fs.NArg() > 0 {
		return cmdUsagef("bench", "unexpected argument %q", fs.Arg(0))
	}
	if _, ok := asmx.LookupOperation(f.op); !ok {
		return m.badSetting(fs, "op", "not an operation of the service")
	}
	if _, err := asmx.ParseBinding(f.binding); err != nil {
		return m.badSetting(fs, "binding", "want soap11, soap12, get, post or json")
	}
	if err := m.firstBad(fs,
		check{"c", when(f.conns < 1, "must be at least 1")},
		check{"d", when(f.duration <= 0, "must be positive")},
		check{"warmup", when(f.warmup < 0, "must not be negative")},
		check{"rounds", when(f.rounds < 0 || f.rounds > 1000, "want 0 (one per second of -d) to 1000")},
		check{"target", when(f.target != "", checkHTTPURL(f.target))},
		check{"fixtures", when(f.fixtures != "", checkDir(f.fixtures))},
		check{"atms", when(f.atms < 0 || f.atms > fixtures.MaxATMs, fmt.Sprintf("want 0 (no generated data set) to %d", fixtures.MaxATMs))},
		check{"seed", when(f.seed == 0, "must not be 0")},
		check{"key", when(strings.TrimSpace(f.key) == "", "an empty key")},
		check{"namespace", when(mockserver.CheckNamespace(f.namespace) != nil,
			"not an absolute URI; want one such as http://tempuri.org/atmService or urn:example:atm")},
	); err != nil {
		return err
	}
	if f.atmsScale || f.atmsSizes != "" {
		return m.runBenchAtmsScale(ctx, fs, f)
	}
	op, b, err := f.operation()
	if err != nil {
		return err
	}
	var sizes []int
	if f.replayScale || f.replaySizes != "" {
		f.replayScale = true
		if sizes, err = parseReplaySizes(f.replaySizes); err != nil {
			return err
		}
	}
	switch {
	case f.target != "" && (f.fixtures != "" || f.atms > 0):
		return cmdUsagef("bench", "--target measures a running service; --fixtures and --atms are for the in-process mock")
	case f.fixtures != "" && f.atms > 0:
		return cmdUsagef("bench", "give --fixtures or --atms, not both")
	case f.replayScale && (f.target != "" || len(f.replay) > 0 || f.wiremock):
		return cmdUsagef("bench", "--replay-scale records its own cassettes for in-process mocks; not with --target, --replay or --wiremock")
	case f.shape != "" && f.target != "":
		return cmdUsagef("bench", "--shape is for the in-process mock, not with --target")
	case len(f.replay) > 0 && f.target != "":
		return cmdUsagef("bench", "--replay is for the in-process mock, not with --target")
	}
	if err := f.checkLoad(); err != nil {
		return err
	}
	ds, dsName, err := m.benchDataset(f)
	if err != nil {
		return err
	}
	params, err := benchParams(op, benchDefaults(ds, benchCity, benchProvince, f.key), f.params)
	if err != nil {
		return err
	}
	report := newBenchReport(f, op, b, params, dsName)

	// The servers under test: a running one, the mock in this process (on
	// the data set or replaying cassettes), or mocks replaying cassettes of
	// each size. want is the answer they give, which the ceiling repeats.
	var cleanup benchCleanup
	defer cleanup.run()
	req := benchRequest(b, f.namespace, op.Name, params)
	var targets []*benchTarget
	var want *loadgen.Response
	if f.replayScale {
		targets, want, err = m.benchReplayScale(ctx, f, ds, op, b, req, sizes, report, &cleanup)
	} else {
		targets, want, err = m.benchMock(ctx, f, ds, req, report, &cleanup)
	}
	if err != nil {
		return err
	}
	report.ResponseBytes = len(want.Body)
	report.Locations = countLocations(want.Body)

	ceiling, err := loadgen.StartServer(loadgen.NewCeiling(want))
	if err != nil {
		return fmt.Errorf("bench: ceiling: %w", err)
	}
	cleanup.add(func() { _ = ceiling.Close() })
	targets = append(targets, &benchTarget{name: "ceiling", url: ceiling.URL, warmup: f.warmup})
	if f.wiremock {
		wm, err := startWireMock(ctx, f.wiremockJar, m.Stderr)
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		cleanup.add(wm.stop)
		if err := wm.stub(ctx, b, f.namespace, op.Name, params, at(req, wm.url), want); err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		targets = append(targets, &benchTarget{name: "wiremock", url: wm.url, warmup: max(f.warmup, 5*time.Second)})
	}

	if !f.json {
		fmt.Fprintf(m.Stderr, "atmkit bench: %s %s, %d-byte response; %d connections, %s per server in %d rounds\n",
			b, op.Name, len(want.Body), f.conns, f.duration, f.rounds)
	}
	if err := m.benchMeasure(ctx, f, req, int64(len(want.Body)), targets); err != nil {
		return err
	}

	rps := map[string]float64{}
	for _, t := range targets {
		r := loadgen.Combine(t.runs...)
		rps[t.name] = r.RPS()
		report.Results = append(report.Results, resultOf(t, r))
	}
	if f.replayScale {
		// Every larger cassette against the smallest (issue 6: at least
		// 0.8), and each against the ceiling, for information.
		small := targets[0].name
		for _, t := range targets[:len(sizes)] {
			if t.name != small && rps[small] > 0 {
				report.Ratios[t.name+"/"+small] = round3(rps[t.name] / rps[small])
				report.Targets[t.name+"/"+small] = replayScaleTarget
			}
			if rps["ceiling"] > 0 {
				report.Ratios[t.name+"/ceiling"] = round3(rps[t.name] / rps["ceiling"])
			}
		}
	} else {
		name := targets[0].name
		if rps["ceiling"] > 0 {
			report.Ratios[name+"/ceiling"] = round3(rps[name] / rps["ceiling"])
			if name != "replay" {
				report.Targets[name+"/ceiling"] = ceilingTarget(op.Name)
			}
		}
		if f.wiremock && rps["wiremock"] > 0 {
			report.Ratios[name+"/wiremock"] = round3(rps[name] / rps["wiremock"])
			report.Targets[name+"/wiremock"] = 4
		}
	}
	return m.writeBenchReport(f, report)
}

// operation looks up --op and --binding.
func (f *benchFlags) operation() (*asmx.Operation, asmx.Binding, error) {
	op, ok := asmx.LookupOperation(f.op)
	if !ok {
		return nil, 0, cmdUsagef("bench", "unknown operation %q", f.op)
	}
	b, err := asmx.ParseBinding(f.binding)
	if err != nil {
		return nil, 0, cmdUsagef("bench", "%v", err)
	}
	if b == asmx.JSON && !op.JSON {
		return nil, 0, cmdUsagef("bench", "%s has no JSON binding", op.Name)
	}
	return op, b, nil
}

// checkLoad checks the load's flags and sets the default of --rounds.
func (f *benchFlags) checkLoad() error {
	switch {
	case f.conns < 1:
		return cmdUsagef("bench", "-c must be at least 1")
	case f.duration <= 0:
		return cmdUsagef("bench", "-d must be positive")
	case f.rounds < 0:
		return cmdUsagef("bench", "--rounds must not be negative")
	}
	if f.rounds == 0 {
		f.rounds = min(max(int(f.duration/time.Second), 2), 30)
	}
	return nil
}

// newBenchReport starts the report of a run: what is measured, and how.
func newBenchReport(f benchFlags, op *asmx.Operation, b asmx.Binding, params [][2]string, dataSet string) *benchReport {
	report := &benchReport{Operation: op.Name, Binding: b.String(), Params: map[string]string{},
		DataSet: dataSet, Connections: f.conns, DurationSec: f.duration.Seconds(), Rounds: f.rounds,
		CPUs: runtime.NumCPU(), Ratios: map[string]float64{}, Targets: map[string]float64{},
		PeakRSSTargets: map[string]float64{}}
	for _, p := range params {
		if p[0] != asmx.ParamKey {
			report.Params[p[0]] = p[1]
		}
	}
	return report
}

// resultOf is a target's combined figures r as reported.
func resultOf(t *benchTarget, r loadgen.Result) benchResult {
	return benchResult{
		Server: t.name, URL: t.url, Requests: r.Requests, Errors: r.Errors, RPS: round1(r.RPS()),
		P50ms: ms(r.P50()), P99ms: ms(r.P99()), MaxMs: ms(r.Latency.Max()), FirstError: r.FirstError,
	}
}

// writeBenchReport prints the report (as JSON with --json), and fails if a
// server answered with errors.
func (m *Main) writeBenchReport(f benchFlags, report *benchReport) error {
	if f.json {
		enc := json.NewEncoder(m.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			return fmt.Errorf("bench: write report: %w", err)
		}
	} else {
		report.print(m.Stdout)
	}
	for _, r := range report.Results {
		if r.Errors > 0 {
			return fmt.Errorf("bench: %s: %d errors, the first: %s", r.Server, r.Errors, r.FirstError)
		}
	}
	return nil
}

// benchCleanup holds what atmkit bench closes when it ends: servers,
// indexes, the temporary directory of its cassettes. run calls them last
// first, so servers close before their files go.
type benchCleanup []func()

func (c *benchCleanup) add(fn func()) { *c = append(*c, fn) }

func (c *benchCleanup) run() {
	for i := len(*c) - 1; i >= 0; i-- {
		(*c)[i]()
	}
	*c = nil
}

// benchMock starts the in-process mock (on the data set, or replaying
// --replay cassettes), or takes the --target service, and fetches the
// answer to req from it.
func (m *Main) benchMock(ctx context.Context, f benchFlags, ds *fixtures.Dataset, req loadgen.Request, report *benchReport, cleanup *benchCleanup) ([]*benchTarget, *loadgen.Response, error) {
	name, base := "target", strings.TrimRight(f.target, "/")
	if base == "" {
		name = "mock"
		sh, err := loadShape("bench", f.shape)
		if err != nil {
			return nil, nil, err
		}
		opts := []mockserver.Option{mockserver.WithDataset(ds), mockserver.WithNamespace(f.namespace), mockserver.WithShape(sh)}
		if len(f.replay) > 0 {
			name = "replay"
			idx, err := cassettes.LoadIndex(f.replay)
			if err != nil {
				return nil, nil, fmt.Errorf("bench: %w", err)
			}
			cleanup.add(func() { _ = idx.Close() })
			st := idx.Stats()
			if st.Calls == 0 {
				return nil, nil, fmt.Errorf("bench: --replay %s: no call of the service in %d interactions of %d files",
					strings.Join(f.replay, " "), st.Interactions, st.Files)
			}
			report.Cassettes = append(report.Cassettes, benchCassette{Server: name, Path: strings.Join(f.replay, " "),
				Files: st.Files, Interactions: st.Interactions, Calls: st.Calls})
			opts = append(opts, mockserver.WithReplay(idx, mockserver.MissFault))
		}
		mock, err := startBenchMock(opts...)
		if err != nil {
			return nil, nil, err
		}
		cleanup.add(func() { _ = mock.Close() })
		base = mock.URL
	}
	want, err := benchFetch(ctx, name, at(req, base))
	if err != nil {
		return nil, nil, err
	}
	return []*benchTarget{{name: name, url: base, warmup: f.warmup}}, want, nil
}

// startBenchMock serves a mock server with opts on a loopback port, with the
// timeouts atmkit serve has.
func startBenchMock(opts ...mockserver.Option) (*loadgen.Server, error) {
	srv, err := mockserver.New(opts...)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("bench: listen on loopback: %w", err)
	}
	return loadgen.Serve(ln, mockserver.NewHTTPServer(srv)), nil
}

// benchFetch sends req once to the server called name and returns its
// answer, which must be a 200.
func benchFetch(ctx context.Context, name string, req loadgen.Request) (*loadgen.Response, error) {
	resp, err := loadgen.Fetch(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("bench: %s: %w", name, err)
	}
	if resp.Status != 200 {
		hint := ""
		if strings.HasPrefix(name, "replay") {
			hint = " (the call measured, set by --op, --binding and --param, must be recorded in the cassette)"
		}
		return nil, fmt.Errorf("bench: the %s answered %d, not 200%s: %.600s", name, resp.Status, hint, faultText(resp.Body))
	}
	return resp, nil
}

var faultRE = regexp.MustCompile(`(?s)<faultstring>(.*?)</faultstring>|<soap:Text[^>]*>(.*?)</soap:Text>`)

// faultText is the message of a SOAP fault, or else the whole answer.
func faultText(body []byte) string {
	m := faultRE.FindSubmatch(body)
	if m == nil {
		return string(body)
	}
	return html.UnescapeString(string(m[1]) + string(m[2]))
}

// benchMeasure warms up every target, then measures them in f.rounds
// alternating rounds, appending each round's result to the target's runs.
func (m *Main) benchMeasure(ctx context.Context, f benchFlags, req loadgen.Request, length int64, targets []*benchTarget) error {
	opts := loadgen.Options{Connections: f.conns, ExpectLength: length}
	for _, t := range targets {
		if t.warmup <= 0 {
			continue
		}
		o := opts
		o.Duration = t.warmup
		if t.length > 0 {
			o.ExpectLength = t.length
		}
		if _, err := loadgen.Run(ctx, at(req, t.url), o); err != nil {
			return fmt.Errorf("bench: warm up %s: %w", t.name, err)
		}
	}
	if f.cpuProfile != "" {
		stop, err := startCPUProfile(f.cpuProfile)
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		defer stop()
	}
	opts.Duration = f.duration / time.Duration(f.rounds)
	opts.Warmup = 100 * time.Millisecond // opens the connections, uncounted
	for round := 0; round < f.rounds; round++ {
		for i := range targets {
			// Rotate the order each round so no server always goes first.
			t := targets[(i+round)%len(targets)]
			o := opts
			if t.length > 0 {
				o.ExpectLength = t.length
			}
			res, err := loadgen.Run(ctx, at(req, t.url), o)
			if err != nil {
				return fmt.Errorf("bench: %s: %w", t.name, err)
			}
			t.runs = append(t.runs, res)
			if ctx.Err() != nil {
				return fmt.Errorf("bench: %w", ctx.Err())
			}
		}
	}
	return nil
}

// startCPUProfile writes a CPU profile to file until stop is called.
func startCPUProfile(file string) (stop func(), err error) {
	out, err := os.Create(file)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		out.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		_ = out.Close()
	}, nil
}

// ceilingTarget is issue 6's target ratio to the ceiling: fixed answers are
// encoded once, so they must come closer.
func ceilingTarget(op string) float64 {
	switch op {
	case asmx.OpReturnAllAtms, asmx.OpReturnInstitutions, asmx.OpReturnProvinces:
		return 0.9
	}
	return 0.7
}

func (r *benchReport) print(w io.Writer) {
	fmt.Fprintf(w, "%s %s", r.Binding, r.Operation)
	if len(r.Params) > 0 {
		var ps []string
		for _, p := range sortedKeys(r.Params) {
			ps = append(ps, p+"="+r.Params[p])
		}
		fmt.Fprintf(w, " (%s)", strings.Join(ps, " "))
	}
	fmt.Fprintf(w, "\nresponse: %d bytes", r.ResponseBytes)
	if r.Locations > 0 {
		fmt.Fprintf(w, ", %d locations", r.Locations)
	}
	fmt.Fprintf(w, "; data set: %s\n", r.DataSet)
	for _, c := range r.Cassettes {
		fmt.Fprintf(w, "cassette of %s: %d interactions, %d calls", c.Server, c.Interactions, c.Calls)
		if c.Path != "" {
			files := "files"
			if c.Files == 1 {
				files = "file"
			}
			fmt.Fprintf(w, " in %d %s (%s)", c.Files, files, c.Path)
		}
		if c.Bytes > 0 {
			fmt.Fprintf(w, ", %s", formatBytes(c.Bytes))
		}
		if c.RecordSec > 0 {
			fmt.Fprintf(w, ", recorded in %.1fs", c.RecordSec)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "load: %d connections, %gs per server in %d rounds, generator in-process on %d CPUs\n\n",
		r.Connections, r.DurationSec, r.Rounds, r.CPUs)
	width := len("ceiling  ")
	for _, res := range r.Results {
		width = max(width, len(res.Server))
	}
	rss := slices.ContainsFunc(r.Results, func(res benchResult) bool { return res.PeakRSSMB > 0 })
	fmt.Fprintf(w, "%-*s %11s %9s %9s %10s %7s", width, "server", "req/s", "p50 ms", "p99 ms", "requests", "errors")
	if rss {
		fmt.Fprintf(w, " %14s %12s", "RSS loaded MB", "peak RSS MB")
	}
	fmt.Fprintln(w)
	for _, res := range r.Results {
		fmt.Fprintf(w, "%-*s %11.1f %9.3f %9.3f %10d %7d", width, res.Server, res.RPS, res.P50ms, res.P99ms, res.Requests, res.Errors)
		if rss {
			fmt.Fprintf(w, " %14.1f %12.1f", res.RSSLoadedMB, res.PeakRSSMB)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	width = 17
	for k := range r.Ratios {
		width = max(width, len(k)+1)
	}
	for _, k := range sortedKeys(r.Ratios) {
		v := r.Ratios[k]
		t, ok := r.Targets[k]
		if !ok {
			fmt.Fprintf(w, "%-*s %6.3f   (no target)\n", width, k+":", v)
			continue
		}
		verdict := "meets"
		if v < t {
			verdict = "BELOW"
		}
		fmt.Fprintf(w, "%-*s %6.3f   (target >= %g: %s)\n", width, k+":", v, t, verdict)
	}
	for _, res := range r.Results {
		t, ok := r.PeakRSSTargets[res.Server]
		if !ok {
			continue
		}
		verdict := "meets"
		if res.PeakRSSMB >= t {
			verdict = "ABOVE"
		}
		fmt.Fprintf(w, "%-*s %6.0f MB (target < %g MB: %s)\n", width, "peak RSS "+res.Server+":", res.PeakRSSMB, t, verdict)
	}
}

// formatBytes writes a size in B, KB or MB (powers of 1000, one decimal
// above a kilobyte).
func formatBytes(n int64) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1_000:
		return fmt.Sprintf("%.1f KB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d B", n)
}

// benchDataset loads or makes the data set of the in-process mock; with
// --target it is the embedded set, used only to pick default parameters.
func (m *Main) benchDataset(f benchFlags) (*fixtures.Dataset, string, error) {
	switch {
	case f.fixtures != "":
		start := time.Now()
		ds, err := fixtures.Load(f.fixtures)
		if err != nil {
			return nil, "", fmt.Errorf("bench: %w", err)
		}
		if !f.json {
			fmt.Fprintf(m.Stderr, "atmkit bench: loaded %d ATMs in %s\n", len(ds.ATMs), time.Since(start).Round(time.Millisecond))
		}
		return ds, fmt.Sprintf("%s (%d ATMs)", f.fixtures, len(ds.ATMs)), nil
	case f.atms > 0:
		ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: f.seed, ATMs: f.atms})
		if err != nil {
			return nil, "", fmt.Errorf("bench: generate %d ATMs: %w", f.atms, err)
		}
		return ds, fmt.Sprintf("generated, seed %d (%d ATMs)", f.seed, len(ds.ATMs)), nil
	}
	ds, err := fixtures.Default()
	if err != nil {
		return nil, "", fmt.Errorf("bench: embedded data set: %w", err)
	}
	if f.target != "" {
		return ds, "the target's", nil
	}
	return ds, fmt.Sprintf("embedded (%d ATMs)", len(ds.ATMs)), nil
}

// benchCity is the city the default searches look around: Sydney, NS has
// tens of locations within 25 km in the embedded data set (69).
const benchCity, benchProvince = "Sydney", "NS"

// benchDefaults are the default values of every parameter: searches around
// the city named (or ds's first), 25 km, the first institution.
func benchDefaults(ds *fixtures.Dataset, cityName, province, key string) map[string]string {
	city := ds.Cities[0]
	for _, c := range ds.Cities {
		if c.Name == cityName && c.Province == province {
			city = c
			break
		}
	}
	inst := 0
	if len(ds.Institutions) > 0 {
		inst = ds.Institutions[0].ID
	}
	return map[string]string{
		asmx.ParamKey:           key,
		asmx.ParamAddress:       "",
		asmx.ParamCity:          city.Name,
		asmx.ParamProvince:      city.Province,
		asmx.ParamPostalCode:    "",
		asmx.ParamRadius:        "25",
		asmx.ParamLatitude:      asmx.FormatDouble(city.Latitude),
		asmx.ParamLongitude:     asmx.FormatDouble(city.Longitude),
		asmx.ParamMaximumAtms:   "20",
		asmx.ParamInstitutionID: strconv.Itoa(inst),
		asmx.ParamCityID:        strconv.Itoa(city.ID),
	}
}

// benchParams returns the call's parameters in the document's order: the
// defaults, then the --param overrides.
func benchParams(op *asmx.Operation, defaults map[string]string, overrides []string) ([][2]string, error) {
	for _, o := range overrides {
		name, value, ok := strings.Cut(o, "=")
		if !ok {
			return nil, cmdUsagef("bench", "--param %q: want name=value", o)
		}
		if _, ok := op.Param(name); !ok {
			return nil, cmdUsagef("bench", "--param %q: %s takes no parameter %s", o, op.Name, name)
		}
		defaults[name] = value
	}
	out := make([][2]string, len(op.Params))
	for i, p := range op.Params {
		out[i] = [2]string{p.Name, defaults[p.Name]}
	}
	return out, nil
}

// benchRequest builds the request of one call in binding b, as a client
// generated from the WSDL would send it; its URL is a path, to be prefixed
// with the base URL.
func benchRequest(b asmx.Binding, ns, op string, params [][2]string) loadgen.Request {
	query := func() string {
		var sb strings.Builder
		for i, p := range params {
			if i > 0 {
				sb.WriteByte('&')
			}
			sb.WriteString(url.QueryEscape(p[0]))
			sb.WriteByte('=')
			sb.WriteString(url.QueryEscape(p[1]))
		}
		return sb.String()
	}
	switch b {
	case asmx.HTTPGet:
		return loadgen.Request{Method: "GET", URL: asmx.ServicePath + "/" + op + "?" + query()}
	case asmx.HTTPPost:
		return loadgen.Request{Method: "POST", URL: asmx.ServicePath + "/" + op,
			Header: map[string][]string{"Content-Type": {asmx.ContentTypeForm}}, Body: []byte(query())}
	case asmx.JSON:
		return loadgen.Request{Method: "GET", URL: asmx.JSONPath + "/" + op + "?" + query(),
			Header: map[string][]string{"Content-Type": {"application/json"}}}
	}
	env, ct := asmx.NamespaceSOAP11, asmx.ContentTypeSOAP11
	if b == asmx.SOAP12 {
		env, ct = asmx.NamespaceSOAP12, asmx.ContentTypeSOAP12
	}
	body := []byte(`<?xml version="1.0" encoding="utf-8"?>` + "\n" +
		`<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="` + env + `">` + "\n" +
		"  <soap:Body>\n    <" + op + ` xmlns="`)
	body = asmx.AppendEscaped(body, ns)
	body = append(body, "\">\n"...)
	for _, p := range params {
		body = append(body, "      <"+p[0]+">"...)
		body = asmx.AppendEscaped(body, p[1])
		body = append(body, "</"+p[0]+">\n"...)
	}
	body = append(body, "    </"+op+">\n  </soap:Body>\n</soap:Envelope>"...)
	h := map[string][]string{"Content-Type": {ct}}
	if b == asmx.SOAP11 {
		h["SOAPAction"] = []string{`"` + asmx.SOAPAction(ns, op) + `"`}
	}
	return loadgen.Request{Method: "POST", URL: asmx.ServicePath, Header: h, Body: body}
}

// at returns req, whose URL is a path, sent to the server at base.
func at(req loadgen.Request, base string) loadgen.Request {
	req.URL = base + req.URL
	return req
}

var countRE = regexp.MustCompile(`<count>(\d+)</count>|"count":(\d+)`)

// countLocations reads the location count of a result, 0 if it has none.
func countLocations(body []byte) int {
	m := countRE.FindSubmatch(body)
	if m == nil {
		return 0
	}
	s := m[1]
	if len(s) == 0 {
		s = m[2]
	}
	n, _ := strconv.Atoi(string(s))
	return n
}

func ms(d time.Duration) float64 { return round3(float64(d) / float64(time.Millisecond)) }

func round1(v float64) float64 { return float64(int64(v*10+0.5)) / 10 }

func round3(v float64) float64 { return float64(int64(v*1000+0.5)) / 1000 }

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

var errNoJar = errors.New("WireMock standalone jar not found")

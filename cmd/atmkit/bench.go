package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/bench"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/wire"
)

// benchFlags are the flags of atmkit bench: a bench.Config, and how it is
// printed.
type benchFlags struct {
	cfg   bench.Config
	json  bool
	shape string // --shape: loaded into cfg.Shape
}

func (f *benchFlags) register(m *Main) *flag.FlagSet {
	c := &f.cfg
	fs := cli.NewFlagSet("bench", "bench [flags]", helpText("bench"), m.Stderr)
	fs.StringVar(&c.Op, "op", asmx.OpReturnAtmSearchByCoordinates, "operation to call")
	fs.StringVar(&c.Binding, "binding", "soap11", "binding: soap11, soap12, get, post or json")
	fs.IntVar(&c.Connections, "c", 32, fmt.Sprintf("keep-alive connections, one request in flight on each (1 to %d)", bench.MaxConnections))
	fs.DurationVar(&c.Duration, "d", 10*time.Second, "measured time per server (split over the rounds)")
	fs.DurationVar(&c.Warmup, "warmup", time.Second, "unmeasured warm-up per server before the rounds, and up to 100ms of it at the start of each round; 0: none (WireMock gets at least 5s)")
	fs.IntVar(&c.Rounds, "rounds", 0, "rounds alternating the servers' order, so drift of a noisy machine hits all alike, up to 1000 (0: one per second of -d, from 2 to 30)")
	fs.StringVar(&c.Target, "target", "", "base URL of a running service to measure instead of an in-process mock (atmkit serve, the image; the ceiling then runs in a process of its own too); a user:password@ in it is sent as HTTP Basic authentication")
	fs.BoolVar(&f.json, "json", false, "print the results as JSON on stdout, alone (progress stays on stderr)")
	fs.StringVar(&c.Fixtures, "fixtures", "", "data set `directory` for the in-process mock (default: the embedded data set)")
	fs.IntVar(&c.ATMs, "atms", 0, fmt.Sprintf("generate a data set of this many ATMs (1 to %d) for the in-process mock", fixtures.MaxATMs))
	fs.Uint64Var(&c.Seed, "seed", 1, "seed of the data set generated with --atms")
	fs.StringVar(&c.Key, "key", "bench-key", "service key sent")
	fs.StringVar(&c.Namespace, "namespace", asmx.DefaultNamespace, "service namespace")
	fs.Var((*cli.List)(&c.Params), "param", "parameter of the call as name=value, overriding the default (repeatable)")
	fs.BoolVar(&c.WireMock, "wiremock", false, "also measure WireMock serving the same answer from a stub (run in a temporary directory it removes)")
	fs.BoolVar(&c.CopyCeiling, "copy-ceiling", false, "also measure a ceiling that copies the answer, from as many pieces as it has locations, into a buffer before writing it: the cost of assembling an answer alone (mock/copy-ceiling and copy-ceiling/ceiling, no target)")
	fs.StringVar(&c.WireMockJar, "wiremock-jar", "", "WireMock standalone `jar` (default: found in the npm package wiremock)")
	fs.StringVar(&c.CPUProfile, "cpuprofile", "", "write a CPU profile of the measured rounds (server and generator alike) to this `file`; one already there is replaced only when empty or a CPU profile")
	fs.BoolVar(&c.ReplayScale, "replay-scale", false, "measure mocks replaying cassettes of --replay-sizes interactions, recorded into a temporary directory, each holding the call among distinct others; each larger against the smallest (target 0.8)")
	fs.StringVar(&c.ReplaySizes, "replay-sizes", "", "interactions per cassette of --replay-scale, comma-separated, the smallest the reference (default "+bench.DefaultReplaySizes+"; implies --replay-scale)")
	fs.StringVar(&f.shape, "shape", "", "result shape `file` of the in-process mock (-: standard input; default: the built-in shape)")
	fs.Var((*cli.List)(&c.Replay), "replay", "the in-process mock replays the cassette file or directory at this `path` (repeatable; the call measured must be recorded in it)")
	fs.BoolVar(&c.AtmsScale, "atms-scale", false, "measure atmkit serve processes serving generated data sets (--seed) of --atms-sizes ATMs side by side, each larger against the smallest (target 0.8), with each process's peak resident memory (VmHWM; target < 1 GB up to 1,000,000 ATMs); unless given, --op is "+asmx.OpReturnAtmSearchByAddressWithMaximum+" (intMaximumAtms 10, 25 km, a Halifax postal code every set knows) and -c is 16")
	fs.StringVar(&c.AtmsSizes, "atms-sizes", "", "ATMs per data set of --atms-scale, comma-separated, the smallest the reference (default "+bench.DefaultAtmsSizes+"; implies --atms-scale)")
	return fs
}

func (m *Main) runBench(ctx context.Context, args []string) error {
	if bench.IsCeilingChild(m.Getenv) { // started by a --target run as its ceiling
		return bench.ServeCeilingChild(ctx, os.Stdin, m.Stderr)
	}
	var f benchFlags
	fs := f.register(m)
	if err := m.Parse(fs, args, nil); err != nil {
		return err
	}
	c := &f.cfg
	m.HideKeys(c.Key)
	if err := cli.NoArgs(fs); err != nil {
		return err
	}
	if err := m.BadBaseURL(fs, "target"); err != nil {
		return err
	}
	if _, ok := asmx.LookupOperation(c.Op); !ok {
		return m.BadSetting(fs, "op", "not an operation of the service")
	}
	if _, err := asmx.ParseBinding(c.Binding); err != nil {
		return m.BadSetting(fs, "binding", "want soap11, soap12, get, post or json")
	}
	if err := m.FirstBad(fs,
		cli.Bad("c", cli.When(c.Connections < 1, "must be at least 1")),
		cli.Bad("c", cli.When(c.Connections > bench.MaxConnections, fmt.Sprintf("at most %d", bench.MaxConnections))),
		cli.Bad("d", cli.When(c.Duration <= 0, "must be positive")),
		cli.Bad("warmup", cli.When(c.Warmup < 0, "must not be negative")),
		cli.Bad("rounds", cli.When(c.Rounds < 0 || c.Rounds > 1000, "want 0 (one per second of -d) to 1000")),
		cli.Bad("target", cli.When(c.Target != "", cli.CheckHTTPURL(c.Target))),
		cli.Bad("target", cli.When(strings.HasPrefix(strings.ToLower(c.Target), "https:"),
			"the load generator speaks plain HTTP only; measure the service over http (atmkit serve without TLS)")),
		cli.Bad("cpuprofile", cli.CheckProfileFile(c.CPUProfile)), // written in place, not atomically
		cli.Bad("fixtures", cli.When(c.Fixtures != "", cli.CheckDir(c.Fixtures))), cli.Bad("replay", cli.CheckNoStdin(c.Replay, cli.CassetteInput)),
		cli.Bad("atms", cli.When(c.ATMs < 0 || c.ATMs > fixtures.MaxATMs, fmt.Sprintf("want 0 (no generated data set) to %d", fixtures.MaxATMs))),
		cli.Bad("seed", cli.When(c.Seed == 0, "must not be 0")),
		cli.Bad("key", cli.When(strings.TrimSpace(c.Key) == "", "an empty key")),
		cli.Bad("namespace", cli.When(wire.CheckNamespace(c.Namespace) != nil,
			"not an absolute URI; want one such as http://tempuri.org/atmService or urn:example:atm")),
	); err != nil {
		return err
	}
	if !m.Given(fs, "op") { // --op and -c left to their defaults are the mode's own (--atms-scale has others)
		c.Op = ""
	}
	if !m.Given(fs, "c") {
		c.Connections = 0
	}
	var err error
	if c.Shape, err = m.LoadShape(fs, f.shape); err != nil {
		return err
	}
	c.Log = m.Stderr // progress, with --json too (stdout holds the report alone), as fixtures generate's
	report, err := bench.Run(ctx, *c)
	var ue *bench.UsageError
	if errors.As(err, &ue) && ue.Flag != "" { // a value of one setting, named as it was given
		return m.BadSetting(fs, ue.Flag, ue.Problem)
	} else if ue != nil {
		return cli.Usagef("bench", "%s", ue.Msg)
	}
	if report == nil { // a TargetError exits 2
		return err
	}
	if !f.json {
		report.Print(m.Stdout)
	} else if err := report.WriteJSON(m.Stdout); err != nil {
		return fmt.Errorf("bench: write report: %w", err)
	}
	if err != nil { // ErrInterrupted after its partial report, ErrUnanswered after its report: exit 2
		return err
	}
	return report.Err()
}

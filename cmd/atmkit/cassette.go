package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/mockserver"
)

const cassetteUsage = `Usage: atmkit cassette <subcommand> [flags] PATH...

Subcommands:
  list    print each interaction of cassettes: id, binding, operation, parameters, status
  scrub   replace service keys and credential headers in cassettes made elsewhere
  verify  check that a live deployment still answers as the cassettes say

PATH is a cassette file (.yaml may be left out) or a directory of them.
Run 'atmkit cassette <subcommand> --help' for its flags.`

const cassetteListExamples = `  atmkit cassette list testdata/atm.yaml
  atmkit cassette list testdata/cassettes/`

const cassetteScrubExamples = `  atmkit cassette scrub testdata/atm.yaml
  atmkit cassette scrub --check testdata/     # in CI: exit 1 if any key is left`

func (m *Main) runCassette(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprintln(m.Stderr, cassetteUsage)
		return cmdUsagef("cassette", "no subcommand given (list, scrub or verify)")
	}
	switch args[0] {
	case "list":
		return m.runCassetteList(ctx, args[1:])
	case "scrub":
		return m.runCassetteScrub(ctx, args[1:])
	case "verify":
		return m.runCassetteVerify(ctx, args[1:])
	case "help", "-h", "-help", "--help":
		fmt.Fprintln(m.Stdout, cassetteUsage)
		return flag.ErrHelp
	}
	return cmdUsagef("cassette", "unknown subcommand %q (want list, scrub or verify)", args[0])
}

func (m *Main) runCassetteList(_ context.Context, args []string) error {
	fs := newFlagSet("cassette list", "cassette list PATH...", cassetteListExamples, m.Stderr)
	if err := m.parseFlags(fs, args, nil); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return cmdUsagef("cassette list", "want at least one cassette file or directory")
	}
	files, err := cassettes.Files(fs.Args()...)
	if err != nil {
		return fmt.Errorf("cassette list: %w", err)
	}
	tw := tabwriter.NewWriter(m.Stdout, 0, 4, 2, ' ', 0)
	for _, f := range files {
		entries, err := cassettes.List(f)
		if err != nil {
			return fmt.Errorf("cassette list: %w", err)
		}
		fmt.Fprintf(tw, "# %s: %d interactions\n", f, len(entries))
		fmt.Fprintln(tw, "ID\tBINDING\tOPERATION\tPARAMETERS\tSTATUS")
		for _, e := range entries {
			b := e.Binding
			if b == "" {
				b = "-"
			}
			params := make([]string, len(e.Params))
			for i, p := range e.Params {
				params[i] = p[0] + "=" + quoteParam(p[1])
			}
			ps := strings.Join(params, " ")
			if ps == "" {
				ps = "-"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%d\n", e.ID, b, e.Operation, ps, e.Status)
		}
	}
	return tw.Flush()
}

func quoteParam(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\"") {
		return s
	}
	return fmt.Sprintf("%q", s)
}

// scrubFound is the error of scrub --check when keys are left: exit code 1.
type scrubFound struct{ n int }

func (e scrubFound) Error() string {
	return fmt.Sprintf("cassette scrub: %d values to redact (run without --check to redact them)", e.n)
}
func (scrubFound) ExitCode() int { return exitFailure }

func (m *Main) runCassetteScrub(_ context.Context, args []string) error {
	fs := newFlagSet("cassette scrub", "cassette scrub [--check] PATH...", cassetteScrubExamples, m.Stderr)
	check := fs.Bool("check", false, "only report; exit 1 if anything would be redacted")
	if err := m.parseFlags(fs, args, nil); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return cmdUsagef("cassette scrub", "want at least one cassette file or directory")
	}
	files, err := cassettes.Files(fs.Args()...)
	if err != nil {
		return fmt.Errorf("cassette scrub: %w", err)
	}
	total := 0
	for _, f := range files {
		var n, inter int
		if *check {
			n, inter, err = dryScrub(f)
		} else {
			n, inter, err = cassettes.ScrubFile(f)
		}
		if err != nil {
			return fmt.Errorf("cassette scrub: %w", err)
		}
		total += n
		switch {
		case n == 0:
			fmt.Fprintf(m.Stdout, "%s: clean, unchanged\n", f)
		case *check:
			fmt.Fprintf(m.Stdout, "%s: %d values to redact in %d interactions\n", f, n, inter)
		default:
			fmt.Fprintf(m.Stdout, "%s: replaced %d values in %d interactions with %s\n", f, n, inter, cassettes.Placeholder)
		}
	}
	if *check && total > 0 {
		return scrubFound{total}
	}
	return nil
}

// dryScrub counts what ScrubFile would replace without writing.
func dryScrub(path string) (n, interactions int, err error) {
	list, err := cassettes.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	for _, i := range list {
		if k := cassettes.Scrub(i); k > 0 {
			n += k
			interactions++
		}
	}
	return n, interactions, nil
}

// replaySetup is what atmkit serve's --replay, --on-miss and --upstream
// flags make: the mock server's option (nil without --replay), what it
// loaded and what a miss gets, for the banner, and close, which writes
// episodes recorded from the upstream.
type replaySetup struct {
	opt    mockserver.Option
	close  func() error
	stats  cassettes.IndexStats
	index  *cassettes.Index
	gaps   []cassettes.Gap // what the mock cannot replay in some binding
	onMiss string
}

// replayOption builds the mock server's replay option from atmkit serve's
// --replay, --on-miss and --upstream flags. Cassettes with no answer to
// replay are an error, unless misses are answered from the data set (a
// warning then) or forwarded to an upstream.
func (m *Main) replayOption(fs *flag.FlagSet, f *serveFlags) (*replaySetup, error) {
	none := &replaySetup{close: func() error { return nil }}
	paths, onMiss, upstream := f.replay, f.onMiss, f.upstream
	if len(paths) == 0 {
		switch {
		case onMiss != "fault" && onMiss != "":
			return nil, m.badSetting(fs, "on-miss", "needs --replay PATH")
		case upstream != "":
			return nil, m.badSetting(fs, "upstream", "needs --replay PATH and --on-miss upstream")
		case m.firstSet(fs) != "":
			return nil, m.badSetting(fs, m.firstSet(fs), "used only with --replay PATH --on-miss upstream")
		}
		return none, nil
	}
	var policy mockserver.MissPolicy
	var opts []cassettes.IndexOption
	load := paths
	switch onMiss {
	case "fault", "":
		policy = mockserver.MissFault
	case "fixtures":
		policy = mockserver.MissFixtures
	case "upstream":
		if upstream == "" {
			return nil, m.badSetting(fs, "on-miss", "needs --upstream URL")
		}
		if p := checkHTTPURL(upstream); p != "" {
			return nil, m.badSetting(fs, "upstream", p)
		}
		rt, err := m.reachTransport(fs, &f.reach, "upstream")
		if err != nil {
			return nil, err
		}
		target := recordTarget(paths[0])
		opts = append(opts, cassettes.WithUpstream(upstream, target, f.namespace),
			cassettes.WithUpstreamTransport(rt), cassettes.WithUpstreamTimeout(f.reach.timeout))
		if _, err := os.Stat(cassettes.FilePath(paths[0])); errors.Is(err, os.ErrNotExist) {
			if _, err := os.Stat(paths[0]); errors.Is(err, os.ErrNotExist) {
				load = paths[1:] // the first cassette is created by the upstream episodes
			}
		}
	default:
		return nil, m.badSetting(fs, "on-miss", "want fault, fixtures or upstream")
	}
	if upstream != "" && onMiss != "upstream" {
		return nil, m.badSetting(fs, "upstream", "used only with --on-miss upstream")
	}
	if n := m.firstSet(fs); n != "" && onMiss != "upstream" {
		return nil, m.badSetting(fs, n, "used only with --on-miss upstream")
	}
	idx, err := cassettes.LoadIndex(load, opts...)
	if errors.Is(err, cassettes.ErrCassetteNotFound) {
		return nil, m.badSetting(fs, "replay", err.Error())
	}
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	st := idx.Stats()
	if st.Answers == 0 {
		what := fmt.Sprintf("no answers to replay (%d cassette files, %d interactions, %d calls of an operation)", st.Files, st.Interactions, st.Calls)
		if st.Files == 0 {
			what = "no cassette files (*.yaml) to replay"
		}
		switch onMiss {
		case "fixtures":
			fmt.Fprintf(m.Stderr, "atmkit: WARNING: --replay %s: %s; every call is answered from the data set\n", strings.Join(paths, ", "), what)
		case "upstream":
			// The upstream's answers fill the cassette.
		default:
			_ = idx.Close()
			return nil, m.badSetting(fs, "replay", what+"; record some with atmkit record, or answer misses with --on-miss fixtures")
		}
	}
	for _, e := range st.Empty {
		fmt.Fprintf(m.Stderr, "atmkit: WARNING: cassette %s holds no interactions\n", e)
	}
	return &replaySetup{opt: mockserver.WithReplay(idx, policy), close: idx.Close, stats: st, index: idx,
		onMiss: missText(onMiss, upstream, recordTarget(paths[0]))}, nil
}

// recordTarget is the cassette new upstream episodes go to: the first
// --replay file, or upstream.yaml in the first --replay directory.
func recordTarget(first string) string {
	if st, err := os.Stat(first); err == nil && st.IsDir() {
		return filepath.Join(first, "upstream.yaml")
	}
	return cassettes.FilePath(first)
}

// missText says what a call with no recording gets.
func missText(onMiss, upstream, record string) string {
	switch onMiss {
	case "fixtures":
		return "answered from the data set"
	case "upstream":
		return "forwarded to " + redact.URL(upstream) + " and recorded into " + record
	}
	return "a fault naming the nearest recording"
}

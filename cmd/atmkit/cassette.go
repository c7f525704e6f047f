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
	"github.com/atmkit/atmkit/mockserver"
)

const cassetteUsage = `Usage: atmkit cassette <subcommand> [flags] PATH...

Subcommands:
  list    print each interaction of cassettes: id, binding, operation, parameters, status
  scrub   replace service keys and credential headers in cassettes made elsewhere

PATH is a cassette file (.yaml may be left out) or a directory of them.
Run 'atmkit cassette <subcommand> --help' for its flags.`

const cassetteListExamples = `  atmkit cassette list testdata/atm.yaml
  atmkit cassette list testdata/cassettes/`

const cassetteScrubExamples = `  atmkit cassette scrub testdata/atm.yaml
  atmkit cassette scrub --check testdata/     # in CI: exit 1 if any key is left`

func (m *Main) runCassette(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprintln(m.Stderr, cassetteUsage)
		return usagef("cassette: no subcommand given (list or scrub)")
	}
	switch args[0] {
	case "list":
		return m.runCassetteList(ctx, args[1:])
	case "scrub":
		return m.runCassetteScrub(ctx, args[1:])
	case "help", "-h", "-help", "--help":
		fmt.Fprintln(m.Stdout, cassetteUsage)
		return flag.ErrHelp
	}
	return usagef("cassette: unknown subcommand %q (want list or scrub)", args[0])
}

func (m *Main) runCassetteList(_ context.Context, args []string) error {
	fs := newFlagSet("cassette list", "cassette list PATH...", cassetteListExamples, m.Stderr)
	if err := m.parseFlags(fs, args, nil); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return usagef("cassette list: want at least one cassette file or directory")
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
		return usagef("cassette scrub: want at least one cassette file or directory")
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

// replayOption builds the mock server's replay option from atmkit serve's
// --replay, --on-miss and --upstream flags. close writes episodes recorded
// from the upstream.
func (m *Main) replayOption(paths []string, onMiss, upstream, namespace string) (opt mockserver.Option, close func() error, err error) {
	if len(paths) == 0 {
		if onMiss != "fault" && onMiss != "" || upstream != "" {
			return nil, nil, usagef("serve: --on-miss and --upstream need --replay PATH")
		}
		return nil, func() error { return nil }, nil
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
			return nil, nil, usagef("serve: --on-miss upstream needs --upstream URL")
		}
		target := recordTarget(paths[0])
		opts = append(opts, cassettes.WithUpstream(upstream, target, namespace))
		if _, err := os.Stat(cassettes.FilePath(paths[0])); errors.Is(err, os.ErrNotExist) {
			if _, err := os.Stat(paths[0]); errors.Is(err, os.ErrNotExist) {
				load = paths[1:] // the first cassette is created by the upstream episodes
			}
		}
	default:
		return nil, nil, usagef("serve: --on-miss %q: want fault, fixtures or upstream", onMiss)
	}
	if upstream != "" && onMiss != "upstream" {
		return nil, nil, usagef("serve: --upstream is used only with --on-miss upstream")
	}
	idx, err := cassettes.LoadIndex(load, opts...)
	if err != nil {
		return nil, nil, fmt.Errorf("serve: %w", err)
	}
	st := idx.Stats()
	fmt.Fprintf(m.Stdout, "atmkit: replaying %d answers to %d calls from %d cassettes (%d interactions); on a miss: %s\n",
		st.Answers, st.Calls, st.Files, st.Interactions, missText(onMiss, upstream))
	for _, p := range st.Problems {
		fmt.Fprintf(m.Stderr, "atmkit: skipped %s\n", p)
	}
	return mockserver.WithReplay(idx, policy), idx.Close, nil
}

// recordTarget is the cassette new upstream episodes go to: the first
// --replay file, or upstream.yaml in the first --replay directory.
func recordTarget(first string) string {
	if st, err := os.Stat(first); err == nil && st.IsDir() {
		return filepath.Join(first, "upstream.yaml")
	}
	return cassettes.FilePath(first)
}

func missText(onMiss, upstream string) string {
	switch onMiss {
	case "fixtures":
		return "answer from the data set"
	case "upstream":
		return "forward to " + upstream + " and record"
	}
	return "fault naming the nearest recording"
}

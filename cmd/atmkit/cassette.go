package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
)

func (m *Main) runCassette(ctx context.Context, args []string) error {
	return m.Dispatch(ctx, "cassette", helpText("cassette"), args,
		cli.Sub{Name: "list", Run: m.runCassetteList},
		cli.Sub{Name: "scrub", Run: m.runCassetteScrub},
		cli.Sub{Name: "verify", Run: m.runCassetteVerify})
}

func (m *Main) runCassetteList(_ context.Context, args []string) error {
	fs := cli.NewFlagSet("cassette list", "cassette list PATH...", helpText("cassette-list"), m.Stderr)
	if err := m.Parse(fs, args, nil); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return cli.Usagef("cassette list", "want at least one cassette file or directory")
	}
	if err := writeList(m.Stdout, fs.Args()...); err != nil {
		return fmt.Errorf("cassette list: %w", err)
	}
	return nil
}

// writeList writes the interactions of the cassettes at paths as a table:
// per file a heading "# FILE: N interactions", then a row per interaction
// with its ID, binding ("-" for no call), operation, parameters
// (name=value, the key left out; a value quoted when it is empty or holds
// blanks or quotes) and status, followed by "[key rejection]" for a
// recorded key rejection, as verify words it.
func writeList(w io.Writer, paths ...string) error {
	files, err := cassettes.Files(paths...)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, f := range files {
		entries, err := cassettes.List(f)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "# %s: %s\n", f, plural(len(entries), "interaction"))
		fmt.Fprintln(tw, "ID\tBINDING\tOPERATION\tPARAMETERS\tSTATUS")
		for _, e := range entries {
			b, ps := cmp.Or(e.Binding, "-"), make([]string, len(e.Params))
			for i, p := range e.Params {
				ps[i] = p[0] + "=" + p[1]
				if p[1] == "" || strings.ContainsAny(p[1], " \t\"") {
					ps[i] = fmt.Sprintf("%s=%q", p[0], p[1])
				}
			}
			status := strconv.Itoa(e.Status)
			if e.KeyRejection {
				status += " [key rejection]"
			}
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", e.ID, b, e.Operation, cmp.Or(strings.Join(ps, " "), "-"), status)
		}
	}
	return tw.Flush()
}

func (m *Main) runCassetteScrub(_ context.Context, args []string) error {
	fs := cli.NewFlagSet("cassette scrub", "cassette scrub [--check] PATH...", helpText("cassette-scrub"), m.Stderr)
	check := fs.Bool("check", false, "only report; exit 1 if anything would be redacted")
	if err := m.Parse(fs, args, nil); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return cli.Usagef("cassette scrub", "want at least one cassette file or directory")
	}
	files, err := cassettes.Files(fs.Args()...)
	if err != nil {
		return fmt.Errorf("cassette scrub: %w", err)
	}
	total := 0
	for _, f := range files {
		n, inter, err := scrubCount(f, *check)
		if err != nil {
			return fmt.Errorf("cassette scrub: %w", err)
		}
		total += n
		switch {
		case n == 0:
			fmt.Fprintf(m.Stdout, "%s: clean, unchanged\n", f)
		case *check:
			fmt.Fprintf(m.Stdout, "%s: %s to redact in %s\n", f, plural(n, "value"), plural(inter, "interaction"))
		default:
			fmt.Fprintf(m.Stdout, "%s: replaced %s in %s with %s\n", f, plural(n, "value"), plural(inter, "interaction"), cassettes.Placeholder)
		}
	}
	if *check && total > 0 {
		return cli.Exitf(exitFailure, "cassette scrub: %s to redact (run without --check to redact them)", plural(total, "value"))
	}
	return nil
}

// scrubCount scrubs the cassette at path as cassettes.ScrubFile does, or
// with check only counts what it would replace, writing nothing.
func scrubCount(path string, check bool) (replaced, interactions int, err error) {
	if !check {
		return cassettes.ScrubFile(path)
	}
	list, err := cassettes.ReadFile(path)
	for _, i := range list {
		if n := cassettes.Scrub(i); n > 0 {
			replaced, interactions = replaced+n, interactions+1
		}
	}
	return replaced, interactions, err
}

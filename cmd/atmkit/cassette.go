package main

import (
	"context"
	"fmt"

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
	if err := cassettes.WriteList(m.Stdout, fs.Args()...); err != nil {
		return fmt.Errorf("cassette list: %w", err)
	}
	return nil
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
		var n, inter int
		if *check {
			n, inter, err = cassettes.CountScrub(f)
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
		return cli.Exitf(exitFailure, "cassette scrub: %d values to redact (run without --check to redact them)", total)
	}
	return nil
}

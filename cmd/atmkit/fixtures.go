package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/banner"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/mockserver"
)

// progressThreshold is the size from which generate reports progress.
const progressThreshold = 100_000

func (m *Main) runFixtures(ctx context.Context, args []string) error {
	return m.Dispatch(ctx, "fixtures", helpText("fixtures"), args,
		cli.Sub{Name: "generate", Run: m.runFixturesGenerate},
		cli.Sub{Name: "check", Run: m.runFixturesCheck})
}

func (m *Main) runFixturesGenerate(ctx context.Context, args []string) error {
	fs := cli.NewFlagSet("fixtures generate", "fixtures generate [--seed N] [--atms N] --out DIR", helpText("fixtures-generate"), m.Stderr)
	seed := fs.Uint64("seed", fixtures.DefaultSeed, "generator seed, not 0; the same seed and --atms give byte-identical files (the default makes the embedded data set)")
	atms := fs.Int("atms", fixtures.DefaultATMs, fmt.Sprintf("number of ATMs, 1 to %d", fixtures.MaxATMs))
	out := fs.String("out", "", "directory to write the data set to (created if needed); a file of the data set already there is replaced only when empty or that file of a data set")
	if err := m.ParseNoArgs(fs, args); err != nil {
		return err
	}
	if *out == "" {
		return cli.Usagef("fixtures generate", "--out DIR is required")
	}
	if err := m.FirstBad(fs,
		cli.Bad("out", cli.CheckNotDash(*out, "directory")), cli.Bad("out", cli.CheckMakeDir(*out)),
		cli.Bad("out", cli.CheckFixturesOut(*out)),
		cli.Bad("seed", cli.When(*seed == 0, "must not be 0")),
		cli.Bad("atms", cli.When(*atms < 1 || *atms > fixtures.MaxATMs, fmt.Sprintf("out of range [1, %d]", fixtures.MaxATMs))),
	); err != nil {
		return err
	}

	cli.SweepTemps(m.Stderr, "fixtures generate", *out, true) // a killed run's
	fmt.Fprintf(m.Stdout, "generating %s with seed %d\n", banner.Plural(*atms, "ATM"), *seed)
	start := time.Now()
	opts, sopts := fixtures.GenerateOptions{Seed: *seed, ATMs: *atms}, fixtures.SaveOptions{}
	if *atms >= progressThreshold {
		opts.Progress = (&banner.Counter{W: m.Stderr, Verb: "generated", Tail: "ATMs", Start: start}).Step
	}
	d, err := fixtures.GenerateContext(ctx, opts)
	if err == nil && *atms >= progressThreshold {
		fmt.Fprintf(m.Stderr, "atmkit: generated %d ATMs in %s; writing %s\n", *atms, time.Since(start).Round(time.Millisecond), *out)
		sopts.Progress = (&banner.Counter{W: m.Stderr, Verb: "wrote", Tail: "ATMs to " + filepath.Join(*out, fixtures.ATMsFile), Start: time.Now()}).Step
	}
	if err == nil {
		err = fixtures.SaveWith(ctx, *out, d, sopts) // stopped, it leaves the files as they were
	}
	if err != nil && ctx.Err() != nil { // exit 2, as interrupted runs of bench and conform
		return cli.Exitf(exitUsage, "fixtures generate: interrupted; nothing was written to %s", *out)
	}
	if err != nil {
		return cli.GenerateFailed(err, *out)
	}
	banner.FixturesSummary(m.Stdout, *out, d, m.Shell())
	fmt.Fprintf(m.Stdout, "done in %s\n", time.Since(start).Round(time.Millisecond))
	return nil
}

func (m *Main) runFixturesCheck(ctx context.Context, args []string) error {
	fs := cli.NewFlagSet("fixtures check", "fixtures check [--shape FILE] DIR", helpText("fixtures-check"), m.Stderr)
	shapeFile := fs.String("shape", "", "also check that the types of this result shape `file` (-: standard input) hold every value served from the data set (what serve --shape refuses at start)")
	if err := m.Parse(fs, args, nil); err != nil {
		return err
	}
	sh, err := m.LoadShape(fs, *shapeFile)
	if err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return cli.Usagef("fixtures check", "want one data set directory, got %d arguments", fs.NArg())
	}
	dir := fs.Arg(0)
	if p := cli.CheckDir(dir); p != "" {
		return cli.Usagef("fixtures check", "%s: %s", cli.When(dir == "", `""`)+dir, p)
	}
	cli.SweepTemps(m.Stderr, "fixtures check", dir, false) // a killed generate's: named only
	start := time.Now()
	if fixtures.IsLarge(dir) { // seconds of silence otherwise, as serve and bench say
		if st, err := os.Stat(filepath.Join(dir, fixtures.ATMsFile)); err == nil {
			fmt.Fprintf(m.Stderr, "atmkit fixtures check: reading %s (%s of %s)\n", dir, cli.Size(st.Size()), fixtures.ATMsFile)
		}
	}
	d, err := fixtures.LoadContext(ctx, dir)
	var verr *fixtures.ValidationError
	switch {
	case ctx.Err() != nil: // exit 2, as interrupted runs of bench and conform
		return cli.Exitf(exitUsage, "fixtures check: interrupted: %s was not checked whole", dir)
	case errors.As(err, &verr):
		for _, p := range verr.Problems {
			fmt.Fprintln(m.Stdout, p)
		}
		if more := verr.Total - len(verr.Problems); more > 0 {
			fmt.Fprintf(m.Stdout, "... and %d more problems not listed\n", more)
		}
		return cli.Exitf(exitFailure, "%s: %s", dir, banner.Plural(verr.Total, "problem"))
	case err != nil: // a file that could not be read: nothing was checked
		return cli.Exitf(exitUsage, "fixtures check: %s: %s", dir, cli.LoadProblem(err, dir))
	}
	fits := ""
	if sh != nil {
		if err := mockserver.CheckShapeData(sh, d); err != nil {
			fmt.Fprintln(m.Stdout, err)
			return cli.Exitf(exitFailure, "%s: does not fit --shape %s", dir, *shapeFile)
		}
		fits = ", every value fits --shape " + *shapeFile
	}
	fmt.Fprintf(m.Stdout, "%s: valid: %d provinces, %d institutions, %d cities, %s%s (checked in %s)\n",
		dir, len(d.Provinces), len(d.Institutions), len(d.Cities), banner.Plural(len(d.ATMs), "ATM"), fits, time.Since(start).Round(time.Millisecond))
	cli.NoATMsNote(m.Stderr, dir, len(d.ATMs))
	return nil
}

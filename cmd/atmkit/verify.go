package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cassettes/verify"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/banner"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/internal/redact"
)

// verifyFlags are the flags of atmkit cassette verify.
type verifyFlags struct {
	upstream    string
	key         string
	values      string
	junitReport string
	update      bool
	concurrency int
	rate        float64
	maxDiffs    int
	quiet       bool
	scrub       cli.List             // --scrub-header: more headers --update redacts
	encoding    cli.RecordedEncoding // --request-encoding: how the recorded parameters are shown
	reach       cli.Reach            // --ca-cert, --header, --timeout, …: how --upstream is reached (reach.go)
}

func (f *verifyFlags) register(m *Main) *flag.FlagSet {
	fs := cli.NewFlagSet("cassette verify", "cassette verify --upstream URL --key K [flags] PATH...", helpText("cassette-verify"), m.Stderr)
	fs.StringVar(&f.upstream, "upstream", "", "base URL of the live deployment to check, e.g. https://atm.example.org (required)")
	fs.StringVar(&f.key, "key", "", "a service key the deployment accepts, in place of the cassettes' scrubbed one (required when they hold calls)")
	fs.StringVar(&f.values, "values", "compare", "compare the values too (compare), or the structure only (ignore: data changes, shape should not)")
	fs.StringVar(&f.junitReport, "junit-report", "", "write a JUnit XML report, one test case per interaction, to this `file`; one already there is replaced only when empty or a JUnit XML report")
	fs.BoolVar(&f.update, "update", false, "rewrite the cassettes with the new answers of what drifted, after showing the differences")
	fs.IntVar(&f.concurrency, "concurrency", 1, "how many requests may be in flight at once")
	fs.Float64Var(&f.rate, "rate", 0, "at most this many requests a second (a `number`), evenly spaced (0: no limit)")
	fs.IntVar(&f.maxDiffs, "max-differences", verify.DefaultMaxDifferences, "value differences shown per interaction (all are counted)")
	fs.BoolVar(&f.quiet, "quiet", false, "print only the interactions that drifted, and the summary")
	fs.Var(&f.scrub, "scrub-header", "with --update, also write this header's values as REDACTED, and mask a plain --header of this name (User-Agent) as a secret (repeatable; names with key, token, secret, password, credential, signature, session or auth always are)")
	f.encoding.Register(fs, "; requests are sent again as recorded, byte for byte")
	f.reach.Register(fs, "the upstream", true)
	return fs
}

func (m *Main) runCassetteVerify(ctx context.Context, args []string) error {
	var f verifyFlags
	fs := f.register(m)
	if err := m.Parse(fs, args, nil); err != nil {
		return err
	}
	switch {
	case f.upstream == "":
		return cli.Usagef("cassette verify", "--upstream URL is required")
	case fs.NArg() == 0:
		return cli.Usagef("cassette verify", "want at least one cassette file or directory")
	}
	if err := m.FirstBad(fs,
		cli.Bad("upstream", cli.CheckHTTPURL(f.upstream)), cli.Bad("upstream", cli.CheckNotService(f.upstream)),
		cli.Bad("values", cli.When(f.values != "compare" && f.values != "ignore", "want compare or ignore")),
		cli.Bad("junit-report", cli.CheckNotCassette(f.junitReport, fs.Args())), cli.Bad("junit-report", cli.CheckJUnitReport(f.junitReport)),
		cli.Bad("scrub-header", m.CheckHeaderNames(f.scrub)),
		cli.Bad("concurrency", cli.When(f.concurrency < 1, "must be at least 1")),
		cli.Bad("rate", cli.When(f.rate < 0, "must not be negative (0: no limit)")),
		cli.Bad("max-differences", cli.When(f.maxDiffs < 1, "must be at least 1")),
		f.encoding.Check(),
	); err != nil {
		return err
	}
	secrets := f.reach.Secrets(f.scrub...) // not 'Accept: text/xml' (reach.go)
	m.HideKeys(append([]string{f.key}, secrets...)...)
	m.WarnKeySpaces(f.key)
	rt, err := m.Transport(fs, &f.reach, "upstream")
	if err != nil {
		return err
	}
	files, err := cli.CassetteFiles("cassette verify", fs.Args())
	if err != nil {
		return err
	}
	if f.update { // rewritten atomically
		if file, p := cli.CheckRewrite(files); p != "" {
			return cli.Usagef("cassette verify", "--update: %s: %s", file, p)
		}
	}
	opts := verify.Options{
		Upstream:        f.upstream,
		Key:             f.key,
		Secrets:         secrets,
		Transport:       rt,
		Timeout:         f.reach.Timeout,
		Concurrency:     f.concurrency,
		Rate:            f.rate,
		IgnoreValues:    f.values == "ignore",
		MaxDifferences:  f.maxDiffs,
		RequestEncoding: f.encoding.Encoding(),
	}
	p := &verify.Printer{W: m.Stdout, Quiet: f.quiet, Heading: "atmkit: verifying " + banner.VerifyHeading(opts, len(files))}
	opts.OnResult = p.Print
	report, err := verify.Run(ctx, files, opts)
	switch {
	case errors.Is(err, verify.ErrNoKey):
		return cli.Usagef("cassette verify", "--key (or ATMKIT_KEY) is required: %v", strings.TrimPrefix(err.Error(), verify.ErrNoKey.Error()+": "))
	case errors.Is(err, cassettes.ErrCassetteNotFound):
		return cli.Usagef("cassette verify", "%v", err)
	case report == nil && err != nil:
		return notChecked(redact.Text(err.Error(), f.key))
	}
	if f.junitReport != "" {
		if jerr := report.WriteJUnitFile(f.junitReport); jerr != nil {
			return notChecked(jerr.Error())
		}
	}
	if err != nil {
		msg := err.Error()
		if errors.Is(err, verify.ErrKeyRefused) {
			msg += ". Check --key (or ATMKIT_KEY): it must be a key this deployment accepts"
		}
		if n := report.Count(verify.ValuesDrifted) + report.Count(verify.StructureDrifted); n > 0 {
			msg += fmt.Sprintf(" (%d interactions drifted before the run stopped)", n)
		}
		return notChecked(redact.Text(msg, f.key))
	}
	p.PrintHeading()
	fmt.Fprintf(m.Stdout, "atmkit: %s\n", report.Summary())
	banner.VerifyNotUTF8(m.StderrUnlessGiven(fs, "request-encoding"), report.Results, p.Shows)
	drifted := report.Count(verify.ValuesDrifted) + report.Count(verify.StructureDrifted)
	if drifted == 0 {
		return nil
	}
	if f.update {
		updated, n, err := report.UpdateContext(ctx, f.scrub...)
		for _, u := range updated {
			fmt.Fprintf(m.Stdout, "atmkit: updated %s\n", u)
		}
		if err != nil && ctx.Err() != nil { // each cassette is rewritten whole or not at all
			return cli.Exitf(exitUsage, "cassette verify: --update interrupted; the cassettes not named as updated above are as they were")
		}
		if err != nil { // busy, changed since verified, not written: 1 is drift's
			return cli.Exitf(exitUsage, "cassette verify: %w", err)
		}
		fmt.Fprintf(m.Stdout, "atmkit: replaced %s with the deployment's, in %s\n", banner.Plural(n, "recorded answer"), banner.Plural(len(updated), "cassette"))
		return nil
	}
	return cli.Exitf(exitFailure, "cassette verify: %d of %d interactions drifted (see above); --update rewrites the cassettes with the new answers",
		drifted, len(report.Results))
}

// notChecked is the error of a run that could not check the deployment
// (unreachable, no answer within --timeout, TLS, a refused key, a cassette
// that cannot be read): exit 2, nothing was found out about drift.
func notChecked(msg string) error {
	return cli.Exitf(exitUsage, "cassette verify: could not check: %s", msg)
}

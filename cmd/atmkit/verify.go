package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/redact"
)

const cassetteVerifyExamples = `  atmkit cassette verify --upstream https://atm.example.org --key "$KEY" testdata/atm.yaml
  ATMKIT_KEY="$KEY" atmkit cassette verify --upstream https://atm.example.org --values ignore --junit-report verify.xml testdata/cassettes/
  atmkit cassette verify --upstream https://atm.example.org --key "$KEY" --concurrency 4 --rate 10 testdata/cassettes/
  atmkit cassette verify --upstream https://atm.example.org --key "$KEY" --update testdata/atm.yaml
  atmkit cassette verify --upstream https://atm.internal --key "$KEY" --ca-cert corp-ca.pem --header "X-Api-Key: $GATEWAY_KEY" testdata/

Every recorded request (calls in the binding they were recorded in, WSDL
and help pages too) is sent again to --upstream, below its path from the
service path on, with --key in place of the scrubbed key; a recorded key
rejection is sent with a made-up key and compared with that recording.
Each answer is compared with the recording: status, content type, then the
structure (envelope, wrapper and result names and namespaces, the element
tree and its order, types; JSON members and types), then the values. A list
that grows or shrinks, an empty list, an element left out of some items is
data, not structure. A WSDL's attributes are structure (the host of its
address aside); an HTML help page is compared by status and content type
only; a text answer (an ASMX error) by its first line.

One line per interaction: same, values drifted (how many, and the first
--max-differences), or structure drifted (the path and what changed:
renamed, added, removed, moved, namespace, type). --quiet prints only the
drifted ones. --update rewrites the cassettes with the new answers after
showing the differences (atomically, scrubbed; requests and the mark of key
rejections stay as recorded) and exits 0.

Live systems: --concurrency requests at a time (default 1), at most --rate
requests a second (0: no limit), each start 1/rate after the one before.
The key and --header values appear in no output, report or cassette.

Exit codes: 0 nothing drifted (or --update rewrote what did); 1 something
drifted; 2 could not check: a wrong command line, an unreachable upstream,
no answer within --timeout, a TLS failure, a refused key.`

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
	reach       reachFlags // --ca-cert, --header, --timeout, …: how --upstream is reached (reach.go)
}

func (f *verifyFlags) register(m *Main) *flag.FlagSet {
	fs := newFlagSet("cassette verify", "cassette verify --upstream URL --key K [flags] PATH...", cassetteVerifyExamples, m.Stderr)
	fs.StringVar(&f.upstream, "upstream", "", "base URL of the live deployment to check, e.g. https://atm.example.org (required)")
	fs.StringVar(&f.key, "key", "", "a service key the deployment accepts, in place of the cassettes' scrubbed one (required when they hold calls)")
	fs.StringVar(&f.values, "values", "compare", "compare the values too (compare), or the structure only (ignore: data changes, shape should not)")
	fs.StringVar(&f.junitReport, "junit-report", "", "write a JUnit XML report, one test case per interaction, to this `file`")
	fs.BoolVar(&f.update, "update", false, "rewrite the cassettes with the new answers of what drifted, after showing the differences")
	fs.IntVar(&f.concurrency, "concurrency", 1, "how many requests may be in flight at once")
	fs.Float64Var(&f.rate, "rate", 0, "at most this many requests a `second`, evenly spaced (0: no limit)")
	fs.IntVar(&f.maxDiffs, "max-differences", cassettes.DefaultMaxDifferences, "value differences shown per interaction (all are counted)")
	fs.BoolVar(&f.quiet, "quiet", false, "print only the interactions that drifted, and the summary")
	f.reach.register(fs, "the upstream", true)
	return fs
}

// verifyDrifted is the error of a run in which something drifted: exit 1.
type verifyDrifted struct{ n, of int }

func (e verifyDrifted) Error() string {
	return fmt.Sprintf("cassette verify: %d of %d interactions drifted (see above); --update rewrites the cassettes with the new answers", e.n, e.of)
}

// ExitCode is 1: the deployment no longer answers as recorded.
func (verifyDrifted) ExitCode() int { return exitFailure }

// verifyNotChecked is the error of a run that could not check the
// deployment (unreachable, no answer within --timeout, TLS, a refused
// key, a cassette that cannot be read): exit 2.
type verifyNotChecked struct{ msg string }

func (e verifyNotChecked) Error() string { return "cassette verify: could not check: " + e.msg }

// ExitCode is 2: nothing was found out about drift.
func (verifyNotChecked) ExitCode() int { return exitUsage }

func (m *Main) runCassetteVerify(ctx context.Context, args []string) error {
	var f verifyFlags
	fs := f.register(m)
	if err := m.parseFlags(fs, args, nil); err != nil {
		return err
	}
	switch {
	case f.upstream == "":
		return cmdUsagef("cassette verify", "--upstream URL is required")
	case fs.NArg() == 0:
		return cmdUsagef("cassette verify", "want at least one cassette file or directory")
	}
	if err := m.firstBad(fs,
		check{"upstream", checkHTTPURL(f.upstream)},
		check{"values", when(f.values != "compare" && f.values != "ignore", "want compare or ignore")},
		check{"junit-report", when(f.junitReport != "" && checkDir(filepath.Dir(f.junitReport)) != "", "its directory "+filepath.Dir(f.junitReport)+" does not exist")},
		check{"concurrency", when(f.concurrency < 1, "must be at least 1")},
		check{"rate", when(f.rate < 0, "must not be negative (0: no limit)")},
		check{"max-differences", when(f.maxDiffs < 1, "must be at least 1")},
	); err != nil {
		return err
	}
	m.hideKeys(append([]string{f.key}, f.reach.secrets()...)...)
	rt, err := m.reachTransport(fs, &f.reach, "upstream")
	if err != nil {
		return err
	}
	files, err := cassettes.Files(fs.Args()...)
	if err != nil {
		return cmdUsagef("cassette verify", "%v", err)
	}
	if len(files) == 0 {
		return cmdUsagef("cassette verify", "no cassette files (*.yaml) in %s", strings.Join(fs.Args(), ", "))
	}
	p := &verifyPrinter{m: m, quiet: f.quiet, head: fmt.Sprintf("atmkit: verifying %s against %s (%s, %s, values %s)",
		plural(len(files), "cassette"), redact.URL(f.upstream), plural(f.concurrency, "request")+" at a time",
		rateText(f.rate), map[string]string{"compare": "compared", "ignore": "ignored"}[f.values])}
	report, err := cassettes.Verify(ctx, files, cassettes.VerifyOptions{
		Upstream:       f.upstream,
		Key:            f.key,
		Secrets:        f.reach.secrets(),
		Transport:      rt,
		Timeout:        f.reach.timeout,
		Concurrency:    f.concurrency,
		Rate:           f.rate,
		IgnoreValues:   f.values == "ignore",
		MaxDifferences: f.maxDiffs,
		OnResult:       p.print,
	})
	switch {
	case errors.Is(err, cassettes.ErrNoKey):
		return cmdUsagef("cassette verify", "--key (or ATMKIT_KEY) is required: %v", strings.TrimPrefix(err.Error(), cassettes.ErrNoKey.Error()+": "))
	case errors.Is(err, cassettes.ErrCassetteNotFound):
		return cmdUsagef("cassette verify", "%v", err)
	case report == nil && err != nil:
		return verifyNotChecked{redact.Text(err.Error(), f.key)}
	}
	if f.junitReport != "" {
		if jerr := report.WriteJUnitFile(f.junitReport); jerr != nil {
			return verifyNotChecked{jerr.Error()}
		}
	}
	if err != nil {
		msg := err.Error()
		if errors.Is(err, cassettes.ErrKeyRefused) {
			msg += ". Check --key (or ATMKIT_KEY): it must be a key this deployment accepts"
		}
		if n := report.Count(cassettes.ValuesDrifted) + report.Count(cassettes.StructureDrifted); n > 0 {
			msg += fmt.Sprintf(" (%d interactions drifted before the run stopped)", n)
		}
		return verifyNotChecked{redact.Text(msg, f.key)}
	}
	p.summary(report)
	drifted := report.Count(cassettes.ValuesDrifted) + report.Count(cassettes.StructureDrifted)
	if drifted == 0 {
		return nil
	}
	if f.update {
		updated, n, err := report.Update()
		for _, u := range updated {
			fmt.Fprintf(m.Stdout, "atmkit: updated %s\n", u)
		}
		if err != nil {
			return fmt.Errorf("cassette verify: %w", err)
		}
		fmt.Fprintf(m.Stdout, "atmkit: replaced %s with the deployment's, in %s\n", plural(n, "recorded answer"), plural(len(updated), "cassette"))
		return nil
	}
	return verifyDrifted{drifted, len(report.Results)}
}

// verifyPrinter prints the results of a run as they come, in cassette
// order: a heading per cassette file, a line per interaction and its
// differences below it. The heading of the run waits for the first line,
// so a run that cannot check prints only its error.
type verifyPrinter struct {
	m     *Main
	quiet bool
	head  string
	file  string
}

func (p *verifyPrinter) print(r cassettes.VerifyResult) {
	if r.Verdict == cassettes.NotChecked || (p.quiet && r.Verdict == cassettes.Same) {
		return
	}
	var b strings.Builder
	if p.head != "" {
		b.WriteString(p.head + "\n")
		p.head = ""
	}
	if r.File != p.file {
		p.file = r.File
		b.WriteString(r.File + ":\n")
	}
	fmt.Fprintf(&b, "  #%d %s: %s\n", r.ID, r.Name(), r.Summary())
	for _, d := range r.Differences {
		b.WriteString("      " + d.String() + "\n")
	}
	if more := r.ValueCount - countValues(r.Differences); more > 0 {
		fmt.Fprintf(&b, "      … and %s more\n", plural(more, "value difference"))
	}
	if r.Note != "" && r.Verdict != cassettes.Same {
		b.WriteString("      (" + r.Note + ")\n")
	}
	fmt.Fprint(p.m.Stdout, b.String())
}

// summary prints the counts of a run.
func (p *verifyPrinter) summary(r *cassettes.VerifyReport) {
	if p.head != "" {
		fmt.Fprintln(p.m.Stdout, p.head)
	}
	fmt.Fprintf(p.m.Stdout, "atmkit: %s in %s: %d same, %d values drifted, %d structure drifted (%s)\n",
		plural(len(r.Results), "interaction"), plural(len(r.Files), "cassette"), r.Count(cassettes.Same),
		r.Count(cassettes.ValuesDrifted), r.Count(cassettes.StructureDrifted), r.Duration.Round(time.Millisecond))
}

func countValues(ds []cassettes.Difference) int {
	n := 0
	for _, d := range ds {
		if !d.Change.Structural() {
			n++
		}
	}
	return n
}

func rateText(rate float64) string {
	if rate <= 0 {
		return "no rate limit"
	}
	return fmt.Sprintf("at most %g a second", rate)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

package conformance

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/atmkit/atmkit/internal/printable"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/formatter"
	"github.com/onsi/ginkgo/v2/types"
)

// ErrAlreadyRun is returned by Run when the suite already ran in this
// process: Ginkgo runs a suite once per process.
var ErrAlreadyRun = errors.New("conformance: the suite already ran in this process")

// ErrInterrupted is returned by Run when the run was stopped (SIGINT or
// SIGTERM, which Ginkgo handles during the run) before every spec ran: the
// target was not checked whole. The console and the reports say what ran.
var ErrInterrupted = errors.New("conformance: interrupted: the target was not checked whole")

// ErrPreflightInterrupted is returned by Run when RunOptions.Context ended
// during the preflight, before any spec ran. It wraps ErrInterrupted.
var ErrPreflightInterrupted = fmt.Errorf("%w: stopped in the preflight, before any spec ran", ErrInterrupted)

// RunOptions control a run of the Ginkgo suite.
type RunOptions struct {
	// LabelFilter selects specs by label, in Ginkgo's syntax
	// (e.g. "soap11 && !asmx"); empty runs every spec.
	LabelFilter string
	// Reporter configures the reports: JUnitReport and JSONReport name the
	// files to write, Verbose prints every spec, NoColor leaves out colours.
	// Ginkgo's console reporter is not used: the console gets a line of
	// progress, then the failures grouped by cause.
	Reporter types.ReporterConfig
	// Out receives the console output and the query values line; nil
	// means standard output.
	Out io.Writer
	// Context, if not nil, ends the preflight when it is done (Ctrl-C while
	// the first calls wait up to the timeout for a target that does not
	// answer): Run returns ErrPreflightInterrupted. During the specs,
	// Ginkgo handles SIGINT and SIGTERM itself and Context is not consulted.
	Context context.Context
}

var ran atomic.Bool

// suiteDescription names the suite in the reports.
const suiteDescription = "ATM Location Lookup Service conformance"

// uncheckedReport is the report of a run whose preflight found the target
// could not be checked: one failed setup node (JUnit's [BeforeSuite]) whose
// failure is the preflight's error, masked as the reports are.
func uncheckedReport(s *Session, cause error, start time.Time) types.Report {
	msg := printable.Text(s.maskReport("could not check the target: " + strings.TrimPrefix(cause.Error(), "could not check the target: ")))
	loc := types.NewCustomCodeLocation(docSuite + "#the-preflight")
	end := time.Now()
	return types.Report{
		SuitePath:                  s.maskReport(redact.URL(s.base)),
		SuiteDescription:           suiteDescription,
		SuiteSucceeded:             false,
		SpecialSuiteFailureReasons: []string{"the target could not be checked"},
		StartTime:                  start,
		EndTime:                    end,
		RunTime:                    end.Sub(start),
		SpecReports: types.SpecReports{{
			LeafNodeType:     types.NodeTypeBeforeSuite,
			LeafNodeText:     "preflight",
			LeafNodeLocation: loc,
			State:            types.SpecStateFailed,
			StartTime:        start,
			EndTime:          end,
			RunTime:          end.Sub(start),
			NumAttempts:      1,
			Failure: types.Failure{
				Message:             msg,
				Location:            loc,
				FailureNodeType:     types.NodeTypeBeforeSuite,
				FailureNodeLocation: loc,
				TimelineLocation:    types.TimelineLocation{Time: end},
			},
		}},
	}
}

// withoutShape narrows a label filter to leave out the shape specs.
func withoutShape(filter string) string {
	if strings.TrimSpace(filter) == "" {
		return "!shape"
	}
	return "(" + filter + ") && !shape"
}

// failRecorder is the GinkgoTestingT of a run outside go test.
type failRecorder struct{ failed atomic.Bool }

// Fail records that the suite failed.
func (f *failRecorder) Fail() { f.failed.Store(true) }

// Run checks cfg's target with the Ginkgo suite, in process, and reports
// whether every spec passed.
//
// It first runs the preflight (see Session.Preflight) and prints what it
// found; a target that cannot be checked (unreachable, silent, the wrong
// path, a refused key) gives a *PreflightError and no spec runs. The console
// then gets a mark per spec (a line, and the spec's notes, with Verbose)
// and, at the end, the number of notes (without Verbose), the failures
// grouped by cause, each spec named with its documentation section, a line
// "Query values: …" saying which values the searches used and where each
// came from (given, or found in the target's answers), when any spec used
// them, a line "Request encoding: …" saying how the target reads a query
// that names no charset and the mock's --request-encoding that mirrors it
// (Preflight.Encoding), a line "Mirror it: atmkit serve …" with the serve
// flags that mirror what the run saw of the target where it differs from
// the mock's defaults (MockNamespace, MockRequestEncoding, MockJSONErrors),
// written for Config.Shell, followed, when a result read was not in the
// built-in shape or none was read, by the atmkit shape learn line, and
// last the counts and the verdict. Every spec is counted as passed,
// failed or skipped, with the reasons for the skipped (the specs
// labelled shape need Config.Shape); the JUnit and JSON reports count the
// same and give each skipped spec its reason. They cite documentation
// sections instead of source lines and hold every spec's notes, and the
// findings: the query values, request encoding, Mirror it: and shape
// lines, as the JUnit testsuite's properties and the JSON report's entries
// of the summary's ReportAfterSuite spec report (see FindingMirror and its
// kin). The key appears in none of this, nor in any error returned; nor
// does Config.Secrets in the reports.
//
// An error means the target could not be checked: a bad configuration or
// label filter, a failed preflight, a report that could not be written, or
// a second run in the same process.
func Run(cfg Config, opts RunOptions) (bool, error) {
	s, err := NewSession(cfg)
	if err != nil {
		return false, err
	}
	if _, err := types.ParseLabelFilter(opts.LabelFilter); err != nil {
		return false, fmt.Errorf("conformance: label filter %q: %w", opts.LabelFilter, err)
	}
	if !ran.CompareAndSwap(false, true) {
		return false, ErrAlreadyRun
	}
	out := opts.Out
	if out == nil {
		out = os.Stdout
	}
	start := time.Now()
	s.preCtx = opts.Context
	pre, err := s.Preflight()
	s.preCtx = nil
	if opts.Context != nil && opts.Context.Err() != nil {
		// Not the calls the interruption cut off; and a signal that came
		// as the preflight ended would go unheard by Ginkgo, whose handler
		// is not yet installed: the specs would all run.
		err = ErrPreflightInterrupted
	}
	if err != nil {
		ran.Store(false) // Ginkgo did not run: the suite may still run once
		// The reports say the target was not checked, so that a CI job
		// never shows the reports an earlier run left.
		rep := &reporter{junit: opts.Reporter.JUnitReport, json: opts.Reporter.JSONReport}
		rep.writeReports(uncheckedReport(s, err, start), nil)
		return false, errors.Join(err, rep.err)
	}
	fmt.Fprintln(out, pre.Summary(maskURL(s.base+servicePath, cfg.Key)))

	run := newSpecRun(s)
	declareSpecs(func() *specRun { return run })
	rep := &reporter{
		out: out, run: run,
		verbose: opts.Reporter.Verbose || opts.Reporter.VeryVerbose,
		color:   !opts.Reporter.NoColor,
		junit:   opts.Reporter.JUnitReport,
		json:    opts.Reporter.JSONReport,
		filter:  opts.LabelFilter,
	}
	ginkgo.ReportAfterEach(rep.afterEach, types.NewCustomCodeLocation(docSuite))
	ginkgo.ReportAfterSuite(summaryNode, rep.afterSuite, types.NewCustomCodeLocation(docSuite))

	suiteConfig, _ := ginkgo.GinkgoConfiguration()
	suiteConfig.LabelFilter = opts.LabelFilter
	// No suite timeout (Ginkgo's default is an hour): each request has its
	// own (Config.Timeout), and a run of a slow deployment that outlasted
	// Ginkgo's had every later spec fail without a request.
	suiteConfig.Timeout = 0
	if cfg.Shape == nil {
		// The shape specs need a shape: without one they are not run at all.
		suiteConfig.LabelFilter = withoutShape(opts.LabelFilter)
	}
	// Ginkgo's console reporter writes source locations: silence it, and
	// let the reporter above write the console output and the reports.
	saved := formatter.ColorableStdOut
	formatter.ColorableStdOut = io.Discard
	defer func() { formatter.ColorableStdOut = saved }()
	rc := types.ReporterConfig{NoColor: true, Succinct: true}
	t := &failRecorder{}
	passed := ginkgo.RunSpecs(t, suiteDescription, suiteConfig, rc)
	if rep.err != nil {
		return false, rep.err
	}
	if rep.interrupted {
		return false, ErrInterrupted
	}
	return passed && !t.failed.Load(), nil
}

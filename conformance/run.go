package conformance

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync/atomic"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/formatter"
	"github.com/onsi/ginkgo/v2/types"
)

// ErrAlreadyRun is returned by Run when the suite already ran in this
// process: Ginkgo runs a suite once per process.
var ErrAlreadyRun = errors.New("conformance: the suite already ran in this process")

// RunOptions control a run of the Ginkgo suite.
type RunOptions struct {
	// LabelFilter selects specs by label, in Ginkgo's syntax
	// (e.g. "soap11 && !asmx"); empty runs every spec.
	LabelFilter string
	// Reporter configures Ginkgo's reporters (JUnitReport, JSONReport, verbosity).
	Reporter types.ReporterConfig
	// Out receives Ginkgo's console output and the query values line; nil
	// means standard output.
	Out io.Writer
}

var ran atomic.Bool

// failRecorder is the GinkgoTestingT of a run outside go test.
type failRecorder struct{ failed atomic.Bool }

// Fail records that the suite failed.
func (f *failRecorder) Fail() { f.failed.Store(true) }

// Run checks cfg's target with the Ginkgo suite, in process, and reports
// whether every spec passed. It first runs the preflight (see
// Session.Preflight) and prints what it found; a target that cannot be
// checked gives a *PreflightError and no spec runs. After the specs it prints a line
// "Query values: …" saying which values the searches used and where each
// came from (given, or found in the target's answers), when any spec used them. An error means the suite could not run (a bad
// configuration or label filter, or a second run in the same process).
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
	pre, err := s.Preflight()
	if err != nil {
		ran.Store(false) // Ginkgo did not run: the suite may still run once
		return false, err
	}
	fmt.Fprintln(out, pre.Summary(s.base+servicePath))
	declareSpecs(func() *Session { return s })
	suiteConfig, _ := ginkgo.GinkgoConfiguration()
	suiteConfig.LabelFilter = opts.LabelFilter
	if opts.Out != nil {
		saved := formatter.ColorableStdOut
		formatter.ColorableStdOut = opts.Out
		defer func() { formatter.ColorableStdOut = saved }()
	}
	t := &failRecorder{}
	passed := ginkgo.RunSpecs(t, "ATM Location Lookup Service conformance", suiteConfig, opts.Reporter)
	if f := s.discovered(); f != nil {
		fmt.Fprintf(out, "Query values: %s\n", f.Summary())
	}
	return passed && !t.failed.Load(), nil
}

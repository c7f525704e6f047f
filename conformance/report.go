package conformance

import (
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/atmkit/atmkit/internal/atomicfile"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
)

// This file holds the reporter of Run: Ginkgo's console reporter is
// silenced, and this one prints a line of progress, then the failures
// grouped by cause, each spec named with its documentation section, the
// counts and the verdict last, and writes the JUnit and JSON reports from a
// copy of Ginkgo's report whose code locations are documentation sections,
// whose texts have the key masked and whose skipped specs all say why.

// reporter writes one run's console output and reports.
type reporter struct {
	out     io.Writer
	run     *specRun
	verbose bool
	color   bool
	junit   string // file names; empty: none
	json    string
	filter  string // the label filter given, for the reason of the specs it leaves out

	mu          sync.Mutex
	column      int   // progress marks on the current line
	err         error // the first error writing a report
	interrupted bool  // the run was stopped (SIGINT, SIGTERM) before its end
	shellNoted  bool  // the note on PowerShell was printed
}

// powerShellNote is printed once before the first reproduce line when the
// user's shell is PowerShell: they are cmd.exe lines. PowerShell would
// hand %ATMKIT_KEY% on as it is, and a body's double quotes to curl.exe
// differently in Windows PowerShell 5.1 and PowerShell 7.3 and later.
const powerShellNote = "(The reproduce: lines are cmd.exe lines: in PowerShell, type cmd first, then paste them; " +
	"an ATMKIT_KEY set there ($env:ATMKIT_KEY = '...') carries over.)"

// noteShell prints powerShellNote, indented, before msg is printed, when
// msg is the first text with a reproduce line and the shell is PowerShell.
func (r *reporter) noteShell(msg, prefix string) {
	if r.shellNoted || r.run.session.cfg.Shell != ShellPowerShell || !strings.Contains(msg, "reproduce: ") {
		return
	}
	r.shellNoted = true
	fmt.Fprintf(r.out, "%s%s\n", prefix, powerShellNote)
}

// ANSI colours, used unless NoColor.
const (
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiBold   = "\x1b[1m"
	ansiReset  = "\x1b[0m"
)

func (r *reporter) paint(color, s string) string {
	if !r.color {
		return s
	}
	return color + s + ansiReset
}

// outcome is the word for a spec's state in its colour: passed (green),
// failed (red) or skipped (yellow).
func (r *reporter) outcome(st types.SpecState, passed, failed, skipped string) string {
	switch {
	case st.Is(types.SpecStateFailureStates):
		return r.paint(ansiRed, failed)
	case st == types.SpecStateSkipped:
		return r.paint(ansiYellow, skipped)
	}
	return r.paint(ansiGreen, passed)
}

// filtered reports whether a spec was left out by the label filter (Ginkgo
// reports it as skipped, without a message).
func filtered(sr types.SpecReport) bool {
	return sr.State == types.SpecStateSkipped && sr.Failure.Message == ""
}

// Why specs were skipped, as the console's count and the reports' skip
// messages say it.
const (
	needShape   = "need --shape FILE"
	leftOut     = "left out by --label-filter"
	notApplying = "did not apply to the target"
	notRun      = "not run (interrupted)"
)

// skipReason says why a skipped spec did not run: one of the reasons
// above. The specs labelled shape are left out when no shape is given.
func (r *reporter) skipReason(sr types.SpecReport) string {
	switch {
	case !filtered(sr):
		return notApplying
	case r.run.session.cfg.Shape == nil && slices.Contains(sr.Labels(), "shape"):
		return needShape
	case r.interrupted && r.selected(sr):
		return notRun
	}
	return leftOut
}

// selected reports whether the label filter selects a spec: one it selects
// that Ginkgo skipped without a message was not run because the run was
// interrupted.
func (r *reporter) selected(sr types.SpecReport) bool {
	lf, err := types.ParseLabelFilter(r.filter) // Run checked it
	return err == nil && lf(sr.Labels())
}

// wasInterrupted reports whether a run was stopped before its end: a spec
// interrupted, or the suite's failure says so.
func wasInterrupted(rep types.Report) bool {
	for _, sr := range rep.SpecReports {
		if sr.State == types.SpecStateInterrupted {
			return true
		}
	}
	for _, reason := range rep.SpecialSuiteFailureReasons {
		if strings.Contains(reason, "Interrupted") {
			return true
		}
	}
	return false
}

// filteredMessage is the skip message the reports give a spec the filter
// left out (Ginkgo gives none).
func (r *reporter) filteredMessage(sr types.SpecReport) string {
	switch r.skipReason(sr) {
	case needShape:
		return "needs --shape FILE: the specs labelled shape check results against a shape file and run only with one"
	case notRun:
		return "not run: the run was interrupted before this spec"
	}
	return fmt.Sprintf("left out by --label-filter %q", r.filter)
}

// checkOf returns the check a spec ran, by its text.
func checkOf(sr types.SpecReport) (Check, bool) {
	c, ok := byDescription[sr.LeafNodeText]
	return c, ok
}

// specName is a spec's check name and text, for the console.
func specName(sr types.SpecReport) string {
	if c, ok := checkOf(sr); ok {
		return c.Name + ": " + sr.LeafNodeText
	}
	return strings.Join(append(slices.Clone(sr.ContainerHierarchyTexts), sr.LeafNodeText), " ")
}

// docOf returns the documentation section of a spec.
func docOf(sr types.SpecReport) string {
	if c, ok := checkOf(sr); ok {
		return docSection(c.Name)
	}
	return docSuite
}

// afterEach prints a spec's outcome: a mark, or with verbose a line (and
// the failure or the notes).
func (r *reporter) afterEach(sr types.SpecReport) {
	if sr.LeafNodeType != types.NodeTypeIt || filtered(sr) {
		return
	}
	key := r.run.session.cfg.Key
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.verbose {
		fmt.Fprint(r.out, r.outcome(sr.State, "•", "F", "S"))
		if r.column++; r.column == 80 {
			fmt.Fprintln(r.out)
			r.column = 0
		}
		return
	}
	fmt.Fprintf(r.out, "%s %s (%.3fs)\n", r.outcome(sr.State, "ok  ", "FAIL", "skip"), specName(sr), sr.RunTime.Seconds())
	switch {
	case sr.State.Is(types.SpecStateFailureStates):
		r.noteShell(sr.Failure.Message, "     ")
		fmt.Fprintf(r.out, "%s\n     see %s\n", indent(maskKey(sr.Failure.Message, key), "     "), docOf(sr))
	case sr.State == types.SpecStateSkipped:
		fmt.Fprintf(r.out, "     %s\n", maskKey(sr.Failure.Message, key))
	}
	for _, e := range sr.ReportEntries {
		fmt.Fprintf(r.out, "%s\n", indent(maskKey(e.Value.String(), key), "     note: "))
	}
}

// acceptsAnyKey reports whether a wrong-key spec failed because the target
// answered the made-up key with 200.
func acceptsAnyKey(specs []types.SpecReport) bool {
	for _, sr := range specs {
		if c, ok := checkOf(sr); ok && sr.State.Is(types.SpecStateFailureStates) && strings.HasSuffix(c.Name, "/wrong-key") &&
			strings.Contains(sr.Failure.Message, "got:      200") {
			return true
		}
	}
	return false
}

// group is the failed specs of one cause.
type group struct {
	cause string
	specs []types.SpecReport
}

// groups returns the failed specs grouped by cause, the largest group
// first (ties in the order of their first failure).
func (r *reporter) groups(specs []types.SpecReport) []*group {
	var gs []*group
	byCause := map[string]*group{}
	for _, sr := range specs {
		if !sr.State.Is(types.SpecStateFailureStates) || sr.State == types.SpecStateInterrupted {
			continue
		}
		cause := ""
		if c, ok := checkOf(sr); ok {
			cause, _ = r.run.cause(c.Name)
		}
		if cause == "" {
			// Ginkgo's own failure (a timeout, an interrupt, a panic).
			cause, _, _ = strings.Cut(strings.TrimSpace(sr.Failure.Message), "\n")
			if cause == "" {
				cause = sr.State.String()
			}
		}
		g := byCause[cause]
		if g == nil {
			g = &group{cause: cause}
			byCause[cause] = g
			gs = append(gs, g)
		}
		g.specs = append(g.specs, sr)
	}
	slices.SortStableFunc(gs, func(a, b *group) int { return len(b.specs) - len(a.specs) })
	return gs
}

// afterSuite prints the grouped summary and writes the reports.
func (r *reporter) afterSuite(rep types.Report) {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := r.run.session.cfg.Key
	r.interrupted = wasInterrupted(rep)
	if r.column > 0 {
		fmt.Fprintln(r.out)
		r.column = 0
	}
	// One count, told the same everywhere: every spec passed, failed or
	// was skipped (left out by the filter, or not applying to the target),
	// and the reports' skip messages give the reasons the console counts.
	var specs []types.SpecReport
	passed, failed, skipped, stopped, total := 0, 0, 0, 0, 0
	reasons := map[string]int{}
	notes, noted := 0, 0
	for _, sr := range rep.SpecReports {
		if sr.LeafNodeType != types.NodeTypeIt {
			continue
		}
		total++
		switch {
		case sr.State == types.SpecStateInterrupted:
			stopped++
		case sr.State.Is(types.SpecStateFailureStates):
			failed++
		case sr.State == types.SpecStateSkipped:
			skipped++
			reasons[r.skipReason(sr)]++
		default:
			passed++
		}
		if filtered(sr) {
			continue
		}
		specs = append(specs, sr)
		if len(sr.ReportEntries) > 0 {
			notes, noted = notes+len(sr.ReportEntries), noted+1
		}
	}
	if !r.verbose && notes > 0 {
		fmt.Fprintf(r.out, "\n%d %s on %d %s (--verbose prints them; the JUnit and JSON reports hold them)\n",
			notes, plural(notes, "note", "notes"), noted, plural(noted, "spec", "specs"))
	}
	if gs := r.groups(specs); len(gs) > 0 {
		fmt.Fprintf(r.out, "\n%s\n", r.paint(ansiBold, fmt.Sprintf("%d failed %s, by cause:", failed, plural(failed, "spec", "specs"))))
		for _, g := range gs {
			fmt.Fprintf(r.out, "\n  %s\n", r.paint(ansiRed, fmt.Sprintf("%d %s: %s", len(g.specs), plural(len(g.specs), "spec", "specs"), maskKey(g.cause, key))))
			for _, sr := range g.specs {
				fmt.Fprintf(r.out, "    - %s (%s)\n", specName(sr), docOf(sr))
			}
			r.noteShell(g.specs[0].Failure.Message, "    ")
			fmt.Fprintf(r.out, "    The first of them in full:\n%s\n", indent(maskKey(g.specs[0].Failure.Message, key), "      "))
		}
	}
	if acceptsAnyKey(specs) {
		fmt.Fprintf(r.out, "\n%s\n", r.paint(ansiBold, "The target answered a made-up key as a good one: a deployment refuses keys it does not know. atmkit's mock accepts any non-empty key unless started with the keys it accepts (atmkit serve --key K); conform then checks that others are refused."))
	}
	if !r.verbose && reasons[notApplying] > 0 {
		fmt.Fprintln(r.out)
		for _, sr := range specs {
			if sr.State == types.SpecStateSkipped {
				fmt.Fprintf(r.out, "  skipped %s: %s\n", specName(sr), maskKey(sr.Failure.Message, key))
			}
		}
	}
	for _, reason := range rep.SpecialSuiteFailureReasons {
		fmt.Fprintf(r.out, "\n%s\n", maskKey(reason, key))
	}
	if f := r.run.session.discovered(); f != nil {
		fmt.Fprintf(r.out, "\nQuery values: %s\n", maskKey(f.Summary(), key))
	}
	s := r.run.session
	var m *serveMirror
	p := s.pre.Load()
	if p != nil {
		if p.Encoding != nil {
			fmt.Fprintf(r.out, "\nRequest encoding: %s\n", maskKey(p.Encoding.Summary(), key))
		}
		m = s.mirror(p)
		fmt.Fprintf(r.out, "\n%s\n", maskKey(m.Line(s.cfg.Shell), key))
		if h := m.ShapeHint(s.cfg.Shell, maskURL(s.base+servicePath, key)); h != "" {
			fmt.Fprintf(r.out, "%s\n", maskKey(h, key))
		}
	}
	fmt.Fprintf(r.out, "\nRan %d of %d specs in %.3f seconds\n", passed+failed+stopped, total, rep.RunTime.Seconds())
	nothingChecked := r.filter != "" && passed+failed+stopped+reasons[notApplying] == 0
	verdict := r.paint(ansiGreen, "SUCCESS!")
	switch {
	case nothingChecked:
		verdict = r.paint(ansiYellow, "NOTHING CHECKED:")
	case r.interrupted:
		verdict = r.paint(ansiYellow, "INTERRUPTED:")
	case !rep.SuiteSucceeded:
		verdict = r.paint(ansiRed, "FAIL!")
	}
	why := ""
	if skipped > 0 {
		var parts []string
		for _, reason := range []string{needShape, leftOut, notApplying, notRun} {
			if n := reasons[reason]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, reason))
			}
		}
		why = ": " + strings.Join(parts, ", ")
	}
	if stopped > 0 {
		fmt.Fprintf(r.out, "%s -- %d Passed | %d Failed | %d Interrupted | %d Skipped%s\n", verdict, passed, failed, stopped, skipped, why)
	} else {
		fmt.Fprintf(r.out, "%s -- %d Passed | %d Failed | %d Skipped%s\n", verdict, passed, failed, skipped, why)
	}

	if nothingChecked && r.err == nil {
		// A filter that selects nothing (a typo in a CI job) checks nothing.
		labels := map[string]bool{}
		for _, sr := range rep.SpecReports {
			for _, l := range sr.Labels() {
				labels[l] = true
			}
		}
		r.err = fmt.Errorf("conformance: --label-filter %q selects no spec, so nothing was checked (the labels: %s)", r.filter, strings.Join(slices.Sorted(maps.Keys(labels)), ", "))
		if slices.ContainsFunc(rep.SpecReports, func(sr types.SpecReport) bool { return sr.LeafNodeType == types.NodeTypeIt && r.selected(sr) }) {
			r.err = fmt.Errorf("conformance: --label-filter %q selects only specs labelled shape, which run only with --shape FILE: nothing was checked", r.filter)
		}
	}
	clean := sanitizeReport(rep, s.maskReport, r.filteredMessage)
	// The report's "package" is the target checked, not the directory
	// conform ran in.
	clean.SuitePath = s.maskReport(redact.URL(s.base))
	r.writeReports(clean, s.findings(p, m))
}

// writeReports writes the JUnit and JSON reports asked for of a report fit
// to be kept (sanitizeReport's, or uncheckedReport's), with the findings
// fs (findings.go): the JUnit report's testsuite properties, the entries
// of a spec report of the summary's node in the JSON report.
func (r *reporter) writeReports(clean types.Report, fs []finding) {
	if r.junit != "" {
		// Timelines only for the specs that failed: a passing spec's is noise.
		conf := reporters.JunitReportConfig{OmitTimelinesForSpecState: types.SpecStatePassed | types.SpecStateSkipped | types.SpecStatePending}
		r.write(r.junit, func(tmp string) error {
			if err := reporters.GenerateJUnitReportWithConfig(clean, tmp, conf); err != nil {
				return err
			}
			return addJUnitProperties(tmp, fs)
		})
	}
	if r.json != "" {
		r.write(r.json, func(tmp string) error { return reporters.GenerateJSONReport(withFindings(clean, fs), tmp) })
	}
}

// write writes a report atomically: generated into a temporary file beside
// dst, then renamed over it.
func (r *reporter) write(dst string, generate func(tmp string) error) {
	err := func() error {
		dir := filepath.Dir(dst)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		f, err := os.CreateTemp(dir, "."+filepath.Base(dst)+".*.tmp")
		if err != nil {
			return err
		}
		tmp := f.Name()
		_ = f.Close()
		if err := generate(tmp); err != nil {
			_ = os.Remove(tmp)
			return err
		}
		if err := os.Chmod(tmp, 0o644); err != nil {
			_ = os.Remove(tmp)
			return err
		}
		return atomicfile.Replace(tmp, dst)
	}()
	if err != nil && r.err == nil {
		r.err = fmt.Errorf("conformance: writing report %s: %w", dst, err)
	}
}

// sanitizeReport returns a copy of rep fit to be kept and shared: every code
// location is the documentation section of its spec (not a line of atmkit's
// source on the build machine), progress reports (goroutine dumps) are
// dropped, every text is masked by m (Session.maskReport: the key and the
// secrets), and a spec the label filter left out gets the skip message
// leftOut gives it.
func sanitizeReport(rep types.Report, m func(string) string, leftOut func(types.SpecReport) string) types.Report {
	out := rep
	out.SpecialSuiteFailureReasons = slices.Clone(rep.SpecialSuiteFailureReasons)
	for i, s := range out.SpecialSuiteFailureReasons {
		out.SpecialSuiteFailureReasons[i] = m(s)
	}
	out.SpecReports = make(types.SpecReports, len(rep.SpecReports))
	for i, sr := range rep.SpecReports {
		doc := types.NewCustomCodeLocation(docOf(sr))
		suite := types.NewCustomCodeLocation(docSuite)
		sr.ContainerHierarchyLocations = make([]types.CodeLocation, len(sr.ContainerHierarchyLocations))
		for j := range sr.ContainerHierarchyLocations {
			sr.ContainerHierarchyLocations[j] = suite
		}
		sr.LeafNodeLocation = doc
		if sr.LeafNodeType == types.NodeTypeIt && filtered(sr) {
			sr.Failure.Message = leftOut(sr)
		}
		sr.Failure = sanitizeFailure(sr.Failure, doc, m)
		sr.CapturedGinkgoWriterOutput = m(sr.CapturedGinkgoWriterOutput)
		sr.CapturedStdOutErr = m(sr.CapturedStdOutErr)
		sr.ProgressReports = nil
		entries := make(types.ReportEntries, len(sr.ReportEntries))
		for j, e := range sr.ReportEntries {
			e.Location = doc
			e.Value = types.WrapEntryValue(m(e.Value.String()))
			entries[j] = e
		}
		sr.ReportEntries = entries
		additional := make([]types.AdditionalFailure, len(sr.AdditionalFailures))
		for j, a := range sr.AdditionalFailures {
			a.Failure = sanitizeFailure(a.Failure, doc, m)
			additional[j] = a
		}
		sr.AdditionalFailures = additional
		events := make(types.SpecEvents, len(sr.SpecEvents))
		for j, e := range sr.SpecEvents {
			e.CodeLocation = doc
			e.Message = m(e.Message)
			events[j] = e
		}
		sr.SpecEvents = events
		out.SpecReports[i] = sr
	}
	return out
}

func sanitizeFailure(f types.Failure, doc types.CodeLocation, m func(string) string) types.Failure {
	if f.IsZero() {
		return f
	}
	f.Message = m(f.Message)
	f.ForwardedPanic = m(f.ForwardedPanic)
	f.Location = doc
	if f.FailureNodeLocation != (types.CodeLocation{}) {
		f.FailureNodeLocation = doc
	}
	f.ProgressReport = types.ProgressReport{}
	if f.AdditionalFailure != nil {
		a := *f.AdditionalFailure
		a.Failure = sanitizeFailure(a.Failure, doc, m)
		f.AdditionalFailure = &a
	}
	return f
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

package conformance

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
)

// docSections maps the first part of a check's name ("binding" of
// "binding/soap11/ReturnAllAtms") to the section of the documentation that
// says what the check expects and why. It is the only place that names
// documentation files: failures cite these sections, never a line of
// atmkit's source.
var docSections = map[string]string{
	"binding":     "docs/conformance.md#binding-specs",
	"equivalence": "docs/conformance.md#equivalence-specs",
	"namespaces":  "docs/conformance.md#namespaces-specs",
	"routing":     "docs/conformance.md#routing-specs",
	"json":        "docs/conformance.md#json-specs",
	"soapaction":  "docs/conformance.md#soapaction-specs",
	"fault":       "docs/conformance.md#fault-specs",
	"semantics":   "docs/conformance.md#semantics-specs",
	"wsdl":        "docs/conformance.md#wsdl-specs",
	"shape":       "docs/conformance.md#shape-specs",
}

// docSuite is the section of the suite as a whole: where a check with no
// section of its own, and the containers, point.
const docSuite = "docs/conformance.md"

// docSection returns the documentation section of the check named name.
func docSection(name string) string {
	first, _, _ := strings.Cut(name, "/")
	if s, ok := docSections[first]; ok {
		return s
	}
	return docSuite
}

// specRun is what the specs of one run share: the session, and the cause of
// each failed check (by check name), for the grouped summary.
type specRun struct {
	session *Session

	mu     sync.Mutex
	causes map[string]string
}

func newSpecRun(s *Session) *specRun { return &specRun{session: s, causes: map[string]string{}} }

// cause returns the recorded cause of the named check's failure.
func (r *specRun) cause(name string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.causes[name]
	return c, ok
}

func (r *specRun) setCause(name, cause string) {
	r.mu.Lock()
	r.causes[name] = cause
	r.mu.Unlock()
}

var (
	declareOnce sync.Once
	// byDescription maps a spec's text to its check, for the reporter.
	byDescription = map[string]Check{}
)

// declareSpecs declares one Ginkgo spec per check, grouped in tables by
// Check.Group; run is called when a spec runs. It declares them once per
// process, however often it is called. Every node's code location is the
// documentation section of its check (see docSections), not atmkit's
// source, so reports cite the documentation.
func declareSpecs(run func() *specRun) {
	declareOnce.Do(func() {
		var groups []string
		byGroup := map[string][]Check{}
		for _, c := range Checks() {
			if _, ok := byGroup[c.Group]; !ok {
				groups = append(groups, c.Group)
			}
			byGroup[c.Group] = append(byGroup[c.Group], c)
			if _, dup := byDescription[c.Description]; !dup {
				byDescription[c.Description] = c
			}
		}
		suite := types.NewCustomCodeLocation(docSuite)
		ginkgo.Describe("ATM Location Lookup Service", ginkgo.Label("conformance"), suite, func() {
			for _, g := range groups {
				var entries []any
				for _, c := range byGroup[g] {
					entries = append(entries, ginkgo.Entry(c.Description, c, ginkgo.Label(c.Labels...), types.NewCustomCodeLocation(docSection(c.Name))))
				}
				args := append([]any{func(c Check) { runSpec(run(), c) }, types.NewCustomCodeLocation(docSection(byGroup[g][0].Name))}, entries...)
				ginkgo.DescribeTable(g, args...)
			}
		})
	})
}

// runSpec runs one check inside a Ginkgo spec: notes become report entries,
// a skip a skipped spec, an error a failure with the check's message, the
// key masked. A check that needs a binding the preflight found disabled
// fails with that one cause, without a request.
func runSpec(run *specRun, c Check) {
	if run == nil || run.session == nil {
		ginkgo.Fail("no target: the conformance session was not set up")
		return
	}
	s := run.session
	key := s.cfg.Key
	// The key and the secrets the reports mask (Config.Secrets), masked
	// before the text is made printable: escaped first, a value holding a
	// control character or a byte that is not UTF-8 is a text no later
	// mask (the reports', the console's) matches.
	keys := reportKeys(key, s.cfg.Secrets)
	where := types.NewCustomCodeLocation(docSection(c.Name))
	if p := s.pre.Load(); p.disables(c.Labels) {
		msg := p.DisabledFailure()
		run.setCause(c.Name, strings.SplitN(msg, ":", 2)[0])
		ginkgo.Fail(fmt.Sprintf("[%s] %s", c.Name, maskKey(msg, key)))
		return
	}
	// Every text quoting the target is made printable: no escape sequence
	// of a target reaches a terminal or a report.
	err := c.Run(s, func(format string, args ...any) {
		ginkgo.AddReportEntry("note", printablef(keys, format, args...), where)
	})
	switch {
	case err == nil:
	case IsSkip(err):
		ginkgo.Skip(printablef(keys, "%s", strings.TrimPrefix(err.Error(), "skipped: ")))
	default:
		run.setCause(c.Name, printablef(keys, "%s", causeOf(err)))
		ginkgo.Fail(printablef(keys, "[%s] %s", c.Name, err))
	}
}

// causeOf is what a failure is grouped by in the summary: the same for
// every check that failed for one reason, so it names no operation or
// binding where it can help it. A request without an answer gives its
// transport cause; a *Failure the property checked and what was expected.
func causeOf(err error) string {
	var te *TransportError
	if errors.As(err, &te) {
		return te.Cause()
	}
	var f *Failure
	if errors.As(err, &f) {
		what := f.What
		if i := strings.LastIndex(what, ": "); i >= 0 {
			what = what[i+2:]
		}
		return generic(what) + ": expected " + generic(f.Expected)
	}
	first, _, _ := strings.Cut(err.Error(), "\n")
	return generic(first)
}

// opNames replaces operation names with <Op>, the longest first (so
// ReturnAtmSearchByAddressWithMaximum is not read as ReturnAtmSearchByAddress).
var opNames = func() *strings.Replacer {
	names := make([]string, len(Operations))
	for i, op := range Operations {
		names[i] = op.Name
	}
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	var pairs []string
	for _, n := range names {
		pairs = append(pairs, n, "<Op>")
	}
	return strings.NewReplacer(pairs...)
}()

// generic replaces operation names with <Op>, so that one property of
// different operations reads the same.
func generic(s string) string { return opNames.Replace(s) }

package conformance

import (
	"fmt"
	"strings"
	"sync"

	"github.com/onsi/ginkgo/v2"
)

var declareOnce sync.Once

// declareSpecs declares one Ginkgo spec per check, grouped in tables by
// Check.Group; session is called when a spec runs. It declares them once per
// process, however often it is called.
func declareSpecs(session func() *Session) {
	declareOnce.Do(func() {
		var groups []string
		byGroup := map[string][]Check{}
		for _, c := range Checks() {
			if _, ok := byGroup[c.Group]; !ok {
				groups = append(groups, c.Group)
			}
			byGroup[c.Group] = append(byGroup[c.Group], c)
		}
		ginkgo.Describe("ATM Location Lookup Service", ginkgo.Label("conformance"), func() {
			for _, g := range groups {
				var entries []any
				for _, c := range byGroup[g] {
					entries = append(entries, ginkgo.Entry(c.Description, c, ginkgo.Label(c.Labels...)))
				}
				args := append([]any{func(c Check) { runSpec(session(), c) }}, entries...)
				ginkgo.DescribeTable(g, args...)
			}
		})
	})
}

// runSpec runs one check inside a Ginkgo spec: notes become report entries,
// a skip a skipped spec, an error a failure with the check's message. A
// check that needs a binding the preflight found disabled fails with that
// one cause, without a request.
func runSpec(s *Session, c Check) {
	if s == nil {
		ginkgo.Fail("no target: the conformance session was not set up")
		return
	}
	if p := s.pre.Load(); p.disables(c.Labels) {
		ginkgo.Fail(fmt.Sprintf("[%s] %s", c.Name, maskKey(p.DisabledFailure(), s.cfg.Key)))
		return
	}
	err := c.Run(s, func(format string, args ...any) {
		ginkgo.AddReportEntry("note", fmt.Sprintf(format, args...))
	})
	switch {
	case err == nil:
	case IsSkip(err):
		ginkgo.Skip(strings.TrimPrefix(err.Error(), "skipped: "))
	default:
		ginkgo.Fail(fmt.Sprintf("[%s] %s", c.Name, err))
	}
}

package learn

// This file holds the report: what the learner mapped, guessed, could not
// map and noted, and how atmkit shape learn prints it.

import (
	"fmt"
	"io"
	"strings"
)

// Report says what the learner decided and on what grounds.
type Report struct {
	// Mapped are fields mapped on evidence: the WSDL's structure and
	// values equal to the JSON answers of the same query.
	Mapped []string
	// Guessed are decisions without such evidence, with the reason.
	Guessed []string
	// Unmapped are the deployment's fields no value of atmkit's model
	// matches; the shape writes them with generated values.
	Unmapped []string
	// Omitted are values of atmkit's model the deployment does not write:
	// answers that would carry them (or the WSDL's type) were read without
	// them. Each line says what was read.
	Omitted []string
	// NotSeen are values of atmkit's model nothing read could show (no
	// answer that would carry them, no WSDL type): the shape keeps them as
	// atmkit writes them by default (the built-in shape's names); and
	// string values that fields always empty in what was read may hold
	// (those stay generated). Each line names the calls to record to
	// decide.
	NotSeen []string
	// Notes are samples skipped and other remarks.
	Notes []string
	// Namespace is the deployment's service namespace, as the WSDL or the
	// SOAP answers show it ("" when neither does): serve the shape in it.
	Namespace string
}

// WriteText writes the report as atmkit shape learn prints it: a section
// per list that is not empty, its title and count, then a line per entry.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	section := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		fmt.Fprintf(&b, "%s (%d):\n", title, len(lines))
		for _, l := range lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	section("Mapped", r.Mapped)
	section("Guessed (check these)", r.Guessed)
	section("Could not map (written with generated values)", r.Unmapped)
	section("Omitted (atmkit has them, the deployment does not)", r.Omitted)
	section("Not seen (kept as atmkit writes them by default, or as the line says; record the calls named to decide)", r.NotSeen)
	section("Notes", r.Notes)
	_, err := io.WriteString(w, b.String())
	return err
}

// note adds a remark to the report: a sample skipped, answers not compared.
func (l *learner) note(format string, args ...any) {
	l.report.Notes = append(l.report.Notes, fmt.Sprintf(format, args...))
}

// guess reports a decision taken without evidence, with its reason.
func (l *learner) guess(format string, args ...any) {
	l.report.Guessed = append(l.report.Guessed, fmt.Sprintf(format, args...))
}

// mapped reports a mapping of k.
func (l *learner) mapped(k *node, result, at, what string) {
	line := fmt.Sprintf("%s: %s ← %s", result, at, what)
	if k.evidence != "" {
		line += " (" + k.evidence + ")"
	}
	if k.guessed {
		l.report.Guessed = append(l.report.Guessed, line)
	} else {
		l.report.Mapped = append(l.report.Mapped, line)
	}
}

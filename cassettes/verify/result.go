package verify

import (
	"fmt"
	"strings"
	"time"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Verdict is what Run found for one interaction.
type Verdict int

// Verdicts, from best to worst.
const (
	// Same: the deployment answers as the cassette says.
	Same Verdict = iota
	// ValuesDrifted: the same structure, other values (data changed).
	ValuesDrifted
	// StructureDrifted: another status, content type, element or member
	// name, namespace, order or type.
	StructureDrifted
	// NotChecked: no answer to compare (the request failed or was not sent).
	NotChecked
)

var verdictNames = []string{"same", "values drifted", "structure drifted", "not checked"}

// String is the verdict as reports write it: "same", "values drifted",
// "structure drifted" or "not checked".
func (v Verdict) String() string {
	if v >= 0 && int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return fmt.Sprintf("verdict(%d)", int(v))
}

// Result is what Run found for one recorded interaction.
type Result struct {
	// File is the cassette file; Entry describes the interaction in it
	// (its ID, binding, operation, parameters and recorded status, and
	// whether it is a recorded key rejection, which is re-sent with a
	// wrong key).
	File string
	cassettes.Entry
	Verdict Verdict
	// Differences are the structure differences (all of them), then the
	// first value differences (at most MaxDifferences).
	Differences []Difference
	// StructureCount and ValueCount count the differences of each kind.
	StructureCount, ValueCount int
	// Note says what was not compared and why (the body of an HTML help
	// page, the stack trace of an error text), or "".
	Note string
	// Err says why the interaction was not checked.
	Err error
	// Live is the deployment's answer, scrubbed as a cassette holds it,
	// when it drifted (for Report.Update); nil otherwise.
	Live *cassette.Response
	// Duration is how long the request took.
	Duration time.Duration

	pos     int              // the interaction's index in File
	request cassette.Request // as recorded, for Update to find it again
}

// Name describes the interaction in one line: binding, operation and
// parameters of a call ("soap12 ReturnAtmSearchByCity(intCityID=202)"),
// or the method and path of another request; a key rejection says so.
func (r Result) Name() string {
	var b strings.Builder
	if r.Binding != "" {
		b.WriteString(r.Binding)
		b.WriteByte(' ')
		b.WriteString(r.Operation)
		b.WriteByte('(')
		for k, p := range r.Params {
			if k > 0 {
				b.WriteString(", ")
			}
			b.WriteString(p[0])
			b.WriteByte('=')
			if p[1] == "" || strings.ContainsAny(p[1], " ,()\"") {
				b.WriteString(recorded.Quote(p[1]))
			} else {
				b.WriteString(p[1])
			}
		}
		b.WriteByte(')')
	} else {
		b.WriteString(r.Operation)
	}
	if r.KeyRejection {
		b.WriteString(" [key rejection]")
	}
	return b.String()
}

// Summary is the verdict with its counts: "same", "values drifted: 3
// differences", "structure drifted: 1 change", "not checked: <why>".
func (r Result) Summary() string {
	switch r.Verdict {
	case ValuesDrifted:
		return fmt.Sprintf("values drifted: %s", recorded.Plural(r.ValueCount, "difference"))
	case StructureDrifted:
		s := fmt.Sprintf("structure drifted: %s", recorded.Plural(r.StructureCount, "change"))
		if r.ValueCount > 0 {
			s += fmt.Sprintf(" (and %s)", recorded.Plural(r.ValueCount, "value difference"))
		}
		return s
	case NotChecked:
		if r.Err != nil {
			return "not checked: " + r.Err.Error()
		}
	}
	return r.Verdict.String()
}

// Report is the outcome of Run: one result per recorded
// interaction, in the order of the files and of the interactions in each.
type Report struct {
	// Upstream is the deployment checked, its password and key masked.
	Upstream string
	// Files are the cassette files read.
	Files   []string
	Results []Result
	// IgnoreValues says only the structure was compared.
	IgnoreValues bool
	// Duration is how long the whole run took.
	Duration time.Duration

	key string // the key Run was given: Update sweeps it from what it writes
}

// Count is the number of results with verdict v.
func (r *Report) Count(v Verdict) int {
	n := 0
	for _, res := range r.Results {
		if res.Verdict == v {
			n++
		}
	}
	return n
}

// Drifted reports whether any interaction drifted, in structure or values.
func (r *Report) Drifted() bool {
	return r.Count(ValuesDrifted)+r.Count(StructureDrifted) > 0
}

// Summary counts the results: "12 interactions in 2 cassettes: 10 same, 1
// values drifted, 1 structure drifted (1.2s)".
func (r *Report) Summary() string {
	return fmt.Sprintf("%s in %s: %d same, %d values drifted, %d structure drifted (%s)",
		recorded.Plural(len(r.Results), "interaction"), recorded.Plural(len(r.Files), "cassette"), r.Count(Same),
		r.Count(ValuesDrifted), r.Count(StructureDrifted), r.Duration.Round(time.Millisecond))
}

// leftOut are the lines that say how many differences of each kind r
// does not show ("… and 2 value differences more").
func leftOut(r Result) []string {
	var lines []string
	shownValues := countValues(r.Differences)
	if n := r.StructureCount - (len(r.Differences) - shownValues); n > 0 {
		lines = append(lines, fmt.Sprintf("… and %s more", recorded.Plural(n, "structure change")))
	}
	if n := r.ValueCount - shownValues; n > 0 {
		lines = append(lines, fmt.Sprintf("… and %s more", recorded.Plural(n, "value difference")))
	}
	return lines
}

func countValues(ds []Difference) int {
	n := 0
	for _, d := range ds {
		if !d.Change.Structural() {
			n++
		}
	}
	return n
}

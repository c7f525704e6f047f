package verify

import (
	"fmt"
	"io"
	"strings"
)

// WriteText writes the result as atmkit cassette verify prints it: a line
// "  #ID name: summary", each difference shown below it, how many of each
// kind were left out, and the note of a result that is not the same.
func (r Result) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "  #%s %s: %s\n", r.Entry.Name, r.Name(), r.Summary())
	for _, d := range r.Differences {
		b.WriteString("      " + d.String() + "\n")
	}
	for _, line := range leftOut(r) {
		b.WriteString("      " + line + "\n")
	}
	if r.Note != "" && r.Verdict != Same {
		b.WriteString("      (" + r.Note + ")\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Printer prints the results of a Run as they come, in
// cassette order, as atmkit cassette verify does: a heading per cassette
// file, then each result as WriteText writes it. Set its Print as
// Options.OnResult. Results not checked are left out: the run's
// error says why.
type Printer struct {
	// W receives the text.
	W io.Writer
	// Quiet leaves out the results that are the same.
	Quiet bool
	// Heading, when set, is printed once, before the first line, so that a
	// run that cannot check prints only its error.
	Heading string

	file string // the cassette file of the last result printed
}

// Shows reports whether Print prints r: not a result not checked, nor,
// when Quiet, one that is the same.
func (p *Printer) Shows(r Result) bool {
	return r.Verdict != NotChecked && !(p.Quiet && r.Verdict == Same)
}

// Print prints one result, after the heading and the name of its cassette
// file when they have not been printed yet.
func (p *Printer) Print(r Result) {
	if !p.Shows(r) {
		return
	}
	p.PrintHeading()
	if r.File != p.file {
		p.file = r.File
		fmt.Fprintf(p.W, "%s:\n", r.File)
	}
	_ = r.WriteText(p.W)
}

// PrintHeading prints the heading if it has not been printed yet.
func (p *Printer) PrintHeading() {
	if p.Heading != "" {
		fmt.Fprintln(p.W, p.Heading)
		p.Heading = ""
	}
}

package cassettes

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
)

// junitSuites is a JUnit XML report as CI systems read it.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitProblem `xml:"failure"`
	Error     *junitProblem `xml:"error"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// WriteJUnit writes the report as JUnit XML: one test suite per cassette
// file, one test case per interaction; a drift is a failure (with its
// differences), an interaction not checked an error. Like the report, it
// holds no key.
func (r *VerifyReport) WriteJUnit(w io.Writer) error {
	values := "compared"
	if r.IgnoreValues {
		values = "ignored"
	}
	out := junitSuites{Name: "atmkit cassette verify", Time: seconds(r.Duration.Seconds())}
	suites := map[string]*junitSuite{}
	var order []string
	for _, res := range r.Results {
		s := suites[res.File]
		if s == nil {
			s = &junitSuite{Name: res.File, Properties: []junitProperty{{"upstream", r.Upstream}, {"values", values}}}
			suites[res.File] = s
			order = append(order, res.File)
		}
		c := junitCase{Name: fmt.Sprintf("#%d %s", res.ID, res.Name()), Classname: res.File, Time: seconds(res.Duration.Seconds()), SystemOut: res.Note}
		switch res.Verdict {
		case ValuesDrifted, StructureDrifted:
			var b strings.Builder
			for _, d := range res.Differences {
				b.WriteString(d.String())
				b.WriteByte('\n')
			}
			if n := res.ValueCount - countValues(res.Differences); n > 0 {
				fmt.Fprintf(&b, "… and %s more\n", plural(n, "value difference"))
			}
			c.Failure = &junitProblem{Message: res.Summary(), Type: res.Verdict.String(), Text: b.String()}
			s.Failures++
			out.Failures++
		case NotChecked:
			c.Error = &junitProblem{Message: res.Summary(), Type: res.Verdict.String()}
			s.Errors++
			out.Errors++
		}
		s.Tests++
		out.Tests++
		s.Cases = append(s.Cases, c)
	}
	for _, f := range order {
		var total float64
		for _, c := range suites[f].Cases {
			t, _ := strconv.ParseFloat(c.Time, 64)
			total += t
		}
		suites[f].Time = seconds(total)
		out.Suites = append(out.Suites, *suites[f])
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(out); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// WriteJUnitFile writes the JUnit report to path atomically (a temporary
// file in the same directory, renamed over path).
func (r *VerifyReport) WriteJUnitFile(path string) error {
	var b bytes.Buffer
	if err := r.WriteJUnit(&b); err != nil {
		return fmt.Errorf("JUnit report %s: %w", path, err)
	}
	if err := recorded.WriteAtomic(path, b.Bytes()); err != nil {
		return fmt.Errorf("JUnit report: %w", err)
	}
	return nil
}

func seconds(s float64) string { return strconv.FormatFloat(s, 'f', 3, 64) }

func countValues(ds []Difference) int {
	n := 0
	for _, d := range ds {
		if !d.Change.Structural() {
			n++
		}
	}
	return n
}

// Update rewrites every cassette in which an interaction drifted with the
// deployment's answers in place of the recorded ones (requests, and the
// mark of key rejections, stay as recorded), atomically and scrubbed like
// every cassette. It returns the files rewritten and how many answers were
// replaced. A cassette whose interactions changed since Verify read it is
// left alone with an error.
func (r *VerifyReport) Update() (files []string, replaced int, err error) {
	byFile := map[string][]VerifyResult{}
	var order []string
	for _, res := range r.Results {
		if res.Live == nil {
			continue
		}
		if byFile[res.File] == nil {
			order = append(order, res.File)
		}
		byFile[res.File] = append(byFile[res.File], res)
	}
	for _, f := range order {
		list, err := ReadFile(f)
		if err != nil {
			return files, replaced, fmt.Errorf("update: %w", err)
		}
		for _, res := range byFile[f] {
			if res.pos >= len(list) || list[res.pos].Request.Body != res.request.Body || list[res.pos].Request.URL != res.request.URL {
				return files, replaced, fmt.Errorf("update %s: the cassette changed since it was verified; verify it again", f)
			}
			list[res.pos].Response = *res.Live
		}
		if err := WriteFile(f, list); err != nil {
			return files, replaced, fmt.Errorf("update: %w", err)
		}
		files = append(files, f)
		replaced += len(byFile[f])
	}
	return files, replaced, nil
}

// WriteText writes the result as atmkit cassette verify prints it: a line
// "  #ID name: summary", each difference shown below it, how many value
// differences were left out, and the note of a result that is not the same.
func (r VerifyResult) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "  #%d %s: %s\n", r.ID, r.Name(), r.Summary())
	for _, d := range r.Differences {
		b.WriteString("      " + d.String() + "\n")
	}
	if more := r.ValueCount - countValues(r.Differences); more > 0 {
		fmt.Fprintf(&b, "      … and %s more\n", plural(more, "value difference"))
	}
	if r.Note != "" && r.Verdict != Same {
		b.WriteString("      (" + r.Note + ")\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// VerifyPrinter prints the results of a Verify run as they come, in
// cassette order, as atmkit cassette verify does: a heading per cassette
// file, then each result as WriteText writes it. Set its Print as
// VerifyOptions.OnResult. Results not checked are left out: the run's
// error says why.
type VerifyPrinter struct {
	// W receives the text.
	W io.Writer
	// Quiet leaves out the results that are the same.
	Quiet bool
	// Heading, when set, is printed once, before the first line, so that a
	// run that cannot check prints only its error.
	Heading string

	file string // the cassette file of the last result printed
}

// Print prints one result, after the heading and the name of its cassette
// file when they have not been printed yet.
func (p *VerifyPrinter) Print(r VerifyResult) {
	if r.Verdict == NotChecked || (p.Quiet && r.Verdict == Same) {
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
func (p *VerifyPrinter) PrintHeading() {
	if p.Heading != "" {
		fmt.Fprintln(p.W, p.Heading)
		p.Heading = ""
	}
}

// Summary counts the results: "12 interactions in 2 cassettes: 10 same, 1
// values drifted, 1 structure drifted (1.2s)".
func (r *VerifyReport) Summary() string {
	return fmt.Sprintf("%s in %s: %d same, %d values drifted, %d structure drifted (%s)",
		plural(len(r.Results), "interaction"), plural(len(r.Files), "cassette"), r.Count(Same),
		r.Count(ValuesDrifted), r.Count(StructureDrifted), r.Duration.Round(time.Millisecond))
}

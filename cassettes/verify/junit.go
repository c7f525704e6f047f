package verify

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/internal/atomicfile"
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
func (r *Report) WriteJUnit(w io.Writer) error {
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
		c := junitCase{Name: fmt.Sprintf("#%s %s", res.Entry.Name, res.Name()), Classname: res.File, Time: seconds(res.Duration.Seconds()), SystemOut: res.Note}
		switch res.Verdict {
		case ValuesDrifted, StructureDrifted:
			var b strings.Builder
			for _, d := range res.Differences {
				b.WriteString(d.String())
				b.WriteByte('\n')
			}
			for _, line := range leftOut(res) {
				b.WriteString(line + "\n")
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
func (r *Report) WriteJUnitFile(path string) error {
	var b bytes.Buffer
	if err := r.WriteJUnit(&b); err != nil {
		return fmt.Errorf("JUnit report %s: %w", path, err)
	}
	// Not recorded.WriteAtomic, whose errors say "write cassette".
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("JUnit report %s: %w", path, err)
	}
	if err := atomicfile.Write(path, b.Bytes(), 0o644); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && pe.Op == "write" { // it names path, or the file a link at path names
			err = pe.Err
		}
		return fmt.Errorf("JUnit report %s: %w", path, err)
	}
	return nil
}

func seconds(s float64) string { return strconv.FormatFloat(s, 'f', 3, 64) }

package conformance

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"time"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
)

// This file holds the findings of a run in its reports: the lines of the
// summary that are no failure (the query values, the request encoding, the
// Mirror it: line and the shape learn hint), which a CI job reads from the
// reports it keeps to configure the mock as the deployment is. The JUnit
// report holds them as properties of its testsuite, the JSON report as the
// report entries of a spec report of the ReportAfterSuite node that writes
// the reports (Ginkgo's Report has no place of its own for suite-level
// data; a ReportAfterSuite's entries are where Ginkgo puts what
// AddReportEntry adds at the end of a suite). Each value is the console's
// text after its label, masked for the reports (Session.maskReport).

// The names of the findings in the reports.
const (
	// FindingQueryValues is the "Query values:" line: the values the
	// searches used and where each came from; absent when no spec used
	// them.
	FindingQueryValues = "atmkit.queryValues"
	// FindingRequestEncoding is the "Request encoding:" line: how the
	// target reads a query that names no charset, and the mock's
	// --request-encoding that mirrors it.
	FindingRequestEncoding = "atmkit.requestEncoding"
	// FindingMirror is the atmkit serve command of the "Mirror it:" line,
	// alone (serveMirror.Command): the flags that mirror what the run saw
	// of the target, quoted for Config.Shell; "atmkit serve" when the
	// mock's defaults do.
	FindingMirror = "atmkit.mirror"
	// FindingMirrorNote is the rest of the "Mirror it:" line
	// (serveMirror.Note): that no flag is needed, that the namespace is
	// left out (it holds the key, or is no absolute URI) and why; absent
	// when the line says nothing more.
	FindingMirrorNote = "atmkit.mirrorNote"
	// FindingShapeHint is the line after the "Mirror it:" line, on the
	// results' shape: how to learn the deployment's with atmkit shape
	// learn; absent when the results read were in the mock's built-in
	// shape.
	FindingShapeHint = "atmkit.shapeHint"
)

// summaryNode is the text of the ReportAfterSuite node that prints the
// summary and writes the reports, and of its spec report in the JSON
// report, which holds the findings.
const summaryNode = "conformance summary"

// docFindings is the documentation section on the findings in the
// reports: their entries' location in the JSON report.
const docFindings = docSuite + "#findings-in-the-reports"

// finding is a finding, by its name in the reports (Finding*), and its
// value.
type finding struct{ name, value string }

// findings are the run's findings, in the console's order, masked for the
// reports: from what the session discovered, the preflight p and the
// serveMirror m of the run (nothing when the preflight did not end).
func (s *Session) findings(p *Preflight, m *serveMirror) []finding {
	var fs []finding
	add := func(name, value string) {
		if value != "" {
			fs = append(fs, finding{name, s.maskReport(value)})
		}
	}
	if f := s.discovered(); f != nil {
		add(FindingQueryValues, f.Summary())
	}
	if p == nil {
		return fs
	}
	if p.Encoding != nil {
		add(FindingRequestEncoding, p.Encoding.Summary())
	}
	add(FindingMirror, m.Command(s.cfg.Shell))
	add(FindingMirrorNote, m.Note())
	add(FindingShapeHint, m.ShapeHint(s.cfg.Shell, maskURL(s.base+servicePath, s.cfg.Key)))
	return fs
}

// withFindings returns rep with a spec report of the summary's
// ReportAfterSuite node holding fs as report entries, for the JSON report;
// rep itself when fs is empty.
func withFindings(rep types.Report, fs []finding) types.Report {
	if len(fs) == 0 {
		return rep
	}
	now := time.Now()
	loc := types.NewCustomCodeLocation(docFindings)
	sr := types.SpecReport{
		LeafNodeType:     types.NodeTypeReportAfterSuite,
		LeafNodeText:     summaryNode,
		LeafNodeLocation: loc,
		State:            types.SpecStatePassed,
		StartTime:        now,
		EndTime:          now,
		NumAttempts:      1,
	}
	for _, f := range fs {
		sr.ReportEntries = append(sr.ReportEntries, types.ReportEntry{
			Name:             f.name,
			Value:            types.WrapEntryValue(f.value),
			Location:         loc,
			Time:             now,
			TimelineLocation: types.TimelineLocation{Time: now},
		})
	}
	rep.SpecReports = append(slices.Clone(rep.SpecReports), sr)
	return rep
}

// addJUnitProperties adds fs as properties of the testsuite of the JUnit
// report in file, as Ginkgo's generator wrote it (and writes it again, the
// same but for them). It reads the report back even with no findings:
// Ginkgo's generator does not report its write errors, so a report cut
// short (a full disk, the file size limit) is found here, and named with
// the cause a further write meets (cutShort).
func addJUnitProperties(file string, fs []finding) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	var j reporters.JUnitTestSuites
	if err := xml.Unmarshal(b, &j); err != nil {
		return cutShort(file, len(b), err)
	}
	if len(fs) == 0 {
		return nil
	}
	for i := range j.TestSuites {
		for _, f := range fs {
			j.TestSuites[i].Properties.Properties = append(j.TestSuites[i].Properties.Properties, reporters.JUnitProperty{Name: f.name, Value: f.value})
		}
	}
	var out bytes.Buffer
	out.WriteString(xml.Header)
	enc := xml.NewEncoder(&out)
	enc.Indent("  ", "    ") // as Ginkgo's generator
	if err := enc.Encode(j); err != nil {
		return err
	}
	return os.WriteFile(file, out.Bytes(), 0o600)
}

// cutShort is the error of a JUnit report in file that Ginkgo's generator
// left unreadable (n bytes, the XML error readErr): the error a further
// write to it meets, such as "no space left on device" or "file too
// large", when one does, else that the report was cut short. Ginkgo
// ignores its own write errors, so the cause is found by writing again.
func cutShort(file string, n int, readErr error) error {
	f, err := os.OpenFile(file, os.O_WRONLY|os.O_APPEND, 0)
	if err == nil {
		// Two blocks more than the file holds: a full file system or a size
		// limit refuses it, a write that fitted before does not.
		_, err = f.Write(make([]byte, 8<<10))
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if err != nil {
		return fmt.Errorf("the JUnit report was cut short after %d bytes: %w", n, err)
	}
	return fmt.Errorf("the JUnit report was cut short after %d bytes (%v): Ginkgo's writer does not say why", n, readErr)
}

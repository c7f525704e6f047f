package conformance

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/atmkit/atmkit/mockserver"
	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"
)

// endOfRun checks h as a run does (the preflight, then the checks matching
// pattern) and ends it as Run's reporter does, the JUnit and JSON reports
// asked for: it returns the console's summary and the two files.
func endOfRun(h http.Handler, cfg Config, pattern string) (console, junit, jsonReport string) {
	GinkgoHelper()
	cfg.Target = serve(h)
	if cfg.Key == "" {
		cfg.Key = mockKey
	}
	cfg.Shell = ShellPOSIX
	s, err := NewSession(cfg)
	Expect(err).NotTo(HaveOccurred())
	_, err = s.Preflight()
	Expect(err).NotTo(HaveOccurred())
	runMatching(s, pattern)
	dir := GinkgoT().TempDir()
	junit, jsonReport = filepath.Join(dir, "conform.xml"), filepath.Join(dir, "conform.json")
	var out bytes.Buffer
	r := &reporter{out: &out, run: newSpecRun(s), junit: junit, json: jsonReport}
	now := time.Now()
	r.afterSuite(types.Report{SuiteDescription: suiteDescription, SuiteSucceeded: true, StartTime: now, EndTime: now})
	Expect(r.err).NotTo(HaveOccurred())
	return out.String(), junit, jsonReport
}

// findingsOf returns the findings of the JUnit report junit (its
// testsuite's properties named atmkit.*) and of the JSON report jsonReport
// (the entries of its ReportAfterSuite spec report), by name.
func findingsOf(junit, jsonReport string) (fromJUnit, fromJSON map[string]string) {
	GinkgoHelper()
	fromJUnit, fromJSON = map[string]string{}, map[string]string{}
	b, err := os.ReadFile(junit)
	Expect(err).NotTo(HaveOccurred())
	var j reporters.JUnitTestSuites
	Expect(xml.Unmarshal(b, &j)).To(Succeed())
	Expect(j.TestSuites).To(HaveLen(1))
	for _, p := range j.TestSuites[0].Properties.Properties {
		if strings.HasPrefix(p.Name, "atmkit.") {
			fromJUnit[p.Name] = p.Value
		}
	}
	b, err = os.ReadFile(jsonReport)
	Expect(err).NotTo(HaveOccurred())
	var reps []types.Report
	Expect(json.Unmarshal(b, &reps)).To(Succeed())
	Expect(reps).To(HaveLen(1))
	for _, sr := range reps[0].SpecReports {
		if sr.LeafNodeType != types.NodeTypeReportAfterSuite {
			continue
		}
		for _, e := range sr.ReportEntries {
			if strings.HasPrefix(e.Name, "atmkit.") {
				fromJSON[e.Name] = e.Value.String()
			}
		}
	}
	return fromJUnit, fromJSON
}

// summaryLine returns the text after prefix of the console's line that
// starts with it; empty when there is none.
func summaryLine(console, prefix string) string {
	for _, l := range strings.Split(console, "\n") {
		if rest, ok := strings.CutPrefix(l, prefix); ok {
			return rest
		}
	}
	return ""
}

var _ = Describe("the findings in the reports", Label("selftest"), func() {
	It("are the summary's lines that are no failure, as the console writes them", func() {
		mock, err := newSelfTestMock(mockserver.WithRequestEncoding("windows-1252"), mockserver.WithJSONErrors("ajax"))
		Expect(err).NotTo(HaveOccurred())
		console, junit, jsonReport := endOfRun(mock, Config{}, "fault/json/*")
		want := map[string]string{
			"atmkit.mirror":          "atmkit serve --request-encoding windows-1252 --json-errors ajax",
			"atmkit.requestEncoding": "windows-1252 (a query's %A4 read as ¤, %E9 as é, %80 as €); serve the mock with --request-encoding windows-1252",
		}
		Expect(summaryLine(console, "Mirror it: ")).To(Equal(want["atmkit.mirror"]))
		Expect(summaryLine(console, "Request encoding: ")).To(Equal(want["atmkit.requestEncoding"]))
		if v := summaryLine(console, "Query values: "); v != "" {
			want["atmkit.queryValues"] = v
		}
		fromJUnit, fromJSON := findingsOf(junit, jsonReport)
		Expect(fromJUnit).To(Equal(want))
		Expect(fromJSON).To(Equal(want))
	})

	It("hold the shape learn hint and the Mirror it: line's remark", func() {
		console, junit, jsonReport := endOfRun(shaped(typedShape()), Config{}, "semantics/*")
		hint := summaryLine(console, "Its results are not in the mock's built-in shape (")
		Expect(hint).NotTo(BeEmpty(), "the console has no shape learn hint:\n%s", console)
		fromJUnit, fromJSON := findingsOf(junit, jsonReport)
		for _, f := range []map[string]string{fromJUnit, fromJSON} {
			Expect(f).To(HaveKeyWithValue("atmkit.shapeHint", "Its results are not in the mock's built-in shape ("+hint))
			Expect(f).To(HaveKeyWithValue("atmkit.mirror", "atmkit serve"))
			Expect(f).To(HaveKeyWithValue("atmkit.mirrorNote", "no flag: the mock's defaults mirror what this run saw of it, but for the results' shape, below"))
			Expect(f).To(HaveKeyWithValue("atmkit.queryValues", summaryLine(console, "Query values: ")))
		}
	})

	It("leave out a namespace holding the key, saying so, and hold no key", func() {
		mock, err := newSelfTestMock(mockserver.WithNamespace("http://example.org/" + mockKey))
		Expect(err).NotTo(HaveOccurred())
		console, junit, jsonReport := endOfRun(mock, Config{}, "fault/json/*")
		Expect(summaryLine(console, "Mirror it: ")).To(Equal("atmkit serve (no flag: the mock's defaults mirror what this run saw of it); its namespace holds the service key or a --header value and is left out: give --namespace yourself"))
		fromJUnit, fromJSON := findingsOf(junit, jsonReport)
		for _, f := range []map[string]string{fromJUnit, fromJSON} {
			Expect(f).To(HaveKeyWithValue("atmkit.mirror", "atmkit serve"))
			Expect(f).To(HaveKeyWithValue("atmkit.mirrorNote", "no flag: the mock's defaults mirror what this run saw of it; its namespace holds the service key or a --header value and is left out: give --namespace yourself"))
		}
		for _, file := range []string{junit, jsonReport} {
			b, err := os.ReadFile(file)
			Expect(err).NotTo(HaveOccurred())
			expectNoKey(string(b), mockKey)
		}
	})

	It("mask the secrets given (header values) as the key, wherever the target repeats them", func() {
		const secret = "Gateway-Secret-4242"
		mock, err := newSelfTestMock(mockserver.WithNamespace("http://example.org/" + secret))
		Expect(err).NotTo(HaveOccurred())
		_, junit, jsonReport := endOfRun(mock, Config{Secrets: []string{secret}}, "fault/json/*")
		fromJUnit, fromJSON := findingsOf(junit, jsonReport)
		for _, f := range []map[string]string{fromJUnit, fromJSON} {
			// Left out, as one holding the key: "--namespace
			// http://example.org/Ga****" would be a wrong command.
			Expect(f).To(HaveKeyWithValue("atmkit.mirror", "atmkit serve"))
			Expect(f).To(HaveKeyWithValue("atmkit.mirrorNote", ContainSubstring("holds the service key or a --header value and is left out")))
		}
		for _, file := range []string{junit, jsonReport} {
			b, err := os.ReadFile(file)
			Expect(err).NotTo(HaveOccurred())
			expectNoKey(string(b), secret)
		}
	})

	It("leave the rest of Ginkgo's JUnit report as it wrote it", func() {
		now := time.Now()
		loc := types.NewCustomCodeLocation(docSuite)
		rep := types.Report{SuiteDescription: suiteDescription, SuitePath: "http://h", StartTime: now, EndTime: now, SpecialSuiteFailureReasons: []string{"a\nb"},
			SpecReports: types.SpecReports{
				{LeafNodeType: types.NodeTypeIt, LeafNodeText: "x <&> \"q\"\r\n\ttab", LeafNodeLocation: loc, State: types.SpecStateFailed,
					Failure: types.Failure{Message: "line1\nline2 <x> & ]]> \"", Location: loc}, CapturedStdOutErr: "out\n\n  spaced  \n",
					ReportEntries: types.ReportEntries{{Name: "note", Value: types.WrapEntryValue("n\n<v>")}}},
				{LeafNodeType: types.NodeTypeIt, LeafNodeText: "s", State: types.SpecStateSkipped, Failure: types.Failure{Message: "why"}},
				{LeafNodeType: types.NodeTypeIt, LeafNodeText: "p", State: types.SpecStatePassed},
			}}
		file := filepath.Join(GinkgoT().TempDir(), "conform.xml")
		Expect(reporters.GenerateJUnitReport(rep, file)).To(Succeed())
		before, err := os.ReadFile(file)
		Expect(err).NotTo(HaveOccurred())
		Expect(addJUnitProperties(file, []finding{{FindingMirror, "atmkit serve --namespace 'urn:a&b'"}})).To(Succeed())
		after, err := os.ReadFile(file)
		Expect(err).NotTo(HaveOccurred())
		last := `<property name="OutputInterceptorMode" value=""></property>`
		Expect(string(before)).To(ContainSubstring(last))
		Expect(string(after)).To(Equal(strings.Replace(string(before), last, last+"\n"+`              <property name="atmkit.mirror" value="atmkit serve --namespace &#39;urn:a&amp;b&#39;"></property>`, 1)))
	})
})

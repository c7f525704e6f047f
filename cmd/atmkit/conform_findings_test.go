package main

import (
	"encoding/json"
	"encoding/xml"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/mockserver"
)

// reportFindings are the findings a conform run's reports hold, by name:
// the JUnit report's testsuite properties named atmkit.*, and the report
// entries of the JSON report's ReportAfterSuite spec report.
type reportFindings struct {
	junit, json map[string]string
}

// readFindings reads the findings of the JUnit report junit and the JSON
// report jsonReport.
func readFindings(t *testing.T, junit, jsonReport string) reportFindings {
	t.Helper()
	f := reportFindings{junit: map[string]string{}, json: map[string]string{}}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	var j struct {
		Suites []struct {
			Properties []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b, &j); err != nil || len(j.Suites) != 1 {
		t.Fatalf("JUnit report: %v, %d test suites", err, len(j.Suites))
	}
	for _, p := range j.Suites[0].Properties {
		if strings.HasPrefix(p.Name, "atmkit.") {
			f.junit[p.Name] = p.Value
		}
	}
	if b, err = os.ReadFile(jsonReport); err != nil {
		t.Fatal(err)
	}
	var r []struct {
		SpecReports []struct {
			LeafNodeType  string
			ReportEntries []struct {
				Name  string
				Value struct{ Representation string }
			}
		}
	}
	if err := json.Unmarshal(b, &r); err != nil || len(r) != 1 {
		t.Fatalf("JSON report: %v, %d reports", err, len(r))
	}
	for _, sr := range r[0].SpecReports {
		if sr.LeafNodeType != "ReportAfterSuite" {
			continue
		}
		for _, e := range sr.ReportEntries {
			if strings.HasPrefix(e.Name, "atmkit.") {
				f.json[e.Name] = e.Value.Representation
			}
		}
	}
	return f
}

// consoleLine returns the text after prefix of the output's line starting
// with it, and whether there is one.
func consoleLine(out, prefix string) (string, bool) {
	for _, l := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(l, prefix); ok {
			return rest, true
		}
	}
	return "", false
}

// TestConformReportsHoldTheFindings: the lines of the summary that are no
// failure (the query values, the request encoding, the Mirror it: line)
// are in the JUnit report's testsuite properties and the JSON report's
// ReportAfterSuite entries, as the console says them.
func TestConformReportsHoldTheFindings(t *testing.T) {
	t.Parallel()
	target := startMock(t, "k1", nil, mockserver.WithRequestEncoding("windows-1252"), mockserver.WithJSONErrors("ajax"))
	dir := t.TempDir()
	junit, jsonReport := filepath.Join(dir, "conform.xml"), filepath.Join(dir, "conform.json")
	_, out := runConformProcessEnv(t, []string{"ATMKIT_SHELL=posix"}, "--target", target, "--key", "k1",
		"--label-filter", "json || (semantics && get)", "--junit-report", junit, "--json-report", jsonReport)
	f := readFindings(t, junit, jsonReport)
	want := map[string]string{
		"atmkit.mirror":          "atmkit serve --request-encoding windows-1252 --json-errors ajax",
		"atmkit.requestEncoding": "windows-1252 (a query's %A4 read as ¤, %E9 as é, %80 as €); serve the mock with --request-encoding windows-1252",
	}
	if l := mirrorLine(t, out); l != "Mirror it: "+want["atmkit.mirror"] {
		t.Fatalf("the console's Mirror it: line is %q; this test wants %q", l, "Mirror it: "+want["atmkit.mirror"])
	}
	values, ok := consoleLine(out, "Query values: ")
	if !ok {
		t.Fatalf("no Query values: line in the output:\n%s", out)
	}
	want["atmkit.queryValues"] = values
	for name, report := range map[string]map[string]string{"JUnit": f.junit, "JSON": f.json} {
		for k, v := range want {
			if report[k] != v {
				t.Errorf("the %s report's %s is %q, want %q", name, k, report[k], v)
			}
		}
		// Nothing more: no note on a line without one, no shape hint
		// when the results read were in the built-in shape.
		if len(report) != len(want) {
			t.Errorf("the %s report's findings are %q, want %q", name, report, want)
		}
	}
}

// TestConformReportsHideTheKey: a namespace holding the key is left out of
// the reports' atmkit serve line, which they say, as the console does; the
// key is in neither report.
func TestConformReportsHideTheKey(t *testing.T) {
	t.Parallel()
	const key = "Mirror-Key-5150"
	target := startMock(t, key, nil, mockserver.WithNamespace("http://example.org/"+key), mockserver.WithRequestEncoding("iso-8859-1"))
	dir := t.TempDir()
	junit, jsonReport := filepath.Join(dir, "conform.xml"), filepath.Join(dir, "conform.json")
	_, out := runConformProcessEnv(t, []string{"ATMKIT_SHELL=posix"}, "--target", target, "--key", key,
		"--label-filter", "json", "--junit-report", junit, "--json-report", jsonReport)
	f := readFindings(t, junit, jsonReport)
	want := map[string]string{
		"atmkit.mirror":     "atmkit serve --request-encoding iso-8859-1",
		"atmkit.mirrorNote": "its namespace holds the service key or a --header value and is left out: give --namespace yourself",
	}
	for name, report := range map[string]map[string]string{"JUnit": f.junit, "JSON": f.json} {
		for k, v := range want {
			if report[k] != v {
				t.Errorf("the %s report's %s is %q, want %q", name, k, report[k], v)
			}
		}
	}
	checkNoKey(t, key, out, junit, jsonReport)
}

// TestConformReportsHideHeaderValues: a --header value a target repeats
// (in an error answer the failures quote) is masked in the reports as on
// the console; a namespace holding one is left out of the Mirror it:
// command, as one holding the key (it was given masked, a wrong command).
func TestConformReportsHideHeaderValues(t *testing.T) {
	t.Parallel()
	const secret = "Gateway-Secret-4242"
	echo := hostile(func(r *http.Request) bool {
		return jsonCall(r) && strings.HasSuffix(r.URL.Path, "/ReturnAtmSearchByAddress")
	},
		func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "gateway: refused X-Gateway-Key "+r.Header.Get("X-Gateway-Key"), http.StatusInternalServerError)
		})
	target := startMock(t, "k1", echo, mockserver.WithNamespace("http://example.org/"+secret))
	dir := t.TempDir()
	junit, jsonReport := filepath.Join(dir, "conform.xml"), filepath.Join(dir, "conform.json")
	code, out := runConformProcessEnv(t, []string{"ATMKIT_SHELL=posix"}, "--target", target, "--key", "k1",
		"--header", "X-Gateway-Key: "+secret, "--label-filter", "json", "--junit-report", junit, "--json-report", jsonReport)
	if code != exitFailure || !strings.Contains(out, "gateway: refused X-Gateway-Key Ga****") {
		t.Fatalf("exit code %d, want %d, the echo quoted masked; output:\n%s", code, exitFailure, out)
	}
	f := readFindings(t, junit, jsonReport)
	for name, report := range map[string]map[string]string{"JUnit": f.junit, "JSON": f.json} {
		// Left out, as a namespace holding the key: the masked one
		// ("--namespace http://example.org/Ga****") is a wrong command.
		if got, want := report["atmkit.mirror"], "atmkit serve"; got != want {
			t.Errorf("the %s report's atmkit.mirror is %q, want %q, as the console: %q", name, got, want, mirrorLine(t, out))
		}
		if got := report["atmkit.mirrorNote"]; !strings.Contains(got, "its namespace holds the service key or a --header value and is left out") {
			t.Errorf("the %s report's atmkit.mirrorNote is %q, want it to say the namespace is left out", name, got)
		}
	}
	checkNoKey(t, secret, out, junit, jsonReport)
}

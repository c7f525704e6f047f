package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/conformance"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
)

// The conformance suite can run once per process (a Ginkgo rule), so the
// tests that run it start this test binary again as `atmkit conform`.
const conformHelperEnv = "ATMKIT_CONFORM_HELPER_ARGS"

func TestConformHelperProcess(t *testing.T) {
	raw := os.Getenv(conformHelperEnv)
	if raw == "" {
		t.Skip("helper process for the conform tests")
	}
	var args []string
	if err := json.Unmarshal([]byte(raw), &args); err != nil {
		t.Fatal(err)
	}
	_ = os.Unsetenv(conformHelperEnv) // atmkit would warn that no command reads it
	m := NewMain()
	os.Exit(m.Exit(m.Run(context.Background(), append([]string{"conform"}, args...))))
}

// runConformProcess runs `atmkit conform args...` in a child process and
// returns its exit code and output.
func runConformProcess(t *testing.T, args ...string) (int, string) {
	t.Helper()
	return runConformProcessEnv(t, nil, args...)
}

// runConformProcessEnv is runConformProcess with variables (NAME=value)
// added to the child's environment.
func runConformProcessEnv(t *testing.T, env []string, args ...string) (int, string) {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestConformHelperProcess$")
	cmd.Env = append(append(os.Environ(), env...), conformHelperEnv+"="+string(raw))
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, out.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), out.String()
	}
	t.Fatalf("running the helper: %v", err)
	return 0, ""
}

// smallDataset is the data set of the mocks the conform and verify tests
// start: 200 generated ATMs, enough for every spec to find what it looks
// for, with answers a tenth the size of the embedded set's. These tests
// check what the commands report; the conformance package checks the mock
// with its embedded set.
var smallDataset = sync.OnceValues(func() (*fixtures.Dataset, error) {
	return fixtures.Generate(fixtures.GenerateOptions{Seed: 1, ATMs: 200})
})

// smallFixtures holds smallDataset saved as a data set directory, for
// atmkit serve --fixtures; TestMain removes it.
var smallFixtures struct {
	once sync.Once
	dir  string
	err  error
}

// smallFixturesDir returns the directory of smallFixtures, saving it on
// first use.
func smallFixturesDir(t *testing.T) string {
	t.Helper()
	smallFixtures.once.Do(func() {
		ds, err := smallDataset()
		if err != nil {
			smallFixtures.err = err
			return
		}
		if smallFixtures.dir, smallFixtures.err = os.MkdirTemp("", "atmkit-test-fixtures-"); smallFixtures.err == nil {
			smallFixtures.err = fixtures.Save(smallFixtures.dir, ds)
		}
	})
	if smallFixtures.err != nil {
		t.Fatalf("small data set: %v", smallFixtures.err)
	}
	return smallFixtures.dir
}

// withSmallDataset is the option that serves smallDataset.
func withSmallDataset(t *testing.T) mockserver.Option {
	t.Helper()
	ds, err := smallDataset()
	if err != nil {
		t.Fatal(err)
	}
	return mockserver.WithDataset(ds)
}

// startMock serves the mock on smallDataset, accepting key, wrapped as wrap
// says, until t ends.
func startMock(t *testing.T, key string, wrap func(http.Handler) http.Handler, opts ...mockserver.Option) string {
	t.Helper()
	var h http.Handler
	h, err := mockserver.New(append([]mockserver.Option{withSmallDataset(t), mockserver.WithKeys(key)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// junitSuites is the part of a JUnit report the tests read.
type junitSuites struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Suites   []struct {
		Skipped int `xml:"skipped,attr"`
		Cases   []struct {
			Name    string    `xml:"name,attr"`
			Failure *struct{} `xml:"failure"`
			Error   *struct {
				Type string `xml:"type,attr"`
			} `xml:"error"`
			Skipped *struct {
				Message string `xml:"message,attr"`
			} `xml:"skipped"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func readJUnit(t *testing.T, file string) junitSuites {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var j junitSuites
	if err := xml.Unmarshal(b, &j); err != nil {
		t.Fatalf("JUnit report is not valid XML: %v", err)
	}
	return j
}

func TestConformPassesTheMock(t *testing.T) {
	t.Parallel()
	target := startMock(t, "k1", nil)
	dir := t.TempDir()
	junit, jsonReport := filepath.Join(dir, "conform.xml"), filepath.Join(dir, "conform.json")
	code, out := runConformProcess(t, "--target", target, "--key", "k1", "--junit-report", junit, "--json-report", jsonReport)
	if code != 0 {
		t.Fatalf("exit code %d, want 0; output:\n%s", code, out)
	}
	if !strings.Contains(out, "SUCCESS!") {
		t.Errorf("output lacks Ginkgo's summary:\n%s", out)
	}
	j := readJUnit(t, junit)
	cases := 0
	for _, s := range j.Suites {
		for _, c := range s.Cases {
			if !strings.HasPrefix(c.Name, "[BeforeSuite]") && !strings.HasPrefix(c.Name, "[AfterSuite]") {
				cases++
			}
			if c.Failure != nil {
				t.Errorf("test case %q failed", c.Name)
			}
		}
	}
	if cases < 70 {
		t.Errorf("JUnit report has %d test cases, want one per spec (over 70)", cases)
	}
	// The console and the JUnit report count alike, and say why specs were
	// skipped (the shape specs, without --shape); the verdict comes last.
	counts := regexp.MustCompile(`\nRan (\d+) of (\d+) specs in [0-9.]+ seconds\nSUCCESS! -- (\d+) Passed \| 0 Failed \| (\d+) Skipped: (\d+) need --shape FILE\n$`).FindStringSubmatch(out)
	if counts == nil {
		t.Fatalf("the output does not end with the counts and the verdict, the skipped specs' reason given:\n%s", out)
	}
	ran, total, passed, skipped, needShape := atoi(t, counts[1]), atoi(t, counts[2]), atoi(t, counts[3]), atoi(t, counts[4]), atoi(t, counts[5])
	if ran != passed || ran+skipped != total || needShape != skipped || skipped == 0 {
		t.Errorf("console: ran %d of %d, %d passed, %d skipped (%d need --shape): the counts do not add up", ran, total, passed, skipped, needShape)
	}
	junitSkipped := 0
	for _, s := range j.Suites {
		junitSkipped += s.Skipped
		for _, c := range s.Cases {
			if c.Skipped != nil && !strings.Contains(c.Skipped.Message, "needs --shape FILE") {
				t.Errorf("JUnit: %s is skipped with %q, want the reason: needs --shape FILE", c.Name, c.Skipped.Message)
			}
		}
	}
	if j.Tests != total || junitSkipped != skipped || j.Failures != 0 {
		t.Errorf("JUnit: %d tests, %d skipped, %d failures; console: %d specs, %d skipped, 0 failed", j.Tests, junitSkipped, j.Failures, total, skipped)
	}
	// The specs' notes are in the reports and behind --verbose, counted here.
	if strings.Contains(out, "Notes:") || !regexp.MustCompile(`\n\d+ notes on \d+ specs \(--verbose prints them`).MatchString(out) {
		t.Errorf("the output lists the notes instead of counting them:\n%s", out)
	}
	var report []map[string]any
	if b, err := os.ReadFile(jsonReport); err != nil || json.Unmarshal(b, &report) != nil || len(report) != 1 {
		t.Errorf("JSON report missing or invalid: %v", err)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// serveAs answers r as h does, but with the Content-Type ct.
func serveAs(w http.ResponseWriter, r *http.Request, h http.Handler, ct string) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	for k, v := range rec.Header() {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Type", ct)
	w.WriteHeader(rec.Code)
	_, _ = w.Write(rec.Body.Bytes())
}

func TestConformFailsADeviatingTarget(t *testing.T) {
	t.Parallel()
	// The mock, answering HTTP GET with the wrong content type.
	target := startMock(t, "k1", func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && strings.Contains(r.URL.Path, ".asmx/") {
				serveAs(w, r, h, "application/xml")
				return
			}
			h.ServeHTTP(w, r)
		})
	})
	junit := filepath.Join(t.TempDir(), "conform.xml")
	code, out := runConformProcess(t, "--target", target, "--key", "k1", "--label-filter", "get && documented", "--junit-report", junit)
	if code != 1 {
		t.Fatalf("exit code %d, want 1; output:\n%s", code, out)
	}
	for _, want := range []string{
		"content type", "expected: text/xml; charset=utf-8", `got:      "application/xml"`, "reproduce: curl ", "FAIL!",
		// Grouped by cause, each spec with its documentation section.
		"specs: content type: expected text/xml; charset=utf-8",
		"- binding/get/ReturnAllAtms: ReturnAllAtms over get answers 200 text/xml with the bare XML result (docs/conformance.md#binding-specs)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, ".go:") {
		t.Errorf("output names a source line:\n%s", out)
	}
	if j := readJUnit(t, junit); j.Failures == 0 {
		t.Errorf("JUnit report counts no failures")
	}
}

func TestConformRequestEncoding(t *testing.T) {
	t.Parallel()
	// A deployment reading queries in windows-1252: the summary names the
	// flag that makes the mock read them alike, after the query values and
	// before the counts.
	target := startMock(t, "k1", nil, mockserver.WithRequestEncoding("windows-1252"))
	code, out := runConformProcess(t, "--target", target, "--key", "k1", "--label-filter", "semantics && get")
	if code != 0 {
		t.Fatalf("exit code %d, want 0; output:\n%s", code, out)
	}
	line := "\nRequest encoding: windows-1252 (a query's %A4 read as ¤, %E9 as é, %80 as €); serve the mock with --request-encoding windows-1252\n"
	at, values, counts := strings.Index(out, line), strings.Index(out, "\nQuery values: "), strings.Index(out, "\nRan ")
	if at < 0 || values < 0 || counts < 0 || !(values < at && at < counts) {
		t.Errorf("output lacks %q between the query values and the counts:\n%s", line, out)
	}
}

func TestConformGivenValues(t *testing.T) {
	t.Parallel()
	// Values from flags and from ATMKIT_* (the flag winning for --radius).
	target := startMock(t, "k1", nil)
	jsonReport := filepath.Join(t.TempDir(), "conform.json")
	code, out := runConformProcessEnv(t, []string{"ATMKIT_MAXIMUM=2", "ATMKIT_RADIUS=50"},
		"--target", target, "--key", "k1", "--json-report", jsonReport,
		"--latitude", "44.6488", "--longitude", "-63.5752", "--institution-id", "3", "--radius", "7")
	if code != 0 {
		t.Fatalf("exit code %d, want 0; output:\n%s", code, out)
	}
	for _, want := range []string{
		"SUCCESS!",
		"Query values: dblLatitude 44.6488, dblLongitude -63.5752 (given); strAddress ",
		"intInstitutionID 3, bytRadius 7, intMaximumAtms 2 (given)",
		"(found by probing intCityID",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The semantic specs note the values they used in the report.
	b, err := os.ReadFile(jsonReport)
	if err != nil {
		t.Fatal(err)
	}
	var report []struct {
		SpecReports []struct {
			LeafNodeText  string
			ReportEntries []struct {
				Value struct{ Representation string }
			}
		}
	}
	if err := json.Unmarshal(b, &report); err != nil || len(report) != 1 {
		t.Fatalf("JSON report: %v", err)
	}
	notes := map[string]string{}
	for _, r := range report[0].SpecReports {
		for _, e := range r.ReportEntries {
			notes[r.LeafNodeText] += e.Value.Representation + "\n"
		}
	}
	for spec, want := range map[string]string{
		"ReturnAtmSearchByCoordinates gives locations within bytRadius of the point, the nearest ATM included when within it": "dblLatitude 44.6488, dblLongitude -63.5752, bytRadius 7 (given)",
		"ReturnAtmSearchByInstitution gives only, and some of, that institution's locations":                                  "intInstitutionID 3 (given)",
	} {
		if !strings.Contains(notes[spec], want) {
			t.Errorf("the report's notes of %q lack %q; notes: %q", spec, want, notes)
		}
	}
}

func TestConformCommandLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		code int
		says string
	}{
		{"help", []string{"--help"}, nil, exitOK, "atmkit conform --target"},
		{"no target", []string{"--key", "k"}, nil, exitUsage, "--target is required"},
		{"no key", []string{"--target", "http://127.0.0.1:1"}, nil, exitUsage, "--key is required"},
		{"bad city", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--city-id", "x"}, nil, exitUsage, "not an integer"},
		{"bad unit", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--radius-unit", "ly"}, nil, exitUsage, "--radius-unit ly: want km, mi or unknown"},
		{"bad unit from the environment", []string{"--target", "http://127.0.0.1:1", "--key", "k"}, map[string]string{"ATMKIT_RADIUS_UNIT": "ly"}, exitUsage, `ATMKIT_RADIUS_UNIT="ly": want km, mi or unknown (--radius-unit)`},
		{"bad city id from the environment", []string{"--target", "http://127.0.0.1:1", "--key", "k"}, map[string]string{"ATMKIT_CITY_ID": "3,x"}, exitUsage, `ATMKIT_CITY_ID="3,x": "x" is not an integer (--city-id)`},
		{"bad filter", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--label-filter", "soap11 &&"}, nil, exitUsage, `--label-filter "soap11 &&": Syntax Error Parsing Label Filter`},
		{"extra argument", []string{"--target", "http://127.0.0.1:1", "--key", "k", "now"}, nil, exitUsage, "unexpected argument"},
		{"target from env, key missing", nil, map[string]string{"ATMKIT_TARGET": "http://127.0.0.1:1"}, exitUsage, "--key is required"},
		{"latitude out of range", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--latitude", "91", "--longitude", "0"}, nil, exitUsage, "--latitude (or ATMKIT_LATITUDE): 91 is not within -90..90"},
		{"latitude not a number", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--latitude", "north", "--longitude", "0"}, nil, exitUsage, `--latitude (or ATMKIT_LATITUDE): "north" is not a number`},
		{"longitude out of range", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--latitude", "44", "--longitude", "-180.5"}, nil, exitUsage, "--longitude (or ATMKIT_LONGITUDE): -180.5 is not within -180..180"},
		{"latitude alone", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--latitude", "44"}, nil, exitUsage, "--latitude and --longitude must be given together"},
		{"longitude alone from env", []string{"--target", "http://127.0.0.1:1", "--key", "k"}, map[string]string{"ATMKIT_LONGITUDE": "-63"}, exitUsage, "--latitude and --longitude must be given together"},
		{"radius out of range", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--radius", "256"}, nil, exitUsage, "--radius (or ATMKIT_RADIUS): 256 is not within 0..255"},
		{"radius negative", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--radius", "-1"}, nil, exitUsage, "--radius (or ATMKIT_RADIUS): -1 is not within 0..255"},
		{"radius from env not an integer", []string{"--target", "http://127.0.0.1:1", "--key", "k"}, map[string]string{"ATMKIT_RADIUS": "ten"}, exitUsage, `--radius (or ATMKIT_RADIUS): "ten" is not a 32-bit integer`},
		{"maximum negative", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--maximum", "-2"}, nil, exitUsage, "--maximum (or ATMKIT_MAXIMUM): -2 is not within"},
		{"institution not an integer", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--institution-id", "RBC"}, nil, exitUsage, `--institution-id (or ATMKIT_INSTITUTION_ID): "RBC" is not a 32-bit integer`},
		{"timeout zero", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--timeout", "0s"}, nil, exitUsage, "--timeout (or ATMKIT_TIMEOUT) must be positive"},
		{"timeout not a duration", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--timeout", "soon"}, nil, exitUsage, "not a duration"},
		{"timeout from env not a duration", []string{"--target", "http://127.0.0.1:1", "--key", "k"}, map[string]string{"ATMKIT_TIMEOUT": "30"}, exitUsage, `ATMKIT_TIMEOUT="30"`},
		{"help names the exit codes and --timeout", []string{"--help"}, nil, exitOK, "2: could not check"},
		{"target with a query", []string{"--target", "http://127.0.0.1:1/?strAtmServiceKey=secret-key-99", "--key", "secret-key-99"}, nil, exitUsage, "--target http://127.0.0.1:1/?strAtmServiceKey=se****: want the service's base URL, without a query or fragment"},
		{"target with a fragment", []string{"--target", "http://127.0.0.1:1/#top", "--key", "k"}, nil, exitUsage, "without a query or fragment"},
		// An empty one is in no field of the parsed URL: it was taken,
		// and the calls went to http://127.0.0.1:1/#/service/service.asmx.
		{"target with an empty fragment", []string{"--target", "http://127.0.0.1:1/#", "--key", "k"}, nil, exitUsage, "--target http://127.0.0.1:1/#: want the service's base URL, without a query or fragment"},
		{"a password in the target", []string{"--target", strings.Replace(mocktest.ClosedPort(t), "://", "://user:pass-word-987@", 1), "--key", "k"}, nil, exitUsage, "connection refused at http://user:xxxxx@127.0.0.1:"},
		{"a password in a target of another scheme", []string{"--target", "ftp://user:pass-word-987@127.0.0.1:1", "--key", "k"}, nil, exitUsage, `target "ftp://user:xxxxx@127.0.0.1:1" is not an http(s) URL`},
		{"report a directory", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--junit-report", os.TempDir()}, nil, exitUsage, "--junit-report " + os.TempDir() + ": a directory; want a file name"},
		{"report ending in a slash", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--json-report", "reports/"}, nil, exitUsage, "--json-report reports/: a directory; want a file name"},
		{"latitude from env out of range", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--longitude", "0"}, map[string]string{"ATMKIT_LATITUDE": "-90.01"}, exitUsage, "--latitude (or ATMKIT_LATITUDE): -90.01 is not within -90..90"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runAtmkit(tc.env, append([]string{"conform"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tc.code, stderr)
			}
			got := stdout + stderr
			if !strings.Contains(got, tc.says) {
				t.Errorf("output lacks %q:\n%s", tc.says, got)
			}
			if strings.Contains(got, "\x1b") {
				t.Errorf("output holds terminal escapes:\n%q", got)
			}
			for _, secret := range []string{"pass-word-987", "secret-key-99"} {
				if strings.Contains(got, secret) {
					t.Errorf("output holds %q:\n%s", secret, got)
				}
			}
		})
	}
}

// keyForms are the ways a key can be written into a text: as it is, URL-
// encoded, XML-escaped.
func keyForms(key string) []string {
	return []string{key, url.QueryEscape(key), html.EscapeString(key)}
}

// silentTarget accepts connections, reads what comes and never answers; it
// counts the connections.
func silentTarget(t *testing.T) (string, *atomic.Int32) {
	t.Helper()
	u, n, stop, err := mocktest.Listen(func(c net.Conn) { _, _ = io.Copy(io.Discard, c) })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	return u, n
}

// checkNoKey fails t when the key, in any form, is in the output or in a
// report file that exists.
func checkNoKey(t *testing.T, key, out string, files ...string) {
	t.Helper()
	texts := map[string]string{"output": out}
	for _, f := range files {
		if b, err := os.ReadFile(f); err == nil {
			texts[filepath.Base(f)] = string(b)
		}
	}
	for name, text := range texts {
		for _, form := range keyForms(key) {
			if n := strings.Count(text, form); n > 0 {
				t.Errorf("%s holds the key (%q) %d times", name, form, n)
			}
		}
		if strings.Contains(text, "suite.go") || strings.Contains(text, "/conformance/") {
			t.Errorf("%s names atmkit's source", name)
		}
	}
}

func TestConformNeverWritesTheKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		target func(t *testing.T) (string, *atomic.Int32)
		args   []string
		code   int
		says   []string
		calls  int32 // connections the target must have seen; 0: not counted
		report bool  // whether the reports are written
	}{
		{
			name: "a deployment that drops one operation",
			target: func(t *testing.T) (string, *atomic.Int32) {
				return startMock(t, leakKey, nil, mockserver.WithFault(mockserver.Fault{Operation: "ReturnInstitutions", Drop: true})), nil
			},
			code: exitFailure, report: true,
			says: []string{
				"Preflight: http://127.0.0.1:",
				" specs: the target closed the connection without an answer (EOF)",
				"- binding/get/ReturnInstitutions: ReturnInstitutions over get answers 200 text/xml with the bare XML result (docs/conformance.md#binding-specs)",
				"- equivalence/ReturnInstitutions: ReturnInstitutions gives the same XML result over soap11, soap12, get and post",
				`reproduce: curl -sS -i `,
				" Failed | 32 Skipped: 32 need --shape FILE",
			},
		},
		{
			name: "a deployment that drops every call",
			target: func(t *testing.T) (string, *atomic.Int32) {
				return startMock(t, leakKey, nil, mockserver.WithFault(mockserver.Fault{Drop: true})), nil
			},
			code: exitUsage,
			says: []string{"could not check the target: http://127.0.0.1:", "/service/service.asmx closed the connection without an answer to ReturnProvinces over get"},
		},
		{
			name:   "a closed port",
			target: func(t *testing.T) (string, *atomic.Int32) { return closedPort(t), nil },
			code:   exitUsage,
			says:   []string{"could not check the target: connection refused at http://127.0.0.1:", "Is the service running"},
		},
		{
			name:   "a refused key",
			target: func(t *testing.T) (string, *atomic.Int32) { return startMock(t, "another-key", nil), nil },
			code:   exitUsage,
			says:   []string{"could not check the target: the key was refused.", "soap11 answered 500 ", `The service key (strAtmServiceKey) is not valid."`, "Check --key"},
		},
		{
			name:   "a target that never answers",
			target: silentTarget,
			args:   []string{"--timeout", "200ms"},
			code:   exitUsage, calls: 1,
			says: []string{"could not check the target: no answer from http://127.0.0.1:", "within 200ms (--timeout)", "raise --timeout"},
		},
		{
			name: "TLS with a certificate of an unknown authority",
			target: func(t *testing.T) (string, *atomic.Int32) {
				h, err := mockserver.New(withSmallDataset(t), mockserver.WithKeys(leakKey))
				if err != nil {
					t.Fatal(err)
				}
				srv := httptest.NewTLSServer(h)
				t.Cleanup(srv.Close)
				return srv.URL, nil
			},
			code: exitUsage,
			says: []string{"could not check the target: TLS failure with https://127.0.0.1:", "is self-signed, an authority not trusted here", "--ca-cert FILE"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			target, calls := tc.target(t)
			dir := t.TempDir()
			junit, jsonReport := filepath.Join(dir, "conform.xml"), filepath.Join(dir, "conform.json")
			args := append([]string{"--target", target, "--key", leakKey, "--junit-report", junit, "--json-report", jsonReport}, tc.args...)
			code, out := runConformProcess(t, args...)
			if code != tc.code {
				t.Fatalf("exit code %d, want %d; output:\n%s", code, tc.code, out)
			}
			for _, want := range tc.says {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			if tc.code == exitUsage {
				// One paragraph: one line on stderr, nothing else.
				if got := strings.TrimSpace(out); strings.Contains(got, "\n") || !strings.HasPrefix(got, "atmkit: conform: could not check the target: ") {
					t.Errorf("got %q, want one paragraph", got)
				}
			}
			if !tc.report {
				// The target could not be checked: the reports say so, in
				// one failed case (a CI job never shows an earlier run's).
				j := readJUnit(t, junit)
				if j.Tests != 1 || j.Failures != 1 || len(j.Suites) != 1 || len(j.Suites[0].Cases) != 1 || j.Suites[0].Cases[0].Failure == nil {
					t.Errorf("JUnit report of a target not checked: %+v, want one failed case", j)
				}
				var rep []map[string]any
				if b, err := os.ReadFile(jsonReport); err != nil || json.Unmarshal(b, &rep) != nil || len(rep) != 1 || rep[0]["SuiteSucceeded"] != false {
					t.Errorf("JSON report of a target not checked: %v, want one failed suite", err)
				}
			}
			if tc.report {
				// The JUnit report fails the specs the summary lists.
				m := regexp.MustCompile(`(\d+) failed specs, by cause`).FindStringSubmatch(out)
				if m == nil {
					t.Fatalf("no count of failed specs in:\n%s", out)
				}
				if j := readJUnit(t, junit); strconv.Itoa(j.Failures) != m[1] {
					t.Errorf("got %d failures in the JUnit report, want %s", j.Failures, m[1])
				}
			}
			checkNoKey(t, leakKey, out, junit, jsonReport)
			if tc.calls > 0 {
				if n := calls.Load(); n != tc.calls {
					t.Errorf("the target saw %d connections, want %d (one request, one timeout)", n, tc.calls)
				}
			}
		})
	}
}

// protocolsRemoved answers HTTP GET and POST calls of /service/service.asmx
// as ASMX does when web.config removes the HttpGet and HttpPost protocols:
// HTTP 500 with ASP.NET's error page.
func protocolsRemoved(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := strings.CutPrefix(r.URL.Path, "/service/service.asmx/"); ok && rest != "" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprintf(w, "<html><head><title>Request format is unrecognized for URL unexpectedly ending in '/%s'.</title></head><body></body></html>", rest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

func TestConformHTTPGetAndPostDisabled(t *testing.T) {
	t.Parallel()
	target := startMock(t, "k1", protocolsRemoved)
	junit := filepath.Join(t.TempDir(), "conform.xml")
	code, out := runConformProcess(t, "--target", target, "--key", "k1", "--junit-report", junit)
	if code != exitFailure {
		t.Fatalf("exit code %d, want 1; output:\n%s", code, out)
	}
	for _, want := range []string{
		"get and post refused (protocols disabled?)",
		"specs: HTTP GET and HTTP POST are disabled\n",
		`<webServices><protocols><add name="HttpGet"/><add name="HttpPost"/></protocols></webServices>`,
		"--label-filter '!get && !post'",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// One cause, one group: every failure is that of the disabled bindings.
	if n := strings.Count(out, " specs: "); n != 1 {
		t.Errorf("got %d groups of failures, want 1:\n%s", n, out)
	}

	// Narrowed to the bindings the deployment serves, it conforms.
	code, out = runConformProcess(t, "--target", target, "--key", "k1", "--label-filter", "!get && !post")
	if code != exitOK {
		t.Fatalf("with --label-filter '!get && !post': exit code %d, want 0; output:\n%s", code, out)
	}
	if !strings.Contains(out, "SUCCESS!") {
		t.Errorf("output lacks SUCCESS!:\n%s", out)
	}
}

// TestConformReferenceDeployment runs conform against the reference ASMX
// deployment on Mono with the HttpGet and HttpPost protocols removed from
// its web.config (the JSON path, /service-v2.asmx, keeps HttpGet): the
// disabled bindings fail as one group, and a wrong key is refused with the
// deployment's own fault text. The key is written nowhere.
func TestConformReferenceDeployment(t *testing.T) {
	t.Parallel()
	config, err := refdeploy.SiteFile(refdeploy.Root, "web.config")
	if err != nil {
		t.Fatal(err)
	}
	start, end := strings.Index(config, "<webServices>"), strings.Index(config, "</webServices>")
	if start < 0 || end < 0 {
		t.Fatalf("the deployment's web.config has no <webServices> element:\n%s", config)
	}
	// Mono's machine.config adds HttpGet and HttpPost; a web.config that
	// removes them (and HttpPostLocalhost) is what .NET's default amounts to.
	config = config[:start] + `<webServices>
      <protocols>
        <remove name="HttpGet"/>
        <remove name="HttpPost"/>
        <remove name="HttpPostLocalhost"/>
      </protocols>
    ` + config[end:]
	config = strings.Replace(config, "</configuration>", `  <location path="service-v2.asmx">
    <system.web>
      <webServices>
        <protocols>
          <add name="HttpGet"/>
        </protocols>
      </webServices>
    </system.web>
  </location>
</configuration>`, 1)
	d := refdeploy.Start(t, refdeploy.WebConfig(refdeploy.Root, config))

	t.Run("HTTP GET and POST disabled", func(t *testing.T) {
		junit := filepath.Join(t.TempDir(), "conform.xml")
		code, out := runConformProcess(t, "--target", d.URL, "--key", refdeploy.Key, "--junit-report", junit)
		if code != exitFailure {
			t.Fatalf("exit code %d, want 1; output:\n%s\n%s", code, out, d.Log())
		}
		for _, want := range []string{
			"get and post refused (protocols disabled?)",
			"specs: HTTP GET and HTTP POST are disabled\n",
			"- binding/get/ReturnProvinces: ",
			"- binding/post/ReturnAllAtms: ",
			`ReturnProvinces over get and post answered 500 `,
			`<add name="HttpGet"/><add name="HttpPost"/>`,
		} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
		checkNoKey(t, refdeploy.Key, out, junit)
	})

	t.Run("a refused key", func(t *testing.T) {
		code, out := runConformProcess(t, "--target", d.URL, "--key", leakKey)
		if code != exitUsage {
			t.Fatalf("exit code %d, want 2; output:\n%s", code, out)
		}
		for _, want := range []string{"could not check the target: the key was refused.", `soap11 answered 500 "The service key (strAtmServiceKey) is not valid."`} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
		checkNoKey(t, leakKey, out)
	})
}

// TestConformShape: with --shape, conform also fails a target whose results
// differ from the shape; a typed target with that shape passes, the whole
// suite and the shape specs.
func TestConformShape(t *testing.T) {
	t.Parallel()
	const typed = "../../shape/testdata/typed.yaml"
	sh, err := shape.Load(typed)
	if err != nil {
		t.Fatal(err)
	}
	rows := []struct {
		name   string
		target string
		filter string
		code   int
		says   string
	}{
		{"a typed target, its shape", startMock(t, "k1", nil, mockserver.WithShape(sh)), "", 0, "SUCCESS!"},
		{"the built-in shape's target, a typed shape", startMock(t, "k1", nil), "shape", 1, "result shape"},
	}
	for _, r := range rows {
		code, out := runConformProcess(t, "--target", r.target, "--key", "k1", "--shape", typed, "--label-filter", r.filter)
		if code != r.code || !strings.Contains(out, r.says) {
			t.Errorf("%s: got exit %d, want %d with %q; output:\n%s", r.name, code, r.code, r.says, out)
		}
	}
	if code, out := runConformProcess(t, "--target", rows[0].target, "--key", "k1", "--shape", "no-such-shape.yaml"); code != 2 || !strings.Contains(out, "no-such-shape.yaml") {
		t.Errorf("a missing shape file: got exit %d, want 2 naming it; output:\n%s", code, out)
	}
}

// TestConformInterrupted stops a run with SIGINT while a spec waits for an
// answer: conform says the target was not checked whole and exits 2 (not 1,
// "does not conform"), and the JUnit report shows the spec interrupted and
// the specs after it not run, not "left out by --label-filter".
func TestConformInterrupted(t *testing.T) {
	t.Parallel()
	reached, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	t.Cleanup(func() { close(release) })
	target := startMock(t, "secret-key-1", func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.Contains(r.URL.Path+r.Header.Get("SOAPAction"), "ReturnAllAtms") {
				once.Do(func() { close(reached) }) // the preflight asks other operations
				select {
				case <-release:
				case <-r.Context().Done():
				}
			}
			h.ServeHTTP(w, r)
		})
	})
	report := filepath.Join(t.TempDir(), "junit.xml")
	raw, err := json.Marshal([]string{"--target", target, "--key", "secret-key-1", "--junit-report", report, "--no-color"})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestConformHelperProcess$")
	cmd.Env = append(os.Environ(), conformHelperEnv+"="+string(raw))
	var out mocktest.SyncBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-reached:
	case <-time.After(2 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("no spec asked for ReturnAllAtms; output:\n%s", out.String())
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("interrupted conform: %v, want exit status 2; output:\n%s", err, out.String())
	}
	for _, want := range []string{"INTERRUPTED: -- ", "| 1 Interrupted |", "not run (interrupted)", "interrupted: the target was not checked whole"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	for _, wrong := range []string{"does not conform", "left out by --label-filter", "failed spec"} {
		if strings.Contains(out.String(), wrong) {
			t.Errorf("output says %q:\n%s", wrong, out.String())
		}
	}
	j := readJUnit(t, report)
	interrupted, notRun := 0, 0
	for _, s := range j.Suites {
		for _, c := range s.Cases {
			switch {
			case c.Error != nil && c.Error.Type == "interrupted":
				interrupted++
			case c.Skipped != nil && strings.Contains(c.Skipped.Message, "not run: the run was interrupted"):
				notRun++
			case c.Skipped != nil && strings.Contains(c.Skipped.Message, "label-filter"):
				t.Errorf("%s: skipped as %q, want not run", c.Name, c.Skipped.Message)
			}
		}
	}
	if interrupted != 1 || notRun == 0 {
		t.Errorf("JUnit report: %d specs interrupted, %d not run; want 1 and some", interrupted, notRun)
	}
}

// TestConformLabelFilterSelectsNothing: a --label-filter that selects no
// spec (a typo in a CI job), or only the shape specs without --shape,
// checks nothing: exit 2 naming the labels, not a SUCCESS.
func TestConformLabelFilterSelectsNothing(t *testing.T) {
	t.Parallel()
	target := startMock(t, "secret-key-1", nil)
	for filter, want := range map[string]string{
		"soap111": `atmkit: conform: --label-filter "soap111" selects no spec, so nothing was checked (the labels: `,
		"shape":   `atmkit: conform: --label-filter "shape" selects only specs labelled shape, which run only with --shape FILE`,
	} {
		code, out := runConformProcess(t, "--target", target, "--key", "secret-key-1", "--label-filter", filter, "--no-color")
		if code != exitUsage || !strings.Contains(out, want) || !strings.Contains(out, "NOTHING CHECKED: -- 0 Passed") || strings.Contains(out, "SUCCESS!") {
			t.Errorf("--label-filter %s: exit %d, want 2 and %q:\n%s", filter, code, want, out)
		}
	}
}

// TestConformNamesAMockThatAcceptsAnyKey: against a mock started without
// keys (it accepts any), the wrong-key specs fail, and conform says why
// and how to start the mock.
func TestConformNamesAMockThatAcceptsAnyKey(t *testing.T) {
	t.Parallel()
	h, err := mockserver.New(withSmallDataset(t))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	code, out := runConformProcess(t, "--target", srv.URL, "--key", "any-key-at-all", "--no-color")
	if code != exitFailure || !strings.Contains(out, "The target answered a made-up key as a good one") || !strings.Contains(out, "atmkit serve --key K") {
		t.Errorf("exit %d, want 1 and the hint to start the mock with --key:\n%s", code, out)
	}
}

// A run that cannot check its target replaces the reports of an earlier
// run (a CI workspace kept between builds): they were left as they were,
// and the CI showed the earlier run's results for a run that checked
// nothing.
func TestConformReplacesStaleReports(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	junit, jsonReport := filepath.Join(dir, "conform.xml"), filepath.Join(dir, "conform.json")
	target := startMock(t, "k1", nil)
	if code, out := runConformProcess(t, "--target", target, "--key", "k1", "--label-filter", "get && documented", "--junit-report", junit, "--json-report", jsonReport); code != 0 {
		t.Fatalf("first run: exit code %d, want 0; output:\n%s", code, out)
	}
	code, out := runConformProcess(t, "--target", closedPort(t), "--key", "k1", "--junit-report", junit, "--json-report", jsonReport)
	if code != exitUsage {
		t.Fatalf("second run: exit code %d, want %d; output:\n%s", code, exitUsage, out)
	}
	b, err := os.ReadFile(junit)
	if err != nil {
		t.Fatal(err)
	}
	j := readJUnit(t, junit)
	if j.Tests != 1 || j.Failures != 1 || !strings.Contains(string(b), "could not check the target: connection refused at http://127.0.0.1:") {
		t.Errorf("JUnit report after a run that could not check: %d tests, %d failures, want the one failed case naming why:\n%s", j.Tests, j.Failures, b)
	}
	if b, err := os.ReadFile(jsonReport); err != nil || !strings.Contains(string(b), "could not check the target") {
		t.Errorf("JSON report after a run that could not check does not say so: %v\n%s", err, b)
	}
}

// TestKeyWithSpacesWarned: a key with white space at its ends (cmd.exe's
// `set ATMKIT_KEY=k && atmkit conform` keeps the space before &&) is sent
// as given, so a mock accepting the key without it refuses it; conform and
// cassette verify say why at start, not only that the key was refused.
func TestKeyWithSpacesWarned(t *testing.T) {
	t.Parallel()
	const key = "spaced-key-123"
	base := startMock(t, key, nil)
	code, stderr := runConformProcessEnv(t, []string{"ATMKIT_KEY=" + key + " "}, "--target", base)
	if code != exitUsage || !strings.Contains(stderr, "the key was refused") {
		t.Fatalf("conform: exit %d, want 2 (the key refused); stderr:\n%s", code, stderr)
	}
	const warning = "the key (--key or ATMKIT_KEY) has white space at its ends and is sent so; in cmd.exe"
	if !strings.Contains(stderr, warning) {
		t.Errorf("conform's stderr lacks %q:\n%s", warning, stderr)
	}
	checkNoKey(t, key, stderr)
	code, stderr = runConformProcessEnv(t, []string{"ATMKIT_KEY=" + key}, "--target", base)
	if code != 0 || strings.Contains(stderr, "white space") {
		t.Errorf("conform with the key as accepted: exit %d, want 0 and no warning; stderr:\n%s", code, stderr)
	}
	path := filepath.Join(t.TempDir(), "atm.yaml")
	if err := os.WriteFile(path, []byte("version: 2\ninteractions: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, stderr = runAtmkit(map[string]string{"ATMKIT_KEY": "\t" + key}, "cassette", "verify", "--upstream", base, path)
	if !strings.Contains(stderr, warning) {
		t.Errorf("cassette verify's stderr lacks %q:\n%s", warning, stderr)
	}
}

// mirrorLine returns the "Mirror it:" line of conform's output.
func mirrorLine(t *testing.T, out string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "Mirror it: ") {
			return l
		}
	}
	t.Fatalf("no Mirror it: line in the output:\n%s", out)
	return ""
}

// posixWords splits a line written for a POSIX shell into its words: plain
// text and single-quoted strings, as conformance writes them.
func posixWords(t *testing.T, line string) []string {
	t.Helper()
	var words []string
	var w strings.Builder
	in, quoted := false, false
	for _, r := range line {
		switch {
		case quoted && r == '\'':
			quoted = false
		case quoted:
			w.WriteRune(r)
		case r == '\'':
			quoted, in = true, true
		case r == ' ':
			if in {
				words = append(words, w.String())
				w.Reset()
				in = false
			}
		case strings.ContainsRune("\"\\$`&|;<>()*?[]#~!", r):
			t.Fatalf("%q: %q unquoted in a line to paste", line, r)
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quoted {
		t.Fatalf("%q: a quote left open", line)
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// parseServe runs args through atmkit serve's flag parsing and checks, as
// serve does before it starts.
func parseServe(t *testing.T, args []string) *serveFlags {
	t.Helper()
	var out bytes.Buffer
	m := &Main{cli.Env{Stdout: &out, Stderr: &out, Getenv: func(string) string { return "" }}}
	var f serveFlags
	fs := f.register(m)
	if err := m.Parse(fs, args, serveEnvAliases); err != nil {
		t.Fatalf("atmkit serve %q: %v %s", args, err, out.String())
	}
	if err := cli.NoArgs(fs); err != nil {
		t.Fatalf("atmkit serve %q: %v", args, err)
	}
	if err := m.checkServeFlags(fs, &f); err != nil {
		t.Fatalf("atmkit serve %q: %v", args, err)
	}
	return &f
}

func TestConformMirrorLine(t *testing.T) {
	t.Parallel()
	const key = "Mirror-Key-5150"
	for _, tc := range []struct {
		name     string
		opts     []mockserver.Option
		line     string
		ns, enc  string
		jsonErrs string
		svc      string // --service-name; empty: the default
	}{
		{"a deployment unlike the mock's defaults",
			[]mockserver.Option{mockserver.WithNamespace("http://example.org/atm"), mockserver.WithRequestEncoding("iso-8859-1"), mockserver.WithJSONErrors("ajax")},
			"Mirror it: atmkit serve --namespace http://example.org/atm --request-encoding iso-8859-1 --json-errors ajax",
			"http://example.org/atm", "iso-8859-1", "ajax", ""},
		{"latin-9, and the default namespace",
			[]mockserver.Option{mockserver.WithRequestEncoding("iso-8859-15")},
			"Mirror it: atmkit serve --request-encoding iso-8859-15",
			"http://tempuri.org/atmService", "iso-8859-15", "asmx", ""},
		{"the mock's defaults", nil,
			"Mirror it: atmkit serve (no flag: the mock's defaults mirror what this run saw of it)",
			"http://tempuri.org/atmService", "utf-8", "asmx", ""},
		{"a service class of its own",
			[]mockserver.Option{mockserver.WithServiceName("AtmLocator")},
			"Mirror it: atmkit serve --service-name AtmLocator",
			"http://tempuri.org/atmService", "utf-8", "asmx", "AtmLocator"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			target := startMock(t, key, nil, tc.opts...)
			_, out := runConformProcessEnv(t, []string{"ATMKIT_SHELL=posix"}, "--target", target, "--key", key, "--label-filter", "json")
			line := mirrorLine(t, out)
			if line != tc.line {
				t.Errorf("got  %q\nwant %q\noutput:\n%s", line, tc.line, out)
			}
			if strings.Contains(out, key) {
				t.Errorf("the output holds the key:\n%s", out)
			}
			// The line pasted: what atmkit serve reads from it is the
			// deployment's.
			args, _, _ := strings.Cut(strings.TrimPrefix(line, "Mirror it: atmkit serve"), " (")
			f := parseServe(t, posixWords(t, args))
			if tc.svc == "" {
				tc.svc = mockserver.DefaultServiceName
			}
			if f.namespace != tc.ns || f.aspnet.RequestEncoding != tc.enc || f.jsonErrors != tc.jsonErrs || f.aspnet.ServiceName != tc.svc {
				t.Errorf("atmkit serve%s reads --namespace %q --request-encoding %q --json-errors %q --service-name %q, want %q %q %q %q",
					args, f.namespace, f.aspnet.RequestEncoding, f.jsonErrors, f.aspnet.ServiceName, tc.ns, tc.enc, tc.jsonErrs, tc.svc)
			}
			// It sits after the request encoding line, before the counts.
			at, enc, counts := strings.Index(out, "\n"+line+"\n"), strings.Index(out, "\nRequest encoding: "), strings.Index(out, "\nRan ")
			if !(enc >= 0 && enc < at && at < counts) {
				t.Errorf("the line is not between the request encoding line and the counts:\n%s", out)
			}
		})
	}
}

// TestConformMirrorServiceNameMono: conform against a Mono site whose
// class is not AtmService (the attrs site's AttrService) names it in the
// Mirror it: line, which atmkit serve reads back; the typed site's class is
// AtmService, the mock's default, and the line leaves the flag out.
func TestConformMirrorServiceNameMono(t *testing.T) {
	t.Parallel()
	d := refdeploy.Shared(t)
	for _, tc := range []struct {
		site refdeploy.Site
		want string // the flag, or "" for none
	}{
		{refdeploy.Attrs, " --service-name AttrService"},
		{refdeploy.Typed, ""},
	} {
		_, out := runConformProcessEnv(t, []string{"ATMKIT_SHELL=posix"}, "--target", d.SiteURL(tc.site.Name), "--key", tc.site.Key, "--label-filter", "wsdl")
		line := mirrorLine(t, out)
		if (tc.want == "" && strings.Contains(line, "--service-name")) || !strings.Contains(line, tc.want) {
			t.Errorf("the %s site: got %q, want %q in it (none when empty)\n%s", tc.site.Name, line, tc.want, out)
		}
		args, _, _ := strings.Cut(strings.TrimPrefix(line, "Mirror it: atmkit serve"), " (")
		if f := parseServe(t, posixWords(t, args)); tc.want != "" && " --service-name "+f.aspnet.ServiceName != tc.want {
			t.Errorf("the %s site: atmkit serve%s reads --service-name %q", tc.site.Name, args, f.aspnet.ServiceName)
		}
	}
}

// TestConformMirrorDefaults: the defaults conformance leaves out of the
// Mirror it: line are atmkit serve's.
func TestConformMirrorDefaults(t *testing.T) {
	var f serveFlags
	fs := f.register(&Main{cli.Env{Stdout: io.Discard, Stderr: io.Discard, Getenv: func(string) string { return "" }}})
	for name, want := range map[string]string{
		"namespace":        conformance.MockNamespace,
		"request-encoding": conformance.MockRequestEncoding,
		"json-errors":      conformance.MockJSONErrors,
		"service-name":     conformance.MockServiceName,
	} {
		if got := fs.Lookup(name).DefValue; got != want {
			t.Errorf("atmkit serve --%s defaults to %q; conformance takes %q for its default", name, got, want)
		}
	}
}

// TestConformMirrorShapeHint: results not in the built-in shape get the
// shape learn line, for the deployment's WSDL.
func TestConformMirrorShapeHint(t *testing.T) {
	t.Parallel()
	sh, err := shape.Load("../../shape/testdata/typed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	target := startMock(t, "k1", nil, mockserver.WithShape(sh))
	_, out := runConformProcessEnv(t, []string{"ATMKIT_SHELL=posix"}, "--target", target, "--key", "k1", "--label-filter", "get")
	want := "): learn theirs with atmkit shape learn --wsdl " + target + "/service/service.asmx --out shape.yaml"
	if !strings.Contains(out, "\nIts results are not in the mock's built-in shape (") || !strings.Contains(out, want) {
		t.Errorf("output lacks the shape learn hint %q:\n%s", want, out)
	}
	if l := mirrorLine(t, out); !strings.HasSuffix(l, "but for the results' shape, below)") {
		t.Errorf("the Mirror it: line says nothing of the shape: %q", l)
	}

	// Given the shape file, the line serves with it: it said "serve with
	// --shape and the shape file this run was given too", and left the
	// flag out of the command.
	file := filepath.Join(t.TempDir(), "their shape.yaml")
	raw, err := os.ReadFile("../../shape/testdata/typed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := runConformProcessEnv(t, []string{"ATMKIT_SHELL=posix"}, "--target", target, "--key", "k1", "--label-filter", "get", "--shape", file)
	if want := "Mirror it: atmkit serve --shape '" + file + "'"; code != 0 || mirrorLine(t, out) != want {
		t.Errorf("with --shape: exit %d, Mirror it: line %q, want %q", code, mirrorLine(t, out), want)
	}
	if strings.Contains(out, "Its results are not in the mock's built-in shape") {
		t.Errorf("with --shape, the hint still asks for the shape file the line gives:\n%s", out)
	}
}

// TestConformMirrorLineHidesKey: a namespace holding the key is left out
// of the line, which says so, rather than shown or masked into a wrong one.
func TestConformMirrorLineHidesKey(t *testing.T) {
	t.Parallel()
	const key = "Mirror-Key-5150"
	target := startMock(t, key, nil, mockserver.WithNamespace("http://example.org/"+key))
	_, out := runConformProcessEnv(t, []string{"ATMKIT_SHELL=posix"}, "--target", target, "--key", key, "--label-filter", "json")
	want := "Mirror it: atmkit serve (no flag: the mock's defaults mirror what this run saw of it); its namespace holds the service key or a --header value and is left out: give --namespace yourself"
	if l := mirrorLine(t, out); l != want {
		t.Errorf("got  %q\nwant %q", l, want)
	}
	if strings.Contains(out, key) {
		t.Errorf("the output holds the key:\n%s", out)
	}
}

// A run lasts as long as its specs take, one --timeout per request at
// most: Ginkgo's own suite timeout (an hour, unless its -ginkgo.timeout
// says otherwise) is no limit of conform's. A run of a slow deployment that
// outlasted it had every spec after the hour fail with "A suite timeout
// occurred", without a request, and exited 1 (does not conform). The
// child here is given -ginkgo.timeout=1s, and one answer the specs read
// takes longer.
func TestConformOutlastsGinkgosSuiteTimeout(t *testing.T) {
	t.Parallel()
	var slowed atomic.Bool
	target := startMock(t, "k1", func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// ReturnAllAtms over GET: the specs' discovery reads it, the
			// preflight does not.
			if strings.HasSuffix(r.URL.Path, "/ReturnAllAtms") && r.Method == http.MethodGet && slowed.CompareAndSwap(false, true) {
				time.Sleep(1500 * time.Millisecond)
			}
			h.ServeHTTP(w, r)
		})
	})
	raw, err := json.Marshal([]string{"--target", target, "--key", "k1"})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestConformHelperProcess$", "-ginkgo.timeout=1s")
	cmd.Env = append(os.Environ(), conformHelperEnv+"="+string(raw))
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 || strings.Contains(string(out), "timeout occurred") {
		t.Fatalf("exit code %d, want 0; output:\n%s", code, out)
	}
	if !slowed.Load() {
		t.Fatal("the slow answer was never asked for")
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/mockserver"
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

func startMock(t *testing.T, key string, wrap func(http.Handler) http.Handler) string {
	t.Helper()
	h, err := mockserver.New(mockserver.WithKeys(key))
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
		Cases []struct {
			Name    string    `xml:"name,attr"`
			Failure *struct{} `xml:"failure"`
			Skipped *struct{} `xml:"skipped"`
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
	var report []map[string]any
	if b, err := os.ReadFile(jsonReport); err != nil || json.Unmarshal(b, &report) != nil || len(report) != 1 {
		t.Errorf("JSON report missing or invalid: %v", err)
	}
}

func TestConformFailsADeviatingTarget(t *testing.T) {
	// The mock, answering HTTP GET with the wrong content type.
	target := startMock(t, "k1", func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodGet && strings.Contains(r.URL.Path, ".asmx/") {
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, r)
				for k, v := range rec.Header() {
					w.Header()[k] = v
				}
				w.Header().Set("Content-Type", "application/xml")
				w.WriteHeader(rec.Code)
				_, _ = w.Write(rec.Body.Bytes())
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
	for _, want := range []string{"content type", "expected: text/xml; charset=utf-8", `got:      "application/xml"`, "reproduce: curl ", "FAIL!"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if j := readJUnit(t, junit); j.Failures == 0 {
		t.Errorf("JUnit report counts no failures")
	}
}

func TestConformGivenValues(t *testing.T) {
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
		"intInstitutionID 3 (given)",
		"bytRadius 7, intMaximumAtms 2 (given)",
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
		{"bad unit", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--radius-unit", "ly"}, nil, exitUsage, "radius unit"},
		{"bad filter", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--label-filter", "soap11 &&"}, nil, exitUsage, "label-filter"},
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
		{"latitude from env out of range", []string{"--target", "http://127.0.0.1:1", "--key", "k", "--longitude", "0"}, map[string]string{"ATMKIT_LATITUDE": "-90.01"}, exitUsage, "--latitude (or ATMKIT_LATITUDE): -90.01 is not within -90..90"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			m := &Main{Stdout: &stdout, Stderr: &stderr, Getenv: func(k string) string { return tc.env[k] }}
			code := m.Exit(m.Run(context.Background(), append([]string{"conform"}, tc.args...)))
			if code != tc.code {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, tc.code, stderr.String())
			}
			if got := stdout.String() + stderr.String(); !strings.Contains(got, tc.says) {
				t.Errorf("output lacks %q:\n%s", tc.says, got)
			}
		})
	}
}

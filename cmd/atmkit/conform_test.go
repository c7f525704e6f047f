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
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestConformHelperProcess$")
	cmd.Env = append(os.Environ(), conformHelperEnv+"="+string(raw))
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

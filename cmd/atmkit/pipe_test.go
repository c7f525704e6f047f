package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/atmkit/atmkit/internal/mocktest"
)

// runWithClosedStdout runs "atmkit args..." in a child process whose stdout
// is a pipe nobody reads any more (atmkit ... | head -1, once head has
// exited) and returns its exit code and stderr.
func runWithClosedStdout(t *testing.T, args ...string) (int, string) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	_ = r.Close() // the reader has gone before atmkit writes its first line
	defer w.Close()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), testMainVar+"=1")
	var stderr mocktest.SyncBuffer
	cmd.Stdout, cmd.Stderr = w, &stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, stderr.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), stderr.String() + "\n(" + ee.String() + ")"
	}
	t.Fatalf("running atmkit %v: %v", args, err)
	return 0, ""
}

// TestClosedStdout: a command whose output is piped to a reader that stops
// early runs to its end and exits with its own code, quietly; it is not
// ended by SIGPIPE (exit 141 under `set -o pipefail`, as GitHub Actions
// runs steps), and conform still writes its report.
func TestClosedStdout(t *testing.T) {
	t.Parallel()
	t.Run("cassette list", func(t *testing.T) {
		t.Parallel()
		if code, stderr := runWithClosedStdout(t, "cassette", "list", goldenCassette(t, 0)); code != exitOK || stderr != "" {
			t.Errorf("atmkit cassette list | head -1: exit %d, stderr %q; want exit 0 and nothing", code, stderr)
		}
	})
	t.Run("conform", func(t *testing.T) {
		t.Parallel()
		target := startMock(t, "secret-key-1", nil)
		report := filepath.Join(t.TempDir(), "junit.xml")
		code, stderr := runWithClosedStdout(t, "conform", "--target", target, "--key", "secret-key-1", "--junit-report", report, "--label-filter", "documented")
		if code != exitOK {
			t.Fatalf("atmkit conform | head: exit %d, want 0 (the mock conforms); stderr:\n%s", code, stderr)
		}
		if j := readJUnit(t, report); j.Tests == 0 || j.Failures != 0 {
			t.Errorf("JUnit report: %d tests, %d failures; want some and none", j.Tests, j.Failures)
		}
	})
}

//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOutputsThatAreNotFiles: an output written atomically (a temporary
// file renamed over it) naming something that is not a file (a named
// pipe, a device such as /dev/null) is a wrong setting, exit 2 before the
// work, saying what it is; the pipe is left a pipe. It was taken: the
// rename replaced the pipe with the report, and, run as root (a CI
// container), --junit-report /dev/null replaced the system's /dev/null
// with a regular file.
func TestOutputsThatAreNotFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	const closed = "http://127.0.0.1:1" // never reached: the outputs are checked first
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"shape", "learn", "--cassette", goldenCassette(t, 0), "--out", fifo}, "--out " + fifo + ": a named pipe, not a file"},
		{[]string{"conform", "--target", closed, "--key", "k", "--junit-report", fifo}, "--junit-report " + fifo + ": a named pipe, not a file"},
		{[]string{"conform", "--target", closed, "--key", "k", "--json-report", "/dev/null"}, "--json-report /dev/null: a device, not a file"},
		{[]string{"cassette", "verify", "--upstream", closed, "--key", "k", "--junit-report", "/dev/null", goldenCassette(t, 0)}, "--junit-report /dev/null: a device, not a file"},
		{[]string{"record", "--upstream", closed, "--addr", "127.0.0.1:0", "--cassette", fifo}, "--cassette " + fifo + ": a named pipe, not a file"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--tls-self-signed", "--tls-ca-out", fifo}, "--tls-ca-out " + fifo + ": a named pipe, not a file"},
	} {
		code, _, stderr := runAtmkit(nil, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("atmkit %s: exit %d, stderr %q; want exit 2 saying %q", strings.Join(tc.args, " "), code, stderr, tc.want)
		}
		if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
			t.Fatalf("atmkit %s: the named pipe is now %v (%v)", strings.Join(tc.args, " "), st.Mode(), err)
		}
	}
}

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUnwritableOutputsFoundAtStart: a file a command would write only after
// its work (a learned shape, a CPU profile, a throwaway authority's
// certificate) where it cannot be written is a wrong setting, exit 2 before
// the work, as --junit-report is; not exit 1 after it.
func TestUnwritableOutputsFoundAtStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	blocker := filepath.Join(dir, "a-file")
	if err := os.WriteFile(blocker, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	under := filepath.Join(blocker, "out")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"shape", "learn", "--cassette", goldenCassette(t, 0), "--out", under}, "atmkit shape learn: --out " + under + ": " + blocker + " is not a directory; see atmkit shape learn --help\n"},
		{[]string{"bench", "-d", "1s", "--cpuprofile", under}, "atmkit bench: --cpuprofile " + under + ": " + blocker + " is not a directory; see atmkit bench --help\n"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--tls-self-signed", "--tls-ca-out", dir}, "atmkit serve: --tls-ca-out " + dir + ": a directory; want a file name; see atmkit serve --help\n"},
	} {
		code, stdout, stderr := runAtmkit(nil, tc.args...)
		if code != exitUsage || stdout != "" || stderr != tc.want {
			t.Errorf("atmkit %s: exit %d, stdout %q, stderr %q; want exit 2, nothing and %q", strings.Join(tc.args, " "), code, stdout, stderr, tc.want)
		}
	}
}

// TestDashOutputsRefused: `-` (standard output) where the command's own
// output is on stdout or the output is no single document (a report
// beside conform's and verify's results, a CPU profile, the throwaway
// authority of a server, a cassette rewritten as it grows, a data set's
// directory) is a wrong setting, exit 2 saying so: each wrote a file (or
// a directory) named "-". shape learn --out - writes to stdout
// (TestShapeLearnOutDashIsStdout).
func TestDashOutputsRefused(t *testing.T) {
	t.Parallel()
	const closed = "http://127.0.0.1:1" // never reached: the outputs are checked first
	for _, tc := range []struct {
		args []string
		flag string
	}{
		{[]string{"conform", "--target", closed, "--key", "k", "--junit-report", "-"}, "junit-report"},
		{[]string{"conform", "--target", closed, "--key", "k", "--json-report", "-"}, "json-report"},
		{[]string{"cassette", "verify", "--upstream", closed, "--key", "k", "--junit-report", "-", goldenCassette(t, 0)}, "junit-report"},
		{[]string{"bench", "-d", "1s", "--cpuprofile", "-"}, "cpuprofile"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--tls-self-signed", "--tls-ca-out", "-"}, "tls-ca-out"},
		{[]string{"record", "--upstream", closed, "--addr", "127.0.0.1:0", "--cassette", "-"}, "cassette"},
		{[]string{"fixtures", "generate", "--out", "-"}, "out"},
	} {
		code, _, stderr := runAtmkit(nil, tc.args...)
		want := "--" + tc.flag + " -: standard output is not taken here"
		if code != exitUsage || !strings.Contains(stderr, want) {
			t.Errorf("atmkit %s: exit %d, stderr %q; want exit 2 saying %q", strings.Join(tc.args, " "), code, stderr, want)
		}
		for _, name := range []string{"-", "-.yaml"} {
			if _, err := os.Lstat(name); err == nil {
				os.RemoveAll(name)
				t.Errorf("atmkit %s wrote %s", strings.Join(tc.args, " "), name)
			}
		}
	}
}

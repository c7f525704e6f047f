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

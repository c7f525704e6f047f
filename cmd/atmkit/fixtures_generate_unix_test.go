//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFixturesGenerateThroughADanglingLink: a file of the data set that is
// a symbolic link into a directory that does not exist (a data set moved,
// its links left) is refused before generating, with exit 2 naming the
// link's target, as --out's other problems are: generate wrote "generating
// 5 ATMs", then failed writing, with exit 1 and "save fixtures: write …:
// no such file or directory".
func TestFixturesGenerateThroughADanglingLink(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	gone := filepath.Join(t.TempDir(), "moved", "atms.jsonl")
	if err := os.Symlink(gone, filepath.Join(out, "atms.jsonl")); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runAtmkit(nil, "fixtures", "generate", "--atms", "5", "--out", out)
	want := "--out " + out + ": atms.jsonl in it: a symbolic link to " + gone + ", whose directory does not exist"
	if code != exitUsage || !strings.Contains(stderr, want) {
		t.Errorf("got exit %d and %q, want %d and %q", code, stderr, exitUsage, want)
	}
	if stdout != "" {
		t.Errorf("got %q, want nothing generated", stdout)
	}
}

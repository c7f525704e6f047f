//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestCassetteNamesThatAreNoCassette: a cassette path that exists but is
// no cassette file (a device such as /dev/zero, a named pipe, a file
// whose name lacks .yaml), or an empty one, is exit 2 saying what is
// wrong, in shape learn, cassette list and serve --replay alike, given
// or found in a directory given. Each
// said "cassette not found: /dev/zero.yaml" (go-vcr's .yaml appended to a
// file that exists), or "cassette not found: .yaml (no file or directory
// either)" for an empty name.
func TestCassetteNamesThatAreNoCassette(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipe: %v", err)
	}
	recorded, err := os.ReadFile(goldenCassette(t, 0))
	if err != nil {
		t.Fatal(err)
	}
	noExt := filepath.Join(dir, "rec")
	if err := os.WriteFile(noExt, recorded, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{"/dev/zero", "/dev/zero: a device, not a cassette file"},
		{fifo, fifo + ": a named pipe, not a cassette file"},
		{noExt, noExt + " is a file whose name does not end in .yaml or .yml: a cassette's name is NAME.yaml (a name without it stands for NAME.yaml, as go-vcr reads it); rename it " + noExt + ".yaml"},
		{"", "an empty path names no cassette"},
		{dir, fifo + ": a named pipe, not a cassette file"}, // in a directory: it hung as well
	} {
		for _, args := range [][]string{
			{"shape", "learn", "--cassette", tc.path, "--out", filepath.Join(dir, "x.yaml")},
			{"cassette", "list", tc.path},
			{"serve", "--addr", "127.0.0.1:0", "--replay", tc.path},
		} {
			code, _, stderr := runAtmkit(nil, args...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, ".yaml.yaml") {
				t.Errorf("atmkit %q: exit %d, stderr %q; want exit 2 saying %q", args, code, stderr, tc.want)
			}
		}
	}
}

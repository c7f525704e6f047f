//go:build unix

package mocktest

import (
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// Nobody is the uid and gid of the other user a test running as root runs
// a child process as: one who owns none of the test's files.
const Nobody = 65534

// SharedTempDir makes a temporary directory another user may enter (the
// one t.TempDir makes is this user's alone) and, beneath it, the
// directories modes names (slash-separated, "" the directory itself),
// each then given its mode. It is removed when the test ends; it returns
// its path.
func SharedTempDir(tb testing.TB, prefix string, modes map[string]os.FileMode) string {
	tb.Helper()
	base, err := os.MkdirTemp("", prefix)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { _ = os.RemoveAll(base) })
	names := slices.Sorted(maps.Keys(modes)) // "" and each parent first
	for _, name := range names {
		if err := os.MkdirAll(filepath.Join(base, filepath.FromSlash(name)), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	for _, name := range names {
		if err := os.Chmod(filepath.Join(base, filepath.FromSlash(name)), modes[name]); err != nil {
			tb.Fatal(err)
		}
	}
	return base
}

// CopyTestBinary copies the running test binary into dir as name, for
// another user to run (the original's directory may be this user's
// alone), and returns the copy's path.
func CopyTestBinary(tb testing.TB, dir, name string) string {
	tb.Helper()
	src, err := os.Open(os.Args[0])
	if err != nil {
		tb.Fatal(err)
	}
	defer src.Close()
	path := filepath.Join(dir, name)
	dst, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		tb.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// RunTest runs the test named test of the test binary at bin in a child
// process (OutputBusyRetried), in dir unless it is "", with env added to
// this process's environment, as cred unless it is nil, and returns its
// output. If the child fails, so does tb, with what, the error and the
// output.
func RunTest(tb testing.TB, what, bin, test, dir string, cred *syscall.Credential, env ...string) []byte {
	tb.Helper()
	out, err := OutputBusyRetried(func() *exec.Cmd {
		cmd := exec.Command(bin, "-test.run=^"+test+"$")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		return cmd
	})
	if err != nil {
		tb.Fatalf("%s: %v\n%s", what, err, out)
	}
	return out
}

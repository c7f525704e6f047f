package filelock_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/atmkit/atmkit/internal/filelock"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// TestDirectoryOfAnotherUser: in a directory this user cannot create files
// in, and with no lock file to take over, TryLock says so (permission
// denied, naming the directory), not the "no such file or directory" of
// its read-only fallback. It needs root, to run the test binary as uid
// 65534 on root's directory.
func TestDirectoryOfAnotherUser(t *testing.T) {
	if path := os.Getenv("FILELOCK_TRY"); path != "" {
		l, err := filelock.TryLock(path)
		if err == nil {
			_ = l.Unlock()
			os.Stdout.WriteString("locked\n")
			return
		}
		os.Stdout.WriteString(err.Error() + "\n")
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root, to make a directory another user cannot write")
	}
	base, err := os.MkdirTemp("", "filelock-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "filelock.test")
	if b, err := os.ReadFile(os.Args[0]); err != nil || os.WriteFile(bin, b, 0o755) != nil {
		t.Fatalf("copy the test binary: %v", err)
	}
	path := filepath.Join(base, "atm.yaml")
	out, err := mocktest.OutputBusyRetried(func() *exec.Cmd {
		cmd := exec.Command(bin, "-test.run=^TestDirectoryOfAnotherUser$")
		cmd.Env = append(os.Environ(), "FILELOCK_TRY="+path)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		return cmd
	})
	if err != nil {
		t.Fatalf("TryLock as uid 65534: %v\n%s", err, out)
	}
	got, _, _ := strings.Cut(string(out), "\n")
	want := "lock " + path + ": cannot create its lock file in " + base + ": open " + filelock.Name(path) + ": permission denied"
	if got != want {
		t.Errorf("TryLock as uid 65534 in root's directory:\ngot  %q\nwant %q", got, want)
	}
}

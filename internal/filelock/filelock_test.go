package filelock_test

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/filelock"
)

func TestLockIsExclusiveAndRemovedOnUnlock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "atm.yaml")
	l, err := filelock.TryLock(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filelock.Name(path)); err != nil {
		t.Fatalf("lock file while held: %v", err)
	}
	if _, err := filelock.TryLock(path); !errors.Is(err, filelock.ErrLocked) {
		t.Fatalf("second lock: got %v, want ErrLocked", err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatalf("second Unlock: %v", err)
	}
	if _, err := os.Stat(filelock.Name(path)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("lock file after Unlock: %v", err)
	}
	l2, err := filelock.TryLock(path)
	if err != nil {
		t.Fatalf("lock after Unlock: %v", err)
	}
	_ = l2.Unlock()
}

// TestHelperHolder holds the lock of FILELOCK_PATH until killed, after
// printing "held".
func TestHelperHolder(t *testing.T) {
	path := os.Getenv("FILELOCK_PATH")
	if path == "" {
		t.Skip("a child process of TestLockOfAKilledProcess")
	}
	if _, err := filelock.TryLock(path); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("held\n")
	select {}
}

func TestLockOfAKilledProcess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "atm.yaml")
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHolder$")
	cmd.Env = append(os.Environ(), "FILELOCK_PATH="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "held\n" {
		t.Fatalf("child: %q, %v", line, err)
	}
	_, err = filelock.TryLock(path)
	if !errors.Is(err, filelock.ErrLocked) {
		t.Fatalf("lock held by another process: got %v, want ErrLocked", err)
	}
	if want := "process " + strconv.Itoa(cmd.Process.Pid); runtime.GOOS != "windows" && !strings.Contains(err.Error(), want) {
		t.Errorf("error %q does not name the holder (%s)", err, want)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if _, err := os.Stat(filelock.Name(path)); runtime.GOOS != "windows" && err != nil {
		t.Fatalf("a killed holder's lock file should be left (and taken over): %v", err)
	}
	l, err := filelock.TryLock(path)
	if err != nil {
		t.Fatalf("lock after its holder was killed: %v", err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
}

// TestLinkSharesTheLock: a symbolic link and the file it names are one
// file to lock: a recorder writing the cassette and a scrub of it through
// a link must not both hold a lock.
func TestLinkSharesTheLock(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	dir := t.TempDir()
	path, link := filepath.Join(dir, "atm.yaml"), filepath.Join(t.TempDir(), "link.yaml")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	l, err := filelock.TryLock(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	if _, err := filelock.TryLock(link); !errors.Is(err, filelock.ErrLocked) || !strings.Contains(err.Error(), link) {
		t.Fatalf("the link's lock while the file's is held: got %v, want ErrLocked naming %s", err, link)
	}
}

//go:build !windows

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestWriteModes: a new file gets the mode asked for less the process's
// umask, as os.WriteFile and every Unix tool give it; a file that exists
// keeps its own mode, as an editor's save keeps it (a user who made a
// cassette 0600 keeps it so when it is recorded again). Before, the mode
// asked for was set whatever the umask (0644 under umask 077) and an
// existing 0600 file became 0644. Not parallel: it sets the umask.
func TestWriteModes(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	dir := t.TempDir()
	mode := func(path string) os.FileMode {
		t.Helper()
		st, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return st.Mode().Perm()
	}

	fresh := filepath.Join(dir, "new.yaml")
	if err := Write(fresh, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := mode(fresh); got != 0o600 {
		t.Errorf("a new file under umask 077: got %v, want %v", got, os.FileMode(0o600))
	}

	syscall.Umask(0o022)
	kept := filepath.Join(dir, "kept.yaml")
	if err := os.WriteFile(kept, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(kept, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := Write(kept, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := mode(kept); got != 0o640 {
		t.Errorf("an existing 0640 file: got %v, want it kept", got)
	}

	f, err := createTemp(fresh, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f.Name())
	defer f.Close()
	if got := mode(f.Name()); got != 0o600 {
		t.Errorf("createTemp beside a 0600 file: got %v, want %v", got, os.FileMode(0o600))
	}
	if temps, err := Temps(fresh); err != nil || len(temps) != 1 || temps[0] != f.Name() {
		t.Errorf("Temps: got %v, %v; want [%s]", temps, err, f.Name())
	}
}

package cassettes

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"github.com/atmkit/atmkit/internal/atomicfile"
	"github.com/atmkit/atmkit/internal/filelock"
)

// lock takes the cassette's file lock, making its directory.
func (r *Recorder) lock() error {
	made, err := makeDirs(filepath.Dir(r.path))
	if err != nil {
		return fmt.Errorf("cassette %s: %w", r.path, err)
	}
	r.madeDirs = made
	l, err := filelock.TryLock(r.path)
	if err != nil && !errors.Is(err, filelock.ErrUnsupported) {
		r.removeMadeDirs()
	}
	if errors.Is(err, filelock.ErrLocked) {
		return fmt.Errorf("cassette %w", err)
	}
	if errors.Is(err, filelock.ErrUnsupported) {
		r.log.Warn("recording without the cassette's lock: nothing stops another recorder from writing it too", "cassette", r.path, "err", err)
		return nil
	}
	if err != nil {
		return fmt.Errorf("cassette %s: %w", r.path, err)
	}
	r.fileLock = l
	for _, name := range recorded.RemoveTemps(atomicfile.Target(r.path)) { // beside the file a save replaces
		r.log.Info("removed a temporary file an interrupted save of the cassette left", "file", name)
	}
	return nil
}

// makeDirs makes dir and its missing parents, as os.MkdirAll does, and
// returns those it made, deepest first.
func makeDirs(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); !errors.Is(err, fs.ErrNotExist) {
			break // there, or what MkdirAll will meet and report
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return missing, nil
}

// removeMadeDirs removes the directories lock made for a cassette that was
// not written, as long as they are empty: a recording of nothing leaves
// the file system as it found it, and what another put there stays.
func (r *Recorder) removeMadeDirs() {
	for _, d := range r.madeDirs {
		if os.Remove(d) != nil {
			break
		}
	}
	r.madeDirs = nil
}

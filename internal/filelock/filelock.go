// Package filelock keeps two atmkit processes from rewriting one file at
// once: each writer holds an exclusive lock on a dot file beside it
// (".NAME.lock", which atmkit's directory readers skip) while it writes.
// The lock is the operating system's (flock on Unix, a file opened without
// sharing on Windows), so it ends with the process that holds it, even
// when that process is killed; the dot file is removed on Unlock and a
// stale one left by a killed process is taken over.
package filelock

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/atmkit/atmkit/internal/atomicfile"
)

// ErrLocked is returned by Lock when another process (or another Lock in
// this one) holds the lock.
var ErrLocked = errors.New("being written by another process")

// ErrUnsupported is returned by TryLock when the file system takes no
// locks (some network file systems): callers go on without one.
var ErrUnsupported = errors.New("the file system takes no file locks")

// Lock is a held lock; Unlock releases it.
type Lock struct {
	path string
	h    handle
}

// Name is the lock file of path: a dot file in its directory.
func Name(path string) string {
	return filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".lock")
}

// TryLock takes the lock of path without waiting. When another holds it,
// the error wraps ErrLocked and names path (and, where the system lets it
// be read, the holder's process ID). The lock is the file's that a write
// of path replaces (atomicfile.Target): a symbolic link and the file it
// names share one lock.
func TryLock(path string) (*Lock, error) {
	name := Name(atomicfile.Target(path))
	h, holder, err := tryLock(name)
	if errors.Is(err, ErrLocked) {
		if holder != "" {
			return nil, fmt.Errorf("%s: %w (process %s)", path, ErrLocked, holder)
		}
		return nil, fmt.Errorf("%s: %w", path, ErrLocked)
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	return &Lock{path: name, h: h}, nil
}

// Unlock releases the lock and removes its file. It is safe to call more
// than once.
func (l *Lock) Unlock() error {
	if l == nil || l.h == nil {
		return nil
	}
	err := unlock(l.path, l.h)
	l.h = nil
	if err != nil {
		return fmt.Errorf("unlock %s: %w", l.path, err)
	}
	return nil
}

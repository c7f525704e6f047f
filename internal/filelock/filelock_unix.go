//go:build unix

package filelock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

type handle = *os.File

// tryLock opens (creating it) and flocks name. A lock file another process
// removed between this one's open and flock is no lock: the file is opened
// again until the one locked is the one at name. A lock file this user may
// not write (left by a killed process of another user: a container's uid
// 65532 and the host's user sharing a mounted directory) is locked through
// a read-only descriptor, which flock takes as well. A directory this user
// may not create the lock file in is named, with the permission error.
func tryLock(name string) (handle, string, error) {
	for range 100 {
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
		if errors.Is(err, os.ErrPermission) {
			denied := err
			f, err = os.Open(name)
			if errors.Is(err, os.ErrNotExist) {
				// No lock file to take over: the directory is what this
				// user may not write, not a missing file.
				return nil, "", fmt.Errorf("cannot create its lock file in %s: %w", filepath.Dir(name), denied)
			}
		}
		if err != nil {
			return nil, "", err
		}
		if err := flock(f); err != nil {
			holder := readHolder(f)
			_ = f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, holder, ErrLocked
			}
			if errors.Is(err, syscall.ENOLCK) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOTSUP) {
				return nil, "", fmt.Errorf("%w (%v)", ErrUnsupported, err)
			}
			return nil, "", err
		}
		held, err1 := f.Stat()
		named, err2 := os.Stat(name)
		if err1 == nil && err2 == nil && os.SameFile(held, named) {
			// The holder's process ID, for the message another gets.
			if err := f.Truncate(0); err == nil {
				_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
			}
			return f, "", nil
		}
		_ = f.Close()
	}
	return nil, "", errors.New("the lock file keeps being replaced")
}

func flock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

func readHolder(f *os.File) string {
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	s := strings.TrimSpace(string(b[:n]))
	if _, err := strconv.Atoi(s); err != nil {
		return ""
	}
	return s
}

// unlock removes the file while it is still locked (so no other process
// can lock the removed file and believe it holds the lock), then closes it.
// A file it may not remove (another user's, in a sticky directory) is left,
// as a killed process leaves it: the next TryLock takes it over.
func unlock(name string, f handle) error {
	err := os.Remove(name)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrPermission) {
		err = nil
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Package atomicfile replaces files atomically: the new content is
// written to a temporary file in the target's directory (with the mode the
// target will have), synced, and renamed over the target, so a reader
// sees the old file or the new one, never half of one, and a crash leaves
// no half-written file.
//
// What differs by operating system lives in files of their own: making
// the rename durable (dir_unix.go, dir_windows.go), and the rename
// (rename_other.go, rename_windows.go). The rename is os.Rename, which
// replaces an existing file on every system atmkit is built for (on
// Windows, MoveFileEx with MOVEFILE_REPLACE_EXISTING); on Windows it is
// tried again for a while when another program has the file open.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// maxLinks bounds the symbolic links Target follows (a loop ends there).
const maxLinks = 40

// Write replaces the file at path with data, atomically, with mode perm.
// The directory must exist.
func Write(path string, data []byte, perm os.FileMode) error {
	return WriteFunc(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc replaces the file at path with what write writes (buffered),
// atomically, with mode perm. When write fails, the target is left as it
// was and the temporary file is removed. The directory must exist.
//
// A path that is a symbolic link is written through: the file it names is
// replaced, and the link stays (renamed over, the link would become a
// file of its own and the file it named keep its old content).
func WriteFunc(path string, perm os.FileMode, write func(io.Writer) error) error {
	path = Target(path)
	tmp, err := WriteTemp(path, perm, write)
	if err != nil {
		return err
	}
	return Replace(tmp, path)
}

// WriteTemp writes what write writes (buffered) to a new temporary file
// that is to be renamed over path (its Target, which the caller resolves)
// with Replace, and returns its name: beside path, with path's mode
// (createTemp), synced and closed. On failure it removes the file. For
// files replaced together (a data set's four), each written first.
//
// Its error is an *fs.PathError of Op "write" naming path, whose Err is
// the cause: the temporary file's name, which the caller never sees, is
// not repeated ("write D/atms.jsonl: no space left on device", not "write
// D/atms.jsonl: write D/.atms.jsonl.1692098057.tmp: no space left on
// device").
func WriteTemp(path string, perm os.FileMode, write func(io.Writer) error) (string, error) {
	tmp, err := createTemp(path, perm)
	if err != nil {
		return "", &fs.PathError{Op: "write", Path: path, Err: cause(err, "")}
	}
	name := tmp.Name()
	fail := func(err error) (string, error) {
		_ = tmp.Close()
		_ = os.Remove(name)
		return "", &fs.PathError{Op: "write", Path: path, Err: cause(err, name)}
	}
	bw := bufio.NewWriterSize(tmp, 256<<10)
	if err := write(bw); err != nil {
		return fail(err)
	}
	if err := bw.Flush(); err != nil {
		return fail(err)
	}
	if err := tmp.Sync(); err != nil {
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		_ = os.Remove(name)
		return "", &fs.PathError{Op: "write", Path: path, Err: cause(err, name)}
	}
	return name, nil
}

// cause is err without the *fs.PathError that names the temporary file
// tmp (the system's "write D/.atms.jsonl.1692098057.tmp: …"; with tmp
// empty, any temporary file of createTemp's), if it is one; any other
// error (a write function's own) as it is.
func cause(err error, tmp string) error {
	if pe, ok := err.(*fs.PathError); ok && (pe.Path == tmp || tmp == "" && strings.HasSuffix(pe.Path, ".tmp")) {
		return pe.Err
	}
	return err
}

// createTemp creates, open for writing, the temporary file that is to be
// renamed over path: a dot file
// ".NAME.<digits>.tmp" beside it, which atmkit's directory readers
// (cassettes, data sets) skip while it exists and Temps lists. Its mode is
// what the file at path will have: an existing file's own (as an editor's
// save keeps it), or for a new one perm less the process's umask (as
// os.WriteFile gives it).
func createTemp(path string, perm os.FileMode) (*os.File, error) {
	fi, err := os.Stat(path)
	keep := err == nil && fi.Mode().IsRegular()
	if keep {
		perm = fi.Mode().Perm()
	}
	dir, prefix := filepath.Dir(path), "."+filepath.Base(path)+"."
	for try := 0; ; try++ {
		// Created with O_EXCL and the mode (the system applies the
		// umask), where os.CreateTemp would make it 0600.
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+".tmp")
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) && try < 10000 {
			continue
		}
		if err != nil {
			return nil, err
		}
		if keep { // exactly the existing file's mode, which the umask may have cut
			if err := f.Chmod(perm); err != nil {
				_ = f.Close()
				_ = os.Remove(name)
				return nil, err
			}
		}
		return f, nil
	}
}

// Temps lists the temporary files that WriteFunc makes to replace path
// (dot files ".NAME.<digits>.tmp" beside it) and that exist now: a write
// removes its own when it fails, but a process killed while writing (a
// SIGKILL, a power cut) leaves its own behind, which no later write
// removes; one may also be another process's, writing now. A directory
// that does not exist has none.
func Temps(path string) ([]string, error) {
	path = Target(path)
	dir, prefix := filepath.Dir(path), "."+filepath.Base(path)+"."
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list temporary files of %s: %w", path, err)
	}
	var temps []string
	for _, e := range entries {
		mid, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		// createTemp puts decimal digits there.
		if mid, ok = strings.CutSuffix(mid, ".tmp"); ok && mid != "" && strings.Trim(mid, "0123456789") == "" {
			temps = append(temps, filepath.Join(dir, e.Name()))
		}
	}
	return temps, nil
}

// Replace renames the file tmp over path and makes the rename durable
// where the system allows it; on failure tmp is removed. tmp must be in
// path's directory (a rename across file systems is not atomic), written
// and closed: for content a library writes to a file name of its own.
func Replace(tmp, path string) error {
	if err := rename(tmp, path); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		return fmt.Errorf("write %s: sync its directory: %w", path, err)
	}
	return nil
}

// Target is the file a write of path replaces: path itself, or, when path
// is a symbolic link, the file it names (through every link, relative ones
// read from the link's directory; a dangling link names the file it would
// create). A link loop, or one that cannot be read, leaves the path where
// it got to, whose write then fails with the system's error.
func Target(path string) string {
	for range maxLinks {
		fi, err := os.Lstat(path)
		if err != nil || fi.Mode()&os.ModeSymlink == 0 {
			return path
		}
		to, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(to) {
			to = filepath.Join(filepath.Dir(path), to)
		}
		path = to
	}
	return path
}

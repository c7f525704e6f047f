package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// renameFor is how long rename tries again while another program has the
// target open: what Go's own tools allow on Windows (cmd/go's robustio).
const renameFor = 2 * time.Second

// errSharingViolation is ERROR_SHARING_VIOLATION, which package syscall
// does not name.
const errSharingViolation = syscall.Errno(32)

// rename renames tmp over path. On Windows a file cannot be replaced while
// another program has it open without sharing its deletion, as most do
// (an editor reading it, a virus scanner or a search indexer for a moment,
// os.Open in Go): MoveFileEx fails with access denied or a sharing
// violation. rename tries again for up to renameFor, then fails saying so.
func rename(tmp, path string) error {
	deadline := time.Now().Add(renameFor)
	delay := 5 * time.Millisecond
	for {
		err := os.Rename(tmp, path)
		if err == nil || !errors.Is(err, syscall.ERROR_ACCESS_DENIED) && !errors.Is(err, errSharingViolation) {
			return err
		}
		if time.Now().Add(delay).After(deadline) {
			return fmt.Errorf("%w (for %s: another program has it open, or it is read-only)", err, renameFor)
		}
		time.Sleep(delay)
		delay = min(2*delay, 200*time.Millisecond)
	}
}

//go:build !windows

package cli

import (
	"errors"
	"syscall"
)

// readerGone reports whether a write failed because the pipe's reader has
// closed it.
func readerGone(err error) bool { return errors.Is(err, syscall.EPIPE) }

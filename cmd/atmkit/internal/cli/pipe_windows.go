package cli

import (
	"errors"
	"syscall"
)

// errorNoData is ERROR_NO_DATA, "The pipe is being closed": what a write
// to a pipe whose reader has gone returns on Windows.
const errorNoData syscall.Errno = 232

// readerGone reports whether a write failed because the pipe's reader has
// closed it.
func readerGone(err error) bool {
	return errors.Is(err, errorNoData) || errors.Is(err, syscall.ERROR_BROKEN_PIPE) || errors.Is(err, syscall.EPIPE)
}

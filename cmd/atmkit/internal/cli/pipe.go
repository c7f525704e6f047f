package cli

import (
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"
)

// Stdout returns f, the process's standard output, for commands to write
// to when the program reading it may stop early (atmkit cassette list |
// head -1, atmkit conform ... | head): once that reader has gone, writes
// are dropped instead of failing or ending the process by SIGPIPE (exit
// 141, lost reports). The command runs to its end and exits with its own
// code: conform and cassette verify still write their reports and say
// whether the target conforms or drifted. Writes that fail otherwise
// (a full disk) still fail.
func Stdout(f *os.File) io.Writer {
	// Go ends a program writing to a closed pipe on fd 1 or 2 unless it
	// asks for SIGPIPE itself; then the write returns EPIPE. Notify (not
	// Ignore) leaves the signal's default to processes atmkit starts.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	return &pipeWriter{f: f}
}

// pipeWriter drops writes once its reader has gone.
type pipeWriter struct {
	f    *os.File
	gone atomic.Bool
}

func (w *pipeWriter) Write(p []byte) (int, error) {
	if w.gone.Load() {
		return len(p), nil
	}
	n, err := w.f.Write(p)
	if err != nil && readerGone(err) {
		w.gone.Store(true)
		return len(p), nil
	}
	return n, err
}

// Unwrap is the file written to: where terminal checks look (tty.Colors).
func (w *pipeWriter) Unwrap() io.Writer { return w.f }

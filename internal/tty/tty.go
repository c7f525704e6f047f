// Package tty tells whether output goes to a terminal, where atmkit
// writes colours. How to ask differs by operating system: a termios
// ioctl on Unix (tty_linux.go, tty_bsd.go), the console mode on Windows
// (tty_windows.go), where a console shows colour codes only once asked to.
package tty

import (
	"io"
	"os"
)

// IsTerminal reports whether w is a terminal: an *os.File whose descriptor
// is a terminal (a console on Windows), or a writer that wraps one (an
// Unwrap() io.Writer method, such as atmkit's stdout that masks keys).
// Pipes, files, /dev/null (NUL) and other writers are not.
func IsTerminal(w io.Writer) bool {
	f := file(w)
	if f == nil {
		return false
	}
	return isTerminal(f.Fd())
}

// file is the *os.File w writes to, through writers that wrap another;
// nil if there is none.
func file(w io.Writer) *os.File {
	for {
		switch v := w.(type) {
		case *os.File:
			return v
		case interface{ Unwrap() io.Writer }:
			w = v.Unwrap()
		default:
			return nil
		}
	}
}

// Colors reports whether w is a terminal that shows ANSI colour codes. On
// Unix that is any terminal; on Windows a console, which it switches to
// reading the codes (virtual terminal processing) where that is off;
// false when the console cannot (before Windows 10).
func Colors(w io.Writer) bool {
	f := file(w)
	if f == nil || !isTerminal(f.Fd()) {
		return false
	}
	return enableColors(f.Fd())
}

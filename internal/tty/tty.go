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
// is a terminal (a console on Windows). Pipes, files, /dev/null (NUL) and
// writers other than files are not.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || f == nil {
		return false
	}
	return isTerminal(f.Fd())
}

// Colors reports whether w is a terminal that shows ANSI colour codes. On
// Unix that is any terminal; on Windows a console, which it switches to
// reading the codes (virtual terminal processing) where that is off;
// false when the console cannot (before Windows 10).
func Colors(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok || f == nil || !isTerminal(f.Fd()) {
		return false
	}
	return enableColors(f.Fd())
}

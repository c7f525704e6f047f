//go:build darwin || freebsd || netbsd || openbsd || dragonfly

package tty

import "golang.org/x/sys/unix"

// isTerminal asks for the terminal attributes of fd (TIOCGETA on macOS
// and the BSDs), which only a terminal has.
func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TIOCGETA)
	return err == nil
}

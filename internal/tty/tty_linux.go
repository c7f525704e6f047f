package tty

import "golang.org/x/sys/unix"

// isTerminal asks for the terminal attributes of fd (TCGETS), which only
// a terminal has.
func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil
}

package tty

import "golang.org/x/sys/windows"

// isTerminal asks for the console mode of fd, which only a console has
// (not NUL, a pipe or a file; a mintty terminal is a pipe, so it is not).
func isTerminal(fd uintptr) bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(fd), &mode) == nil
}

package tty

import "golang.org/x/sys/windows"

// isTerminal asks for the console mode of fd, which only a console has
// (not NUL, a pipe or a file; a mintty terminal is a pipe, so it is not).
func isTerminal(fd uintptr) bool {
	var mode uint32
	return windows.GetConsoleMode(windows.Handle(fd), &mode) == nil
}

// enableColors turns on the console's virtual terminal processing, under
// which it reads ANSI colour codes instead of printing them.
func enableColors(fd uintptr) bool {
	var mode uint32
	h := windows.Handle(fd)
	if windows.GetConsoleMode(h, &mode) != nil {
		return false
	}
	if mode&windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING != 0 {
		return true
	}
	return windows.SetConsoleMode(h, mode|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING) == nil
}

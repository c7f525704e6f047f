//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd && !dragonfly && !windows

package tty

// isTerminal is false where atmkit does not know how to ask.
func isTerminal(fd uintptr) bool { return false }

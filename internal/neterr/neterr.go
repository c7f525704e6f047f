// Package neterr classifies the errors of a connection that failed: the
// system calls them by different numbers on each operating system
// (neterr_unix.go, neterr_windows.go), and errors.Is with the syscall
// constants alone recognizes only the Unix ones.
package neterr

import "errors"

// Refused reports whether err is a connection refused: nothing listens at
// the address and port.
func Refused(err error) bool { return isAny(err, refused) }

// Reset reports whether err is a connection reset by the other side.
func Reset(err error) bool { return isAny(err, reset) }

// AddrInUse reports whether err is a listen on an address and port that
// another socket holds.
func AddrInUse(err error) bool { return isAny(err, addrInUse) }

func isAny(err error, targets []error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}

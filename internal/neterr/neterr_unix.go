//go:build !windows

package neterr

import "syscall"

var (
	refused   = []error{syscall.ECONNREFUSED}
	reset     = []error{syscall.ECONNRESET}
	addrInUse = []error{syscall.EADDRINUSE}
)

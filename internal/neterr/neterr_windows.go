package neterr

import "syscall"

// Winsock's error numbers, which Windows sockets fail with. Go's
// syscall.ECONNREFUSED, ECONNRESET and EADDRINUSE on Windows are numbers
// of its own that no socket returns.
const (
	wsaEADDRINUSE   syscall.Errno = 10048
	wsaECONNRESET   syscall.Errno = 10054
	wsaECONNREFUSED syscall.Errno = 10061
)

var (
	refused   = []error{wsaECONNREFUSED, syscall.ECONNREFUSED}
	reset     = []error{wsaECONNRESET, syscall.ECONNRESET}
	addrInUse = []error{wsaEADDRINUSE, syscall.EADDRINUSE}
)

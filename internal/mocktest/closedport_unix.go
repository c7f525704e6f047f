//go:build unix

package mocktest

import (
	"fmt"
	"syscall"
	"testing"
)

// ClosedPort returns the base URL (http://127.0.0.1:PORT) of a loopback
// port that refuses connections until tb ends. A socket bound to the port,
// but not listening, holds it: a port closed after listening may be handed
// to another server of the test binary (tests run in parallel), which
// would then answer.
func ClosedPort(tb testing.TB) string {
	tb.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		tb.Fatalf("closed port: %v", err)
	}
	syscall.CloseOnExec(fd)
	tb.Cleanup(func() { _ = syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		tb.Fatalf("closed port: bind: %v", err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		tb.Fatalf("closed port: %v", err)
	}
	return fmt.Sprintf("http://127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)
}

//go:build !unix

package mocktest

import (
	"net"
	"testing"
)

// ClosedPort returns the base URL (http://127.0.0.1:PORT) of a loopback
// port that refuses connections. Where a socket cannot be bound without
// listening through package syscall (Windows), the port is one a listener
// had and closed: another server of the test binary may be handed it.
func ClosedPort(tb testing.TB) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("closed port: %v", err)
	}
	url := "http://" + ln.Addr().String()
	_ = ln.Close()
	return url
}

//go:build !linux

package mockserver

import (
	"net"
	"time"
)

// waitSent gives the bytes written to conn a moment to reach the client
// before a reset: elsewhere than on Linux there is no portable way to
// learn that they have.
func waitSent(conn *net.TCPConn, limit time.Duration) {
	time.Sleep(min(limit, 10*time.Millisecond))
}

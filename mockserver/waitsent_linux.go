package mockserver

import (
	"net"
	"syscall"
	"time"
	"unsafe"
)

// waitSent waits, for at most limit, until the client has acknowledged
// every byte written to conn (the socket's SIOCOUTQ count of bytes not yet
// acknowledged is 0), so that a reset does not throw away bytes still on
// their way. On loopback this takes well under a millisecond.
func waitSent(conn *net.TCPConn, limit time.Duration) {
	rc, err := conn.SyscallConn()
	if err != nil {
		return
	}
	end := time.Now().Add(limit)
	for pause := 50 * time.Microsecond; ; pause = min(2*pause, 10*time.Millisecond) {
		var queued int32
		var errno syscall.Errno
		if err := rc.Control(func(fd uintptr) {
			_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TIOCOUTQ, uintptr(unsafe.Pointer(&queued)))
		}); err != nil || errno != 0 || queued <= 0 || time.Now().After(end) {
			return
		}
		time.Sleep(pause)
	}
}

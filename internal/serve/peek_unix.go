//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package serve

import (
	"os"
	"syscall"
)

// canPeek tells that pendingData works on this platform.
const canPeek = true

// pendingData reports whether the socket under rc holds bytes the peer
// sent that nobody has read yet, or its end of the stream, without reading
// them and without waiting: a recv with MSG_PEEK|MSG_DONTWAIT. It takes
// the socket through Control, which does not wait for a Read under way on
// it (RawConn.Read would).
func pendingData(rc syscall.RawConn) (bool, error) {
	var b [1]byte
	var rerr error
	if err := rc.Control(func(fd uintptr) {
		for {
			_, _, rerr = syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
			if rerr != syscall.EINTR {
				return
			}
		}
	}); err != nil {
		return false, err
	}
	switch {
	case rerr == syscall.EAGAIN: // EWOULDBLOCK too: the same number here
		return false, nil
	case rerr != nil:
		return false, os.NewSyscallError("recvfrom", rerr)
	}
	return true, nil // bytes, or 0: the end of the stream, which a Read returns at once too
}

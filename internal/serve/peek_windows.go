//go:build windows

package serve

import (
	"os"
	"syscall"
	"unsafe"
)

// canPeek tells that pendingData works on this platform.
const canPeek = true

// fionread is winsock2.h's FIONREAD, _IOR('f', 127, u_long): how many bytes
// a socket holds to be read.
const fionread = 0x4004667f

// pendingData reports whether the socket under rc holds bytes the peer
// sent that nobody has read yet, without reading them and without
// waiting: WSAIoctl FIONREAD (ioctlsocket's). The end of the stream counts
// as no byte. It takes the socket through Control, which does not wait
// for a Read under way on it.
func pendingData(rc syscall.RawConn) (bool, error) {
	var n, size uint32
	var ierr error
	if err := rc.Control(func(fd uintptr) {
		ierr = syscall.WSAIoctl(syscall.Handle(fd), fionread, nil, 0, (*byte)(unsafe.Pointer(&n)), uint32(unsafe.Sizeof(n)), &size, nil, 0)
	}); err != nil {
		return false, err
	}
	if ierr != nil {
		return false, os.NewSyscallError("wsaioctl", ierr)
	}
	return n > 0, nil
}

//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package serve

import (
	"errors"
	"syscall"
)

// canPeek tells that pendingData works on this platform: not here, where
// the shutdown closes a connection that has sent no request yet without
// looking for bytes received and not read (see drainConn).
const canPeek = false

// pendingData is not available on this platform.
func pendingData(syscall.RawConn) (bool, error) { return false, errors.ErrUnsupported }

//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package serve

import (
	"errors"
	"syscall"
)

// canPeek tells that pendingData works on this platform: not here (not
// Linux, macOS, the BSDs or Windows), where the shutdown closes a
// connection that has sent no request yet without looking for bytes
// received and not read (stopFresh).
const canPeek = false

// pendingData is not available on this platform.
func pendingData(syscall.RawConn) (bool, error) { return false, errors.ErrUnsupported }

//go:build !windows

package stopsignal

import (
	"os"
	"syscall"
)

// Signals ask atmkit to stop. On Unix: SIGINT (Ctrl-C in a terminal) and
// SIGTERM (kill, docker stop, Kubernetes ending a pod, systemd).
var Signals = []os.Signal{os.Interrupt, syscall.SIGTERM}

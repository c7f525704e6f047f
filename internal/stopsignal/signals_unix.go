//go:build !windows

package stopsignal

import (
	"os"
	"os/signal"
	"syscall"
)

// Signals ask atmkit to stop. On Unix: SIGINT (Ctrl-C in a terminal),
// SIGTERM (kill, docker stop, Kubernetes ending a pod, systemd) and SIGHUP
// (the terminal closed, the ssh session ended), which would otherwise end
// atmkit at once: no graceful stop, record's last calls not saved, the
// throwaway authority's temporary file left behind. atmkit reloads nothing
// on SIGHUP (certificates and settings are read at start). A SIGHUP
// ignored from the start (nohup) stays ignored: handling it would undo
// nohup.
var Signals = stopSignals()

func stopSignals() []os.Signal {
	s := []os.Signal{os.Interrupt, syscall.SIGTERM}
	if !signal.Ignored(syscall.SIGHUP) {
		s = append(s, syscall.SIGHUP)
	}
	return s
}

// Package stopsignal is where atmkit learns that it should stop: the
// signals that ask a process to end differ by operating system
// (signals_unix.go, signals_windows.go), and every command and server
// waits on them through this package.
package stopsignal

import (
	"context"
	"os"
	"os/signal"
)

// NotifyContext returns a copy of parent that is done when one of Signals
// arrives, and a stop function that releases them. After the first signal
// they go back to their default handling, so that a second one ends a
// command at once instead of waiting for its graceful shutdown (servers
// watch for it themselves with Notify, since a process that is PID 1 in a
// container ignores a signal it does not handle).
func NotifyContext(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(parent, Signals...)
	go func() { <-ctx.Done(); stop() }()
	return ctx, stop
}

// Notify relays Signals to c, as signal.Notify does; signal.Stop(c) ends it.
func Notify(c chan<- os.Signal) {
	signal.Notify(c, Signals...)
}

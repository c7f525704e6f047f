//go:build !windows

package stopsignal

import (
	"context"
	"os"
	"os/signal"
	"slices"
	"syscall"
	"testing"
	"time"
)

// hupIgnoredAtStart: the test binary was started with SIGHUP ignored (go
// test run under nohup, or by a CI runner that ignores it). Read before
// any test: signal.Notify for SIGHUP (TestNotifyContext's guard) ends the
// ignoring, and signal.Ignored with it.
var hupIgnoredAtStart = signal.Ignored(syscall.SIGHUP)

// TestNotifyContext sends the process each stop signal and checks that
// the context ends. Signals are process-wide, so the subtests run one
// after the other; a channel of its own keeps each signal from ending the
// test binary should it arrive after stop. Under nohup, SIGHUP is not one
// of Signals (TestSignals), so its subtest is skipped.
func TestNotifyContext(t *testing.T) {
	guard := make(chan os.Signal, 4)
	signal.Notify(guard, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(guard)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			if sig == syscall.SIGHUP && hupIgnoredAtStart {
				t.Skip("SIGHUP was ignored when the test binary started (nohup): atmkit leaves it ignored")
			}
			ctx, stop := NotifyContext(context.Background())
			defer stop()
			if err := syscall.Kill(os.Getpid(), sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Minute):
				t.Fatalf("%s: the context did not end", sig)
			}
		})
	}
}

func TestNotify(t *testing.T) {
	c := make(chan os.Signal, 1)
	Notify(c)
	defer signal.Stop(c)
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-c:
		if got != syscall.SIGTERM {
			t.Errorf("got %v, want SIGTERM", got)
		}
	case <-time.After(time.Minute):
		t.Fatal("SIGTERM was not relayed")
	}
}

// TestSignals: SIGINT, SIGTERM and SIGHUP, unless SIGHUP was ignored
// from the start (nohup): the test binary run under nohup by go test
// -exec nohup, or by hand, must not take it.
func TestSignals(t *testing.T) {
	want := []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
	if hupIgnoredAtStart {
		want = want[:2]
	}
	if !slices.Equal(Signals, want) {
		t.Errorf("got %v, want %v", Signals, want)
	}
}

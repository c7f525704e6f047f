package main

import (
	"errors"
	"net"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/atmkit/atmkit/internal/mocktest"
)

// TestConformStopInPreflight: SIGINT while conform's preflight waits for a
// target that accepted the connection and never answers ends the run
// then, exit 2, saying no spec ran. The preflight waited out --timeout
// (here 5 minutes; 30 s by default) for each of its calls, Ctrl-C unheard.
func TestConformStopInPreflight(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted <- c // held open, unanswered
		}
	}()
	cmd := childCommand(nil, "conform", "--target", "http://"+ln.Addr().String(), "--key", "k", "--timeout", "5m")
	out := &mocktest.SyncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case c := <-accepted: // the preflight's first call is in flight
		defer c.Close()
	case err := <-done:
		t.Fatalf("conform ended before calling the target: %v\n%s", err, out.String())
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case err = <-done:
	case <-time.After(time.Minute):
		t.Fatalf("conform did not end on SIGINT in the preflight (it waits out --timeout); output:\n%s", out.String())
	}
	var ee *exec.ExitError
	want := "atmkit: conform: interrupted in the preflight, before any spec ran: the target was not checked"
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(out.String(), want) {
		t.Errorf("got %v, output:\n%s\nwant exit 2 and %q", err, out.String(), want)
	}
}

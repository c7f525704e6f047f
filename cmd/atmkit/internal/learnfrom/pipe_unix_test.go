//go:build unix

package learnfrom

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestReadStopsOnCtrlC: --wsdl naming a pipe nothing writes to (--wsdl
// <(curl …) whose curl hangs) stops being read when ctx ends (Ctrl-C), with
// ctx's cause. It was read until the writer closed it, Ctrl-C notwithstanding.
func TestReadStopsOnCtrlC(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "wsdl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	w, err := os.OpenFile(fifo, os.O_RDWR, 0) // a writer that never writes: Read's open does not wait
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	stopped := errors.New("interrupt signal received")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(stopped)
	done := make(chan error, 1)
	go func() {
		_, _, err := Read(ctx, fifo, time.Minute, nil)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, stopped) {
			t.Errorf("Read of a silent pipe after Ctrl-C: got %v, want the interrupt", err)
		}
	case <-time.After(time.Minute): // a guard against a hang, not a timing check
		w.Close()
		t.Fatal("Read still reads the pipe a minute after Ctrl-C")
	}
}

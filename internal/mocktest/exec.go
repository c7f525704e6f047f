package mocktest

import (
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// OutputBusyRetried runs the command newCmd makes and returns its output,
// as exec.Cmd.Output does, making a new one and trying again while the
// start fails with ETXTBSY ("text file busy"): a test binary copied just
// before (for another user to run) is busy while a process another test
// forked at the same moment still holds the copy's open descriptor, until
// that process execs.
func OutputBusyRetried(newCmd func() *exec.Cmd) ([]byte, error) {
	for try := 0; ; try++ {
		out, err := newCmd().Output()
		if !errors.Is(err, syscall.ETXTBSY) || try == 50 {
			return out, err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

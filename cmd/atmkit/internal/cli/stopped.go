package cli

import (
	"context"
	"fmt"
)

// StoppedStarting is the end of a server command (serve, record) whose
// start, doing, failed with err: when ctx ended first (SIGINT, SIGTERM
// while a large data set or cassette loads), it says on Stderr that the
// command stopped before serving and returns nil. A stop is what the signal
// asks of a server, before it serves as after: exit 0, as serve's
// "atmkit: stopped" and record's stop with nothing new. Otherwise it
// returns err.
func (e *Env) StoppedStarting(ctx context.Context, err error, doing string) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	fmt.Fprintf(e.Stderr, "atmkit: stopped while %s, before serving\n", doing)
	return nil
}

// Interrupted is the error of a command that reads, checks or rewrites
// files (cassette list and scrub, shape learn) whose step failed with err:
// when ctx ended first (SIGINT, SIGTERM), exit 2 with the message, as
// interrupted runs of bench and conform; otherwise err.
func Interrupted(ctx context.Context, err error, format string, args ...any) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	return Exitf(ExitUsage, format, args...)
}

package cli

import (
	"context"
	"fmt"
)

// StoppedStarting is the end of a server command (serve, record) whose
// start, doing, failed with err: when ctx ended first (SIGINT, SIGTERM
// while a large data set or cassette loads), it says on Stderr that the
// command stopped before listening and returns nil. A stop is what the
// signal asks of a server, before it listens as after (exit 0, as its
// "atmkit: stopped"). Otherwise it returns err.
func (e *Env) StoppedStarting(ctx context.Context, err error, doing string) error {
	if err == nil || ctx.Err() == nil {
		return err
	}
	fmt.Fprintf(e.Stderr, "atmkit: stopped while %s, before listening\n", doing)
	return nil
}

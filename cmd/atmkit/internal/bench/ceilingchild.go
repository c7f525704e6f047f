package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os/exec"
	"time"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/loadgen"
	"github.com/atmkit/atmkit/internal/serve"
)

// The ceiling of a --target run. A target is a server in a process of its
// own (atmkit serve, the image), which the load generator reaches through
// the kernel's scheduler; a ceiling in the generator's own process shares
// its Go scheduler instead and answers about half as many calls again on
// two cores, which is no yardstick for the target. So a --target run serves
// its ceiling from a process of its own too: atmkit bench started again
// with ceilingChildEnv set, reading the captured answer from its standard
// input, which the parent holds open while it needs the ceiling. The child
// ends when its input does: when the parent closes it, or ends in any way
// (killed too), so no ceiling outlives its run, and nothing is written to
// disk.

// ceilingChildEnv, set to 1 in an atmkit bench process's environment, makes
// it the ceiling of its parent's --target run instead of measuring
// (IsCeilingChild, ServeCeilingChild).
const ceilingChildEnv = "ATMKIT_BENCH_CEILING_CHILD"

// IsCeilingChild reports whether this atmkit bench process was started as
// the ceiling of its parent's --target run (getenv reads its environment):
// it must then ServeCeilingChild instead of measuring.
func IsCeilingChild(getenv func(string) string) bool { return getenv(ceilingChildEnv) == "1" }

// ceilingListening starts the line a ceiling child writes on its log
// (stderr) once it listens, followed by its base URL.
const ceilingListening = "atmkit bench: ceiling listening on "

// ServeCeilingChild is the whole run of a ceiling child: it serves the
// answer read from in (its standard input, JSON) until in ends or ctx
// does, telling its address on log.
func ServeCeilingChild(ctx context.Context, in io.Reader, log io.Writer) error {
	var resp loadgen.Response
	dec := json.NewDecoder(in)
	if err := dec.Decode(&resp); err != nil {
		return fmt.Errorf("bench: ceiling: read the answer to serve: %w", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("bench: ceiling: listen on loopback: %w", err)
	}
	srv := serve.Start(ln, loadgen.NewCeiling(&resp), serve.Options{Grace: time.Second})
	fmt.Fprintln(log, ceilingListening+srv.URL)
	inEnded := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, io.MultiReader(dec.Buffered(), in))
		close(inEnded)
	}()
	select {
	case <-ctx.Done():
	case <-inEnded:
	}
	return srv.Close()
}

// startCeilingChild starts exe (atmkit) as a ceiling child serving want and
// waits until it listens; stopping it closes its input.
func startCeilingChild(ctx context.Context, exe string, want *loadgen.Response) (*serveChild, error) {
	b, err := json.Marshal(want)
	if err != nil {
		return nil, fmt.Errorf("bench: ceiling: %w", err)
	}
	cmd := exec.Command(exe, "bench")
	cmd.Env = []string{ceilingChildEnv + "=1"}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("bench: start the ceiling: %w", err)
	}
	// The pipe takes the answer once the child reads it; a child that
	// fails first closes its end, and the write fails (startChild says why).
	go func() { _, _ = in.Write(b) }()
	c, err := startChild(ctx, cmd, true, ceilingListening, ceilingStart, "bench: the ceiling process", in)
	if err != nil {
		_ = in.Close()
		return nil, err
	}
	return c, nil
}

// ceilingStart bounds the start of a ceiling process.
const ceilingStart = time.Minute

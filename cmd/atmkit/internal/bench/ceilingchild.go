package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
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
// with ceilingChildEnv naming a file that holds the captured answer.

// ceilingChildEnv, in an atmkit bench process's environment, names the
// file of the answer it serves as the ceiling of its parent's --target run,
// instead of measuring (Run).
const ceilingChildEnv = "ATMKIT_BENCH_CEILING_OF"

// ceilingListening starts the line a ceiling child writes on its log
// (stderr) once it listens, followed by its base URL.
const ceilingListening = "atmkit bench: ceiling listening on "

// serveCeilingChild serves the answer in the file at path until ctx ends
// (the parent's SIGINT), telling its address on log.
func serveCeilingChild(ctx context.Context, path string, log io.Writer) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("bench: ceiling: %w", err)
	}
	var resp loadgen.Response
	if err := json.Unmarshal(b, &resp); err != nil {
		return fmt.Errorf("bench: ceiling %s: %w", path, err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("bench: ceiling: listen on loopback: %w", err)
	}
	srv := serve.Start(ln, loadgen.NewCeiling(&resp), serve.Options{Grace: time.Second})
	fmt.Fprintln(log, ceilingListening+srv.URL)
	<-ctx.Done()
	return srv.Close()
}

// startCeilingChild starts exe (atmkit) as a ceiling child serving want,
// written into dir, and waits until it listens.
func startCeilingChild(ctx context.Context, exe, dir string, want *loadgen.Response) (*serveChild, error) {
	b, err := json.Marshal(want)
	if err != nil {
		return nil, fmt.Errorf("bench: ceiling: %w", err)
	}
	path := filepath.Join(dir, "ceiling.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		return nil, fmt.Errorf("bench: ceiling: %w", err)
	}
	cmd := exec.Command(exe, "bench")
	cmd.Env = []string{ceilingChildEnv + "=" + path}
	return startChild(ctx, cmd, true, ceilingListening, ceilingStart, "bench: the ceiling process")
}

// ceilingStart bounds the start of a ceiling process.
const ceilingStart = time.Minute

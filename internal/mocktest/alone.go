package mocktest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"regexp"
	"testing"
	"time"
)

// aloneEnv marks the child process RunAlone starts.
const aloneEnv = "MOCKTEST_RUN_ALONE"

// RunAlone runs the calling top-level test alone, in a child process of the test
// binary, for a test that measures the whole process (the heap), which the
// goroutines other tests leave behind would otherwise add to under load.
// In the child it returns true and the test goes on; in the test binary
// the tests run in, it runs the child (within limit), logs its output,
// fails the test if the child failed, and returns false: the test returns.
func RunAlone(t *testing.T, limit time.Duration) bool {
	t.Helper()
	if os.Getenv(aloneEnv) == t.Name() {
		return true
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+regexp.QuoteMeta(t.Name())+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), aloneEnv+"="+t.Name())
	out, err := cmd.CombinedOutput()
	t.Logf("%s alone in a process of its own:\n%s", t.Name(), out)
	switch {
	case err != nil:
		t.Errorf("%s alone: %v", t.Name(), err)
	case !bytes.Contains(out, []byte("--- PASS: "+t.Name()+" ")):
		t.Errorf("%s alone: the child process did not run it", t.Name())
	}
	return false
}

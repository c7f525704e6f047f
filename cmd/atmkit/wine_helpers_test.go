package main

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// wineHelpersEnv makes TestWineHelpersFailTheirSubtest, in its child
// process, run the subtest that fails.
const wineHelpersEnv = "ATMKIT_TEST_WINE_HELPERS"

// TestWineHelpersFailTheirSubtest: a wineRun helper that fails (startCmd,
// its program ending before it listens) fails the subtest that called it,
// not the test that made the wineRun. A FailNow on the parent from a
// subtest's goroutine ends that goroutine only; Go reports "subtest may have
// called FailNow on a parent test" and the parent is marked done while its
// other subtests still run. It needs no Wine: the program is this test
// binary, run to no test, and the failing subtest runs in a child process.
func TestWineHelpersFailTheirSubtest(t *testing.T) {
	if os.Getenv(wineHelpersEnv) == "1" {
		w := &wineRun{}
		t.Run("sub", func(t *testing.T) {
			w.startCmd(t, exec.Command(os.Args[0], "-test.run=^$"), []string{"serve"})
		})
		return
	}
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^TestWineHelpersFailTheirSubtest$")
	cmd.Env = append(os.Environ(), wineHelpersEnv+"=1")
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("the child test: %v, want exit 1\n%s", err, out)
	}
	for _, want := range []string{"--- FAIL: TestWineHelpersFailTheirSubtest/sub", "ended before listening"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the child test's output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(string(out), "FailNow on a parent test") {
		t.Errorf("the helper failed the parent test from the subtest:\n%s", out)
	}
}

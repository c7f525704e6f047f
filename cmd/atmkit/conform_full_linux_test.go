package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestConformReportOverTheFileSizeLimit: conform whose JUnit report cannot
// be written whole (here the file size limit, ulimit -f: as a full disk)
// exits 2 naming the report and the cause the write met. Ginkgo's JUnit
// generator does not report its write errors: the message was "reading the
// JUnit report back: XML syntax error on line 44: unexpected EOF", the
// cause lost. No report is left, nor a temporary file beside it.
func TestConformReportOverTheFileSizeLimit(t *testing.T) {
	t.Parallel()
	target := startMock(t, "k1", nil)
	dir := t.TempDir()
	junit := filepath.Join(dir, "conform.xml")
	raw, err := json.Marshal([]string{"--target", target, "--key", "k1", "--junit-report", junit})
	if err != nil {
		t.Fatal(err)
	}
	// 64 blocks of 512 bytes (sh's unit): the suite's report is larger.
	cmd := exec.Command("sh", "-c", `ulimit -f 64 || exit 97; exec "$0" -test.run='^TestConformHelperProcess$'`, os.Args[0])
	cmd.Env = append(os.Environ(), conformHelperEnv+"="+string(raw))
	out, err := cmd.CombinedOutput()
	code := cmd.ProcessState.ExitCode()
	if code == 97 {
		t.Skipf("cannot set the file size limit here: %s", out)
	}
	want := "atmkit: conform: writing report " + junit + ": the JUnit report was cut short after 32768 bytes: file too large\n"
	if code != exitUsage || !strings.HasSuffix(string(out), want) {
		t.Errorf("exit %d (%v), want %d and output ending %q; output:\n%s", code, err, exitUsage, want, out)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left in the report's directory: %v", entries)
	}
}

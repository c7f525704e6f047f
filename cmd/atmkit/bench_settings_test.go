package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchFixturesFromTheEnvironment: a data set with problems given as
// ATMKIT_FIXTURES is refused naming ATMKIT_FIXTURES, as serve names it: bench
// said "--fixtures DIR", a flag the command line did not have.
func TestBenchFixturesFromTheEnvironment(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	if code, _, stderr := runAtmkit(nil, "fixtures", "generate", "--atms", "5", "--out", dir); code != 0 {
		t.Fatalf("fixtures generate: exit %d: %s", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "cities.json"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"ATMKIT_FIXTURES": dir}
	for _, cmd := range []string{"serve", "bench"} {
		args := []string{cmd, "-d", "1s"}
		if cmd == "serve" {
			args = []string{cmd, "--addr", "127.0.0.1:0"}
		}
		code, stdout, stderr := runAtmkit(env, args...)
		want := "atmkit " + cmd + `: ATMKIT_FIXTURES="` + dir + `": cities.json: is empty, want a JSON array ([] for none) (--fixtures); see atmkit ` + cmd + " --help"
		wantUsageLine(t, cmd, code, stdout, stderr, want)
		if !strings.HasPrefix(stderr, want) {
			t.Errorf("%s: got %q, want it to start %q", cmd, stderr, want)
		}
	}
}

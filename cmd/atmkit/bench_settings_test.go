package main

import (
	"encoding/json"
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

// TestBenchFixturesProblemsPointToCheck: a data set with several problems
// is refused by bench as by serve, pointing to `atmkit fixtures check`,
// which lists every one (an error lists the first few): bench said "...
// and N more" and stopped there.
func TestBenchFixturesProblemsPointToCheck(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	if code, _, stderr := runAtmkit(nil, "fixtures", "generate", "--atms", "5", "--out", dir); code != 0 {
		t.Fatalf("fixtures generate: exit %d: %s", code, stderr)
	}
	path := filepath.Join(dir, "cities.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cities []map[string]any
	if err := json.Unmarshal(data, &cities); err != nil || len(cities) < 3 {
		t.Fatalf("cities.json: %d cities (%v)", len(cities), err)
	}
	cities[1]["id"], cities[2]["id"] = cities[0]["id"], cities[0]["id"] // two problems
	if data, err = json.Marshal(cities); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	hint := "(atmkit fixtures check " + dir + " lists every problem)"
	for _, args := range [][]string{{"serve", "--addr", "127.0.0.1:0"}, {"bench", "-d", "1s"}} {
		code, _, stderr := runAtmkit(nil, append(args, "--fixtures", dir)...)
		if code != 2 || !strings.Contains(stderr, hint) {
			t.Errorf("%s: exit %d, %q; want exit 2 and %q", args[0], code, stderr, hint)
		}
	}
}

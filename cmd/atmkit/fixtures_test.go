package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
)

// runFixturesCmd runs atmkit in process and returns its exit code and output.
func runFixturesCmd(t *testing.T, env map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	m := &Main{cli.Env{Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] }}}
	code = m.Exit(m.Run(context.Background(), args))
	return code, out.String(), errOut.String()
}

func TestFixturesGenerateAndCheck(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	code, out, errOut := runFixturesCmd(t, nil, "fixtures", "generate", "--seed", "42", "--atms", "300", "--out", dir)
	if code != 0 {
		t.Fatalf("generate: got exit %d, want 0; stderr %q", code, errOut)
	}
	for _, want := range []string{"seed 42", "atms.jsonl (300 ATMs", "60 cities", "try: intCityID 201 (Halifax, NS", "intInstitutionID"} {
		if !strings.Contains(out, want) {
			t.Errorf("generate output %q: want it to contain %q", out, want)
		}
	}
	first, err := os.ReadFile(filepath.Join(dir, "atms.jsonl"))
	if err != nil {
		t.Fatal(err)
	}

	// The same seed from the environment gives the same bytes.
	dir2 := filepath.Join(t.TempDir(), "again")
	if code, _, errOut := runFixturesCmd(t, map[string]string{"ATMKIT_SEED": "42", "ATMKIT_ATMS": "300"}, "fixtures", "generate", "--out", dir2); code != 0 {
		t.Fatalf("generate with ATMKIT_SEED: got exit %d; stderr %q", code, errOut)
	}
	if second, _ := os.ReadFile(filepath.Join(dir2, "atms.jsonl")); !bytes.Equal(first, second) {
		t.Error("same seed via ATMKIT_SEED: got different atms.jsonl, want the same bytes")
	}

	code, out, _ = runFixturesCmd(t, nil, "fixtures", "check", dir)
	if code != 0 || !strings.Contains(out, "valid: 13 provinces, 24 institutions, 60 cities, 300 ATMs") {
		t.Fatalf("check: got exit %d and %q, want 0 and the counts", code, out)
	}

	lines := strings.Split(string(first), "\n")
	lines[4] = strings.Replace(lines[4], `"hours":`, `"hours":7,"x":`, 1)
	os.WriteFile(filepath.Join(dir, "atms.jsonl"), []byte(strings.Join(lines, "\n")), 0o644)
	code, out, errOut = runFixturesCmd(t, nil, "fixtures", "check", dir)
	if code != 1 {
		t.Errorf("check of a broken set: got exit %d, want 1", code)
	}
	for _, want := range []string{"atms.jsonl:5 (id 5): features.x: unknown field\n", "atms.jsonl:5 (id 5): features.hours: 7 is not 0, 1 or 2\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("check output %q: want it to contain %q", out, want)
		}
	}
	if want := "2 problems"; !strings.Contains(errOut, want) {
		t.Errorf("check stderr %q: want it to contain %q", errOut, want)
	}
	lines[4] = strings.Replace(lines[4], `"hours":7,"x":`, `"hours":`, 1)
	lines[6] = strings.Replace(lines[6], `"hours":`, `"hours":9`, 1) // 90, 91 or 92
	os.WriteFile(filepath.Join(dir, "atms.jsonl"), []byte(strings.Join(lines, "\n")), 0o644)
	code, out, errOut = runFixturesCmd(t, nil, "fixtures", "check", dir)
	if want := "atmkit: " + dir + ": 1 problem\n"; code != 1 || errOut != want || !strings.HasPrefix(out, "atms.jsonl:7 (id 7): features.hours: 9") || strings.Count(out, "\n") != 1 {
		t.Errorf("check of a set with one problem: got exit %d, %q and %q; want 1, its line and %q", code, out, errOut, want)
	}
}

func TestFixturesProgress(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	code, _, errOut := runFixturesCmd(t, nil, "fixtures", "generate", "--seed", "5", "--atms", "100000", "--out", dir)
	if code != 0 {
		t.Fatalf("got exit %d, want 0; stderr %q", code, errOut)
	}
	if n := strings.Count(errOut, "% )"); n != 0 {
		t.Fatalf("malformed progress: %q", errOut)
	}
	if n := strings.Count(errOut, "ATMs ("); n != 9 {
		t.Errorf("got %d progress lines, want 9 (10%% to 90%%): %q", n, errOut)
	}
}

func TestFixturesUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		code int
		want string // in stdout+stderr
	}{
		{[]string{"fixtures"}, exitUsage, "no subcommand given"},
		{[]string{"fixtures", "frobnicate"}, exitUsage, `unknown subcommand "frobnicate"`},
		{[]string{"fixtures", "--help"}, exitOK, "Subcommands:"},
		{[]string{"fixtures", "generate", "--help"}, exitOK, "--seed"},
		{[]string{"fixtures", "check", "--help"}, exitOK, "fixtures check [--shape FILE] DIR"},
		{[]string{"fixtures", "generate"}, exitUsage, "--out DIR is required"},
		{[]string{"fixtures", "generate", "--seed", "0", "--out", "x"}, exitUsage, "--seed 0: must not be 0"},
		{[]string{"fixtures", "generate", "--atms", "0", "--out", "x"}, exitUsage, "--atms 0: out of range [1, 10000000]"},
		{[]string{"fixtures", "generate", "--out", "x", "extra"}, exitUsage, `unexpected argument "extra"`},
		{[]string{"fixtures", "check"}, exitUsage, "want one data set directory"},
		{[]string{"fixtures", "check", "/nonexistent/fixtures"}, exitUsage, "/nonexistent/fixtures: the directory does not exist"},
		{[]string{"fixtures", "generate", "--out", "fixtures_test.go"}, exitUsage, "--out fixtures_test.go: fixtures_test.go is not a directory"},
	}
	for _, tt := range tests {
		code, out, errOut := runFixturesCmd(t, nil, tt.args...)
		if code != tt.code || !strings.Contains(out+errOut, tt.want) {
			t.Errorf("atmkit %s: got exit %d and %q, want %d and %q", strings.Join(tt.args, " "), code, out+errOut, tt.code, tt.want)
		}
	}
	// A wrong value from a variable names the variable.
	for name, want := range map[string]string{"ATMKIT_ATMS": `ATMKIT_ATMS="0": out of range`, "ATMKIT_SEED": `ATMKIT_SEED="0": must not be 0`} {
		code, out, errOut := runFixturesCmd(t, map[string]string{name: "0"}, "fixtures", "generate", "--out", "x")
		if code != exitUsage || !strings.Contains(errOut, want) {
			t.Errorf("%s=0 atmkit fixtures generate: got exit %d and %q, want 2 and %q", name, code, out+errOut, want)
		}
	}
}

// TestFixturesOneATM: a data set of one ATM is counted as one, in generate,
// check and serve's banner.
func TestFixturesOneATM(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "one")
	code, out, errOut := runFixturesCmd(t, nil, "fixtures", "generate", "--seed", "3", "--atms", "1", "--out", dir)
	if code != 0 {
		t.Fatalf("generate: got exit %d, want 0; stderr %q", code, errOut)
	}
	for _, want := range []string{"generating 1 ATM with seed 3\n", "atms.jsonl (1 ATM, ", ": 1 ATM)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("generate output %q: want it to contain %q", out, want)
		}
	}
	if strings.Contains(out, "1 ATMs") {
		t.Errorf("generate output %q: 1 ATMs", out)
	}
	code, out, _ = runFixturesCmd(t, nil, "fixtures", "check", dir)
	if want := "60 cities, 1 ATM (checked in"; code != 0 || !strings.Contains(out, want) {
		t.Errorf("check: got exit %d and %q, want 0 and %q", code, out, want)
	}
	r := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0", "--fixtures", dir)
	if want := "data set:   " + dir + ": 1 ATM, 24 institutions"; !strings.Contains(r.stdout.String(), want) {
		t.Errorf("banner: want %q in %q", want, r.stdout)
	}
}

// TestFixturesCheckShape: fixtures check --shape finds the values a
// shape's types cannot hold, as serve --shape would at start, exit 1
// naming the field; a shape they fit passes, saying so; a shape that is
// not valid is exit 2.
func TestFixturesCheckShape(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	if code, _, errOut := runFixturesCmd(t, nil, "fixtures", "generate", "--seed", "42", "--atms", "300", "--out", dir); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, errOut)
	}
	learned, err := os.ReadFile("../../shape/learn/testdata/reference-learned.yaml")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		p := filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	narrow := write("narrow.yaml", strings.Replace(string(learned), "{element: Count, type: int", "{element: Count, type: unsignedByte", 1))
	fits := write("learned.yaml", string(learned))
	broken := write("broken.yaml", strings.Replace(string(learned), "value: institution.name}", "value: institution.title}", 1))

	code, out, errOut := runFixturesCmd(t, nil, "fixtures", "check", "--shape", narrow, dir)
	if want := "results.AtmResult/Count: type unsignedByte holds 0 to 255, but an answer listing the data set's 300 ATMs has count 300"; code != exitFailure || !strings.Contains(out, want) || !strings.Contains(errOut, "does not fit --shape "+narrow) {
		t.Errorf("check --shape of a narrow shape: exit %d, %q, %q; want 1 and %q", code, out, errOut, want)
	}
	code, out, errOut = runFixturesCmd(t, nil, "fixtures", "check", "--shape", fits, dir)
	if code != exitOK || !strings.Contains(out, "300 ATMs, every value fits --shape "+fits) {
		t.Errorf("check --shape of a shape the data fits: exit %d, %q, %q; want 0 saying it fits", code, out, errOut)
	}
	// serve refuses what check finds.
	if code, _, errOut := runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--fixtures", dir, "--shape", narrow); code != exitUsage || !strings.Contains(errOut, "results.AtmResult/Count: type unsignedByte") {
		t.Errorf("serve with the narrow shape: exit %d, %q; want 2 naming the field", code, errOut)
	}
	if code, _, errOut := runFixturesCmd(t, nil, "fixtures", "check", "--shape", broken, dir); code != exitUsage || !strings.Contains(errOut, "institution.title") {
		t.Errorf("check --shape of a shape that is not valid: exit %d, %q; want 2 naming the problem", code, errOut)
	}
}

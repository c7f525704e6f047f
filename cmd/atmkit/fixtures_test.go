package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

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
	// Its size in the units of the docs and bench's report (powers of 1000):
	// it said 0.1 MB (of 2^20 bytes), and 414.0 MB of the docs' 434 MB file.
	if want := fmt.Sprintf("atms.jsonl (300 ATMs, %.1f KB)\n", float64(len(first))/1e3); !strings.Contains(out, want) {
		t.Errorf("generate output %q: want the file's size, %q", out, want)
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
	// Both the generating and the writing (434 MB at a million ATMs, which
	// went unreported) say how far they are, how fast and how long is left.
	for _, what := range []string{"generated", "wrote"} {
		tail := "ATMs"
		if what == "wrote" {
			tail += " to " + regexp.QuoteMeta(filepath.Join(dir, "atms.jsonl"))
		}
		line := regexp.MustCompile(`(?m)^atmkit: ` + what + ` \d+ of 100000 ` + tail + ` \(\d0%, \d+ a second, (about \d+(\.\d+)?[a-z]+|under a second) left\)$`)
		if n := len(line.FindAllString(errOut, -1)); n != 9 {
			t.Errorf("got %d progress lines of what it %s, want 9 (10%% to 90%%): %q", n, what, errOut)
		}
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
	// A directory where a file of the data set goes: refused before any
	// work, not after generating (exit 1, "rename ...: file exists").
	blocked := t.TempDir()
	if err := os.Mkdir(filepath.Join(blocked, "atms.jsonl"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runFixturesCmd(t, nil, "fixtures", "generate", "--atms", "3", "--out", blocked)
	if want := "--out " + blocked + ": atms.jsonl in it is a directory, which a file cannot replace"; code != exitUsage || !strings.Contains(errOut, want) || out != "" {
		t.Errorf("generate into a directory holding a directory atms.jsonl: got exit %d, %q and %q; want 2 and %q", code, out, errOut, want)
	}
	// A shape file named by ATMKIT_SHAPE that cannot be read names the
	// variable, as other flags' variables do (it named --shape).
	code, _, errOut = runFixturesCmd(t, map[string]string{"ATMKIT_SHAPE": "no-such-shape.yaml"}, "fixtures", "check", blocked)
	if want := "atmkit fixtures check: ATMKIT_SHAPE: shape file not found: no-such-shape.yaml (--shape)"; code != exitUsage || !strings.Contains(errOut, want) {
		t.Errorf("ATMKIT_SHAPE=no-such-shape.yaml atmkit fixtures check: got exit %d and %q, want 2 and %q", code, errOut, want)
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

// serveVerdict starts atmkit serve with args and says whether it listened
// (then it is stopped: exit 0) or refused to start (its exit code and
// stderr).
func serveVerdict(t *testing.T, args ...string) (code int, stderr string) {
	t.Helper()
	stdout, errOut := newLockedBuffer(), newLockedBuffer()
	m := &Main{cli.Env{Stdout: stdout, Stderr: errOut, Getenv: func(string) string { return "" }}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan int, 1)
	go func() { done <- m.Exit(m.Run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...))) }()
	select {
	case <-stdout.url:
		cancel()
		return <-done, errOut.String()
	case c := <-done:
		return c, errOut.String()
	case <-time.After(60 * time.Second):
		cancel()
		t.Fatalf("serve %s neither listened nor ended within 60s", strings.Join(args, " "))
	}
	return 0, ""
}

// TestFixturesCheckShapeAgreesWithServe: fixtures check --shape FILE DIR
// finds exactly what serve --fixtures DIR --shape FILE refuses at start,
// for typed, attribute and DataSet shapes, and data sets at the edges of
// their types: 255 and 256 ATMs (a count in an unsignedByte), an ATM id
// past 32767 (an id in a short). Where serve refuses (exit 2) check
// exits 1 naming the same fields; where serve starts, check exits 0.
func TestFixturesCheckShapeAgreesWithServe(t *testing.T) {
	t.Parallel()
	sets := map[string]string{}
	for _, n := range []int{255, 256} {
		dir := filepath.Join(t.TempDir(), fmt.Sprint(n))
		if code, _, errOut := runFixturesCmd(t, nil, "fixtures", "generate", "--seed", "7", "--atms", fmt.Sprint(n), "--out", dir); code != 0 {
			t.Fatalf("generate: exit %d: %s", code, errOut)
		}
		sets[fmt.Sprint(n)] = dir
	}
	// 255 ATMs, the last one's id 40001.
	bigID := filepath.Join(t.TempDir(), "big-id")
	if err := os.CopyFS(bigID, os.DirFS(sets["255"])); err != nil {
		t.Fatal(err)
	}
	atms, err := os.ReadFile(filepath.Join(bigID, "atms.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(atms), "\n"), "\n")
	if !strings.HasPrefix(lines[len(lines)-1], `{"id":255,`) {
		t.Fatalf("the last ATM: got %.40s, want id 255", lines[len(lines)-1])
	}
	lines[len(lines)-1] = `{"id":40001,` + strings.TrimPrefix(lines[len(lines)-1], `{"id":255,`)
	if err := os.WriteFile(filepath.Join(bigID, "atms.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sets["big-id"] = bigID

	// Shapes learned from the reference deployments, with a type narrowed.
	narrow := func(learned, value, to string) string {
		data, err := os.ReadFile("../../shape/learn/testdata/" + learned + "-learned.yaml")
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(`type: int((?:, [a-zA-Z]+: [a-z]+)*), value: ` + regexp.QuoteMeta(value) + `\}`)
		out := re.ReplaceAllString(string(data), "type: "+to+"${1}, value: "+value+"}")
		if value != "" && out == string(data) {
			t.Fatalf("%s: no int field of value %s", learned, value)
		}
		p := filepath.Join(t.TempDir(), learned+"-"+value+"-"+to+".yaml")
		if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		shape, set string
		fields     []string // the fields check names (exit 1); none: exit 0
	}{
		{narrow("reference", "count", "unsignedByte"), "255", nil},
		{narrow("reference", "count", "unsignedByte"), "256", []string{"results.AtmResult/Count: type unsignedByte"}},
		{narrow("reference", "index", "unsignedByte"), "256", nil}, // numbered 0 to 255
		{narrow("typedds", "id", "short"), "255", nil},
		{narrow("typedds", "id", "short"), "big-id", []string{"results.locations/locations/location/id: type short"}},
		{narrow("typedds", "count", "unsignedByte"), "256", []string{"results.locations/count: type unsignedByte"}},
		{narrow("dataset", "id", "short"), "big-id", []string{"results.AtmFinder.dataset.Machine.AtmNo: type short"}},
		{narrow("dataset", "count", "unsignedByte"), "256", []string{"results.AtmFinder.dataset.Summary.Found: type unsignedByte"}},
		{narrow("dataset", "count", "unsignedByte"), "255", nil},
		{narrow("attrs", "id", "short"), "big-id", []string{"results.Lookup/Machines/Machine/@ref: type short"}},
		{narrow("attrs", "index", "unsignedByte"), "big-id", nil},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.shape)+"/"+tt.set, func(t *testing.T) {
			t.Parallel()
			dir := sets[tt.set]
			checkCode, out, checkErr := runFixturesCmd(t, nil, "fixtures", "check", "--shape", tt.shape, dir)
			serveCode, serveErr := serveVerdict(t, "--fixtures", dir, "--shape", tt.shape)
			if len(tt.fields) == 0 {
				if checkCode != exitOK || serveCode != exitOK {
					t.Errorf("check: exit %d (%s%s), serve: exit %d (%s); want both to accept", checkCode, out, checkErr, serveCode, serveErr)
				}
				return
			}
			if checkCode != exitFailure || serveCode != exitUsage {
				t.Errorf("check: exit %d, serve: exit %d; want 1 and 2\ncheck: %s%s\nserve: %s", checkCode, serveCode, out, checkErr, serveErr)
			}
			field := regexp.MustCompile(`results\.\S+: type [a-zA-Z]+`)
			if got, served := field.FindAllString(out, -1), field.FindAllString(serveErr, -1); !slices.Equal(got, tt.fields) || !slices.Equal(served, tt.fields) {
				t.Errorf("fields: check named %q, serve %q; want %q", got, served, tt.fields)
			}
		})
	}
}

// TestFixturesTempFilesOfAKilledRun: a fixtures generate killed while it
// wrote (SIGKILL) leaves its temporary file, a hidden file as large as what
// it had written; nothing removed it, nor said it was there. check names
// each; generate removes one unwritten for a minute, saying so, and names
// a newer one (another run's, perhaps writing now) without removing it.
func TestFixturesTempFilesOfAKilledRun(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "data")
	if code, _, errOut := runFixturesCmd(t, nil, "fixtures", "generate", "--atms", "20", "--out", dir); code != 0 {
		t.Fatalf("generate: exit %d; stderr %q", code, errOut)
	}
	old, fresh := filepath.Join(dir, ".atms.jsonl.2385533428.tmp"), filepath.Join(dir, ".atms.jsonl.17.tmp")
	for _, p := range []string{old, fresh} {
		if err := os.WriteFile(p, bytes.Repeat([]byte(`{"id":1}`+"\n"), 1000), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	hourAgo := time.Now().Add(-time.Hour)
	if err := os.Chtimes(old, hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}

	code, _, errOut := runFixturesCmd(t, nil, "fixtures", "check", dir)
	for _, p := range []string{old, fresh} {
		if want := p + " (9.0 KB) is the temporary file of a run writing " + dir + ", or left by one killed while writing; remove it if none is running"; code != 0 || !strings.Contains(errOut, want) {
			t.Errorf("check: got exit %d and %q, want 0 and %q", code, errOut, want)
		}
		if _, err := os.Stat(p); err != nil {
			t.Errorf("check removed %s: %v", p, err)
		}
	}

	code, _, errOut = runFixturesCmd(t, nil, "fixtures", "generate", "--atms", "20", "--out", dir)
	if want := "removed " + old + " (9.0 KB), left by an earlier run killed while writing"; code != 0 || !strings.Contains(errOut, want) {
		t.Errorf("generate: got exit %d and %q, want 0 and %q", code, errOut, want)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("generate left %s: %v", old, err)
	}
	if _, err := os.Stat(fresh); err != nil || !strings.Contains(errOut, fresh+" (9.0 KB) is the temporary file") {
		t.Errorf("generate: got %q and %v, want %s named and kept", errOut, err, fresh)
	}
}

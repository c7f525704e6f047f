package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestFixturesGenerateOnAFullDisk: fixtures generate that runs out of room
// writing atms.jsonl, on a full file system (a 1 MB tmpfs, mounted in a
// user and mount namespace of its own; skipped where none can be made) or
// over the file size limit (ulimit -f), exits 1 with one line naming the
// file and the cause, and saying that the data set already there is as it
// was: it is, byte for byte, with no temporary file left beside it. The
// message was "save fixtures: write D/atms.jsonl: write
// D/.atms.jsonl.1692098057.tmp: no space left on device", the file named
// twice, the second time by a name the user never sees.
func TestFixturesGenerateOnAFullDisk(t *testing.T) {
	t.Parallel()
	want := t.TempDir() // the data set already there: 100 ATMs of the default seed
	if code, _, errOut := runFixturesCmd(t, nil, "fixtures", "generate", "--atms", "100", "--out", want); code != 0 {
		t.Fatalf("generate: exit %d; stderr %q", code, errOut)
	}
	// Each case's script gets the data set's directory as $D, a directory
	// to copy what it holds after the run to as $KEEP (a tmpfs mounted in
	// the namespace is gone with it), and runs this test binary as atmkit
	// ($0): first the 100 ATMs, then 20,000 (8.6 MB), which fail.
	const second = `"$0" fixtures generate --atms 20000 --seed 7 --out "$D" >/dev/null 2>"$KEEP/stderr"; echo $? >"$KEEP/code"
cp -a "$D/." "$KEEP/set"`
	cases := []struct {
		name   string
		wrap   []string // runs sh -c script
		script string
		cause  string
	}{
		{"tmpfs", []string{"unshare", "-Urm"}, `mount -t tmpfs -o size=1m tmpfs "$D" || exit 97
"$0" fixtures generate --atms 100 --out "$D" >/dev/null || exit 98
` + second, "no space left on device"},
		{"ulimit", nil, `"$0" fixtures generate --atms 100 --out "$D" >/dev/null || exit 98
ulimit -f 1024 || exit 97
` + second, "file too large"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if len(c.wrap) > 0 {
				if out, err := exec.Command(c.wrap[0], append(c.wrap[1:], "true")...).CombinedOutput(); err != nil {
					t.Skipf("no user and mount namespace here (%v: %s)", err, out)
				}
			}
			d, keep := t.TempDir(), t.TempDir()
			args := append(c.wrap, "sh", "-c", c.script, os.Args[0])
			cmd := exec.Command(args[0], args[1:]...)
			cmd.Env = append(cleanEnv(), testMainVar+"=1", "D="+d, "KEEP="+keep)
			if out, err := cmd.CombinedOutput(); err != nil {
				if code := cmd.ProcessState.ExitCode(); code == 97 {
					t.Skipf("cannot make the disk full here: %s", out)
				}
				t.Fatalf("%v: %v: %s", args, err, out)
			}
			code, _ := os.ReadFile(filepath.Join(keep, "code"))
			stderr, _ := os.ReadFile(filepath.Join(keep, "stderr"))
			file := filepath.Join(d, "atms.jsonl")
			line := "atmkit: fixtures generate: cannot write " + file + ": " + c.cause + "; the data set in " + d + " is as it was\n"
			if got, _ := strconv.Atoi(strings.TrimSpace(string(code))); got != exitFailure || string(stderr) != line {
				t.Errorf("got exit %s and stderr %q, want %d and %q", bytes.TrimSpace(code), stderr, exitFailure, line)
			}
			entries, err := os.ReadDir(filepath.Join(keep, "set"))
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
				old, _ := os.ReadFile(filepath.Join(want, e.Name()))
				if now, _ := os.ReadFile(filepath.Join(keep, "set", e.Name())); !bytes.Equal(now, old) {
					t.Errorf("%s: changed (%d bytes, was %d)", e.Name(), len(now), len(old))
				}
			}
			if got := strings.Join(names, " "); got != "atms.jsonl cities.json institutions.json provinces.json" {
				t.Errorf("the data set's directory holds %s, want its four files only", got)
			}
		})
	}
}

// TestFixturesGenerateFailsIntoANewDirectory: a fixtures generate that
// cannot write into a directory holding no data set says that nothing was
// written there, not that "the data set in D is as it was", which there
// was none of.
func TestFixturesGenerateFailsIntoANewDirectory(t *testing.T) {
	t.Parallel()
	d := filepath.Join(t.TempDir(), "new")
	cmd := exec.Command("sh", "-c", `ulimit -f 16 && exec "$0" fixtures generate --atms 20000 --out "$D"`, os.Args[0])
	cmd.Env = append(cleanEnv(), testMainVar+"=1", "D="+d)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	line := "atmkit: fixtures generate: cannot write " + filepath.Join(d, "atms.jsonl") + ": file too large; nothing was written to " + d + "\n"
	if code := cmd.ProcessState.ExitCode(); code != exitFailure || stderr.String() != line {
		t.Errorf("got exit %d (%v) and stderr %q, want %d and %q", code, err, stderr.String(), exitFailure, line)
	}
	if entries, err := os.ReadDir(d); err != nil || len(entries) != 0 {
		t.Errorf("%s holds %v (%v), want nothing", d, entries, err)
	}
}

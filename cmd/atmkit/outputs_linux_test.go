package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/atmkit/atmkit/internal/mocktest"
)

// runAsEnv, set in the environment of this test binary, makes
// TestOutputsOfAnotherUser run atmkit with its lines as arguments, print
// the exit code and the output, and stop.
const runAsEnv = "ATMKIT_TEST_RUN_AS"

// TestOutputsOfAnotherUser: an output written atomically (a temporary file
// renamed over it) naming a file another user owns in a sticky directory
// (as /tmp is), which the directory checks pass but the rename refuses, is
// a wrong setting found at the start, exit 2 naming the flag and why: not
// exit 1 (or 2) after the work, naming atomicfile's temporary file. So are
// the cassettes cassette scrub and verify --update rewrite, and those in a
// directory this user cannot create files in (the rewrite's temporary file
// and lock go there); scrub --check, which writes nothing, only reports. It
// needs root, to run atmkit as uid 65534 on root's files.
func TestOutputsOfAnotherUser(t *testing.T) {
	if args := os.Getenv(runAsEnv); args != "" {
		code, stdout, stderr := runAtmkitWithin(10*time.Second, nil, strings.Split(args, "\n")...)
		fmt.Printf("exit %d\n%s%s", code, stdout, stderr)
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root, to make files another user cannot replace")
	}
	t.Parallel()
	base := mocktest.SharedTempDir(t, "atmkit-outputs-", map[string]os.FileMode{"": 0o755, "tmp": 0o1777 | os.ModeSticky, "fixtures": 0o1777 | os.ModeSticky})
	sticky, fixturesDir := filepath.Join(base, "tmp"), filepath.Join(base, "fixtures")
	golden, err := os.ReadFile(goldenCassette(t, 0))
	if err != nil {
		t.Fatal(err)
	}
	cassette := filepath.Join(base, "golden.yaml")
	at := func(name string) string { return filepath.Join(sticky, name) }
	for path, data := range map[string][]byte{
		cassette: golden, at("atm.yaml"): golden, // root's, and readable
		at("keyed.yaml"): bytes.ReplaceAll(golden, []byte("REDACTED"), []byte(leakKey)),
		at("junit.xml"):  nil, at("report.json"): nil, at("shape.yaml"): nil, at("verify.xml"): nil,
		filepath.Join(fixturesDir, "atms.jsonl"): nil,
	} {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bin := mocktest.CopyTestBinary(t, base, "atmkit.test")
	const closed = "http://127.0.0.1:1" // never reached: the outputs are checked first
	const cannotReplace = ": cannot replace it (operation not permitted): it is likely another user's, in a directory where only a file's owner may replace it (such as /tmp); remove it, or name another file"
	cannotCreate := ": cannot create files in " + base + " (permission denied) as uid 65534: make the directory writable for it, or choose another"
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"conform", "--target", closed, "--key", "k", "--junit-report", at("junit.xml")}, exitUsage, "--junit-report " + at("junit.xml") + cannotReplace},
		{[]string{"conform", "--target", closed, "--key", "k", "--json-report", at("report.json")}, exitUsage, "--json-report " + at("report.json") + cannotReplace},
		{[]string{"shape", "learn", "--cassette", cassette, "--out", at("shape.yaml")}, exitUsage, "--out " + at("shape.yaml") + cannotReplace},
		{[]string{"fixtures", "generate", "--atms", "5", "--out", fixturesDir}, exitUsage, "--out " + fixturesDir + ": atms.jsonl in it" + cannotReplace},
		{[]string{"record", "--upstream", closed, "--addr", "127.0.0.1:0", "--cassette", at("atm")}, exitUsage, "--cassette " + at("atm") + cannotReplace},
		{[]string{"cassette", "verify", "--upstream", closed, "--key", "k", "--junit-report", at("verify.xml"), cassette}, exitUsage, "--junit-report " + at("verify.xml") + cannotReplace},
		{[]string{"cassette", "verify", "--upstream", closed, "--key", "k", "--update", at("atm.yaml")}, exitUsage, "--update: " + at("atm.yaml") + cannotReplace},
		{[]string{"cassette", "verify", "--upstream", closed, "--key", "k", "--update", cassette}, exitUsage, "--update: " + cassette + cannotCreate},
		{[]string{"cassette", "scrub", at("keyed.yaml")}, exitUsage, "atmkit cassette scrub: " + at("keyed.yaml") + cannotReplace + " (--check only reports)"},
		{[]string{"cassette", "scrub", cassette}, exitUsage, "atmkit cassette scrub: " + cassette + cannotCreate + " (--check only reports)"},
		// --check writes nothing: it reports, whoever owns the files.
		{[]string{"cassette", "scrub", "--check", at("keyed.yaml")}, exitFailure, at("keyed.yaml") + ": 9 values to redact in 3 interactions\n"},
		{[]string{"cassette", "scrub", "--check", at("atm.yaml"), cassette}, exitOK, at("atm.yaml") + ": clean, unchanged\n" + cassette + ": clean, unchanged\n"},
	} {
		out := mocktest.RunTest(t, "atmkit "+strings.Join(tc.args, " ")+" as uid 65534", bin, "TestOutputsOfAnotherUser", base,
			&syscall.Credential{Uid: mocktest.Nobody, Gid: mocktest.Nobody}, runAsEnv+"="+strings.Join(tc.args, "\n"))
		got, _, _ := strings.Cut(string(out), "PASS\n")
		if !strings.HasPrefix(got, fmt.Sprintf("exit %d\n", tc.code)) || !strings.Contains(got, tc.want) || strings.Contains(got, ".tmp") {
			t.Errorf("atmkit %s as uid 65534:\n%swant exit %d with %q, and no temporary file's name", strings.Join(tc.args, " "), got, tc.code, tc.want)
		}
	}
}

// TestUnreadableInputs: cassettes and a config file this user may not
// read (a mount of another user's, as the image's uid 65532 meets them)
// are a wrong setting, exit 2 naming the flag, the path and the uid, as
// an unreadable --fixtures is: not exit 1 with a bare error. It needs
// root, to run atmkit as uid 65534 on root's files (through
// TestOutputsOfAnotherUser's runAsEnv).
func TestUnreadableInputs(t *testing.T) {
	if os.Getenv(runAsEnv) != "" {
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root, to make files another user cannot read")
	}
	t.Parallel()
	base := mocktest.SharedTempDir(t, "atmkit-unreadable-", map[string]os.FileMode{"": 0o755, "closed": 0o700, "open": 0o755})
	golden, err := os.ReadFile(goldenCassette(t, 0))
	if err != nil {
		t.Fatal(err)
	}
	closedFile, unreadable, config := filepath.Join(base, "closed", "atm.yaml"), filepath.Join(base, "open", "atm.yaml"), filepath.Join(base, "open", "atmkit.yaml")
	for path, mode := range map[string]os.FileMode{closedFile: 0o644, unreadable: 0o600, config: 0o600} {
		if err := os.WriteFile(path, golden, mode); err != nil {
			t.Fatal(err)
		}
	}
	bin := mocktest.CopyTestBinary(t, base, "atmkit.test")
	for _, tc := range []struct{ flag, path string }{
		{"--replay", closedFile}, {"--replay", unreadable}, {"--replay", filepath.Join(base, "open")}, {"--config", config},
	} {
		args := []string{"serve", "--addr", "127.0.0.1:0", tc.flag, tc.path}
		out := mocktest.RunTest(t, "atmkit "+strings.Join(args, " ")+" as uid 65534", bin, "TestOutputsOfAnotherUser", base,
			&syscall.Credential{Uid: mocktest.Nobody, Gid: mocktest.Nobody}, runAsEnv+"="+strings.Join(args, "\n"))
		got, _, _ := strings.Cut(string(out), "PASS\n")
		want := "(permission denied) as uid 65534: make it, and the directories above it, readable for that user; see atmkit serve --help"
		if !strings.HasPrefix(got, fmt.Sprintf("exit %d\n", exitUsage)) || !strings.Contains(got, "atmkit serve: "+tc.flag+" "+tc.path+": cannot read ") || !strings.Contains(got, want) {
			t.Errorf("atmkit %s as uid 65534:\n%swant exit %d with %s, the path and %q", strings.Join(args, " "), got, exitUsage, tc.flag, want)
		}
	}
}

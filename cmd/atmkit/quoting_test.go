package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// shWords is line as sh splits it into arguments.
func shWords(t *testing.T, line string) []string {
	t.Helper()
	out, err := exec.Command("sh", "-c", `eval "set -- $1"; printf '%s\n' "$@"`, "sh", line).Output()
	if err != nil {
		t.Fatalf("sh reading %q: %v", line, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
}

// TestPrintedCommandsQuotePaths: the commands atmkit prints to paste
// (fixtures generate's and shape learn's "serve it:", serve's "trust it
// with curl --cacert" and try line) give a path with a space as one
// argument, as C:\Users\Jane Doe\... is on Windows; they split it in two.
func TestPrintedCommandsQuotePaths(t *testing.T) {
	t.Parallel()
	base := filepath.Join(t.TempDir(), "my files")
	line := func(t *testing.T, out, re string) string {
		t.Helper()
		m := regexp.MustCompile(re).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no line matching %s in:\n%s", re, out)
		}
		return m[1]
	}
	wantArgs := func(t *testing.T, printed string, want ...string) {
		t.Helper()
		if got := shWords(t, printed); !slices.Equal(got, want) {
			t.Errorf("%s reads as %q, want %q", printed, got, want)
		}
	}

	t.Run("fixtures generate", func(t *testing.T) {
		t.Parallel()
		dir := filepath.Join(base, "data")
		code, out, errOut := runAtmkit(nil, "fixtures", "generate", "--atms", "20", "--out", dir)
		if code != exitOK {
			t.Fatalf("fixtures generate: exit %d, %s", code, errOut)
		}
		wantArgs(t, line(t, out, `(?m)^serve it: (.*)$`), "atmkit", "serve", "--fixtures", dir)
	})
	t.Run("shape learn", func(t *testing.T) {
		t.Parallel()
		out := filepath.Join(base, "shapes", "learned.yaml")
		code, stdout, errOut := runAtmkit(nil, "shape", "learn", "--cassette", goldenCassette(t, 1), "--out", out)
		if code != exitOK && code != exitFailure { // 1: something not seen
			t.Fatalf("shape learn: exit %d, %s", code, errOut)
		}
		wantArgs(t, line(t, stdout, `(?m)^  serve it: (.*)$`), "atmkit", "serve", "--shape", out)
	})
	t.Run("serve --tls-ca-out", func(t *testing.T) {
		t.Parallel()
		dir := filepath.Join(base, "certs")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		ca := filepath.Join(dir, "ca.pem")
		_, stdout, _ := startServe(t, nil, "--tls-self-signed", "--tls-ca-out", ca)
		if !stdout.waitFor("try:") {
			t.Fatalf("no try line: %s", stdout)
		}
		banner := stdout.String()
		wantArgs(t, line(t, banner, `trust it with (curl --cacert .*), atmkit --ca-cert`), "curl", "--cacert", ca)
		try := shWords(t, line(t, banner, `(?m)^  try: +(.*)$`))
		if len(try) != 4 || try[2] != "--cacert" || try[3] != ca {
			t.Errorf("try line reads as %q, want curl URL --cacert %s", try, ca)
		}
	})
}

// TestShellSetting: ATMKIT_SHELL=powershell makes the lines to paste
// PowerShell's (the path in single quotes, curl.exe, $env:ATMKIT_KEY), for
// when the shell found is not the one the user pastes into (a shell's own
// name, pwsh, reads too); a value naming no shell atmkit writes for is refused with exit 2, naming the variable, before the command
// runs.
func TestShellSetting(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "my data")
	env := map[string]string{"ATMKIT_SHELL": "powershell"}
	code, out, errOut := runAtmkit(env, "fixtures", "generate", "--atms", "20", "--out", dir)
	if code != exitOK || !strings.Contains(out, "serve it: atmkit serve --fixtures '"+dir+"'\n") {
		t.Errorf("fixtures generate with ATMKIT_SHELL=powershell: exit %d, %s%s; want the path in single quotes", code, out, errOut)
	}
	_, stdout, _ := startServe(t, map[string]string{"ATMKIT_SHELL": "powershell", "ATMKIT_KEY": "k1"})
	if !stdout.waitFor("try:") {
		t.Fatalf("no try line: %s", stdout)
	}
	if !regexp.MustCompile(`(?m)^  try: +curl\.exe "http://127\.0\.0\.1:\d+/service/service\.asmx/ReturnProvinces\?strAtmServiceKey=\$env:ATMKIT_KEY"$`).MatchString(stdout.String()) {
		t.Errorf("with ATMKIT_SHELL=powershell, the try line is not PowerShell's:\n%s", stdout)
	}
	code, out, errOut = runAtmkit(map[string]string{"ATMKIT_SHELL": "pwsh"}, "fixtures", "generate", "--atms", "20", "--out", dir)
	if code != exitOK || !strings.Contains(out, "serve it: atmkit serve --fixtures '"+dir+"'\n") {
		t.Errorf("fixtures generate with ATMKIT_SHELL=pwsh (PowerShell's own name): exit %d, %s%s; want the path in single quotes", code, out, errOut)
	}
	for _, v := range []string{"csh", "nu"} {
		code, out, errOut := runAtmkit(map[string]string{"ATMKIT_SHELL": v}, "fixtures", "generate", "--atms", "20", "--out", filepath.Join(t.TempDir(), "d"))
		if code != exitUsage || !strings.Contains(errOut, `ATMKIT_SHELL="`+v+`"`) || strings.Contains(out, "serve it") {
			t.Errorf("ATMKIT_SHELL=%s: exit %d, %s%s; want exit 2 naming it, nothing done", v, code, out, errOut)
		}
	}
}

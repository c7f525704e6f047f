package main

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// envRead are the ways the code names an ATMKIT_* variable it reads
// itself: read with Getenv or LookupEnv, held in a constant (shell.EnvVar,
// the bench's ceiling child's), or a flag's extra name ({"key":
// "ATMKIT_KEYS"}); not a prefix (ATMKIT_HEALTH_).
var envRead = []*regexp.Regexp{
	regexp.MustCompile(`(?:[Gg]etenv|LookupEnv)\("(ATMKIT_[A-Z0-9_]*[A-Z0-9])"\)`),
	regexp.MustCompile(`(?m)^\s*(?:const\s+)?\w+\s*=\s*"(ATMKIT_[A-Z0-9_]*[A-Z0-9])"\s*(?://.*)?$`),
	regexp.MustCompile(`"[a-z][a-z-]*":\s*"(ATMKIT_[A-Z0-9_]*[A-Z0-9])"`),
}

// TestKnownEnv: the variables atmkit knows (those it does not warn about)
// are exactly the variables of every command's flags, as --help lists
// them, and those the code reads itself.
func TestKnownEnv(t *testing.T) {
	t.Parallel()
	want := map[string]string{} // variable → who reads it
	flagLine := regexp.MustCompile(`(?m)^  -([a-z0-9-]+)`)
	for _, c := range cli.Commands {
		code, stdout, stderr := runAtmkit(nil, append(strings.Fields(c), "--help")...)
		if code != exitOK {
			t.Fatalf("atmkit %s --help: exit %d: %s", c, code, stderr)
		}
		for _, m := range flagLine.FindAllStringSubmatch(stdout, -1) {
			want[cli.CommandEnvName(c, m[1])] = "atmkit " + c + " --" + m[1]
		}
	}
	if len(want) < 50 {
		t.Fatalf("only %d flags found in the commands' --help", len(want))
	}
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, re := range envRead {
			for _, m := range re.FindAllStringSubmatch(string(b), -1) {
				rel, _ := filepath.Rel(root, path)
				want[m[1]] = filepath.ToSlash(rel)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	known := cli.KnownEnv()
	for name, who := range want {
		if !slices.Contains(known, name) {
			t.Errorf("%s (%s) is missing from cli's knownEnv: atmkit would warn that no command reads it", name, who)
		}
	}
	for _, name := range known {
		if want[name] == "" {
			t.Errorf("%s is in cli's knownEnv, but no command's flag has it and no code reads it", name)
		}
	}
}

// runAtmkitEnv runs "atmkit args..." in a child process (the test binary
// running main) with the variables env (NAME=value) and none of the test
// run's ATMKIT_* ones, and returns its exit code, stdout and stderr.
func runAtmkitEnv(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(cleanEnv(), testMainVar+"=1"), env...)
	var stdout, stderr mocktest.SyncBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0, stdout.String(), stderr.String()
	case errors.As(err, &ee):
		return ee.ExitCode(), stdout.String(), stderr.String()
	}
	t.Fatalf("running atmkit %v: %v", args, err)
	return 0, "", ""
}

// TestUnknownEnvWarns: a variable no atmkit command reads gets one warning
// line on stderr, with the variable meant when it is a typo of one, and
// never its value; the command runs as it would without it (serve, with
// ATMKIT_KYES, accepts any key, as the banner says). Variables of this
// command, and of others (serve's where health runs), get none.
func TestUnknownEnvWarns(t *testing.T) {
	t.Parallel()
	const value = "Leak-Value-9876"
	typo := "atmkit: WARNING: ATMKIT_KYES: no atmkit command reads this variable, so it is ignored (did you mean ATMKIT_KEYS?)\n"
	far := "atmkit: WARNING: ATMKIT_WHATEVER_ELSE: no atmkit command reads this variable, so it is ignored\n"
	t.Run("version", func(t *testing.T) {
		t.Parallel()
		env := []string{"ATMKIT_KYES=" + value, "ATMKIT_WHATEVER_ELSE=" + value,
			"ATMKIT_KEYS=" + value, "ATMKIT_HEALTH_TIMEOUT=3s", "ATMKIT_TARGET=" + value, "ATMKIT_BENCH_CEILING_CHILD=1"}
		code, stdout, stderr := runAtmkitEnv(t, env, "version")
		if code != exitOK || !strings.HasPrefix(stdout, "atmkit ") {
			t.Errorf("exit %d, stdout %q; want exit 0 and the version", code, stdout)
		}
		if stderr != typo+far {
			t.Errorf("stderr:\n%s\nwant:\n%s", stderr, typo+far)
		}
	})
	t.Run("health, in serve's environment", func(t *testing.T) {
		t.Parallel()
		env := []string{"ATMKIT_KEYS=" + value, "ATMKIT_ADMIN_TOKEN=" + value, "ATMKIT_FAULT=" + value, "ATMKIT_HEALTH_TIMEOUT=3s"}
		code, _, stderr := runAtmkitEnv(t, env, "health", "--url", "http://127.0.0.1:1")
		if code != exitFailure || strings.Contains(stderr, "WARNING") {
			t.Errorf("exit %d, stderr %q; want exit 1 (nothing listens) and no warning", code, stderr)
		}
	})
	t.Run("serve", func(t *testing.T) {
		t.Parallel()
		cmd := exec.Command(os.Args[0], "serve", "--addr", "127.0.0.1:0", "--log-format", "json")
		cmd.Env = append(cleanEnv(), testMainVar+"=1", "ATMKIT_KYES="+value)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr mocktest.SyncBuffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
		base := ""
		for lines := bufio.NewScanner(out); base == "" && lines.Scan(); {
			if _, url, ok := strings.Cut(lines.Text(), "listening on "); ok {
				base = strings.TrimSpace(url)
			}
		}
		if base == "" {
			t.Fatalf("serve printed no startup line; stderr: %s", stderr.String())
		}
		go func() { _, _ = io.Copy(io.Discard, out) }()
		wantGet(t, "a call with any key (ATMKIT_KYES sets no key)", base+provincesPath+"any-key-at-all", "", 200)
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err != nil {
			t.Errorf("serve, stopped by SIGINT: %v; want exit 0", err)
		}
		// The warning is the first line on stderr, where the log's records
		// (JSON here) follow.
		got := stderr.String()
		if !strings.HasPrefix(got, typo) || strings.Count(got, "WARNING") != 1 || !strings.Contains(got, `"msg":"request"`) {
			t.Errorf("stderr: got\n%s\nwant the warning first, once, then the log's records:\n%s", got, typo)
		}
		if strings.Contains(got, value) {
			t.Errorf("stderr shows the variable's value: %q", got)
		}
	})
}

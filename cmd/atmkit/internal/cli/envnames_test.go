package cli

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"
)

// parseIn parses args into a flag set of command cmd with a few flags,
// with env as the environment (Environ and Getenv), and returns what was
// written on Stderr and the error.
func parseIn(t *testing.T, cmd string, env map[string]string, args ...string) (string, error) {
	t.Helper()
	var stderr bytes.Buffer
	e := &Env{Stdout: io.Discard, Stderr: &stderr,
		Getenv: func(k string) string { return env[k] },
		Environ: func() []string {
			var kv []string
			for k, v := range env {
				kv = append(kv, k+"="+v)
			}
			return kv
		}}
	fs := NewFlagSet(cmd, cmd, "", io.Discard)
	var keys List
	fs.Var(&keys, "key", "key")
	fs.Duration("timeout", time.Second, "timeout")
	fs.Bool("brand-new", false, "a flag no other command has")
	err := e.Parse(fs, args, map[string]string{"key": "ATMKIT_KEYS"})
	return stderr.String(), err
}

// TestWarnUnknownEnv: an ATMKIT_* variable no atmkit command reads gets
// one warning line naming it, with the one meant when it is a letter or two
// off a known one (two swapped letters too); known ones, of this command
// or another, get none; no value is ever shown, and the command runs on.
func TestWarnUnknownEnv(t *testing.T) {
	t.Parallel()
	const value = "Leak-Value-9876"
	// Another case: Windows reads it (its variables are read in any case), others do not.
	var lower []string
	if runtime.GOOS != "windows" {
		lower = []string{"atmkit: WARNING: atmkit_keys: no atmkit command reads this variable, so it is ignored (did you mean ATMKIT_KEYS?)"}
	}
	for _, tc := range []struct {
		name, cmd string
		env       map[string]string
		want      []string // the warning lines, in order
	}{
		{"swapped letters", "serve", map[string]string{"ATMKIT_KYES": value}, []string{
			"atmkit: WARNING: ATMKIT_KYES: no atmkit command reads this variable, so it is ignored (did you mean ATMKIT_KEYS?)"}},
		{"a letter off, of another command", "serve", map[string]string{"ATMKIT_HEALTH_TIMOUT": value}, []string{
			"atmkit: WARNING: ATMKIT_HEALTH_TIMOUT: no atmkit command reads this variable, so it is ignored (did you mean ATMKIT_HEALTH_TIMEOUT?)"}},
		{"a letter off this command's own flag", "serve", map[string]string{"ATMKIT_BRAND_NW": value}, []string{
			"atmkit: WARNING: ATMKIT_BRAND_NW: no atmkit command reads this variable, so it is ignored (did you mean ATMKIT_BRAND_NEW?)"}},
		{"far from any", "serve", map[string]string{"ATMKIT_WHATEVER_ELSE": value, "ATMKIT_X": value}, []string{
			"atmkit: WARNING: ATMKIT_WHATEVER_ELSE: no atmkit command reads this variable, so it is ignored",
			"atmkit: WARNING: ATMKIT_X: no atmkit command reads this variable, so it is ignored"}},
		{"as near two known ones", "serve", map[string]string{"ATMKIT_KEYZ": value}, []string{
			"atmkit: WARNING: ATMKIT_KEYZ: no atmkit command reads this variable, so it is ignored"}},
		{"known, of this command and others", "serve", map[string]string{
			"ATMKIT_KEY": value, "ATMKIT_KEYS": value, "ATMKIT_TIMEOUT": "3s", "ATMKIT_BRAND_NEW": "true",
			"ATMKIT_HEALTH_TIMEOUT": "3s", "ATMKIT_HEALTH_URL": value, "ATMKIT_URL": value, "ATMKIT_SHELL": "posix",
			"ATMKIT_BENCH_CEILING_CHILD": "1", "ATMKIT_TARGET": value, "ATMKIT_WIREMOCK_JAR": value,
			"ATMKITX": value, "ATMKIT_": value, "OTHER_ATMKIT_KYES": value, "GOFLAGS": value}, nil},
		// A pod gets them for every Service of its namespace: one named
		// atmkit (docs/ci/kubernetes.yaml's, its port named http) and one
		// named atmkit-replay. Near them, a typo still warns.
		{"Kubernetes' service links", "serve", map[string]string{
			"ATMKIT_SERVICE_HOST": "10.96.0.5", "ATMKIT_SERVICE_PORT": "8080", "ATMKIT_SERVICE_PORT_HTTP": "8080",
			"ATMKIT_PORT": "tcp://10.96.0.5:8080", "ATMKIT_PORT_8080_TCP": "tcp://10.96.0.5:8080",
			"ATMKIT_PORT_8080_TCP_PROTO": "tcp", "ATMKIT_PORT_8080_TCP_PORT": "8080", "ATMKIT_PORT_8080_TCP_ADDR": "10.96.0.5",
			"ATMKIT_REPLAY_SERVICE_HOST": "10.96.0.6", "ATMKIT_REPLAY_SERVICE_PORT_HTTP_ALT": "8081",
			"ATMKIT_REPLAY_PORT_8081_UDP_ADDR": "10.96.0.6", "ATMKIT_REPORT": value}, []string{
			"atmkit: WARNING: ATMKIT_REPORT: no atmkit command reads this variable, so it is ignored"}},
		// Docker's legacy links to a service aliased atmkit (GitLab CI's
		// Docker executor): its name and environment too. A typo of a
		// flag ending in NAME still warns.
		{"Docker's links", "serve", map[string]string{
			"ATMKIT_NAME": "/runner-1/atmkit", "ATMKIT_ENV_ATMKIT_KEYS": value, "ATMKIT_ENV_PATH": "/",
			"ATMKIT_PORT": "tcp://172.17.0.3:8080", "ATMKIT_PORT_8080_TCP_ADDR": "172.17.0.3", "ATMKIT_SERVCE_NAME": value,
			// GitLab's aliases of the image atmkit/atmkit.
			"ATMKIT__ATMKIT_NAME": "/runner-1/atmkit__atmkit", "ATMKIT__ATMKIT_ENV_ATMKIT_KEYS": value, "ATMKIT__ATMKIT_PORT_8080_TCP_PROTO": "tcp",
			"ATMKIT_ATMKIT_NAME": "/runner-1/atmkit-atmkit", "ATMKIT_ATMKIT_ENV_ATMKIT_ADDR": "0.0.0.0:8080", "ATMKIT_ATMKIT_PORT": "tcp://172.17.0.3:8080"}, []string{
			"atmkit: WARNING: ATMKIT_SERVCE_NAME: no atmkit command reads this variable, so it is ignored (did you mean ATMKIT_SERVICE_NAME?)"}},
		{"another case", "serve", map[string]string{"atmkit_keys": value}, lower},
		{"health's own names", "health", map[string]string{"ATMKIT_HEALTH_BRAND_NEW": "true", "ATMKIT_ADDR": value}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			stderr, err := parseIn(t, tc.cmd, tc.env)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			var got []string
			if stderr != "" {
				got = strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("stderr:\n%s\nwant:\n%s", stderr, strings.Join(tc.want, "\n"))
			}
			if strings.Contains(stderr, value) {
				t.Errorf("stderr shows a variable's value: %q", stderr)
			}
		})
	}
}

// TestWarnUnknownEnvOnce: the warning comes once per run, on a wrong command
// line too, and not with --help, whose output is the usage alone.
func TestWarnUnknownEnvOnce(t *testing.T) {
	t.Parallel()
	env := map[string]string{"ATMKIT_KYES": "k"}
	if stderr, err := parseIn(t, "serve", env, "--help"); !errors.Is(err, flag.ErrHelp) || stderr != "" {
		t.Errorf("--help: got %v and %q on stderr, want flag.ErrHelp and nothing", err, stderr)
	}
	if stderr, err := parseIn(t, "serve", env, "--nope"); err == nil || strings.Count(stderr, "ATMKIT_KYES") != 1 {
		t.Errorf("--nope: got %v and %q on stderr, want a usage error and the warning", err, stderr)
	}
	var stderr bytes.Buffer
	e := &Env{Stdout: io.Discard, Stderr: &stderr, Getenv: func(string) string { return "" },
		Environ: func() []string { return []string{"ATMKIT_KYES=k"} }}
	for range 2 {
		if err := e.Parse(NewFlagSet("serve", "serve", "", io.Discard), nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := strings.Count(stderr.String(), "ATMKIT_KYES"); n != 1 {
		t.Errorf("two parses in one Env: %d warnings, want 1: %q", n, stderr.String())
	}
}

package main

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
)

// running is an atmkit command running in process until stop.
type running struct {
	base           string
	stdout, stderr *lockedBuffer
	stop           func() int // cancels the command and returns its exit code
}

// startCmd runs "atmkit args..." in process with the environment env until
// it prints its "listening on" line, and stops it when the test ends.
func startCmd(t *testing.T, env map[string]string, args ...string) *running {
	t.Helper()
	r := &running{stdout: newLockedBuffer(), stderr: newLockedBuffer()}
	m := &Main{cli.Env{Stdout: r.stdout, Stderr: r.stderr, Getenv: func(k string) string { return env[k] }}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int, 1)
	go func() { done <- m.Exit(m.Run(ctx, args)) }()
	var once sync.Once
	code := -1
	r.stop = func() int {
		once.Do(func() {
			cancel()
			select {
			case code = <-done:
			case <-time.After(30 * time.Second):
				t.Errorf("atmkit %s did not stop within 30s of cancel", args[0])
			}
		})
		return code
	}
	t.Cleanup(func() { r.stop() })
	select {
	case r.base = <-r.stdout.url:
		if args[0] == "serve" && !r.stdout.waitFor("curl \"") { // the banner's last line
			t.Fatalf("serve printed no whole banner within 10s: %s", r.stdout)
		}
		return r
	case c := <-done:
		once.Do(func() { code = c })
		t.Fatalf("atmkit %s ended (exit %d) before listening\nstdout: %s\nstderr: %s", args[0], c, r.stdout, r.stderr)
	case <-time.After(30 * time.Second):
		t.Fatalf("atmkit %s printed no startup line within 30s; stdout: %s", args[0], r.stdout)
	}
	return nil
}

// emptyCassette writes a cassette file with no interactions.
func emptyCassette(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "empty.yaml")
	if err := os.WriteFile(path, []byte("---\nversion: 2\ninteractions: []\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestMisconfiguration: every wrong setting stops the command at start with
// exit 2 and one line naming the setting, whether a flag, an ATMKIT_*
// variable or a config file gave it.
func TestMisconfiguration(t *testing.T) {
	t.Parallel()
	missing := filepath.Join(t.TempDir(), "no-such-dir")
	emptyDir := t.TempDir()
	empty := emptyCassette(t)
	notCassette, broken, v1 := writeConfig(t, "foo: 1\n"), writeConfig(t, "version: 2\ninteractions: [\n"), writeConfig(t, "version: 1\ninteractions: []\n")
	config := func(text string) string { return writeConfig(t, text) }
	serve := func(args ...string) []string { return append([]string{"serve", "--addr", "127.0.0.1:0"}, args...) }
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"unknown flag", []string{"serve", "--foo"}, nil, "atmkit serve: unknown flag --foo; see atmkit serve --help\n"},
		{"unknown flag of a subcommand", []string{"fixtures", "generate", "--out", "x", "--bar=1"}, nil,
			"atmkit fixtures generate: unknown flag --bar; see atmkit fixtures generate --help\n"},
		{"flag without its value", []string{"serve", "--addr"}, nil, "atmkit serve: --addr needs a value; see atmkit serve --help\n"},
		{"flag not an integer", serve("--max-body", "abc"), nil, "atmkit serve: --max-body abc: not an integer; see atmkit serve --help\n"},
		{"flag not a boolean", []string{"cassette", "scrub", "--check=maybe", "x"}, nil, "--check maybe: not true or false"},
		{"max body 0", serve("--max-body", "0"), nil, "--max-body 0: must be at least 1"},
		{"max body negative", serve("--max-body", "-5"), nil, "--max-body -5: must be at least 1"},
		{"max body from env not an integer", serve(), map[string]string{"ATMKIT_MAX_BODY": "abc"},
			`atmkit serve: ATMKIT_MAX_BODY="abc": not an integer (--max-body); see atmkit serve --help` + "\n"},
		{"max body from env 0", serve(), map[string]string{"ATMKIT_MAX_BODY": "0"}, `ATMKIT_MAX_BODY="0": must be at least 1 (bytes) (--max-body)`},
		{"max body from config 0", serve("--config", config("max_body: 0\n")), nil, "max_body in config file "},
		{"max body from config not an integer", serve("--config", config("max-body: lots\n")), nil, "max-body: lots: not an integer (--max-body)"},
		{"grace negative", serve("--grace", "-1s"), nil, "--grace -1s: must not be negative"},
		{"grace not a duration", serve("--grace", "soon"), nil, "--grace soon: not a duration"},
		{"grace from env not a duration", serve(), map[string]string{"ATMKIT_GRACE": "10"}, `ATMKIT_GRACE="10": not a duration`},
		{"namespace not a URI", serve("--namespace", "notaurl"), nil, "--namespace notaurl: not an absolute URI"},
		{"namespace from config not a URI", serve("--config", config("namespace: atm\n")), nil, "namespace in config file "},
		{"journal size negative", serve("--journal-size", "-1"), nil, "--journal-size -1: must not be negative"},
		{"journal body max negative", serve("--journal-body-max", "-1"), nil, "--journal-body-max -1: must not be negative"},
		{"journal body max from env not an integer", serve(), map[string]string{"ATMKIT_JOURNAL_BODY_MAX": "16KB"}, `ATMKIT_JOURNAL_BODY_MAX="16KB": not an integer (--journal-body-max)`},
		{"journal body max from config negative", serve("--config", config("journal-body-max: -3\n")), nil, "journal-body-max in config file "},
		{"log format", serve("--log-format", "xml"), nil, "--log-format xml: want text or json"},
		{"log format from env", serve(), map[string]string{"ATMKIT_LOG_FORMAT": "yaml"}, `ATMKIT_LOG_FORMAT="yaml": want text or json (--log-format)`},
		{"log level", serve("--log-level", "loud"), nil, "--log-level loud: want debug, info, warn or error"},
		{"deviation from env", serve(), map[string]string{"ATMKIT_DEVIATE": "nope"}, `ATMKIT_DEVIATE="nope": unknown deviation "nope"`},
		{"log level from env", serve(), map[string]string{"ATMKIT_LOG_LEVEL": "trace"}, `ATMKIT_LOG_LEVEL="trace": want debug, info, warn or error (--log-level)`},
		{"empty key", serve("--key", ""), nil, "atmkit serve: --key: an empty key"},
		{"empty key from config", serve("--config", config("keys: [good-key, '']\n")), nil, "keys in config file "},
		{"addr without a port", serve("--addr", "localhost"), nil, "--addr localhost: want host:port"},
		{"addr with a bad port", serve("--addr", "127.0.0.1:99999"), nil, "--addr 127.0.0.1:99999: the port must be a number"},
		{"addr with a signed port", serve("--addr", "127.0.0.1:+8080"), nil, "--addr 127.0.0.1:+8080: the port must be a number"},
		{"admin token with spaces", serve("--admin-token", " tok"), nil, "--admin-token: white space"},
		{"fixtures directory missing", serve("--fixtures", missing), nil, "--fixtures " + missing + ": the directory does not exist"},
		{"replay directory empty", serve("--replay", emptyDir), nil, "--replay " + emptyDir + ": no cassette files"},
		{"replay cassette empty", serve("--replay", empty), nil, "--replay " + empty + ": no answers to replay (1 cassette file, 0 interactions, 0 calls of an operation)"},
		{"replay cassette missing", serve("--replay", missing), nil, "--replay " + missing + ": cassette not found"},
		{"replay file no cassette", serve("--replay", notCassette), nil, "--replay " + notCassette + ": invalid cassette: " + notCassette + " holds no version"},
		{"replay cassette not YAML", serve("--replay", broken), nil, "--replay " + broken + ": invalid cassette: " + broken + ": yaml:"},
		{"replay cassette of another format", serve("--replay", v1), nil, "--replay " + v1 + ": unsupported cassette format version (want 2): " + v1 + " has version 1"},
		{"on-miss unknown", serve("--replay", empty, "--on-miss", "ignore"), nil, "--on-miss ignore: want fault, fixtures or upstream"},
		{"on-miss without replay", serve("--on-miss", "fixtures"), nil, "--on-miss fixtures: needs --replay PATH"},
		{"upstream not a URL", serve("--replay", empty, "--on-miss", "upstream", "--upstream", "atm.example.org"), nil,
			"--upstream atm.example.org: want an http or https URL"},
		{"record save interval", []string{"record", "--upstream", "http://x", "--cassette", filepath.Join(emptyDir, "c"), "--save-interval", "-1s"}, nil,
			"atmkit record: --save-interval -1s: must not be negative"},
		{"record progress", []string{"record", "--upstream", "http://x", "--cassette", filepath.Join(emptyDir, "c"), "--progress", "-1"}, nil,
			"--progress -1: must not be negative"},
		{"record upstream", []string{"record", "--upstream", "ftp://x", "--cassette", filepath.Join(emptyDir, "c")}, nil,
			"--upstream ftp://x: want an http or https URL"},
		{"record cassette directory a file", []string{"record", "--upstream", "http://x", "--cassette", filepath.Join(empty, "testdata", "c")}, nil,
			"--cassette " + filepath.Join(empty, "testdata", "c") + ": " + empty + " is not a directory"},
		{"record cassette a directory", []string{"record", "--upstream", "http://x", "--cassette", emptyDir + string(filepath.Separator)}, nil,
			"--cassette " + emptyDir + string(filepath.Separator) + ": names a directory; give the cassette file in it, e.g. " + filepath.Join(emptyDir, "atm")},
		// Each was taken, matched no header, and scrub said "clean, unchanged".
		{"scrub header empty", []string{"cassette", "scrub", "--scrub-header", "", empty}, nil, `atmkit cassette scrub: --scrub-header "": "" is not a header name`},
		{"scrub header with a space", []string{"cassette", "scrub", "--scrub-header", "X Api Key", empty}, nil, `--scrub-header "X Api Key": "X Api Key" is not a header name`},
		{"scrub header with its value", []string{"record", "--upstream", "http://x", "--cassette", filepath.Join(emptyDir, "c"), "--scrub-header", "X-Token: Tok-Secret-12345"}, nil,
			`--scrub-header "X-Token: To****": X-Token: …: not a header name; give the name alone (X-Token)`},
		// Echoed whole before, twice.
		{"scrub header with its value after =", []string{"record", "--upstream", "http://x", "--cassette", filepath.Join(emptyDir, "c"), "--scrub-header", "X-Token=Tok-Secret-12345"}, nil,
			`--scrub-header X-Token=To****: X-Token=…: not a header name; give the name alone (X-Token)`},
		{"scrub header from env", []string{"cassette", "verify", "--upstream", "http://x", "--key", "k", empty}, map[string]string{"ATMKIT_SCRUB_HEADER": "X-A,X B"}, `ATMKIT_SCRUB_HEADER="X-A,X B": "X B" is not a header name`},
		// A report over what the command reads: verify replaced the
		// cassette with its JUnit report, conform one report with the other.
		{"verify report over a cassette", []string{"cassette", "verify", "--upstream", "http://x", "--key", "k", "--junit-report", empty, filepath.Dir(empty)}, nil,
			"--junit-report " + empty + ": the cassette " + empty + ", which it verifies; give another file"},
		{"conform reports in one file", []string{"conform", "--target", "http://x", "--key", "k", "--junit-report", filepath.Join(emptyDir, "r"), "--json-report", filepath.Join(emptyDir, ".", "r")}, nil,
			"--json-report " + filepath.Join(emptyDir, "r") + ": the file of --junit-report; give each report a file of its own"},
		// The service's URL as the base: record and serve forwarded to
		// …/service.asmx/service/service.asmx; verify called it, got 500s,
		// and offered --update to record them over the cassette (exit 1).
		{"record upstream the service's URL", []string{"record", "--upstream", "https://atm.example.org/service/service.asmx", "--cassette", filepath.Join(emptyDir, "c")}, nil,
			"--upstream https://atm.example.org/service/service.asmx: the service's URL; want the base URL it is served under, such as https://atm.example.org (calls go to /service/service.asmx under it)"},
		{"verify upstream the service's URL", []string{"cassette", "verify", "--upstream", "http://x/Service/Service.ASMX", "--key", "k", empty}, nil, "--upstream http://x/Service/Service.ASMX: the service's URL"},
		{"serve upstream the service's URL", serve("--replay", empty, "--on-miss", "upstream", "--upstream", "http://x/atm/service/service.asmx"), nil, "--upstream http://x/atm/service/service.asmx: the service's URL"},
		// It said "atmkit fixtures check: : the directory does not exist".
		{"fixtures check an empty path", []string{"fixtures", "check", ""}, nil, `atmkit fixtures check: "": an empty path names no directory; see atmkit fixtures check --help` + "\n"},
		// It recorded into DIR.yaml beside the directory meant.
		{"record cassette an existing directory", []string{"record", "--upstream", "http://x", "--cassette", emptyDir}, nil,
			"--cassette " + emptyDir + ": names a directory; give the cassette file in it, e.g. " + filepath.Join(emptyDir, "atm")},
		{"bench connections", []string{"bench", "-c", "0"}, nil, "atmkit bench: --c 0: must be at least 1"},
		{"bench connections from env", []string{"bench"}, map[string]string{"ATMKIT_C": "many"}, `ATMKIT_C="many": not an integer (--c)`},
		{"bench empty key", []string{"bench", "--key", ""}, nil, "atmkit bench: --key: an empty key"},
		{"bench namespace", []string{"bench", "--namespace", "x"}, nil, "--namespace x: not an absolute URI"},
		{"bench fixtures missing", []string{"bench", "--fixtures", missing}, nil, "--fixtures " + missing + ": the directory does not exist"},
		{"bench target", []string{"bench", "--target", "127.0.0.1:8080"}, nil, "--target 127.0.0.1:8080: want an http or https URL"},
		{"bench operation", []string{"bench", "--op", "ReturnMoney"}, nil, "--op ReturnMoney: not an operation"},
		// Exit 1 "read config file: read DIR: is a directory", and a
		// config of /dev/zero was read until memory ran out.
		{"config a directory", serve("--config", emptyDir), nil, "atmkit serve: --config " + emptyDir + ": a directory; want a YAML file; see atmkit serve --help\n"},
		{"config over the limit", serve("--config", config(strings.Repeat("# x\n", 1<<18)+"#")), nil, ": over 1 MiB, larger than any config file: is it the right file?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runAtmkit(tt.env, tt.args...)
			wantUsageLine(t, strings.Join(tt.args, " "), code, stdout, stderr, tt.want)
		})
	}
}

// TestReplayEmptyWithFixturesWarns: with --on-miss fixtures, cassettes with
// nothing to replay are a warning, and the data set answers.
func TestReplayEmptyWithFixturesWarns(t *testing.T) {
	t.Parallel()
	empty := emptyCassette(t)
	r := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0", "--replay", empty, "--on-miss", "fixtures")
	if !r.stderr.waitFor("every call is answered from the data set") || !strings.Contains(r.stderr.String(), "holds no interactions") {
		t.Errorf("stderr: got %q, want warnings about the empty cassette", r.stderr)
	}
	wantGet(t, "ReturnProvinces from the data set", r.base+provincesPath+"k", "", 200)
	out := r.stdout.String()
	for _, want := range []string{"replay:     0 answers to 0 recorded calls, matched by operation and parameters (1 cassette file, 0 interactions: " + empty + ")", "on a miss:  answered from the data set", "data set:   embedded:"} {
		if !strings.Contains(out, want) {
			t.Errorf("banner: want %q in %q", want, out)
		}
	}
}

// TestReplayWarnsOfUnreadCalls: a cassette holding a call answered 200
// whose request no binding reads as one (its Content-Type removed by a
// hand edit) is served with a warning naming the interaction, which
// replays only to the same request as sent.
func TestReplayWarnsOfUnreadCalls(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "edited.yaml")
	text := `---
version: 2
interactions:
    - id: 7
      request:
        body: <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ReturnProvinces xmlns="http://tempuri.org/atmService"><strAtmServiceKey>REDACTED</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>
        headers:
            Soapaction:
                - '"http://tempuri.org/atmService/ReturnProvinces"'
        url: http://atm.example.org/service/service.asmx
        method: POST
      response:
        body: <soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ReturnProvincesResponse xmlns="http://tempuri.org/atmService"/></soap:Body></soap:Envelope>
        headers:
            Content-Type:
                - text/xml; charset=utf-8
        status: 200 OK
        code: 200
`
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	r := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0", "--replay", path, "--on-miss", "fixtures") // no call to replay else
	want := "WARNING: --replay: " + path + "#7 was answered 200, but its request is no call of an operation"
	if !r.stderr.waitFor(want) {
		t.Errorf("stderr: got %q, want %q", r.stderr, want)
	}
}

// TestServeBanner: the banner shows what is served (the data set only when
// it answers), and its curl hint works as printed.
func TestServeBanner(t *testing.T) {
	t.Parallel()
	t.Run("no keys: the hint's demo key works", func(t *testing.T) {
		t.Parallel()
		r := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0")
		hint := bannerLine(t, r.stdout.String(), "try:")
		u := strings.Trim(strings.TrimPrefix(hint, "curl "), `"`)
		wantGet(t, "the hint's URL", u, "", 200)
	})
	t.Run("keys: the hint names the key to fill in, sets no variable, and then works", func(t *testing.T) {
		t.Parallel()
		r := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0", "--key", "first-key-123", "--key", "k2")
		out := r.stdout.String()
		if want := "keys:       2 accepted (fi****, ******)"; !strings.Contains(out, want) {
			t.Errorf("banner: want %q in %q", want, out)
		}
		if strings.Contains(out, "export ") {
			t.Errorf("banner: the try line sets a variable: %q", out)
		}
		u := strings.Trim(strings.TrimPrefix(bannerLine(t, out, "try:"), "curl "), `"`)
		if !strings.HasSuffix(u, "strAtmServiceKey=YOUR_KEY") {
			t.Fatalf("try line's URL %q, want it to end strAtmServiceKey=YOUR_KEY", u)
		}
		code, body := get(t, u, "")
		if code != 500 || !strings.Contains(body, "strAtmServiceKey") {
			t.Errorf("the try line as printed: %d %q, want the mock's refusal of the key", code, body)
		}
		wantGet(t, "the try line with a key filled in", strings.Replace(u, "YOUR_KEY", "k2", 1), "", 200)
	})
	t.Run("keys: with the key in ATMKIT_KEY, the hint reads it from there", func(t *testing.T) {
		t.Parallel()
		env := map[string]string{"ATMKIT_KEY": "first-key-123", "ATMKIT_KEYS": "k2,k3"}
		r := startCmd(t, env, "serve", "--addr", "127.0.0.1:0")
		out := r.stdout.String()
		if want := "keys:       3 accepted (fi****, ******, ******)"; !strings.Contains(out, want) {
			t.Errorf("banner: want %q in %q (ATMKIT_KEY and ATMKIT_KEYS both count)", want, out)
		}
		u := strings.Trim(strings.TrimPrefix(bannerLine(t, out, "try:"), "curl "), `"`)
		u = os.Expand(u, func(v string) string { return env[v] })
		wantGet(t, "the try line with $ATMKIT_KEY expanded", u, "", 200)
	})
	t.Run("keys: a key in ATMKIT_KEY that a URL must escape is not pasted into one", func(t *testing.T) {
		t.Parallel()
		env := map[string]string{"ATMKIT_KEY": "a+b&c=d"}
		r := startCmd(t, env, "serve", "--addr", "127.0.0.1:0")
		u := strings.Trim(strings.TrimPrefix(bannerLine(t, r.stdout.String(), "try:"), "curl "), `"`)
		u = os.Expand(u, func(v string) string { return env[v] })
		if code, body := get(t, u, ""); code != 200 && !strings.HasSuffix(u, "strAtmServiceKey=YOUR_KEY") {
			t.Errorf("try line %q, as the shell expands it: %d %.100q; want it answered, or a YOUR_KEY to fill in", u, code, body)
		}
		wantGet(t, "the try line with the key escaped in", strings.Replace(u, "YOUR_KEY", url.QueryEscape(env["ATMKIT_KEY"]), 1), "", 200)
	})
	t.Run("fixtures directory named", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		if code, _, stderr := runAtmkit(nil, "fixtures", "generate", "--atms", "20", "--out", dir); code != 0 {
			t.Fatalf("fixtures generate: exit %d: %s", code, stderr)
		}
		r := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0", "--fixtures", dir)
		if want := "data set:   " + dir + ": 20 ATMs"; !strings.Contains(r.stdout.String(), want) {
			t.Errorf("banner: want %q in %q", want, r.stdout)
		}
	})
}

// bannerLine returns the text after label in the banner.
func bannerLine(t *testing.T, out, label string) string {
	t.Helper()
	for line := range strings.Lines(out) {
		if _, rest, ok := strings.Cut(line, label); ok {
			return strings.TrimSpace(rest)
		}
	}
	t.Fatalf("banner: no %q line in %q", label, out)
	return ""
}

// TestServeOnEveryInterface: on 0.0.0.0 the banner prints a URL one can
// paste, and without an admin token a warning says the admin API is open.
func TestServeOnEveryInterface(t *testing.T) {
	t.Parallel()
	if ln, err := net.Listen("tcp", "0.0.0.0:0"); err != nil {
		t.Skipf("cannot listen on every interface here: %v", err)
	} else {
		ln.Close()
	}
	for _, addr := range []string{"0.0.0.0:0", "[::]:0"} {
		t.Run(addr, func(t *testing.T) {
			t.Parallel()
			if ln, err := net.Listen("tcp", addr); err != nil {
				t.Skipf("cannot listen on %s here: %v", addr, err)
			} else {
				ln.Close()
			}
			r := startCmd(t, nil, "serve", "--addr", addr)
			if !strings.HasPrefix(r.base, "http://127.0.0.1:") {
				t.Errorf("banner URL: got %q, want http://127.0.0.1:PORT", r.base)
			}
			if strings.Contains(r.stdout.String(), "[::]") || strings.Contains(r.stdout.String(), "0.0.0.0") {
				t.Errorf("banner: got %q, want no unspecified address", r.stdout)
			}
			// The URL of this host's name: for other hosts, or (in a
			// container) for other containers.
			if host, err := os.Hostname(); err == nil && !strings.Contains(r.stdout.String(), "http://"+host+":") {
				t.Errorf("banner: got %q, want the URL for other hosts", r.stdout)
			}
			if !r.stderr.waitFor("anyone who can reach the port can inject faults") {
				t.Errorf("stderr: got %q, want the open admin API warning", r.stderr)
			}
			wantGet(t, "health", r.base+"/__admin/health", "", 200)
		})
	}
	t.Run("admin token silences the warning", func(t *testing.T) {
		t.Parallel()
		r := startCmd(t, map[string]string{"ATMKIT_ADMIN_TOKEN": "tok-123"}, "serve", "--addr", "0.0.0.0:0")
		wantGet(t, "requests without the token", r.base+"/__admin/requests", "", http.StatusUnauthorized)
		if strings.Contains(r.stderr.String(), "WARNING") {
			t.Errorf("stderr: got %q, want no warning", r.stderr)
		}
	})
	t.Run("loopback: no warning", func(t *testing.T) {
		t.Parallel()
		r := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0")
		get(t, r.base+"/__admin/health", "")
		if strings.Contains(r.stderr.String(), "WARNING") {
			t.Errorf("stderr: got %q, want no warning", r.stderr)
		}
	})
}

// TestHelpNamesOwnFlags: each command's help takes one of its own flags as
// the example of an ATMKIT_* variable, and only serve mentions --on-miss.
func TestHelpNamesOwnFlags(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--help"}, "--admin-host from ATMKIT_ADMIN_HOST"},
		{[]string{"record", "--help"}, "--ca-cert from ATMKIT_CA_CERT"},
		{[]string{"bench", "--help"}, "--atms-scale from ATMKIT_ATMS_SCALE"},
		{[]string{"fixtures", "generate", "--help"}, "--atms from ATMKIT_ATMS"},
		{[]string{"cassette", "scrub", "--help"}, "--scrub-header from ATMKIT_SCRUB_HEADER"},
		{[]string{"conform", "--help"}, "from ATMKIT_"},
	} {
		code, stdout, stderr := runAtmkit(nil, tt.args...)
		if code != exitOK || !strings.Contains(stdout, tt.want) || stderr != "" {
			t.Errorf("%s: got exit %d, stderr %q; want 0 and %q in stdout %q", tt.args, code, stderr, tt.want, stdout)
		}
		if tt.args[0] != "serve" && strings.Contains(stderr, "on-miss") {
			t.Errorf("%s: the help mentions --on-miss, a flag of serve only", tt.args)
		}
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
)

// lockedBuffer is an output stream shared by the server goroutine and the
// test. It reports the base URL of the startup line on url.
type lockedBuffer struct {
	mu   sync.Mutex // guards b and sent
	b    bytes.Buffer
	sent bool
	url  chan string
}

func newLockedBuffer() *lockedBuffer { return &lockedBuffer{url: make(chan string, 1)} }

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.b.Write(p)
	if !l.sent {
		for line := range strings.Lines(l.b.String()) {
			if _, u, ok := strings.Cut(line, "listening on "); ok && strings.HasSuffix(line, "\n") {
				l.url <- strings.TrimSpace(u)
				l.sent = true
				break
			}
		}
	}
	return n, err
}

// waitFor waits up to 10s for s to appear in the stream and reports whether it did.
func (l *lockedBuffer) waitFor(s string) bool {
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(l.String(), s) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startServe runs "atmkit serve --addr 127.0.0.1:0 args..." in process with
// the environment env and returns the base URL it printed, its stdout and its
// stderr. The server stops when the test ends.
func startServe(t *testing.T, env map[string]string, args ...string) (base string, stdout, stderr *lockedBuffer) {
	t.Helper()
	stdout, stderr = newLockedBuffer(), newLockedBuffer()
	m := &Main{cli.Env{Stdout: stdout, Stderr: stderr, Getenv: func(k string) string { return env[k] }}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- m.Run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0"}, args...)) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve returned %v after cancel", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("serve did not stop within 30s of cancel")
		}
	})
	select {
	case base = <-stdout.url:
		return base, stdout, stderr
	case err := <-done:
		done <- err // for the cleanup
		t.Fatalf("serve ended before listening: %v\nstderr: %s", err, stderr)
	case <-time.After(30 * time.Second):
		t.Fatalf("serve printed no startup line within 30s; stdout: %s", stdout)
	}
	return "", nil, nil
}

// runAtmkit runs atmkit in process to completion, or for at most 20s: a
// command line that should fail but serves ends with exit code 0.
func runAtmkit(env map[string]string, args ...string) (code int, stdout, stderr string) {
	return runAtmkitWithin(20*time.Second, env, args...)
}

// wantUsageLine fails t unless a run of atmkit (what) exited 2 with one
// line on stderr, holding want.
func wantUsageLine(t *testing.T, what string, code int, stdout, stderr, want string) {
	t.Helper()
	if code != exitUsage || !strings.Contains(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("%s: got exit %d, stderr %q (stdout %q); want exit %d and one line holding %q", what, code, stderr, stdout, exitUsage, want)
	}
}

// deploymentWithin bounds a command that talks to a reference ASMX
// deployment: Mono answers a whole DataSet in seconds under -race on a busy
// machine, and a command sending calls one at a time takes many of them.
const deploymentWithin = 3 * time.Minute

// runAtmkitWithin is runAtmkit with a command that may take up to d (its
// context ends then).
func runAtmkitWithin(d time.Duration, env map[string]string, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	m := &Main{cli.Env{Stdout: &out, Stderr: &errOut, Getenv: func(k string) string { return env[k] }}}
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	code = m.Exit(m.Run(ctx, args))
	return code, out.String(), errOut.String()
}

// get sends a GET with an optional bearer token and returns status and body.
func get(t *testing.T, url, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

func wantStatus(t *testing.T, what string, got, want int, body string) {
	t.Helper()
	if got != want {
		t.Errorf("%s: status got %d, want %d (body %.200q)", what, got, want, body)
	}
}

// wantGet GETs url with token (get) and fails the test unless the answer
// has status want; it returns the body.
func wantGet(t *testing.T, what, url, token string, want int) string {
	t.Helper()
	code, body := get(t, url, token)
	wantStatus(t, what, code, want, body)
	return body
}

const provincesPath = "/service/service.asmx/ReturnProvinces?strAtmServiceKey="

func TestServeFaultFlags(t *testing.T) {
	t.Parallel()
	base, stdout, _ := startServe(t, nil,
		"--fault", "op=ReturnProvinces,binding=get,status=503,times=1",
		"--fault", `{"operation":"ReturnInstitutions","delay":"200ms"}`)
	if !stdout.waitFor("faults:     2 active") {
		t.Errorf("banner: got %q, want it to count 2 faults", stdout)
	}
	wantGet(t, "first ReturnProvinces", base+provincesPath+"k", "", 503)
	wantGet(t, "second ReturnProvinces", base+provincesPath+"k", "", 200)
	start := time.Now()
	wantGet(t, "ReturnInstitutions", base+"/service/service.asmx/ReturnInstitutions?strAtmServiceKey=k", "", 200)
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Errorf("ReturnInstitutions answered after %s, want at least 200ms", d)
	}
	body := wantGet(t, "GET /__admin/faults", base+"/__admin/faults", "", 200)
	if want := `{"faults":[{"id":"f2","operation":"ReturnInstitutions","delay":"200ms"}]}`; strings.TrimSpace(body) != want {
		t.Errorf("faults: got %s, want %s", body, want)
	}
}

func TestServeAdminTokenAndJournalSize(t *testing.T) {
	t.Parallel()
	base, _, _ := startServe(t, nil, "--admin-token", "tok", "--journal-size", "2")
	wantGet(t, "health without token", base+"/__admin/health", "", 200)
	wantGet(t, "requests without token", base+"/__admin/requests", "", 401)
	for range 3 {
		get(t, base+provincesPath+"k", "")
	}
	body := wantGet(t, "requests with token", base+"/__admin/requests?operation=ReturnProvinces", "tok", 200)
	var j struct {
		Requests []struct {
			Seq    int               `json:"seq"`
			Params map[string]string `json:"params"`
		} `json:"requests"`
	}
	if err := json.Unmarshal([]byte(body), &j); err != nil {
		t.Fatalf("requests: %v: %s", err, body)
	}
	if len(j.Requests) != 2 || j.Requests[0].Seq != 2 || j.Requests[1].Seq != 3 {
		t.Errorf("requests: got %s, want the last 2 of 3", body)
	}
}

// TestServeAdminHost: serve on loopback with no token refuses the admin
// API to a Host that names no host of this machine (DNS rebinding), 403,
// and takes the names of --admin-host and ATMKIT_ADMIN_HOST.
func TestServeAdminHost(t *testing.T) {
	t.Parallel()
	getAs := func(url, host string) (int, string) {
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("GET %s as %s: %v", url, host, err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	base, _, _ := startServe(t, nil, "--admin-host", "flag.test", "--admin-host", "flag2.test")
	fromEnv, _, _ := startServe(t, map[string]string{"ATMKIT_ADMIN_HOST": "env.test, env2.test"})
	for _, c := range []struct{ base, host string }{{base, "flag.test"}, {base, "FLAG2.test:8080"}, {base, "localhost"},
		{fromEnv, "env.test"}, {fromEnv, "env2.test:8080"}} {
		code, body := getAs(c.base+"/__admin/faults", c.host)
		wantStatus(t, "GET /__admin/faults as "+c.host, code, 200, body)
	}
	code, body := getAs(fromEnv+"/__admin/faults", "flag.test")
	wantStatus(t, "GET /__admin/faults as a name not given", code, 403, body)
	code, body = getAs(base+"/__admin/faults", "attacker.example")
	wantStatus(t, "GET /__admin/faults as attacker.example", code, 403, body)
	if !strings.Contains(body, "--admin-host") {
		t.Errorf("the refusal does not say how to allow a name: %s", body)
	}
	code, body = getAs(base+"/__admin/health", "attacker.example")
	wantStatus(t, "health as attacker.example", code, 200, body)
	if code, _, stderr := runAtmkit(nil, "serve", "--admin-host", "http://mock.test/"); code != 2 || !strings.Contains(stderr, "--admin-host") {
		t.Errorf("serve --admin-host with a URL: exit %d, stderr %q; want 2 naming the flag", code, stderr)
	}
}

// TestServeAdminPage: the banner names the admin page, and the page is
// served at that URL without the token, while the admin API still wants
// it; GET /__admin/info tells the page a token is needed.
func TestServeAdminPage(t *testing.T) {
	t.Parallel()
	base, stdout, _ := startServe(t, nil, "--admin-token", "tok")
	want := "  admin page: " + base + "/__admin/ ("
	if !stdout.waitFor(want) {
		t.Fatalf("the banner lacks %q:\n%s", want, stdout)
	}
	body := wantGet(t, "the page without token", base+"/__admin/", "", 200)
	if !strings.Contains(body, `<input id="token" name="token" type="password"`) {
		t.Errorf("the page has no token input:\n%.400s", body)
	}
	wantGet(t, "info without token", base+"/__admin/info", "", 401)
	body = wantGet(t, "info with token", base+"/__admin/info", "tok", 200)
	if !strings.Contains(body, `"adminToken":true`) || strings.Contains(body, "warning") {
		t.Errorf("info on 127.0.0.1 with a token: got %s, want adminToken true and no warning", body)
	}
}

// TestServeJournalBodyMax sets --journal-body-max by flag, environment
// and config file: the journal cuts the answer at it and keeps the key out.
func TestServeJournalBodyMax(t *testing.T) {
	t.Parallel()
	cfg := writeConfig(t, "journal-body-max: 600\n")
	for _, tt := range []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"flag", nil, []string{"--journal-body-max", "600"}},
		{"env", map[string]string{"ATMKIT_JOURNAL_BODY_MAX": "600"}, nil},
		{"config", nil, []string{"--config", cfg}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			base, _, _ := startServe(t, tt.env, tt.args...)
			answer := wantGet(t, "ReturnInstitutions", base+"/service/service.asmx/ReturnInstitutions?strAtmServiceKey=journal-key-1", "", 200)
			body := wantGet(t, "requests", base+"/__admin/requests", "", 200)
			var j struct {
				Requests []struct {
					Query    string `json:"query"`
					Response struct {
						Body string `json:"body"`
						Size int    `json:"size"`
						Cut  bool   `json:"cut"`
					} `json:"response"`
				} `json:"requests"`
			}
			if err := json.Unmarshal([]byte(body), &j); err != nil || len(j.Requests) != 1 {
				t.Fatalf("requests: %v: %s", err, body)
			}
			r := j.Requests[0]
			if !r.Response.Cut || r.Response.Size != len(answer) || len(r.Response.Body) > 600 || !strings.HasPrefix(answer, r.Response.Body) {
				t.Errorf("answer: got %d bytes of %d (cut %v), want the first of %d, at most 600", len(r.Response.Body), r.Response.Size, r.Response.Cut, len(answer))
			}
			if r.Query != "strAtmServiceKey=jo****" || strings.Contains(body, "journal-key-1") {
				t.Errorf("query: got %q, want the key masked (and nowhere in %s)", r.Query, body)
			}
		})
	}
}

func TestServeLogLine(t *testing.T) {
	t.Parallel()
	base, _, stderr := startServe(t, nil, "--log-format", "json")
	get(t, base+provincesPath+"k", "")
	stderr.waitFor(`"operation":"ReturnProvinces"`)
	for line := range strings.Lines(stderr.String()) {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Errorf("log line is not JSON: %q", line)
			continue
		}
		if rec["operation"] != "ReturnProvinces" {
			continue
		}
		if rec["binding"] != "get" || rec["status"] != 200.0 || rec["duration"] == nil || rec["msg"] != "request" {
			t.Errorf("request log line: got %v, want binding, operation, status and duration", rec)
		}
		return
	}
	t.Errorf("no request log line for ReturnProvinces in %q", stderr)
}

// TestServeLogLevel checks --log-level: debug also logs the admin API's
// reads, info a line a call, warn none of them.
func TestServeLogLevel(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		level       string
		call, admin bool // a line for the call, for the admin API's read
	}{{"debug", true, true}, {"INFO", true, false}, {"warn", false, false}, {"error", false, false}} {
		t.Run(tt.level, func(t *testing.T) {
			t.Parallel()
			r := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0", "--log-format", "json", "--log-level", tt.level)
			get(t, r.base+provincesPath+"k", "")
			get(t, r.base+"/__admin/requests", "")
			if code := r.stop(); code != 0 { // every line is written once serve has returned
				t.Fatalf("serve exited %d", code)
			}
			log := r.stderr.String()
			if got := strings.Contains(log, `"operation":"ReturnProvinces"`); got != tt.call {
				t.Errorf("a line for the call: %v, want %v; log:\n%s", got, tt.call, log)
			}
			if got := strings.Contains(log, `"path":"/__admin/requests"`); got != tt.admin {
				t.Errorf("a line for the admin read: %v, want %v; log:\n%s", got, tt.admin, log)
			}
		})
	}
}

// writeConfig writes a config file and returns its path.
func writeConfig(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "atmkit.yaml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

const sampleConfig = `# atmkit serve settings
namespace: http://config.example/atmService
keys: [cfg-key, other-cfg-key]
admin-token: cfg-token
journal_size: 5
log-format: json
faults:
  - {operation: ReturnInstitutions, status: 418}
  - op=ReturnAllAtms,code=Client,text=from the config
`

// TestServeConfigPrecedence: flags > environment > config file > defaults.
func TestServeConfigPrecedence(t *testing.T) {
	t.Parallel()
	cfg := writeConfig(t, sampleConfig)

	t.Run("config over defaults", func(t *testing.T) {
		base, stdout, stderr := startServe(t, nil, "--config", cfg)
		if !stdout.waitFor("namespace:  http://config.example/atmService") {
			t.Errorf("banner: got %q, want the config's namespace", stdout)
		}
		wantGet(t, "config key", base+provincesPath+"cfg-key", "", 200)
		wantGet(t, "key not in config", base+provincesPath+"other", "", 500)
		wantGet(t, "config fault", base+"/service/service.asmx/ReturnInstitutions?strAtmServiceKey=cfg-key", "", 418)
		body := wantGet(t, "config fault in text form", base+"/service/service.asmx/ReturnAllAtms?strAtmServiceKey=cfg-key", "", 500)
		if !strings.Contains(body, "from the config") {
			t.Errorf("config fault text: got %.200q", body)
		}
		wantGet(t, "config admin token", base+"/__admin/requests", "cfg-token", 200)
		if !stderr.waitFor(`"msg":"request"`) || !strings.HasPrefix(stderr.String(), "{") {
			t.Errorf("log: got %.200q, want JSON lines (log-format from the config)", stderr)
		}
	})

	t.Run("environment over config", func(t *testing.T) {
		env := map[string]string{"ATMKIT_CONFIG": cfg, "ATMKIT_KEYS": "env-key", "ATMKIT_ADMIN_TOKEN": "env-token", "ATMKIT_FAULT": "op=ReturnInstitutions,status=502"}
		base, _, _ := startServe(t, env)
		wantGet(t, "env key", base+provincesPath+"env-key", "", 200)
		wantGet(t, "config key under env", base+provincesPath+"cfg-key", "", 500)
		wantGet(t, "env fault replaces the config's", base+"/service/service.asmx/ReturnInstitutions?strAtmServiceKey=env-key", "", 502)
		wantGet(t, "config token under env", base+"/__admin/faults", "cfg-token", 401)
		wantGet(t, "env token", base+"/__admin/faults", "env-token", 200)
	})

	t.Run("flags over environment", func(t *testing.T) {
		env := map[string]string{"ATMKIT_KEYS": "env-key", "ATMKIT_ADMIN_TOKEN": "env-token"}
		base, _, _ := startServe(t, env, "--config", cfg, "--key", "flag-key", "--admin-token", "flag-token", "--journal-size", "0")
		wantGet(t, "flag key", base+provincesPath+"flag-key", "", 200)
		wantGet(t, "env key under a flag", base+provincesPath+"env-key", "", 500)
		wantGet(t, "env token under a flag", base+"/__admin/requests", "env-token", 401)
		body := wantGet(t, "flag token", base+"/__admin/requests", "flag-token", 200)
		if !strings.HasPrefix(strings.TrimSpace(body), `{"requests":[],"matched":0,"lastSeq":0,"held":[],"instance":"`) {
			t.Errorf("requests with --journal-size 0: got %s, want none", body)
		}
	})
}

// TestServeConfigValuesAsWritten: a config file's value is the text
// written, as the flag and the ATMKIT_* variable take it, not what YAML
// makes of it: key 0042 is the key 0042 (YAML read the octal number 34),
// a token 1e3 the token 1e3 (not 1000), a date stays as written.
func TestServeConfigValuesAsWritten(t *testing.T) {
	t.Parallel()
	cfg := writeConfig(t, "keys: [0042, 1.50]\nadmin-token: 2024-01-01\n")
	base, _, _ := startServe(t, nil, "--config", cfg)
	wantGet(t, "key 0042 as written", base+provincesPath+"0042", "", 200)
	wantGet(t, "key 1.50 as written", base+provincesPath+"1.50", "", 200)
	wantGet(t, "YAML's octal reading of 0042", base+provincesPath+"34", "", 500)
	wantGet(t, "admin token 2024-01-01 as written", base+"/__admin/requests", "2024-01-01", 200)
	code, _, stderr := runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--config", writeConfig(t, "journal-size: 1.0\n"))
	if code != exitUsage || !strings.Contains(stderr, "journal-size: 1.0: not an integer (--journal-size)") {
		t.Errorf("journal-size: 1.0: got exit %d, %q; want exit 2 as --journal-size 1.0 gets", code, stderr)
	}
	code, _, stderr = runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--config", writeConfig(t, "grace: 0042\n"))
	if code != exitUsage || !strings.Contains(stderr, "grace: 0042: not a duration") {
		t.Errorf("grace: 0042: got exit %d, %q; want exit 2 quoting 0042 as written", code, stderr)
	}
}

func TestServeConfigErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, config string
		args         []string
		wantCode     int
		wantErr      string
	}{
		{"unknown setting", "adress: 127.0.0.1:1\n", nil, exitUsage, `unknown setting "adress"`},
		{"config in config", "config: other.yaml\n", nil, exitUsage, `unknown setting "config"`},
		{"same flag twice", "key: a\nkeys: [b]\n", nil, exitUsage, "set the same flag"},
		{"not YAML", "key: [a\n", nil, exitUsage, "config file"},
		{"list for a plain flag", "namespace: [a, b]\n", nil, exitUsage, "takes one value"},
		{"bad duration", "grace: soon\n", nil, exitUsage, "grace"},
		{"bad fault", "fault:\n  - {operation: ReturnMoney, status: 500}\n", nil, exitUsage, "ReturnMoney"},
		{"fault with unknown field", "fault:\n  - {operation: ReturnProvinces, stauts: 500}\n", nil, exitUsage, "stauts"},
		{"missing file", "", []string{"--config", "no-such-file.yaml"}, exitUsage, "does not exist"},
		{"bad fault flag", "", []string{"--fault", "op=ReturnProvinces"}, exitUsage, "at least one"},
		{"bad fault flag field", "", []string{"--fault", "op=ReturnProvinces,delay=1s,color=red"}, exitUsage, "unknown field"},
		{"negative journal", "", []string{"--journal-size", "-1"}, exitUsage, "--journal-size -1: must not be negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"serve", "--addr", "127.0.0.1:0"}
			if tt.config != "" {
				args = append(args, "--config", writeConfig(t, tt.config))
			}
			code, _, stderr := runAtmkit(nil, append(args, tt.args...)...)
			if code != tt.wantCode || !strings.Contains(stderr, tt.wantErr) {
				t.Errorf("got exit %d and %q, want exit %d and an error containing %q", code, stderr, tt.wantCode, tt.wantErr)
			}
		})
	}
}

// TestServeConfigNotSettingsShowsNoContent: a config file that holds no
// mapping of settings (a key's file named by mistake, a list) is refused
// saying what it holds, none of its content: yaml.v3's error quoted a
// text's first seven characters (cannot unmarshal !!str `s3cr3t-...`).
func TestServeConfigNotSettingsShowsNoContent(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ content, want string }{
		{"s3cr3t-KEY-4242\n", "holds a text, not settings"},
		{"\"s3cr3t\"", "holds a text, not settings"},
		{"- s3cr3t-KEY-4242\n", "holds a list, not settings"},
	} {
		code, _, stderr := runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--config", writeConfig(t, c.content))
		if code != exitUsage || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "s3cr3t") {
			t.Errorf("config %q: got exit %d and %q, want exit %d and %q, none of the file", c.content, code, stderr, exitUsage, c.want)
		}
	}
	for _, content := range []string{"", "~\n", "# nothing yet\n"} {
		if code, _, stderr := runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--config", writeConfig(t, content), "--journal-size", "-1"); !strings.Contains(stderr, "--journal-size") {
			t.Errorf("config %q: got exit %d and %q, want it taken as no settings", content, code, stderr)
		}
	}
}

func TestServeHelpListsNewFlags(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := runAtmkit(nil, "serve", "--help")
	if code != exitOK || stderr != "" {
		t.Errorf("serve --help: exit %d, stderr %q; want 0 and the help on stdout alone", code, stderr)
	}
	for _, want := range []string{"-config", "-admin-token", "-journal-size", "-fault", "--fault 'op=ReturnProvinces"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("serve --help: want %q in %q", want, stdout)
		}
	}
}

// TestServeFaultTextWithComma: a quoted fault text keeps its commas and
// semicolons, from the flag and from ATMKIT_FAULT.
func TestServeFaultTextWithComma(t *testing.T) {
	t.Parallel()
	env := map[string]string{"ATMKIT_FAULT": `op=ReturnInstitutions,code=Client,text="Env; with, separators";op=ReturnAllAtms,status=503`}
	r := startCmd(t, env, "serve", "--addr", "127.0.0.1:0", "--fault", `op=ReturnProvinces,code=Client,text="Bad request, try again"`)
	code, body := get(t, r.base+provincesPath+"k", "")
	if code != 500 || !strings.Contains(body, "Bad request, try again") {
		t.Errorf("flag fault: got %d %.300q, want 500 with the whole text", code, body)
	}
	r2 := startCmd(t, env, "serve", "--addr", "127.0.0.1:0")
	code, body = get(t, r2.base+"/service/service.asmx/ReturnInstitutions?strAtmServiceKey=k", "")
	if code != 500 || !strings.Contains(body, "Env; with, separators") {
		t.Errorf("ATMKIT_FAULT fault: got %d %.300q, want 500 with the whole text", code, body)
	}
	wantGet(t, "second ATMKIT_FAULT fault", r2.base+"/service/service.asmx/ReturnAllAtms?strAtmServiceKey=k", "", 503)
}

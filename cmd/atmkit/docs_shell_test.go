package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/mockserver"
)

// runMarker marks a shell block of the docs that TestDocsShellRuns runs
// against a mock, the flags after the marker's colon being the mock's
// (only --key and --admin-token are read).
const runMarker = "run against: atmkit serve"

// shellClaim is one command of a run block and what its comments say it
// prints, a line each ("..." stands for any text).
type shellClaim struct {
	command string
	want    []string
}

// claimRE tells a comment that shows output ({…}, […], a status, XML)
// from one of prose.
var claimRE = regexp.MustCompile(`^[{\[<0-9]`)

// parseRunBlock splits a run block into the lines that set the shell up
// (no curl) and the curl commands with the output their comments claim: a
// comment after the command, then comment lines under it. A claim ends at
// a parenthesis of prose: "204 (404 if no such fault)" claims 204.
func parseRunBlock(lines []string) (setup []string, claims []shellClaim) {
	for _, l := range lines {
		trimmed := strings.TrimSpace(l)
		if strings.HasPrefix(trimmed, "#") {
			c := strings.TrimSpace(strings.TrimPrefix(trimmed, "#"))
			if len(claims) > 0 && claimRE.MatchString(c) {
				claims[len(claims)-1].want = append(claims[len(claims)-1].want, claimText(c))
			}
			continue
		}
		cmd, comment, _ := strings.Cut(l, " # ")
		cmd, comment = strings.TrimSpace(cmd), strings.TrimSpace(comment)
		if cmd == "" {
			continue
		}
		if !strings.Contains(cmd, "curl ") {
			setup = append(setup, cmd)
			continue
		}
		c := shellClaim{command: cmd}
		if claimRE.MatchString(comment) {
			c.want = append(c.want, claimText(comment))
		}
		claims = append(claims, c)
	}
	return setup, claims
}

func claimText(c string) string {
	if i := strings.Index(c, " ("); i > 0 {
		c = c[:i]
	}
	return strings.TrimSpace(c)
}

// claimMatches reports whether an output line is what a claim says, "..."
// standing for any text.
func claimMatches(want, got string) bool {
	parts := strings.Split(want, "...")
	for i := range parts {
		parts[i] = regexp.QuoteMeta(parts[i])
	}
	return regexp.MustCompile("^" + strings.Join(parts, ".*") + "$").MatchString(got)
}

// TestDocsShellRuns runs the shell blocks of the docs marked
// <!-- run against: atmkit serve FLAGS --> as a user pastes them, line
// after line in one shell state, against a mock started with those flags
// at the address the block names (http://127.0.0.1:8080), and checks the
// output each command's comments claim. It needs bash and curl (under
// CI=true, their absence fails it).
func TestDocsShellRuns(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"bash", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s is needed to run the docs' shell blocks", tool)
			}
			t.Skipf("%s is not installed: the docs' shell blocks are not run", tool)
		}
	}
	n := 0
	for _, d := range userDocs(t) {
		blocks, _ := d.parse()
		for _, b := range blocks {
			flags, ok := strings.CutPrefix(b.marker, runMarker)
			if !ok {
				continue
			}
			n++
			var opts []mockserver.Option
			words := strings.Fields(flags)
			for i := 0; i+1 < len(words); i++ {
				switch words[i] {
				case "--key":
					opts = append(opts, mockserver.WithKeys(words[i+1]))
				case "--admin-token":
					opts = append(opts, mockserver.WithAdminToken(words[i+1]))
				}
			}
			ts := mockserver.NewTestServer(t, opts...)
			setup, claims := parseRunBlock(b.lines)
			if len(claims) == 0 {
				t.Errorf("%s:%d: a run block with no curl command", d.path, b.line)
			}
			// The shell's state carries from one command to the next, as
			// in a terminal: run them in one script, each output after a
			// separator line.
			const sep = "----atmkit-docs----"
			script := strings.Join(setup, "\n") + "\n"
			for _, c := range claims {
				script += "echo " + sep + "\n" + c.command + "\n"
			}
			script = strings.ReplaceAll(script, "http://127.0.0.1:8080", ts.URL)
			cmd := exec.Command("bash", "-c", script)
			cmd.Dir = t.TempDir()
			cmd.Env = cleanEnv()
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("%s:%d: the block fails: %v\n%s", d.path, b.line, err, out)
				continue
			}
			outputs := strings.Split(string(out), sep+"\n")[1:]
			if len(outputs) != len(claims) {
				t.Errorf("%s:%d: %d outputs for %d commands:\n%s", d.path, b.line, len(outputs), len(claims), out)
				continue
			}
			for i, c := range claims {
				got := strings.Split(strings.TrimRight(outputs[i], "\n"), "\n")
				if len(c.want) > 0 && len(got) != len(c.want) {
					t.Errorf("%s:%d: %s\n  prints %q\n  the docs say %q", d.path, b.line, c.command, got, c.want)
					continue
				}
				for j, w := range c.want {
					if !claimMatches(w, got[j]) {
						t.Errorf("%s:%d: %s\n  prints %q\n  the docs say %q", d.path, b.line, c.command, got[j], w)
					}
				}
			}
		}
	}
	if n == 0 {
		t.Error("no docs page has a shell block marked <!-- " + runMarker + " ... -->")
	}
}

// cleanEnv is the environment without ATMKIT_* variables and proxies: a
// block must set what it uses.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "ATMKIT_") || strings.HasSuffix(strings.ToUpper(name), "_PROXY") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// TestDocsRunBlockParser checks parseRunBlock and claimMatches on a small
// block.
func TestDocsRunBlockParser(t *testing.T) {
	t.Parallel()
	setup, claims := parseRunBlock([]string{
		`export T=x   # the token (prose)`,
		`curl -s $B/health                 # {"status":"ok"}`,
		`curl -s -X DELETE $B/f/1 -w '%{http_code}\n'   # 204 (404 if no such fault)`,
		`curl -s -X POST $B/f -w '%{http_code}\n'`,
		`# {"id":"f1",...}`,
		`# 201`,
		`curl -s $B/list                    # lists them`,
	})
	if len(setup) != 1 || setup[0] != "export T=x" {
		t.Errorf("setup %q, want the export alone", setup)
	}
	want := [][]string{{`{"status":"ok"}`}, {"204"}, {`{"id":"f1",...}`, "201"}, nil}
	if len(claims) != len(want) {
		t.Fatalf("got %d commands, want %d: %+v", len(claims), len(want), claims)
	}
	for i := range want {
		if strings.Join(claims[i].want, "|") != strings.Join(want[i], "|") {
			t.Errorf("command %d: claims %q, want %q", i+1, claims[i].want, want[i])
		}
	}
	if !claimMatches(`{"id":"f1",...}`, `{"id":"f1","operation":"X"}`) || claimMatches("204", "404") || claimMatches(`{"a":[...]}`, `{"b":[]}`) {
		t.Error("claimMatches does not match as it should")
	}
}

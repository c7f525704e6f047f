package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/internal/shellquote"
)

// argLine is a line of printargs: one argument, Go-quoted.
var argLine = regexp.MustCompile(`ARG ("(?:[^"\\]|\\.)*")`)

// cmdArgs runs line in Wine's cmd.exe, read from its input as a user's
// typed or pasted line is (not a batch file's: %NAME% and %% differ
// there), with env added, and returns the arguments printargs printed.
// (Wine's cmd.exe runs only the first line of its input.)
func (w *wineRun) cmdArgs(t *testing.T, env []string, line string) []string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "wine", "cmd")
	cmd.Dir, cmd.Env = w.dir, append(append([]string(nil), w.env...), env...)
	cmd.Stdin = strings.NewReader(line + "\r\nexit\r\n")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, io.Discard
	cmd.WaitDelay = 5 * time.Second
	if err := cmd.Run(); err != nil {
		t.Fatalf("wine cmd: %v\n%s", err, out.String())
	}
	var args []string
	for _, l := range strings.Split(out.String(), "\n") {
		if m := argLine.FindStringSubmatch(l); m != nil {
			a, err := strconv.Unquote(m[1])
			if err != nil {
				t.Fatalf("printargs printed %q: %v", l, err)
			}
			args = append(args, a)
		}
	}
	if !strings.Contains(out.String(), "END") {
		t.Errorf("printargs did not run: %s\n%s", line, out.String())
	}
	return args
}

// TestReproduceLinesUnderWine: atmkit.exe conform's reproduce lines are
// cmd.exe lines for curl.exe, and one pasted into (Wine's) cmd.exe hands
// the program exactly the request's arguments: the SOAP body with its
// double quotes and angle brackets, the SOAPAction header's quotes, the key
// from %ATMKIT_KEY%. They were POSIX shell lines (curl 'http://…'), which
// cmd.exe hands on with their single quotes, splitting the body at its
// spaces. Arguments holding quotes, %, ^, &, <, > and backslashes, quoted
// by shellquote for cmd.exe, arrive intact too. (Wine's cmd.exe differs
// from Windows's in one way the quoting relies on: it drops the ^ of ^%
// before it expands %NAME%, so a %NAME% of a defined variable in the text
// is expanded there, not on Windows. The arguments here name none.)
func TestReproduceLinesUnderWine(t *testing.T) {
	t.Parallel()
	w := newWineRun(t)
	printargs := filepath.Join(filepath.Dir(w.exe), "printargs.exe")
	build := exec.Command("go", "build", "-o", printargs, "./testdata/wine/printargs")
	build.Env = append(build.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=windows go build ./testdata/wine/printargs: %v\n%s", err, out)
	}
	const key = "wine-key-7"

	t.Run("conform", func(t *testing.T) {
		// A deployment answering SOAP 1.1 with another content type:
		// conform fails and prints the calls to reproduce it.
		var mu sync.Mutex
		bodies := map[string]bool{}
		target := startMock(t, key, func(h http.Handler) http.Handler {
			return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodPost || r.Header.Get("SOAPAction") == "" {
					h.ServeHTTP(rw, r)
					return
				}
				body, _ := io.ReadAll(r.Body)
				mu.Lock()
				bodies[string(body)] = true
				mu.Unlock()
				r.Body = io.NopCloser(bytes.NewReader(body))
				serveAs(rw, r, h, "application/xml")
			})
		})
		code, out, errOut := w.run(t, "conform", "--target", target, "--key", key, "--label-filter", "soap11 && documented")
		if code != exitFailure {
			t.Fatalf("atmkit.exe conform: exit %d, want 1\n%s\n%s", code, out, errOut)
		}
		_, line, ok := strings.Cut(out, "reproduce: ")
		line, _, _ = strings.Cut(line, "\n")
		line = strings.TrimRight(line, "\r")
		if !ok || !strings.HasPrefix(line, "curl.exe -sS -i -X POST ") {
			t.Fatalf("atmkit.exe conform printed no reproduce line for curl.exe:\n%s", out)
		}
		if strings.Contains(line, key) {
			t.Errorf("the reproduce line holds the key: %s", line)
		}
		args := w.cmdArgs(t, []string{"ATMKIT_KEY=" + key}, winPath(printargs)+strings.TrimPrefix(line, "curl.exe"))
		i := len(args) - 2
		if len(args) < 9 || args[0] != "-sS" || args[2] != "-X" || args[3] != "POST" || !strings.HasPrefix(args[4], target+"/") || args[i] != "--data-binary" {
			t.Fatalf("arguments: got %q\nline: %s", args, line)
		}
		mu.Lock()
		sent := bodies[args[i+1]]
		mu.Unlock()
		if !sent || !strings.Contains(args[i+1], "<strAtmServiceKey>"+key+"</strAtmServiceKey>") {
			t.Errorf("--data-binary: got %q, want a body conform sent, with the key\nline: %s", args[i+1], line)
		}
		var action bool
		for _, a := range args {
			action = action || regexp.MustCompile(`^SOAPAction: "http://\S+"$`).MatchString(a)
		}
		if !action {
			t.Errorf("no SOAPAction header with its double quotes among %q\nline: %s", args, line)
		}
	})

	t.Run("serve's try line", func(t *testing.T) {
		// The key in ATMKIT_KEY: the try line reads it from there, for
		// cmd.exe as %ATMKIT_KEY% (it was "$ATMKIT_KEY", which cmd.exe
		// hands on as it is), with the throwaway authority's file, run
		// by curl.exe (Windows PowerShell's curl is Invoke-WebRequest).
		saved := w.env
		w.env = append(append([]string(nil), w.env...), "ATMKIT_KEY="+key)
		s := w.start(t, "serve", "--addr", "127.0.0.1:0", "--tls-self-signed")
		w.env = saved
		try := bannerLine(t, s.stdout.String(), "try:")
		if strings.Contains(try, key) || !strings.HasPrefix(try, "curl.exe ") {
			t.Fatalf("try line: %s", try)
		}
		args := w.cmdArgs(t, []string{"ATMKIT_KEY=" + key}, winPath(printargs)+strings.TrimPrefix(try, "curl.exe"))
		want := s.base + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=" + key
		if len(args) != 3 || args[0] != want || args[1] != "--cacert" || !strings.HasSuffix(args[2], ".pem") {
			t.Fatalf("arguments: got %q, want [%s --cacert <the authority's file>]\nline: %s", args, want, try)
		}
		if ca := bannerLine(t, s.stdout.String(), "CA:"); !strings.Contains(ca, "trust it with curl.exe --cacert ") {
			t.Errorf("CA line: %s", ca)
		}
	})

	t.Run("quoting", func(t *testing.T) {
		values := []string{
			"two words", `it's "quoted"`, "100% of %NO_SUCH_VAR% and %", "Cape%20Town&x=%2C",
			"a^b&c|d<e>f(g)", "$HOME `id`", `C:\Program Files\atm\`, `back\"slash\\`, "",
			`<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><X xmlns="http://tempuri.org/"><a>1 &lt; 2</a></X></soap:Body></soap:Envelope>`,
		}
		var lines []string
		var want [][]string
		for _, v := range values {
			word, ok := shellquote.Word(true, shellquote.Lit(v))
			if !ok {
				t.Fatalf("%q: not written", v)
			}
			lines, want = append(lines, winPath(printargs)+" "+word), append(want, []string{v})
		}
		word, _ := shellquote.Word(true, shellquote.Lit(`<k a="1">`), shellquote.Env("ATMKIT_KEY"), shellquote.Lit("</k> 50%"))
		lines, want = append(lines, winPath(printargs)+" "+word), append(want, []string{`<k a="1">` + key + "</k> 50%"})
		for i := range want {
			if got := w.cmdArgs(t, []string{"ATMKIT_KEY=" + key}, lines[i]); strings.Join(got, "\x00") != strings.Join(want[i], "\x00") {
				t.Errorf("%s\ngot  %q\nwant %q", lines[i], got, want[i])
			}
		}
	})
}

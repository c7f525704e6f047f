package main

import (
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// The Windows binary is run under Wine (wine64, Wine 8 in Debian 12) with a
// ProcessPrng shim (testdata/wine/bcryptprimitives.c) that Go's Windows
// runtime needs and Wine 8 lacks. What Wine cannot show is in docs/ci.md
// ("Windows and macOS").

// wineProgs are the programs TestWindowsBinaryUnderWine needs: Wine, its
// server (to end the prefix's processes) and mingw-w64's C compiler for the
// shim (.ci/install-wine.sh installs them).
var wineProgs = []string{"wine", "wineserver", "x86_64-w64-mingw32-gcc"}

// wineRun is a Windows atmkit.exe run under Wine in a prefix of its own.
// Its helpers take the t of the test or subtest calling them, which their
// failures fail (TestWineHelpersFailTheirSubtest).
type wineRun struct {
	exe    string   // atmkit.exe, a Linux path (Wine maps it to drive Z:)
	dir    string   // the working directory of its processes
	prefix string   // the Wine prefix (drive C: is its drive_c)
	env    []string // the environment of wine and wineserver
}

// winPath is the Windows path of a Linux path through Wine's drive Z:,
// which maps the Linux root.
func winPath(p string) string { return `Z:` + strings.ReplaceAll(p, "/", `\`) }

// newWineRun builds atmkit.exe for windows/amd64 as the release does
// (.goreleaser.yaml: CGO_ENABLED=0, -trimpath, -s -w) and the shim, makes a
// Wine prefix in a temporary directory with the shim in its system32, and
// ends the prefix's processes when the test ends. Without Wine or mingw-w64
// it skips the test, unless CI=true (then it fails).
func newWineRun(t *testing.T) *wineRun {
	t.Helper()
	var missing []string
	for _, p := range wineProgs {
		if _, err := exec.LookPath(p); err != nil {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		msg := "the Windows binary runs under Wine, which needs " + strings.Join(missing, ", ") +
			" (Debian: apt-get install wine wine64 gcc-mingw-w64-x86-64; .ci/install-wine.sh)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + " (CI=true)")
		}
		t.Skip(msg)
	}
	base := t.TempDir()
	prefix := filepath.Join(base, "prefix")
	w := &wineRun{exe: filepath.Join(base, "atmkit.exe"), dir: filepath.Join(base, "work"), prefix: prefix}
	// No Mono or Gecko install prompt at the prefix's first start, no menu
	// entries written to this machine's desktop.
	// Wine passes its environment on to atmkit.exe: none of the test
	// run's own ATMKIT_* settings.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ATMKIT_") {
			w.env = append(w.env, kv)
		}
	}
	w.env = append(w.env, "WINEPREFIX="+prefix, "WINEDEBUG=-all", "WINEARCH=win64",
		"WINEDLLOVERRIDES=mscoree,mshtml,winemenubuilder.exe=d")
	if err := os.MkdirAll(w.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// End every process of the prefix (wineserver -k) when the test ends,
	// whatever it left running.
	t.Cleanup(func() {
		cmd := exec.Command("wineserver", "-k")
		cmd.Env = w.env
		_ = cmd.Run()
		wait := exec.Command("wineserver", "-w")
		wait.Env = w.env
		_ = wait.Run()
	})

	build := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", w.exe, ".")
	build.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=windows go build: %v\n%s", err, out)
	}
	hold := exec.Command("go", "build", "-o", filepath.Join(base, "holdopen.exe"), "./testdata/wine/holdopen")
	hold.Env = build.Env
	if out, err := hold.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=windows go build ./testdata/wine/holdopen: %v\n%s", err, out)
	}
	dll := filepath.Join(base, "bcryptprimitives.dll")
	cc := exec.Command("x86_64-w64-mingw32-gcc", "-shared", "-O2", "-o", dll,
		filepath.Join("testdata", "wine", "bcryptprimitives.c"), filepath.Join("testdata", "wine", "bcryptprimitives.def"), "-ladvapi32")
	if out, err := cc.CombinedOutput(); err != nil {
		t.Fatalf("build the ProcessPrng shim: %v\n%s", err, out)
	}
	boot := exec.Command("wine", "wineboot", "--init")
	boot.Env = w.env
	if out, err := boot.CombinedOutput(); err != nil {
		t.Fatalf("wineboot --init: %v\n%s", err, out)
	}
	sys32 := filepath.Join(prefix, "drive_c", "windows", "system32")
	data, err := os.ReadFile(dll)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sys32, "bcryptprimitives.dll"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return w
}

// command is atmkit.exe args under Wine, in w.dir.
func (w *wineRun) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "wine", append([]string{w.exe}, args...)...)
	cmd.Dir, cmd.Env = w.dir, w.env
	cmd.WaitDelay = 5 * time.Second
	return cmd
}

// run runs atmkit.exe args to its end (at most two minutes) and returns its
// exit code and output.
func (w *wineRun) run(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	return w.runCmd(t, w.command(ctx, args...), args)
}

// runCmd is run with the command that runs atmkit.exe args (through a
// shell, say), whose context bounds it.
func (w *wineRun) runCmd(t *testing.T, cmd *exec.Cmd, args []string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		code = exit.ExitCode()
	case err != nil:
		t.Fatalf("wine atmkit.exe %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	return code, out.String(), errb.String()
}

// wineProc is an atmkit.exe that serves (serve, record) under Wine.
type wineProc struct {
	cmd            *exec.Cmd
	base           string
	stdout, stderr *mocktest.SyncBuffer
	exited         chan struct{}
}

// startProc starts cmd, its output kept in the wineProc's buffers; it is
// killed when the test ends if still running.
func startProc(t *testing.T, cmd *exec.Cmd) *wineProc {
	t.Helper()
	p := &wineProc{cmd: cmd, stdout: &mocktest.SyncBuffer{}, stderr: &mocktest.SyncBuffer{}, exited: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { _ = p.cmd.Wait(); close(p.exited) }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		<-p.exited
	})
	return p
}

var listeningOn = regexp.MustCompile(`listening on (https?://\S+)`)

// start starts atmkit.exe args and waits until it prints its listening
// line; it is killed when the test ends if still running.
func (w *wineRun) start(t *testing.T, args ...string) *wineProc {
	t.Helper()
	return w.startCmd(t, w.command(context.Background(), args...), args)
}

// startCmd is start with the command that runs atmkit.exe args (through a
// shell, say).
func (w *wineRun) startCmd(t *testing.T, cmd *exec.Cmd, args []string) *wineProc {
	t.Helper()
	p := startProc(t, cmd)
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := listeningOn.FindStringSubmatch(p.stdout.String()); m != nil && strings.Contains(p.stdout.String(), "\n  ") {
			p.base = m[1]
			return p
		}
		select {
		case <-p.exited:
			t.Fatalf("wine atmkit.exe %s ended before listening\nstdout: %s\nstderr: %s", strings.Join(args, " "), p.stdout, p.stderr)
		default:
		}
	}
	t.Fatalf("wine atmkit.exe %s: not listening after a minute\nstdout: %s\nstderr: %s", strings.Join(args, " "), p.stdout, p.stderr)
	return nil
}

// holdOpen runs testdata/wine/holdopen under Wine: it opens file as most
// Windows programs do (no sharing of deletes), and closes it d after a file
// of glob appears beside it.
func (w *wineRun) holdOpen(t *testing.T, file, glob, d string) *wineProc {
	t.Helper()
	cmd := exec.Command("wine", filepath.Join(filepath.Dir(w.exe), "holdopen.exe"), winPath(file), glob, d)
	cmd.Dir, cmd.Env = w.dir, w.env
	p := startProc(t, cmd)
	if !waitForText(p.stdout, "open\n") {
		t.Fatalf("holdopen did not open %s: %s%s", file, p.stdout, p.stderr)
	}
	return p
}

// interrupt sends the process Ctrl-C (Wine turns SIGINT into a console's
// CTRL_C_EVENT) and returns its exit code.
func (p *wineProc) interrupt(t *testing.T) int {
	t.Helper()
	if err := p.cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
	case <-time.After(30 * time.Second):
		t.Fatalf("atmkit.exe did not stop within 30 s of Ctrl-C\nstdout: %s\nstderr: %s", p.stdout, p.stderr)
	}
	return p.cmd.ProcessState.ExitCode()
}

// TestWindowsBinaryUnderWine runs the windows/amd64 binary the release
// ships as a Windows user does, under Wine: serve answers SOAP 1.1, GET and
// JSON calls and the admin API; health and conform (against itself, and
// against a Linux mock) pass; serve --tls-self-signed serves HTTPS and
// removes its CA file on Ctrl-C; fixtures generate and check take a C:\
// path with a space; record (a cassette named by a Windows relative path)
// in front of a Linux mock refuses a second recorder of the same cassette
// (internal/filelock's Windows side) and saves on Ctrl-C; serve --replay
// answers as recorded; shape learn writes a shape that serve --shape reads
// with CRLF line ends; cassette scrub rewrites a hand-edited CRLF cassette
// named by a Z:\ path in place (internal/atomicfile's Windows side: a
// rename over the file), also while another program holds it open for a
// moment.
func TestWindowsBinaryUnderWine(t *testing.T) {
	t.Parallel()
	w := newWineRun(t)
	const key, token = "wine-key", "wine-admin"

	if code, out, errOut := w.run(t, "version"); code != exitOK || !strings.Contains(out, "windows/amd64") {
		t.Fatalf("atmkit.exe version: exit %d, %q %q; want exit 0 naming windows/amd64", code, out, errOut)
	}

	t.Run("serve", func(t *testing.T) {
		s := w.start(t, "serve", "--addr", "127.0.0.1:0", "--key", key, "--admin-token", token)
		op, params := coordinates(key)
		for _, b := range []asmx.Binding{asmx.SOAP11, asmx.HTTPGet, asmx.JSON} {
			if status, body := send(t, s.base, b, op, params, 30*time.Second); status != http.StatusOK || !strings.Contains(body, "46.") {
				t.Errorf("%s %s: got %d %.200q, want 200 with locations", b, op, status, body)
			}
		}
		if status, body := send(t, s.base, asmx.SOAP11, asmx.OpReturnProvinces, [][2]string{{asmx.ParamKey, "not-" + key}}, 30*time.Second); status != http.StatusInternalServerError {
			t.Errorf("a key not accepted: got %d %.200q, want 500 (a fault)", status, body)
		}
		if status, body := get(t, s.base+"/__admin/requests", token); status != http.StatusOK || !strings.Contains(body, op) {
			t.Errorf("GET /__admin/requests: got %d %.300q, want 200 naming %s", status, body, op)
		}
		if status, _ := get(t, s.base+"/__admin/requests", ""); status != http.StatusUnauthorized {
			t.Errorf("GET /__admin/requests without the token: got %d, want 401", status)
		}
		if code, out, errOut := w.run(t, "health", "--url", s.base); code != exitOK {
			t.Errorf("atmkit.exe health: exit %d, %s%s", code, out, errOut)
		}
		// A second serve on the port: Winsock's WSAEADDRINUSE, not Unix's.
		code, out, errOut := w.run(t, "serve", "--addr", strings.TrimPrefix(s.base, "http://"))
		if code != exitUsage || !strings.Contains(errOut, "address already in use") {
			t.Errorf("atmkit.exe serve on a port in use: exit %d, %s%s; want exit 2, address already in use", code, out, errOut)
		}
		report := `reports\conform.xml`
		code, out, errOut = w.run(t, "conform", "--target", s.base, "--key", key, "--junit-report", report)
		if code != exitOK || !strings.Contains(out, "SUCCESS!") {
			t.Errorf("atmkit.exe conform against itself: exit %d\n%s\n%s", code, out, errOut)
		}
		if r := readJUnit(t, filepath.Join(w.dir, "reports", "conform.xml")); r.Tests == 0 || r.Failures != 0 {
			t.Errorf("%s: %d tests, %d failures; want tests and no failure", report, r.Tests, r.Failures)
		}
		// The Windows binary as the client of a Linux mock.
		if code, out, errOut := w.run(t, "conform", "--target", startMock(t, key, nil), "--key", key); code != exitOK {
			t.Errorf("atmkit.exe conform against a Linux mock: exit %d\n%s\n%s", code, out, errOut)
		}
	})

	t.Run("tls", func(t *testing.T) {
		s := w.start(t, "serve", "--addr", "127.0.0.1:0", "--tls-self-signed")
		banner := s.stdout.String()
		// The throwaway authority goes to %TEMP% (in the prefix's drive C:).
		m := regexp.MustCompile(`CA: +C:\\(\S+\.pem) `).FindStringSubmatch(banner)
		if m == nil {
			t.Fatalf("no CA file on drive C: in the banner:\n%s", banner)
		}
		ca := filepath.Join(w.prefix, "drive_c", filepath.FromSlash(strings.ReplaceAll(m[1], `\`, "/")))
		if _, err := os.Stat(ca); err != nil {
			t.Fatalf("the CA file the banner names: %v", err)
		}
		// A Windows binary is in no Docker container, whatever file the
		// root of its current drive holds.
		if strings.Contains(banner, "container") {
			t.Errorf("the banner of the Windows binary speaks of a container:\n%s", banner)
		}
		if code, out, errOut := w.run(t, "health", "--url", s.base, "--ca-cert", `C:\`+m[1]); code != exitOK {
			t.Errorf("atmkit.exe health over HTTPS: exit %d, %s%s", code, out, errOut)
		}
		if code := s.interrupt(t); code != exitOK {
			t.Errorf("serve after Ctrl-C: exit %d\nstdout: %s\nstderr: %s", code, s.stdout, s.stderr)
		}
		if _, err := os.Stat(ca); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the throwaway CA file after Ctrl-C: %v, want it removed", err)
		}
	})

	t.Run("fixtures", func(t *testing.T) {
		// A directory with a space, as C:\Users\Jane Doe\... is.
		dir := `C:\atmkit\my data`
		code, out, errOut := w.run(t, "fixtures", "generate", "--atms", "30", "--out", dir)
		if code != exitOK {
			t.Fatalf(`fixtures generate --out %s: exit %d, %s%s`, dir, code, out, errOut)
		}
		if want := "serve it: atmkit serve --fixtures \"" + dir + "\"\n"; !strings.Contains(out, want) {
			t.Errorf("fixtures generate printed no %q (one argument to cmd.exe and PowerShell):\n%s", want, out)
		}
		if code, out, errOut := w.run(t, "fixtures", "check", dir); code != exitOK || !strings.Contains(out, "30 ATMs") {
			t.Errorf(`fixtures check %s: exit %d, %s%s`, dir, code, out, errOut)
		}
	})

	t.Run("record, replay, scrub", func(t *testing.T) {
		upstream := startMock(t, key, nil)
		rec := w.start(t, "record", "--upstream", upstream, "--cassette", `cassettes\atm`, "--addr", "127.0.0.1:0", "--save-interval", "0")
		op, params := coordinates(key)
		status, recorded := send(t, rec.base, asmx.HTTPGet, op, params, 30*time.Second)
		if status != http.StatusOK {
			t.Fatalf("through the recording proxy: got %d %.200q", status, recorded)
		}
		// A second recorder of the same cassette (named another way) is
		// refused while the first holds it.
		code, out, errOut := w.run(t, "record", "--upstream", upstream, "--cassette", winPath(filepath.Join(w.dir, "cassettes", "atm.yaml")), "--addr", "127.0.0.1:0")
		if code != exitUsage || !strings.Contains(errOut, "being written by another process") {
			t.Errorf("a second record of the cassette: exit %d, %s%s; want exit 2, being written by another process", code, out, errOut)
		}
		if code := rec.interrupt(t); code != exitOK || !strings.Contains(rec.stdout.String(), "1 interaction (1 new)") {
			t.Fatalf("record after Ctrl-C: exit %d\nstdout: %s\nstderr: %s", code, rec.stdout, rec.stderr)
		}
		cassette := filepath.Join(w.dir, "cassettes", "atm.yaml")
		entries, err := os.ReadDir(filepath.Dir(cassette))
		if err != nil || len(entries) != 1 {
			t.Errorf("the cassette's directory holds %v (%v), want the cassette alone (no lock or temporary file left)", entries, err)
		}

		rp := w.start(t, "serve", "--addr", "127.0.0.1:0", "--replay", `cassettes\atm.yaml`)
		if status, body := send(t, rp.base, asmx.HTTPGet, op, params, 30*time.Second); status != http.StatusOK || body != recorded {
			t.Errorf("replayed: got %d %.200q, want 200 and the recorded answer", status, body)
		}

		// The shape learned from the recording, into a directory to make,
		// served after a Windows editor gave it CRLF line ends.
		code, out, errOut = w.run(t, "shape", "learn", "--cassette", `cassettes\atm.yaml`, "--out", `shapes\learned.yaml`)
		if code != exitOK && code != exitFailure { // 1: some results not seen
			t.Fatalf(`shape learn --out shapes\learned.yaml: exit %d, %s%s`, code, out, errOut)
		}
		learned := filepath.Join(w.dir, "shapes", "learned.yaml")
		if err := os.WriteFile(learned, []byte(strings.ReplaceAll(readText(t, learned), "\n", "\r\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		sh := w.start(t, "serve", "--addr", "127.0.0.1:0", "--shape", `shapes\learned.yaml`)
		if status, body := send(t, sh.base, asmx.HTTPGet, op, params, 30*time.Second); status != http.StatusOK || !strings.Contains(body, "<atmLocations") {
			t.Errorf("serve --shape of a CRLF shape file: got %d %.200q, want 200 with atmLocations", status, body)
		}

		// A cassette edited by hand on Windows: CRLF line ends, a key typed
		// in. scrub --check finds it; scrub replaces the file in place.
		text, err := os.ReadFile(cassette)
		if err != nil {
			t.Fatal(err)
		}
		edited := strings.ReplaceAll(strings.ReplaceAll(string(text), "strAtmServiceKey=REDACTED", "strAtmServiceKey="+key), "\n", "\r\n")
		if edited == strings.ReplaceAll(string(text), "\n", "\r\n") {
			t.Fatalf("the cassette names no scrubbed key in a URL:\n%s", text)
		}
		hand := filepath.Join(w.dir, "hand.yaml")
		if err := os.WriteFile(hand, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out, errOut := w.run(t, "cassette", "scrub", "--check", winPath(hand)); code != exitFailure {
			t.Errorf("cassette scrub --check of a cassette with a key: exit %d, %s%s; want 1", code, out, errOut)
		}
		if code, out, errOut := w.run(t, "cassette", "scrub", winPath(hand)); code != exitOK {
			t.Errorf("cassette scrub: exit %d, %s%s", code, out, errOut)
		}
		if got := readText(t, hand); strings.Contains(got, key) || !strings.Contains(got, "strAtmServiceKey=REDACTED") {
			t.Errorf("the scrubbed cassette:\n%s\nwant the key replaced with REDACTED", got)
		}
		// Held open by another program (as an editor, a virus scanner or an
		// indexer holds a file for a moment), the cassette cannot be
		// renamed over until it lets go; scrub waits for it.
		held := filepath.Join(w.dir, "held.yaml")
		if err := os.WriteFile(held, []byte(edited), 0o644); err != nil {
			t.Fatal(err)
		}
		holder := w.holdOpen(t, held, ".held.yaml.*.tmp", "300ms")
		if code, out, errOut := w.run(t, "cassette", "scrub", `held.yaml`); code != exitOK {
			t.Errorf("cassette scrub of a cassette held open for a moment: exit %d, %s%s", code, out, errOut)
		}
		<-holder.exited
		if got := readText(t, held); strings.Contains(got, key) {
			t.Errorf("the cassette held open was not scrubbed:\n%.300s", got)
		}
		if code, out, errOut := w.run(t, "cassette", "list", "cassettes"); code != exitOK || !strings.Contains(out, op) {
			t.Errorf("cassette list cassettes: exit %d, %s%s", code, out, errOut)
		}
	})
}

package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/stopsignal"
)

// TestHelperProcess is not a test: it runs atmkit's main in a child process
// started by startAtmkit (the os/exec tests' pattern).
func TestHelperProcess(t *testing.T) {
	if os.Getenv("ATMKIT_HELPER_PROCESS") != "1" {
		t.Skip("helper process only")
	}
	_ = os.Unsetenv("ATMKIT_HELPER_PROCESS") // atmkit would warn that no command reads it
	args := os.Args
	for i, a := range args {
		if a == "--" {
			args = args[i+1:]
			break
		}
	}
	os.Args = append([]string{"atmkit"}, args...)
	main()
}

// startAtmkit runs "atmkit args..." in a child process and returns it with
// the base URL it printed on its startup line.
func startAtmkit(t *testing.T, args ...string) (*exec.Cmd, string, *mocktest.SyncBuffer) {
	t.Helper()
	return startAtmkitUnder(t, nil, args...)
}

// startAtmkitUnder is startAtmkit run by the command wrapper (such as
// nohup), which executes the rest of its arguments.
func startAtmkitUnder(t *testing.T, wrapper []string, args ...string) (*exec.Cmd, string, *mocktest.SyncBuffer) {
	t.Helper()
	cmd, out, stderr := startChild(t, (*exec.Cmd).StdoutPipe, wrapper, args...)
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if _, url, ok := strings.Cut(lines.Text(), "listening on "); ok {
			go func() { _, _ = io.Copy(io.Discard, out) }()
			return cmd, strings.TrimSpace(url), stderr
		}
	}
	t.Fatalf("atmkit printed no startup line; stderr:\n%s", stderr.String())
	return nil, "", nil
}

// childCommand is "atmkit args..." run in a child process
// (TestHelperProcess), by the command wrapper (such as nohup) if any.
func childCommand(wrapper []string, args ...string) *exec.Cmd {
	argv := append(append(slices.Clone(wrapper), os.Args[0], "-test.run=^TestHelperProcess$", "--"), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "ATMKIT_HELPER_PROCESS=1")
	return cmd
}

// startChild starts childCommand(wrapper, args...), killed when the test
// ends, and returns it with the pipe that pipe ((*exec.Cmd).StdoutPipe or
// StderrPipe) opens and a buffer holding its other stream.
func startChild(t *testing.T, pipe func(*exec.Cmd) (io.ReadCloser, error), wrapper []string, args ...string) (*exec.Cmd, io.ReadCloser, *mocktest.SyncBuffer) {
	t.Helper()
	cmd := childCommand(wrapper, args...)
	r, err := pipe(cmd)
	if err != nil {
		t.Fatal(err)
	}
	other := &mocktest.SyncBuffer{}
	if cmd.Stdout == nil {
		cmd.Stdout = other
	} else {
		cmd.Stderr = other
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _, _ = cmd.Process.Wait() })
	return cmd, r, other
}

// signalAtLine reads r line by line to its end and sends cmd sig at the
// first line containing begun. It returns the lines read, each ended by a
// newline, and whether it sent sig.
func signalAtLine(t *testing.T, cmd *exec.Cmd, r io.Reader, begun string, sig os.Signal) (text string, signalled bool) {
	t.Helper()
	var b strings.Builder
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		b.WriteString(sc.Text() + "\n")
		if !signalled && strings.Contains(sc.Text(), begun) {
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			signalled = true
		}
	}
	return b.String(), signalled
}

func TestSIGTERMLetsInFlightRequestsFinish(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			cmd, base, stderr := startAtmkit(t, "serve", "--addr", "127.0.0.1:0", "--log-format", "json")
			addr := strings.TrimPrefix(base, "http://")
			form := "strAtmServiceKey=k&intCityID=1"
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			// Send the headers and half the body: the request is in flight.
			fmt.Fprintf(conn, "POST /service/service.asmx/ReturnAtmSearchByCity HTTP/1.1\r\nHost: %s\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n%s", addr, len(form), form[:10])
			time.Sleep(200 * time.Millisecond)
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			// New connections are refused once shutdown has begun (on a
			// loaded machine the signal may take a while to be handled).
			refused := false
			for end := time.Now().Add(20 * time.Second); !refused && time.Now().Before(end); {
				c, err := net.DialTimeout("tcp", addr, time.Second)
				if refused = err != nil; !refused {
					c.Close()
					time.Sleep(50 * time.Millisecond)
				}
			}
			if !refused {
				t.Errorf("new connections were still accepted 20 s after %s", sig)
			}
			if _, err := io.WriteString(conn, form[10:]); err != nil {
				t.Fatalf("finish the request: %v", err)
			}
			resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
			if err != nil {
				t.Fatalf("in-flight request got no answer: %v; stderr:\n%s", err, stderr.String())
			}
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 || !strings.Contains(string(body), "<atmLocations>") {
				t.Errorf("in-flight request: got %d %.200q, want 200 with locations", resp.StatusCode, body)
			}
			if code := waitExit(t, cmd); code != 0 {
				t.Errorf("exit after %s: got exit status %d, want 0; stderr:\n%s", sig, code, stderr.String())
			}
		})
	}
}

// TestSIGTERMWithAConnectionThatSentNothing: a connection open with no
// request on it (a TCP probe, a browser's preconnect) is no request in
// flight: on SIGTERM serve closes it and exits 0. It waited for it the
// whole --grace before (net/http gives such a one five seconds), then
// exited 1 with "requests still in flight when the grace period ended".
func TestSIGTERMWithAConnectionThatSentNothing(t *testing.T) {
	t.Parallel()
	cmd, base, stderr := startAtmkit(t, "serve", "--addr", "127.0.0.1:0", "--grace", "3s")
	silent, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	get(t, base+"/__admin/health", "") // accepted after the silent one: serve holds that one now
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd); code != 0 || strings.Contains(stderr.String(), "in flight") {
		t.Errorf("exit after SIGTERM: got exit status %d, want 0 and nothing in flight; stderr:\n%s", code, stderr)
	}
}

// TestSIGTERMGraceEndsExitsZero: a request still in flight when --grace
// ends (here a body never finished) is cut off, a warning says so, and
// serve exits 0, as docs/ci.md and docs/serving.md say; it exited 1.
func TestSIGTERMGraceEndsExitsZero(t *testing.T) {
	t.Parallel()
	cmd, base, stderr := startAtmkit(t, "serve", "--addr", "127.0.0.1:0", "--grace", "1s")
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// Expect: 100-continue: net/http answers "100 Continue" once the
	// handler reads the body, so the request is in flight, not a
	// connection that sent nothing yet, before the signal (a health call
	// in between did not make sure of it: under load the request was not
	// read yet, the connection was closed as one that sent nothing, and
	// nothing was cut off).
	fmt.Fprintf(conn, "POST /service/service.asmx/ReturnProvinces HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n")
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	if line, err := bufio.NewReader(conn).ReadString('\n'); err != nil || !strings.HasPrefix(line, "HTTP/1.1 100 ") {
		t.Fatalf("want 100 Continue as the handler reads the body: got %q, %v", line, err)
	}
	fmt.Fprint(conn, "strAtm") // and the rest never comes
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := waitExit(t, cmd); code != 0 || !strings.Contains(stderr.String(), "cut off") {
		t.Errorf("exit after SIGTERM with a request in flight past --grace: got exit status %d, want 0 and a warning that it was cut off; stderr:\n%s", code, stderr)
	}
}

// TestSIGHUPStops: SIGHUP (a closed terminal, an ended ssh session) stops
// atmkit serve as SIGTERM does, which removes the throwaway authority's
// temporary file; it ended serve at once before (exit 129, the file left
// in the temporary directory). Under nohup, SIGHUP stays ignored. Not
// parallel: it sets TMPDIR for the child processes.
func TestSIGHUPStops(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	wait := func(cmd *exec.Cmd) error {
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			t.Fatal("atmkit did not exit within 30 s")
			return nil
		}
	}
	// A test binary started with SIGHUP ignored (go test under nohup, a CI
	// runner ignoring it) passes the ignoring on to its children, and
	// atmkit keeps it (the second half): env --default-signal gives the
	// child SIGHUP's default back, as a terminal would.
	var wrapper []string
	if !slices.Contains(stopsignal.Signals, os.Signal(syscall.SIGHUP)) {
		if err := exec.Command("env", "--default-signal=HUP", "true").Run(); err != nil {
			t.Skipf("SIGHUP is ignored here (nohup?) and env --default-signal is not available to undo it: %v", err)
		}
		wrapper = []string{"env", "--default-signal=HUP"}
	}
	cmd, _, stderr := startAtmkitUnder(t, wrapper, "serve", "--addr", "127.0.0.1:0", "--tls-self-signed")
	if left, _ := os.ReadDir(tmp); len(left) != 1 {
		t.Fatalf("the temporary directory holds %v, want the throwaway authority's file", left)
	}
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	if err := wait(cmd); err != nil || !strings.Contains(stderr.String(), "atmkit: stopped") {
		t.Errorf("after SIGHUP: got %v, want exit status 0 and atmkit: stopped; stderr:\n%s", err, stderr)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("after SIGHUP the temporary directory holds %v, want nothing", left)
	}

	if _, err := exec.LookPath("nohup"); err != nil {
		t.Skip("no nohup here")
	}
	cmd, base, stderr := startAtmkitUnder(t, []string{"nohup"}, "serve", "--addr", "127.0.0.1:0")
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond) // a SIGHUP taken would stop it by now; one ignored changes nothing
	if status, _ := get(t, base+"/__admin/health", ""); status != http.StatusOK {
		t.Errorf("under nohup, after SIGHUP: health answered %d, want 200", status)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := wait(cmd); err != nil {
		t.Errorf("after SIGTERM: got %v, want exit status 0; stderr:\n%s", err, stderr)
	}
}

// TestSecondSignalEndsAtOnce: a second SIGINT or SIGTERM during the
// graceful shutdown ends atmkit serve and atmkit record at once, whatever
// is still in flight and however long --grace is; record still saves what
// it recorded. (The request in flight waits for its body or upstream
// answer, which never come, and --grace is two minutes: an exit within
// 30 s can only be the second signal's.)
func TestSecondSignalEndsAtOnce(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "slow") {
			select {
			case <-r.Context().Done():
			case <-release:
			}
		}
		fmt.Fprint(w, "ok")
	}))
	t.Cleanup(upstream.Close)
	t.Cleanup(func() { close(release) })
	cassette := filepath.Join(t.TempDir(), "rec.yaml")
	for _, tc := range []struct {
		name  string
		args  []string
		fast  string // a request answered at once, or ""
		slow  string // a request still in flight at the signals
		check func(t *testing.T)
	}{
		{name: "serve", args: []string{"serve", "--addr", "127.0.0.1:0", "--grace", "2m"},
			slow: asmx.ServicePath + "/ReturnProvinces"}, // a form whose end never comes
		{name: "record", args: []string{"record", "--upstream", upstream.URL, "--cassette", cassette, "--addr", "127.0.0.1:0", "--grace", "2m"},
			fast: "/fast", slow: "/slow",
			check: func(t *testing.T) {
				list, err := cassettes.ReadFile(cassette)
				if err != nil || len(list) != 1 {
					t.Errorf("cassette: got %d interactions (%v), want the 1 answered before the signals", len(list), err)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cmd, base, stderr := startAtmkit(t, tc.args...)
			if tc.fast != "" {
				resp, err := http.Get(base + tc.fast)
				if err != nil {
					t.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
			}
			inFlight := make(chan error, 1)
			go func() {
				get := http.Get
				if tc.name == "serve" { // a form body that starts and never ends
					get = func(url string) (*http.Response, error) {
						addr := strings.TrimPrefix(base, "http://")
						conn, err := net.Dial("tcp", addr)
						if err != nil {
							return nil, err
						}
						defer conn.Close()
						fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: %s\r\nContent-Length: 100\r\n\r\nstrAtmServiceKey=",
							strings.TrimPrefix(url, base), addr, asmx.ContentTypeForm)
						return http.ReadResponse(bufio.NewReader(conn), nil)
					}
				}
				resp, err := get(base + tc.slow)
				if err == nil {
					resp.Body.Close()
				}
				inFlight <- err
			}()
			time.Sleep(300 * time.Millisecond)
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			time.Sleep(300 * time.Millisecond)
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("exit after a second signal: got %v, want exit status 0; stderr:\n%s", err, stderr.String())
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("atmkit %s did not end on a second signal; stderr:\n%s", tc.name, stderr.String())
			}
			select {
			case <-inFlight:
			case <-time.After(10 * time.Second):
				t.Errorf("the request in flight was not ended")
			}
			if tc.check != nil {
				tc.check(t)
			}
		})
	}
}

// TestSIGTERMEndsInjectedWaits: a delay or dribble fault does not hold the
// graceful shutdown up: on SIGTERM the delayed call is answered at once
// and serve exits 0 well within --grace (2 minutes here, as the delay).
func TestSIGTERMEndsInjectedWaits(t *testing.T) {
	t.Parallel()
	cmd, base, stderr := startAtmkit(t, "serve", "--addr", "127.0.0.1:0", "--grace", "2m",
		"--fault", "op=ReturnProvinces,delay=2m", "--fault", "op=ReturnInstitutions,dribble.chunks=4,dribble.duration=1m")
	type result struct {
		status int
		err    error
	}
	answers := make(chan result, 2)
	for _, op := range []string{asmx.OpReturnProvinces, asmx.OpReturnInstitutions} {
		go func() {
			resp, err := http.Get(base + asmx.ServicePath + "/" + op + "?strAtmServiceKey=k")
			if err != nil {
				answers <- result{0, err}
				return
			}
			_, err = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			answers <- result{resp.StatusCode, err}
		}()
	}
	time.Sleep(500 * time.Millisecond)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		select {
		case r := <-answers:
			if r.err != nil || r.status != 200 {
				t.Errorf("a delayed call during the shutdown: got %d, %v; want its answer", r.status, r.err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("the delayed calls were not answered after SIGTERM; stderr:\n%s", stderr.String())
		}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after SIGTERM: got %v, want exit status 0; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("atmkit serve did not exit after SIGTERM within 30 s; stderr:\n%s", stderr.String())
	}
}

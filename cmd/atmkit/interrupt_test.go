package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/mockserver"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// stopWhile runs "atmkit args..." in a child process, sends it sig once
// its stderr has a line containing begun, and returns its exit code and
// what it wrote.
func stopWhile(t *testing.T, begun string, sig syscall.Signal, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	cmd, errPipe, out := startChild(t, (*exec.Cmd).StderrPipe, nil, args...)
	stderr, signalled := signalAtLine(t, cmd, errPipe, begun, sig)
	err := cmd.Wait()
	if !signalled {
		t.Fatalf("atmkit %s wrote no line with %q; stderr:\n%s", args[0], begun, stderr)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), stderr
}

// TestStopWhileLoading: SIGINT or SIGTERM while serve or bench loads,
// generates or indexes a data set ends them then, not once the loading is
// done: serve never listens and exits 0, saying it stopped before
// listening (its stop after listening is exit 0 too); bench measures
// nothing and exits 2, as an interrupted run. serve listened and stopped
// only after loading (a million ATMs: about 10 s of Ctrl-C unheard); bench
// said "context canceled" and exited 1.
func TestStopWhileLoading(t *testing.T) {
	t.Parallel()
	// 50,000 ATMs (20 MB): about a second to load and index, where the
	// signal comes within milliseconds of the line saying loading began.
	ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 9, ATMs: 50_000})
	if err != nil {
		t.Fatal(err)
	}
	dir, out := t.TempDir(), t.TempDir()
	if err := fixtures.Save(dir, ds); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		sig   syscall.Signal
		begun string
		args  []string
		code  int
		want  string
	}{
		{"serve", syscall.SIGINT, "loading the data set", []string{"serve", "--addr", "127.0.0.1:0", "--fixtures", dir},
			0, "atmkit: stopped while loading the data set, before serving"},
		{"serve SIGTERM", syscall.SIGTERM, "loading the data set", []string{"serve", "--addr", "127.0.0.1:0", "--fixtures", dir},
			0, "atmkit: stopped while loading the data set, before serving"},
		{"bench --fixtures", syscall.SIGINT, "atmkit bench: loading", []string{"bench", "--fixtures", dir, "-d", "1s"},
			2, "atmkit: bench: interrupted before measuring started; nothing was measured"},
		{"bench --atms", syscall.SIGINT, "atmkit bench: generating", []string{"bench", "--atms", "50000", "-d", "1s"},
			2, "atmkit: bench: interrupted before measuring started; nothing was measured"},
		{"fixtures generate", syscall.SIGINT, "atmkit: generated 30000 of", []string{"fixtures", "generate", "--atms", "300000", "--out", out},
			2, "atmkit: fixtures generate: interrupted; nothing was written to " + out},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := stopWhile(t, tc.begun, tc.sig, tc.args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("got exit %d, stderr:\n%s\nwant exit %d and %q", code, stderr, tc.code, tc.want)
			}
			if strings.Contains(stdout, "listening on") || strings.Contains(stderr, "-byte response") || strings.Contains(stdout, "req/s") {
				t.Errorf("it went on after the signal; stdout:\n%s\nstderr:\n%s", stdout, stderr)
			}
		})
	}
	t.Cleanup(func() { // after the parallel subtests
		if entries, _ := os.ReadDir(out); len(entries) > 0 {
			t.Errorf("fixtures generate interrupted left %d files in --out, want none", len(entries))
		}
	})
}

// TestFixturesCheckInterrupted: fixtures check whose context ends (SIGINT,
// SIGTERM) while it reads the data set says it was not checked whole and
// exits 2, as interrupted runs of bench and conform; it read on and said
// "valid".
func TestFixturesCheckInterrupted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 3, ATMs: 100})
	if err == nil {
		err = fixtures.Save(dir, ds)
	}
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	m := &Main{cli.Env{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}}
	code := m.Exit(m.Run(ctx, []string{"fixtures", "check", dir}))
	want := "atmkit: fixtures check: interrupted: " + dir + " was not checked whole"
	if code != exitUsage || !strings.Contains(stderr.String(), want) || strings.Contains(stdout.String(), "valid") {
		t.Errorf("got exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout.String(), stderr.String(), want)
	}
}

// TestStopWhileReadingCassettes: commands whose context ends (SIGINT,
// SIGTERM) while they read cassettes stop there. serve --replay and record
// exit 0 as their stop after serving does, saying they never served;
// cassette list, cassette scrub and shape learn exit 2 as interrupted runs,
// writing nothing. They read every cassette whole first (a 180 MB one:
// seconds of Ctrl-C unheard); then serve said it stopped loading the data
// set, record printed its banner and rewrote the cassette, and the others
// went on to the end.
func TestStopWhileReadingCassettes(t *testing.T) {
	t.Parallel()
	path := goldenCassette(t, 1) // a key to scrub
	before := readText(t, path)
	out := filepath.Join(t.TempDir(), "learned.yaml")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"serve", "--addr", "127.0.0.1:0", "--replay", path}, exitOK,
			"atmkit: stopped while loading the cassettes, before serving"},
		{[]string{"record", "--addr", "127.0.0.1:0", "--upstream", "http://127.0.0.1:1", "--cassette", path}, exitOK,
			"atmkit: stopped while reading the cassette " + path + ", before serving"},
		{[]string{"cassette", "list", path}, exitUsage, "atmkit: cassette list: interrupted"},
		{[]string{"cassette", "scrub", path}, exitUsage, "atmkit: cassette scrub: interrupted at " + path + ", which is as it was"},
		{[]string{"shape", "learn", "--cassette", path, "--out", out}, exitUsage,
			"atmkit: shape learn: interrupted while reading the cassettes; " + out + " was not written"},
	} {
		var stdout, stderr bytes.Buffer
		m := &Main{cli.Env{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }}}
		code := m.Exit(m.Run(ctx, tc.args))
		if code != tc.code || !strings.Contains(stderr.String(), tc.want) || strings.Contains(stdout.String(), "listening on") {
			t.Errorf("%s: got exit %d, stdout %q, stderr %q; want exit %d and %q", tc.args[0], code, stdout.String(), stderr.String(), tc.code, tc.want)
		}
	}
	if readText(t, path) != before {
		t.Error("the cassette changed")
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("shape learn wrote %s", out)
	}
}

// TestShapeLearnSignal: SIGINT or SIGTERM while shape learn learns stops
// the learner itself, which is waited for: exit 2, saying so, --out not
// written. The learner could not stop: shape learn returned leaving it
// running in its goroutine (minutes of work for hundreds of answers).
func TestShapeLearnSignal(t *testing.T) {
	t.Parallel()
	// 5,000 ATMs: answers of about 3 MB (1,000 under the race detector,
	// which slows the learning more than that).
	atms := 5000
	if mocktest.Race {
		atms = 1000
	}
	ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 5, ATMs: atms})
	if err != nil {
		t.Fatal(err)
	}
	h, err := mockserver.New(mockserver.WithDataset(ds), mockserver.WithKeys(leakKey))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	path := recordCassette(t, srv.URL, asmx.DefaultNamespace, leakKey, []refdeploy.Call{{Op: asmx.OpReturnAllAtms}})
	// The answer of every ATM twelve times more: seconds of learning (a
	// minute if not stopped).
	list, err := cassettes.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := list[slices.IndexFunc(list, func(i *cassette.Interaction) bool {
		return i.Response.Code == http.StatusOK && strings.Contains(i.Request.URL, asmx.OpReturnAllAtms)
	})]
	for range 12 {
		c := *i
		list = append(list, &c)
	}
	if err := cassettes.WriteFile(path, list); err != nil {
		t.Fatal(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "learned.yaml")
			code, stdout, stderr := stopWhile(t, "atmkit: shape learn: learning from", sig, "shape", "learn", "--cassette", path, "--out", out)
			want := "atmkit: shape learn: interrupted while learning; " + out + " was not written"
			if code != exitUsage || !strings.Contains(stderr, want) || strings.Contains(stdout, "wrote") {
				t.Errorf("got exit %d, stdout:\n%s\nstderr:\n%s\nwant exit 2 and %q", code, stdout, stderr, want)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("shape learn wrote %s", out)
			}
		})
	}
}

// TestBenchStopWhileWarmingUp: bench interrupted (SIGINT, SIGTERM) while it
// warms the servers up, before its first round, says nothing was measured
// and exits 2, printing no report, as when interrupted while loading. It
// printed a report of zeros (0.0 req/s for every server) marked
// INTERRUPTED.
func TestBenchStopWhileWarmingUp(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := stopWhile(t, "-byte response;", sig, "bench", "-c", "2", "-d", "1s", "--warmup", "10m")
			want := "atmkit: bench: interrupted before measuring started; nothing was measured"
			if code != exitUsage || !strings.Contains(stderr, want) || stdout != "" {
				t.Errorf("got exit %d, stdout:\n%s\nstderr:\n%s\nwant exit 2, no report and %q", code, stdout, stderr, want)
			}
		})
	}
}

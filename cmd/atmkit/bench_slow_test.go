package main

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
	"github.com/atmkit/atmkit/mockserver"
)

// TestBenchTargetTooSlow: a target that answers the first call on each
// connection (bench's first call, the check before each round), then
// holds every call past the round's end
// (a deployment slower than -d allows) answered no call while measured: it
// could not be measured, exit 2, saying so after the report. It exited 0,
// "0.0 req/s, p50 0.000 ms, 0 errors", and a ratio of 0.000 to the
// ceiling, as if measured.
func TestBenchTargetTooSlow(t *testing.T) {
	t.Setenv(testMainVar, "1") // the ceiling's process is this test binary
	t.Setenv("TMPDIR", t.TempDir())
	h, err := mockserver.New()
	if err != nil {
		t.Fatal(err)
	}
	var calls sync.Map // by the client's address: calls on its connection
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := calls.LoadOrStore(r.RemoteAddr, new(atomic.Int64))
		if n.(*atomic.Int64).Add(1) > 1 { // bench's first call and each round's check are first on theirs
			select { // held until the client gives up (at the round's end), or the test ends
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	defer close(release) // first
	for _, format := range []string{"text", "json"} {
		args := []string{"--target", srv.URL, "-c", "1"}
		if format == "json" {
			args = append(args, "--json")
		}
		stdout, _, err := runBenchCmd(t, args...)
		var stderr bytes.Buffer
		code := (&cli.Env{Stderr: &stderr}).Exit(err)
		if want := "the target answered no call in the "; code != cli.ExitUsage || !strings.Contains(stderr.String(), want) {
			t.Errorf("%s: got exit %d and %q, want %d and %q", format, code, stderr.String(), cli.ExitUsage, want)
		}
		if !strings.Contains(stdout, "ceiling") {
			t.Errorf("%s: got %q, want the report before the error", format, stdout)
		}
	}
}

// TestBenchRoundsUnderAMillisecond: a -d that split over the rounds leaves
// less than a millisecond a round (-d 1ns: 0 ns a round) is a wrong
// setting, exit 2 at once: each round's 0 was read as the load
// generator's default, 10 s, so -d 1ns measured for 40 s, and -d 999ns
// --rounds 1000 would have run for hours.
func TestBenchRoundsUnderAMillisecond(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"-d", "1ns"}, {"-d", "999ms", "--rounds", "1000"}} {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		var out, errb bytes.Buffer
		m := &Main{cli.Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}}
		err := m.Run(ctx, append([]string{"bench", "--warmup", "0", "-c", "1"}, args...))
		cancel()
		var stderr bytes.Buffer
		code := (&cli.Env{Stderr: &stderr}).Exit(err)
		if want := "under a millisecond a round"; code != cli.ExitUsage || !strings.Contains(stderr.String(), want) || out.Len() > 0 {
			t.Errorf("%v: got exit %d, %q and report %q, want %d, %q and no report", args, code, stderr.String(), out.String(), cli.ExitUsage, want)
		}
	}
}

package main

import (
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/mocktest"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// TestCassetteVerifyUpdateSignal: SIGINT or SIGTERM while cassette verify
// --update reads a large cassette again to rewrite it stops there: exit 2,
// saying the cassettes not named as updated are as they were, and the
// cassette is as it was. The second read did not listen: it read on,
// rewrote the cassette and exited 0.
func TestCassetteVerifyUpdateSignal(t *testing.T) {
	t.Parallel()
	// A padding interaction: a request body of 48 MB (3 MB under the race
	// detector, which slows the reading more than that), which verify
	// sends again and --update reads again: a second or more of reading.
	lines := 4_000_000
	if mocktest.Race {
		lines = 250_000
	}
	drifted := startMock(t, leakKey, deviating("renamed-result"))
	upstream := startMock(t, leakKey, func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path != "/pad" {
				forwardTo(drifted).ServeHTTP(w, r)
				return
			}
			_, _ = io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "text/plain")
			_, _ = io.WriteString(w, "ok")
		})
	})
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			path := recordCassette(t, startMock(t, leakKey, nil), asmx.DefaultNamespace, leakKey, verifyCalls[:1])
			list, err := cassettes.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			u, err := url.Parse(list[0].Request.URL)
			if err != nil {
				t.Fatal(err)
			}
			u.Path, u.RawQuery = "/pad", ""
			list = append(list, &cassette.Interaction{
				Request: cassette.Request{Method: http.MethodPost, URL: u.String(), Body: strings.Repeat("padding row\n", lines),
					Headers: http.Header{"Content-Type": {"text/plain"}}},
				Response: cassette.Response{Code: 200, Status: "200 OK", Body: "ok", Headers: http.Header{"Content-Type": {"text/plain"}}},
			})
			if err := cassettes.WriteFile(path, list); err != nil {
				t.Fatal(err)
			}
			before := readText(t, path)

			cmd, out, stderr := startChild(t, (*exec.Cmd).StdoutPipe, nil,
				"cassette", "verify", "--quiet", "--upstream", upstream, "--key", leakKey, "--update", path)
			// At the summary: verifying is over, the update begins.
			stdout, signalled := signalAtLine(t, cmd, out, "structure drifted (", sig)
			code := waitExit(t, cmd)
			if !signalled {
				t.Fatalf("verify printed no summary; exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
			}
			want := "atmkit: cassette verify: --update interrupted; the cassettes not named as updated above are as they were"
			if code != exitUsage || !strings.Contains(stderr.String(), want) || strings.Contains(stdout, "atmkit: updated") {
				t.Errorf("got exit %d, stdout:\n%s\nstderr:\n%s\nwant exit 2, no update and %q", code, stdout, stderr, want)
			}
			if readText(t, path) != before {
				t.Error("the cassette was rewritten")
			}
			if entries, err := os.ReadDir(filepath.Dir(path)); err != nil || len(entries) != 1 {
				t.Errorf("the cassette's directory holds %v (%v), want the cassette only", entries, err)
			}
			checkNoKey(t, leakKey, stdout+stderr.String(), path)
		})
	}
}

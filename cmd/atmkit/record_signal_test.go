package main

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// TestRecordSignalDuringSave: SIGTERM or SIGINT while atmkit record writes
// a large cassette and a call is in flight: the call gets its answer, the
// process exits 0, and the cassette on disk is whole, with every answered
// call, and no temporary file beside it.
func TestRecordSignalDuringSave(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			// About 4 MB a call (1 MB under the race detector, which makes
			// every save several times slower anyway).
			reps := 100
			if mocktest.Race {
				reps = 25
			}
			release := make(chan struct{})
			upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Query().Get("slow") != "" {
					<-release
				}
				w.Header().Set("Content-Type", "text/xml; charset=utf-8")
				fmt.Fprintf(w, "<r n=%q>\n", r.URL.RawQuery)
				line := strings.Repeat("<atm>a location of some length</atm>\n", 1000)
				for range reps {
					io.WriteString(w, line)
				}
				io.WriteString(w, "</r>\n")
			}))
			t.Cleanup(upstream.Close)
			t.Cleanup(func() { close(release) })
			dir := t.TempDir()
			path := filepath.Join(dir, "big.yaml")
			cmd, base, stderr := startAtmkit(t, "record", "--upstream", upstream.URL, "--cassette", path, "--addr", "127.0.0.1:0",
				"--save-interval", "1ms", "--log-level", "debug",
				"--grace", "5m") // what is checked is the call answered and the file whole, not how long that may take
			get := func(q string) error {
				resp, err := http.Get(base + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=" + leakKey + "&" + q)
				if err != nil {
					return err
				}
				defer resp.Body.Close()
				if _, err := io.Copy(io.Discard, resp.Body); err != nil {
					return err
				}
				if resp.StatusCode != http.StatusOK {
					return fmt.Errorf("%s: status %d", q, resp.StatusCode)
				}
				return nil
			}
			const calls = 8
			for n := range calls {
				if err := get(fmt.Sprintf("n=%d", n)); err != nil {
					t.Fatal(err)
				}
			}
			inFlight := make(chan error, 1)
			go func() { inFlight <- get("n=slow&slow=1") }()
			if !waitForText(stderr, "saved cassette") {
				t.Fatalf("no save logged; stderr:\n%s", stderr)
			}
			if err := get(fmt.Sprintf("n=%d", calls)); err != nil { // a save follows it at once
				t.Fatal(err)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			time.Sleep(50 * time.Millisecond)
			release <- struct{}{}
			if err := <-inFlight; err != nil {
				t.Errorf("the call in flight at %s: %v", sig, err)
			}
			if code := waitExit(t, cmd); code != 0 {
				t.Errorf("exit %d after %s, want 0; stderr:\n%s", code, sig, stderr)
			}
			list, err := cassettes.ReadFile(path)
			if err != nil || len(list) != calls+2 {
				t.Errorf("cassette: %d interactions (%v), want %d", len(list), err, calls+2)
			}
			if entries, err := os.ReadDir(dir); err != nil || len(entries) != 1 {
				t.Errorf("the cassette's directory holds %v (%v), want the cassette only", entries, err)
			}
			noLeak(t, "record's stderr", stderr.String())
		})
	}
}

// waitForText waits up to 30 s for s in b.
func waitForText(b *mocktest.SyncBuffer, s string) bool {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if strings.Contains(b.String(), s) {
			return true
		}
	}
	return false
}

// waitExit waits up to 30 s for cmd to end and returns its exit code.
func waitExit(t *testing.T, cmd *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(30 * time.Second):
		t.Fatal("atmkit did not exit within 30 s of its signal")
		return -1
	}
}

package main

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/atmkit/atmkit/cassettes"
	"golang.org/x/sys/unix"
)

// TestRecordSaveOverFileSizeLimit: atmkit record under a file size limit
// (RLIMIT_FSIZE, as ulimit -f sets it) that a save goes over: the write
// fails with EFBIG; the failure is logged once, naming the cassette and no
// key; the cassette keeps its last complete version, with no temporary
// file beside it. If the limit stays, Ctrl-C says the last save failed and
// exits 1; if it is lifted, the next save writes everything, and Ctrl-C
// exits 0.
func TestRecordSaveOverFileSizeLimit(t *testing.T) {
	t.Parallel()
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		n := 100
		if r.URL.Query().Get("big") != "" {
			n = 200 << 10
		}
		fmt.Fprintf(w, "<r>%s %s</r>", r.URL.Query().Get("n"), strings.Repeat("x", n))
	}))
	t.Cleanup(upstream.Close)
	for _, lifted := range []bool{false, true} {
		name := "kept"
		if lifted {
			name = "lifted"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "limited.yaml")
			cmd, base, stderr := startAtmkit(t, "record", "--upstream", upstream.URL, "--cassette", path, "--addr", "127.0.0.1:0", "--save-interval", "10ms")
			call := func(q string) {
				t.Helper()
				resp, err := http.Get(base + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=" + leakKey + "&" + q)
				if err != nil {
					t.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("%s through the proxy: %d", q, resp.StatusCode)
				}
			}
			holds := func(n int) bool { // the cassette holds n interactions, within 30 s
				t.Helper()
				for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
					if list, err := cassettes.ReadFile(path); err == nil && len(list) == n {
						return true
					}
				}
				return false
			}
			for n := range 3 {
				call(fmt.Sprintf("n=%d", n))
			}
			if !holds(3) {
				t.Fatalf("the cassette never held the first 3 interactions; stderr:\n%s", stderr)
			}
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			limit := unix.Rlimit{Cur: uint64(len(before)) + 16<<10, Max: unix.RLIM_INFINITY}
			var old unix.Rlimit
			if err := unix.Prlimit(cmd.Process.Pid, unix.RLIMIT_FSIZE, &limit, &old); err != nil {
				t.Skipf("cannot limit the child's file size: %v", err)
			}
			limit.Max = old.Max
			if err := unix.Prlimit(cmd.Process.Pid, unix.RLIMIT_FSIZE, &limit, nil); err != nil {
				t.Fatal(err)
			}
			call("n=big&big=1")
			const failed = "level=ERROR msg=\"save cassette"
			if !waitForText(stderr, failed) {
				t.Fatalf("no failed save logged; stderr:\n%s", stderr)
			}
			for n := 4; n < 7; n++ {
				call(fmt.Sprintf("n=%d", n))
			}
			time.Sleep(200 * time.Millisecond) // a few more saves try, and fail
			if got, err := os.ReadFile(path); err != nil || string(got) != string(before) {
				t.Errorf("the cassette changed though no save could complete (%v)", err)
			}
			if lifted {
				limit.Cur = unix.RLIM_INFINITY
				if err := unix.Prlimit(cmd.Process.Pid, unix.RLIMIT_FSIZE, &limit, nil); err != nil {
					t.Fatal(err)
				}
				call("n=7")
				if !waitForText(stderr, "saved cassette again") || !holds(8) {
					t.Errorf("no save after the limit was lifted; stderr:\n%s", stderr)
				}
			}
			if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			code := waitExit(t, cmd)
			out := stderr.String()
			noLeak(t, "record's stderr", out)
			if n := strings.Count(out, failed); n != 1 {
				t.Errorf("the failed saves were logged %d times, want once:\n%s", n, out)
			}
			if !strings.Contains(out, "cassette="+path) || !strings.Contains(out, "file too large") {
				t.Errorf("the failure names neither the cassette nor its cause:\n%s", out)
			}
			entries, err := os.ReadDir(dir)
			if err != nil || len(entries) != 1 {
				t.Errorf("the cassette's directory holds %v (%v), want the cassette only", entries, err)
			}
			if lifted {
				if code != 0 || !holds(8) {
					t.Errorf("exit %d, want 0 with 8 interactions; stderr:\n%s", code, out)
				}
				return
			}
			if want := "atmkit: record: write cassette " + path + ": "; code != 1 || !strings.Contains(out, want) {
				t.Errorf("exit %d, want 1 and %q in stderr:\n%s", code, want, out)
			}
			// The cassette once, then the cause: it was "write cassette P:
			// write P: write P's temporary file: file too large".
			if want := "atmkit: record: write cassette " + path + ": file too large"; !strings.Contains(out, want) {
				t.Errorf("want %q in stderr, the cassette named once:\n%s", want, out)
			}
			if got, err := os.ReadFile(path); err != nil || string(got) != string(before) {
				t.Errorf("the last save failed, yet the cassette changed (%v)", err)
			}
		})
	}
}

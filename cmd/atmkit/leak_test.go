package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
)

// The secrets the leak tests give atmkit; none may appear in any output.
const (
	leakKey   = "Leak-Key-1234"
	leakToken = "Admin-Token-999"
)

// noLeak fails the test if a secret appears in what.
func noLeak(t *testing.T, what, s string) {
	t.Helper()
	for _, secret := range []string{leakKey, leakToken} {
		if strings.Contains(s, secret) {
			t.Errorf("%s holds %q: %.600q", what, secret, s)
		}
	}
}

// noLeakInDir fails the test if a secret appears in a file under dir.
func noLeakInDir(t *testing.T, dir string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Error(err)
			return nil
		}
		noLeak(t, path, string(b))
		return nil
	})
}

// closedPort returns the base URL of a loopback port that refuses
// connections while t runs.
func closedPort(t *testing.T) string {
	t.Helper()
	return mocktest.ClosedPort(t)
}

// dropper returns the base URL of a mock that drops every call.
func dropper(t *testing.T) string {
	t.Helper()
	return mockserver.NewTestServer(t, mockserver.WithFault(mockserver.Fault{Drop: true})).URL
}

// silent returns the base URL of a server that never answers; a request
// ends when its client gives up.
func silent(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The server notices a client going away only once the body is read.
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// coordinates is a call of an operation every binding has.
func coordinates(key string) (string, [][2]string) {
	return asmx.OpReturnAtmSearchByCoordinates, [][2]string{{asmx.ParamKey, key}, {asmx.ParamPostalCode, ""},
		{asmx.ParamLatitude, "46.1"}, {asmx.ParamLongitude, "-60.2"}, {asmx.ParamRadius, "5"}}
}

// send makes op in binding b to base with a client that gives up after
// timeout; it returns the status (0 when no answer came) and the body.
func send(t *testing.T, base string, b asmx.Binding, op string, params [][2]string, timeout time.Duration) (int, string) {
	t.Helper()
	req, err := mocktest.NewRequest(base, asmx.DefaultNamespace, b.String(), op, params)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	resp, err := http.DefaultClient.Do(req.WithContext(ctx))
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestServeNeverLeaksKey: serve's stdout, stderr (text and JSON logs), journal
// and cassettes hold neither the key nor the admin token, while calls are
// dropped by a fault, abandoned by their client, forwarded to an upstream
// that is not there or drops them; the journal names what happened.
func TestServeNeverLeaksKey(t *testing.T) {
	t.Parallel()
	for _, format := range []string{"text", "json"} {
		t.Run("faults, "+format+" log", func(t *testing.T) {
			t.Parallel()
			env := map[string]string{"ATMKIT_ADMIN_TOKEN": leakToken}
			r := startCmd(t, env, "serve", "--addr", "127.0.0.1:0", "--key", leakKey, "--log-format", format,
				"--fault", "op=ReturnAtmSearchByCoordinates,drop", "--fault", "op=ReturnProvinces,delay=1m,times=1")
			op, params := coordinates(leakKey)
			for _, b := range asmx.Bindings {
				if status, body := send(t, r.base, b, op, params, 10*time.Second); status != 0 {
					t.Errorf("%s: got %d %.100q, want the connection dropped", b, status, body)
				}
			}
			key := [][2]string{{asmx.ParamKey, leakKey}}
			if status, _ := send(t, r.base, asmx.HTTPGet, asmx.OpReturnProvinces, key, 300*time.Millisecond); status != 0 {
				t.Errorf("delayed call: got %d, want the client to give up", status)
			}
			if status, body := send(t, r.base, asmx.SOAP12, asmx.OpReturnInstitutions, key, 10*time.Second); status != 200 {
				t.Errorf("ReturnInstitutions: got %d %.200q, want 200", status, body)
			}
			journal := waitJournal(t, r.base, 7)
			noLeak(t, "journal", journal.raw)
			dropped, canceled := 0, 0
			for _, e := range journal.Requests {
				switch {
				case e.Operation == op && e.Error == "Dropped" && e.Fault == "f1" && e.Status == 0:
					dropped++
				case e.Operation == asmx.OpReturnProvinces && e.Error == "Canceled" && e.Fault == "f2" && e.Status == 0:
					canceled++
				}
				if k := e.Params[asmx.ParamKey]; k != "Le****" {
					t.Errorf("journal: key got %q, want Le****", k)
				}
			}
			if dropped != len(asmx.Bindings) || canceled != 1 {
				t.Errorf("journal: got %d dropped (Dropped, f1) and %d abandoned (Canceled, f2), want %d and 1: %s",
					dropped, canceled, len(asmx.Bindings), journal.raw)
			}
			if code := r.stop(); code != 0 {
				t.Errorf("serve: exit %d, want 0", code)
			}
			noLeak(t, "stdout", r.stdout.String())
			noLeak(t, "stderr", r.stderr.String())
			if !strings.Contains(r.stderr.String(), "Dropped") {
				t.Errorf("log: got %.400q, want the dropped calls noted", r.stderr)
			}
		})
	}
	for name, up := range map[string]string{"closed port": closedPort(t), "drop": dropper(t)} {
		t.Run("upstream, "+name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			r := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0", "--key", leakKey, "--log-format", "json",
				"--replay", filepath.Join(dir, "up.yaml"), "--on-miss", "upstream", "--upstream", up)
			op, params := coordinates(leakKey)
			for _, b := range asmx.Bindings {
				status, body := send(t, r.base, b, op, params, 10*time.Second)
				if status != 500 || !strings.Contains(body, "upstream") {
					t.Errorf("%s: got %d %.300q, want a 500 naming the upstream", b, status, body)
				}
				noLeak(t, b.String()+" answer", body)
			}
			if code := r.stop(); code != 0 {
				t.Errorf("serve: exit %d, want 0", code)
			}
			noLeak(t, "stdout", r.stdout.String())
			noLeak(t, "stderr", r.stderr.String())
			noLeakInDir(t, dir)
		})
	}
}

// journalList is GET /__admin/requests.
type journalList struct {
	Requests []struct {
		Operation string            `json:"operation"`
		Params    map[string]string `json:"params"`
		Status    int               `json:"status"`
		Error     string            `json:"error"`
		Fault     string            `json:"fault"`
	} `json:"requests"`
	raw string
}

// waitJournal reads the journal until it holds n entries (an abandoned call
// is journaled when its client goes), for up to 10s.
func waitJournal(t *testing.T, base string, n int) journalList {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		code, body := get(t, base+"/__admin/requests", leakToken)
		var j journalList
		if code != 200 || json.Unmarshal([]byte(body), &j) != nil {
			t.Fatalf("journal: got %d %.200q", code, body)
		}
		j.raw = body
		if len(j.Requests) >= n || time.Now().After(deadline) {
			return j
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestRecordNeverLeaksKey: when the upstream is not there, drops the calls
// or never answers, the recording proxy's answers, stdout and stderr hold
// no key, and no cassette is left behind.
func TestRecordNeverLeaksKey(t *testing.T) {
	t.Parallel()
	for name, up := range map[string]string{"closed port": closedPort(t), "drop": dropper(t), "timeout": silent(t)} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			cassette := filepath.Join(dir, "atm.yaml")
			r := startCmd(t, nil, "record", "--upstream", up, "--cassette", cassette, "--addr", "127.0.0.1:0", "--log-format", "json")
			op, params := coordinates(leakKey)
			// The client gives up on a silent upstream sooner: any time will do.
			wait := 500 * time.Millisecond
			if name == "timeout" {
				wait = 150 * time.Millisecond
			}
			for _, b := range asmx.Bindings {
				status, body := send(t, r.base, b, op, params, wait)
				if status != 0 && status != http.StatusBadGateway {
					t.Errorf("%s: got %d, want 502 or no answer", b, status)
				}
				noLeak(t, b.String()+" answer", body)
			}
			if code := r.stop(); code != exitFailure {
				t.Errorf("record: exit %d, want %d (nothing recorded)", code, exitFailure)
			}
			noLeak(t, "stdout", r.stdout.String())
			noLeak(t, "stderr", r.stderr.String())
			if !strings.Contains(r.stderr.String(), "nothing recorded") {
				t.Errorf("stderr: got %q, want it to say nothing was recorded", r.stderr)
			}
			if _, err := os.Stat(cassette); !os.IsNotExist(err) {
				t.Errorf("cassette: got %v, want none written", err)
			}
		})
	}
}

// TestBenchNeverLeaksKey: bench --target on a closed port or a target that
// drops the call fails without printing the key.
func TestBenchNeverLeaksKey(t *testing.T) {
	t.Parallel()
	for name, target := range map[string]string{"closed port": closedPort(t), "drop": dropper(t)} {
		for _, b := range []string{"get", "soap11", "json"} {
			t.Run(name+" "+b, func(t *testing.T) {
				t.Parallel()
				code, stdout, stderr := runAtmkit(nil, "bench", "--target", target, "--key", leakKey, "--binding", b, "-d", "100ms", "--warmup", "0s")
				if code == exitOK {
					t.Errorf("bench: exit 0, want a failure")
				}
				noLeak(t, "stdout", stdout)
				noLeak(t, "stderr", stderr)
			})
		}
	}
}

// TestCassetteCommandsNeverLeakKey: list and scrub --check of a cassette
// made elsewhere, its key still in it, do not print the key.
func TestCassetteCommandsNeverLeakKey(t *testing.T) {
	t.Parallel()
	golden, err := os.ReadFile(filepath.Join("..", "..", "cassettes", "testdata", "golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "unscrubbed.yaml")
	if err := os.WriteFile(path, bytes.ReplaceAll(golden, []byte("REDACTED"), []byte(leakKey)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"cassette", "list", path}, {"cassette", "scrub", "--check", path}} {
		code, stdout, stderr := runAtmkit(nil, args...)
		if args[1] == "list" && code != exitOK || args[1] == "scrub" && code != exitFailure {
			t.Errorf("%s: exit %d: %s", args, code, stderr)
		}
		noLeak(t, strings.Join(args[:2], " ")+" stdout", stdout)
		noLeak(t, strings.Join(args[:2], " ")+" stderr", stderr)
	}
}

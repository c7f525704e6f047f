package cassettes_test

import (
	"bufio"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
)

// TestKillDuringRecording runs a recorder as a subprocess, sends SIGKILL
// while requests are in flight, and loads what is left: always a complete,
// valid, scrubbed cassette.
func TestKillDuringRecording(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a subprocess")
	}
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "killed.yaml")
	answered := recordAndKill(t, up.URL, path, up.Client())

	list, err := cassettes.ReadFile(path)
	if err != nil {
		t.Fatalf("after SIGKILL (%d answers) the cassette does not load: %v", answered, err)
	}
	if len(list) == 0 || int64(len(list)) > answered+8 {
		t.Fatalf("cassette holds %d interactions after %d answers", len(list), answered)
	}
	for j, i := range list {
		if i.ID != j || i.Response.Code != 200 {
			t.Fatalf("interaction %d: id %d, status %d", j, i.ID, i.Response.Code)
		}
	}
	assertNoKey(t, path)
	t.Logf("killed after %d answers; the cassette holds %d complete interactions", answered, len(list))

	// The killed recorder's lock is no lock: recording goes on, and what a
	// save cut short left beside the cassette is removed.
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatalf("recording again after SIGKILL: %v", err)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*"))
	if len(left) != 0 {
		t.Errorf("left beside the cassette after recording again: %q", left)
	}
}

// TestKillDuringRecordingThroughALink: a cassette named by a symbolic link
// into another directory, its recorder killed mid-recording, leaves
// nothing behind in either directory once it is recorded into again: the
// spool of what was saved lies beside the file the saves replace, where
// the next holder of the cassette's lock looks for it.
func TestKillDuringRecordingThroughALink(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("runs a subprocess")
	}
	up, _ := standIn(t)
	linkDir, fileDir := t.TempDir(), t.TempDir()
	file := filepath.Join(fileDir, "real.yaml")
	link := filepath.Join(linkDir, "killed.yaml")
	if err := os.Symlink(file, link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	answered := recordAndKill(t, up.URL, link, up.Client())
	if list, err := cassettes.ReadFile(file); err != nil || len(list) == 0 {
		t.Fatalf("after SIGKILL (%d answers): %d interactions, %v", answered, len(list), err)
	}
	rec, err := cassettes.New(link, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatalf("recording again after SIGKILL: %v", err)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{linkDir, fileDir} {
		if left, _ := filepath.Glob(filepath.Join(dir, ".*")); len(left) != 0 {
			t.Errorf("left after recording again: %q", left)
		}
	}
}

// recordAndKill runs a recorder of upstream into the cassette at path as
// a subprocess, sends it calls from 8 clients until 200 are answered and
// the cassette was saved once (or 60 s pass), sends SIGKILL while calls are in flight, and returns how
// many were answered.
func recordAndKill(t *testing.T, upstream, path string, client *http.Client) int64 {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CASSETTES_TEST_RECORD="+upstream+" "+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("recorder did not start: %v", err)
	}
	base := line[:len(line)-1]

	var answered atomic.Int64
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				q := query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", strconv.Itoa(w*10000 + n)}}}
				resp, err := client.Do(request(t, base, asmx.XMLBindings[n%4], q, testKey, false))
				if err != nil {
					return // the recorder is gone
				}
				resp.Body.Close()
				answered.Add(1)
			}
		}(w)
	}
	// 200 answers and a first save (the file there): in a loaded CI run
	// the 10 s this waited once passed before any save, and the test
	// found no cassette to check.
	saved := func() bool { _, err := os.Stat(path); return err == nil }
	deadline := time.Now().Add(60 * time.Second)
	for (answered.Load() < 200 || !saved()) && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Kill); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	close(stop)
	wg.Wait()
	return answered.Load()
}

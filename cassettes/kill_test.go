package cassettes_test

import (
	"bufio"
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
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CASSETTES_TEST_RECORD="+up.URL+" "+path)
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
			client := up.Client()
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
	deadline := time.Now().Add(10 * time.Second)
	for answered.Load() < 200 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Kill); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	close(stop)
	wg.Wait()

	list, err := cassettes.ReadFile(path)
	if err != nil {
		t.Fatalf("after SIGKILL the cassette does not load: %v", err)
	}
	if len(list) == 0 || int64(len(list)) > answered.Load()+8 {
		t.Fatalf("cassette holds %d interactions after %d answers", len(list), answered.Load())
	}
	for j, i := range list {
		if i.ID != j || i.Response.Code != 200 {
			t.Fatalf("interaction %d: id %d, status %d", j, i.ID, i.Response.Code)
		}
	}
	assertNoKey(t, path)
	t.Logf("killed after %d answers; the cassette holds %d complete interactions", answered.Load(), len(list))

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

package mockserver

import (
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// A journal of one entry drops each call as the next is journaled, and
// gives the dropped call back for reuse (asmx.Call.Recycle). The request
// log line of a call is written after its call is journaled: it must name
// the call's own operation, though concurrent calls drop and reuse it
// meanwhile (go test -race reports the reuse as a race too).
func TestJournalRecycleLogLine(t *testing.T) {
	t.Parallel()
	var logs mocktest.SyncBuffer
	ts := NewTestServer(t, WithDataset(smallDataset()), WithJournalSize(1),
		WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	ops := []string{asmx.OpReturnProvinces, asmx.OpReturnInstitutions}
	const workers, each = 8, 40
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			op := ops[w%len(ops)]
			for range each {
				resp, err := http.Get(ts.URL + asmx.ServicePath + "/" + op + "?strAtmServiceKey=key-" + op)
				if err != nil {
					t.Error(err)
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				_ = resp.Body.Close()
			}
		})
	}
	wg.Wait()
	lines := 0
	for line := range strings.Lines(logs.String()) {
		if !strings.Contains(line, "msg=request") {
			continue
		}
		lines++
		fields := strings.Fields(line)
		for _, op := range ops {
			if slices.Contains(fields, "path="+asmx.ServicePath+"/"+op) && !slices.Contains(fields, "operation="+op) {
				t.Errorf("log line of a call of %s names another operation: %s", op, line)
			}
		}
	}
	if lines != workers*each {
		t.Errorf("request log lines: got %d, want %d:\n%.2000s", lines, workers*each, logs.String())
	}
}

// The admin API's summaries of calls that did not decode mask the keys
// their queries name wherever the path repeats them, though several
// readers mask at once: each read added those keys to the configured
// ones in place, in the room the configured keys' slice had left (two
// WithKeys options leave some), so concurrent reads overwrote each
// other's (go test -race reports the race; a path could show its key).
func TestJournalSummaryMasksUnderConcurrentReads(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("configured-one", "configured-two"), WithKeys("configured-three"))
	secrets := []string{"Alpha-Secret-1", "Bravo-Secret-2", "Charlie-Secret-3", "Delta-Secret-4"}
	for _, k := range secrets {
		// No such operation: the call does not decode, and the key,
		// repeated in the path, is masked as a value of the query.
		status, _, _ := mocktest.Get(t, ts.URL+asmx.ServicePath+"/"+k+"?strAtmServiceKey="+k)
		if status != http.StatusInternalServerError {
			t.Fatalf("GET of operation %s: status %d, want 500", k, status)
		}
	}
	const readers, each = 4, 50
	var wg sync.WaitGroup
	for range readers {
		wg.Go(func() {
			for range each {
				resp, err := http.Get(ts.URL + "/__admin/requests?summary=true")
				if err != nil {
					t.Error(err)
					return
				}
				b, err := io.ReadAll(resp.Body)
				_ = resp.Body.Close()
				if err != nil {
					t.Error(err)
					return
				}
				for _, k := range secrets {
					if strings.Contains(string(b), k) {
						t.Errorf("a summary shows the key %s: %.500s", k, b)
						return
					}
				}
			}
		})
	}
	wg.Wait()
}

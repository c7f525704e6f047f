package bench

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/loadgen"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// turns records which of several servers answers, in turns: a server is
// named when a connection's first request reaches it (a request cut by a
// run's end may reach its server after the next run began) and another
// server had the last turn.
type turns struct {
	mu    sync.Mutex
	order []string
	seen  map[string]bool
}

// server starts a server called name that answers body, calling each
// request's number (from 1) with on, when on is not nil.
func (tr *turns) server(t *testing.T, name, body string, on func(n int)) string {
	t.Helper()
	n := 0
	s, err := startServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tr.mu.Lock()
		if tr.seen == nil {
			tr.seen = map[string]bool{}
		}
		if !tr.seen[r.RemoteAddr] && (len(tr.order) == 0 || tr.order[len(tr.order)-1] != name) {
			tr.order = append(tr.order, name)
		}
		tr.seen[r.RemoteAddr] = true
		n++
		k := n
		tr.mu.Unlock()
		if on != nil {
			on(k)
		}
		_, _ = w.Write([]byte(body))
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s.URL
}

func (tr *turns) get() []string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return slices.Clone(tr.order)
}

// TestRoundsAlternate: measure gives every server as many rounds as the
// others, each of the same measured length, and reverses their order each
// round (A B, B A, A B, B A), so no server always goes first; an odd
// number of rounds ends with a round of two halves, A B then B A, so that
// no server leads once more than the other (3 rounds: A B, B A, A B B A;
// 1 round: A B B A). The warm-up's requests are in no round's result.
func TestRoundsAlternate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rounds int
		turns  []string
	}{
		{4, []string{"a", "b", "a", "b", "a"}}, // a b | b a | a b | b a
		{3, []string{"a", "b", "a", "b", "a"}}, // a b | b a | a b b a
		{1, []string{"a", "b", "a"}},           // a b b a
	} {
		t.Run(fmt.Sprintf("%d rounds", tc.rounds), func(t *testing.T) {
			t.Parallel()
			var tr turns
			a := &target{name: "a", url: tr.server(t, "a", "ok", nil)}
			b := &target{name: "b", url: tr.server(t, "b", "ok", nil)}
			cfg := Config{Connections: 1, Rounds: tc.rounds, Duration: time.Duration(tc.rounds) * mocktest.LoadWindow(100*time.Millisecond)}
			if err := measure(context.Background(), cfg, loadgen.Request{URL: "/"}, []byte("ok"), []*target{a, b}); err != nil {
				t.Fatal(err)
			}
			if len(a.runs) != tc.rounds || len(b.runs) != tc.rounds {
				t.Fatalf("got %d and %d rounds, want %d each", len(a.runs), len(b.runs), tc.rounds)
			}
			per := cfg.Duration / time.Duration(tc.rounds)
			for i := range a.runs {
				if a.runs[i].Elapsed != per || b.runs[i].Elapsed != per {
					t.Errorf("round %d: measured %v and %v, want %v each", i+1, a.runs[i].Elapsed, b.runs[i].Elapsed, per)
				}
			}
			if got := tr.get(); !slices.Equal(got, tc.turns) {
				t.Errorf("got the servers answering in turns %v, want %v", got, tc.turns)
			}
		})
	}
}

// TestInterruptedRoundIsNoRound: a run interrupted in a round's second
// server reports what both measured in it, but the round, cut short, is
// none of the rounds whose ratios the report spreads (roundRatios): the
// first server's whole run beside the second's first milliseconds made a
// round's ratio of them.
func TestInterruptedRoundIsNoRound(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var tr turns
	a := &target{name: "a", url: tr.server(t, "a", "ok", nil)}
	b := &target{name: "b", url: tr.server(t, "b", "ok", func(n int) {
		if n == 3 { // after the check and one request measured
			cancel()
		}
	})}
	cfg := Config{Connections: 1, Rounds: 2, Duration: 2 * mocktest.LoadWindow(100*time.Millisecond)}
	if err := measure(ctx, cfg, loadgen.Request{URL: "/"}, []byte("ok"), []*target{a, b}); !errors.Is(err, ErrInterrupted) {
		t.Fatalf("measure: %v, want ErrInterrupted", err)
	}
	r := &Report{Ratios: map[string]float64{"a/b": 1}}
	r.addRoundRatios([]*target{a, b})
	if rs, ok := r.RoundRatios["a/b"]; ok {
		t.Errorf("round ratios %v, want none: no round was measured whole", rs)
	}
	if ra, rb := a.total(), b.total(); ra.Requests == 0 || rb.Requests == 0 {
		t.Errorf("totals of %d and %d requests, want what each measured until the interruption", ra.Requests, rb.Requests)
	}
}

// TestRoundsCheckTheAnswer: each round checks the bytes of a server's
// answer, not only its length: a server answering as many bytes, but
// others, has an error in every round, reported (Report.Err) with where
// its answer differs; the server answering the bytes expected has none.
func TestRoundsCheckTheAnswer(t *testing.T) {
	t.Parallel()
	var tr turns
	a := &target{name: "a", url: tr.server(t, "a", "ok", nil)}
	b := &target{name: "b", url: tr.server(t, "b", "ko", nil)}
	cfg := Config{Connections: 1, Rounds: 2, Duration: 2 * mocktest.LoadWindow(100*time.Millisecond)}
	if err := measure(context.Background(), cfg, loadgen.Request{URL: "/"}, []byte("ok"), []*target{a, b}); err != nil {
		t.Fatal(err)
	}
	for i := range a.runs {
		if a.runs[i].Errors != 0 || b.runs[i].Errors != 1 {
			t.Errorf("round %d: %d and %d errors, want 0 and 1", i+1, a.runs[i].Errors, b.runs[i].Errors)
		}
	}
	r := &Report{}
	for _, x := range []*target{a, b} {
		r.Results = append(r.Results, resultOf(x, loadgen.Combine(x.runs...)))
	}
	if err := r.Err(); err == nil || !strings.Contains(err.Error(), "bench: b: 2 errors, the first: ") || !strings.Contains(err.Error(), "at byte 0") {
		t.Errorf("report's error: %v, want b's 2 errors, saying where its answer differs", err)
	}
}

// TestInterruptedReportJudgesNothing: the report of an interrupted run
// prints its figures (each ratio, its rounds, the peak RSS) against their
// targets but no verdict: its ratio is of a round cut short, so "meets"
// or "BELOW" (as a whole run's report says them) would be a verdict on
// part of a run. Before, the report of a run stopped by Ctrl-C said
// "meets" or "BELOW" as if it were whole.
func TestInterruptedReportJudgesNothing(t *testing.T) {
	t.Parallel()
	for _, interrupted := range []bool{false, true} {
		// Interrupted in the third round: the mock measured part of it, the ceiling none.
		r := ceilingReport(&target{name: "mock", runs: fixedRuns(900, 800, 300)}, &target{name: "ceiling", runs: fixedRuns(1000, 1000)})
		r.Interrupted, r.PeakRSSTargets, r.Results[0].PeakRSSMB = interrupted, map[string]float64{"mock": 1000}, 1200
		var text strings.Builder
		r.Print(&text)
		out := text.String()
		want := []string{"mock/ceiling:      0.666   (target >= 0.9: BELOW)\n", "peak RSS mock:      1200 MB (target < 1000 MB: ABOVE)\n"}
		if interrupted {
			want = []string{
				"INTERRUPTED: the figures are of the rounds measured until then; no target is judged\n",
				"mock/ceiling:      0.666   (target >= 0.9: not judged, interrupted)\n",
				"by round: 0.800 to 0.900, median 0.850 of 2\n",
				"peak RSS mock:      1200 MB (target < 1000 MB: not judged, interrupted)\n",
			}
			for _, verdict := range []string{"meets", "BELOW", "ABOVE"} {
				if strings.Contains(out, verdict) {
					t.Errorf("interrupted: the report says %q:\n%s", verdict, out)
				}
			}
		}
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("interrupted %v: the report lacks %q:\n%s", interrupted, w, out)
			}
		}
	}
}

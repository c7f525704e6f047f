package bench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/loadgen"
)

// measure warms up every target, then measures them in cfg.Rounds
// rounds, appending each round's result to the target's runs. The servers
// go in their order in one round and in the reverse order in the next
// (A B, B A), so that each pair of rounds gives every server the same mean
// place in time; an odd last round is two halves, one in each order (A B
// B A), so that no server leads once more than another. Every run checks
// the bytes of its first answer against want (each target's own body, when
// it has one) before its clock starts, the others for their length alone.
// When ctx ends first it returns ErrInterrupted, the rounds so far kept and
// the round it cut short in each target's cut; while warming up,
// ErrNotMeasured.
func measure(ctx context.Context, cfg Config, req loadgen.Request, want []byte, targets []*target) error {
	options := func(t *target) loadgen.Options {
		o := loadgen.Options{Connections: cfg.Connections, ExpectLength: int64(len(want)), ExpectBody: want}
		if t.body != nil {
			o.ExpectLength, o.ExpectBody = int64(len(t.body)), t.body
		}
		return o
	}
	for _, t := range targets {
		if t.warmup <= 0 {
			continue
		}
		o := options(t)
		o.Duration = t.warmup
		if _, err := loadgen.Run(ctx, at(req, t.url), o); err != nil {
			return gone(cfg, t, fmt.Errorf("bench: warm up %s: %w", t.name, err), "while warming up")
		}
		if ctx.Err() != nil {
			return ErrNotMeasured // warming up: no round has begun, a report would be all zeros
		}
	}
	if cfg.CPUProfile != "" {
		stop, err := startCPUProfile(cfg.CPUProfile)
		if err != nil {
			return fmt.Errorf("bench: %w", err)
		}
		defer stop()
	}
	per := cfg.Duration / time.Duration(cfg.Rounds)
	for round := range cfg.Rounds {
		got := make(map[*target][]loadgen.Result, len(targets))
		for _, l := range roundLegs(targets, round, cfg.Rounds, per) {
			o := options(l.t)
			o.Duration, o.Warmup = l.d, min(roundWarmup, l.t.warmup)
			res, err := loadgen.Run(ctx, at(req, l.t.url), o)
			if err != nil {
				return gone(cfg, l.t, fmt.Errorf("bench: %s: %w", l.t.name, err), fmt.Sprintf("in round %d of %d", round+1, cfg.Rounds))
			}
			got[l.t] = append(got[l.t], res)
			if ctx.Err() != nil { // the round is cut short: its figures count in the totals, not as a round
				for _, t := range targets {
					t.cut = got[t]
				}
				return ErrInterrupted
			}
		}
		for _, t := range targets {
			rs := got[t]
			if len(rs) > 1 {
				rs = []loadgen.Result{loadgen.Combine(rs...)}
			}
			t.runs = append(t.runs, rs...)
		}
	}
	return nil
}

// leg is one server's run within a round: t measured for d.
type leg struct {
	t *target
	d time.Duration
}

// roundLegs are the runs of round (from 0) of rounds, each per long:
// targets in their order in even rounds, reversed in odd ones; an odd
// count's last round is both, each for half of per.
func roundLegs(targets []*target, round, rounds int, per time.Duration) []leg {
	forward, backward := make([]leg, len(targets)), make([]leg, len(targets))
	for i, t := range targets {
		forward[i], backward[len(targets)-1-i] = leg{t, per}, leg{t, per}
	}
	switch {
	case rounds%2 == 1 && round == rounds-1:
		half := per / 2
		for i := range forward {
			forward[i].d, backward[i].d = half, per-half
		}
		return append(forward, backward...)
	case round%2 == 1:
		return backward
	}
	return forward
}

// total is everything t measured: its rounds, and the part of a round an
// interruption cut short.
func (t *target) total() loadgen.Result {
	return loadgen.Combine(append(slices.Clone(t.runs), t.cut...)...)
}

// gone is the error of a server t that could not be loaded (loadgen.Run
// connects before it measures): for a --target that answered bench's
// first call, it stopped answering (when says when) and could not be
// measured, a TargetError (exit 2); for the others, err.
func gone(cfg Config, t *target, err error, when string) error {
	if cfg.Target == "" || t.name != "target" {
		return err
	}
	return &TargetError{Err: fmt.Errorf("%w; it stopped answering %s, so nothing is reported", err, when)}
}

// roundWarmup is the longest unmeasured start of each round, which opens
// the round's connections; a server's warm-up shorter than that (0 with
// --warmup 0) is its round's start too.
const roundWarmup = 100 * time.Millisecond

// startCPUProfile writes a CPU profile to file until stop is called.
func startCPUProfile(file string) (stop func(), err error) {
	// The directory may not exist yet: the command checked it can be made.
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	out, err := os.Create(file)
	if err != nil {
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	if err := pprof.StartCPUProfile(out); err != nil {
		out.Close()
		return nil, fmt.Errorf("cpu profile: %w", err)
	}
	return func() {
		pprof.StopCPUProfile()
		_ = out.Close()
	}, nil
}

package mockserver

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
)

// The draws are tested through their seeded sources, never through the
// clock: counts, medians and spreads of many draws, and the same draws
// again from the same seed.

// TestFaultSelectsByProbability: of many calls, about the probability's
// share gets the fault; the same seed picks the same calls, another seed
// other calls; probability 1 (or 0, the default) picks every call.
func TestFaultSelectsByProbability(t *testing.T) {
	t.Parallel()
	const calls = 20000
	picks := func(f Fault) []uint64 {
		var out []uint64
		for k := uint64(1); k <= calls; k++ {
			if f.selects(k) {
				out = append(out, k)
			}
		}
		return out
	}
	for _, p := range []float64{0.01, 0.3, 0.5, 0.9} {
		a := picks(Fault{Probability: p, Seed: 42})
		// Three standard deviations of a binomial count, and a little more.
		want, slack := p*calls, 3*math.Sqrt(calls*p*(1-p))+1
		if got := float64(len(a)); math.Abs(got-want) > slack {
			t.Errorf("probability %v: %v of %d calls picked, want %v ± %.0f", p, got, calls, want, slack)
		}
		if b := picks(Fault{Probability: p, Seed: 42}); !slices.Equal(a, b) {
			t.Errorf("probability %v: seed 42 picked other calls the second time", p)
		}
		if c := picks(Fault{Probability: p, Seed: 43}); slices.Equal(a, c) {
			t.Errorf("probability %v: seeds 42 and 43 picked the same calls", p)
		}
	}
	if got := picks(Fault{Probability: 0.5}); !slices.Equal(got, picks(Fault{Probability: 0.5, Seed: 1})) {
		t.Error("seed 0 picked other calls than seed 1, its meaning")
	}
	for _, p := range []float64{0, 1} {
		if got := len(picks(Fault{Probability: p})); got != calls {
			t.Errorf("probability %v: %d of %d calls picked, want all", p, got, calls)
		}
	}
	// A run of calls in a row the sampler keeps or passes over: none
	// much longer than chance allows (a sign of a poor mix of seed and k).
	a := picks(Fault{Probability: 0.5, Seed: 7})
	longest := 0
	for i := 1; i < len(a); i++ {
		longest = max(longest, int(a[i]-a[i-1]))
	}
	if longest > 30 {
		t.Errorf("probability 0.5: %d calls in a row passed over, want fewer than 30", longest)
	}
}

// TestFaultSkipThenProbability: the calls a fault skips are counted (k
// goes on), and past them the probability decides as it would anyway.
func TestFaultSkipThenProbability(t *testing.T) {
	t.Parallel()
	with := Fault{Probability: 0.5, Seed: 9, Skip: 10}
	without := Fault{Probability: 0.5, Seed: 9}
	for k := uint64(1); k <= 200; k++ {
		want := k > 10 && without.selects(k)
		if got := with.selects(k); got != want {
			t.Fatalf("call %d: selects %v, want %v", k, got, want)
		}
	}
}

// drawDelays returns the delays a fault draws for calls 1 to n.
func drawDelays(f Fault, n int) []time.Duration {
	out := make([]time.Duration, n)
	for i := range out {
		out[i] = f.delay(uint64(i + 1))
	}
	return out
}

// TestDelayLogNormal: log-normal draws have the median asked for, and
// the logarithm's spread is sigma: about 68% of draws lie within a factor
// exp(sigma) of the median. The same seed draws the same delays.
func TestDelayLogNormal(t *testing.T) {
	t.Parallel()
	const n = 20001
	for _, tt := range []struct {
		median time.Duration
		sigma  float64
	}{{80 * time.Millisecond, 0.5}, {time.Second, 0.1}, {5 * time.Millisecond, 1.5}} {
		f := Fault{Seed: 3, DelayDistribution: &DelayDistribution{Type: distLogNormal, Median: tt.median, Sigma: tt.sigma}}
		ds := drawDelays(f, n)
		if again := drawDelays(f, n); !slices.Equal(ds, again) {
			t.Errorf("%v: the same seed drew other delays", tt)
		}
		sorted := slices.Clone(ds)
		slices.Sort(sorted)
		if got := sorted[n/2]; math.Abs(float64(got)/float64(tt.median)-1) > 0.03*math.Max(1, tt.sigma/0.5) {
			t.Errorf("%v: median %s, want %s", tt, got, tt.median)
		}
		var sum, sumSq float64
		within := 0
		lo, hi := float64(tt.median)*math.Exp(-tt.sigma), float64(tt.median)*math.Exp(tt.sigma)
		for _, d := range ds {
			l := math.Log(float64(d) / float64(tt.median))
			sum += l
			sumSq += l * l
			if float64(d) >= lo && float64(d) <= hi {
				within++
			}
		}
		mean := sum / n
		sd := math.Sqrt(sumSq/n - mean*mean)
		if math.Abs(sd/tt.sigma-1) > 0.03 {
			t.Errorf("%v: the logarithm's standard deviation is %.4f, want %v", tt, sd, tt.sigma)
		}
		if share := float64(within) / n; math.Abs(share-0.6827) > 0.015 {
			t.Errorf("%v: %.3f of draws within a factor exp(sigma) of the median, want 0.683", tt, share)
		}
	}
}

// TestDelayUniform: uniform draws cover [lower, upper] evenly, both ends
// within reach; Delay adds to them; jitter draws lie in [0, jitter].
func TestDelayUniform(t *testing.T) {
	t.Parallel()
	const n = 20000
	lower, upper := 50*time.Millisecond, 150*time.Millisecond
	f := Fault{Seed: 5, Delay: time.Second, DelayDistribution: &DelayDistribution{Type: distUniform, Lower: lower, Upper: upper}}
	ds := drawDelays(f, n)
	var sum float64
	quarters := [4]int{}
	for _, d := range ds {
		d -= time.Second
		if d < lower || d > upper {
			t.Fatalf("draw %s outside [%s, %s]", d, lower, upper)
		}
		sum += float64(d)
		quarters[min(3, int(4*(d-lower)/(upper-lower)))]++
	}
	if mean := time.Duration(sum / n); mean < 98*time.Millisecond || mean > 102*time.Millisecond {
		t.Errorf("mean %s, want 100ms", mean)
	}
	for i, q := range quarters {
		if math.Abs(float64(q)-n/4) > 3*math.Sqrt(n*0.25*0.75)+1 {
			t.Errorf("quarter %d holds %d draws of %d, want about %d", i+1, q, n, n/4)
		}
	}
	if lo, hi := slices.Min(ds)-time.Second, slices.Max(ds)-time.Second; lo > lower+time.Millisecond || hi < upper-time.Millisecond {
		t.Errorf("draws span [%s, %s], want nearly [%s, %s]", lo, hi, lower, upper)
	}
	if !slices.Equal(ds, drawDelays(f, n)) {
		t.Error("the same seed drew other delays")
	}
	if equal := drawDelays(Fault{DelayDistribution: &DelayDistribution{Type: distUniform, Lower: lower, Upper: lower}}, 10); slices.Min(equal) != lower || slices.Max(equal) != lower {
		t.Errorf("lower = upper: got %v, want %s each time", equal, lower)
	}
	jitter := drawDelays(Fault{Seed: 2, Delay: time.Millisecond, Jitter: 10 * time.Millisecond}, n)
	if lo, hi := slices.Min(jitter), slices.Max(jitter); lo < time.Millisecond || hi > 11*time.Millisecond || hi-lo < 9*time.Millisecond {
		t.Errorf("delay 1ms, jitter 10ms: draws span [%s, %s], want nearly [1ms, 11ms]", lo, hi)
	}
}

// TestDelayDribbleFitsWriteTimeout: a log-normal draw whose delay and
// dribble would outlast the write timeout is cut so they end within it.
func TestDelayDribbleFitsWriteTimeout(t *testing.T) {
	t.Parallel()
	f := Fault{Seed: 1, Dribble: &Dribble{Chunks: 2, Duration: time.Minute},
		DelayDistribution: &DelayDistribution{Type: distLogNormal, Median: 30 * time.Second, Sigma: 3}}
	if _, err := f.Check(); err != nil {
		t.Fatal(err)
	}
	longest := slices.Max(drawDelays(f, 1000))
	if longest != WriteTimeout-time.Minute {
		t.Errorf("longest delay %s, want it cut to %s", longest, WriteTimeout-time.Minute)
	}
}

// TestGarbageBytes: garbage is the same for the same seed and call, other
// for another call, and never starts as a status line.
func TestGarbageBytes(t *testing.T) {
	t.Parallel()
	f := Fault{Garbage: true, Seed: 11}
	a, b := f.garbage(1), f.garbage(1)
	if string(a) != string(b) || len(a) != garbageLength {
		t.Errorf("call 1 twice: %d and %d bytes, equal %v; want %d equal bytes", len(a), len(b), string(a) == string(b), garbageLength)
	}
	if string(a) == string(f.garbage(2)) {
		t.Error("calls 1 and 2 got the same garbage")
	}
	for k := uint64(1); k < 2000; k++ {
		if f.garbage(k)[0] == 'H' {
			t.Fatalf("call %d: garbage starts with H", k)
		}
	}
}

// TestFaultSetCounting: every fault counts every call it matches; the
// oldest that selects a call applies; Times counts only the calls a fault
// got; skipped calls fall through to younger faults.
func TestFaultSetCounting(t *testing.T) {
	t.Parallel()
	fs := &faultSet{}
	mustAdd := func(f Fault) string {
		t.Helper()
		got, err := fs.add(f)
		if err != nil {
			t.Fatal(err)
		}
		return got.ID
	}
	prov := asmx.OpReturnProvinces
	window := mustAdd(Fault{Operation: prov, Status: 503, Skip: 2, Times: 1}) // the third ReturnProvinces call only
	always := mustAdd(Fault{Status: 502, Skip: 1, Times: 3})                  // past the first call of any operation
	steps := []struct {
		op   string
		want string
		k    uint64
	}{
		{prov, "", 0},                          // window skips 1; always skips 1
		{prov, always, 2},                      // window skips 2; always's 2nd call
		{prov, window, 3},                      // window's 3rd: it applies, and goes
		{asmx.OpReturnInstitutions, always, 4}, // always counted the call window took
		{prov, always, 5},                      // always's Times 3 ends here
		{prov, "", 0},
	}
	for i, s := range steps {
		f, k, ok := fs.take(s.op, asmx.SOAP11)
		if got := map[bool]string{true: f.ID}[ok]; got != s.want || k != s.k {
			t.Errorf("call %d: fault %q (call %d of it), want %q (call %d)", i+1, got, k, s.want, s.k)
		}
	}
	if n := len(fs.list()); n != 0 {
		t.Errorf("%d faults left, want none", n)
	}
	wsdl := mustAdd(Fault{Operation: "wsdl", Status: 503})
	mustAdd(Fault{Status: 500})
	if f, _, ok := fs.take(opWSDL, 0); !ok || f.ID != wsdl {
		t.Errorf("a WSDL fetch: got %q, want the WSDL fault %q", f.ID, wsdl)
	}
	if f, _, _ := fs.take(prov, asmx.HTTPGet); f.ID == wsdl {
		t.Error("a call got the WSDL fault")
	}
	fs.clear()
	mustAdd(Fault{Status: 500})
	if _, _, ok := fs.take(opWSDL, 0); ok {
		t.Error("a WSDL fetch got a fault of every operation")
	}
}

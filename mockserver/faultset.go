package mockserver

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/atmkit/atmkit/asmx"
)

// faultSet holds the active faults in the order they were added.
type faultSet struct {
	mu     sync.Mutex // guards faults and nextID
	faults []*activeFault
	nextID int

	// active mirrors len(faults), so the common case of no faults costs
	// no lock; it is written with mu held.
	active atomic.Int64
}

// activeFault is a fault as the set holds it: the fault, its Times
// counting down, and how many calls it has counted.
type activeFault struct {
	Fault
	seen uint64 // the calls matching its operation and binding so far
}

// maxFaults is how many faults a mock holds at once: AddFault, the admin
// API and WithFault refuse one more. Every call is matched against each
// fault, and each may hold a body of up to 64 KB: a loop adding faults
// would otherwise grow the mock's memory, and its work per call, without
// bound.
const maxFaults = 10000

// add checks f and activates it under its ID, which must pass
// checkFaultID and be no active fault's (errFaultIDTaken), or, with none,
// under the next of f1, f2, … that no active fault has.
func (fs *faultSet) add(f Fault) (Fault, error) { return fs.addReserving(f, nil) }

// addReserving is add, naming a fault without an ID with none of the ids
// in reserved either: those of the faults given at start after it.
func (fs *faultSet) addReserving(f Fault, reserved map[string]bool) (Fault, error) {
	id := f.ID
	if id != "" {
		if err := checkFaultID(id); err != nil {
			return Fault{}, err
		}
	}
	f = cloneFault(&f)
	if err := f.normalize(); err != nil {
		return Fault{}, err
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if len(fs.faults) >= maxFaults {
		return Fault{}, fmt.Errorf("the mock holds %d faults, the most it takes: remove one first", maxFaults)
	}
	taken := func(id string) bool {
		return slices.ContainsFunc(fs.faults, func(a *activeFault) bool { return a.ID == id })
	}
	switch {
	case id != "" && taken(id):
		return Fault{}, fmt.Errorf("fault id %q: %w by an active fault (remove it first, or give another)", id, errFaultIDTaken)
	case id == "":
		for id == "" || taken(id) || reserved[id] {
			fs.nextID++
			id = "f" + strconv.Itoa(fs.nextID)
		}
	}
	f.ID = id
	fs.faults = append(fs.faults, &activeFault{Fault: f})
	fs.active.Store(int64(len(fs.faults)))
	return cloneFault(&f), nil
}

// ErrFaultIDHoldsKey is the refusal of a fault whose id holds one of the
// server's service keys (WithKeys), by New (a WithFault fault: a wrong
// setting), AddFault and the admin API: the journal, the held calls and
// the admin API show a fault's id as it is.
var ErrFaultIDHoldsKey = errors.New("fault id: it holds a service key (--key), which the journal and the admin API would show as it is with the fault's calls; give another")

// errFaultIDTaken is add's refusal of an id an active fault has.
var errFaultIDTaken = errors.New("taken")

// maxFaultID is the longest id a fault may be given.
const maxFaultID = 64

// checkFaultID checks an id given to a fault (the admin API's POST,
// --fault, AddFault): 1 to
// 64 ASCII letters, digits, '.', '_' and '-', starting with a letter or
// a digit, so that it goes into /__admin/faults/{id} as it is (a WireMock
// stub's UUID does).
func checkFaultID(id string) error {
	ok := id != "" && len(id) <= maxFaultID
	for i := 0; ok && i < len(id); i++ {
		c := id[i]
		ok = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || i > 0 && (c == '.' || c == '_' || c == '-')
	}
	if !ok {
		return fmt.Errorf("fault id %.80q: want 1 to %d ASCII letters, digits, '.', '_' or '-', starting with a letter or a digit (it goes into %s/faults/{id} as it is); or none, and the mock gives one (f1, f2, …)", id, maxFaultID, adminPrefix)
	}
	return nil
}

// take returns the fault that applies to a call of op in binding b (opWSDL
// for a fetch of the service description), and the call's number among
// the calls that fault counted, from 1. Every fault matching the call
// counts it; the oldest that selects it applies and counts down its Times.
func (fs *faultSet) take(op string, b asmx.Binding) (Fault, uint64, bool) {
	if fs.active.Load() == 0 {
		return Fault{}, 0, false
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	chosen := -1
	for i, f := range fs.faults {
		if !f.matches(op, b) {
			continue
		}
		f.seen++
		if chosen < 0 && f.selects(f.seen) {
			chosen = i
		}
	}
	if chosen < 0 {
		return Fault{}, 0, false
	}
	f := fs.faults[chosen]
	out := cloneFault(&f.Fault)
	if f.Times > 0 {
		f.Times--
		if f.Times == 0 {
			fs.faults = slices.Delete(fs.faults, chosen, chosen+1)
			fs.active.Store(int64(len(fs.faults)))
		}
	}
	return out, f.seen, true
}

// list returns copies of the active faults, oldest first.
func (fs *faultSet) list() []Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := make([]Fault, len(fs.faults))
	for i, f := range fs.faults {
		out[i] = cloneFault(&f.Fault)
	}
	return out
}

// remove deletes the fault with id; it reports whether there was one.
func (fs *faultSet) remove(id string) bool {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, f := range fs.faults {
		if f.ID == id {
			fs.faults = slices.Delete(fs.faults, i, i+1)
			fs.active.Store(int64(len(fs.faults)))
			return true
		}
	}
	return false
}

// clear deletes every fault and returns how many there were.
func (fs *faultSet) clear() int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	n := len(fs.faults)
	fs.faults = nil
	fs.active.Store(0)
	return n
}

// AddFault activates f and returns it as stored, with its id: f.ID when
// set (1 to 64 ASCII letters, digits, '.', '_' or '-', starting with a
// letter or a digit, holding no service key; refused when an active
// fault has it), else the next of f1, f2, … that no active fault has. It
// refuses f when the server holds 10,000 faults (maxFaults).
func (s *Server) AddFault(f Fault) (Fault, error) { return s.addFault(f) }

// addFault adds f (AddFault, the admin API, WithFault's faults), refusing
// an id that holds a configured key: the journal, the held calls and the
// admin API show a fault's id as it is.
func (s *Server) addFault(f Fault) (Fault, error) { return s.addFaultReserving(f, nil) }

// addFaultReserving is addFault, naming a fault without an ID with none
// of the ids in reserved (faultSet.addReserving).
func (s *Server) addFaultReserving(f Fault, reserved map[string]bool) (Fault, error) {
	if f.ID != "" && s.keyMask.Text(f.ID) != f.ID {
		return Fault{}, ErrFaultIDHoldsKey
	}
	return s.faults.addReserving(f, reserved)
}

// Faults returns copies of the active faults, oldest first, each with the
// Times it has left.
func (s *Server) Faults() []Fault { return s.faults.list() }

// RemoveFault deactivates the fault with id; it reports whether there was one.
func (s *Server) RemoveFault(id string) bool { return s.faults.remove(id) }

// ClearFaults deactivates every fault.
func (s *Server) ClearFaults() { s.faults.clear() }

// Draws. Whatever a fault draws for the k-th call it counts comes from a
// source of its own made from the fault's seed, k and what the draw is
// for, never from a shared generator: the draws of a call do not depend on
// the calls before it, nor on other faults, nor on the order in which
// concurrent calls drew. The source is splitmix64, whose sequence is fixed
// here, so a seed means the same on every Go version.

// What a fault draws a call's numbers for: each purpose has a source of
// its own, so adding a draw of one kind never shifts another.
const (
	drawSelect  = 1 // whether the call gets the fault (Probability)
	drawDelay   = 2 // Jitter and DelayDistribution
	drawGarbage = 3 // the bytes of Garbage
)

// callRand is the source of one purpose's draws for one call of a fault.
type callRand struct{ state uint64 }

// newCallRand returns the source of the draws for purpose of the k-th
// call a fault of seed counts (a seed of 0 is 1, as in Fault).
func newCallRand(seed int64, k uint64, purpose uint64) callRand {
	if seed == 0 {
		seed = 1
	}
	return callRand{state: mix64(mix64(mix64(uint64(seed))^k) ^ purpose)}
}

// mix64 is splitmix64's finaliser: a bijection of 64-bit values whose
// every output bit depends on every input bit.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// next returns the next 64 random bits (splitmix64).
func (r *callRand) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	return mix64(r.state)
}

// float returns a number in [0, 1).
func (r *callRand) float() float64 { return float64(r.next()>>11) / (1 << 53) }

// normal returns a standard normal draw (Box–Muller).
func (r *callRand) normal() float64 {
	u1 := 1 - r.float() // (0, 1]: the logarithm is finite
	u2 := r.float()
	return math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
}

// durationUpTo returns a duration from 0 to max, both included.
func (r *callRand) durationUpTo(max time.Duration) time.Duration {
	if max <= 0 {
		return 0
	}
	return time.Duration(r.next() % (uint64(max) + 1))
}

// selects reports whether the k-th call the fault counts gets it: past
// the calls it skips, with its probability.
func (f *Fault) selects(k uint64) bool {
	if k <= uint64(f.Skip) {
		return false
	}
	if f.Probability == 0 || f.Probability >= 1 {
		return true
	}
	r := newCallRand(f.Seed, k, drawSelect)
	return r.float() < f.Probability
}

// delay is how long the fault holds the k-th call it counts back: Delay,
// plus a draw of Jitter, plus a draw of DelayDistribution. With a dribble
// it is cut so that the dribble ends within the write timeout.
func (f *Fault) delay(k uint64) time.Duration {
	r := newCallRand(f.Seed, k, drawDelay)
	d := satAdd(f.Delay, r.durationUpTo(f.Jitter), f.DelayDistribution.draw(&r))
	if f.Dribble != nil && d > WriteTimeout-f.Dribble.Duration {
		d = max(0, WriteTimeout-f.Dribble.Duration)
	}
	return d
}

// maxDraw bounds a log-normal draw (about 146 years), so a draw of an
// extreme sigma stays a Duration.
const maxDraw = time.Duration(1 << 62)

// draw returns a delay drawn from d with r; 0 for a nil distribution.
func (d *DelayDistribution) draw(r *callRand) time.Duration {
	switch {
	case d == nil:
		return 0
	case d.Type == distUniform:
		return d.Lower + r.durationUpTo(d.Upper-d.Lower)
	}
	v := float64(d.Median) * math.Exp(d.Sigma*r.normal())
	if !(v < float64(maxDraw)) {
		return maxDraw
	}
	return time.Duration(v)
}

// garbageLength is how many random bytes a Garbage fault sends.
const garbageLength = 1024

// garbage returns the bytes a Garbage fault sends to the k-th call it
// counts. They never start as an HTTP status line does.
func (f *Fault) garbage(k uint64) []byte {
	r := newCallRand(f.Seed, k, drawGarbage)
	b := make([]byte, garbageLength)
	for i := 0; i < len(b); i += 8 {
		v := r.next()
		for j := i; j < i+8 && j < len(b); j++ {
			b[j] = byte(v)
			v >>= 8
		}
	}
	if b[0] == 'H' {
		b[0] ^= 0x80
	}
	return b
}

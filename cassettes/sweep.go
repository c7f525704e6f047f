package cassettes

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Sweeping the keys the Recorder's calls carried from the cassette's other
// interactions: those recorded after a key's first 200 call as they are
// recorded, those before it once it comes (at once while they wait for a
// save, at the next spooling once saved).

// sweptKeys notes the keys an interaction answered 200 carried (found by
// recorded.ScrubFound), the first crossKeys of the recording, and returns
// those noted so far: another interaction holding one outside a call (a
// request to .../service.asmx/KEY, its echo) is swept of it. They stay in
// memory only, as the calls themselves do. A key noted after
// interactions joined is swept from those too (earlier reports that some
// did, and a save is due): at once from those waiting for a save, and
// from those spooled at the next spooling (resweep; the file the last
// save wrote holds the key until the next one).
func (r *Recorder) sweptKeys(found []string) (swept []string, earlier bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range found {
		if len(r.swept) >= crossKeys || slices.Contains(r.swept, k) {
			continue
		}
		r.swept = append(r.swept, k)
		r.dropHeld(k)
		first := r.n - len(r.pending)
		for j, p := range r.pending {
			cp := ownCopy(p) // a hook may hold p
			if recorded.SweepInteraction(cp, Placeholder, r.withSecrets([]string{k})...) > 0 {
				r.pendingBytes += len(cp.Request.Body) + len(cp.Response.Body) - len(p.Request.Body) - len(p.Response.Body)
				r.pending[j] = cp
				r.seeSwept(cp)
				r.dirty++
				earlier = true
			}
		}
		if first > 0 {
			r.resweeps = append(r.resweeps, resweep{key: k, before: first})
			r.dirty++
			earlier = true
		}
	}
	return r.swept, earlier
}

// noteReplayedKey notes, while recording (ModeRecordNew), the key of a
// call replayed with a 200 answer, as the key of a call recorded so is
// noted: a request recorded in the same session with the key outside a
// call (.../service.asmx/KEY) is swept of it, and the file saved at once.
// Without it, a session whose calls were all replayed left such a
// request's key in the file for good.
func (r *Recorder) noteReplayedKey(req *http.Request, body string, status int) {
	if !r.recording || status != http.StatusOK {
		return
	}
	c, ok := recorded.CallOf(req.Method, req.URL.String(), req.Header, body)
	if !ok || c.Key == "" {
		return
	}
	if _, earlier := r.sweptKeys([]string{c.Key}); earlier {
		r.saveNow()
	}
}

// seeSwept notes the answer of i, an interaction just swept of a key, as
// kept for its request as it now reads: the same request recorded again
// with the key, swept as it joins (.../service.asmx/KEY sent again after
// the key's first 200), is the same interaction, not kept twice. The
// caller holds r.mu.
func (r *Recorder) seeSwept(i *cassette.Interaction) {
	k, d := recorded.RecordedKey(&i.Request), recorded.AnswerDigest(&i.Response)
	if !slices.Contains(r.seen[k], d) {
		r.seen[k] = append(r.seen[k], d)
	}
}

// notedKeys returns the keys the recording's calls answered 200 carried
// (16 at most), which the Recorder sweeps from the cassette's other
// interactions: for a caller masking what it prints of a request (the
// recording proxy's log line and 502 answer), which may hold one outside
// a call. They are the Recorder's memory alone; never write them.
func (r *Recorder) notedKeys() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.swept)
}

// A resweep is a key to sweep from the interactions spooled before it was
// noted: those at positions 0..before-1.
type resweep struct {
	key    string
	before int
}

// resweep sweeps each key of resweeps from the encoded interactions
// before its bound: read back from the spool one at a time (ItemFilter
// tells from its bytes whether an item may hold the key; only those are
// decoded) and encoded again where a key was swept. A recording notes 16
// keys at most (crossKeys), so it reads its spool back at most 16 times,
// in constant memory. The caller holds r.spoolMu.
func (r *Recorder) resweep(resweeps []resweep) {
	end := 0
	for _, rs := range resweeps {
		end = max(end, min(rs.before, r.encoded.len()))
	}
	var keys []string
	var mayHold func([]byte) bool
	for j := 0; j < end; j++ {
		// The keys of position j: those whose bound is past it, fewer
		// as j grows (the filter made again when they are).
		n := len(keys)
		keys = keys[:0]
		for _, rs := range resweeps {
			if j < rs.before {
				keys = append(keys, rs.key)
			}
		}
		if mayHold == nil || len(keys) != n {
			mayHold = recorded.ItemFilterWith(r.cfg.secrets, keys...)
		}
		if r.encoded.empty(j) {
			continue
		}
		if err := r.resweepItem(j, keys, mayHold); err != nil {
			r.log.Error("save cassette: cannot sweep a key noted later from an interaction recorded before it", "cassette", r.path, "err", err)
		}
	}
}

// resweepItem sweeps keys from the encoded interaction j, if its bytes may
// hold one. The caller holds r.spoolMu.
func (r *Recorder) resweepItem(j int, keys []string, mayHold func([]byte) bool) error {
	item, err := r.encoded.get(j)
	if err != nil {
		return err
	}
	if !mayHold(item) {
		return nil
	}
	i, err := recorded.UnmarshalItem(item)
	if err != nil {
		return fmt.Errorf("the interaction at position %d (from 0): %w", j, err)
	}
	if recorded.SweepInteraction(i, Placeholder, r.withSecrets(keys)...) == 0 {
		return nil
	}
	r.mu.Lock()
	r.seeSwept(i)
	r.mu.Unlock()
	enc, err := recorded.EncodeItem(i)
	if err != nil {
		return fmt.Errorf("interaction %s: %w", r.name(i.ID, j), err)
	}
	r.encoded.set(j, enc)
	return nil
}

// withSecrets returns the keys of lists and the WithSecrets values, to be
// swept together: a secret holding a key ("Key K", K-partner9), or a key
// holding one, is swept whole whichever a sweep meets first, this one or
// an earlier one (recorded.SweepInteraction sweeps what one leaves of the
// other). Swept apart, the one swept first left the other's rest in the
// cassette.
func (r *Recorder) withSecrets(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return append(out, r.cfg.secrets...)
}

package cassettes

import (
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Writing the cassette while recording. The interactions a save has taken
// are kept encoded, each encoded once, in a spool file (itemSpool); every
// save writes the whole file anew (atomically) from it, and the saver
// spaces saves by what the last write took, so a long recording does not
// spend its time rewriting its file. Between saves, interactions are
// spooled once they hold spoolAfter bytes, so memory holds little more
// than the calls in flight however large the cassette grows.

// changed has the cassette written after a change: now when the interval
// is zero, else by the saver.
func (r *Recorder) changed() {
	if r.cfg.saveInterval == 0 {
		r.saveNow()
		return
	}
	r.mu.Lock()
	stopped := r.stopped
	r.mu.Unlock()
	if stopped { // Stop writes what it took; nothing after
		return
	}
	r.spoolSome()
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// saveNow writes the cassette now, whatever the save interval: after a
// call revealed a key (its first 200) that interactions recorded before
// it may hold (.../service.asmx/KEY), which a save may have written. The
// save sweeps them (sweptKeys' resweep) and writes the revealing
// interaction: once that call returns, the file holds the key nowhere,
// rather than until the next save (for good, had the process been killed
// meanwhile). A recording notes crossKeys keys at most, so it saves so at
// most that many times.
func (r *Recorder) saveNow() {
	r.mu.Lock()
	stopped := r.stopped
	r.mu.Unlock()
	if stopped { // Stop writes what it took; nothing after
		return
	}
	took, err := r.save()
	r.tell(took, err)
}

// saveBackoff bounds the time a long recording spends writing its
// cassette: after a save whose file write took d, the saver waits at least
// saveBackoff×d (and at least the save interval) before the next one, so
// it writes at most about a fifth of the time however large the file grows.
const saveBackoff = 4

// saver rewrites the cassette after each burst of new interactions: the
// save interval after the burst's first one, or saveBackoff times the last
// file write if that is longer.
func (r *Recorder) saver() {
	defer r.wg.Done()
	wait := r.cfg.saveInterval
	for {
		select {
		case <-r.done:
			return
		case <-r.kick:
		}
		select {
		case <-r.done:
			return
		case <-r.cfg.after(wait):
		}
		took, err := r.save()
		r.tell(took, err)
		if took > 0 { // a failed write is spaced as a complete one
			wait = max(r.cfg.saveInterval, saveBackoff*took)
		}
	}
}

// tell logs how a save while recording went (took 0: nothing to write):
// a failure once, not again while saves keep failing for the same cause
// (the file keeps its last complete version, and every later save retries
// with everything recorded), and the first save that succeeds after one.
func (r *Recorder) tell(took time.Duration, err error) {
	if took == 0 && err == nil {
		return
	}
	cause := ""
	if err != nil {
		cause = rootCause(err).Error()
	}
	r.mu.Lock()
	was := r.failing
	r.failing = cause
	r.mu.Unlock()
	switch {
	case err != nil && cause != was:
		r.log.Error("save cassette: it keeps its last complete version; later saves retry with everything recorded", "cassette", r.path, "err", err)
	case err == nil && was != "":
		r.log.Info("saved cassette again: it holds everything recorded so far", "cassette", r.path)
	}
}

// rootCause is the innermost error err wraps (a system call's, say): what
// stays the same when a save fails again, unlike the temporary file's name.
func rootCause(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// Save writes the cassette now if anything was recorded since the last
// write. It is atomic: a crash leaves the previous complete file.
func (r *Recorder) Save() error {
	_, err := r.save()
	return err
}

// save is Save, reporting how long writing the file took, or trying to
// until it failed (0 when nothing was to be written): what grows with the
// file, unlike encoding the interactions new since the last save, whose
// cost is the same however often saves come.
//
// Each interaction is encoded once, when it is spooled (spool), and kept
// encoded only; one whose key rejection mark changed later (remark) is
// read back from its item, marked and encoded again. The file is streamed
// from the spool, outside spoolMu: spooling goes on while it is written.
func (r *Recorder) save() (time.Duration, error) {
	r.saveMu.Lock()
	defer r.saveMu.Unlock()
	r.spoolMu.Lock()
	r.mu.Lock()
	gen := r.dirty
	if gen == r.saved {
		r.mu.Unlock()
		r.spoolMu.Unlock()
		return 0, nil
	}
	r.mu.Unlock()
	if r.encoded.closed { // by Stop, after its last save failed: what it did not write is gone
		r.spoolMu.Unlock()
		return 0, fmt.Errorf("save cassette %s: %w", r.path, ErrStopped)
	}
	r.spoolPending()
	n, size, items := r.encoded.len(), r.encoded.size(), r.encoded.reader()
	r.spoolMu.Unlock()

	start := r.cfg.now()
	if err := recorded.WriteItems(r.path, n, items, r.style); err != nil {
		return max(r.cfg.now().Sub(start), 1), err
	}
	r.mu.Lock()
	r.saved = gen
	r.mu.Unlock()
	took := r.cfg.now().Sub(start)
	r.log.Debug("saved cassette", "interactions", n, "bytes", size, "took", took)
	return max(took, 1), nil
}

// spoolAfter is how many bytes of bodies the interactions waiting for a
// save may hold before they are spooled without waiting for it: saves of a
// large cassette come seconds apart (saveBackoff), and the calls recorded
// meanwhile would otherwise wait in memory, decoded.
const spoolAfter = 1 << 20

// spoolHoldAfter is how many bytes of bodies the pending interactions may
// hold before a call that adds one waits for them to be spooled: encoding
// (yaml.v3, some 20 MB/s a core) can fall behind a fast upstream, and
// then calls wait rather than memory grow.
const spoolHoldAfter = 64 << 20

// spoolSome spools the pending interactions when they hold spoolAfter
// bytes or more, unless another goroutine is spooling (which takes them);
// past spoolHoldAfter it waits for that one and spools what is left.
func (r *Recorder) spoolSome() {
	r.mu.Lock()
	pending := r.pendingBytes
	r.mu.Unlock()
	switch {
	case pending < spoolAfter:
		return
	case pending < spoolHoldAfter:
		if !r.spoolMu.TryLock() {
			return
		}
	default:
		r.spoolMu.Lock()
	}
	defer r.spoolMu.Unlock()
	if !r.encoded.closed {
		r.spoolPending()
	}
}

// spoolPending encodes the pending interactions into the spool, in order,
// and marks again the spooled ones whose key rejection mark changed. The
// caller holds r.spoolMu.
func (r *Recorder) spoolPending() {
	r.mu.Lock()
	pending, remarks, resweeps := r.pending, r.remarks, r.resweeps
	r.pending, r.remarks, r.resweeps, r.pendingBytes = nil, nil, nil, 0
	r.mu.Unlock()
	for _, item := range r.encodeAll(pending, r.encoded.len()) {
		r.encoded.add(item)
	}
	r.resweep(resweeps)
	for j, rejected := range remarks {
		if j >= r.encoded.len() || r.encoded.empty(j) {
			continue
		}
		if err := r.remarkItem(j, rejected); err != nil {
			// Not retried: MarshalItem writes only items that read
			// back, so the same item would fail again.
			r.log.Error("save cassette: cannot update a key rejection mark", "cassette", r.path, "err", err)
		}
	}
}

// encodeAll encodes interactions (EncodeItem), on every processor: the
// encoding is most of a recording's work. An interaction that cannot be
// encoded so that it reads back gets an empty item. The first of list is
// at position first of the cassette.
func (r *Recorder) encodeAll(list []*cassette.Interaction, first int) []*recorded.Item {
	items := make([]*recorded.Item, len(list))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(list)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := int(next.Add(1) - 1); j < len(list); j = int(next.Add(1) - 1) {
				i := list[j]
				item, err := recorded.EncodeItem(i)
				if err != nil {
					// Encoding it would fail again on every later save:
					// left out (an empty item), it costs the cassette one
					// interaction rather than everything recorded from now on.
					r.log.Error("save cassette: an interaction cannot be written so that it reads back; it is left out", "cassette", r.path,
						"interaction", r.name(i.ID, first+j), "request", recorded.DescribeRequest(i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body), "err", err)
					item = &recorded.Item{}
				}
				items[j] = item
			}
		}()
	}
	wg.Wait()
	return items
}

// remarkItem gives the encoded interaction j the key rejection mark
// rejected. The caller holds r.spoolMu.
func (r *Recorder) remarkItem(j int, rejected bool) error {
	item, err := r.encoded.get(j)
	if err != nil {
		return err
	}
	i, err := recorded.UnmarshalItem(item)
	if err != nil {
		return fmt.Errorf("the interaction at position %d (from 0): %w", j, err)
	}
	ph := Placeholder
	if rejected {
		ph = RejectedPlaceholder
	}
	recorded.MarkKey(i, ph)
	enc, err := recorded.EncodeItem(i)
	if err != nil {
		return fmt.Errorf("interaction %s: %w", r.name(i.ID, j), err)
	}
	r.encoded.set(j, enc)
	return nil
}

// remark brings every mark of the cassette up to date with what the keys
// have been answered so far, and reports whether one changed. A pending
// interaction is replaced by a marked copy; one a save has taken is noted
// for the next spooling to mark (remarkItem). The caller holds r.mu.
func (r *Recorder) remark() bool {
	changed := r.keys.marks()
	first := r.n - len(r.pending)
	for j, rejected := range changed {
		if j >= r.n {
			continue
		}
		if j < first {
			if r.remarks == nil {
				r.remarks = map[int]bool{}
			}
			r.remarks[j] = rejected
		} else {
			cp := *r.pending[j-first]
			ph := Placeholder
			if rejected {
				ph = RejectedPlaceholder
			}
			recorded.MarkKey(&cp, ph)
			r.pending[j-first] = &cp
		}
		r.dirty++
	}
	return len(changed) > 0
}

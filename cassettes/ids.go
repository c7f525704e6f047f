package cassettes

import (
	"math"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// The ids of the interactions a Recorder records, and the names its
// messages give interactions (docs/record-replay.md, "Interaction ids").

// nextIDOf is the id the first interaction recorded into a cassette
// holding list gets, and the ids the recorded ones must skip (nil: none).
// It is one more than the largest id the cassette holds (0 when it holds
// none), so that those recorded follow every id it holds, in the order
// they are recorded, and none is held twice. go-vcr v3.2.0, adding to a
// cassette (ModeReplayWithNewEpisodes), numbers new interactions from
// the count the file holds, then renumbers the whole file from 0 when it
// saves; atmkit keeps the ids the file holds (hand-edited ones included,
// as scrub and verify --update do), and for a cassette whose ids are
// go-vcr's own (0 to n-1) this is n, the id go-vcr gives. A file holding
// the largest int leaves no larger id: then they are numbered from the
// count, skipping the ids the file holds.
func nextIDOf(list []*cassette.Interaction) (int, map[int]bool) {
	if len(list) == 0 {
		return 0, nil
	}
	top := list[0].ID
	for _, i := range list {
		top = max(top, i.ID)
	}
	if top < math.MaxInt {
		return top + 1, nil
	}
	held := make(map[int]bool, len(list))
	for _, i := range list {
		held[i.ID] = true
	}
	return len(list), held
}

// takeID is the id of the interaction joining now: r.nextID, past the ids
// to skip. The caller holds r.mu.
func (r *Recorder) takeID() int {
	for r.skipIDs[r.nextID] {
		r.nextID++
	}
	return r.nextID
}

// name names the interaction with id at position pos of the cassette, as
// every message does (recorded.Names): those recorded hold ids the file
// held nowhere else (nextIDOf), so only one read from the file may need
// its position.
func (r *Recorder) name(id, pos int) string { return recorded.Name(id, pos, r.repeated[id]) }

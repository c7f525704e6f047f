package cassettes

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"github.com/atmkit/atmkit/internal/atomicfile"
)

// itemSpool keeps the encoded items (recorded.EncodeItem's) of the
// interactions saves have taken, in order, in a file beside the cassette
// rather than in memory: a long recording's memory then stays with what
// it has not saved yet, not with the whole cassette, and each save copies
// the items from the spool into the new file. The spool is a dot file
// (".NAME.yaml.spool-*.tmp", skipped by every reader, removed by Stop and,
// when a killed recorder left it, by the next holder of the cassette's
// lock); it holds what the cassette holds, scrubbed. An item the spool
// cannot take (a full disk) is kept in memory instead, so that nothing
// recorded is lost to it. A spool is used under the Recorder's saveMu.
type itemSpool struct {
	cassette string   // the cassette's path: the spool is made beside it
	f        *os.File // nil until the first item, or when it could not be made
	broken   bool     // the spool file could not be made: items stay in memory
	closed   bool     // by Stop: the items are gone
	end      int64    // bytes of f in use
	items    []spooled
}

// spooled is one item: n bytes at off in the spool, or mem.
type spooled struct {
	off, n int64
	mem    []byte // the item, when the spool could not take it
}

// add appends an item.
func (s *itemSpool) add(item *recorded.Item) {
	s.items = append(s.items, s.put(item))
}

// set replaces item j (an item marked or swept again): the new bytes go to
// the spool's end, and the old ones, which a key swept since may be in,
// are overwritten with zeros.
func (s *itemSpool) set(j int, item *recorded.Item) {
	old := s.items[j]
	s.items[j] = s.put(item)
	if old.mem == nil && old.n > 0 && s.f != nil {
		// Best effort: no reader reads them again.
		zeros := make([]byte, min(old.n, 32<<10))
		for off, end := old.off, old.off+old.n; off < end; off += int64(len(zeros)) {
			if _, err := s.f.WriteAt(zeros[:min(int64(len(zeros)), end-off)], off); err != nil {
				break
			}
		}
	}
}

// put writes item at the spool's end, or keeps it in memory when it
// cannot. A long body the item holds by reference is written from the
// string it is, not copied whole first (recorded.Item).
func (s *itemSpool) put(item *recorded.Item) spooled {
	if item.Len() == 0 {
		return spooled{mem: []byte{}}
	}
	if s.f == nil && !s.broken {
		// Beside the file the saves replace (a symbolic link's target),
		// where the next holder of the lock removes what a killed
		// recorder left (recorded.RemoveTemps).
		dir, base := filepath.Split(atomicfile.Target(s.cassette))
		if dir == "" {
			dir = "."
		}
		f, err := os.CreateTemp(dir, "."+base+".spool-*.tmp")
		if err != nil {
			s.broken = true
		} else {
			s.f = f
		}
	}
	if s.f != nil {
		if n, err := item.WriteTo(io.NewOffsetWriter(s.f, s.end)); err == nil && n == item.Len() {
			sp := spooled{off: s.end, n: n}
			s.end += n
			return sp
		}
	}
	return spooled{mem: item.Bytes()}
}

// get reads item j back.
func (s *itemSpool) get(j int) ([]byte, error) {
	it := s.items[j]
	if it.mem != nil {
		return it.mem, nil
	}
	b := make([]byte, it.n)
	if _, err := s.f.ReadAt(b, it.off); err != nil {
		return nil, fmt.Errorf("read the interaction at position %d (from 0) back from the spool %s: %w", j, s.f.Name(), err)
	}
	return b, nil
}

// empty reports whether item j is empty (an interaction left out).
func (s *itemSpool) empty(j int) bool {
	return s.items[j].mem != nil && len(s.items[j].mem) == 0
}

// len is the number of items.
func (s *itemSpool) len() int { return len(s.items) }

// size is the items' bytes.
func (s *itemSpool) size() int64 {
	var n int64
	for _, it := range s.items {
		n += it.n + int64(len(it.mem))
	}
	return n
}

// reader reads the items in order; runs of items lying one after another
// in the spool are read as one section.
func (s *itemSpool) reader() io.Reader {
	var parts []io.Reader
	var run spooled
	flush := func() {
		if run.n > 0 {
			parts = append(parts, io.NewSectionReader(s.f, run.off, run.n))
		}
		run = spooled{}
	}
	for _, it := range s.items {
		switch {
		case it.mem != nil:
			flush()
			if len(it.mem) > 0 {
				parts = append(parts, bytes.NewReader(it.mem))
			}
		case run.n > 0 && run.off+run.n == it.off:
			run.n += it.n
		default:
			flush()
			run = it
		}
	}
	flush()
	return io.MultiReader(parts...)
}

// close removes the spool file.
func (s *itemSpool) close() {
	s.closed = true
	if s.f == nil {
		return
	}
	name := s.f.Name()
	_ = s.f.Close()
	_ = os.Remove(name)
	s.f, s.items, s.end, s.closed = nil, nil, 0, true
}

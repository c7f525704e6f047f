package banner

import (
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/atmkit/atmkit/cassettes"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Progress prints what atmkit record records: each of the First
// interactions as it is recorded (operation, binding and status; never the
// key), then how many so far, at most once a second. Its Recorded method is
// a cassettes.BeforeSave hook.
type Progress struct {
	W     io.Writer
	First int // interactions printed one by one; 0: nothing is printed
	// Log, when set (--log-format json), takes the lines as records, so
	// that the log stays one format.
	Log *slog.Logger
	// Base is the cassette's ID of the first interaction recorded (the
	// interactions it held before), so that each line names the ID
	// atmkit cassette list shows.
	Base int

	mu   sync.Mutex // guards n and last, and orders the lines
	n    int        // interactions recorded
	last time.Time  // when the last line was printed
}

// Recorded prints i, recorded (a BeforeSave hook: i is scrubbed, and about
// to be kept), or counts it.
func (p *Progress) Recorded(i *cassette.Interaction) error {
	if p.First <= 0 {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	e := cassettes.EntryOf(i)
	what := e.Operation
	if e.Binding != "" {
		what += " over " + e.Binding
	}
	switch {
	case p.n <= p.First && p.Log != nil:
		p.Log.Info("recorded", "id", p.Base+p.n-1, "operation", e.Operation, "binding", e.Binding, "status", e.Status)
	case p.n <= p.First:
		fmt.Fprintf(p.W, "atmkit: recorded #%d %s: %d\n", p.Base+p.n-1, what, e.Status)
	case time.Since(p.last) < time.Second:
		return nil
	case p.Log != nil:
		p.Log.Info("recorded so far", "n", p.n, "operation", e.Operation, "binding", e.Binding, "status", e.Status)
	default:
		fmt.Fprintf(p.W, "atmkit: recorded %d interactions so far (the last: %s: %d)\n", p.n, what, e.Status)
	}
	p.last = time.Now()
	return nil
}

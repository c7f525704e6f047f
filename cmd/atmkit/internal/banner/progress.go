package banner

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/redact"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Progress prints what atmkit record records: each of the First
// interactions as it is recorded (operation, binding and status; never the
// key), then how many so far, at most once a second, and a second after a
// burst of calls its last count (so that the count a log ends with is not
// a stale one). Its Recorded method is a cassettes.BeforeSave hook.
type Progress struct {
	W     io.Writer
	First int // interactions printed one by one; 0: nothing is printed
	// Log, when set (--log-format json), takes the lines as records, so
	// that the log stays one format.
	Log *slog.Logger

	mu     sync.Mutex      // guards the fields below, and orders the lines
	n      int             // interactions recorded
	shown  int             // interactions the lines printed account for
	last   time.Time       // when the last line was printed
	latest cassettes.Entry // the last interaction recorded
	timer  *time.Timer     // prints the count of interactions not yet counted
}

// Recorded prints i, recorded (a BeforeSave hook: i is scrubbed, and about
// to be kept), or counts it. Each line names i by the id the cassette
// gives it, as atmkit cassette list does: the recorder gives each
// interaction it records an id the cassette holds nowhere else, so that
// id alone is its name (cassettes.Entry.Name), appending or not.
func (p *Progress) Recorded(i *cassette.Interaction) error {
	if p.First <= 0 {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	e := cassettes.EntryOf(i)
	switch {
	case p.n <= p.First && p.Log != nil:
		p.Log.Info("recorded", "id", e.ID, "operation", operation(e), "binding", e.Binding, "status", e.Status)
	case p.n <= p.First:
		fmt.Fprintf(p.W, "atmkit: recorded #%s %s: %d\n", e.Name, what(e), e.Status)
	case time.Since(p.last) < time.Second:
		p.latest = e
		if p.timer == nil {
			p.timer = time.AfterFunc(time.Second-time.Since(p.last), p.countLater)
		}
		return nil
	default:
		p.count(e)
	}
	p.shown, p.last = p.n, time.Now()
	return nil
}

// Flush prints the count of the interactions recorded since the last line,
// if any: at the end of a recording, before what was saved is told.
func (p *Progress) Flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	if p.n > p.shown {
		p.count(p.latest)
		p.shown, p.last = p.n, time.Now()
	}
}

// countLater prints the count when the timer started after a line fires,
// unless a line was printed within the second since (the timer was late,
// and a call printed the count at once): then it waits out the second.
func (p *Progress) countLater() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.timer = nil
	if p.n <= p.shown {
		return
	}
	if wait := time.Second - time.Since(p.last); wait > 0 {
		p.timer = time.AfterFunc(wait, p.countLater)
		return
	}
	p.count(p.latest)
	p.shown, p.last = p.n, time.Now()
}

// count prints how many interactions were recorded, the last being e.
func (p *Progress) count(e cassettes.Entry) {
	if p.Log != nil {
		p.Log.Info("recorded so far", "n", p.n, "operation", operation(e), "binding", e.Binding, "status", e.Status)
		return
	}
	fmt.Fprintf(p.W, "atmkit: recorded %d interactions so far (the last: %s: %d)\n", p.n, what(e), e.Status)
}

// what names an interaction's call: its operation and binding, or the
// request of another (the WSDL).
func what(e cassettes.Entry) string {
	if e.Binding != "" {
		return e.Operation + " over " + e.Binding
	}
	return operation(e)
}

// operation is e's operation, or for a request that is no call its method
// and request URI with each path segment after an .asmx file that names no
// operation masked (redact.MaskPathKeys): a client that built its URL
// wrong may have put its key there (.../service.asmx/KEY). The recorder
// sweeps such a key from the cassette once a call with it is answered
// 200, which may come after the line is printed, and a printed line cannot
// be taken back.
func operation(e cassettes.Entry) string {
	if e.Binding != "" {
		return e.Operation
	}
	path, query, hasQuery := strings.Cut(e.Operation, "?")
	out := redact.MaskPathKeys(path, cassettes.Placeholder)
	if hasQuery {
		out += "?" + query
	}
	return out
}

// Counter prints the progress of long work counted in items on W, at each
// tenth of the way: "atmkit: generated 300000 of 1000000 ATMs (30%,
// 480000 a second, about 2s left)", the rate and the time left reckoned
// from Start. Its Step is a fixtures.GenerateOptions or SaveOptions
// Progress.
type Counter struct {
	W     io.Writer
	Cmd   string    // "bench": its lines begin "atmkit bench: "; empty: "atmkit: "
	Verb  string    // "generated"
	Tail  string    // what follows "of N": "ATMs", "ATMs to data/atms.jsonl"
	Start time.Time // when the work began

	next int // the percentage of the next line, less 10
}

// Step takes done of total; it prints a line when done passes the next
// tenth, none at the end (done == total: the caller says what is done).
func (c *Counter) Step(done, total int) {
	pct := done * 100 / max(1, total)
	if pct < c.next+10 || done >= total {
		return
	}
	c.next = pct - pct%10
	rate := float64(done) / max(time.Since(c.Start).Seconds(), 1e-3)
	left := "under a second left"
	if d := time.Duration(float64(total-done) / rate * float64(time.Second)); d >= time.Second {
		left = "about " + d.Round(time.Second).String() + " left"
	}
	prefix := "atmkit: "
	if c.Cmd != "" {
		prefix = "atmkit " + c.Cmd + ": "
	}
	fmt.Fprintf(c.W, "%s%s %d of %d %s (%d%%, %.0f a second, %s)\n", prefix, c.Verb, done, total, c.Tail, pct, rate, left)
}

package mockserver

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/redact"
)

// DefaultJournalSize is how many requests the journal keeps unless
// WithJournalSize says otherwise.
const DefaultJournalSize = 1000

// JournalEntry is one request the mock server received, as the journal keeps
// it. Requests to the admin API are not journaled.
type JournalEntry struct {
	// Seq numbers the requests the server has journaled, from 1.
	Seq uint64
	// Time is when the request arrived.
	Time time.Time
	// Method and Path are the request's HTTP method and URL path.
	Method, Path string
	// Binding is the binding the request came in on; 0 when it could not be
	// told (a 415, an unknown path).
	Binding asmx.Binding
	// Operation is the operation called; empty unless the request decoded.
	Operation string
	// Params holds the operation's parameters as canonical text ("25",
	// "44.6488"), the service key masked (see MaskKey); nil unless the
	// request decoded.
	Params map[string]string
	// Status is the HTTP status answered; 0 when no response was written
	// (a dropped connection, a client that went away during a delay).
	Status int
	// Duration is how long the server took to answer.
	Duration time.Duration
	// Error is the kind of error answered (asmx.Kind* such as
	// "InvalidParameter"); for a request answered with no response,
	// "Dropped" (a drop fault closed the connection, Fault names it) or
	// "Canceled" (the client went away during an injected delay, journaled
	// when it went); for a reset fault's call, "Reset" (with the status it
	// began to answer); otherwise empty.
	Error string
	// Fault is the id of the injected fault applied to the request, if any.
	Fault string
	// FaultKind is what that fault did: delay, status, soapFault, drop,
	// malformed, dribble, reset or garbage.
	FaultKind string
}

// journalEntryJSON is JournalEntry as the admin API writes it.
type journalEntryJSON struct {
	Seq        uint64            `json:"seq"`
	Time       time.Time         `json:"time"`
	Method     string            `json:"method"`
	Path       string            `json:"path"`
	Binding    string            `json:"binding,omitempty"`
	Operation  string            `json:"operation,omitempty"`
	Params     map[string]string `json:"params,omitempty"`
	Status     int               `json:"status"`
	Duration   string            `json:"duration"`
	DurationMS float64           `json:"durationMs"`
	Error      string            `json:"error,omitempty"`
	Fault      string            `json:"fault,omitempty"`
	FaultKind  string            `json:"faultKind,omitempty"`
}

// MarshalJSON writes the entry as the admin API shows it: the binding by its
// short name, the duration as Go text ("1.2ms") and in milliseconds.
func (e JournalEntry) MarshalJSON() ([]byte, error) {
	j := journalEntryJSON{
		Seq: e.Seq, Time: e.Time, Method: e.Method, Path: e.Path, Operation: e.Operation,
		Params: e.Params, Status: e.Status, Duration: e.Duration.String(),
		DurationMS: float64(e.Duration) / float64(time.Millisecond), Error: e.Error, Fault: e.Fault,
		FaultKind: e.FaultKind,
	}
	if e.Binding != 0 {
		j.Binding = e.Binding.String()
	}
	return json.Marshal(j)
}

// RequestFilter selects journal entries. Zero fields match everything.
type RequestFilter struct {
	// Operation matches the operation name, ignoring case.
	Operation string
	// Binding matches the binding.
	Binding asmx.Binding
}

func (f RequestFilter) match(e *JournalEntry) bool {
	if f.Operation != "" && !strings.EqualFold(f.Operation, e.Operation) {
		return false
	}
	return f.Binding == 0 || f.Binding == e.Binding
}

// journal is a bounded ring buffer of the latest requests.
type journal struct {
	mu      sync.Mutex // guards entries, next, full and seq
	entries []journalRecord
	next    int // where the next entry goes
	full    bool
	seq     uint64
}

// journalRecord is a journal entry as the journal keeps it: the entry
// without its Params, which are made from call only when the entry is read,
// so journaling a request costs no allocation. The call is not modified
// after decoding, so the parameters read later are those the request sent.
type journalRecord struct {
	JournalEntry
	call *asmx.Call // nil unless the request decoded
}

// entry returns the record as a JournalEntry of its own.
func (r *journalRecord) entry() JournalEntry {
	e := r.JournalEntry
	if c := r.call; c != nil {
		e.Params = make(map[string]string, len(c.Op.Params))
		e.Params[asmx.ParamKey] = MaskKey(c.Key)
		for _, p := range c.Params() {
			e.Params[p[0]] = p[1]
		}
	}
	return e
}

// newJournal returns a journal of size entries; size 0 keeps nothing.
func newJournal(size int) *journal {
	return &journal{entries: make([]journalRecord, size)}
}

// enabled reports whether the journal keeps anything.
func (j *journal) enabled() bool { return len(j.entries) > 0 }

// add appends e, dropping the oldest entry when the journal is full.
func (j *journal) add(e journalRecord) {
	if len(j.entries) == 0 {
		return
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	j.seq++
	e.Seq = j.seq
	j.entries[j.next] = e
	j.next++
	if j.next == len(j.entries) {
		j.next, j.full = 0, true
	}
}

// list returns copies of the entries f matches, oldest first.
func (j *journal) list(f RequestFilter) []JournalEntry {
	j.mu.Lock()
	defer j.mu.Unlock()
	out := []JournalEntry{}
	visit := func(es []journalRecord) {
		for i := range es {
			if f.match(&es[i].JournalEntry) {
				out = append(out, es[i].entry())
			}
		}
	}
	if j.full {
		visit(j.entries[j.next:])
	}
	visit(j.entries[:j.next])
	return out
}

// reset empties the journal and returns how many entries it held. Sequence
// numbers keep counting.
func (j *journal) reset() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := j.next
	if j.full {
		n = len(j.entries)
	}
	clear(j.entries)
	j.next, j.full = 0, false
	return n
}

// MaskKey hides a service key for journals, logs and banners: atmkit's one
// masking rule, six characters whatever the key's length. A key of eight
// characters or more shows its first two ("te****"), a shorter one none
// ("******"). An empty key stays empty.
func MaskKey(k string) string { return redact.Key(k) }

// recordOf makes the journal record of a finished exchange.
func recordOf(method, path string, ex *exchange, status int, d time.Duration) journalRecord {
	e := JournalEntry{Time: ex.start, Method: method, Path: path, Binding: ex.binding, Status: status,
		Duration: d, Fault: ex.fault, FaultKind: ex.faultKind, Error: ex.note}
	if ex.err != nil {
		e.Error = ex.err.Kind
	}
	if ex.call != nil {
		e.Operation = ex.call.Op.Name
	}
	return journalRecord{JournalEntry: e, call: ex.call}
}

// Journal returns copies of the journaled requests f matches, oldest
// first; RequestFilter{} matches all of them.
func (s *Server) Journal(f RequestFilter) []JournalEntry { return s.journal.list(f) }

// ResetJournal empties the journal. Sequence numbers keep counting.
func (s *Server) ResetJournal() { s.journal.reset() }

// WithJournalSize sets how many requests the journal keeps (default
// DefaultJournalSize); the oldest are dropped first. 0 turns the journal off.
func WithJournalSize(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return fmt.Errorf("journal size %d is negative", n)
		}
		c.journalSize = n
		return nil
	}
}

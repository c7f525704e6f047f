package mockserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/redact"
)

// DefaultJournalSize is how many requests the journal keeps unless
// WithJournalSize says otherwise.
const DefaultJournalSize = 1000

// DefaultJournalBodyMax is how many bytes the journal keeps of each request
// and of each answer unless WithJournalBodyMax says otherwise: 16 KB.
const DefaultJournalBodyMax = 16 << 10

// JournalEntry is one request the mock server received, as the journal keeps
// it. Requests to the admin API are not journaled.
type JournalEntry struct {
	// Seq numbers the requests the server has journaled, from 1, in the
	// order they were journaled: as each was answered (or went
	// unanswered), so a delayed call has a higher Seq than the calls
	// answered during its delay.
	Seq uint64
	// Time is when the request arrived.
	Time time.Time
	// Method and Path are the request's HTTP method and URL path. The
	// path is cut as WithJournalBodyMax says.
	Method, Path string
	// Binding is the binding the request came in on; 0 when it could not be
	// told (a 415, an unknown path).
	Binding asmx.Binding
	// Operation is the operation called; empty unless the request decoded.
	Operation string
	// Params holds the operation's parameters as canonical text ("25",
	// "44.6488"), the service key masked (see MaskKey); nil unless the
	// request decoded. A value longer than 1 KB is cut there and ends
	// with "… (cut: N bytes)", N its length as sent.
	Params map[string]string
	// Status is the HTTP status answered; 0 when no response was written
	// (a dropped connection, a client that went away during a delay).
	Status int
	// Duration is how long the server took to answer.
	Duration time.Duration
	// Error is the kind of error answered (asmx.Kind* such as
	// "InvalidParameter"); for a request answered with no response,
	// "Dropped" (a drop fault closed the connection, Fault names it) or
	// "Canceled" (the client went away, or a TestServer closed, during an
	// injected delay or dribble; journaled when it went); for a reset
	// fault's call, "Reset" (with the status it began to answer);
	// otherwise empty. A garbage fault's call has none (Status 0,
	// FaultKind garbage). A fault's soapFault, status or malformed answer
	// is no error of the request: Fault and FaultKind name it, and Error
	// is empty.
	Error string
	// Fault is the id of the injected fault applied to the request, if any.
	Fault string
	// FaultKind is what that fault did: delay, status, soapFault, drop,
	// malformed, dribble, reset or garbage.
	FaultKind string
	// Source says where a replaying server's answer came from: the
	// recording (a cassette's file name and the interaction's id,
	// "atm.yaml#6", as atmkit cassette list numbers them), "upstream" (a
	// miss fetched from the upstream, WithOnMiss upstream; a later call
	// answered with what it fetched names the cassette it was recorded
	// into, "upstream.yaml"), SourceFixtures
	// (a miss answered from the data set). Empty for a server that
	// replays nothing, and for an answer of the mock's own (a miss
	// refused, an error before the call was replayed).
	Source string

	// Query is the URL's query string as sent, keys masked. It, Request
	// and Response are empty when the journal keeps no bodies
	// (WithJournalBodyMax(0)).
	Query string
	// Request is the request's header fields (Host included) and body.
	Request JournalMessage
	// Response is the answer's header fields, as the mock set them, and
	// first bytes (of a reset fault's call, those sent before the reset);
	// empty when no answer was written (Status 0).
	Response JournalMessage
}

// JournalMessage is a request or an answer as the journal keeps it: its
// header fields and its body's first bytes, bounded by
// WithJournalBodyMax, with the service keys masked (see MaskKey) wherever
// they appear, before the body is cut.
type JournalMessage struct {
	// Header holds the header fields. Authorization, Proxy-Authorization,
	// Cookie and Set-Cookie read REDACTED, as cassettes write them; a
	// field named strAtmServiceKey holds the key's mask.
	Header http.Header `json:"headers"`
	// Body is the body's first bytes as UTF-8 text. A body in another
	// encoding (UTF-16, a charset of the content type) is decoded as the
	// mock read it, and Charset names the encoding.
	Body string `json:"body"`
	// Size is the body's length in bytes as sent; -1 when the mock did
	// not read it (a body it refused unread, or one on a path that takes
	// none).
	Size int64 `json:"size"`
	// Cut reports that the body is cut: Body holds its first bytes only,
	// Size says how long it was.
	Cut bool `json:"cut,omitempty"`
	// HeaderCut reports that the head was over half the limit: Header
	// holds the fields that fitted (in the order of their names), and the
	// request's path or query may be cut too.
	HeaderCut bool `json:"headerCut,omitempty"`
	// Charset names the encoding Body was decoded from ("utf-16le");
	// empty for a body read as UTF-8.
	Charset string `json:"charset,omitempty"`
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
	Source     string            `json:"source,omitempty"`

	Query    string          `json:"query,omitempty"`
	Request  *JournalMessage `json:"request,omitempty"`
	Response *JournalMessage `json:"response,omitempty"`
}

// MarshalJSON writes the entry as the admin API shows it: the binding by its
// short name, the duration as Go text ("1.2ms") and in milliseconds.
func (e JournalEntry) MarshalJSON() ([]byte, error) {
	j := journalEntryJSON{
		Seq: e.Seq, Time: e.Time, Method: e.Method, Path: e.Path, Operation: e.Operation,
		Params: e.Params, Status: e.Status, Duration: e.Duration.String(),
		DurationMS: float64(e.Duration) / float64(time.Millisecond), Error: e.Error, Fault: e.Fault,
		FaultKind: e.FaultKind, Source: e.Source,
	}
	if e.Binding != 0 {
		j.Binding = e.Binding.String()
	}
	j.Query = e.Query
	if e.Request.Header != nil {
		j.Request = &e.Request
	}
	if e.Response.Header != nil {
		j.Response = &e.Response
	}
	return marshalText(j)
}

// UnmarshalJSON reads an entry as MarshalJSON writes it (the admin API's
// GET /__admin/requests), so that Go code can read the journal of a mock
// it did not start (a container, atmkit serve) into []JournalEntry.
func (e *JournalEntry) UnmarshalJSON(data []byte) error {
	var j journalEntryJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*e = JournalEntry{Seq: j.Seq, Time: j.Time, Method: j.Method, Path: j.Path, Operation: j.Operation,
		Params: j.Params, Status: j.Status, Error: j.Error, Fault: j.Fault, FaultKind: j.FaultKind,
		Source: j.Source, Query: j.Query}
	if j.Binding != "" {
		b, err := asmx.ParseBinding(j.Binding)
		if err != nil {
			return fmt.Errorf("journal entry %d: %w", j.Seq, err)
		}
		e.Binding = b
	}
	if j.Duration != "" {
		d, err := time.ParseDuration(j.Duration)
		if err != nil {
			return fmt.Errorf("journal entry %d: duration: %w", j.Seq, err)
		}
		e.Duration = d
	}
	if j.Request != nil {
		e.Request = *j.Request
	}
	if j.Response != nil {
		e.Response = *j.Response
	}
	return nil
}

// RequestFilter selects journal entries. Zero fields match everything.
type RequestFilter struct {
	// Operation matches the operation name, ignoring case. "WSDL"
	// matches the fetches of the service description (?WSDL and ?disco),
	// the requests a Fault of operation WSDL matches, whose entries have
	// no Operation.
	Operation string
	// Binding matches the binding.
	Binding asmx.Binding
	// Status matches the HTTP status answered.
	Status int
	// Fault matches the id of the fault that took the call ("f1"): the
	// calls a fault answered, delayed or dropped, to count them.
	Fault string
	// Since matches the entries numbered after it (Seq > Since): what is
	// new since the last entry read.
	Since uint64
	// Limit keeps the newest Limit of the entries matched; 0 keeps all.
	Limit int
}

func (f RequestFilter) match(r *journalRecord) bool {
	e := &r.JournalEntry
	if f.Operation != "" {
		if strings.EqualFold(f.Operation, opWSDL) {
			if !r.describes {
				return false
			}
		} else if !strings.EqualFold(f.Operation, e.Operation) {
			return false
		}
	}
	if f.Status != 0 && f.Status != e.Status || e.Seq <= f.Since || f.Fault != "" && f.Fault != e.Fault {
		return false
	}
	return f.Binding == 0 || f.Binding == e.Binding
}

// journal is a bounded ring buffer of the latest requests. It grows as
// requests come, up to size entries, so a large size costs only what is
// kept.
type journal struct {
	mu      sync.Mutex // guards entries, next, full, seq, cleared, cross and readers
	entries []journalRecord
	size    int // the entries it keeps at most
	next    int // where the next entry goes
	full    bool
	seq     uint64
	// cleared counts the times reset emptied the journal, for a reader
	// polling with since to tell that the calls it listed are gone.
	cleared uint64
	// cross are the keys the journal's calls carried, masked in every
	// entry (journal_cross.go); gathered as the journal is read.
	cross crossKeys
	// emptied is when reset last emptied the journal: a call that
	// arrived before it and ended after it (a fault held it back) is not
	// journaled, so the journal after a reset holds the calls made after
	// it only, as WireMock's (whose journal takes a call as it arrives).
	emptied time.Time
	// readers counts the reads (read) holding copies of entries whose
	// kept bodies and calls they may still be reading: while there are
	// any, add reuses neither a dropped entry's bytes (ownBody) nor its
	// call (recycleCalls).
	readers int
	// recycleCalls: the calls of entries dropped are given back to asmx
	// for reuse (asmx.Call.Recycle), as nothing else holds them: not
	// with a Replayer, which is given the calls and might keep them.
	recycleCalls bool

	// bodyMax is what the journal keeps of each request and each answer,
	// in bytes (journal_keep.go); 0: no headers or bodies.
	bodyMax int
	// keys are the configured service keys, masked wherever they appear.
	keys []string
	// reqEncoding is the deployment's requestEncoding, which the mock
	// reads queries and forms in: a key read so is masked too.
	reqEncoding asmx.RequestEncoding
	// encode returns the first n bytes of the data set's answer to a call
	// (Server.firstBytes), for an answer the journal did not copy.
	encode func(c *asmx.Call, n int) []byte
}

// journalRecord is a journal entry as the journal keeps it: the entry
// without its Params, which are made from call only when the entry is read,
// so journaling a request costs no allocation. The call is not modified
// after decoding, so the parameters read later are those the request sent.
//
// The request and the answer are kept as they came (kept) until the entry
// is first read in full; they are then masked and cut (journal_show.go),
// and the result (shown) replaces them, so that each is masked once and the
// keys they held are no longer kept.
type journalRecord struct {
	JournalEntry
	call      *asmx.Call // nil unless the request decoded
	describes bool       // a fetch of the service description (?WSDL, ?wsdl=ID, ?disco)
	kept      keptCall   // as sent; empty once shown, or without bodies
	shown     *shownCall // masked; nil until first read in full
	// params are the call's parameters as shown (masked and cut), for a
	// call too large to keep (settle); nil otherwise, when entry makes
	// them from call.
	params map[string]string
	// pinned: the call's values may be parts of a text longer than the
	// journal keeps (journalSourceMax), which they would hold whole.
	pinned bool
}

// journalParamMax is how many bytes of a parameter's value the journal
// keeps and shows; a longer value is cut and ends with paramCutMark.
const journalParamMax = 1024

// paramText is a parameter's value as the journal shows it: keys masked,
// and cut to journalParamMax bytes, without the start of a key, marked
// with the value's length as sent.
func paramText(v string, keys []string) string {
	m := redact.Text(v, keys...)
	if len(m) <= journalParamMax {
		return m
	}
	return maskTail(cutText(m, journalParamMax-maskRoom(keys)), keys) + fmt.Sprintf(paramCutMark, len(v))
}

// paramCutMark ends a parameter's value cut by paramText.
const paramCutMark = "… (cut: %d bytes)"

// tooLarge reports whether the call holds a value, its key included,
// longer than the journal shows of it, or may hold a long text it was
// decoded from (pinned): such a call is not kept (settle).
func (r *journalRecord) tooLarge() bool {
	c := r.call
	if c == nil {
		return false
	}
	if r.pinned || len(c.Key) > journalParamMax {
		return true
	}
	for _, v := range c.Values {
		if len(v) > journalParamMax {
			return true
		}
	}
	return false
}

// settle masks and cuts a call too large to keep (a parameter of
// megabytes, which the record would otherwise hold whole until it left
// the journal) at once, its parameters and its request and answer, and
// lets the call go.
func (j *journal) settle(r *journalRecord) {
	r.params = r.entry(false, j.keys).Params
	for k, v := range r.params {
		r.params[k] = strings.Clone(v) // not a part of the request's text
	}
	if r.shown == nil {
		r.shown = j.show(r, nil)
	}
	r.kept, r.call = keptCall{}, nil
}

// entry returns the record as a JournalEntry of its own; full adds the
// query, the request and the answer, which must have been shown.
func (r *journalRecord) entry(full bool, keys []string) JournalEntry {
	e := r.JournalEntry
	if r.params != nil {
		// Masked when settled; again with the keys of the journal's
		// calls gathered since (journal_cross.go).
		e.Params = make(map[string]string, len(r.params))
		for k, v := range r.params {
			e.Params[k] = redact.Text(v, keys...)
		}
	} else if c := r.call; c != nil {
		e.Params = make(map[string]string, len(c.Op.Params))
		e.Params[asmx.ParamKey] = MaskKey(c.Key)
		ks := r.callKeys(keys)
		for _, p := range c.Params() {
			e.Params[p[0]] = paramText(p[1], ks)
		}
	}
	if sh := r.shown; sh != nil {
		e.Path = sh.path
		if full {
			e.Query = sh.query
			e.Request, e.Response = sh.req.clone(), sh.resp.clone()
		}
	} else {
		// As show masks it: the keys, and the key values of the query
		// (kept until the entry is shown; none without bodies).
		e.Path = redact.Text(e.Path, append(r.callKeys(keys), redact.Values(r.kept.query)...)...)
	}
	return e
}

// callKeys are the keys masked in an entry: the configured ones and the
// call's own. The slice has no room left, so that a caller appending to it
// copies: keys are the journal's, shared by concurrent reads.
func (r *journalRecord) callKeys(keys []string) []string {
	keys = keys[:len(keys):len(keys)]
	if r.call == nil || r.call.Key == "" {
		return keys
	}
	return append(keys, r.call.Key)
}

// newJournal returns a journal of size entries, keeping bodyMax bytes of
// each request and answer and masking keys; size 0 keeps nothing.
func newJournal(size, bodyMax int, keys []string) *journal {
	if size == 0 {
		bodyMax = 0
	}
	return &journal{entries: make([]journalRecord, 0, min(size, journalPrealloc)), size: size, bodyMax: bodyMax, keys: keys}
}

// journalPrealloc is how many entries a journal makes room for at once:
// the default size's, without growing while a load test runs.
const journalPrealloc = 4096

// enabled reports whether the journal keeps anything.
func (j *journal) enabled() bool { return j.size > 0 }

// add appends a copy of *e, dropping the oldest entry when the journal is
// full. e is the caller's, taken by pointer so that the record (over 600
// bytes) is copied once, into the journal.
func (j *journal) add(e *journalRecord) {
	if j.size == 0 {
		return
	}
	if e.tooLarge() {
		j.settle(e)
	}
	if j.bodyMax == 0 && len(e.Path) > journalParamMax {
		// No head is kept to bound the path in (keepCall): it is cut as a
		// parameter's value is, and so masked at once, as settle does.
		e.Path = paramText(e.Path, e.callKeys(j.keys))
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if e.Time.Before(j.emptied) {
		return // arrived before a reset: of the calls the reset removed
	}
	j.seq++
	e.Seq = j.seq
	if b := e.kept.reqBody; b != nil {
		e.kept.reqBody = j.ownBody(b)
	}
	if j.full && j.readers == 0 && j.recycleCalls {
		// The entry dropped is the last holder of its call.
		if old := j.entries[j.next].call; old != e.call {
			old.Recycle()
		}
	}
	if j.full {
		j.entries[j.next] = *e
	} else {
		j.entries = append(j.entries, *e)
	}
	j.next++
	if j.next == j.size {
		j.next, j.full = 0, true
	}
}

// ownBody returns a copy of b, a request body's first bytes as the
// exchange noted them (a part of the buffer the request was read into),
// for the entry add is about to keep. When the journal is full and no
// reader holds copies of its entries (readers), the bytes of the entry
// about to be dropped are reused if they fit closely: no allocation, and
// the bytes held stay what held counts, within the entry's room (a
// capacity of at most half of bodyMax is within any entry's).
// j.mu must be held.
func (j *journal) ownBody(b []byte) []byte {
	if j.full && j.readers == 0 {
		old := j.entries[j.next].kept.reqBody
		if len(b) <= cap(old) && cap(old) <= min(len(b)+reuseSlack, j.bodyMax/2) {
			old = old[:len(b)]
			copy(old, b)
			return old
		}
	}
	return append(make([]byte, 0, len(b)), b...)
}

// reuseSlack is how many bytes longer than a body the dropped entry's may
// be for ownBody to reuse them: requests of one kind differ by a few bytes
// (the digits of a coordinate).
const reuseSlack = 32

// list returns copies of the entries f matches, oldest first; full adds
// each call's query, request and answer, masking those not yet shown.
// The masking runs outside the lock, so requests are not held up by a
// reader.
func (j *journal) list(f RequestFilter, full bool) []JournalEntry {
	return j.read(f.match, f.Limit, full)
}

// one returns entry seq in full, if the journal holds it.
func (j *journal) one(seq uint64) (JournalEntry, bool) {
	es := j.read(func(r *journalRecord) bool { return r.Seq == seq }, 0, true)
	if len(es) == 0 {
		return JournalEntry{}, false
	}
	return es[0], true
}

// read returns copies of the entries match takes, oldest first, the newest
// limit of them if limit is positive; full: see list. match sees every
// entry (the admin API counts the matches with it), newest first; only
// the entries returned are copied, so a poll for the newest few of a full
// journal holds the lock, and memory, for those few, not for the whole
// journal.
func (j *journal) read(match func(*journalRecord) bool, limit int, full bool) []JournalEntry {
	j.mu.Lock()
	j.readers++ // until it is done with the copies (their bodies and calls)
	var recs []journalRecord
	var slots []int
	visit := func(from, to int) { // newest first
		for i := to - 1; i >= from; i-- {
			if match(&j.entries[i]) && (limit <= 0 || len(recs) < limit) {
				recs, slots = append(recs, j.entries[i]), append(slots, i)
			}
		}
	}
	visit(0, j.next)
	if j.full {
		visit(j.next, len(j.entries))
	}
	cross := j.crossKeys()
	j.mu.Unlock()
	slices.Reverse(recs)
	slices.Reverse(slots)
	crossKs := crossKeysOf(cross)

	type freshShown struct {
		i   int
		was *shownCall // what the journal held
	}
	var fresh []freshShown // records shown here for the first time, or masked again
	out := make([]JournalEntry, len(recs))
	for i := range recs {
		r := &recs[i]
		if was := r.shown; full && was == nil && j.bodyMax > 0 {
			r.shown = j.show(r, crossKs)
			r.shown.cross = cross
			fresh = append(fresh, freshShown{i, was})
		} else if was != nil {
			if more := newKeys(cross, was.cross); len(more) > 0 {
				r.shown = was.remask(pickCross(crossKs, more))
				r.shown.cross = cross
				fresh = append(fresh, freshShown{i, was})
			}
		}
		out[i] = r.entry(full, r.entryKeys(j.keys, crossKs))
	}
	j.mu.Lock()
	j.readers--
	for _, f := range fresh {
		if slots[f.i] >= len(j.entries) { // emptied meanwhile
			continue
		}
		if slot := &j.entries[slots[f.i]]; slot.Seq == recs[f.i].Seq && slot.shown == f.was {
			slot.shown, slot.kept = recs[f.i].shown, keptCall{}
		}
	}
	j.mu.Unlock()
	return out
}

// last returns the seq of the newest call journaled, 0 before the first
// (it keeps counting when the journal is emptied or drops entries), and
// how many times reset emptied the journal.
func (j *journal) last() (seq, cleared uint64) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.seq, j.cleared
}

// reset empties the journal and returns how many entries it held. Sequence
// numbers keep counting. A call that arrived before it is not journaled
// after it (emptied).
func (j *journal) reset() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.emptied = time.Now()
	j.cleared++
	n := len(j.entries)
	clear(j.entries)
	j.entries = j.entries[:0]
	j.next, j.full = 0, false
	return n
}

// held sums the bytes the journal holds of requests and answers: paths,
// queries, header fields and bodies, as kept or as shown.
func (j *journal) held() int {
	j.mu.Lock()
	defer j.mu.Unlock()
	n := 0
	for i := range j.entries {
		r := &j.entries[i]
		if r.shown != nil {
			n += r.shown.held()
		} else {
			n += r.kept.held(r.Path)
		}
	}
	return n
}

// MaskKey hides a service key for journals, logs and banners: atmkit's one
// masking rule, six characters whatever the key's length. A key of eight
// characters or more shows its first two ("te****"), a shorter one none
// ("******"). An empty key stays empty.
func MaskKey(k string) string { return redact.Key(k) }

// recordOf makes the journal record of a finished exchange.
func recordOf(r *http.Request, ex *exchange, status int, d time.Duration) journalRecord {
	method, path := r.Method, r.URL.Path
	e := JournalEntry{Time: ex.start, Method: method, Path: path, Binding: ex.binding, Status: status,
		Duration: d, Fault: ex.fault, FaultKind: ex.faultKind, Error: ex.note, Source: ex.source}
	if ex.err != nil {
		e.Error = ex.err.Kind
	}
	if ex.call != nil {
		e.Operation = ex.call.Op.Name
	}
	// A call decoded from a form body or a query holds its values as
	// parts of that text (url.ParseQuery does not copy what needs no
	// unescaping): a long one would be held whole with the call.
	pinned := ex.call != nil && (ex.bodySize > journalSourceMax || len(r.URL.RawQuery) > journalSourceMax)
	return journalRecord{JournalEntry: e, call: ex.call, describes: ex.describes, pinned: pinned}
}

// journalSourceMax is the longest request body or query whose call the
// journal keeps as decoded; the call of a longer one is settled at once.
const journalSourceMax = 4 * journalParamMax

// Journal returns copies of the journaled requests f matches, oldest
// first, each with its request and answer (keys masked); RequestFilter{}
// matches all of them.
//
// A call is journaled as the handler returns. A TestServer holds each
// answer back until then, so a client that has read its answer finds the
// call here at once; a Server mounted in a server of one's own gives no
// such promise: its client may read a long answer (ReturnAllAtms) before
// the call is journaled.
func (s *Server) Journal(f RequestFilter) []JournalEntry { return s.journal.list(f, true) }

// ResetJournal empties the journal. Sequence numbers keep counting. A
// call that arrived before it and ends after it (a fault holds it back)
// is not journaled.
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

// WithJournalBodyMax sets how many bytes the journal keeps of each request
// and of each answer (default DefaultJournalBodyMax): the path, query and
// header fields (up to half of it; beyond, the fields that fit, marked
// HeaderCut) and the body's first bytes (the rest cut, marked Cut). The
// journal's requests and answers thus hold at most twice n bytes per entry.
// 0 keeps no headers or bodies, and of a path its first 1 KB, cut and
// marked as a parameter's value is; n must not be negative.
func WithJournalBodyMax(n int) Option {
	return func(c *config) error {
		if n < 0 {
			return fmt.Errorf("journal body max %d is negative", n)
		}
		c.journalBodyMax = n
		return nil
	}
}

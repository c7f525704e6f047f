package mockserver

import (
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/redact"
)

// HeldCall is a call a fault holds back right now (a delay, a dribble),
// as the admin API lists it: such a call is journaled only when its
// answer has gone, so a long delay would otherwise show nowhere.
type HeldCall struct {
	// Method and Path are the request's HTTP method and URL path (keys
	// masked, as the journal masks them).
	Method string `json:"method"`
	Path   string `json:"path"`
	// Operation is the operation called ("WSDL" for a fetch of the
	// service description); Binding the binding, empty for WSDL.
	Operation string `json:"operation,omitempty"`
	Binding   string `json:"binding,omitempty"`
	// Fault and FaultKind name the fault holding the call.
	Fault     string `json:"fault"`
	FaultKind string `json:"faultKind"`
	// Since is when the request arrived.
	Since time.Time `json:"since"`
}

// heldCalls are the calls faults hold back, by exchange.
type heldCalls struct {
	mu    sync.Mutex
	calls map[*exchange]HeldCall
}

// hold notes that a fault holds ex back; the caller releases it.
func (h *heldCalls) hold(ex *exchange, c HeldCall) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.calls == nil {
		h.calls = map[*exchange]HeldCall{}
	}
	h.calls[ex] = c
}

// release notes that ex is no longer held.
func (h *heldCalls) release(ex *exchange) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.calls, ex)
}

// list returns the calls held, the oldest first.
func (h *heldCalls) list() []HeldCall {
	h.mu.Lock()
	out := make([]HeldCall, 0, len(h.calls))
	for _, c := range h.calls {
		out = append(out, c)
	}
	h.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].Since.Before(out[j].Since) })
	return out
}

// holds reports whether filter f's operation, binding and fault take c,
// as they take the calls answered; a held call has no status or seq yet,
// and f's others are of the journal's entries.
func (f RequestFilter) holds(c HeldCall) bool {
	return (f.Operation == "" || strings.EqualFold(f.Operation, c.Operation)) &&
		(f.Binding == 0 || f.Binding.String() == c.Binding) && (f.Fault == "" || f.Fault == c.Fault)
}

// heldCallOf describes ex, a call of op in binding b that fault f holds.
func (s *Server) heldCallOf(ex *exchange, op string, b asmx.Binding, f *Fault) HeldCall {
	c := HeldCall{Method: ex.req.Method, Path: s.maskedPath(ex), Operation: op, Fault: f.ID, FaultKind: f.kind(), Since: ex.start}
	if b != 0 {
		c.Binding = b.String()
	}
	return c
}

// maskedPath is ex's URL path with the keys masked (masked).
func (s *Server) maskedPath(ex *exchange) string {
	return s.masked(ex.req.URL.Path, ex, ex.req.URL.Path)
}

// masked is text (a URL path, an error text) with the keys masked as the
// journal masks them: the configured ones, the call's own and a key the
// request's URL path names (a URL built with & for ?:
// /service.asmx/Op&strAtmServiceKey=...). A request that did not decode
// has the keys its query and the body's first bytes the journal keeps
// name masked instead of the call's: its error, or its path, may echo
// one (intCityID=KEY, .../service.asmx/KEY). A mock that takes any key
// masks the keys of its calls answered 200 so far too (noted). The
// configured keys' forms are found once (keyMask), as the request log
// masks every call.
func (s *Server) masked(text string, ex *exchange, path string) string {
	var buf [4]string
	more := buf[:0]
	if ex.call != nil && ex.call.Key != "" {
		more = append(more, ex.call.Key)
	} else if ex.req != nil {
		if q := ex.req.URL.RawQuery; holdsKeyParam(q) {
			more = append(more, redact.EncodedValues(q)...)
		}
		if len(ex.body) > 0 && redact.HasParamName(string(ex.body)) {
			more = append(more, redact.Values(string(ex.body))...)
		}
	}
	if holdsKeyParam(path) {
		more = append(more, redact.Values(path)...)
	}
	return s.noted.mask(s.keyMask.Text(text, more...))
}

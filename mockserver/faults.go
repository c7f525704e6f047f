package mockserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/httpbuf"
)

// Fault is a failure the mock server injects into the calls it matches, so a
// client can test its timeouts, retries and error handling. A fault applies
// after the request decoded, before the service key is checked; requests that
// fail to decode and requests for the documentation are never faulted.
//
// When several faults match a call, the oldest applies. A fault with Times
// set counts down each time it applies and removes itself at zero, so faults
// added one after the other with Times 1 play out in order.
//
// A fault delays the answer by Delay plus a random part of Jitter, then does
// at most one of: Drop, Malformed, SOAPFault (with Status, if set, as its
// HTTP status), or Status alone. A fault with only a delay answers normally
// after it.
type Fault struct {
	// ID identifies the fault; the server assigns it ("f1", "f2", ...).
	ID string
	// Operation is the operation the fault applies to; empty means every
	// operation. Matched ignoring case and stored with the document's spelling.
	Operation string
	// Binding is the binding the fault applies to; 0 means every binding.
	Binding asmx.Binding
	// Delay holds the answer back this long. The delay ends early when the
	// client goes away or the server closes.
	Delay time.Duration
	// Jitter adds a random extra delay from 0 to Jitter.
	Jitter time.Duration
	// Status is the HTTP status to answer with. Alone it answers with an
	// HTTP.sys-style HTML error page, as IIS does for 503 and the like.
	Status int
	// SOAPFault answers as if the service threw a SoapException, in the
	// call's binding form: a fault envelope of the request's SOAP version,
	// ASMX's text/plain error for HTTP GET, POST and the JSON path (or the
	// ASP.NET AJAX JSON error with WithJSONErrors). HTTP 500 unless Status
	// is set.
	SOAPFault *SOAPFault
	// Drop closes the connection without answering.
	Drop bool
	// Malformed answers 200 with the normal body cut in half, so the body is
	// neither well-formed XML nor valid JSON.
	Malformed bool
	// Times is how many calls the fault applies to before it removes
	// itself; 0 means until it is removed. Listings show how many remain.
	Times int
}

// SOAPFault is the fault an injected Fault answers with.
type SOAPFault struct {
	// Code is Client or Server (SOAP 1.2's Sender and Receiver are accepted
	// as their synonyms), or VersionMismatch; an optional "soap:" prefix is
	// ignored. Empty means Server.
	Code string `json:"code,omitempty"`
	// Text is the faultstring (SOAP 1.1) or Reason text (SOAP 1.2).
	Text string `json:"text,omitempty"`
}

// defaultFaultText is the text of a Server fault given no text, as ASMX
// words an exception the service did not mean to throw;
// defaultClientFaultText that of any other code.
const (
	defaultFaultText       = "Server was unable to process request. ---> Injected fault."
	defaultClientFaultText = "Injected fault."
)

// faultJSON is the JSON form of a Fault (the admin API, --fault, the config file).
type faultJSON struct {
	ID        string     `json:"id,omitempty"`
	Operation string     `json:"operation,omitempty"`
	Binding   string     `json:"binding,omitempty"`
	Delay     string     `json:"delay,omitempty"`
	Jitter    string     `json:"jitter,omitempty"`
	Status    int        `json:"status,omitempty"`
	SOAPFault *SOAPFault `json:"soapFault,omitempty"`
	Drop      bool       `json:"drop,omitempty"`
	Malformed bool       `json:"malformed,omitempty"`
	Times     int        `json:"times,omitempty"`
}

// MarshalJSON writes the fault as the admin API lists it: the binding by its
// short name ("soap12"), durations as Go text ("400ms").
func (f Fault) MarshalJSON() ([]byte, error) {
	j := faultJSON{ID: f.ID, Operation: f.Operation, Status: f.Status, SOAPFault: f.SOAPFault,
		Drop: f.Drop, Malformed: f.Malformed, Times: f.Times}
	if f.Binding != 0 {
		j.Binding = f.Binding.String()
	}
	if f.Delay != 0 {
		j.Delay = f.Delay.String()
	}
	if f.Jitter != 0 {
		j.Jitter = f.Jitter.String()
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads a fault such as
// {"operation":"ReturnProvinces","binding":"soap12","delay":"400ms"}.
// Unknown fields are an error, so a misspelt field does not pass silently.
func (f *Fault) UnmarshalJSON(data []byte) error {
	var j faultJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return fmt.Errorf("fault: %w", err)
	}
	out := Fault{ID: j.ID, Operation: j.Operation, Status: j.Status, SOAPFault: j.SOAPFault,
		Drop: j.Drop, Malformed: j.Malformed, Times: j.Times}
	var err error
	if j.Binding != "" {
		if out.Binding, err = asmx.ParseBinding(strings.ToLower(j.Binding)); err != nil {
			return fmt.Errorf("fault binding: %w", err)
		}
	}
	if out.Delay, err = parseFaultDuration("delay", j.Delay); err != nil {
		return err
	}
	if out.Jitter, err = parseFaultDuration("jitter", j.Jitter); err != nil {
		return err
	}
	*f = out
	return nil
}

func parseFaultDuration(field, s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("fault %s %q: want a Go duration such as \"400ms\"", field, s)
	}
	return d, nil
}

// Check returns f as AddFault and WithFault would store it (but for the id
// they give it): the operation and the SOAP fault's code in their canonical
// spelling, a SOAP fault's default text filled in. An error says why they
// would refuse it.
// It is for code that reads faults before there is a server to add them
// to, as atmkit serve reads its --fault values.
func (f Fault) Check() (Fault, error) {
	f = cloneFault(&f)
	if err := f.normalize(); err != nil {
		return Fault{}, err
	}
	return f, nil
}

// normalize checks f and brings names to their canonical spelling.
func (f *Fault) normalize() error {
	if f.Operation != "" {
		op, ok := lookupOperation(f.Operation)
		if !ok {
			return fmt.Errorf("unknown operation %q", f.Operation)
		}
		f.Operation = op.Name
	}
	if f.Binding != 0 && !slices.Contains(asmx.Bindings, f.Binding) {
		return fmt.Errorf("unknown binding %d", int(f.Binding))
	}
	switch {
	case f.Delay < 0:
		return fmt.Errorf("delay %s is negative", f.Delay)
	case f.Jitter < 0:
		return fmt.Errorf("jitter %s is negative", f.Jitter)
	case f.Times < 0:
		return fmt.Errorf("times %d is negative", f.Times)
	case f.Status != 0 && (f.Status < 200 || f.Status > 599):
		return fmt.Errorf("status %d: want 200 to 599", f.Status)
	case f.Drop && (f.Malformed || f.Status != 0 || f.SOAPFault != nil):
		return errors.New("drop cannot be combined with status, soapFault or malformed")
	case f.Malformed && (f.Status != 0 || f.SOAPFault != nil):
		return errors.New("malformed cannot be combined with status or soapFault")
	case f.Delay == 0 && f.Jitter == 0 && f.Status == 0 && f.SOAPFault == nil && !f.Drop && !f.Malformed:
		return errors.New("a fault needs at least one of delay, jitter, status, soapFault, drop or malformed")
	}
	if sf := f.SOAPFault; sf != nil {
		code, ok := parseFaultCode(sf.Code)
		if !ok {
			return fmt.Errorf("soapFault code %q: want Client, Server, Sender, Receiver or VersionMismatch", sf.Code)
		}
		f.SOAPFault = &SOAPFault{Code: faultCodeName(code), Text: sf.Text}
		if f.SOAPFault.Text == "" {
			// ASMX writes "Server was unable to process request. ---> …"
			// only with the Server code.
			f.SOAPFault.Text = defaultFaultText
			if code != asmx.Server {
				f.SOAPFault.Text = defaultClientFaultText
			}
		}
	}
	return nil
}

func lookupOperation(name string) (*asmx.Operation, bool) {
	for _, op := range asmx.Operations() {
		if strings.EqualFold(op.Name, name) {
			return op, true
		}
	}
	return nil, false
}

func parseFaultCode(s string) (asmx.FaultCode, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.TrimPrefix(s, "soap:")
	switch s {
	case "", "server", "receiver":
		return asmx.Server, true
	case "client", "sender":
		return asmx.Client, true
	case "versionmismatch":
		return asmx.VersionMismatch, true
	}
	return 0, false
}

func faultCodeName(c asmx.FaultCode) string {
	switch c {
	case asmx.Client:
		return "Client"
	case asmx.VersionMismatch:
		return "VersionMismatch"
	}
	return "Server"
}

// asmxError is the error a SOAP fault answers with: the service throwing a
// SoapException of the fault's code and text, which every binding shows in
// its own form.
func (f *Fault) asmxError() *asmx.Error {
	code, _ := parseFaultCode(f.SOAPFault.Code)
	e := asmx.NewSoapExceptionError(code, f.SOAPFault.Text)
	if f.Status != 0 {
		e.Status = f.Status
	}
	return e
}

func (f *Fault) matches(op string, b asmx.Binding) bool {
	return (f.Operation == "" || f.Operation == op) && (f.Binding == 0 || f.Binding == b)
}

func cloneFault(f *Fault) Fault {
	out := *f
	if f.SOAPFault != nil {
		sf := *f.SOAPFault
		out.SOAPFault = &sf
	}
	return out
}

// faultSet holds the active faults in the order they were added.
type faultSet struct {
	mu     sync.Mutex // guards faults and nextID
	faults []*Fault
	nextID int

	// active mirrors len(faults), so the common case of no faults costs
	// no lock; it is written with mu held.
	active atomic.Int64
}

// add checks f, gives it an id and activates it.
func (fs *faultSet) add(f Fault) (Fault, error) {
	f = cloneFault(&f)
	if err := f.normalize(); err != nil {
		return Fault{}, err
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.nextID++
	f.ID = "f" + strconv.Itoa(fs.nextID)
	fs.faults = append(fs.faults, &f)
	fs.active.Store(int64(len(fs.faults)))
	return cloneFault(&f), nil
}

// take returns the oldest fault matching a call, counting it down.
func (fs *faultSet) take(op string, b asmx.Binding) (Fault, bool) {
	if fs.active.Load() == 0 {
		return Fault{}, false
	}
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for i, f := range fs.faults {
		if !f.matches(op, b) {
			continue
		}
		out := cloneFault(f)
		if f.Times > 0 {
			f.Times--
			if f.Times == 0 {
				fs.faults = slices.Delete(fs.faults, i, i+1)
				fs.active.Store(int64(len(fs.faults)))
			}
		}
		return out, true
	}
	return Fault{}, false
}

// list returns copies of the active faults, oldest first.
func (fs *faultSet) list() []Fault {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	out := make([]Fault, len(fs.faults))
	for i, f := range fs.faults {
		out[i] = cloneFault(f)
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

// AddFault activates f and returns it as stored, with its id.
func (s *Server) AddFault(f Fault) (Fault, error) { return s.faults.add(f) }

// Faults returns copies of the active faults, oldest first.
func (s *Server) Faults() []Fault { return s.faults.list() }

// RemoveFault deactivates the fault with id; it reports whether there was one.
func (s *Server) RemoveFault(id string) bool { return s.faults.remove(id) }

// ClearFaults deactivates every fault.
func (s *Server) ClearFaults() { s.faults.clear() }

// The journal's error kinds of requests answered without a response.
const (
	// noteCanceled: the client went away during an injected delay.
	noteCanceled = "Canceled"
	// noteDropped: a drop fault closed the connection.
	noteDropped = "Dropped"
)

// injectFault applies the oldest fault matching c, if any. It reports whether
// the request has been answered (or its connection dropped); false means the
// call is to be answered normally.
func (s *Server) injectFault(w http.ResponseWriter, ex *exchange, c *asmx.Call) bool {
	if ex.fault != "" { // the normal answer inside a malformed fault
		return false
	}
	f, ok := s.faults.take(c.Op.Name, c.Binding)
	if !ok {
		return false
	}
	ex.fault = f.ID
	if d := f.Delay + jitter(f.Jitter); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ex.ctx.Done():
			ex.note = noteCanceled
			s.drop(w, ex)
			return true
		}
	}
	switch {
	case f.Drop:
		ex.note = noteDropped
		s.drop(w, ex)
	case f.Malformed:
		s.writeMalformed(w, ex, c)
	case f.SOAPFault != nil:
		s.writeError(w, ex, c.Binding, f.asmxError())
	case f.Status != 0:
		writeStatusPage(w, f.Status)
	default:
		return false
	}
	return true
}

func jitter(max time.Duration) time.Duration {
	if max <= 0 {
		return 0
	}
	return time.Duration(rand.Int64N(int64(max) + 1))
}

// drop journals the request, then closes its connection without an answer:
// a client that sees the connection go can read the journal entry at once.
func (s *Server) drop(w http.ResponseWriter, ex *exchange) {
	s.observe(ex.req, ex, 0)
	ex.observed = true
	dropConnection(w)
}

// dropConnection closes the client's connection without an answer.
func dropConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// Not hijackable (HTTP/2, a recorder): abort the response instead.
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
}

// writeStatusPage answers with status and the HTML page HTTP.sys writes for it.
func writeStatusPage(w http.ResponseWriter, status int) {
	text := http.StatusText(status)
	if text == "" {
		text = "Error"
	}
	body := fmt.Sprintf("<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\"\"http://www.w3.org/TR/html4/strict.dtd\">\r\n"+
		"<HTML><HEAD><TITLE>%s</TITLE>\r\n<META HTTP-EQUIV=\"Content-Type\" Content=\"text/html; charset=us-ascii\"></HEAD>\r\n"+
		"<BODY><h2>%s</h2>\r\n<hr><p>HTTP Error %d. %s.</p>\r\n</BODY></HTML>\r\n", text, text, status, text)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=us-ascii")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// writeMalformed answers 200 with the first half of the normal answer's body.
func (s *Server) writeMalformed(w http.ResponseWriter, ex *exchange, c *asmx.Call) {
	bw := httpbuf.New(w)
	s.answer(bw, ex, c)
	body := bw.Body.Bytes()
	body = body[:len(body)/2]
	if len(body) == 0 {
		body = []byte("<")
	}
	h := w.Header()
	h.Set("Content-Type", bw.Header().Get("Content-Type"))
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// WithFault activates f from the start, as if added with AddFault. Faults are
// given ids in the order of their options.
func WithFault(f Fault) Option {
	return func(c *config) error {
		f = cloneFault(&f)
		if err := f.normalize(); err != nil {
			return fmt.Errorf("fault: %w", err)
		}
		c.faults = append(c.faults, f)
		return nil
	}
}

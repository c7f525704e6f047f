package mockserver

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/atmkit/atmkit/asmx"
)

// Fault is a failure the mock server injects into the calls it matches, so a
// client can test its timeouts, retries and error handling. A fault applies
// after the request decoded, before the service key is checked; requests
// that fail to decode are never faulted, and of the documentation only the
// service description is, by a fault whose Operation is "WSDL".
//
// Which fault applies: each fault counts every call that matches its
// Operation and Binding. The oldest fault that selects a call applies; a
// fault passes over the first Skip calls it counts, and, with a
// Probability, the calls its draw passes over; such a call falls through to
// the younger faults, and with none, is answered normally. A fault with
// Times set counts down each time it applies and removes itself at zero, so
// faults added one after the other with Times 1 play out in order.
//
// A fault delays the answer by Delay plus a random part of Jitter plus a
// draw of DelayDistribution, then does at most one of: Garbage, Reset,
// Drop, Malformed, SOAPFault (with Status, if set, as its HTTP status), or
// Status alone; Dribble paces the body of the answer it gives (the normal
// one, a status page, a SOAP fault or a malformed body). A fault with only
// a delay answers normally after it.
//
// Reproducible runs: whether the k-th call a fault counts gets it depends
// only on Seed and k, and so do that call's delay draws (Jitter and
// DelayDistribution) and its Garbage bytes: a restarted mock with the same
// faults, called in the same order, fails the same calls in the same way.
type Fault struct {
	// ID identifies the fault: the one it is given (1 to 64 ASCII
	// letters, digits, '.', '_' or '-', starting with a letter or a
	// digit, no active fault's), or, when empty, one the server assigns
	// ("f1", "f2", ...), skipping those taken.
	ID string
	// Operation is the operation the fault applies to; empty means every
	// operation. Matched ignoring case and stored with the document's
	// spelling. "WSDL" matches fetches of the service description
	// (?WSDL in any case, ?disco, and ?wsdl=ID, a description the WSDL
	// imports) instead, and nothing else; help pages and schemas
	// (?schema=) are never faulted.
	Operation string
	// Binding is the binding the fault applies to; 0 means every binding.
	// A WSDL fault has none.
	Binding asmx.Binding
	// Delay holds the answer back this long. The delay ends early when the
	// client goes away or the server closes.
	Delay time.Duration
	// Jitter adds a random extra delay from 0 to Jitter.
	Jitter time.Duration
	// DelayDistribution adds a random extra delay drawn from a log-normal
	// or a uniform distribution (WireMock's delayDistribution).
	DelayDistribution *DelayDistribution
	// Status is the HTTP status to answer with, 200 to 599. Alone it
	// answers with an HTTP.sys-style HTML error page, as IIS does for 503
	// and the like (with no body for 204 and 304, which have none).
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
	// Dribble sends the header at once and the body in chunks spread over
	// a duration; the body arrives intact.
	Dribble *Dribble
	// Reset sends the status line, the header and the first bytes of the
	// body, then resets the connection (a TCP RST).
	Reset *Reset
	// Garbage sends random bytes instead of an HTTP answer, then closes
	// the connection.
	Garbage bool
	// Probability is the chance, more than 0 and at most 1, that a call
	// the fault counts gets it; 0 means 1.
	Probability float64
	// Seed seeds the fault's draws: which calls get it, their delays,
	// their garbage. 0 means 1.
	Seed int64
	// Skip lets the first Skip calls the fault counts pass; with Times it
	// makes a window (Skip 2, Times 1: the third call only).
	Skip int
	// Times is how many calls the fault applies to before it removes
	// itself; 0 means until it is removed. Listings show how many remain.
	// Only the calls that got the fault count.
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

// DelayDistribution is a random delay a Fault adds to its Delay, drawn
// anew for each call it applies to.
type DelayDistribution struct {
	// Type is "lognormal" (Median and Sigma: Median*exp(Sigma*N), N a
	// standard normal draw, so half the draws are below Median) or
	// "uniform" (Lower and Upper: any delay between them, both included).
	Type string
	// Median and Sigma are the log-normal distribution's median and the
	// standard deviation of its logarithm (more than 0; 0.5 puts two
	// draws in three within a factor 1.65 of the median).
	Median time.Duration
	Sigma  float64
	// Lower and Upper bound the uniform distribution.
	Lower, Upper time.Duration
}

// Dribble paces an answer's body: the header goes at once, the body in
// Chunks chunks of about the same size, the i-th sent Duration*i/Chunks
// after the header, so the body is complete Duration after the header.
type Dribble struct {
	// Chunks is how many chunks the body is cut into, 1 or more.
	Chunks int
	// Duration is the time from the header to the body's last chunk,
	// more than 0; it has no default.
	Duration time.Duration
}

// Reset is a connection reset in the middle of an answer.
type Reset struct {
	// AfterBytes is how many bytes of the body go out before the reset;
	// 0 resets before the body's first byte. The body is never complete:
	// of a body of AfterBytes bytes or fewer, all but the last byte go.
	AfterBytes int `json:"afterBytes"`
}

// defaultFaultText is the text of a Server fault given no text, as ASMX
// words an exception the service did not mean to throw;
// defaultClientFaultText that of any other code.
const (
	defaultFaultText       = "Server was unable to process request. ---> Injected fault."
	defaultClientFaultText = "Injected fault."
)

// opWSDL is the Operation of faults on fetches of the service description.
const opWSDL = "WSDL"

// The distributions of DelayDistribution.Type.
const (
	distLogNormal = "lognormal"
	distUniform   = "uniform"
)

// probabilityError is the refusal of a probability outside (0, 1].
func probabilityError(p float64) string {
	return fmt.Sprintf("probability %v: want more than 0 and at most 1", p)
}

// Check returns f as AddFault and WithFault would store it (but for the id
// they give one without): the operation, a distribution's type and the SOAP fault's
// code in their canonical spelling, a SOAP fault's default text filled in.
// An error says why they would refuse it, in one line naming the field.
// It is for code that reads faults before there is a server to add them
// to, as atmkit serve reads its --fault values.
func (f Fault) Check() (Fault, error) {
	f = cloneFault(&f)
	if err := f.normalize(); err != nil {
		return Fault{}, err
	}
	if f.ID != "" {
		if err := checkFaultID(f.ID); err != nil {
			return Fault{}, err
		}
	}
	return f, nil
}

// normalize checks f and brings names to their canonical spelling. Each
// refusal is one line naming the field (as the JSON form spells it).
func (f *Fault) normalize() error {
	switch {
	case strings.EqualFold(f.Operation, opWSDL):
		f.Operation = opWSDL
	case f.Operation != "":
		op, ok := lookupOperation(f.Operation)
		if !ok {
			return fmt.Errorf("unknown operation %q: want one of %s, or %s for the service description", f.Operation, strings.Join(operationNames(false), ", "), opWSDL)
		}
		f.Operation = op.Name
	}
	if f.Binding != 0 && !slices.Contains(asmx.Bindings, f.Binding) {
		return fmt.Errorf("unknown binding %d", int(f.Binding))
	}
	if op, ok := lookupOperation(f.Operation); ok && f.Binding == asmx.JSON && !op.JSON {
		return fmt.Errorf("operation %s with binding %s: the fault would never apply, the JSON path (%s) offers only %s", op.Name, f.Binding,
			asmx.JSONPath, strings.Join(operationNames(true), " and "))
	}
	switch {
	case f.Delay < 0:
		return fmt.Errorf("delay %s is negative", f.Delay)
	case f.Jitter < 0:
		return fmt.Errorf("jitter %s is negative", f.Jitter)
	case f.Times < 0:
		return fmt.Errorf("times %d is negative", f.Times)
	case f.Skip < 0:
		return fmt.Errorf("skip %d is negative", f.Skip)
	case math.IsNaN(f.Probability) || f.Probability < 0 || f.Probability > 1:
		return errors.New(probabilityError(f.Probability))
	case f.Status != 0 && (f.Status < 200 || f.Status > 599):
		return fmt.Errorf("status %d: want 200 to 599", f.Status)
	}
	if err := f.DelayDistribution.check(); err != nil {
		return err
	}
	if d := f.Dribble; d != nil {
		switch {
		case d.Chunks < 1:
			return fmt.Errorf("dribble chunks %d: want 1 or more", d.Chunks)
		case d.Duration < 0:
			return fmt.Errorf("dribble duration %s is negative", d.Duration)
		}
	}
	if r := f.Reset; r != nil && r.AfterBytes < 0 {
		return fmt.Errorf("reset afterBytes %d is negative", r.AfterBytes)
	}
	if err := f.checkCombination(); err != nil {
		return err
	}
	// A dribble over no time sends the body at once: a fault that does not
	// do what it says, as a WireMock or Hoverfly user would read it. There
	// is no default duration to fall back on.
	if d := f.Dribble; d != nil && d.Duration == 0 {
		return errors.New(`dribble duration missing (or 0s): want the time the body is spread over, such as "1s"`)
	}
	if f.Delay == 0 && f.Jitter == 0 && f.DelayDistribution == nil && f.Status == 0 && f.SOAPFault == nil &&
		!f.Drop && !f.Malformed && f.Dribble == nil && f.Reset == nil && !f.Garbage {
		return errors.New("a fault needs at least one of delay, jitter, delayDistribution, status, soapFault, drop, malformed, dribble, reset or garbage")
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

// checkCombination refuses the fields that cannot work together, naming
// the first field that cannot.
func (f *Fault) checkCombination() error {
	answers := []struct {
		name string
		set  bool
	}{
		{"status", f.Status != 0}, {"soapFault", f.SOAPFault != nil}, {"drop", f.Drop},
		{"malformed", f.Malformed}, {"dribble", f.Dribble != nil},
	}
	for _, whole := range []struct {
		name string
		set  bool
	}{{"garbage", f.Garbage}, {"reset", f.Reset != nil}} {
		if !whole.set {
			continue
		}
		for _, a := range answers {
			if a.set {
				return fmt.Errorf("%s cannot be combined with %s", whole.name, a.name)
			}
		}
	}
	switch {
	case f.Garbage && f.Reset != nil:
		return errors.New("garbage cannot be combined with reset")
	case f.Drop && (f.Malformed || f.Status != 0 || f.SOAPFault != nil):
		return errors.New("drop cannot be combined with status, soapFault or malformed")
	case f.Drop && f.Dribble != nil:
		return errors.New("dribble cannot be combined with drop")
	case f.Malformed && (f.Status != 0 || f.SOAPFault != nil):
		return errors.New("malformed cannot be combined with status or soapFault")
	case f.SOAPFault != nil && !bodyAllowed(f.Status):
		return fmt.Errorf("status %d cannot be combined with soapFault: a %d answer has no body", f.Status, f.Status)
	case f.Operation == opWSDL && f.SOAPFault != nil:
		return errors.New("soapFault cannot be given with operation WSDL: the service description is no call, and has no SOAP fault")
	case f.Operation == opWSDL && f.Binding != 0:
		return errors.New("binding cannot be given with operation WSDL: the service description is fetched in no binding")
	}
	if d := f.Dribble; d != nil {
		if most := satAdd(f.Delay, f.Jitter, f.DelayDistribution.typical(), d.Duration); most > WriteTimeout {
			return fmt.Errorf("dribble duration %s: with the delay (up to %s) it exceeds the server's write timeout %s", d.Duration,
				satAdd(f.Delay, f.Jitter, f.DelayDistribution.typical()), WriteTimeout)
		}
	}
	return nil
}

// check refuses a distribution that cannot be drawn from and spells its
// type in lower case; a nil distribution is fine.
func (d *DelayDistribution) check() error {
	if d == nil {
		return nil
	}
	d.Type = strings.ToLower(strings.TrimSpace(d.Type))
	switch d.Type {
	case distLogNormal:
		switch {
		case d.Median < 0:
			return fmt.Errorf("delayDistribution median %s is negative", d.Median)
		case d.Median == 0:
			// Every draw would be 0 (or, with a huge sigma, 0 times
			// infinity), as a delay of 0s would: refused alike.
			return errors.New(`delayDistribution median missing (or 0s): want the typical delay, such as "80ms"`)
		case !(d.Sigma > 0) || math.IsInf(d.Sigma, 0):
			return fmt.Errorf("delayDistribution sigma %v: want a number more than 0", d.Sigma)
		case d.Lower != 0 || d.Upper != 0:
			return errors.New("delayDistribution lower and upper: fields of the uniform distribution, not of lognormal")
		}
	case distUniform:
		switch {
		case d.Lower < 0:
			return fmt.Errorf("delayDistribution lower %s is negative", d.Lower)
		case d.Upper < d.Lower:
			return fmt.Errorf("delayDistribution lower %s is above upper %s", d.Lower, d.Upper)
		case d.Upper == 0:
			return errors.New(`delayDistribution upper missing (or 0s): want the longest delay, such as "200ms"`)
		case d.Median != 0 || d.Sigma != 0:
			return errors.New("delayDistribution median and sigma: fields of the lognormal distribution, not of uniform")
		}
	case "":
		return errors.New("delayDistribution type missing: want lognormal or uniform")
	default:
		return fmt.Errorf("delayDistribution type %q: want lognormal or uniform", d.Type)
	}
	return nil
}

// typical is the delay the write-timeout check counts for d: a uniform
// distribution's upper bound, a log-normal one's median (its draws have no
// upper bound; a longer one is cut to fit, see Fault.delay).
func (d *DelayDistribution) typical() time.Duration {
	switch {
	case d == nil:
		return 0
	case d.Type == distUniform:
		return d.Upper
	}
	return d.Median
}

// satAdd adds durations, stopping at the largest Duration rather than
// overflowing.
func satAdd(ds ...time.Duration) time.Duration {
	var sum time.Duration
	for _, d := range ds {
		if d > math.MaxInt64-sum {
			return math.MaxInt64
		}
		sum += d
	}
	return sum
}

// operationNames lists the operations' names in the document's order;
// jsonOnly, those also offered on the JSON path.
func operationNames(jsonOnly bool) []string {
	var out []string
	for _, op := range asmx.Operations() {
		if op.JSON || !jsonOnly {
			out = append(out, op.Name)
		}
	}
	return out
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
	// The journal's error kind is of the request; fault and faultKind say
	// what was injected. (A Client fault's kind would read
	// MalformedRequest, a Server fault's ServerError: neither happened.)
	e.Kind = ""
	return e
}

// matches reports whether the fault counts a call of op in binding b; op
// is opWSDL for a fetch of the service description, which only a WSDL
// fault matches.
func (f *Fault) matches(op string, b asmx.Binding) bool {
	if f.Operation == "" {
		return op != opWSDL && (f.Binding == 0 || f.Binding == b)
	}
	return f.Operation == op && (f.Binding == 0 || f.Binding == b)
}

// The kinds of faults, as the journal names them (JournalEntry.FaultKind).
const (
	kindDelay     = "delay"
	kindStatus    = "status"
	kindSOAPFault = "soapFault"
	kindDrop      = "drop"
	kindMalformed = "malformed"
	kindDribble   = "dribble"
	kindReset     = "reset"
	kindGarbage   = "garbage"
)

// kind is what the fault does to a call, as the journal names it: what it
// answers with (garbage, reset, drop, malformed, soapFault, status), else
// dribble, else delay.
func (f *Fault) kind() string {
	switch {
	case f.Garbage:
		return kindGarbage
	case f.Reset != nil:
		return kindReset
	case f.Drop:
		return kindDrop
	case f.Malformed:
		return kindMalformed
	case f.SOAPFault != nil:
		return kindSOAPFault
	case f.Status != 0:
		return kindStatus
	case f.Dribble != nil:
		return kindDribble
	}
	return kindDelay
}

func cloneFault(f *Fault) Fault {
	out := *f
	if f.SOAPFault != nil {
		sf := *f.SOAPFault
		out.SOAPFault = &sf
	}
	if f.DelayDistribution != nil {
		d := *f.DelayDistribution
		out.DelayDistribution = &d
	}
	if f.Dribble != nil {
		d := *f.Dribble
		out.Dribble = &d
	}
	if f.Reset != nil {
		r := *f.Reset
		out.Reset = &r
	}
	return out
}

// WithFault activates f from the start, as if added with AddFault. Faults
// without an ID are given ids in the order of their options, skipping the
// ids the other WithFault faults are given, later ones too.
func WithFault(f Fault) Option {
	return func(c *config) error {
		f = cloneFault(&f)
		if err := f.normalize(); err != nil {
			return fmt.Errorf("fault: %w", err)
		}
		if f.ID != "" {
			if err := checkFaultID(f.ID); err != nil {
				return err
			}
		}
		c.faults = append(c.faults, f)
		return nil
	}
}

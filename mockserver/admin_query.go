package mockserver

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/asmx"
)

// requestFilter reads the journal's filter from the admin API's query:
// operation, binding, status, since and limit.
func requestFilter(q url.Values) (RequestFilter, error) {
	var f RequestFilter
	// A misspelt or repeated parameter would be read as none, or as its
	// first value, and the list would hold calls its reader did not ask for.
	for name, vs := range q {
		switch name {
		case "operation", "binding", "status", "fault", "since", "limit", "summary":
		default:
			return f, fmt.Errorf("unknown parameter %.80q: want operation, binding, status, fault, since, limit or summary", name)
		}
		if len(vs) > 1 {
			return f, fmt.Errorf("parameter %s given %d times: give it once", name, len(vs))
		}
		if vs[0] == "" { // ?fault=$ID with ID unset: a filter read as none
			return f, fmt.Errorf("parameter %s is empty: give it a value, or leave it out", name)
		}
	}
	if op := q.Get("operation"); op != "" {
		o, ok := lookupOperation(op)
		switch {
		case strings.EqualFold(op, opWSDL):
			f.Operation = opWSDL
		case !ok:
			return f, fmt.Errorf("unknown operation %.80q: want one of %s, or %s for the service description", op, strings.Join(operationNames(false), ", "), opWSDL)
		default:
			f.Operation = o.Name
		}
	}
	if b := q.Get("binding"); b != "" {
		var err error
		if f.Binding, err = asmx.ParseBinding(strings.ToLower(b)); err != nil {
			return f, err
		}
	}
	if err := neverJournaled(f.Operation, f.Binding); err != nil {
		return f, err
	}
	if v := q.Get("status"); v != "" && v != "0" { // 0: see adminRequests
		n, ok := plainNumber(v)
		if !ok || n < 100 || n > 599 {
			return f, fmt.Errorf("status %.80q: want an HTTP status, 200 to 599 in decimal digits, or 0 for the calls answered with no response", v)
		}
		if err := neverAnswered(int(n)); err != nil {
			return f, fmt.Errorf("status %.80q: %w", v, err)
		}
		f.Status = int(n)
	}
	f.Fault = q.Get("fault")
	if err := neverFault(f.Fault); err != nil {
		return f, err
	}
	if v := q.Get("since"); v != "" {
		n, ok := plainNumber(v)
		if !ok {
			return f, fmt.Errorf("since %.80q: want an entry's seq (0 or more) in decimal digits", v)
		}
		f.Since = n
	}
	if v := q.Get("limit"); v != "" {
		n, ok := plainNumber(v)
		if !ok || n < 1 {
			return f, fmt.Errorf("limit %.80q: want a number of entries, 1 or more, in decimal digits", v)
		}
		f.Limit = int(min(n, math.MaxInt))
	}
	return f, nil
}

// neverJournaled says why no journal entry has operation op in binding
// b, or is nil when one can: the list would be empty whatever the app
// sent, and read as "no such call". The mock journals a fetch of the
// service description (WSDL) in no binding, and names an operation on the
// JSON path only for the operations it offers there (the others are
// unknown methods, journaled with no operation); faults refuse the same
// pairs (Fault.validate).
func neverJournaled(op string, b asmx.Binding) error {
	switch o, ok := lookupOperation(op); {
	case b == 0:
	case strings.EqualFold(op, opWSDL):
		return fmt.Errorf("operation %s with binding %s: no call is journaled so, the service description is fetched in no binding (leave binding out)", opWSDL, b)
	case ok && b == asmx.JSON && !o.JSON:
		return fmt.Errorf("operation %s with binding %s: no call is journaled so, the JSON path (%s) offers only %s", o.Name, b,
			asmx.JSONPath, strings.Join(operationNames(true), " and "))
	}
	return nil
}

// neverAnswered says why no journal entry has the HTTP status status, or
// is nil when one can: a 1xx status is no answer's (a fault's status and a
// recording's are 200 to 599, and the mock answers none of its own so).
func neverAnswered(status int) error {
	if status >= 100 && status < 200 {
		return errors.New("no call is journaled so, a 1xx status is never an answer's: want 200 to 599, or 0 for the calls answered with no response")
	}
	return nil
}

// neverFault says why no journal entry names the fault id, or is nil
// when one can (or id is empty): every fault's id passes checkFaultID,
// whether the mock gave it or it was given.
func neverFault(id string) error {
	if id == "" || checkFaultID(id) == nil {
		return nil
	}
	return fmt.Errorf("fault %.80q: no call is journaled so, a fault's id is 1 to %d ASCII letters, digits, '.', '_' or '-', starting with a letter or a digit (f1, or the id it was given)", id, maxFaultID)
}

// plainNumber reads v as the journal writes a number, decimal digits with
// no sign and no leading zero, and reports whether it is one. strconv
// reads +200 and 0200 as 200 too: a filter given so was taken for one the
// journal never writes, as a fault's integers are refused so (see
// "Numbers are spelled as JSON spells them" in docs/serving.md).
func plainNumber(v string) (uint64, bool) {
	if v == "" || v[0] < '0' || v[0] > '9' || len(v) > 1 && v[0] == '0' {
		return 0, false
	}
	n, err := strconv.ParseUint(v, 10, 64)
	return n, err == nil
}

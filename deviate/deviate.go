package deviate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/httpbuf"
	"github.com/atmkit/atmkit/internal/wire"
	"github.com/beevik/etree"
)

// ErrUnknown is returned by Wrap for a name it does not know.
var ErrUnknown = errors.New("unknown deviation")

// Info names one way Wrap can break the interface.
type Info struct {
	Name        string // as given to Wrap and atmkit serve --deviate
	Description string // one line: what goes wrong on the wire
}

// List lists every deviation Wrap knows, in a stable order.
func List() []Info {
	out := make([]Info, len(deviationTable))
	for i, d := range deviationTable {
		out[i] = Info{Name: d.name, Description: d.desc}
	}
	return out
}

// Wrap returns h wrapped so that it breaks the interface document in each
// of the named ways (see List), by rewriting requests on their way to h
// or h's answers on their way back. It exists to prove that a conformance
// check catches a deviation; never use it to serve real clients.
//
// h must not be nil (nor a nil pointer, such as the *mockserver.Server of a
// New that failed): that is an error, not a handler that panics on every
// request. With no names, Wrap returns h itself. Requests no named deviation
// touches (other bindings, help pages, the admin API) pass through
// unbuffered; the answers to those it touches are held whole to be
// rewritten, so a dribble fault of the mock reaches their clients as a
// delay, the body at once. Empty and repeated names are ignored; an
// unknown name is an error wrapping ErrUnknown that lists the valid ones.
//
// If h has a Namespace() string method (a *mockserver.Server has), answers are read
// in that namespace, else in the one each SOAP request uses. If h has a
// Keys() []string method, any-key-accepted substitutes the first key; with
// none it substitutes a placeholder that a server accepting any key accepts.
func Wrap(h http.Handler, names ...string) (http.Handler, error) {
	if h == nil {
		return nil, errors.New("deviate: Wrap(nil): want the handler to wrap, such as a *mockserver.Server")
	}
	if v := reflect.ValueOf(h); v.Kind() == reflect.Pointer && v.IsNil() {
		return nil, fmt.Errorf("deviate: Wrap of a nil %T: want the handler to wrap (did mockserver.New fail?)", h)
	}
	dv := &deviator{h: h, key: "any-key"}
	seen := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" || seen[n] {
			continue
		}
		seen[n] = true
		d := lookupDeviation(n)
		if d == nil {
			valid := make([]string, len(deviationTable))
			for i, d := range deviationTable {
				valid[i] = d.name
			}
			return nil, fmt.Errorf("%w %q (valid: %s)", ErrUnknown, n, strings.Join(valid, ", "))
		}
		dv.devs = append(dv.devs, d)
	}
	if len(dv.devs) == 0 {
		return h, nil
	}
	if n, ok := h.(interface{ Namespace() string }); ok {
		dv.ns = n.Namespace()
	}
	if k, ok := h.(interface{ Keys() []string }); ok {
		if keys := k.Keys(); len(keys) > 0 {
			dv.key = keys[0]
		}
	}
	return dv, nil
}

func lookupDeviation(name string) *deviation {
	for _, d := range deviationTable {
		if d.name == name {
			return d
		}
	}
	return nil
}

// deviator is the handler Wrap returns. It holds no mutable state.
type deviator struct {
	h    http.Handler
	ns   string // service namespace; "" reads it from each SOAP request
	key  string // an accepted service key, for any-key-accepted
	devs []*deviation
}

// wsdlBinding marks a request for the WSDL in devCall.binding.
const wsdlBinding asmx.Binding = -1

// peekLimit is how much of a request body the deviator reads to classify it:
// 4096 KB, ASP.NET's default maxRequestLength (and the mock's default cap).
// A larger body passes through as it came (the server refuses it anyway).
const peekLimit = 4096 << 10

// devCall is one request as the deviations see it.
type devCall struct {
	r       *http.Request // a clone the deviations may change
	binding asmx.Binding  // wsdlBinding for the WSDL
	op      string        // operation name; "" if unknown
	called  string        // the operation the client called, if a deviation changed op
	ns      string        // service namespace
	key     string        // an accepted key
	body    []byte        // request body (POST only)
}

// devAnswer is an answer the deviations may rewrite.
type devAnswer struct {
	status int
	header http.Header
	body   []byte
}

// deviation breaks the interface in one named way.
type deviation struct {
	name, desc string
	bindings   []asmx.Binding // the requests it touches
	request    func(c *devCall)
	response   func(c *devCall, a *devAnswer)
}

func (d *deviation) applies(b asmx.Binding) bool {
	for _, x := range d.bindings {
		if x == b {
			return true
		}
	}
	return false
}

// ServeHTTP applies the deviations that touch the request's binding.
func (dv *deviator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, op := classifyPath(r)
	if b == 0 || !dv.touches(b) {
		dv.h.ServeHTTP(w, r)
		return
	}
	c := &devCall{r: r.Clone(r.Context()), binding: b, op: op, ns: dv.ns, key: dv.key}
	if r.Method == http.MethodPost && r.Body != nil {
		head, err := io.ReadAll(io.LimitReader(r.Body, peekLimit+1))
		if err != nil || len(head) > peekLimit {
			// Unreadable or oversized: let the server answer it as it came.
			c.r.Body = io.NopCloser(io.MultiReader(bytes.NewReader(head), r.Body))
			dv.h.ServeHTTP(w, c.r)
			return
		}
		c.body = head
		if b.IsSOAP() {
			op, ns := soapOperation(head)
			c.op = op
			if c.ns == "" {
				c.ns = ns
			}
		}
	}
	for _, d := range dv.devs {
		if d.request != nil && d.applies(b) {
			d.request(c)
		}
	}
	if c.r.Method == http.MethodPost {
		c.r.Body, c.r.ContentLength = io.NopCloser(bytes.NewReader(c.body)), int64(len(c.body))
		c.r.Header.Del("Content-Length")
	}
	bw := httpbuf.New(w)
	dv.h.ServeHTTP(bw, c.r)
	if bw.Status == 0 {
		return // hijacked, or nothing written
	}
	a := &devAnswer{status: bw.Status, header: bw.Header(), body: bw.Body.Bytes()}
	for _, d := range dv.devs {
		if d.response != nil && d.applies(b) {
			d.response(c, a)
		}
	}
	for k, v := range a.header {
		w.Header()[k] = v
	}
	if w.Header().Get("Content-Length") != "" {
		w.Header().Set("Content-Length", strconv.Itoa(len(a.body)))
	}
	w.WriteHeader(a.status)
	_, _ = w.Write(a.body)
}

func (dv *deviator) touches(b asmx.Binding) bool {
	for _, d := range dv.devs {
		if d.applies(b) {
			return true
		}
	}
	return false
}

// classifyPath tells a request's binding (0: none a deviation touches;
// wsdlBinding for a GET of the WSDL) and, for GET, POST and JSON, its
// operation.
func classifyPath(r *http.Request) (asmx.Binding, string) {
	p := r.URL.Path
	switch {
	case strings.EqualFold(p, asmx.ServicePath) && r.Method == http.MethodGet:
		// The WSDL as ASMX reads the query: not ?wsdl&disco (the help
		// page), ?schema=x&wsdl (the schema) or ?wsdl=ID.
		if kind, _, _ := asmx.ParseDocsQuery(r.URL.RawQuery); kind == asmx.DocsWSDL {
			return wsdlBinding, ""
		}
	case strings.EqualFold(p, asmx.ServicePath) && r.Method == http.MethodPost:
		b, _, _ := asmx.SOAPVersion(r.Header.Get("Content-Type"))
		return b, ""
	case wire.HasPrefixFold(p, asmx.ServicePath+"/"):
		op := p[len(asmx.ServicePath)+1:]
		if r.Method == http.MethodPost {
			return asmx.HTTPPost, op
		}
		return asmx.HTTPGet, op
	case wire.HasPrefixFold(p, asmx.JSONPath+"/"):
		return asmx.JSON, p[len(asmx.JSONPath)+1:]
	}
	return 0, ""
}

// soapOperation returns the local name and namespace of the first element
// in a SOAP request's Body.
func soapOperation(body []byte) (op, ns string) {
	doc := etree.NewDocument()
	if doc.ReadFromBytes(body) != nil || doc.Root() == nil {
		return "", ""
	}
	for _, bd := range doc.Root().ChildElements() {
		if bd.Tag == "Body" {
			if kids := bd.ChildElements(); len(kids) > 0 {
				return kids[0].Tag, kids[0].NamespaceURI()
			}
		}
	}
	return "", ""
}

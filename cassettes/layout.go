package cassettes

import (
	"encoding/xml"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// Re-wrapping between SOAP and HTTP GET/POST needs to know how the
// deployment lays out an operation's result: a node (the one element in
// <OpResult> is the GET/POST document's root) or typed (<OpResult> holds
// the fields or items; in GET/POST they sit under a root named after the
// result's type, in the service namespace). The evidence, strongest first:
//
//  1. the deployment's own answers to the operation in both families: a
//     node when the GET/POST root is the element <OpResult> holds, typed
//     otherwise, and then the recorded root is the root to write;
//  2. the result shape the server was given (--shape): a typed result's
//     root or a DataSet's (DataSet, or a typed DataSet's own);
//  3. a WSDL the cassettes hold (atmkit record records ?WSDL fetches): the
//     HTTP GET/POST output message names the root of a typed result and no
//     element for a node;
//  4. the recording itself: over SOAP, one element is the document's own
//     form (the XML result is the document), several are a typed result,
//     whose root only 1-3 can name; over GET/POST, a root with
//     XmlSerializer's xsi and xsd declarations, or a DataSet's inline
//     schema, is a typed result's.

// opSamples are the first successes recorded for an operation over SOAP
// and over HTTP GET/POST, read for the layout of its result.
type opSamples struct{ soap, get *sample }

// sample is a recorded answer, parsed once when first needed.
type sample struct {
	r    *rendition
	once sync.Once
	doc  *xnode
}

// parsed returns the sample's document, or nil if it does not parse.
func (s *sample) parsed() *xnode {
	if s == nil {
		return nil
	}
	s.once.Do(func() { s.doc, _ = parseXML(s.r.body) })
	return s.doc
}

// noteSample keeps r as a sample of op if it is the first of its family.
// The caller holds ix.mu for writing.
func (ix *Index) noteSample(op string, r *rendition) {
	s := ix.samples[op]
	if s == nil {
		s = &opSamples{}
		ix.samples[op] = s
	}
	switch {
	case r.binding.IsSOAP() && s.soap == nil:
		s.soap = &sample{r: r}
	case (r.binding == asmx.HTTPGet || r.binding == asmx.HTTPPost) && s.get == nil:
		s.get = &sample{r: r}
	}
}

// sampleOf returns op's samples (nil ones when none was recorded).
func (ix *Index) sampleOf(op string) (soap, get *sample) {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if s := ix.samples[op]; s != nil {
		return s.soap, s.get
	}
	return nil, nil
}

// soapContent returns the element children of <OpResult> in a SOAP sample.
func soapContent(s *sample, op string) ([]*xnode, bool) {
	doc := s.parsed()
	if doc == nil {
		return nil, false
	}
	_, result, fault, err := soapResult(doc, op)
	if err != nil || fault {
		return nil, false
	}
	return result.elements(), true
}

// soapResultHasAttrs reports whether <OpResult> of a SOAP sample carries
// attributes: a typed result's own.
func soapResultHasAttrs(s *sample, op string) bool {
	doc := s.parsed()
	if doc == nil {
		return false
	}
	_, result, fault, err := soapResult(doc, op)
	return err == nil && !fault && hasDataAttrs(result)
}

// sameName reports whether two elements have the same name and namespace.
func sameName(a, b *xnode) bool { return a.local() == b.local() && a.space() == b.space() }

// recordedNS is the service namespace the recordings show: that of the
// first SOAP answer's <OpResponse>, else the WSDL's target namespace.
func (ix *Index) recordedNS() string {
	for _, op := range shape.Operations() {
		soap, _ := ix.sampleOf(op)
		if doc := soap.parsed(); doc != nil {
			if resp, _, _, err := soapResult(doc, op); err == nil {
				return resp.space()
			}
		}
	}
	if ix.wsdl != nil {
		return ix.wsdl.ns
	}
	return ""
}

// serviceNS is the namespace of a SOAP answer re-wrapped by v: the one the
// recordings show, else hint (a typed GET/POST root's), else the server's.
func (v *view) serviceNS(hint string) string {
	for _, ns := range []string{v.ix.recordedNS(), hint, v.ns} {
		if ns != "" {
			return ns
		}
	}
	return asmx.DefaultNamespace
}

// isTyped reports whether root, a recorded GET/POST answer of op, is a
// typed result's root (its content goes into <OpResult>) rather than a
// node (which goes in itself).
func (v *view) isTyped(op string, root *xnode) bool {
	soap, _ := v.ix.sampleOf(op)
	if els, ok := soapContent(soap, op); ok && soap != nil {
		return len(els) != 1 || !sameName(els[0], root) || soapResultHasAttrs(soap, op)
	}
	if v.sh != nil {
		if r := v.sh.Result(op); r != nil {
			return r.Layout == shape.Typed || r.Layout == shape.Dataset
		}
	}
	if w := v.ix.wsdl; w != nil {
		if name, ok := w.roots[op]; ok {
			return name.Local != ""
		}
	}
	_, xsi := root.declared("xsi")
	_, xsd := root.declared("xsd")
	return (xsi && xsd) || isDataSet(root.kids)
}

// getRoot returns the GET/POST root for result, the <OpResult> of op
// recorded over from, re-wrapped for to: nil for a node result (its
// element is the root). gap says why there is none.
func (v *view) getRoot(op string, from, to asmx.Binding, result *xnode) (root *getRoot, gap string) {
	els := result.elements()
	oneNode := len(els) == 1 && elementOnly(result.kids) && !hasDataAttrs(result)
	notNode := func(says string) string {
		return fmt.Sprintf("recorded over %s as %d elements, but %s says %s returns a node; pass a --shape that describes it to serve it over %s",
			from, len(els), says, op, to)
	}
	if _, get := v.ix.sampleOf(op); get != nil {
		if doc := get.parsed(); doc != nil {
			if r := doc.root(); !oneNode || !sameName(els[0], r) {
				return recordedRoot(r), ""
			}
			return nil, ""
		}
	}
	ns := v.serviceNS("")
	if v.sh != nil {
		if r := v.sh.Result(op); r != nil {
			switch {
			case r.Layout == shape.Typed || r.Layout == shape.Dataset:
				name := r.RootName(ns)
				return typedRoot(name.Local, name.Space, result.kids), ""
			case oneNode:
				return nil, ""
			}
			return nil, notNode("the shape")
		}
	}
	if w := v.ix.wsdl; w != nil {
		if name, ok := w.roots[op]; ok {
			switch {
			case name.Local != "":
				return typedRoot(name.Local, name.Space, result.kids), ""
			case oneNode:
				return nil, ""
			}
			return nil, notNode("the recorded WSDL")
		}
	}
	switch {
	case oneNode:
		return nil, ""
	case isDataSet(result.kids):
		return nil, fmt.Sprintf("recorded over %s as a DataSet, whose %s root only the deployment shows; record its ?WSDL, or a call of %s over %s, into the cassettes to serve it over %s",
			from, to, op, to, to)
	}
	return nil, fmt.Sprintf("recorded over %s as a typed result; pass --shape to serve it over %s (atmkit shape learn --cassette makes one)", from, to)
}

// wsdlRoots is what a recorded WSDL says of each operation's GET/POST
// answer: the root element of a typed result, or none for a node.
type wsdlRoots struct {
	ns    string              // the target (service) namespace
	roots map[string]xml.Name // operation → root; Local "" for a node
}

const nsWSDL = "http://schemas.xmlsoap.org/wsdl/"

// readWSDLRoots reads the HTTP GET and POST output messages of a WSDL.
func readWSDLRoots(data []byte) (*wsdlRoots, error) {
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(data); err != nil {
		return nil, fmt.Errorf("the WSDL does not parse: %w", err)
	}
	defs := doc.Root()
	if defs == nil || defs.Tag != "definitions" || defs.NamespaceURI() != nsWSDL {
		return nil, errors.New("not a WSDL 1.1 document")
	}
	w := &wsdlRoots{ns: defs.SelectAttrValue("targetNamespace", ""), roots: map[string]xml.Name{}}
	for _, m := range defs.SelectElements("message") {
		name := m.SelectAttrValue("name", "")
		for _, suffix := range []string{"HttpGetOut", "HttpPostOut"} {
			op, ok := strings.CutSuffix(name, suffix)
			if _, done := w.roots[op]; !ok || done {
				continue
			}
			part := m.SelectElement("part")
			if part == nil {
				continue
			}
			var root xml.Name
			if q := part.SelectAttrValue("element", ""); q != "" {
				prefix, local, found := strings.Cut(q, ":")
				if !found {
					prefix, local = "", q
				}
				root = xml.Name{Space: lookupPrefix(part, prefix), Local: local}
			}
			w.roots[op] = root
		}
	}
	return w, nil
}

// lookupPrefix resolves a prefix declared on e or an ancestor.
func lookupPrefix(e *etree.Element, prefix string) string {
	for ; e != nil; e = e.Parent() {
		for _, a := range e.Attr {
			if (prefix == "" && a.Space == "" && a.Key == "xmlns") || (prefix != "" && a.Space == "xmlns" && a.Key == prefix) {
				return a.Value
			}
		}
	}
	return ""
}

// Gap is what an Index cannot answer in some binding: recorded questions
// of an operation whose answers cannot be re-wrapped for it.
type Gap struct {
	Operation string
	Binding   asmx.Binding
	// Calls is how many recorded questions of Operation it applies to.
	Calls int
	// Reason says why, and what fixes it ("recorded over soap11 as a
	// typed result; pass --shape to serve it over get"); it is what a call
	// that hits the gap is answered with.
	Reason string
}

// String describes the gap in one line, as atmkit serve's banner lists it:
// "ReturnProvinces over get (2 recorded calls): recorded over soap11 …".
func (g Gap) String() string {
	return fmt.Sprintf("%s over %s (%s): %s", g.Operation, g.Binding, recorded.Plural(g.Calls, "recorded call"), g.Reason)
}

// gapKey groups gaps: an operation, the binding it cannot be answered in,
// and the binding re-wrapped for it (0 for a family gap).
type gapKey struct {
	op      string
	b, from asmx.Binding
}

// Gaps lists what a server with result shape sh (nil: none given) and
// service namespace ns cannot replay from the index, per operation and
// binding, in the document's order of operations and bindings. Each
// operation's first answer to re-wrap for a binding stands for the others.
func (ix *Index) Gaps(sh *shape.Shape, ns string) []Gap {
	v := &view{ix: ix, sh: sh, ns: ns}
	questions := map[gapKey]map[*entry]bool{}
	reasons := map[gapKey]string{}
	checks := map[gapKey]*rendition{} // the answer whose re-wrap is tried
	note := func(k gapKey, e *entry) {
		if questions[k] == nil {
			questions[k] = map[*entry]bool{}
		}
		questions[k][e] = true
	}
	ix.mu.RLock()
	for _, op := range shape.Operations() {
		o, _ := asmx.LookupOperation(op)
		for _, e := range ix.byOp[op] {
			canon := e.canonical()
			if len(e.by[asmx.JSON]) > 0 {
				if ix.entries["xml|"+canon] == nil {
					for _, b := range asmx.XMLBindings {
						k := gapKey{op: op, b: b}
						reasons[k] = familyGap([]string{asmx.JSON.String()}, b)
						note(k, e)
					}
				}
				continue
			}
			if o != nil && o.JSON && ix.entries["json|"+canon] == nil {
				k := gapKey{op: op, b: asmx.JSON}
				reasons[k] = familyGap(e.bindings(), asmx.JSON)
				note(k, e)
			}
			for _, b := range asmx.XMLBindings {
				for n := range e.count() {
					recorded, src := e.pick(b, n)
					if recorded != nil || src == nil || src.status != 200 {
						continue
					}
					k := gapKey{op, b, src.binding}
					if checks[k] == nil {
						checks[k] = src
					}
					note(k, e)
				}
			}
		}
	}
	ix.mu.RUnlock()
	for k, src := range checks {
		if _, gap := v.rewrapBody(k.op, src, k.b); gap != "" {
			reasons[k] = gap
		}
	}
	keys := make([]gapKey, 0, len(reasons))
	for k := range reasons {
		keys = append(keys, k)
	}
	ops := shape.Operations()
	slices.SortFunc(keys, func(a, b gapKey) int {
		if d := slices.Index(ops, a.op) - slices.Index(ops, b.op); d != 0 {
			return d
		}
		if a.b != b.b {
			return int(a.b - b.b)
		}
		return int(a.from - b.from)
	})
	gaps := make([]Gap, 0, len(keys))
	for _, k := range keys {
		gaps = append(gaps, Gap{Operation: k.op, Binding: k.b, Calls: len(questions[k]), Reason: reasons[k]})
	}
	return gaps
}

package cassettes

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"maps"
	"strings"

	"github.com/atmkit/atmkit/asmx"
)

// Re-wrapping a recorded answer for another binding, as ASMX writes each:
//
//   - SOAP 1.1 ↔ SOAP 1.2: the recorded document with the envelope's
//     namespace swapped; everything else, the content of <OpResult>
//     included, stays byte for byte.
//   - SOAP → HTTP GET/POST: the content of <OpResult>, under the GET/POST
//     root (typed results: the root named by the type, in the service
//     namespace; a node result is its own root), indented as ASMX's
//     XmlSerializer indents.
//   - HTTP GET/POST → SOAP: the root (a node) or its content (typed) in
//     <OpResult> of ASMX's envelope, unindented as its SOAP writer writes.
//
// Content moves as recorded: each top-level element gets the namespace
// declarations it relied on from the envelope or root it leaves, where its
// new one binds them differently.

// xmlDeclaration starts every ASMX XML answer.
const xmlDeclaration = `<?xml version="1.0" encoding="utf-8"?>`

// soapResult finds <OpResponse> and <OpResult> in a parsed SOAP answer.
// fault is true when the body holds a fault instead.
func soapResult(doc *xnode, op string) (resp, result *xnode, fault bool, err error) {
	env := doc.root()
	if env.local() != "Envelope" {
		return nil, nil, false, fmt.Errorf("the SOAP answer's root is <%s>, not an Envelope", env.name)
	}
	body := env.child("Body")
	if body == nil {
		return nil, nil, false, errors.New("the SOAP answer has no Body")
	}
	els := body.elements()
	if len(els) == 0 {
		return nil, nil, false, errors.New("the SOAP answer's Body is empty")
	}
	resp = els[0]
	if resp.local() == "Fault" {
		return resp, nil, true, nil
	}
	if result = resp.child(op + "Result"); result == nil {
		return nil, nil, false, fmt.Errorf("the SOAP answer has no <%sResult> in <%s>", op, resp.name)
	}
	return resp, result, false, nil
}

// swapEnvelope returns a recorded SOAP answer in the other SOAP version:
// the envelope namespace declared on its root, swapped.
func swapEnvelope(doc *xnode, to asmx.Binding) ([]byte, error) {
	env := doc.root()
	from, want := asmx.NamespaceSOAP11, asmx.NamespaceSOAP12
	if to == asmx.SOAP11 {
		from, want = want, from
	}
	name := "xmlns"
	if p := env.prefix(); p != "" {
		name += ":" + p
	}
	for _, a := range env.attrs {
		if a.name != name || a.value != from {
			continue
		}
		// The value sits just before the closing quote.
		end := a.end - 1
		start := end - len(a.value)
		out := make([]byte, 0, len(doc.src)+len(want)-len(from))
		out = append(out, doc.src[:start]...)
		out = append(out, want...)
		return append(out, doc.src[end:]...), nil
	}
	return nil, fmt.Errorf("the envelope <%s> does not declare %s as %s", env.name, name, from)
}

// soapScope is what ASMX's SOAP envelope binds around <OpResult>.
func soapScope(b asmx.Binding, ns string) nsScope {
	env := asmx.NamespaceSOAP11
	if b == asmx.SOAP12 {
		env = asmx.NamespaceSOAP12
	}
	return nsScope{"soap": env, "xsi": nsXSI, "xsd": nsXSD, "": ns}
}

// soapDocument writes content, moved out of scope from, as ASMX's answer
// to op in SOAP binding b with service namespace ns; attrs (a typed
// result's own attributes, as dataAttrs writes them) go on <OpResult>.
func soapDocument(b asmx.Binding, ns, op string, attrs resultAttrs, content []*xnode, from nsScope) []byte {
	env := asmx.NamespaceSOAP11
	if b == asmx.SOAP12 {
		env = asmx.NamespaceSOAP12
	}
	w := &xmlWriter{tags: movedTags(content, from, attrs.withScope(soapScope(b, ns)), false)}
	w.dst = append(w.dst, xmlDeclaration+`<soap:Envelope xmlns:soap="`...)
	w.dst = append(w.dst, env...)
	w.dst = append(w.dst, `" xmlns:xsi="`+nsXSI+`" xmlns:xsd="`+nsXSD+`"><soap:Body><`...)
	w.dst = append(w.dst, op...)
	w.dst = append(w.dst, `Response xmlns="`...)
	w.dst = append(w.dst, escapeAttr(ns)...)
	w.dst = append(w.dst, `"><`...)
	w.dst = append(w.dst, op...)
	w.dst = append(w.dst, "Result"...)
	w.dst = append(w.dst, attrs.raw...)
	switch {
	case !hasNonText(content) && elementOnly(content):
		w.dst = append(w.dst, " />"...)
	default:
		w.dst = append(w.dst, '>')
		w.content(content, 0)
		w.dst = append(w.dst, "</"...)
		w.dst = append(w.dst, op...)
		w.dst = append(w.dst, "Result>"...)
	}
	w.dst = append(w.dst, "</"...)
	w.dst = append(w.dst, op...)
	return append(w.dst, "Response></soap:Body></soap:Envelope>"...)
}

// content writes the content of a result at depth: element-only content
// re-laid out, anything with character data as recorded.
func (w *xmlWriter) content(nodes []*xnode, depth int) {
	if elementOnly(nodes) {
		w.nodes(nodes, depth)
		return
	}
	for _, n := range nodes {
		if n.kind == xElem {
			w.node(n, depth) // its start tag may have changed
			continue
		}
		w.dst = append(w.dst, n.bytes()...)
	}
}

// movedTags returns the changed start tags of content's top-level elements.
func movedTags(content []*xnode, from, to nsScope, dropEmptyDefault bool) map[*xnode][]byte {
	var tags map[*xnode][]byte
	for _, n := range content {
		if n.kind != xElem {
			continue
		}
		if t, ok := movedTag(n, from, to, dropEmptyDefault); ok {
			if tags == nil {
				tags = map[*xnode][]byte{}
			}
			tags[n] = t
		}
	}
	return tags
}

// getRoot is the root of a typed result's HTTP GET/POST document.
type getRoot struct {
	// head and tail are its start tag, e.g. <ArrayOfProvince xmlns:xsd=…
	// xmlns:xsi=… and xmlns="ns">: the result's own attributes go
	// between them, as XmlSerializer writes them (the default namespace
	// declaration last).
	head, tail []byte
	name       string  // its qualified name, for the end tag
	scope      nsScope // what it declares
}

// typedRoot is the root ASMX writes for a typed result named local in the
// service namespace ns: with the xsi and xsd declarations XmlSerializer
// writes, except for a DataSet (content starting with its inline
// xs:schema), which writes its own root and declares nothing else.
func typedRoot(local, ns string, content []*xnode) *getRoot {
	r := &getRoot{name: local, scope: nsScope{"": ns}}
	r.head = []byte("<" + local)
	if !isDataSet(content) {
		r.head = append(r.head, ` xmlns:xsd="`+nsXSD+`" xmlns:xsi="`+nsXSI+`"`...)
		r.scope["xsd"], r.scope["xsi"] = nsXSD, nsXSI
	}
	if ns != "" {
		r.tail = append(r.tail, ` xmlns="`...)
		r.tail = append(r.tail, escapeAttr(ns)...)
		r.tail = append(r.tail, '"')
	}
	r.tail = append(r.tail, '>')
	return r
}

// recordedRoot takes the root of a recorded GET/POST answer as the root to
// write: its name and namespace declarations as recorded (the default one
// last), without the attributes of the answer it was recorded with, nor
// the declarations of their prefixes (the answer written declares its own,
// resultAttrs).
func recordedRoot(root *xnode) *getRoot {
	r := &getRoot{name: root.name, scope: scopeAt(root), head: []byte("<" + root.name)}
	theirs := map[string]bool{}
	for _, a := range root.attrs {
		if _, decl := declPrefix(a.name); !decl {
			if p, _, ok := strings.Cut(a.name, ":"); ok && p != "xsi" && p != "xsd" {
				theirs[p] = true
			}
		}
	}
	var def []byte
	for _, a := range root.attrs {
		p, decl := declPrefix(a.name)
		switch {
		case decl && theirs[p]:
			delete(r.scope, p)
		case decl && p == "":
			def = append(def, ' ')
			def = append(def, root.src[a.start:a.end]...)
		case decl:
			r.head = append(r.head, ' ')
			r.head = append(r.head, root.src[a.start:a.end]...)
		}
	}
	r.tail = append(def, '>')
	return r
}

// soapResultDepth is the depth of <OpResult> in ASMX's SOAP envelope
// (Envelope, Body, <OpResponse>, <OpResult>).
const soapResultDepth = 4

// resultAttrs are a typed result's own attributes, which <OpResult> and the
// GET/POST root carry alike.
type resultAttrs struct {
	raw   []byte  // as written in the start tag, each after a space
	scope nsScope // the namespaces raw declares
}

// withScope returns s with what a's declarations bind added.
func (a resultAttrs) withScope(s nsScope) nsScope {
	if len(a.scope) == 0 {
		return s
	}
	out := maps.Clone(s)
	if out == nil {
		out = nsScope{}
	}
	maps.Copy(out, a.scope)
	return out
}

// dataAttrs writes the attributes of n that are no namespace declaration,
// as recorded, and the declarations of the prefixes they use that n makes.
func dataAttrs(n *xnode) resultAttrs {
	var out resultAttrs
	used := map[string]bool{}
	for _, a := range n.attrs {
		if _, decl := declPrefix(a.name); decl {
			continue
		}
		out.raw = append(out.raw, ' ')
		out.raw = append(out.raw, n.src[a.start:a.end]...)
		if p, _, ok := strings.Cut(a.name, ":"); ok {
			used[p] = true
		}
	}
	for _, a := range n.attrs {
		if p, decl := declPrefix(a.name); decl && p != "" && used[p] && p != "xsi" && p != "xsd" {
			out.raw = append(out.raw, ' ')
			out.raw = append(out.raw, n.src[a.start:a.end]...)
			if out.scope == nil {
				out.scope = nsScope{}
			}
			out.scope[p] = html.UnescapeString(a.value)
		}
	}
	return out
}

// hasDataAttrs reports whether n has attributes other than namespace
// declarations: a typed result's, never a node's wrapper.
func hasDataAttrs(n *xnode) bool {
	for _, a := range n.attrs {
		if _, decl := declPrefix(a.name); !decl {
			return true
		}
	}
	return false
}

// isDataSet reports whether a result's content is a DataSet's: an inline
// XML schema first.
func isDataSet(content []*xnode) bool {
	for _, n := range content {
		if n.kind == xElem {
			return n.local() == "schema" && n.space() == nsXSD
		}
	}
	return false
}

// getDocument writes content, moved out of scope from, as ASMX's HTTP
// GET/POST answer: under root, with attrs (the result's own attributes)
// on it, or, when root is nil, content's one element is the root (a node
// result).
// Its lines are broken with nl, the deployment's line end (Index.lineEnd).
func getDocument(root *getRoot, attrs resultAttrs, content []*xnode, from nsScope, nl string) ([]byte, error) {
	w := &xmlWriter{indent: true, nl: nl}
	w.dst = append(w.dst, xmlDeclaration+nl...)
	if root == nil {
		var el *xnode
		for _, n := range content {
			switch {
			case n.kind == xElem && el == nil:
				el = n
			case n.kind == xElem:
				return nil, errors.New("the result holds more than one element")
			case n.kind == xText && !isIndentation(n), n.kind == xCDATA:
				return nil, errors.New("the result holds text beside its element")
			}
		}
		if el == nil {
			return nil, errors.New("the result is empty")
		}
		w.tags = movedTags([]*xnode{el}, from, nsScope{}, true)
		w.node(el, 0)
		return w.dst, nil
	}
	w.tags = movedTags(content, from, attrs.withScope(root.scope), false)
	w.dst = append(w.dst, root.head...)
	w.dst = append(w.dst, attrs.raw...)
	w.dst = append(w.dst, root.tail...)
	if !hasNonText(content) && elementOnly(content) {
		w.dst = append(bytes.TrimSuffix(w.dst, []byte(">")), " />"...)
		return w.dst, nil
	}
	w.content(content, 1)
	if elementOnly(content) {
		w.newline(0)
	}
	w.dst = append(w.dst, "</"...)
	w.dst = append(w.dst, root.name...)
	return append(w.dst, '>'), nil
}

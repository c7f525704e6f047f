package mockserver

import (
	"slices"
	"strconv"

	"github.com/atmkit/atmkit/shape"
)

// The help pages' sample of a typed result, as .NET's help generator
// (DefaultWsdlHelpGenerator.aspx: WriteElement, WriteComplexType) writes
// one from the WSDL with an XmlTextWriter: the fields with their XSD types
// as placeholders, every list with two items (maxArraySize), a class
// deeper than maxObjectGraphDepth empty and nil.

// sampleMaxDepth is the generator's maxObjectGraphDepth: an element of a
// class at this depth or deeper (the SOAP answer's OpResponse, or the
// GET/POST root, is at depth 0) is written empty with xsi:nil="true".
const sampleMaxDepth = 4

// sampleXSI is the namespace of the nil attribute.
const sampleXSI = "http://www.w3.org/2001/XMLSchema-instance"

// typedSample writes a typed result's sample into p. Its depths are
// indentation depths (an element at depth d is the XmlTextWriter's
// element d+1, whose prefixes are d<d+1>p<n>); lift is the depth of the
// generator's depth 0.
type typedSample struct {
	p       *pieces
	service string
	lift    int
	soap    bool        // the envelope declares the xsi prefix
	scope   []nsBinding // the prefixes the writer made, innermost last
}

// nsBinding is a prefix bound to a namespace.
type nsBinding struct{ prefix, ns string }

// newTypedSample starts a sample in p for service namespace service: in a
// SOAP envelope (soap; OpResponse at depth 2), or as a GET/POST document
// (its root at depth 0).
func newTypedSample(p *pieces, service string, soap bool) *typedSample {
	s := &typedSample{p: p, service: service, soap: soap}
	if soap {
		s.lift = 2
	}
	return s
}

// root writes the attributes of typed result r on its root element (the
// SOAP OpResult at depth 3, the GET/POST root at 0, whose start tag the
// caller began) and the namespace declarations the writer makes for
// them, before the root's default namespace declaration, which the caller
// writes. Its mark is the scope to restore once the root is closed.
func (s *typedSample) root(r *shape.Result, depth int) int {
	mark := len(s.scope)
	s.attributes(r.Fields, r.ResultTypeNamespace(s.service), depth)
	return mark
}

// fields writes the fields of typed result r at depth, the default
// namespace inScope, and closes the scope the root opened.
func (s *typedSample) fields(r *shape.Result, inScope string, depth, mark int) {
	s.elements(r.Fields, r.ContentNamespace(s.service), r.ResultTypeNamespace(s.service), inScope, depth)
	s.scope = s.scope[:mark]
}

// elements writes the element fields among fields at depth: their
// elements in fieldNS unless they say otherwise, their class in classNS.
func (s *typedSample) elements(fields []*shape.Field, fieldNS, classNS, inScope string, depth int) {
	for _, f := range fields {
		if f.Attribute != "" || f.Text {
			continue
		}
		ns := f.Namespace.Resolve(s.service, fieldNS)
		switch {
		case f.List != "":
			itemScope, itemDepth, itemClass := inScope, depth, classNS
			if f.Element != "" {
				// The ArrayOfX element: a class of the items' namespace.
				itemClass = f.Item.Namespace.Resolve(s.service, ns)
				if itemClass == "" {
					itemClass = classNS
				}
				if s.nil(f.Element, ns, inScope, depth) {
					continue
				}
				s.p.t(indent(depth) + "<" + f.Element + xmlnsAttr(ns, inScope) + ">")
				itemScope, itemDepth = ns, depth+1
			}
			it := f.Item
			itemNS := it.Namespace.Resolve(s.service, ns)
			for range 2 {
				if len(it.Fields) == 0 {
					s.p.t(indent(itemDepth) + "<" + it.Element + xmlnsAttr(itemNS, itemScope) + ">").v(it.Type).t("</" + it.Element + ">")
					continue
				}
				s.element(it, itemNS, classOf(it, itemNS, itemClass), itemScope, itemDepth)
			}
			if f.Element != "" {
				s.p.t(indent(depth) + "</" + f.Element + ">")
			}
		case len(f.Fields) > 0:
			s.element(f, ns, classOf(f, ns, classNS), inScope, depth)
		default:
			s.p.t(indent(depth) + "<" + f.Element + xmlnsAttr(ns, inScope) + ">").v(f.Type).t("</" + f.Element + ">")
		}
	}
}

// classOf is the namespace of f's class, f's element being in ns within
// a class of namespace enclosing: its typeNamespace, else its element's
// namespace, else its enclosing class's (as the WSDL declares it).
func classOf(f *shape.Field, ns, enclosing string) string {
	switch {
	case f.TypeNamespace != "":
		return f.TypeNamespace.Resolve("", ns)
	case ns == "":
		return enclosing
	}
	return ns
}

// element writes the element of class field f, in ns, its class in
// classNS: its attributes, the declarations the writer makes for them, its
// default namespace, then its elements. A class's text is not written: the
// generator writes no simpleContent's base type (WriteComplexType reads
// its attributes and particle only), so a class of text and attributes is
// an empty element.
func (s *typedSample) element(f *shape.Field, ns, classNS, inScope string, depth int) {
	if s.nil(f.Element, ns, inScope, depth) {
		return
	}
	mark := len(s.scope)
	defer func() { s.scope = s.scope[:mark] }()
	s.p.t(indent(depth) + "<" + f.Element)
	s.attributes(f.Fields, classNS, depth)
	s.p.t(xmlnsAttr(ns, inScope))
	if !slices.ContainsFunc(f.Fields, func(a *shape.Field) bool { return a.Attribute == "" && !a.Text }) {
		s.p.t(" />")
		return
	}
	s.p.t(">")
	s.elements(f.Fields, f.ChildNamespace(s.service, ns), classNS, ns, depth+1)
	s.p.t(indent(depth) + "</" + f.Element + ">")
}

// nil writes the element of a class at depth if it is too deep to be
// shown (WriteElement: depth >= maxObjectGraphDepth, WriteNullAttribute):
// empty, xsi:nil="true"; the GET/POST document declares no xsi, so the
// writer makes a prefix for it. It reports whether it did.
func (s *typedSample) nil(name, ns, inScope string, depth int) bool {
	if depth-s.lift < sampleMaxDepth {
		return false
	}
	mark := len(s.scope)
	s.p.t(indent(depth) + "<" + name)
	var decls string
	if s.soap {
		s.p.t(` xsi:nil="true"`)
	} else {
		prefix, decl := s.prefix(sampleXSI, depth, 1)
		s.p.t(" " + prefix + `:nil="true"`)
		decls = decl
	}
	s.p.t(decls + xmlnsAttr(ns, inScope) + " />")
	s.scope = s.scope[:mark]
	return true
}

// attributes writes the attributes among fields, of a class in classNS,
// with their types as placeholders, then the declarations of the prefixes
// the writer made for them (the last made first, as XmlTextWriter's
// WriteEndStartTag writes them); the prefixes stay in scope.
// The generator writes an attribute by its declaration in the WSDL
// (WriteComplexType): unqualified, by its name; qualified in its class's
// namespace (form="qualified"), in that namespace, for which the writer
// makes a prefix (XmlTextWriter.GeneratePrefix) unless one is in scope; in
// another namespace (a ref to a global attribute), by the ref's Name and
// type, which a ref has none of: an attribute with no name and an empty
// value.
func (s *typedSample) attributes(fields []*shape.Field, classNS string, depth int) {
	var decls []string
	made := 0
	for _, a := range fields {
		if a.Attribute == "" {
			continue
		}
		switch ns := a.Namespace.Resolve(s.service, ""); ns {
		case "":
			s.p.t(" " + a.Attribute + `="`).v(a.Type).t(`"`)
		case classNS:
			prefix, decl := s.prefix(ns, depth, made+1)
			if decl != "" {
				made++
				decls = append(decls, decl)
			}
			s.p.t(" " + prefix + ":" + a.Attribute + `="`).v(a.Type).t(`"`)
		default:
			s.p.t(` =""`)
		}
	}
	for i := len(decls) - 1; i >= 0; i-- {
		s.p.t(decls[i])
	}
}

// prefix returns the prefix of ns in scope, or makes the n-th prefix of
// the element at depth (d<depth+1>p<n>) and returns it with its
// declaration.
func (s *typedSample) prefix(ns string, depth, n int) (prefix, decl string) {
	for i := len(s.scope) - 1; i >= 0; i-- {
		if s.scope[i].ns == ns {
			return s.scope[i].prefix, ""
		}
	}
	if s.soap && ns == sampleXSI {
		return "xsi", ""
	}
	prefix = "d" + strconv.Itoa(depth+1) + "p" + strconv.Itoa(n)
	s.scope = append(s.scope, nsBinding{prefix, ns})
	return prefix, " xmlns:" + prefix + `="` + xmlEscape(ns) + `"`
}

package mockserver

import (
	"slices"
	"strings"

	"github.com/atmkit/atmkit/shape"
)

// The WSDL's description of typed results, as ASMX writes it for
// XmlSerializer classes: <OpResult> typed tns:T, a complexType per class
// (a sequence of elements, then attributes), ArrayOfX types for wrapped
// lists with their items minOccurs 0 and maxOccurs unbounded, value types
// minOccurs 1, and a global element per GET/POST root (<s:element
// name="ArrayOfProvince" nillable="true" type="tns:ArrayOfProvince" />)
// that the HTTP GET and POST output messages name. A node result keeps
// the sequence holding xs:any. Types are in the service schema; elements
// in no namespace are unqualified, elements in another namespace refer to
// global elements of a schema of that namespace.

// wsdlTypes is what the WSDL template writes for a shape.
type wsdlTypes struct {
	ops      map[string]wsdlOpTypes
	roots    string // the global root elements, after the last operation
	imports  string // <s:import> of the other namespaces, at the service schema's start
	others   string // schemas of the other namespaces
	prefixes string // xmlns:qN declarations of the other namespaces, on the definitions element
}

// wsdlOpTypes is an operation's part of the description.
type wsdlOpTypes struct {
	ResultType string // the <OpResult> element's type (tns:AtmResult); "" for a node (xs:any)
	Types      string // the complexTypes first used by this operation
	Root       string // the GET/POST root element (tns:AtmResult); "" for a node
}

// typesWriter builds the description.
type typesWriter struct {
	ns      string            // service namespace
	done    map[string]bool   // complexTypes written
	others  map[string]string // namespace → prefix
	globals map[string][]string
	order   []string // other namespaces in first use
	b       *strings.Builder
}

func buildWSDLTypes(sh *shape.Shape, ns string) wsdlTypes {
	w := &typesWriter{ns: ns, done: map[string]bool{}, others: map[string]string{}, globals: map[string][]string{}}
	out := wsdlTypes{ops: map[string]wsdlOpTypes{}}
	var roots strings.Builder
	rootDone := map[string]bool{}
	for _, op := range shape.Operations() {
		r := sh.Result(op)
		if r == nil || r.Layout != shape.Typed {
			out.ops[op] = wsdlOpTypes{}
			continue
		}
		var b strings.Builder
		w.b = &b
		w.resultType(r)
		out.ops[op] = wsdlOpTypes{ResultType: "tns:" + r.TypeName(), Types: b.String(), Root: "tns:" + r.Root}
		if !rootDone[r.Root] {
			rootDone[r.Root] = true
			roots.WriteString("\n      <s:element name=\"" + xmlEscape(r.Root) + "\" nillable=\"true\" type=\"tns:" + xmlEscape(r.TypeName()) + "\" />")
		}
	}
	out.roots = roots.String()
	var imports, others, prefixes strings.Builder
	for _, other := range w.order {
		imports.WriteString("\n      <s:import namespace=\"" + xmlEscape(other) + "\" />")
		prefixes.WriteString(" xmlns:" + w.others[other] + "=\"" + xmlEscape(other) + "\"")
		others.WriteString("\n    <s:schema elementFormDefault=\"qualified\" targetNamespace=\"" + xmlEscape(other) + "\">")
		others.WriteString("\n      <s:import namespace=\"" + xmlEscape(ns) + "\" />")
		for _, g := range w.globals[other] {
			others.WriteString(g)
		}
		others.WriteString("\n    </s:schema>")
	}
	out.imports, out.others, out.prefixes = imports.String(), others.String(), prefixes.String()
	return out
}

// resultType writes the complexType of a typed result and the types it uses.
func (w *typesWriter) resultType(r *shape.Result) {
	contentNS := r.ContentNamespace(w.ns)
	array := len(r.Fields) == 1 && r.Fields[0].List != "" && r.Fields[0].Element == ""
	w.complexType(r.TypeName(), r.Fields, contentNS, array)
}

// complexType writes type name (unless written already) with the given
// fields, whose elements are in namespace fieldNS unless they say
// otherwise; array marks an ArrayOfX type (its items are nillable), then
// the types its fields use.
func (w *typesWriter) complexType(name string, fields []*shape.Field, fieldNS string, array bool) {
	if w.done[name] {
		return
	}
	w.done[name] = true
	b := w.b
	b.WriteString("\n      <s:complexType name=\"" + xmlEscape(name) + "\">")
	elements := slices.ContainsFunc(fields, func(f *shape.Field) bool { return f.Attribute == "" })
	if elements {
		b.WriteString("\n        <s:sequence>")
		for _, f := range fields {
			if f.Attribute == "" {
				w.element(f, fieldNS, array)
			}
		}
		b.WriteString("\n        </s:sequence>")
	}
	for _, f := range fields {
		if f.Attribute != "" {
			use := ""
			if shape.IsValueType(f.Type) {
				use = ` use="required"`
			}
			b.WriteString("\n        <s:attribute name=\"" + xmlEscape(f.Attribute) + "\" type=\"s:" + xmlEscape(f.Type) + "\"" + use + " />")
		}
	}
	b.WriteString("\n      </s:complexType>")
	// The types the fields use, in order.
	for _, f := range fields {
		ns := f.Namespace.Resolve(w.ns, fieldNS)
		switch {
		case f.List != "" && f.Element != "":
			it := f.Item
			// ArrayOfX holds the items; the item's own type follows it.
			w.complexType(shape.ListTypeName(f), []*shape.Field{{Element: it.Element, Namespace: it.Namespace,
				Type: it.Type, Fields: it.Fields}}, ns, true)
		case f.List != "":
			if it := f.Item; len(it.Fields) > 0 {
				w.complexType(shape.TypeNameOf(it), it.Fields, it.Namespace.Resolve(w.ns, ns), false)
			}
		case len(f.Fields) > 0:
			w.complexType(shape.TypeNameOf(f), f.Fields, ns, false)
		}
	}
}

// element writes one element of a sequence. inArray: f is an ArrayOfX's
// item (or the items of an array result).
func (w *typesWriter) element(f *shape.Field, fieldNS string, inArray bool) {
	ns := f.Namespace.Resolve(w.ns, fieldNS)
	occurs := `minOccurs="0" maxOccurs="1"`
	nillable := ""
	var typ string
	switch {
	case f.List != "" && f.Element == "":
		// Items directly in the enclosing element.
		it := f.Item
		ns = it.Namespace.Resolve(w.ns, fieldNS)
		occurs = `minOccurs="0" maxOccurs="unbounded"`
		if len(it.Fields) > 0 {
			typ = "tns:" + shape.TypeNameOf(it)
		} else {
			typ = "s:" + it.Type
		}
		if inArray {
			nillable = ` nillable="true"`
		}
		w.write(it.Element, ns, occurs, nillable, typ)
		return
	case f.List != "":
		typ = "tns:" + shape.ListTypeName(f)
	case len(f.Fields) > 0:
		typ = "tns:" + shape.TypeNameOf(f)
		if inArray {
			occurs, nillable = `minOccurs="0" maxOccurs="unbounded"`, ` nillable="true"`
		}
	default:
		typ = "s:" + f.Type
		switch {
		case inArray:
			occurs = `minOccurs="0" maxOccurs="unbounded"`
			if !shape.IsValueType(f.Type) {
				nillable = ` nillable="true"`
			}
		case shape.IsValueType(f.Type):
			occurs = `minOccurs="1" maxOccurs="1"`
		}
	}
	w.write(f.Element, ns, occurs, nillable, typ)
}

// write writes an element declaration of the service schema: local
// (qualified), unqualified (no namespace), or a reference to a global
// element of another namespace's schema.
func (w *typesWriter) write(name, ns, occurs, nillable, typ string) {
	switch ns {
	case w.ns:
		w.b.WriteString("\n          <s:element " + occurs + " name=\"" + xmlEscape(name) + "\"" + nillable + " type=\"" + xmlEscape(typ) + "\" />")
	case "":
		w.b.WriteString("\n          <s:element " + occurs + " form=\"unqualified\" name=\"" + xmlEscape(name) + "\"" + nillable + " type=\"" + xmlEscape(typ) + "\" />")
	default:
		prefix, ok := w.others[ns]
		if !ok {
			prefix = "q" + string(rune('1'+len(w.others)))
			if len(w.others) >= 9 {
				prefix = "q" + strings.Repeat("x", len(w.others))
			}
			w.others[ns] = prefix
			w.order = append(w.order, ns)
		}
		global := "\n      <s:element name=\"" + xmlEscape(name) + "\"" + nillable + " type=\"" + xmlEscape(typ) + "\" />"
		if !slices.Contains(w.globals[ns], global) {
			w.globals[ns] = append(w.globals[ns], global)
		}
		w.b.WriteString("\n          <s:element " + occurs + " ref=\"" + prefix + ":" + xmlEscape(name) + "\" />")
	}
}

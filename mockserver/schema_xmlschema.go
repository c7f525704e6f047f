package mockserver

import (
	"maps"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/shape/dsxml"
)

// The schema ASMX serves at ?schema=Name for a typed DataSet is not
// DataSet.WriteXmlSchema's text: the typed DataSet's GetSchemaSerializable
// (System.Data, CodeGen/datacache.cs) reads that text back with
// XmlSchema.Read, and DiscoveryServerProtocol.WriteReturns writes the
// XmlSchema object with XmlSchema.Write, an XmlSerializer of XmlSchema over
// an indenting XmlTextWriter (System.Xml, Schema/XmlSchema.cs). xmlSchemaForm
// redoes that on the text's tree:
//   - The root's namespace declarations are the Hashtable XsdBuilder.
//     ProcessAttribute fills in their order (key "" for xmlns), which
//     Write hands to the serializer; XmlSerializationWriter.WriteStartElement
//     declares, in the Hashtable's order, each namespace the writer has no
//     prefix for, then WriteNamespaceDeclarations each entry whose prefix
//     is not the writer's for its namespace (so the default namespace, which
//     mstns already names, comes in the second pass); the element's own xs,
//     pushed by XmlTextWriter.WriteStartElement, is declared last.
//   - Attributes come in the order of the XmlSchema classes' members, base
//     class first (XmlSchemaAnnotated: id, then [XmlAnyAttribute]
//     UnhandledAttributes, the msdata: ones, in the text's order), and a
//     QName (ref, type, refer, base) is written with the writer's prefix
//     for its namespace (XmlTextWriter.LookupPrefix: the nearest prefixed
//     declaration, mstns before the default namespace).
//   - Child elements come in member order; an element without content is
//     <x />, as XmlTextWriter ends it.
//   - An xs:appinfo's content is DOM (Parser.LoadElementNode) written with
//     XmlElement.WriteTo: its attributes as read, then a declaration of its
//     prefix unless the parser's annotation scope holds it, which is never
//     popped after an empty element, so only the document's first
//     msdata:Relationship declares xmlns:msdata.

// schemaMembers are the attributes of each XmlSchema element in member
// order: "*" is UnhandledAttributes.
var schemaMembers = map[string][]string{
	"schema":         {"attributeFormDefault", "blockDefault", "finalDefault", "elementFormDefault", "targetNamespace", "version", "id", "*"},
	"import":         {"schemaLocation", "id", "*", "namespace"},
	"element":        {"id", "*", "minOccurs", "maxOccurs", "abstract", "block", "default", "final", "fixed", "form", "name", "nillable", "ref", "substitutionGroup", "type"},
	"complexType":    {"id", "*", "name", "final", "abstract", "block", "mixed"},
	"simpleType":     {"id", "*", "name", "final"},
	"attribute":      {"id", "*", "default", "fixed", "form", "name", "ref", "type", "use"},
	"sequence":       {"id", "*", "minOccurs", "maxOccurs"},
	"choice":         {"id", "*", "minOccurs", "maxOccurs"},
	"unique":         {"id", "*", "name"},
	"key":            {"id", "*", "name"},
	"keyref":         {"id", "*", "name", "refer"},
	"extension":      {"id", "*", "base"},
	"restriction":    {"id", "*", "base"},
	"appinfo":        {"source"},
	"documentation":  {"source", "xml:lang"},
	"annotation":     {"id", "*"},
	"simpleContent":  {"id", "*"},
	"complexContent": {"id", "*", "mixed"},
	"selector":       {"id", "*", "xpath"},
	"field":          {"id", "*", "xpath"},
}

// qnameAttrs are the attributes that hold a QName (XmlQualifiedName members).
var qnameAttrs = []string{"ref", "type", "refer", "base", "substitutionGroup"}

// schemaFacets are the facets (XmlSchemaFacet: id, UnhandledAttributes,
// value, fixed).
var schemaFacets = strings.Fields("length minLength maxLength pattern enumeration minInclusive maxInclusive minExclusive maxExclusive totalDigits fractionDigits whiteSpace")

// childGroups are the children of an element in member order, a group of
// names per member (annotation first, from XmlSchemaAnnotated); within a
// member, and under any other element, the text's order is kept.
var childGroups = map[string][]string{
	"schema":      {"include import redefine"},
	"element":     {"annotation", "complexType simpleType", "key keyref unique"},
	"complexType": {"annotation", "simpleContent complexContent", "group all choice sequence", "attribute attributeGroup", "anyAttribute"},
	"extension":   {"annotation", "attribute attributeGroup", "anyAttribute"},
}

// xsWriter is the serializer's XmlTextWriter's namespace scope and the
// schema parser's annotation scope.
type xsWriter struct {
	in   map[string]string // the text's declarations, by prefix ("" for xmlns)
	decl []prefixNS        // the writer's prefixed declarations, in order
	dflt *string           // the writer's default namespace
	// ann is the scopes of Parser's annotation namespace manager: the
	// prefixes each declares.
	ann [][]string
}

// lookupPrefix is XmlTextWriter.LookupPrefix: the latest prefix declared for
// ns, else "" for the default namespace; ok false when none.
func (w *xsWriter) lookupPrefix(ns string) (string, bool) {
	for i := len(w.decl) - 1; i >= 0; i-- {
		if w.decl[i].ns == ns {
			return w.decl[i].prefix, true
		}
	}
	if w.dflt != nil && *w.dflt == ns {
		return "", true
	}
	return "", false
}

// declare writes a namespace declaration and puts it in scope.
func (w *xsWriter) declare(n *dsxml.Node, prefix, ns string) {
	if prefix == "" {
		n.Attrs = append(n.Attrs, dsxml.Attr{Name: "xmlns", Value: ns})
		w.dflt = &ns
		return
	}
	n.Attrs = append(n.Attrs, dsxml.Attr{Name: "xmlns:" + prefix, Value: ns})
	w.decl = append(w.decl, prefixNS{prefix, ns})
}

// xmlSchemaForm is schema (a DataSet's, as WriteXmlSchema writes it) as
// XmlSchema.Write writes it after XmlSchema.Read.
func xmlSchemaForm(schema *dsxml.Node) *dsxml.Node {
	w := &xsWriter{in: map[string]string{}}
	t := newNetHashtable(wsdlRuntime, 0)
	for _, a := range schema.Attrs {
		if p, ok := xmlnsPrefix(a.Name); ok {
			w.in[p] = a.Value
			t.add(p)
		}
	}
	if _, ok := w.in["xs"]; !ok && !slices.Contains(slices.Collect(maps.Values(w.in)), dsxml.NSXSD) {
		w.in["xs"] = dsxml.NSXSD // XmlSchema.Write adds it
		t.add("xs")
	}
	keys := t.order()
	// The serializer's prefix for the element: the last key bound to XSD.
	own := "xs"
	for _, k := range keys {
		if k != "" && w.in[k] == dsxml.NSXSD {
			own = k
		}
	}
	out := &dsxml.Node{Name: own + ":schema"}
	w.decl = append(w.decl, prefixNS{own, dsxml.NSXSD})
	for _, k := range keys { // WriteStartElement's pass
		if ns := w.in[k]; ns != "" {
			if _, ok := w.lookupPrefix(ns); !ok {
				w.declare(out, k, ns)
			}
		}
	}
	for _, k := range keys { // WriteNamespaceDeclarations
		ns := w.in[k]
		if p, ok := w.lookupPrefix(ns); ns == "" || !ok || p != k {
			w.declare(out, k, ns)
		}
	}
	w.attrs(out, schema)
	out.Attrs = append(out.Attrs, dsxml.Attr{Name: "xmlns:" + own, Value: dsxml.NSXSD})
	w.kids(out, schema)
	return out
}

// xmlnsPrefix is the prefix a namespace declaration named name declares.
func xmlnsPrefix(name string) (string, bool) {
	if name == "xmlns" {
		return "", true
	}
	p, ok := strings.CutPrefix(name, "xmlns:")
	return p, ok
}

// element writes an XmlSchema object's element.
func (w *xsWriter) element(n *dsxml.Node) *dsxml.Node {
	prefix, _ := w.lookupPrefix(dsxml.NSXSD)
	out := &dsxml.Node{Name: prefix + ":" + localName(n.Name)}
	w.attrs(out, n)
	w.kids(out, n)
	return out
}

// attrs writes n's attributes in member order, its QNames with the
// writer's prefixes. An element not in schemaMembers keeps its own
// attributes' order after id and the unhandled ones; an attribute in no
// namespace its class has no member for is dropped, as XsdBuilder drops
// it (none that DataSet writes).
func (w *xsWriter) attrs(out, n *dsxml.Node) {
	local := localName(n.Name)
	members, ok := schemaMembers[local]
	switch {
	case slices.Contains(schemaFacets, local):
		members = []string{"id", "*", "value", "fixed"}
	case !ok:
		members = []string{"id", "*"}
		for _, a := range n.Attrs {
			if _, isNS := xmlnsPrefix(a.Name); !isNS && a.Name != "id" && !strings.Contains(a.Name, ":") {
				members = append(members, a.Name)
			}
		}
	}
	for _, m := range members {
		for _, a := range n.Attrs {
			_, isNS := xmlnsPrefix(a.Name)
			prefixed := strings.Contains(a.Name, ":")
			switch {
			case isNS:
			case m == "*" && prefixed:
				out.Attrs = append(out.Attrs, a)
			case m == a.Name && slices.Contains(qnameAttrs, m):
				out.Attrs = append(out.Attrs, dsxml.Attr{Name: m, Value: w.qname(a.Value)})
			case m == a.Name:
				out.Attrs = append(out.Attrs, a)
			}
		}
	}
}

// qname writes the QName q of the text with the writer's prefix for its
// namespace (XmlSerializationWriter.FromXmlQualifiedName).
func (w *xsWriter) qname(q string) string {
	prefix, local, ok := strings.Cut(q, ":")
	if !ok {
		prefix, local = "", q
	}
	ns := w.in[prefix]
	if ns == "" {
		return local
	}
	if p, ok := w.lookupPrefix(ns); ok {
		if p == "" {
			return local
		}
		return p + ":" + local
	}
	return q
}

// kids writes n's children in member order; xs:appinfo's are markup.
func (w *xsWriter) kids(out, n *dsxml.Node) {
	groups := childGroups[localName(n.Name)]
	rank := func(k *dsxml.Node) int {
		for i, g := range groups {
			if slices.Contains(strings.Fields(g), localName(k.Name)) {
				return i
			}
		}
		return len(groups)
	}
	kids := slices.Clone(n.Kids)
	slices.SortStableFunc(kids, func(a, b *dsxml.Node) int { return rank(a) - rank(b) })
	markup := strings.HasSuffix(n.Name, ":appinfo") || strings.HasSuffix(n.Name, ":documentation")
	if markup {
		w.ann = append(w.ann, nil) // ProcessAppInfoDocMarkup(true)
	}
	for _, k := range kids {
		if markup {
			out.Kids = append(out.Kids, w.markup(k))
		} else {
			out.Kids = append(out.Kids, w.element(k))
		}
	}
}

// localName is name without its prefix.
func localName(name string) string {
	_, local, ok := strings.Cut(name, ":")
	if !ok {
		return name
	}
	return local
}

// markup is an element of an annotation as Parser.LoadElementNode reads
// it: its attributes, then declarations of its prefix and of its
// attributes' the annotation scope does not hold. Each element pushes a
// scope (xs:appinfo too), popped at an end tag only: never after an
// empty element.
func (w *xsWriter) markup(n *dsxml.Node) *dsxml.Node {
	out := &dsxml.Node{Name: n.Name, Attrs: slices.Clone(n.Attrs), Full: n.Full}
	w.ann = append(w.ann, nil)
	top := len(w.ann) - 1
	for _, a := range n.Attrs {
		if p, ok := xmlnsPrefix(a.Name); ok {
			w.ann[top] = append(w.ann[top], p)
		}
	}
	need := func(p string) {
		p = strings.TrimSuffix(p, ":")
		if ns := w.in[p]; !slices.ContainsFunc(w.ann, func(s []string) bool { return slices.Contains(s, p) }) && ns != "" {
			w.ann[top] = append(w.ann[top], p)
			out.Attrs = append(out.Attrs, dsxml.Attr{Name: strings.TrimSuffix("xmlns:"+p, ":"), Value: ns})
		}
	}
	need(strings.TrimSuffix(n.Name, localName(n.Name)))
	for _, a := range n.Attrs {
		if p, _, ok := strings.Cut(a.Name, ":"); ok && p != "xmlns" && p != "xml" {
			need(p)
		}
	}
	for _, k := range n.Kids {
		out.Kids = append(out.Kids, w.markup(k))
	}
	if len(n.Kids) > 0 || n.Full {
		w.ann = w.ann[:len(w.ann)-1]
	}
	return out
}

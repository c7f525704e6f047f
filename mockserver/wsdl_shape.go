package mockserver

import (
	"slices"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/dsxml"
)

// The WSDL's description of typed results, as ASMX writes it for
// XmlSerializer classes (XmlSchemaExporter): <OpResult> typed by the
// result's class, a complexType per class and namespace (a sequence of
// elements, then attributes), ArrayOfX types for wrapped lists with their
// items minOccurs 0 and maxOccurs unbounded, value types minOccurs 1, and a
// global element per GET/POST root (<s:element name="ArrayOfProvince"
// nillable="true" type="tns:ArrayOfProvince" />) that the HTTP GET and POST
// output messages name. A node result keeps the sequence holding xs:any; a
// DataSet result has the inline type .NET (or Mono) declares for a DataSet,
// and the global DataSet element.
//
// Every namespace has a schema of its own: the service's first, then the
// others in the order something is first declared in them, prefixed s1,
// s2, ... (their index in .NET's Types.Schemas) on the definitions
// element, where wsdl_nsorder.go orders the declarations. A complexType is declared in its
// type namespace's schema; an element of a type declared in the type's
// namespace is local (form="unqualified" when in no namespace), one in
// another namespace refers to a global element of that namespace's schema.
// Exporting is depth first, as .NET's is: a type is declared where it is
// first used, before the types its fields use. A schema imports each
// namespace it refers to, in the order of first reference. An enum's
// simpleType is declared as a class's complexType is; a struct's element
// and an enum's value are minOccurs 1 (use="required"), as any value
// type's. Once a member declared object has been declared, the types of
// each later result come between its operation's request and response
// elements (see rootExport).

// wsdlTypes is what the WSDL template writes for a shape.
type wsdlTypes struct {
	ops      map[string]wsdlOpTypes
	roots    string     // the global root elements, after the last operation
	imports  string     // <s:import> of the other namespaces, at the service schema's start
	others   string     // schemas of the other namespaces
	prefixes []prefixNS // the other namespaces' sN prefixes, in the order of their schemas
}

// wsdlOpTypes is an operation's part of the description.
type wsdlOpTypes struct {
	ResultType string // the <OpResult> element's type (tns:AtmResult); "" for a node or a DataSet
	// ResultInline is the <OpResult> element's inline complexType (a
	// DataSet's), indented for its place; "" for the others.
	ResultInline string
	// Before holds the declarations made between the operation's request
	// and response elements (rootExport), Types those first made by its
	// response, in the service schema.
	Before string
	Types  string
	Root   string // the GET/POST root element (tns:AtmResult); "" for a node
}

// schemaDoc is one schema of the description: its declarations in order,
// each built in place (a type is declared before the types it uses), and
// the namespaces it imports.
type schemaDoc struct {
	ns      string
	prefix  string
	items   []*strings.Builder
	imports []string
	globals map[string]bool // global elements and attributes declared, by kind and name
}

// typesWriter builds the description.
type typesWriter struct {
	ns      string          // service namespace
	done    map[string]bool // complexTypes and simpleTypes declared, by namespace and name
	schemas map[string]*schemaDoc
	order   []*schemaDoc // the other namespaces' schemas, in order of creation
	service *schemaDoc
	// needRoot: a member declared object has been declared
	// (XmlSchemaExporter's needToExportRoot).
	needRoot bool
	// mappings, when not nil, records the types as XmlReflectionImporter
	// registers them (see rootExport).
	mappings *[]typeMapping
}

// newTypesWriter returns a writer of the types of service namespace ns.
func newTypesWriter(ns string) *typesWriter {
	w := &typesWriter{ns: ns, done: map[string]bool{}, schemas: map[string]*schemaDoc{}}
	w.service = &schemaDoc{ns: ns, prefix: "tns", globals: map[string]bool{}}
	w.schemas[ns] = w.service
	return w
}

// serviceItems returns the declarations made in the service schema since
// the last call, and forgets them.
func (w *typesWriter) serviceItems() string {
	var b strings.Builder
	for _, it := range w.service.items {
		b.WriteString(it.String())
	}
	w.service.items = nil
	return b.String()
}

func buildWSDLTypes(sh *shape.Shape, ns string) wsdlTypes {
	imported := importedMappings(sh, ns)
	w := newTypesWriter(ns)
	out := wsdlTypes{ops: map[string]wsdlOpTypes{}}
	var roots, imports, located strings.Builder
	var typedImports []string
	rootDone := map[string]bool{}
	for i, op := range shape.Operations() {
		r := sh.Result(op)
		switch {
		case r != nil && r.Layout == shape.Node && r.Type == shape.NodeXmlNode:
			// An XmlNode: mixed content beside the xs:any, as .NET and
			// Mono declare it.
			pad := "\r\n" + strings.Repeat(" ", 12)
			out.ops[op] = wsdlOpTypes{ResultInline: pad + "  <s:complexType mixed=\"true\">" + pad + "    <s:sequence>" +
				pad + "      <s:any />" + pad + "    </s:sequence>" + pad + "  </s:complexType>"}
		case r == nil || r.Layout == shape.Node:
			out.ops[op] = wsdlOpTypes{}
		case r.Layout == shape.Dataset:
			d := r.DataSet
			out.ops[op] = wsdlOpTypes{ResultInline: dataSetType(d, ns, 12), Root: "tns:" + r.Root}
			if !rootDone[r.Root] {
				rootDone[r.Root] = true
				roots.WriteString("\r\n      <s:element name=\"" + xmlEscape(r.Root) + "\" nillable=\"true\">" + dataSetType(d, ns, 6) + "\r\n      </s:element>")
			}
			if dns := d.Namespace.Resolve(ns, ""); d.WSDL == shape.WSDLTyped && !slices.Contains(typedImports, dns) {
				// Its namespace, imported where the operation is exported
				// (XmlSchemaExporter.ExportSpecialMapping, for the schema
				// GetTypedDataSetSchema adds), and its schema served at
				// ?schema=Name, imported after every other import
				// (DiscoveryServerProtocol.AddSchemaImports, once the
				// service is reflected). Never the service namespace:
				// compileShape refuses a typed DataSet there
				// (shape.CheckServiceNamespace), as .NET merges its schema
				// into the service's instead.
				typedImports = append(typedImports, dns)
				if !slices.Contains(w.service.imports, dns) {
					w.service.imports = append(w.service.imports, dns)
				}
				located.WriteString("\r\n      <s:import schemaLocation=\"" + addressMark + "?schema=" + xmlEscape(d.Name) + "\" namespace=\"" + xmlEscape(dns) + "\" />")
			}
		default:
			w.service.items = nil
			if w.needRoot {
				w.rootExport(imported[i])
			}
			before := w.serviceItems()
			typeNS := r.ResultTypeNamespace(ns)
			// The type's schema and its import first, as
			// XmlSchemaExporter.AddSchemaItem adds them before the
			// type's members.
			ref := w.typeRef(w.service, r.TypeName(), typeNS)
			w.complexType(r.TypeName(), typeNS, r.Fields, r.ContentNamespace(ns), r.IsArray())
			out.ops[op] = wsdlOpTypes{ResultType: ref, Before: before, Types: w.serviceItems(), Root: "tns:" + r.Root}
			if !rootDone[r.Root] {
				rootDone[r.Root] = true
				roots.WriteString("\r\n      <s:element name=\"" + xmlEscape(r.Root) + "\" nillable=\"true\" type=\"" + xmlEscape(ref) + "\" />")
			}
		}
	}
	out.roots = roots.String()
	var others strings.Builder
	for _, imp := range w.service.imports {
		imports.WriteString("\r\n      " + importOf(imp))
	}
	imports.WriteString(located.String())
	for _, s := range w.order {
		if s.ns == "" {
			// The schema of no namespace: no prefix, no targetNamespace.
			others.WriteString("\r\n    <s:schema elementFormDefault=\"qualified\">")
		} else {
			out.prefixes = append(out.prefixes, prefixNS{s.prefix, s.ns})
			others.WriteString("\r\n    <s:schema elementFormDefault=\"qualified\" targetNamespace=\"" + xmlEscape(s.ns) + "\">")
		}
		for _, imp := range s.imports {
			others.WriteString("\r\n      " + importOf(imp))
		}
		for _, it := range s.items {
			others.WriteString(it.String())
		}
		others.WriteString("\r\n    </s:schema>")
	}
	out.imports, out.others = imports.String(), others.String()
	return out
}

// dataSetType is the inline complexType that declares a DataSet result,
// at the indentation of depth spaces: .NET's (a reference to xs:schema and
// an xs:any) or Mono's (two lax xs:any), as the DataSet says; for a typed
// DataSet an xs:any in its namespace.
func dataSetType(d *shape.DataSet, service string, depth int) string {
	pad := "\r\n" + strings.Repeat(" ", depth)
	if d != nil && d.WSDL == shape.WSDLTyped {
		return pad + "  <s:complexType>" +
			pad + "    <s:sequence>" +
			pad + "      <s:any namespace=\"" + xmlEscape(d.Namespace.Resolve(service, "")) + "\" />" +
			pad + "    </s:sequence>" +
			pad + "  </s:complexType>"
	}
	if d != nil && d.WSDL == shape.WSDLLaxAny {
		return pad + "  <s:complexType>" +
			pad + "    <s:sequence maxOccurs=\"unbounded\">" +
			pad + "      <s:any minOccurs=\"0\" namespace=\"" + dsxml.NSXSD + "\" processContents=\"lax\" />" +
			pad + "      <s:any minOccurs=\"0\" namespace=\"" + dsxml.NSDiffgram + "\" processContents=\"lax\" />" +
			pad + "    </s:sequence>" +
			pad + "  </s:complexType>"
	}
	return pad + "  <s:complexType>" +
		pad + "    <s:sequence>" +
		pad + "      <s:element ref=\"s:schema\" />" +
		pad + "      <s:any />" +
		pad + "    </s:sequence>" +
		pad + "  </s:complexType>"
}

// schema returns the schema of namespace ns, creating it (and its prefix)
// on first use.
func (w *typesWriter) schema(ns string) *schemaDoc {
	if s, ok := w.schemas[ns]; ok {
		return s
	}
	s := &schemaDoc{ns: ns, prefix: "s" + strconv.Itoa(len(w.order)+1), globals: map[string]bool{}}
	w.schemas[ns] = s
	w.order = append(w.order, s)
	return s
}

// item starts a declaration in schema s and returns its builder.
func (w *typesWriter) item(s *schemaDoc) *strings.Builder {
	b := &strings.Builder{}
	s.items = append(s.items, b)
	return b
}

// refer records that schema from refers to namespace ns and returns the
// prefix to write names of ns with.
func (w *typesWriter) refer(from *schemaDoc, ns string) string {
	if ns == from.ns {
		return from.prefix
	}
	to := w.schema(ns)
	if !slices.Contains(from.imports, ns) {
		from.imports = append(from.imports, ns)
	}
	return to.prefix
}

// typeRef is the QName schema from writes for complexType name in ns.
func (w *typesWriter) typeRef(from *schemaDoc, name, ns string) string {
	if ns == "" {
		// A type in no namespace (XmlType's Namespace ""): its unprefixed
		// name, the WSDL declaring no default namespace, and an import of
		// no namespace.
		if from.ns != "" {
			w.refer(from, ns)
		}
		return name
	}
	return w.refer(from, ns) + ":" + name
}

// typeNamespace is the namespace the WSDL declares a container's or list
// item's complexType in: its TypeNamespace, else its element's namespace,
// else (an element in no namespace) the enclosing type's.
func (w *typesWriter) typeNamespace(f *shape.Field, elementNS, enclosing string) string {
	if f.TypeNamespace != "" {
		return f.TypeNamespace.Resolve(w.ns, elementNS)
	}
	if elementNS == "" {
		return enclosing
	}
	return elementNS
}

// complexType declares type name of namespace typeNS (unless declared
// already) with the given fields, whose elements are in namespace fieldNS
// unless they say otherwise; array marks an ArrayOfX type (its items are
// nillable). The types its fields use follow it, depth first.
func (w *typesWriter) complexType(name, typeNS string, fields []*shape.Field, fieldNS string, array bool) {
	key := typeNS + "\x00" + name
	if w.done[key] {
		return
	}
	w.done[key] = true
	if w.mappings != nil {
		// Registered once its members are (XmlReflectionImporter: a
		// class after its members' types, an array after its items').
		defer w.register(typeMapping{name: name, typeNS: typeNS, fields: fields, fieldNS: fieldNS, array: array})
	}
	s := w.schema(typeNS)
	b := w.item(s)
	b.WriteString("\r\n      <s:complexType name=\"" + xmlEscape(name) + "\">")
	if i := slices.IndexFunc(fields, func(f *shape.Field) bool { return f.Text }); i >= 0 {
		// Text beside attributes: simple content; with no attributes, an
		// empty extension (<s:extension base="s:string" />, as ASMX writes
		// a class holding only its text). An enum text's type is
		// declared before the attributes' (ExportTypeMembers).
		base := "s:" + xmlEscape(fields[i].Type)
		if fields[i].Enum != "" {
			base = xmlEscape(w.typeRef(s, fields[i].Enum, w.enumNamespace(fields[i], "", typeNS)))
			w.enumType(fields[i], w.enumNamespace(fields[i], "", typeNS))
		}
		var ab strings.Builder
		for _, f := range fields {
			if f.Attribute != "" {
				w.attribute(s, &ab, f)
			}
		}
		b.WriteString("\r\n        <s:simpleContent>\r\n          <s:extension base=\"" + base + "\"")
		if ab.Len() == 0 {
			b.WriteString(" />")
		} else {
			b.WriteString(">" + strings.ReplaceAll(ab.String(), "\r\n        ", "\r\n            ") + "\r\n          </s:extension>")
		}
		b.WriteString("\r\n        </s:simpleContent>\r\n      </s:complexType>")
		return
	}
	elements := slices.ContainsFunc(fields, func(f *shape.Field) bool { return f.Attribute == "" })
	if elements {
		b.WriteString("\r\n        <s:sequence>")
		for _, f := range fields {
			if f.Attribute == "" {
				w.element(s, b, f, fieldNS, array)
			}
		}
		b.WriteString("\r\n        </s:sequence>")
	}
	for _, f := range fields {
		if f.Attribute != "" {
			w.attribute(s, b, f)
		}
	}
	b.WriteString("\r\n      </s:complexType>")
}

// attribute declares an attribute of a complexType of schema s: local
// (unqualified, or qualified in s's namespace), or a reference to a
// global attribute of its namespace's schema.
func (w *typesWriter) attribute(s *schemaDoc, b *strings.Builder, f *shape.Field) {
	use, def := "", ""
	switch {
	case f.Default != nil:
		// [DefaultValue]: optional, its default declared first, as
		// XmlSchemaExporter sets DefaultValue in place of Use.
		def = "default=\"" + xmlEscape(*f.Default) + "\" "
	case f.OmitWhen != "":
		// An XxxSpecified member: optional.
	case f.ValueType():
		use = ` use="required"`
	}
	// typeOf is the attribute's type as schema from writes it: an enum's
	// is in the namespace of the attribute's class (s), declared after
	// the attribute.
	typeOf := func(from *schemaDoc) (string, func()) {
		if f.Enum == "" {
			return "s:" + xmlEscape(f.Type), func() {}
		}
		ens := w.enumNamespace(f, "", s.ns)
		return xmlEscape(w.typeRef(from, f.Enum, ens)), func() { w.enumType(f, ens) }
	}
	ns := f.Namespace.Resolve(w.ns, "")
	switch ns {
	case "":
		typ, declare := typeOf(s)
		b.WriteString("\r\n        <s:attribute " + def + "name=\"" + xmlEscape(f.Attribute) + "\" type=\"" + typ + "\"" + use + " />")
		declare()
		return
	case s.ns:
		// Qualified in its class's own namespace (XmlAttribute's Form
		// Qualified): local, its form written (XmlReflectionImporter
		// makes an attribute global only in another namespace than its
		// class's; XmlSchemaExporter.ExportAttributeAccessor writes the
		// form unless it is the schema's attributeFormDefault).
		typ, declare := typeOf(s)
		b.WriteString("\r\n        <s:attribute " + def + "form=\"qualified\" name=\"" + xmlEscape(f.Attribute) + "\" type=\"" + typ + "\"" + use + " />")
		declare()
		return
	}
	prefix := w.refer(s, ns)
	other := w.schema(ns)
	if k := "attribute " + f.Attribute; !other.globals[k] {
		other.globals[k] = true
		g := w.item(other)
		typ, declare := typeOf(other)
		g.WriteString("\r\n      <s:attribute name=\"" + xmlEscape(f.Attribute) + "\" type=\"" + typ + "\" />")
		declare()
	}
	// A reference to the global attribute has no use (.NET's
	// XmlSchemaExporter sets none on it; Mono writes none either).
	b.WriteString("\r\n        <s:attribute ref=\"" + prefix + ":" + xmlEscape(f.Attribute) + "\" />")
}

// element declares one element of a sequence of schema s, whose fields
// are in namespace fieldNS unless they say otherwise, and then the types
// it uses. inArray: f is an ArrayOfX's item (or the items of an array
// result).
func (w *typesWriter) element(s *schemaDoc, b *strings.Builder, f *shape.Field, fieldNS string, inArray bool) {
	ns := f.Namespace.Resolve(w.ns, fieldNS)
	occurs := `minOccurs="0" maxOccurs="1"`
	nillable := ""
	switch {
	case f.List != "" && f.Element == "":
		// Items directly in the enclosing element.
		it := f.Item
		ns = it.Namespace.Resolve(w.ns, fieldNS)
		occurs = `minOccurs="0" maxOccurs="unbounded"`
		if inArray {
			nillable = ` nillable="true"`
		}
		if len(it.Fields) > 0 {
			typeNS := w.typeNamespace(it, ns, s.ns)
			w.declare(s, b, it.Element, ns, occurs, nillable, w.typeRef(w.schemaFor(s, ns), shape.TypeNameOf(it), typeNS))
			w.complexType(shape.TypeNameOf(it), typeNS, it.Fields, it.ChildNamespace(w.ns, ns), false)
			return
		}
		if it.Enum != "" {
			// An enum's items: a value type, never nil.
			ens := w.enumNamespace(it, ns, s.ns)
			w.declare(s, b, it.Element, ns, occurs, "", w.typeRef(w.schemaFor(s, ns), it.Enum, ens))
			w.enumType(it, ens)
			return
		}
		w.declare(s, b, it.Element, ns, occurs, nillable, "s:"+it.Type)
	case f.List != "":
		// The ArrayOfX type is in its items' namespace (XmlArrayItem's
		// Namespace, else the list element's), as .NET declares it.
		it := f.Item
		arrayNS := it.Namespace.Resolve(w.ns, ns)
		if arrayNS == "" {
			arrayNS = s.ns
		}
		name := shape.ListTypeName(f)
		w.declare(s, b, f.Element, ns, occurs, nillable, w.typeRef(w.schemaFor(s, ns), name, arrayNS))
		w.complexType(name, arrayNS, []*shape.Field{{Element: it.Element, Namespace: it.Namespace, TypeNamespace: it.TypeNamespace,
			Type: it.Type, Fields: it.Fields, Enum: it.Enum, EnumValues: it.EnumValues}}, ns, true)
	case len(f.Fields) > 0:
		switch {
		case inArray:
			occurs, nillable = `minOccurs="0" maxOccurs="unbounded"`, ` nillable="true"`
		case f.Nillable:
			occurs, nillable = `minOccurs="1" maxOccurs="1"`, ` nillable="true"`
		case f.Struct:
			occurs = `minOccurs="1" maxOccurs="1"`
		}
		typeNS := w.typeNamespace(f, ns, s.ns)
		w.declare(s, b, f.Element, ns, occurs, nillable, w.typeRef(w.schemaFor(s, ns), shape.TypeNameOf(f), typeNS))
		w.complexType(shape.TypeNameOf(f), typeNS, f.Fields, f.ChildNamespace(w.ns, ns), false)
	default:
		switch {
		case inArray:
			occurs = `minOccurs="0" maxOccurs="unbounded"`
			if !f.ValueType() {
				nillable = ` nillable="true"`
			}
		case f.Nillable:
			// XmlElement(IsNullable = true): written xsi:nil when null,
			// never left out.
			occurs, nillable = `minOccurs="1" maxOccurs="1"`, ` nillable="true"`
		case f.Default != nil:
			// [DefaultValue]: left out when equal to it.
			occurs = `minOccurs="0" maxOccurs="1" default="` + xmlEscape(*f.Default) + `"`
		case f.OmitWhen != "":
			// An XxxSpecified member: left out when not specified.
		case f.ValueType():
			occurs = `minOccurs="1" maxOccurs="1"`
		}
		typ := "s:" + f.Type
		switch {
		case f.XsiType:
			// A member declared object: no type (xs:anyType), and none
			// required, as XmlSchemaExporter declares it; the root
			// (object) is to be exported.
			occurs, typ = `minOccurs="0" maxOccurs="1"`, ""
			w.needRoot = true
			w.register(typeMapping{root: true})
		case f.Enum != "":
			// The enum's simpleType after the element (a global one
			// first declared, as ExportElementAccessor adds it before
			// exporting its type).
			ens := w.enumNamespace(f, ns, s.ns)
			w.declare(s, b, f.Element, ns, occurs, nillable, w.typeRef(w.schemaFor(s, ns), f.Enum, ens))
			w.enumType(f, ens)
			return
		}
		w.declare(s, b, f.Element, ns, occurs, nillable, typ)
	}
}

// schemaFor is the schema an element of namespace ns is declared in, seen
// from schema s: s itself for its own namespace or none, else ns's.
func (w *typesWriter) schemaFor(s *schemaDoc, ns string) *schemaDoc {
	if ns == s.ns || ns == "" {
		return s
	}
	return w.schema(ns)
}

// declare writes an element declaration of a complexType of schema s:
// local (qualified), unqualified (no namespace), or a reference to a
// global element of another namespace's schema, declared there.
func (w *typesWriter) declare(s *schemaDoc, b *strings.Builder, name, ns, occurs, nillable, typ string) {
	typed := ""
	if typ != "" {
		typed = " type=\"" + xmlEscape(typ) + "\"" // none: xs:anyType (a member declared object)
	}
	switch ns {
	case s.ns:
		b.WriteString("\r\n          <s:element " + occurs + " name=\"" + xmlEscape(name) + "\"" + nillable + typed + " />")
	case "":
		b.WriteString("\r\n          <s:element " + occurs + " form=\"unqualified\" name=\"" + xmlEscape(name) + "\"" + nillable + typed + " />")
	default:
		prefix := w.refer(s, ns)
		other := w.schema(ns)
		if k := "element " + name + " " + typ; !other.globals[k] {
			other.globals[k] = true
			w.item(other).WriteString("\r\n      <s:element name=\"" + xmlEscape(name) + "\"" + nillable + typed + " />")
		}
		b.WriteString("\r\n          <s:element " + occurs + " ref=\"" + prefix + ":" + xmlEscape(name) + "\" />")
	}
}

// importOf is a schema's import of namespace ns: of no namespace, an
// import without one.
func importOf(ns string) string {
	if ns == "" {
		return "<s:import />"
	}
	return "<s:import namespace=\"" + xmlEscape(ns) + "\" />"
}

package learn

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// Namespaces of a WSDL 1.1 document.
const (
	nsWSDL     = "http://schemas.xmlsoap.org/wsdl/"
	nsXSD      = "http://www.w3.org/2001/XMLSchema"
	nsDiffgram = "urn:schemas-microsoft-com:xml-diffgram-v1"
	nsMSData   = "urn:schemas-microsoft-com:xml-msdata"
	nsXSI      = "http://www.w3.org/2001/XMLSchema-instance"
)

// wsdlInfo is what the learner reads from a WSDL.
type wsdlInfo struct {
	ns string // the target (service) namespace
	// Per operation: the layout, the skeleton of a typed result (its
	// fields as kids of a root node named by the GET/POST root), and the
	// result's type name.
	ops map[string]*wsdlResult
}

type wsdlResult struct {
	node     bool   // the result is a node (xs:any)
	mixed    bool   // a node result declared mixed="true": an XmlNode, not an XmlElement
	dataset  bool   // the result is a DataSet (an inline schema and a diffgram)
	dsForm   string // how the WSDL declares the DataSet (shape.WSDLSchemaAny, WSDLLaxAny or WSDLTyped)
	typeName string // complexType name of a typed result
	typeNS   string
	root     string // the GET/POST root element named by the HTTP output message
	skeleton *node  // typed: a node named root holding the fields
}

// schemaSet indexes the schemas of a WSDL by namespace.
type schemaSet struct {
	types      map[string]*etree.Element // "{ns}name" → complexType
	simple     map[string]*etree.Element // "{ns}name" → simpleType
	elements   map[string]*etree.Element // "{ns}name" → global element
	attributes map[string]*etree.Element // "{ns}name" → global attribute
	forms      map[*etree.Element]string // schema element → its target namespace
	qualify    map[*etree.Element]bool   // schema element → elementFormDefault qualified
	qualifyAt  map[*etree.Element]bool   // schema element → attributeFormDefault qualified
	// fields is what is left of the fields the result being read may
	// have, and depth how deep the node being filled is: types that hold
	// each other many times over (T0 holding two T1, each two T2, ...)
	// make a skeleton exponential in the size of the WSDL, a chain of
	// them one deeper than any shape may nest.
	fields *budget
	depth  int
	// derivedOf maps a complexType's key to a type the schema derives
	// from it (complexContent extension: XmlInclude), made on first use.
	derivedOf map[string]string
}

// derivedFrom names a complexType the schema derives from the type of key
// k, or "".
func (s *schemaSet) derivedFrom(k string) string {
	if s.derivedOf == nil {
		s.derivedOf = map[string]string{}
		for _, ct := range s.types {
			if ext := ct.FindElement("complexContent/extension"); ext != nil {
				bns, blocal := resolveQName(ext, ext.SelectAttrValue("base", ""))
				if _, ok := s.derivedOf[key(bns, blocal)]; !ok {
					s.derivedOf[key(bns, blocal)] = ct.SelectAttrValue("name", "")
				}
			}
		}
	}
	return s.derivedOf[k]
}

func key(ns, name string) string { return "{" + ns + "}" + name }

// readWSDL reads the result types of every operation from a WSDL document.
func readWSDL(data []byte) (*wsdlInfo, error) {
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(data); err != nil {
		return nil, fmt.Errorf("the WSDL does not parse: %w", err)
	}
	defs := doc.Root()
	if defs == nil || defs.Tag != "definitions" || defs.NamespaceURI() != nsWSDL {
		return nil, fmt.Errorf("not a WSDL 1.1 document (no wsdl:definitions root)")
	}
	info := &wsdlInfo{ns: defs.SelectAttrValue("targetNamespace", ""), ops: map[string]*wsdlResult{}}
	set := &schemaSet{types: map[string]*etree.Element{}, simple: map[string]*etree.Element{}, elements: map[string]*etree.Element{}, attributes: map[string]*etree.Element{},
		forms: map[*etree.Element]string{}, qualify: map[*etree.Element]bool{}, qualifyAt: map[*etree.Element]bool{}}
	for _, types := range defs.SelectElements("types") {
		for _, schema := range types.ChildElements() {
			if schema.Tag != "schema" || schema.NamespaceURI() != nsXSD {
				continue
			}
			tns := schema.SelectAttrValue("targetNamespace", "")
			set.forms[schema] = tns
			set.qualify[schema] = schema.SelectAttrValue("elementFormDefault", "") == "qualified"
			set.qualifyAt[schema] = schema.SelectAttrValue("attributeFormDefault", "") == "qualified"
			for _, d := range schema.ChildElements() {
				name := d.SelectAttrValue("name", "")
				switch d.Tag {
				case "complexType":
					set.types[key(tns, name)] = d
				case "simpleType":
					set.simple[key(tns, name)] = d
				case "element":
					set.elements[key(tns, name)] = d
				case "attribute":
					set.attributes[key(tns, name)] = d
				}
			}
		}
	}
	// GET (or POST) output messages name the root element of typed results.
	roots := map[string]string{}
	for _, m := range defs.SelectElements("message") {
		name := m.SelectAttrValue("name", "")
		for _, suffix := range []string{"HttpGetOut", "HttpPostOut"} {
			op, ok := strings.CutSuffix(name, suffix)
			if !ok {
				continue
			}
			if p := m.SelectElement("part"); p != nil {
				if el := p.SelectAttrValue("element", ""); el != "" {
					_, local := splitQName(el)
					if _, done := roots[op]; !done {
						roots[op] = local
					}
				}
			}
		}
	}
	for k, resp := range set.elements {
		op, ok := strings.CutSuffix(k[strings.IndexByte(k, '}')+1:], "Response")
		if !ok || !slices.Contains(shape.Operations(), op) {
			continue // another operation's: nothing reads it
		}
		res := findResultElement(resp, op+"Result")
		if res == nil {
			continue
		}
		r := &wsdlResult{root: roots[op]}
		if t := res.SelectAttrValue("type", ""); t != "" {
			r.typeNS, r.typeName = resolveQName(res, t)
			ct := set.types[key(r.typeNS, r.typeName)]
			if ct == nil {
				return nil, fmt.Errorf("the WSDL types %sResult as %s, which it does not define", op, t)
			}
			if r.root == "" {
				r.root = r.typeName
			}
			sk := &node{name: r.root, ns: info.ns, typeName: r.typeName, typeNS: r.typeNS, fromWSDL: true}
			set.fields, set.depth = &budget{left: shape.MaxFields}, 0
			if err := set.fill(sk, ct, map[string]bool{}); err != nil {
				return nil, fmt.Errorf("%s's result type %s: %w", op, r.typeName, err)
			}
			r.skeleton = sk
		} else if form := dataSetForm(res); form != "" {
			r.dataset, r.dsForm = true, form
		} else {
			r.node = true
			if ct := res.SelectElement("complexType"); ct != nil && ct.SelectAttrValue("mixed", "") == "true" {
				r.mixed = true
			}
		}
		info.ops[op] = r
	}
	if !slices.ContainsFunc(shape.Operations(), func(op string) bool { return info.ops[op] != nil }) {
		if loc := includedServiceSchema(defs, info.ns); loc != "" {
			return nil, fmt.Errorf("the WSDL does not hold the schema of the service namespace %s but links it (%s): .NET moves the service's declarations out of the WSDL "+
				"when a typed DataSet's schema in the service namespace is merged into them (it then counts as a DataSet schema); "+
				"atmkit does not model a typed DataSet in the service namespace", info.ns, loc)
		}
		return nil, noResults(set, info.ns)
	}
	return info, nil
}

// includedServiceSchema is the schemaLocation of the service namespace
// ns's schema when the WSDL links it instead of holding it, "" when it
// does not. .NET does so where it moved the service schema out of
// wsdl:types (a typed DataSet's schema in the service namespace merged
// into it makes it a DataSet schema, ServiceDescriptionReflector.Reflect):
// DiscoveryServerProtocol.AddExternal links it from the first schema left,
// with an xs:include from one of the service namespace (the schema it
// makes when none is left), else an xs:import of the namespace.
func includedServiceSchema(defs *etree.Element, ns string) string {
	for _, types := range defs.SelectElements("types") {
		for _, schema := range types.ChildElements() {
			if schema.Tag != "schema" || schema.NamespaceURI() != nsXSD {
				continue
			}
			own := schema.SelectAttrValue("targetNamespace", "") == ns
			for _, ext := range schema.ChildElements() {
				loc := ext.SelectAttrValue("schemaLocation", "")
				switch {
				case ext.NamespaceURI() != nsXSD || loc == "":
				case ext.Tag == "include" && own,
					ext.Tag == "import" && !own && ext.SelectAttrValue("namespace", "") == ns:
					return loc
				}
			}
		}
	}
	return ""
}

// noResults is the error of a WSDL that declares the result of none of
// the service's operations: its operations return nothing (the JSON
// endpoint's WSDL, service-v2.asmx?WSDL, declares its two searches void:
// they write their JSON themselves), or it is another service's.
func noResults(set *schemaSet, ns string) error {
	var void []string
	for _, op := range shape.Operations() {
		if set.elements[key(ns, op+"Response")] != nil {
			void = append(void, op)
		}
	}
	if len(void) > 0 {
		verb := "return"
		if len(void) == 1 {
			verb = "returns"
		}
		return fmt.Errorf("the WSDL declares no result for any of the service's operations: %s %s nothing in it "+
			"(as in the WSDL of the JSON endpoint, service-v2.asmx, whose operations write their JSON themselves); "+
			"give the WSDL of the XML service, …/service/service.asmx", strings.Join(void, " and "), verb)
	}
	return fmt.Errorf("the WSDL declares none of the service's operations (%s): it describes another service; "+
		"give the WSDL of the XML service, …/service/service.asmx", strings.Join(shape.Operations(), ", "))
}

// dataSetForm tells whether a result element's inline type declares a
// DataSet, as .NET does (a reference to xs:schema and an xs:any) or as
// Mono does (two lax xs:any, in the XSD and diffgram namespaces), or a
// typed DataSet (one xs:any in its namespace), and which; "" for another
// type.
func dataSetForm(res *etree.Element) string {
	ct := res.SelectElement("complexType")
	if ct == nil {
		return ""
	}
	seq := ct.SelectElement("sequence")
	if seq == nil {
		return ""
	}
	var refSchema, anyAny, anyXSD, anyDiffgram bool
	anyOther := 0
	for _, k := range seq.ChildElements() {
		switch k.Tag {
		case "element":
			if ns, local := resolveQName(k, k.SelectAttrValue("ref", "")); ns == nsXSD && local == "schema" {
				refSchema = true
			}
		case "any":
			switch k.SelectAttrValue("namespace", "") {
			case "":
				anyAny = true
			case nsXSD:
				anyXSD = true
			case nsDiffgram:
				anyDiffgram = true
			case "##any", "##other", "##local", "##targetNamespace":
			default:
				anyOther++
			}
		}
	}
	switch {
	case refSchema && anyAny:
		return shape.WSDLSchemaAny
	case anyXSD && anyDiffgram:
		return shape.WSDLLaxAny
	case anyOther == 1 && len(seq.ChildElements()) == 1:
		// A typed DataSet: an xs:any in its schema's namespace.
		return shape.WSDLTyped
	}
	return ""
}

// findResultElement finds the element declaration called name in a
// response element's inline type.
func findResultElement(resp *etree.Element, name string) *etree.Element {
	for _, e := range resp.FindElements(".//element") {
		if e.SelectAttrValue("name", "") == name {
			return e
		}
	}
	return nil
}

// splitQName splits prefix:local.
func splitQName(q string) (prefix, local string) {
	if i := strings.IndexByte(q, ':'); i >= 0 {
		return q[:i], q[i+1:]
	}
	return "", q
}

// resolveQName resolves a QName written in an attribute of e.
func resolveQName(e *etree.Element, q string) (ns, local string) {
	prefix, local := splitQName(q)
	for x := e; x != nil; x = x.Parent() {
		for _, a := range x.Attr {
			if (prefix == "" && a.Space == "" && a.Key == "xmlns") || (prefix != "" && a.Space == "xmlns" && a.Key == prefix) {
				return a.Value, local
			}
		}
	}
	return "", local
}

// schemaOf returns the schema element a declaration is in.
func schemaOf(e *etree.Element) *etree.Element {
	for x := e; x != nil; x = x.Parent() {
		if x.Tag == "schema" {
			return x
		}
	}
	return nil
}

// fill adds the fields of complexType ct to n: base type fields first
// (complexContent extension), then the sequence, then attributes.
// visiting guards against recursive types.
func (s *schemaSet) fill(n *node, ct *etree.Element, visiting map[string]bool) error {
	schema := schemaOf(ct)
	tns := s.forms[schema]
	name := key(tns, ct.SelectAttrValue("name", ""))
	if visiting[name] {
		return fmt.Errorf("type %s contains itself", ct.SelectAttrValue("name", ""))
	}
	visiting[name] = true
	defer delete(visiting, name)
	body := ct
	if sc := ct.SelectElement("simpleContent"); sc != nil {
		if ext := sc.SelectElement("extension"); ext != nil {
			t, own := simpleTypeOf(ext, ext.SelectAttrValue("base", "s:string"))
			if len(ext.ChildElements()) == 0 {
				// A class of its text alone: written as its text's type.
				n.typ, n.fromWSDL, n.textClass, n.simpleType = t, true, ct.SelectAttrValue("name", ""), own
				return nil
			}
			// Text (XmlText) beside attributes.
			k := &node{text: true, typ: t, fromWSDL: true, simpleType: own}
			s.enum(k, ext, ext.SelectAttrValue("base", ""))
			n.kids = append(n.kids, k)
			body = ext
		}
	}
	if cc := ct.SelectElement("complexContent"); cc != nil {
		if ext := cc.SelectElement("extension"); ext != nil {
			bns, blocal := resolveQName(ext, ext.SelectAttrValue("base", ""))
			if base := s.types[key(bns, blocal)]; base != nil {
				if err := s.fill(n, base, visiting); err != nil {
					return err
				}
			}
			body = ext
		}
	}
	for _, group := range body.ChildElements() {
		switch group.Tag {
		case "sequence", "all", "choice":
			for _, el := range group.SelectElements("element") {
				if err := s.addElement(n, el, schema, visiting); err != nil {
					return err
				}
			}
		case "attribute":
			decl, ns := group, ""
			// A local attribute is in its schema's namespace when
			// qualified: its form, else the schema's
			// attributeFormDefault (XmlSchemaImporter.AttributeForm).
			if form := group.SelectAttrValue("form", ""); form == "qualified" || form == "" && s.qualifyAt[schema] {
				ns = tns
			}
			if ref := group.SelectAttrValue("ref", ""); ref != "" {
				rns, rlocal := resolveQName(group, ref)
				if decl = s.attributes[key(rns, rlocal)]; decl == nil {
					return fmt.Errorf("attribute ref %s is not defined", ref)
				}
				ns = rns
			}
			t, own := simpleTypeOf(decl, decl.SelectAttrValue("type", "s:string"))
			if err := s.count(); err != nil {
				return err
			}
			k := &node{name: decl.SelectAttrValue("name", ""), ns: ns, attr: true, typ: t, fromWSDL: true, simpleType: own}
			s.enum(k, decl, decl.SelectAttrValue("type", ""))
			if a := decl.SelectAttr("default"); a != nil {
				k.def = &a.Value
			}
			n.kids = append(n.kids, k)
		}
	}
	return nil
}

// simpleTypeOf is the XSD type of a value whose declaration e names type
// q: an XSD type, or "string" for a simple type of the deployment's own
// (an enum's, whose values XmlSerializer writes as its XmlEnum names),
// named by own: its values are text, as an element's (see addElement).
func simpleTypeOf(e *etree.Element, q string) (typ, own string) {
	ns, local := resolveQName(e, q)
	if ns != nsXSD {
		return "string", local
	}
	return local, ""
}

// enum sets the namespace and values of k's simple type, which its
// declaration e names by the QName q, when the schema declares it as
// XmlSchemaExporter does an enum: a restriction of s:string listing its
// values (a [Flags] enum's list of them is not modelled, nor is a type
// the WSDL does not hold).
func (s *schemaSet) enum(k *node, e *etree.Element, q string) {
	ns, local := resolveQName(e, q)
	st := s.simple[key(ns, local)]
	if st == nil || k.simpleType == "" || !plainName(local) {
		return
	}
	r := st.SelectElement("restriction")
	if r == nil {
		return
	}
	if bns, blocal := resolveQName(r, r.SelectAttrValue("base", "")); bns != nsXSD || blocal != "string" {
		return
	}
	var values []string
	for _, v := range r.SelectElements("enumeration") {
		value := v.SelectAttrValue("value", "")
		if slices.Contains(values, value) {
			return // no enum's: its XmlEnum names differ
		}
		values = append(values, value)
	}
	if len(values) > 0 {
		k.enumNS, k.enumValues = ns, values
	}
}

// plainName reports whether name is a name a .NET type may have: letters,
// digits, _, - and ., not starting with a digit, - or . (an XML name; a
// simple type of another name is taken for a string).
func plainName(name string) bool {
	for i, r := range name {
		switch {
		case r == '_' || unicode.IsLetter(r):
		case i > 0 && (r == '-' || r == '.' || unicode.IsDigit(r)):
		default:
			return false
		}
	}
	return name != ""
}

// addElement adds the element declaration el (local, or a ref to a global
// one) to n.
func (s *schemaSet) addElement(n *node, el, schema *etree.Element, visiting map[string]bool) error {
	decl := el
	ns := ""
	if s.qualify[schema] || el.SelectAttrValue("form", "") == "qualified" {
		ns = s.forms[schema]
	}
	if el.SelectAttrValue("form", "") == "unqualified" {
		ns = ""
	}
	if ref := el.SelectAttrValue("ref", ""); ref != "" {
		rns, rlocal := resolveQName(el, ref)
		decl = s.elements[key(rns, rlocal)]
		if decl == nil {
			return fmt.Errorf("element ref %s is not defined", ref)
		}
		ns = rns
	}
	k := &node{name: decl.SelectAttrValue("name", ""), ns: ns, fromWSDL: true,
		repeated: el.SelectAttrValue("maxOccurs", "1") == "unbounded"}
	k.nillable = !k.repeated && decl.SelectAttrValue("nillable", "false") == "true"
	k.structType = !k.repeated && !k.nillable && el.SelectAttrValue("minOccurs", "1") == "1"
	if a := decl.SelectAttr("default"); a != nil && !k.repeated {
		k.def = &a.Value
	}
	defer func() {
		k.optional = !k.repeated && k.def == nil && k.typ != "" && !k.anyType && shape.IsValueType(k.typ) && el.SelectAttrValue("minOccurs", "1") == "0"
	}()
	t := decl.SelectAttrValue("type", "")
	var ct *etree.Element
	if t != "" {
		tns, tlocal := resolveQName(decl, t)
		if tns == nsXSD {
			k.typ = tlocal
		} else if ct = s.types[key(tns, tlocal)]; ct != nil {
			k.typeName, k.typeNS, k.typeNoNS = tlocal, tns, tns == ""
			k.derivable = s.derivedFrom(key(tns, tlocal))
		} else {
			k.typ, k.simpleType = "string", tlocal // a simple type of the deployment's own: its values are text
			s.enum(k, decl, t)
		}
	} else if inline := decl.SelectElement("complexType"); inline != nil {
		ct = inline
	} else {
		k.typ, k.anyType = "string", true // xs:anyType: a member declared object
	}
	if err := s.count(); err != nil {
		return err
	}
	if ct != nil {
		s.depth++
		err := s.fill(k, ct, visiting)
		s.depth--
		if err != nil {
			return err
		}
	}
	n.kids = append(n.kids, k)
	return nil
}

// count counts a field of the node being filled, failing past the
// limits of a shape (the skeleton's budget).
func (s *schemaSet) count() error {
	if !s.fields.take(s.depth + 1) {
		return s.fields.err
	}
	return nil
}

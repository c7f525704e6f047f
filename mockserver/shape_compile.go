package mockserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/shape"
)

// The XML encoder of results is compiled from a shape.Shape once, when the
// server is made: each result becomes, per binding family (inside a SOAP
// <OpResult>, or the whole GET/POST document), a flat program of byte
// chunks (start and end tags with their indentation, if any, and namespace
// declarations, all prepared) and value writers. Encoding runs the program;
// nothing about the shape is looked up per request. The programs run in
// answer_xml.go; each location item is cached whole per ATM (fragments.go),
// with the place its index goes.

// valueID is a value of the data model an encoder writes.
type valueID uint8

const (
	vGenerated valueID = iota
	vCount
	vPointLat
	vPointLon
	vIndex
	vID
	vATMIdentifier
	vInstID
	vInstName
	vInstURL
	vInstACU
	vLat
	vLon
	vStreet
	vCity
	vProvince
	vPostal
	vLandmark
	vDeposits
	vHours
	vDriveThru
	vPinChange
	vVoiceGuidance
	vVisa
	vPlus
	vMastercard
	vCirrus
	vLanguage
	vProvCode
	vProvName
)

// valueIDs maps the values of each scope (shape.Values) to the encoder's.
var valueIDs = map[shape.Scope]map[string]valueID{
	shape.ScopeLocations: {"count": vCount, "coordinates.latitude": vPointLat, "coordinates.longitude": vPointLon},
	shape.ScopeLocation: {
		"index":                             vIndex,
		"id":                                vID,
		"atmIdentifier":                     vATMIdentifier,
		"institution.id":                    vInstID,
		"institution.name":                  vInstName,
		"institution.url":                   vInstURL,
		"institution.isAtlanticCreditUnion": vInstACU,
		"coordinates.latitude":              vLat,
		"coordinates.longitude":             vLon,
		"address.streetAddress":             vStreet,
		"address.city":                      vCity,
		"address.province":                  vProvince,
		"address.postalCode":                vPostal,
		"address.landmark":                  vLandmark,
		"features.deposits":                 vDeposits,
		"features.hours":                    vHours,
		"features.driveThru":                vDriveThru,
		"features.pinChange":                vPinChange,
		"features.voiceGuidance":            vVoiceGuidance,
		"creditCards.visa":                  vVisa,
		"creditCards.plus":                  vPlus,
		"creditCards.mastercard":            vMastercard,
		"creditCards.cirrus":                vCirrus,
	},
	shape.ScopeInstitution:  {"id": vInstID, "name": vInstName, "url": vInstURL, "isAtlanticCreditUnion": vInstACU},
	shape.ScopeProvince:     {"code": vProvCode, "name": vProvName},
	shape.ScopeInstitutions: {"count": vCount},
	shape.ScopeProvinces:    {"count": vCount},
	shape.ScopeLanguage:     {"language": vLanguage},
	shape.ScopeGroup:        {"institution.id": vInstID, "institution.name": vInstName, "institution.url": vInstURL, "institution.isAtlanticCreditUnion": vInstACU},
}

// leaf is how one value is written.
type leaf struct {
	id    valueID
	kind  shape.Kind
	typ   string // XSD type
	words bool   // a boolean written true/false (else 1/0)
	fixed int    // decimals of a fixed format; -1: shortest
	bits  int    // 32 for xs:float, else 64
	name  string // the field's name, for generated strings
	// enum is the value a generated value of an enum is written as: its
	// first (.NET's default of an enum numbered from 0); "" for others.
	enum string
	// maxLen is a DataSet column's MaxLength (0: none): a generated
	// value is cut to it.
	maxLen int
}

// valueCtx is what the values of one item (or result) are read from.
type valueCtx struct {
	atm   *fixtures.ATM
	inst  *fixtures.Institution
	prov  *fixtures.Province
	lang  string
	ord   int // 1-based position in its data set list, for generated values
	count int
	point fixtures.Coordinates
}

// opKind is the kind of one step of an encoding program.
type opKind uint8

const (
	opBytes    opKind = iota // append b
	opLeaf                   // a value in an element: b value close, or empty for an empty string
	opAttr                   // a value as attribute text (the tags around it are opBytes)
	opAttrOmit               // an attribute left out when its value is empty: b value close, or nothing
	opIfPoint                // skip the next skip steps, writing b instead, when the result has no search point
	opList                   // a list: wrapper, items, wrapper end
	opOpenEnd                // the end of a start tag: " />" when the element's content vanishes (cond), else ">"
	opEndTag                 // b, the end tag, unless the element's content vanished (cond)
)

// vanish says when every element of a typed result's element vanishes:
// the result's items (when items) and its search point (when point) are
// the only elements it may hold.
type vanish struct{ items, point bool }

// holds reports whether an element of this condition holds nothing in
// a result of n items that has a search point or not.
func (v vanish) holds(n int, hasPoint bool) bool {
	return (!v.items || n == 0) && (!v.point || !hasPoint)
}

// op is one step of an encoding program.
type op struct {
	kind  opKind
	b     []byte // opBytes: the bytes; opLeaf: the start tag with its indentation; opAttrOmit: ` name="`; opIfPoint: what a result with no search point gets instead (a nillable element's xsi:nil)
	close []byte // opLeaf: the end tag; opAttrOmit: the closing quote
	empty []byte // opLeaf: the whole empty element (<Name />, <Name xsi:nil="true" />, or nothing for omitEmpty)
	// omits: opLeaf and opAttrOmit leave out the whole element or
	// attribute when the value is written omit (a DefaultValue, an
	// OmitWhen, or empty for omitEmpty).
	omits bool
	omit  []byte
	leaf  leaf
	skip  int
	list  *listCode
	cond  vanish // opOpenEnd, opEndTag
}

// listCode writes a list.
type listCode struct {
	open, close, empty []byte // the wrapper's tags; nil for a list without a wrapper
	item               []op   // the program of one item
	scope              shape.Scope
	// For the location list: the fragment cache variant of its items, and
	// how the index is written (hasIndex: the item writes one).
	variant  int
	index    leaf
	hasIndex bool
	group    *groupCode // the items are groups of locations (shape_groups.go); item is then empty
}

// resultCode is a result compiled for one binding family: the program up
// to the content list, the list, and the program after it.
type resultCode struct {
	head, tail []op
	list       *listCode
	// rootAttrs: the typed SOAP content starts with attributes of
	// <OpResult> and the > that ends its start tag.
	rootAttrs bool
	// mayBeEmpty: a typed result whose elements are only its content
	// list, unwrapped, and values of the search point (pointOnly: some):
	// with no item (and no point) <OpResult> or the GET/POST root holds
	// nothing and is written as XmlTextWriter ends an element given no
	// content (see empty).
	mayBeEmpty, pointOnly bool
}

// empty reports whether the typed result of a holds no element: its
// start tag is then closed with " />", as XmlTextWriter.WriteEndElement
// closes a start tag nothing followed (WriteEndStartTag(true)), and no
// end tag is written. XmlSerializer writes an array's element (the GET/POST
// root ArrayOfX, or <OpResult> of a method returning one) with
// WriteStartElement, its items, WriteEndElement, and an object's with its
// members between the two: <ArrayOfAtm xmlns:xsd="…" xmlns:xsi="…"
// xmlns="…" />, <ReturnAtmSearchByCityResult />.
func (rc *resultCode) empty(a answer) bool {
	return rc.mayBeEmpty && a.n == 0 && (!rc.pointOnly || !a.hasPoint)
}

// shapeEncoder is a shape compiled for a server's namespace.
type shapeEncoder struct {
	shape *shape.Shape
	// soap and plain are the compiled results per operation: inside a SOAP
	// <OpResult>, and as the GET/POST document after the XML declaration.
	soap, plain map[string]*resultCode
	// dsSOAP and dsPlain are the same for the operations whose result is a
	// DataSet (dataset_compile.go).
	dsSOAP, dsPlain map[string]*dsCode
	// variants is the number of fragment cache variants the location items
	// use (JSON is variant 0).
	variants int
	// decimalPoint says, by operation, whether its XML result writes the
	// search point's latitude and longitude as xs:decimal (shape.DecimalPoint).
	decimalPoint map[string][2]bool
}

// Depths: a SOAP response's <OpResult> is at depth 3, so the fields of a
// typed result are at depth 4. SOAP answers are not indented (see
// compiler.flat), but XmlTextWriter names the prefixes it makes up after
// the depth (attributes), and the help pages' samples are indented.
const soapResultDepth = 3

// compileShape compiles sh for service namespace ns.
func compileShape(sh *shape.Shape, ns string) (*shapeEncoder, error) {
	if err := sh.Validate(); err != nil {
		return nil, err
	}
	if err := sh.CheckServiceNamespace(ns); err != nil {
		return nil, err
	}
	e := &shapeEncoder{shape: sh, soap: map[string]*resultCode{}, plain: map[string]*resultCode{},
		dsSOAP: map[string]*dsCode{}, dsPlain: map[string]*dsCode{}, variants: 1}
	variants := map[string]int{}
	byResult := map[*shape.Result][2]*resultCode{}
	byDataSet := map[*shape.Result][2]*dsCode{}
	for _, op := range shape.Operations() {
		r := sh.Result(op)
		if r.Layout == shape.Dataset {
			pair, ok := byDataSet[r]
			for i, soap := range []bool{true, false} {
				if ok {
					break
				}
				c := &compiler{ns: ns, variants: variants, next: &e.variants, flat: soap}
				dc, err := c.dataSet(r, soap)
				if err != nil {
					return nil, fmt.Errorf("compile shape result %s: %w", r.Name, err)
				}
				pair[i] = dc
			}
			byDataSet[r] = pair
			e.dsSOAP[op], e.dsPlain[op] = pair[0], pair[1]
			continue
		}
		if done, ok := byResult[r]; ok {
			e.soap[op], e.plain[op] = done[0], done[1]
			continue
		}
		var pair [2]*resultCode
		for i, soap := range []bool{true, false} {
			c := &compiler{ns: ns, variants: variants, next: &e.variants, flat: soap}
			rc, err := c.result(r, soap)
			if err != nil {
				return nil, fmt.Errorf("compile shape result %s: %w", r.Name, err)
			}
			pair[i] = rc
		}
		byResult[r] = pair
		e.soap[op], e.plain[op] = pair[0], pair[1]
	}
	return e, nil
}

// compiler holds the state of compiling one result for one binding family.
type compiler struct {
	ns       string
	variants map[string]int // item variant key → fragment cache variant
	next     *int           // variants in use
	ops      []op
	// flat: the result is written without indentation, as SOAP answers
	// are: SoapServerProtocol.GetWriterForMessage writes them with a new
	// XmlTextWriter (Formatting.None), and the result's serializer and an
	// XmlNode's WriteTo keep its formatting. GET/POST results are
	// indented by two spaces (XmlSerializer.Serialize(TextWriter)).
	flat bool
	// prefixes are the namespace prefixes in scope where the compiler is,
	// outermost first, as XmlTextWriter keeps them (its nsStack): those a
	// node's elements and attributes are written with (shape.Field.Prefix)
	// and those made up for attributes' namespaces.
	prefixes []madePrefix
	// typed: the result is an object XmlSerializer writes, whose elements
	// take a prefix in scope for their namespace (see elementPrefix).
	typed bool
	// resultName is the name of the result compiled: items of two results
	// are not written alike, so they keep fragments of their own.
	resultName string
}

func (c *compiler) bytes(s string) {
	if n := len(c.ops); n > 0 && c.ops[n-1].kind == opBytes {
		c.ops[n-1].b = append(c.ops[n-1].b, s...)
		return
	}
	c.ops = append(c.ops, op{kind: opBytes, b: []byte(s)})
}

// cut ends the bytes written so far, so that what follows starts a step
// of its own (which conditional may skip), and returns that step's index.
func (c *compiler) cut() int {
	n := len(c.ops)
	if n > 0 && c.ops[n-1].kind == opBytes {
		c.ops = append(c.ops, op{kind: opBytes})
	}
	return n
}

// indent is the line break and indentation XmlTextWriter writes before
// an element at depth where it indents (depth -1: none, the document's
// first line).
func indent(depth int) string {
	if depth < 0 {
		return ""
	}
	return "\n" + strings.Repeat("  ", depth)
}

// indent is the line break and indentation before an element at depth
// where the result is indented, else nothing. The GET/POST writer breaks
// lines with CR LF: XmlTextWriter.Indent calls textWriter.WriteLine(), and
// .NET Framework's TextWriter.CoreNewLine is "\r\n" (Mono on Linux writes
// Environment.NewLine, LF: a Mono difference, docs/asmx.md).
func (c *compiler) indent(depth int) string {
	if c.flat || depth < 0 {
		return ""
	}
	return "\r\n" + strings.Repeat("  ", depth)
}

// result compiles r: inside <OpResult> (soap) or as the GET/POST document.
func (c *compiler) result(r *shape.Result, soap bool) (*resultCode, error) {
	scope := shape.ScopeOf(r.Content())
	contentNS := r.ContentNamespace(c.ns)
	rc := &resultCode{}
	c.typed = r.Layout == shape.Typed
	c.resultName = r.Name
	switch {
	case r.Layout == shape.Node:
		// The node: right after <OpResult> (whose default namespace is the
		// service's) or after the XML declaration (no default namespace).
		inScope := ""
		if soap {
			inScope = c.ns
		}
		c.element(r.Root, r.Prefix, contentNS, inScope, -1, r.Fields, scope, func(depth int) {
			c.fields(r.Fields, scope, contentNS, childInScope(r.Prefix, contentNS, inScope), depth, rc)
		})
	case soap:
		// The result's own attributes are <OpResult>'s.
		if c.attributes(r.Fields, scope, soapResultDepth, len(c.prefixes)) {
			rc.rootAttrs = true
			c.bytes(">")
		}
		c.fields(r.Fields, scope, contentNS, c.ns, soapResultDepth+1, rc)
		c.bytes(c.indent(soapResultDepth))
	default:
		// The typed GET/POST root: named by its type, in the service
		// namespace, with the declarations XmlSerializer writes, then the
		// result's own attributes, then the pending default namespace.
		c.bytes("<" + r.Root + ` xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`)
		c.attributes(r.Fields, scope, 0, len(c.prefixes))
		c.bytes(xmlnsAttr(c.ns, "") + ">")
		c.fields(r.Fields, scope, contentNS, c.ns, 1, rc)
		c.bytes("\r\n</" + r.Root + ">")
	}
	if rc.list == nil {
		return nil, fmt.Errorf("no %s list", r.Content())
	}
	if r.Layout == shape.Typed {
		rc.mayBeEmpty, _, rc.pointOnly = contentMayBeEmpty(r.Fields, scope)
	}
	// Split at the content list.
	for i, o := range c.ops {
		if o.kind == opList && o.list == rc.list {
			rc.head, rc.tail = c.ops[:i], c.ops[i+1:]
			break
		}
	}
	return rc, nil
}

// contentMayBeEmpty reports whether the elements among fields (a
// result's, or an element's in it) are only the result's content list,
// unwrapped (items), and values written only when the result has a
// search point (point): elements that vanish in a result of no items and
// no point.
func contentMayBeEmpty(fields []*shape.Field, scope shape.Scope) (ok, items, point bool) {
	for _, f := range fields {
		switch {
		case f.Attribute != "":
		case f.Text:
			return false, false, false
		case f.List != "":
			switch shape.Content(f.List) {
			case shape.Locations, shape.Institutions, shape.Provinces:
			default:
				return false, false, false
			}
			if f.Element != "" {
				return false, false, false
			}
			items = true
		case scope == shape.ScopeLocations && f.PointOnly() && !f.Nillable && !f.Always:
			point = true
		default:
			return false, false, false
		}
	}
	return true, items, point
}

// attributes compiles the attributes among fields, of an element at
// depth whose prefix bindings start at from in c.prefixes, and reports
// whether there were any. An attribute in a namespace is written as
// XmlTextWriter's WriteStartAttribute writes it: its own prefix (a node's
// attribute may say one) unless the element already bound that prefix to
// another namespace; the prefix in scope for its namespace when it says
// none or says that one (an attribute in its element's prefixed namespace
// takes the element's prefix, declaring nothing); else its own prefix, or
// one made up (d<level>p<n>), bound on the element. The bindings made on
// the element are declared after every attribute, the last bound first
// (before the element's own default namespace declaration, which the
// caller writes next). The caller drops them after the element's end.
func (c *compiler) attributes(fields []*shape.Field, scope shape.Scope, depth, from int) bool {
	made := 0
	any := false
	for _, f := range fields {
		if f.Attribute == "" {
			continue
		}
		any = true
		ns := f.Namespace.Resolve(c.ns, "")
		if omit, ok := f.Omits(); ns == "" && ok {
			c.ops = append(c.ops, op{kind: opAttrOmit, b: []byte(" " + f.Attribute + `="`), close: []byte(`"`), leaf: c.leaf(f, scope),
				omits: true, omit: []byte(omit)})
			continue
		}
		if ns == "" {
			c.bytes(" " + f.Attribute + `="`)
			c.ops = append(c.ops, op{kind: opAttr, leaf: c.leaf(f, scope)})
			c.bytes(`"`)
			continue
		}
		prefix := f.Prefix
		if i := c.lookup(prefix); prefix != "" && i >= from {
			prefix = "" // bound on this element already: XmlTextWriter drops it
		}
		if defined, ok := c.prefixFor(ns); ok && (prefix == "" || prefix == defined) {
			prefix = defined
		} else {
			if prefix == "" {
				made++
				prefix = fmt.Sprintf("d%dp%d", max(depth, 0)+1, made)
			}
			c.prefixes = append(c.prefixes, madePrefix{ns, prefix})
		}
		c.bytes(" " + prefix + ":" + f.Attribute + `="`)
		c.ops = append(c.ops, op{kind: opAttr, leaf: c.leaf(f, scope)})
		c.bytes(`"`)
	}
	c.declarations(from)
	return any
}

// element compiles an element with the given fields, written with prefix
// (none: in the default namespace): its start tag (with its attributes),
// body (written by body at depth+1) and end tag. depth -1 is a root
// written without indentation at depth 0.
func (c *compiler) element(name, prefix, ns, inScope string, depth int, fields []*shape.Field, scope shape.Scope, body func(depth int)) {
	at := depth
	if depth < 0 {
		at = 0
	}
	from := len(c.prefixes)
	defer func() { c.prefixes = c.prefixes[:from] }() // in scope until its end tag
	name = c.bindElement(prefix, name, ns)
	c.bytes(c.indent(depth) + "<" + name)
	c.attributes(fields, scope, at, from)
	c.bytes(defaultDecl(prefix, ns, inScope))
	if i := slices.IndexFunc(fields, func(f *shape.Field) bool { return f.Text }); i >= 0 {
		// Text beside the attributes; none (an empty string) closes the tag.
		c.ops = append(c.ops, op{kind: opLeaf, b: []byte(">"), close: []byte("</" + name + ">"),
			empty: []byte(c.emptyEnd(fields[i], "", name, at)), leaf: c.leaf(fields[i], scope)})
		return
	}
	hasElements := slices.ContainsFunc(fields, func(f *shape.Field) bool { return f.Attribute == "" })
	if !hasElements {
		c.bytes(" />")
		return
	}
	if ok, items, point := contentMayBeEmpty(fields, scope); ok && c.typed && depth >= 0 {
		// XmlSerializer writes a nested object's members between
		// WriteStartElement and WriteEndElement: with none written,
		// XmlTextWriter closes the start tag with " />".
		cond := vanish{items: items, point: point}
		c.ops = append(c.ops, op{kind: opOpenEnd, cond: cond})
		body(at + 1)
		c.ops = append(c.ops, op{kind: opEndTag, b: []byte(c.indent(at) + "</" + name + ">"), cond: cond})
		return
	}
	c.bytes(">")
	body(at + 1)
	c.bytes(c.indent(at) + "</" + name + ">")
}

// fields compiles the element children of fields at depth: their elements
// are in namespace inherit unless they say otherwise, and the default
// namespace in scope is inScope (the enclosing element's). rc receives the
// content list.
func (c *compiler) fields(fields []*shape.Field, scope shape.Scope, inherit, inScope string, depth int, rc *resultCode) {
	for _, f := range fields {
		if f.Attribute != "" || f.Text {
			continue // written in the enclosing start tag, or as its text
		}
		ns := f.Namespace.Resolve(c.ns, inherit)
		switch {
		case f.List != "":
			c.list(f, scope, ns, inherit, inScope, depth, rc)
		case len(f.Fields) > 0:
			start := c.cut()
			prefix := c.elementPrefix(f.Prefix, ns)
			kids := f.Fields
			if f.Always {
				kids = alwaysWritten(kids)
			}
			c.element(f.Element, prefix, ns, inScope, depth, kids, scope, func(d int) {
				c.fields(kids, scope, f.ChildNamespace(c.ns, ns), childInScope(prefix, ns, inScope), d, rc)
			})
			if scope == shape.ScopeLocations && f.PointOnly() && !f.Always {
				c.conditional(start, c.nilElement(f, prefix, ns, inScope, depth))
			}
		default:
			start := c.cut()
			prefix := c.elementPrefix(f.Prefix, ns)
			name, open := c.leafTag(f.Element, prefix, ns, inScope, depth)
			if f.XsiType {
				// A member declared object: its value's type, with the
				// xsd prefix the SOAP envelope and the GET/POST root
				// declare, right after the name: XmlTextWriter writes
				// the element's namespace declarations after its
				// attributes.
				open = c.afterName(open, name, depth, ` xsi:type="xsd:`+f.Type+`"`)
			}
			omit, omits := f.Omits()
			c.ops = append(c.ops, op{kind: opLeaf, b: []byte(open + ">"), close: []byte("</" + name + ">"),
				empty: []byte(c.emptyEnd(f, open, name, depth)), leaf: c.leaf(f, scope), omits: omits && omit != "", omit: []byte(omit)})
			if scope == shape.ScopeLocations && f.PointOnly() && !f.Always {
				c.conditional(start, c.nilElement(f, prefix, ns, inScope, depth))
			}
		}
	}
}

// leafTag returns the qualified name of an element with no attributes
// and no element children (a value, or a list's wrapper) written with
// prefix in ns where the default namespace is inScope, and its start tag
// without its closing > (indented for depth): the prefix's declaration
// when no enclosing element bound it to ns, else the default namespace's
// when it differs.
func (c *compiler) leafTag(name, prefix, ns, inScope string, depth int) (string, string) {
	from := len(c.prefixes)
	defer func() { c.prefixes = c.prefixes[:from] }()
	q := c.bindElement(prefix, name, ns)
	var b strings.Builder
	b.WriteString(c.indent(depth) + "<" + q)
	for _, p := range slices.Backward(c.prefixes[from:]) {
		b.WriteString(" xmlns:" + p.prefix + `="` + string(asmx.AppendAttr(nil, p.ns)) + `"`)
	}
	b.WriteString(defaultDecl(prefix, ns, inScope))
	return q, b.String()
}

// list compiles a list: its wrapper's tags (none for an unwrapped list) and
// the program of one item. ns is the list element's namespace; an
// unwrapped list's items inherit inherit, a wrapped list's items ns.
func (c *compiler) list(f *shape.Field, scope shape.Scope, ns, inherit, inScope string, depth int, rc *resultCode) {
	itemScope, _ := shape.ItemScope(scope, f)
	lc := &listCode{scope: itemScope}
	itemDepth, itemInScope, itemInherit := depth, inScope, inherit
	if f.Element != "" {
		// The wrapper's prefix binding is in scope for its items.
		defer func(n int) { c.prefixes = c.prefixes[:n] }(len(c.prefixes))
		prefix := c.elementPrefix(f.Prefix, ns)
		name, open := c.leafTag(f.Element, prefix, ns, inScope, depth)
		c.bindElement(prefix, f.Element, ns)
		lc.open = []byte(open + ">")
		lc.empty = []byte(open + " />")
		lc.close = []byte(c.indent(depth) + "</" + name + ">")
		itemDepth, itemInScope, itemInherit = depth+1, childInScope(prefix, ns, inScope), ns
	}
	it := f.Item
	itemNS := it.Namespace.Resolve(c.ns, itemInherit)
	ic := &compiler{ns: c.ns, variants: c.variants, next: c.next, prefixes: slices.Clone(c.prefixes), flat: c.flat, typed: c.typed, resultName: c.resultName}
	itemPrefix := ic.elementPrefix(it.Prefix, itemNS)
	switch {
	case itemScope == shape.ScopeGroup:
		lc.group = ic.group(it, itemPrefix, itemNS, itemInScope, itemDepth)
		lc.group.order = f.GroupOrder
	case itemScope == shape.ScopeLanguage && len(it.Fields) == 0:
		name, open := ic.leafTag(it.Element, itemPrefix, itemNS, itemInScope, itemDepth)
		ic.ops = append(ic.ops, op{kind: opLeaf, b: []byte(open + ">"), close: []byte("</" + name + ">"),
			empty: []byte(ic.emptyEnd(it, open, name, itemDepth)), leaf: leaf{id: vLanguage, kind: shape.KindString, typ: it.Type, fixed: -1, bits: 64}})
	default:
		ic.element(it.Element, itemPrefix, itemNS, itemInScope, itemDepth, it.Fields, itemScope, func(d int) {
			ic.fields(it.Fields, itemScope, it.ChildNamespace(c.ns, itemNS), childInScope(itemPrefix, itemNS, itemInScope), d, rc)
		})
	}
	lc.item = ic.ops
	if itemScope == shape.ScopeLocation {
		for _, o := range allOps(lc.item) {
			if (o.kind == opLeaf || o.kind == opAttr) && o.leaf.id == vIndex {
				lc.index, lc.hasIndex = o.leaf, true
			}
		}
		// The fragment cache keeps a variant per way items are written:
		// per result (two results may name or fill their items
		// differently), SOAP's flat items apart from GET/POST's.
		key := fmt.Sprintf("%s|%d|%t|%s|%v", c.resultName, itemDepth, c.flat, itemInScope, c.prefixes)
		v, ok := c.variants[key]
		if !ok {
			v = *c.next
			*c.next++
			c.variants[key] = v
		}
		lc.variant = v
	}
	switch shape.Content(f.List) {
	case shape.Locations, shape.Institutions, shape.Provinces:
		rc.list = lc
	}
	c.ops = append(c.ops, op{kind: opList, list: lc})
}

// allOps lists the steps of a program and of the lists in it.
func allOps(ops []op) []op {
	var out []op
	for _, o := range ops {
		out = append(out, o)
		if o.kind == opList && o.list != nil {
			out = append(out, allOps(o.list.item)...)
		}
	}
	return out
}

// leaf compiles how f's value is written.
func (c *compiler) leaf(f *shape.Field, scope shape.Scope) leaf {
	l := leaf{typ: f.Type, fixed: -1, bits: 64, name: f.Name()}
	if f.Type == "float" {
		l.bits = 32
	}
	format := f.EffectiveFormat()
	l.words = format == shape.FormatTrueFalse
	if n, ok := shape.FixedDecimals(format); ok {
		l.fixed = n
	}
	if f.Generated {
		l.id, l.kind = vGenerated, shape.KindString
		if f.Enum != "" && len(f.EnumValues) > 0 {
			l.enum = f.EnumValues[0]
		}
		return l
	}
	l.id = valueIDs[scope][f.Value]
	if v, ok := shape.LookupValue(scope, f.Value); ok {
		l.kind = v.Kind
	}
	return l
}

// dataSet returns the compiled DataSet result of op for binding b, or nil
// when op's result is no DataSet.
func (e *shapeEncoder) dataSet(op string, b asmx.Binding) *dsCode {
	if b.IsSOAP() {
		return e.dsSOAP[op]
	}
	return e.dsPlain[op]
}

// code returns the compiled result of op for binding b.
func (e *shapeEncoder) code(op string, b asmx.Binding) *resultCode {
	if b.IsSOAP() {
		return e.soap[op]
	}
	return e.plain[op]
}

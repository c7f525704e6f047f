package learn

// This file holds the skeleton of a result (its elements and attributes)
// and builds one from the answers; wsdl.go builds one from the schema.

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// node is one element or attribute of a deployment's result, as the WSDL
// or the answers show it: the skeleton the learner maps atmkit's values on.
type node struct {
	name string
	ns   string // namespace URI of the element ("" for attributes)
	// prefix is the prefix the answers wrote the element (or the
	// attribute in a namespace) with, as first seen; a node result keeps
	// it (shape.Field.Prefix).
	prefix   string
	attr     bool
	text     bool   // the enclosing element's text (XmlText), beside its attributes
	typ      string // XSD simple type of a value; "" for complex elements
	typeName string // complexType name, when the WSDL gives one
	typeNS   string // the complexType's namespace, when the WSDL gives one
	// typeNoNS: the WSDL declares the complexType in no namespace (a
	// schema without targetNamespace: XmlType's Namespace "").
	typeNoNS bool
	// textClass is the complexType name of a value the WSDL declares as a
	// class holding only its text (an XmlText member, no attributes):
	// written as a string is, the node is a leaf of the text's type.
	textClass string
	kids      []*node
	repeated  bool // occurs many times in its parent (maxOccurs unbounded, or seen so)
	fromWSDL  bool // typ comes from the schema (else it is inferred from values)
	// anyText: a string that may hold a value of any kind (a DataSet's
	// string column: ReadXml types every column it infers so).
	anyText bool

	// What the answers held, for inferring types and formats.
	texts []string
	seen  int // instances seen in answers
	// fullEnds and shortEnds count the empty values of a node result's
	// answers ended with an end tag of their own, and written <x />.
	fullEnds, shortEnds int
	// nillable: the WSDL declares the element nillable (and it is no
	// list's item). nils counts the instances the answers wrote
	// xsi:nil="true"; absent the instances of its parent that held no
	// instance of it (a null string XmlSerializer left out).
	nillable     bool
	nils, absent int
	// def is the value's DefaultValue the WSDL declares (default="false");
	// omitWhen the JSON value of the items whose XML left the value out,
	// all one (an XxxSpecified member false, or a DefaultValue).
	def      *string
	omitWhen string
	// optional: the WSDL declares the value, of a value type, minOccurs
	// 0 with no default: an XxxSpecified member says when it is written.
	optional bool
	// anyType: the WSDL declares the element with no type (xs:anyType: a
	// member declared object). xsiType is the XSD type the answers wrote
	// beside its value (xsi:type="xsd:short"), which is its type.
	anyType bool
	xsiType string
	// ownType is a type of the deployment's own an answer wrote the
	// value of a member declared object as (xsi:type="Region": an enum
	// XmlInclude'd), which a shape does not model.
	ownType string
	// noPoint counts the instances answers of operations that have no
	// search point held (its values 0 where the node holds the point's).
	noPoint int
	// derived is the class an answer wrote the element as, derived from
	// its declared one (xsi:type="DriveUpTeller": XmlInclude); derivable
	// one the WSDL derives from it.
	derived, derivable string
	// simpleType is the name of the deployment's own simple type the WSDL
	// declares the value of (an enum's): written as its text, a string.
	simpleType string
	// enumNS and enumValues are the namespace of that simple type and its
	// values (its enumerations, in order) when the WSDL declares it as
	// XmlSchemaExporter does an enum: a restriction of s:string.
	enumNS     string
	enumValues []string
	// structType: the WSDL declares the element of a complexType
	// minOccurs 1 and not nillable, as XmlSchemaExporter does a value
	// type's (a struct).
	structType bool

	// The mapping: the model value (shape.Field.Value) this leaf holds, or
	// the list it is; how it was decided.
	value string
	list  string
	group bool // the item of a locations list grouped by institution (findGroup)
	// groupOrder is a grouped list's order of groups when not the
	// default (matchGroups).
	groupOrder string
	evidence   string
	guessed    bool
}

func (n *node) isLeaf() bool { return len(n.kids) == 0 && n.typ != "" }

// label is the node's name for reports (@ for attributes).
func (n *node) label() string {
	switch {
	case n.attr:
		return "@" + n.name
	case n.text:
		return "text()"
	}
	return n.name
}

// child returns the kid named name (element or attribute), or nil.
func (n *node) child(name string, attr bool) *node {
	for _, k := range n.kids {
		if k.name == name && k.attr == attr {
			return k
		}
	}
	return nil
}

// textKid returns n's text kid, or nil.
func (n *node) textKid() *node {
	for _, k := range n.kids {
		if k.text {
			return k
		}
	}
	return nil
}

// attrOf returns el's attribute of k's name and namespace, or nil.
func attrOf(el *etree.Element, k *node) *etree.Attr {
	for i := range el.Attr {
		a := &el.Attr[i]
		if a.Key == k.name && a.Space != "xmlns" && a.NamespaceURI() == k.ns {
			return a
		}
	}
	return nil
}

// wrappedItem returns the item of a wrapped list (an element whose only kid
// is repeated), or nil.
func (n *node) wrappedItem() *node {
	if len(n.kids) == 1 && n.kids[0].repeated && !n.kids[0].attr {
		return n.kids[0]
	}
	return nil
}

// walk calls f for n and every node below it, with the path from n.
func (n *node) walk(at string, f func(k *node, at string)) {
	f(n, at)
	for _, k := range n.kids {
		p := k.label()
		if at != "" {
			p = at + "/" + p
		}
		k.walk(p, f)
	}
}

// inferType guesses the XSD type of a value from its texts in answers.
func inferType(texts []string) string {
	if len(texts) == 0 {
		return "string"
	}
	isInt, isNum, isBool, isDateTime := true, true, true, true
	for _, t := range texts {
		t = strings.TrimSpace(t)
		if !dateTime.MatchString(t) {
			isDateTime = false
		}
		if _, err := strconv.ParseInt(t, 10, 64); err != nil {
			isInt = false
		}
		if _, err := strconv.ParseFloat(t, 64); err != nil || t == "" {
			isNum = false
		}
		if t != "true" && t != "false" {
			isBool = false
		}
	}
	switch {
	case isDateTime:
		return "dateTime"
	case isBool:
		return "boolean"
	case isInt:
		return "int"
	case isNum:
		return "double"
	}
	return "string"
}

var dateTime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}`)

// decimals is the number of digits after the point in a number's text, or
// -1 when it has no point.
func decimals(t string) int {
	i := strings.IndexByte(t, '.')
	if i < 0 || strings.ContainsAny(t, "eE") {
		return -1
	}
	return len(t) - i - 1
}

// skeletonFromAnswers builds a group's skeleton from its answers: every
// element and attribute seen, in the order first seen; elements repeated
// in one parent are lists. It fails on results of more fields than a
// shape may describe (shape.MaxFields), or nested deeper (shape.MaxDepth):
// a result has a few dozen, nested a few levels, and building the
// skeleton of tens of thousands took time quadratic in their number.
func (l *learner) skeletonFromAnswers(g *group) error {
	var insts []*etree.Element
	for _, c := range g.contents {
		insts = append(insts, resultElement(c, g.layout))
	}
	name, sure := "", false
	for _, c := range g.contents {
		if !c.soap {
			name, sure = c.root.Tag, true
			break
		}
	}
	if g.layout == shape.Node && name == "" {
		name, sure = insts[0].Tag, true
	}
	g.root = &node{name: name, ns: insts[0].NamespaceURI(), prefix: insts[0].Space}
	if g.layout == shape.Typed {
		g.root.ns = l.ns
	}
	g.rootSure = sure
	if g.layout == shape.Node {
		for _, c := range g.contents {
			c.emptyEnds(l.ends)
		}
	}
	b := &budget{left: shape.MaxFields}
	l.merge(g.root, insts, b, 0)
	return b.err
}

// budget is what is left of the fields a skeleton may have, and why it
// ran out: of the answers' results here, of the WSDL's types in wsdl.go.
type budget struct {
	left int
	err  error
}

// take counts a new field at depth (1: a kid of the result), failing past
// the limits.
func (b *budget) take(depth int) bool {
	switch {
	case b.err != nil:
	case depth > shape.MaxDepth:
		b.err = fmt.Errorf("their fields nest more than %d levels deep: a result nests a few", shape.MaxDepth)
	case b.left <= 0:
		b.err = fmt.Errorf("they hold more than %d fields: a result has a few dozen", shape.MaxFields)
	default:
		b.left--
	}
	return b.err == nil
}

// merge adds to n, at depth (0: the result), what its instances show:
// their attributes and child elements, in the order first seen; a child
// seen twice in one instance is repeated (a list's item); a leaf's type
// is inferred from its texts. It stops when b runs out.
func (l *learner) merge(n *node, insts []*etree.Element, b *budget, depth int) {
	children := map[string][]*etree.Element{}
	var order []string
	repeated := map[string]bool{}
	attrTexts := map[*node][]string{}
	for _, el := range insts {
		if l.stopped() {
			return
		}
		n.seen++
		var prevAttr *node
		for _, a := range el.Attr {
			if a.Space == "xmlns" || a.Space == "" && a.Key == "xmlns" || a.NamespaceURI() == nsXSI {
				continue
			}
			k := n.child(a.Key, true)
			if k == nil {
				if !b.take(depth + 1) {
					return
				}
				k = &node{name: a.Key, ns: a.NamespaceURI(), attr: true}
				if k.ns != "" {
					k.prefix = a.Space
				}
				// After the attribute that came before it here (before
				// the first one seen when none did), so that attributes
				// some answers leave out (a DefaultValue, a null) keep
				// their place.
				at := slices.IndexFunc(n.kids, func(x *node) bool { return x.attr })
				if prevAttr != nil {
					at = slices.Index(n.kids, prevAttr) + 1
				}
				if at < 0 {
					at = len(n.kids)
				}
				n.kids = slices.Insert(n.kids, at, k)
			}
			prevAttr = k
			attrTexts[k] = append(attrTexts[k], a.Value)
		}
		counts := map[string]int{}
		prev := ""
		for _, c := range el.ChildElements() {
			if _, ok := children[c.Tag]; !ok {
				if !b.take(depth + 1) {
					return
				}
				// After the element that came before it here, so that
				// fields some answers leave out keep their place.
				at := 0
				if prev != "" {
					at = slices.Index(order, prev) + 1
				}
				order = slices.Insert(order, at, c.Tag)
			}
			children[c.Tag] = append(children[c.Tag], c)
			if counts[c.Tag]++; counts[c.Tag] > 1 {
				repeated[c.Tag] = true
			}
			prev = c.Tag
		}
	}
	for k, texts := range attrTexts {
		k.typ = inferType(texts)
	}
	for _, name := range order {
		k := n.child(name, false)
		if k == nil {
			k = &node{name: name, ns: children[name][0].NamespaceURI(), prefix: children[name][0].Space}
			n.kids = append(n.kids, k)
		}
		k.repeated = k.repeated || repeated[name]
		complex, elements := false, false
		var texts []string
		for _, c := range children[name] {
			if len(c.ChildElements()) > 0 || !onlyNamespaces(c) {
				complex = true
			}
			elements = elements || len(c.ChildElements()) > 0
			texts = append(texts, c.Text())
		}
		if complex {
			k.typ = ""
			for _, c := range children[name] {
				k.sawDerived(c)
			}
			l.merge(k, children[name], b, depth+1)
			if b.err != nil {
				return
			}
			if !elements && slices.ContainsFunc(texts, func(t string) bool { return strings.TrimSpace(t) != "" }) {
				// Attributes and text: an XmlText member beside them.
				t := k.textKid()
				if t == nil {
					t = &node{text: true}
					k.kids = append(k.kids, t)
				}
				t.typ = inferType(texts)
				l.countEnds(t, children[name])
			}
		} else if len(k.kids) == 0 {
			k.typ = inferType(texts)
			l.countEnds(k, children[name])
			for _, c := range children[name] {
				k.sawXsiType(c)
			}
		}
	}
}

// onlyNamespaces reports whether e's attributes are namespace
// declarations and XmlSerializer's xsi attributes (xsi:nil="true" on a
// null value) alone: no attribute of the deployment's.
func onlyNamespaces(e *etree.Element) bool {
	for _, a := range e.Attr {
		if a.Space != "xmlns" && a.Key != "xmlns" && a.NamespaceURI() != nsXSI {
			return false
		}
	}
	return true
}

// sawXsiType reads the xsi:type="xsd:T" el, an instance of the value k,
// was written with (a member declared object): T is k's type; a type of
// the deployment's own (an XmlInclude'd enum) is kept in k.ownType.
func (k *node) sawXsiType(el *etree.Element) {
	for _, a := range el.Attr {
		if a.Key != "type" || a.NamespaceURI() != nsXSI {
			continue
		}
		switch ns, local := resolveQName(el, a.Value); {
		case ns == nsXSD && k.xsiType == "":
			k.xsiType, k.typ = local, local
		case ns != nsXSD && k.ownType == "":
			k.ownType = local
		}
	}
}

// sawDerived reads the xsi:type el, an instance of the container or list
// item k, was written with: a class of the deployment's (not an XSD
// type), derived from the declared one.
func (k *node) sawDerived(el *etree.Element) {
	for _, a := range el.Attr {
		if a.Key != "type" || a.NamespaceURI() != nsXSI {
			continue
		}
		if ns, local := resolveQName(el, a.Value); ns != nsXSD && k.derived == "" {
			k.derived = local
		}
	}
}

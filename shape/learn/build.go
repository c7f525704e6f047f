package learn

// This file turns the mapped groups into a shape: results, fields and
// lists, namespaces relative to the enclosing element, formats the answers
// used.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/shape"
)

// relNS writes namespace uri relative to the service namespace and the
// enclosing one: "" when it inherits, service, none or the URI.
func (l *learner) relNS(uri, enclosing string) shape.Namespace {
	switch {
	case uri == enclosing:
		return ""
	case uri == l.ns:
		return shape.Service
	case uri == "":
		return shape.NoNamespace
	}
	return shape.Namespace(uri)
}

// absNS writes namespace uri on its own: service, none or the URI.
func (l *learner) absNS(uri string) shape.Namespace {
	switch uri {
	case l.ns:
		return shape.Service
	case "":
		return shape.NoNamespace
	}
	return shape.Namespace(uri)
}

// typeNamespace is the TypeNamespace of a container or list item k whose
// element is in elementNS inside a type of namespace enclosing: its type's
// namespace as the WSDL gives it, when not the one atmkit takes by
// default (the element's, or for an element in no namespace the
// enclosing type's); "" otherwise.
func (l *learner) typeNamespace(k *node, elementNS, enclosing string) shape.Namespace {
	def := elementNS
	if def == "" {
		def = enclosing
	}
	if k.typeNoNS && def != "" {
		return shape.NoNamespace
	}
	if k.typeNS == "" || k.typeNS == def {
		return ""
	}
	return l.absNS(k.typeNS)
}

// childNS is the namespace k's element children inherit: its type's,
// when its TypeNamespace says one, else its element's.
func (l *learner) childNS(k *node, tn shape.Namespace) string {
	if tn != "" {
		return tn.Resolve(l.ns, k.ns)
	}
	return k.ns
}

// build turns the groups into a shape, in the groups' order; settle
// completes it and Learn validates it.
func (l *learner) build() *shape.Shape {
	sh := &shape.Shape{Operations: map[string]string{}}
	names := map[string]bool{}
	for _, g := range l.groups {
		if g.def != nil {
			r := g.def
			if r.Layout == shape.Node && g.layout == shape.Node && g.nodeType != "" {
				r.Type = g.nodeType // what the WSDL says holds for the result kept
			}
			for i := 2; names[r.Name]; i++ {
				r.Name = r.Root + strconv.Itoa(i)
			}
			names[r.Name] = true
			sh.Results = append(sh.Results, r)
			for _, op := range g.ops {
				sh.Operations[op] = r.Name
			}
			continue
		}
		if g.layout == shape.Dataset {
			r := l.dataSetResult(g)
			r.Name = r.DataSet.Name
			for i := 2; names[r.Name]; i++ {
				r.Name = r.DataSet.Name + strconv.Itoa(i)
			}
			names[r.Name] = true
			sh.Results = append(sh.Results, r)
			for _, op := range g.ops {
				sh.Operations[op] = r.Name
			}
			continue
		}
		r := &shape.Result{Layout: g.layout}
		contentNS := g.root.ns
		if g.layout == shape.Typed {
			contentNS = l.ns
			if len(g.root.kids) > 0 && !g.root.kids[0].attr {
				contentNS = g.root.kids[0].ns
			}
		}
		switch {
		case g.layout == shape.Typed && contentNS == l.ns:
			r.Namespace = shape.Service
		default:
			r.Namespace = l.relNS(contentNS, "\x00")
		}
		r.Root = g.root.name
		if !g.rootSure || r.Root == "" {
			r.Root = l.guessRoot(g)
		}
		if g.typeName != "" && g.typeName != r.Root {
			r.Type = g.typeName
		}
		if g.layout == shape.Node {
			r.Type = g.nodeType
		}
		r.Name = r.Root
		for i := 2; names[r.Name]; i++ {
			r.Name = r.Root + strconv.Itoa(i)
		}
		names[r.Name] = true
		if g.layout == shape.Typed && g.root.typeNS != "" && g.root.typeNS != contentNS {
			r.TypeNamespace = l.absNS(g.root.typeNS)
		}
		l.prefixes, l.typed = g.layout == shape.Node, g.layout == shape.Typed
		l.root, l.content = g.root, g.content
		if l.prefixes {
			r.Prefix = g.root.prefix
		}
		r.Fields = l.fields(g.root, contentNS, r.Name, r.Root)
		l.prefixes, l.typed = false, false
		sh.Results = append(sh.Results, r)
		for _, op := range g.ops {
			sh.Operations[op] = r.Name
		}
	}
	return sh
}

// guessRoot names the GET/POST root of a typed result nothing showed: as
// XmlSerializer names array types (ArrayOfX), else after the list's item.
func (l *learner) guessRoot(g *group) string {
	name := "Result"
	switch {
	case g.item != nil && len(g.root.kids) == 1 && g.root.kids[0] == g.item:
		name = "ArrayOf" + g.item.name
	case g.item != nil:
		name = g.item.name + "Result"
	}
	l.guess("%s: the GET/POST root is %s: no WSDL and no GET or POST answer names it (set root: in the file if it differs)", strings.Join(g.ops, ", "), name)
	return name
}

// fields converts the kids of n (in namespace ns) to shape fields,
// reporting each decision under at.
func (l *learner) fields(n *node, ns, result, at string) []*shape.Field {
	switch {
	case n.derived != "":
		l.derived = append(l.derived, fmt.Sprintf("%s: %s as %s", result, at, n.derived))
	case n.derivable != "":
		l.note("%s: %s: the WSDL declares %s derived from its class (XmlInclude), which no answer read holds: the mock writes the declared class only, and its WSDL does not declare %s; answers holding one are refused (docs/shapes.md, What a shape does not model)", result, at, n.derivable, n.derivable)
	}
	var out []*shape.Field
	kids := slices.Clone(n.kids)
	slices.SortStableFunc(kids, func(a, b *node) int {
		switch {
		case a.attr && !b.attr:
			return -1
		case b.attr && !a.attr:
			return 1
		}
		return 0
	})
	for _, k := range kids {
		kat := at + "/" + k.label()
		switch {
		case k.textClass != "" && !k.repeated:
			out = append(out, l.textClassOf(k, l.leaf(k, ns, result, kat), l.typeNSOf(n, ns)))
		case k.attr || k.text || k.isLeaf() && !k.repeated:
			f := l.leaf(k, ns, result, kat)
			l.enumOf(k, f, l.typeNSOf(n, ns), result, kat)
			f.Always = n == l.root && l.always(k, f)
			out = append(out, f)
		case k.repeated && k.list != "":
			// An unwrapped list: the items sit in n itself.
			f := &shape.Field{List: k.list, Item: l.item(k, ns, l.typeNSOf(n, ns), result, kat)}
			if k.group {
				f.Group, f.GroupOrder = shape.GroupInstitution, k.groupOrder
			}
			out = append(out, f)
			l.mapped(k, result, kat, "the "+k.list+" list's item")
		case k.repeated && l.groupsLocations(n, k, result, at, kat):
		case k.repeated:
			l.unmodelled = append(l.unmodelled, result+": "+kat)
		case k.wrappedItem() != nil && k.wrappedItem().list != "":
			it := k.wrappedItem()
			f := &shape.Field{Element: k.name, Namespace: l.relNS(k.ns, ns), Prefix: l.prefixOf(k), List: it.list, Item: l.item(it, k.ns, l.typeNSOf(k, ns), result, kat+"/"+it.label())}
			if it.group {
				f.Group, f.GroupOrder = shape.GroupInstitution, it.groupOrder
			}
			if k.typeName != "" && k.typeName != shape.ListTypeName(f) {
				f.Type = k.typeName
			}
			out = append(out, f)
			l.mapped(it, result, kat+"/"+it.label(), "the "+it.list+" list's item")
		case k.wrappedItem() != nil && l.groupsLocations(n, k.wrappedItem(), result, at, kat+"/"+k.wrappedItem().label()):
		case k.wrappedItem() != nil:
			l.unmodelled = append(l.unmodelled, result+": "+kat)
		default:
			tn := l.typeNamespace(k, k.ns, l.typeNSOf(n, ns))
			fs := l.fields(k, l.childNS(k, tn), result, kat)
			if len(fs) == 0 {
				l.report.Unmapped = append(l.report.Unmapped, fmt.Sprintf("%s: %s: holds nothing atmkit writes; left out", result, kat))
				continue
			}
			f := &shape.Field{Element: k.name, Namespace: l.relNS(k.ns, ns), Prefix: l.prefixOf(k), TypeNamespace: tn, Fields: fs,
				Nillable: l.nillable(k), Struct: l.typed && k.structType && k.nils == 0}
			f.Always = n == l.root && (l.always(k, f) || f.Struct && l.content == shape.Locations && f.PointOnly())
			if k.typeName != "" && k.typeName != k.name {
				f.Type = k.typeName
			}
			out = append(out, f)
		}
	}
	return out
}

// prefixOf is the prefix k keeps in the shape: the one its answers
// wrote, for a node result's element or attribute in a namespace.
func (l *learner) prefixOf(k *node) string {
	if !l.prefixes || k.text || k.ns == "" {
		return ""
	}
	return k.prefix
}

// typeNSOf is the namespace of n's type as the WSDL says (n a container,
// list or result whose elements are in ns), else ns.
func (l *learner) typeNSOf(n *node, ns string) string {
	if n.typeNS != "" {
		return n.typeNS
	}
	return ns
}

// item converts a list's item, whose element inherits ns, inside a type
// of namespace enclosing.
func (l *learner) item(k *node, ns, enclosing, result, at string) *shape.Field {
	f := &shape.Field{Element: k.name, Namespace: l.relNS(k.ns, ns), Prefix: l.prefixOf(k)}
	if k.isLeaf() && k.textClass != "" && k.list == languages {
		// A class holding only its text: the code is its text.
		f.Type, f.TypeNamespace = k.textClass, l.typeNamespace(k, k.ns, enclosing)
		f.Fields = []*shape.Field{{Text: true, Type: k.typ, Value: "language"}}
		return f
	}
	if k.isLeaf() {
		f.Type, f.FullEnd = k.typ, l.fullEnd(k)
		if !slices.Contains([]string{"string", "anyURI", "token", "normalizedString"}, f.Type) {
			f.Type = "string"
		}
		l.enumOf(k, f, enclosing, result, at) // an array of an enum
		return f
	}
	f.TypeNamespace = l.typeNamespace(k, k.ns, enclosing)
	f.Fields = l.fields(k, l.childNS(k, f.TypeNamespace), result, at)
	if k.typeName != "" && k.typeName != k.name {
		f.Type = k.typeName
	}
	return f
}

// textClassOf wraps the value f of k, which the WSDL declares as a class
// holding only its text (an XmlText member), in an element of that class:
// f becomes its text.
func (l *learner) textClassOf(k *node, f *shape.Field, enclosing string) *shape.Field {
	outer := &shape.Field{Element: f.Element, Namespace: f.Namespace, Type: k.textClass,
		TypeNamespace: l.typeNamespace(k, k.ns, enclosing), Fields: []*shape.Field{f}}
	outer.Prefix = f.Prefix
	f.Element, f.Namespace, f.Prefix, f.Text = "", "", "", true
	return outer
}

// leaf converts a value: mapped, or generated.
func (l *learner) leaf(k *node, ns, result, at string) *shape.Field {
	f := &shape.Field{Type: k.typ, Prefix: l.prefixOf(k), FullEnd: l.fullEnd(k)}
	switch {
	case k.text:
		f.Text = true
	case k.attr:
		f.Attribute = k.name
		if k.ns != "" {
			f.Namespace = shape.Namespace(k.ns)
		}
	default:
		f.Element, f.Namespace = k.name, l.relNS(k.ns, ns)
	}
	f.Nillable = l.nillable(k)
	if k.simpleType != "" && len(k.enumValues) == 0 {
		l.note("%s: %s: the WSDL declares it of the deployment's own simple type %s (an enum); atmkit writes its values as text, and declares it s:string in its WSDL", result, at, k.simpleType)
	}
	if k.value == "" {
		l.objectMember(k, f, result, at)
		l.defaults(k, f, result, at)
		f.Generated = true
		if allBlank(k.texts) {
			l.blank[f] = at
		}
		l.report.Unmapped = append(l.report.Unmapped, fmt.Sprintf("%s: %s (%s): no value of atmkit's data matches it; written with generated values", result, at, f.Type))
		return f
	}
	f.Value = k.value
	scope := scopeOfValue(k.value)
	if v, ok := shape.LookupValue(scope, k.value); ok {
		switch {
		case v.Kind == shape.KindString:
			if !k.fromWSDL || f.Type == "" {
				f.Type = "string"
			}
		case v.Kind == shape.KindFlag && f.Type == "double":
			f.Type = "int"
		case v.Kind == shape.KindDouble && f.Type == "int" && !k.fromWSDL:
			// Whole numbers read (a search point of 0, 0): a double
			// all the same, as its value is.
			f.Type = "double"
		}
	}
	f.Format = formatOf(f.Type, k.texts)
	f.OmitEmpty = l.omitEmpty(k, f)
	l.defaults(k, f, result, at)
	l.objectMember(k, f, result, at)
	l.mapped(k, result, at, k.value)
	return f
}

// defaults gives f, the value of k in the typed result being built, the
// value it is left out at: the DefaultValue the WSDL declares, else the
// one the answers left out (an XxxSpecified member, or a DefaultValue no
// WSDL showed), written as its type is (a flag true or false).
// A value the WSDL declares optional (minOccurs 0, of a value type) that
// no answer left out is taken to be left out at its type's zero value
// (false, 0), and the report says so.
func (l *learner) defaults(k *node, f *shape.Field, result, at string) {
	if !l.typed || k.text {
		return
	}
	switch {
	case k.def != nil:
		f.Default, f.OmitEmpty = k.def, false
	case k.omitWhen != "" && !f.OmitEmpty:
		text := k.omitWhen
		if f.Type == "boolean" {
			text = map[bool]string{true: "true", false: "false"}[text == "1" || text == "true"]
		}
		f.OmitWhen = text
	case k.optional:
		f.OmitWhen = "0"
		if f.Type == "boolean" {
			f.OmitWhen = "false"
		}
		l.guess("%s: %s: the WSDL declares it optional (minOccurs 0: an XxxSpecified member says when it is written) and no answer left it out: taken to be left out when %s; record answers where it is left out to decide", result, at, f.OmitWhen)
	}
}

// objectMember marks f, the value of k in the typed result being built,
// as a member declared object when the answers wrote its type beside it
// (xsi:type): of that type.
// A member the WSDL declares object (no type) that no answer shows is
// taken for a string, and the report says so.
func (l *learner) objectMember(k *node, f *shape.Field, result, at string) {
	if !l.typed || k.attr || k.text || k.xsiType == "" && !k.anyType && k.ownType == "" {
		return
	}
	f.XsiType, f.OmitEmpty, f.Nillable = true, false, false
	if k.ownType != "" {
		// An enum (XmlInclude'd) in a member declared object: which
		// namespace .NET writes its xsi:type in, and whether its WSDL
		// declares it, are not modelled.
		l.derived = append(l.derived, fmt.Sprintf("%s: %s, a member declared object, as xsi:type %s (a type of the deployment's own: an enum; the mock would write xsi:type=\"xsd:%s\")", result, at, k.ownType, f.Type))
		return
	}
	if k.xsiType == "" {
		l.guess("%s: %s: the WSDL declares it with no type (a member declared object) and no answer shows its value's type: written xsi:type=\"xsd:%s\"; record an answer that holds it to decide", result, at, f.Type)
		return
	}
	f.Type = k.xsiType
	f.Format = formatOf(f.Type, k.texts)
}

// always reports whether f, the field of k built among the result's own
// in the result being built, holds the search point alone in a
// locations result and is written in answers of operations that have
// none: a struct, or an object the deployment always makes.
func (l *learner) always(k *node, f *shape.Field) bool {
	return l.content == shape.Locations && k.noPoint > 0 && !f.Nillable && f.PointOnly()
}

// enumOf makes f, the value of k in a class of namespace enclosing, a
// value of the enum the WSDL declares it of (its name, values and, when
// not the one atmkit takes by default, namespace), and notes it.
func (l *learner) enumOf(k *node, f *shape.Field, enclosing, result, at string) {
	if !l.typed || len(k.enumValues) == 0 || f.Type != "string" || f.XsiType {
		return
	}
	f.Enum, f.EnumValues = k.simpleType, k.enumValues
	def := k.ns
	if k.attr || k.text || def == "" {
		def = enclosing
	}
	if k.enumNS != def {
		f.TypeNamespace = l.absNS(k.enumNS)
	}
	l.note("%s: %s: the WSDL declares it of the deployment's own simple type %s (an enum of %d values); atmkit writes the values of its data as text, and declares the enum in its WSDL", result, at, k.simpleType, len(k.enumValues))
}

// nillable reports whether k, an element of the typed result being
// built, is nillable: the WSDL says so, or an answer wrote it
// xsi:nil="true" (XmlElement IsNullable: a null member).
func (l *learner) nillable(k *node) bool {
	return l.typed && !k.attr && !k.text && (k.nillable || k.nils > 0)
}

// omitEmpty reports whether f, the string value of k in the typed result
// being built, is left out where it is empty: some instance of its
// parent held none (a null string member, which XmlSerializer does not
// write), and it is not nillable. An attribute in a namespace is not
// modelled so (its prefix would stay declared).
func (l *learner) omitEmpty(k *node, f *shape.Field) bool {
	if !l.typed || k.text || f.Nillable || k.absent == 0 || k.attr && k.ns != "" {
		return false
	}
	v, ok := shape.LookupValue(scopeOfValue(k.value), k.value)
	return ok && v.Kind == shape.KindString && slices.Contains([]string{"string", "anyURI", "token", "normalizedString"}, f.Type)
}

// scopeOfValue is a scope where value exists (the kind is the same in all).
func scopeOfValue(value string) shape.Scope {
	for _, s := range []shape.Scope{shape.ScopeLocation, shape.ScopeLocations, shape.ScopeInstitution, shape.ScopeProvince} {
		if _, ok := shape.LookupValue(s, value); ok {
			return s
		}
	}
	return shape.ScopeLocation
}

// formatOf tells how the answers wrote a value of type t: 1/0 booleans, a
// fixed number of decimals.
func formatOf(t string, texts []string) string {
	switch t {
	case "boolean":
		for _, x := range texts {
			if x == "1" || x == "0" {
				return shape.FormatOneZero
			}
		}
	case "double", "decimal", "float":
		if len(texts) == 0 {
			return ""
		}
		d := decimals(texts[0])
		padded := false
		for _, x := range texts {
			if decimals(x) != d || d <= 0 {
				return ""
			}
			if strings.HasSuffix(x, "0") {
				padded = true
			}
		}
		if padded {
			return "fixed:" + strconv.Itoa(d)
		}
	}
	return ""
}

// groupsLocations reports, and records in l.grouped, whether the items it
// of a list inside n, a locations list's item, hold most of n's values:
// n is then no location but a group of them (an institution holding its
// ATMs), which a shape models in a typed result only (findGroup took
// those) and not in a node (see NotModelledError).
func (l *learner) groupsLocations(n, it *node, result, at, itemAt string) bool {
	if n.list != string(shape.Locations) || 2*valuesUnder(it) <= valuesUnder(n) {
		return false
	}
	l.grouped = append(l.grouped, fmt.Sprintf("%s: %s taken for a location holds a list %s of items holding most of its values", result, at, itemAt))
	return true
}

// valuesUnder counts the values (attributes, texts, leaves) of n's tree.
func valuesUnder(n *node) int {
	c := 0
	if n.attr || n.text || n.isLeaf() {
		c++
	}
	for _, k := range n.kids {
		c += valuesUnder(k)
	}
	return c
}

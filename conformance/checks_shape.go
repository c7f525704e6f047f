package conformance

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// The shape specs (label shape) run only when Config.Shape is given: they
// fail when a result is not written as that shape says (layout, element
// and attribute names, order, namespaces, list items, how flags and
// numbers are written), a regression guard for a deployment whose shape
// is known (atmkit shape learn). Elements the shape does not know fail as
// well as required ones missing; strings, objects and lists may be left
// out (XmlSerializer omits nulls), the search point where there is none.

// errNoShape is the skip of the shape specs when no shape is given.
var errNoShape = &SkipError{Reason: "no shape given (--shape FILE)"}

// maxShapeDiffs bounds the differences one failure lists.
const maxShapeDiffs = 8

func shapeChecks() []Check {
	var cs []Check
	for _, op := range Operations {
		for _, b := range XMLBindings {
			cs = append(cs, Check{
				Name:        fmt.Sprintf("shape/%s/%s", b, op.Name),
				Group:       "results in the shape given (--shape)",
				Description: fmt.Sprintf("%s over %s writes its result as the shape says", op.Name, b),
				Labels:      []string{string(b), "shape"},
				Run:         func(s *Session, note Notef) error { return checkShape(s, b, op.Name, note) },
			})
		}
	}
	return cs
}

func checkShape(s *Session, b Binding, op string, note Notef) error {
	sh := s.cfg.Shape
	if sh == nil {
		return errNoShape
	}
	r := sh.Result(op)
	if r == nil {
		return skip("the shape has no result for %s", op)
	}
	ns, err := s.Namespace()
	if err != nil {
		return err
	}
	vals, err := s.values(op)
	if err != nil {
		// Any answer shows the shape: call with the key alone.
		note("no query values (%v): %s is called with the key alone", err, op)
		vals = nil
	}
	x, err := s.Do(Request{Binding: b, Op: op, Values: vals})
	if err != nil {
		return err
	}
	what := fmt.Sprintf("%s over %s", op, b)
	if x.Status != 200 {
		return fail(x, what+": status", "200 with a result to compare with the shape", "%s", answered(x))
	}
	return compareShape(x, what, r, ns, op)
}

// compareShape compares answer x (200, over an XML binding) of op with r,
// the shape's result of op, in service namespace ns.
func compareShape(x *Exchange, what string, r *shape.Result, ns, op string) error {
	b := x.Request.Binding
	if isSearch(op) {
		if w, err := resultIn(x, b, ns); err == nil && isNullResult(w) {
			// A search's null result holds no field to compare; a GET/POST
			// root XmlSerializer wrote for it is named as the shape says.
			if doc, _ := x.xml(); doc != nil && (b == HTTPGet || b == HTTPPost) {
				if want, got := r.RootName(ns), nameOf(doc.Root()); got != (qname{want.Space, want.Local}) {
					return fail(x, what+": root", qname{want.Space, want.Local}.String()+" (layout "+string(r.Layout)+"), here with xsi:nil=\"true\" (a null result)", "%s", got)
				}
			}
			return nil
		}
	}
	doc, err := x.xml()
	if err != nil {
		return fail(x, what+": body", "an XML result", "%v in %s", err, snippet(x.RespBody, x.masks()...))
	}
	if r.Layout == shape.Dataset {
		return checkDataSetShape(x, what, r, ns, doc, b == SOAP11 || b == SOAP12, op)
	}
	content := r.ContentNamespace(ns)
	var el *etree.Element // the element holding the result's fields
	switch {
	case b == SOAP11 || b == SOAP12:
		res := soapResult(doc.Root(), ns, op)
		if res == nil {
			return fail(x, what+": envelope", "<"+op+"Response>/<"+op+"Result> in the service namespace", "%s", snippet(x.RespBody, x.masks()...))
		}
		if r.Layout == shape.Typed {
			el = res
			break
		}
		kids := res.ChildElements()
		want := qname{content, r.Root}
		if len(kids) != 1 || nameOf(kids[0]) != want {
			return fail(x, what+": "+op+"Result", "one node "+want.String()+" (layout node)", "%s", names(kids))
		}
		el = kids[0]
	default:
		el = doc.Root()
		want := r.RootName(ns)
		if got := nameOf(el); got != (qname{want.Space, want.Local}) {
			return fail(x, what+": root", qname{want.Space, want.Local}.String()+" (layout "+string(r.Layout)+")", "%s", got)
		}
	}
	c := &shapeCompare{service: ns, point: hasPoint(op)}
	c.fields(el, r.Fields, content, r.Root)
	if len(c.diffs) > 0 {
		list := c.diffs
		if len(list) > maxShapeDiffs {
			list = append(list[:maxShapeDiffs:maxShapeDiffs], fmt.Sprintf("and %d more", len(c.diffs)-maxShapeDiffs))
		}
		return fail(x, what+": result shape", "the result as the shape says", "%s", strings.Join(list, "; "))
	}
	return nil
}

// soapResult returns <OpResult> of a SOAP answer, or nil.
func soapResult(env *etree.Element, ns, op string) *etree.Element {
	for _, body := range env.ChildElements() {
		if body.Tag != "Body" {
			continue
		}
		for _, resp := range body.ChildElements() {
			if nameOf(resp) != (qname{ns, op + "Response"}) {
				continue
			}
			for _, res := range resp.ChildElements() {
				if nameOf(res) == (qname{ns, op + "Result"}) {
					return res
				}
			}
		}
	}
	return nil
}

// hasPoint reports whether op's result has a search point.
func hasPoint(op string) bool {
	switch op {
	case "ReturnAtmSearchByAddress", "ReturnAtmSearchByCoordinates", "ReturnAtmSearchByAddressWithMaximum":
		return true
	}
	return false
}

// shapeCompare collects the differences between answers and a shape.
type shapeCompare struct {
	service string
	point   bool
	diffs   []string
}

func (c *shapeCompare) addf(format string, args ...any) {
	if len(c.diffs) <= maxShapeDiffs {
		c.diffs = append(c.diffs, fmt.Sprintf(format, args...))
	}
}

// fields compares the attributes and children of el with fields, whose
// elements are in namespace ns unless they say otherwise; at names el.
func (c *shapeCompare) fields(el *etree.Element, fields []*shape.Field, ns, at string) {
	known := map[qname]bool{}
	for _, f := range fields {
		if f.Attribute == "" {
			continue
		}
		want := qname{f.Namespace.Resolve("", ""), f.Attribute}
		known[want] = true
		a := attrNamed(el, want)
		if a == nil {
			if _, omits := f.Omits(); shape.IsValueType(f.Type) && !omits {
				c.addf("%s: no attribute %s", at, want)
			}
			continue
		}
		c.value(at+"/@"+f.Attribute, a.Value, f)
	}
	for _, a := range el.Attr {
		if a.Space == "xmlns" || a.Space == "" && a.Key == "xmlns" || a.NamespaceURI() == "http://www.w3.org/2001/XMLSchema-instance" || known[qname{a.NamespaceURI(), a.Key}] {
			continue
		}
		c.addf("%s: attribute %s is not in the shape", at, a.FullKey())
	}
	kids := el.ChildElements()
	i := 0
	for _, f := range fields {
		if f.Text {
			if len(kids) > 0 {
				c.addf("%s: holds elements, want text", at)
			} else if t := el.Text(); t != "" || shape.IsValueType(f.Type) {
				c.value(at+"/text()", t, f)
			}
			continue
		}
		if f.Attribute != "" {
			continue
		}
		fns := f.Namespace.Resolve(c.service, ns)
		if f.List != "" && f.Element == "" {
			// Items in el itself: as many as there are.
			it := f.Item
			ins := it.Namespace.Resolve(c.service, ns)
			for i < len(kids) && nameOf(kids[i]) == (qname{ins, it.Element}) {
				c.item(kids[i], it, ins, at+"/"+it.Element)
				i++
			}
			continue
		}
		want := qname{fns, f.Element}
		if i < len(kids) && nameOf(kids[i]) == want {
			c.field(kids[i], f, fns, at+"/"+f.Element)
			i++
			continue
		}
		if !c.optional(f) {
			got := "nothing"
			if i < len(kids) {
				got = nameOf(kids[i]).String()
			}
			c.addf("%s: %s expected, got %s", at, want, got)
		}
	}
	for ; i < len(kids); i++ {
		c.addf("%s: %s is not in the shape (or out of order)", at, nameOf(kids[i]))
	}
}

// optional reports whether an answer may leave f out: objects, lists and
// strings (XmlSerializer leaves out nulls), values left out at a value
// (a DefaultValue, an XxxSpecified member), the search point where the
// operation has none. A nillable element is never left out: XmlSerializer
// writes its null as xsi:nil="true" (the WSDL declares it minOccurs 1), and
// a client's proxy reads an element missing as a null member all the same,
// but the deployment the shape was learned from writes it.
func (c *shapeCompare) optional(f *shape.Field) bool {
	_, omits := f.Omits()
	if f.Nillable && !omits {
		return false
	}
	return len(f.Fields) > 0 || f.List != "" || !shape.IsValueType(f.Type) || omits || !c.point && f.PointOnly()
}

// field compares one element with f. A null element (xsi:nil="true",
// holding nothing) is what the shape says of a nillable one.
func (c *shapeCompare) field(el *etree.Element, f *shape.Field, ns, at string) {
	if isNullResult(el) {
		if !f.Nillable {
			c.addf("%s: null (xsi:nil=\"true\"), which the shape does not say it may be (nillable)", at)
		}
		return
	}
	switch {
	case f.List != "":
		it := f.Item
		ins := it.Namespace.Resolve(c.service, ns)
		for _, k := range el.ChildElements() {
			if nameOf(k) != (qname{ins, it.Element}) {
				c.addf("%s: %s in the list, want %s items", at, nameOf(k), qname{ins, it.Element})
				continue
			}
			c.item(k, it, ins, at+"/"+it.Element)
		}
	case len(f.Fields) > 0:
		c.fields(el, f.Fields, f.ChildNamespace(c.service, ns), at)
	default:
		if len(el.ChildElements()) > 0 {
			c.addf("%s: holds elements, want a %s value", at, f.Type)
			return
		}
		if f.XsiType {
			c.xsiType(el, f, at)
		}
		c.value(at, el.Text(), f)
	}
}

// xsiType checks the xsi:type of an element of a member declared object
// (f.XsiType): XmlSerializer writes the value's own type beside it,
// xsi:type="xsd:short", and a client's proxy reads the member as the
// type it names (a short read back as an int is another object, and a
// cast to short throws); without it the proxy reads XML nodes, not a value.
func (c *shapeCompare) xsiType(el *etree.Element, f *shape.Field, at string) {
	want := qname{xsdNS, f.Type}
	for _, a := range el.Attr {
		if a.Key != "type" || a.NamespaceURI() != xsiNS {
			continue
		}
		prefix, local, ok := strings.Cut(strings.TrimSpace(a.Value), ":")
		if !ok {
			prefix, local = "", prefix
		}
		if got := (qname{prefixURI(el, prefix), local}); got != want {
			c.addf("%s: xsi:type %q (%s), want %s", at, a.Value, got, want)
		}
		return
	}
	c.addf("%s: no xsi:type, want %s (the member is declared object)", at, want)
}

// prefixURI returns the namespace the prefix (empty: the default one)
// stands for at e, from the declarations on e and its ancestors; "" when
// none declares it.
func prefixURI(e *etree.Element, prefix string) string {
	if prefix == "xml" {
		return "http://www.w3.org/XML/1998/namespace"
	}
	for ; e != nil; e = e.Parent() {
		for _, a := range e.Attr {
			if prefix == "" && a.Space == "" && a.Key == "xmlns" || prefix != "" && a.Space == "xmlns" && a.Key == prefix {
				return a.Value
			}
		}
	}
	return ""
}

// item compares a list item with it.
func (c *shapeCompare) item(el *etree.Element, it *shape.Field, ns, at string) {
	if len(it.Fields) == 0 {
		c.value(at, el.Text(), it)
		return
	}
	c.fields(el, it.Fields, it.ChildNamespace(c.service, ns), at)
}

// attrNamed returns el's attribute named n (namespace URI and local
// name), or nil.
func attrNamed(el *etree.Element, n qname) *etree.Attr {
	for i := range el.Attr {
		a := &el.Attr[i]
		if a.Key == n.Local && a.Space != "xmlns" && !(a.Space == "" && a.Key == "xmlns") && a.NamespaceURI() == n.Space {
			return a
		}
	}
	return nil
}

// value checks that text is written as f's type and format say, and is
// one of its enum's values when it has one.
func (c *shapeCompare) value(at, text string, f *shape.Field) {
	t := strings.TrimSpace(text)
	bad := false
	switch {
	case f.Enum != "" && len(f.EnumValues) > 0:
		// A .NET client throws on a name its proxy's enum lacks.
		if !slices.Contains(f.EnumValues, t) {
			c.addf("%s: %q, which enum %s does not hold (%s)", at, t, f.Enum, strings.Join(f.EnumValues, ", "))
		}
		return
	case f.Type == "boolean":
		words := []string{"true", "false"}
		if f.EffectiveFormat() == shape.FormatOneZero {
			words = []string{"1", "0"}
		}
		bad = !slices.Contains(words, t)
		if bad {
			c.addf("%s: %q, want %s", at, t, strings.Join(words, " or "))
			return
		}
	case slices.Contains([]string{"int", "long", "short", "byte", "unsignedByte", "unsignedShort", "unsignedInt", "unsignedLong", "integer", "nonNegativeInteger"}, f.Type):
		_, err := strconv.ParseInt(t, 10, 64)
		bad = err != nil
	case f.Type == "double" || f.Type == "float" || f.Type == "decimal":
		if _, err := strconv.ParseFloat(t, 64); err != nil {
			bad = true
			break
		}
		if n, ok := shape.FixedDecimals(f.EffectiveFormat()); ok {
			dot := strings.IndexByte(t, '.')
			if n == 0 && dot >= 0 || n > 0 && (dot < 0 || len(t)-dot-1 != n) {
				c.addf("%s: %q, want %d decimals (%s)", at, t, n, f.EffectiveFormat())
				return
			}
		}
	}
	if bad {
		c.addf("%s: %q is not a %s", at, t, f.Type)
	}
}

package dsxml

import (
	"strconv"

	"github.com/beevik/etree"
)

// xsKids are e's children {XSD}name.
func xsKids(e *etree.Element, name string) []*etree.Element {
	var out []*etree.Element
	for _, k := range e.ChildElements() {
		if k.Tag == name && k.NamespaceURI() == NSXSD {
			out = append(out, k)
		}
	}
	return out
}

// xsKid is e's first child {XSD}name, or nil.
func xsKid(e *etree.Element, name string) *etree.Element {
	if ks := xsKids(e, name); len(ks) > 0 {
		return ks[0]
	}
	return nil
}

// path follows children {XSD}names from e.
func path(e *etree.Element, names ...string) *etree.Element {
	for _, n := range names {
		if e = xsKid(e, n); e == nil {
			return nil
		}
	}
	return e
}

// msdataAttr is e's attribute {msdata}name, or nil.
func msdataAttr(e *etree.Element, name string) *etree.Attr {
	for i := range e.Attr {
		a := &e.Attr[i]
		if a.Key == name && a.NamespaceURI() == NSMSData {
			return a
		}
	}
	return nil
}

// msdata is the value of e's attribute {msdata}name, or "".
func msdata(e *etree.Element, name string) string {
	if a := msdataAttr(e, name); a != nil {
		return a.Value
	}
	return ""
}

// maxLength is the MaxLength of a string column e declares with an
// anonymous simple type restricting xs:string by a maxLength alone, as
// .NET's schema writer declares a DataColumn of a MaxLength; 0 for any
// other (the schema is then kept as written).
func maxLength(e *etree.Element) int {
	st := xsKid(e, "simpleType")
	r := path(e, "simpleType", "restriction")
	if st == nil || r == nil || len(st.ChildElements()) != 1 || len(r.ChildElements()) != 1 {
		return 0
	}
	if ns, local, ok := resolve(r, r.SelectAttrValue("base", "")); !ok || ns != NSXSD || local != "string" {
		return 0
	}
	m := xsKid(r, "maxLength")
	if m == nil || len(m.Attr) != 1 {
		return 0
	}
	n, err := strconv.Atoi(m.SelectAttrValue("value", ""))
	if err != nil || n <= 0 {
		return 0
	}
	return n
}

package conformance

import (
	"fmt"
	"sort"
	"strings"

	"github.com/beevik/etree"
)

// This file tells the layouts an ASMX result can take apart and compares
// them across bindings. The interface document fixes <OpResponse> and
// <OpResult> in the service namespace, not what <OpResult> holds; ASMX
// (XmlSerializer) writes one of:
//
//   - a node (an operation returning XmlElement or XmlNode): the node is the
//     only child of <OpResult>, and in HTTP GET/POST the node itself is the
//     document's root;
//   - typed content (a class or an array): <OpResult> is the object, its
//     children are the fields or the array's items (any names, in the service
//     namespace or none), and the GET/POST root is named by the type
//     (AtmResult, ArrayOfProvince) in the service namespace;
//   - a DataSet: <OpResult> holds an inline xs:schema then a
//     diffgr:diffgram; the GET/POST root is DataSet, in the service namespace.
//
// The content of <OpResult> may be in any namespace the deployment chooses,
// but for one operation it is the same in every XML binding.

// layoutKind is one of the ways an ASMX result is laid out.
type layoutKind int

const (
	layoutUnknown layoutKind = iota // the bindings' results differ beyond namespaces
	layoutNode                      // one node inside <OpResult>, the node as GET/POST root
	layoutTyped                     // typed content inside <OpResult>, a GET/POST root named by type
	layoutDataSet                   // a DataSet inside <OpResult>, DataSet as GET/POST root
)

// layout is the layout of one operation's results, as the suite saw it.
type layout struct {
	kind layoutKind
	// desc says what the suite saw, for notes and failures.
	desc string
}

// isDataSet reports whether a wrapper holds a DataSet: an inline xs:schema
// and a diffgr:diffgram.
func isDataSet(w *etree.Element) bool {
	var schema, diffgram bool
	for _, k := range w.ChildElements() {
		switch nameOf(k) {
		case qname{xsdNS, "schema"}:
			schema = true
		case qname{diffgramNS, "diffgram"}:
			diffgram = true
		}
	}
	return schema && diffgram
}

// holdsOneNode reports whether a wrapper holds exactly one element and
// nothing else: no text, no attributes that carry data.
func holdsOneNode(w *etree.Element) bool {
	if len(w.ChildElements()) != 1 || textOf(w) != "" {
		return false
	}
	for _, a := range w.Attr {
		if !isMetaAttr(a) {
			return false
		}
	}
	return true
}

// describeContent says what a wrapper (<OpResult>, or a typed GET/POST
// root) holds: a DataSet, items of one name, fields, one element, text.
func describeContent(w *etree.Element) string {
	kids := w.ChildElements()
	var parts []string
	if as := attrs(w); len(as) > 0 {
		keys := make([]string, len(as))
		for i, a := range as {
			keys[i], _, _ = strings.Cut(a, "=")
		}
		parts = append(parts, "the attributes "+strings.Join(keys, ", "))
	}
	switch {
	case isDataSet(w):
		parts = append(parts, "a DataSet (an inline xs:schema and a diffgr:diffgram)")
	case len(kids) == 1:
		parts = append(parts, "one element "+nameOf(kids[0]).String())
	case len(kids) > 1:
		seen := map[string]bool{}
		var local, spaces []string
		for _, k := range kids {
			if !seen[k.Tag] {
				seen[k.Tag] = true
				local = append(local, k.Tag)
			}
			if ns := nsText(k.NamespaceURI()); !seen["\x00"+ns] {
				seen["\x00"+ns] = true
				spaces = append(spaces, ns)
			}
		}
		in := " (in " + listed(spaces) + ")"
		if len(local) == 1 {
			parts = append(parts, fmt.Sprintf("%d items %s%s", len(kids), local[0], in))
		} else {
			parts = append(parts, "the fields "+listed(local)+in)
		}
	case textOf(w) != "":
		parts = append(parts, "text")
	}
	if len(parts) == 0 {
		return "nothing"
	}
	return strings.Join(parts, " and ")
}

// sameShape reports whether a and b are the same tree when namespaces are
// ignored: local names, attributes by local name, text, children in order.
func sameShape(a, b *etree.Element) bool {
	return a.Tag == b.Tag && sameContentShape(a, b)
}

// sameContentShape is sameShape for the content of two wrappers, whatever
// they are named.
func sameContentShape(a, b *etree.Element) bool {
	if textOf(a) != textOf(b) || strings.Join(localAttrs(a), "\x00") != strings.Join(localAttrs(b), "\x00") {
		return false
	}
	ca, cb := a.ChildElements(), b.ChildElements()
	if len(ca) != len(cb) {
		return false
	}
	for i := range ca {
		if !sameShape(ca[i], cb[i]) {
			return false
		}
	}
	return true
}

// localAttrs lists an element's attributes but namespace declarations as
// localname=value, sorted.
func localAttrs(e *etree.Element) []string {
	var out []string
	for _, a := range e.Attr {
		if !isXMLNS(a) {
			out = append(out, a.Key+"="+attrValue(e, a))
		}
	}
	sort.Strings(out)
	return out
}

// layoutOf tells the layout of an operation's results from its SOAP
// <OpResult> wrapper and its GET (or POST) document root, by structure and
// with namespaces ignored, so that a namespace that differs is reported as
// such (see checkNamespaces) rather than as another layout.
func layoutOf(soap, doc *etree.Element) layout {
	docName := nameOf(doc).String()
	switch {
	case isDataSet(soap) && sameContentShape(soap, doc):
		return layout{layoutDataSet, "DataSet: <" + soap.Tag + "> holds an inline xs:schema and a diffgr:diffgram; the GET/POST root is " + docName}
	case holdsOneNode(soap) && sameShape(soap.ChildElements()[0], doc):
		return layout{layoutNode, "node: <" + soap.Tag + "> holds one element " + nameOf(soap.ChildElements()[0]).String() + ", the GET/POST document's root"}
	case sameContentShape(soap, doc):
		return layout{layoutTyped, "typed: <" + soap.Tag + "> holds " + describeContent(soap) + "; the GET/POST root is " + docName + ", named by the type"}
	}
	return layout{layoutUnknown, "unknown: <" + soap.Tag + "> holds " + describeContent(soap) + ", the GET/POST root " + docName + " is neither that node nor a wrapper of the same content"}
}

// compareWithDocument compares a SOAP <OpResult> wrapper with a GET/POST
// document root: the node with the root in the node layout, the wrappers'
// content otherwise. It returns the layout it saw and "" or the first
// difference.
func compareWithDocument(soap, doc *etree.Element) (layout, string) {
	l := layoutOf(soap, doc)
	if d := diffNull(soap, doc); d != "" {
		return l, d
	}
	switch l.kind {
	case layoutNode:
		return l, diffElements(soap.ChildElements()[0], doc)
	case layoutTyped, layoutDataSet:
		return l, diffContent(soap, doc)
	}
	// The shapes differ: show the difference of the likelier reading.
	if kids := soap.ChildElements(); holdsOneNode(soap) && kids[0].Tag == doc.Tag {
		return l, diffElements(kids[0], doc)
	}
	return l, diffContent(soap, doc)
}

// contentOf returns the elements that are a result's content in a layout:
// the node, or the children of the wrapper (<OpResult>, or a typed root).
func contentOf(w *etree.Element, kind layoutKind, isDocument bool) []*etree.Element {
	if kind == layoutNode && isDocument {
		return []*etree.Element{w}
	}
	return w.ChildElements()
}

// nsMismatch walks two contents of the same shape in parallel and describes
// the first element whose namespace differs, or returns "".
func nsMismatch(a, b []*etree.Element, path string) string {
	for i := 0; i < len(a) && i < len(b); i++ {
		p := fmt.Sprintf("%s/%s[%d]", path, a[i].Tag, i+1)
		if sa, sb := a[i].NamespaceURI(), b[i].NamespaceURI(); sa != sb {
			return fmt.Sprintf("element %s is in %s, vs %s", p, nsText(sa), nsText(sb))
		}
		if d := nsMismatch(a[i].ChildElements(), b[i].ChildElements(), p); d != "" {
			return d
		}
	}
	return ""
}

// namespacesOf lists the namespaces of a content's elements, for messages.
func namespacesOf(es []*etree.Element) string {
	seen := map[string]bool{}
	var out []string
	var walk func(e *etree.Element)
	walk = func(e *etree.Element) {
		if ns := e.NamespaceURI(); !seen[ns] {
			seen[ns] = true
			out = append(out, nsText(ns))
		}
		for _, k := range dataKids(e) {
			walk(k)
		}
	}
	for _, e := range es {
		walk(e)
	}
	if len(out) == 0 {
		return "(no elements)"
	}
	return listed(out)
}

// maxListed bounds the names a note or a failure lists: a result has a few
// dozen, and one of thousands would otherwise make notes and failures of
// that length.
const maxListed = 40

// listed joins names with commas, the first maxListed of them and how many
// more.
func listed(names []string) string {
	if len(names) <= maxListed {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:maxListed], ", ") + fmt.Sprintf(" and %d more", len(names)-maxListed)
}

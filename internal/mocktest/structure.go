package mocktest

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/beevik/etree"
)

// Namespaces the structure comparisons treat apart.
const (
	nsXSD      = "http://www.w3.org/2001/XMLSchema"
	nsWSDLDefs = "http://schemas.xmlsoap.org/wsdl/"
)

// Structure describes the structure of an XML answer as one text, for
// comparing the answers of two services to the same call whatever their
// data: every element and attribute by namespace URI and local name (not
// prefix), in document order, with sibling elements of one name merged
// into one (a list of items is described once, by the union of what its
// items hold). Values are left out, except in an inline xs:schema (a
// DataSet's), which is described whole, attribute values included: its
// declarations are structure. Two answers have the same structure when
// their descriptions are equal.
func Structure(body []byte) (string, error) {
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(body); err != nil {
		return "", fmt.Errorf("the answer does not parse: %w", err)
	}
	if doc.Root() == nil {
		return "", fmt.Errorf("the answer has no element")
	}
	var b strings.Builder
	describe(&b, []*etree.Element{doc.Root()}, 0)
	return b.String(), nil
}

// describe writes the merged structure of the instances of one element.
func describe(b *strings.Builder, insts []*etree.Element, depth int) {
	first := insts[0]
	pad := strings.Repeat("  ", depth)
	if first.Tag == "schema" && first.NamespaceURI() == nsXSD {
		b.WriteString(pad + "schema:\n")
		for _, e := range insts {
			Canonical(b, e, depth+1, false)
		}
		return
	}
	attrs := map[string]bool{}
	for _, e := range insts {
		for _, a := range e.Attr {
			if isXMLNS(a) {
				continue
			}
			attrs[qname(a.NamespaceURI(), a.Key)] = true
		}
	}
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, "@"+n)
	}
	sort.Strings(names)
	fmt.Fprintf(b, "%s%s %s\n", pad, qname(first.NamespaceURI(), first.Tag), strings.Join(names, " "))
	var order []string
	groups := map[string][]*etree.Element{}
	for _, e := range insts {
		prev := ""
		for _, k := range e.ChildElements() {
			n := qname(k.NamespaceURI(), k.Tag)
			if _, ok := groups[n]; !ok {
				// After the element before it here: an element some
				// instances leave out keeps its place.
				at := 0
				if prev != "" {
					at = slices.Index(order, prev) + 1
				}
				order = slices.Insert(order, at, n)
			}
			groups[n] = append(groups[n], k)
			prev = n
		}
	}
	for _, n := range order {
		describe(b, groups[n], depth+1)
	}
}

// Canonical writes e and its descendants one element per line: its
// namespace URI and local name, its attributes (namespace declarations
// left out) sorted, with their values; attributes that hold a QName
// (type, ref, base, element, refer, itemType) resolved to {URI}local when
// resolve is true.
func Canonical(b *strings.Builder, e *etree.Element, depth int, resolve bool) {
	var attrs []string
	for _, a := range e.Attr {
		if isXMLNS(a) {
			continue
		}
		v := a.Value
		if resolve && a.Space == "" && slices.Contains([]string{"type", "ref", "base", "element", "refer", "itemType"}, a.Key) {
			v = resolveQName(e, v)
		}
		attrs = append(attrs, qname(a.NamespaceURI(), a.Key)+"="+v)
	}
	sort.Strings(attrs)
	fmt.Fprintf(b, "%s%s %s\n", strings.Repeat("  ", depth), qname(e.NamespaceURI(), e.Tag), strings.Join(attrs, " "))
	for _, k := range e.ChildElements() {
		Canonical(b, k, depth+1, resolve)
	}
}

// WSDLTypes describes the <wsdl:types> section of a WSDL document by
// structure (Canonical, QNames resolved): two WSDLs whose descriptions are
// equal declare the same types, whatever prefixes they use.
func WSDLTypes(wsdl []byte) (string, error) {
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(wsdl); err != nil {
		return "", fmt.Errorf("the WSDL does not parse: %w", err)
	}
	root := doc.Root()
	if root == nil {
		return "", fmt.Errorf("the WSDL has no element")
	}
	var b strings.Builder
	for _, t := range root.ChildElements() {
		if t.Tag == "types" && t.NamespaceURI() == nsWSDLDefs {
			Canonical(&b, t, 0, true)
		}
	}
	if b.Len() == 0 {
		return "", fmt.Errorf("the WSDL has no types")
	}
	return b.String(), nil
}

func isXMLNS(a etree.Attr) bool { return a.Space == "xmlns" || a.Space == "" && a.Key == "xmlns" }

func qname(ns, local string) string { return "{" + ns + "}" + local }

// resolveQName resolves prefix:local written in an attribute of e.
func resolveQName(e *etree.Element, q string) string {
	prefix, local, ok := strings.Cut(q, ":")
	if !ok {
		prefix, local = "", q
	}
	for x := e; x != nil; x = x.Parent() {
		for _, a := range x.Attr {
			if prefix == "" && a.Space == "" && a.Key == "xmlns" || prefix != "" && a.Space == "xmlns" && a.Key == prefix {
				return qname(a.Value, local)
			}
		}
	}
	return qname("", local)
}

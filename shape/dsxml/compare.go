package dsxml

import (
	"fmt"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// Canonical describes a schema (or any element) by structure, to compare
// two: every element by namespace URI and local name, its attributes but
// namespace declarations by namespace URI, local name and value, sorted,
// its children in order. Prefixes and whitespace do not count.
func Canonical(e *etree.Element) string {
	var b strings.Builder
	var walk func(e *etree.Element, depth int)
	walk = func(e *etree.Element, depth int) {
		var attrs []string
		for _, a := range e.Attr {
			if a.Space == "xmlns" || a.Space == "" && a.Key == "xmlns" {
				continue
			}
			attrs = append(attrs, "{"+a.NamespaceURI()+"}"+a.Key+"="+a.Value)
		}
		slices.Sort(attrs)
		fmt.Fprintf(&b, "%s{%s}%s %s\n", strings.Repeat(" ", depth), e.NamespaceURI(), e.Tag, strings.Join(attrs, " "))
		for _, k := range e.ChildElements() {
			walk(k, depth+1)
		}
	}
	walk(e, 0)
	return b.String()
}

// SchemaElements returns the schemas of d, as Schemas builds them, as
// parsed elements (to compare them with Canonical).
func SchemaElements(d *shape.DataSet, service string) ([]*etree.Element, error) {
	ns, err := Schemas(d, service)
	if err != nil {
		return nil, err
	}
	var out []*etree.Element
	for _, n := range ns {
		doc := etree.NewDocument()
		if err := doc.ReadFromBytes(Append(nil, n, -1, false)); err != nil {
			return nil, fmt.Errorf("the schema written does not parse: %w", err)
		}
		out = append(out, doc.Root())
	}
	return out, nil
}

// CanonicalAll is Canonical of each element, in order.
func CanonicalAll(es []*etree.Element) string {
	var b strings.Builder
	for _, e := range es {
		b.WriteString(Canonical(e))
	}
	return b.String()
}

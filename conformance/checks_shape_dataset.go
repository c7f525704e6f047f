package conformance

import (
	"fmt"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/internal/dsxml"
	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// A DataSet result in the shape given: <OpResult> (or the GET/POST root,
// named as the shape says, in the service namespace) holds the inline
// xs:schema, the same declarations as the shape's DataSet makes, then the
// diffgr:diffgram: the DataSet's element, and in it rows of its tables
// only, each with its diffgram attributes (diffgr:id, msdata:rowOrder),
// its attribute and hidden columns, its element columns in column order
// (any of them may be left out: DBNull) and its nested tables' rows. The
// values are data: the ids and row orders, the keys, the rows' number.

// checkDataSetShape checks a DataSet answer of op against r.
func checkDataSetShape(x *Exchange, what string, r *shape.Result, ns string, doc *etree.Document, soap bool, op string) error {
	var wrapper *etree.Element
	if soap {
		if wrapper = soapResult(doc.Root(), ns, op); wrapper == nil {
			return fail(x, what+": envelope", "<"+op+"Response>/<"+op+"Result> in the service namespace", "%s", snippet(x.RespBody))
		}
	} else {
		wrapper = doc.Root()
		want := r.RootName(ns)
		if got := nameOf(wrapper); got != (qname{want.Space, want.Local}) {
			return fail(x, what+": root", qname{want.Space, want.Local}.String()+" (layout dataset)", "%s", got)
		}
	}
	kids := wrapper.ChildElements()
	if len(kids) != 2 || nameOf(kids[0]) != (qname{xsdNS, "schema"}) || nameOf(kids[1]) != (qname{diffgramNS, "diffgram"}) {
		return fail(x, what+": "+wrapper.Tag, "an inline xs:schema then a diffgr:diffgram (layout dataset)", "%s", names(kids))
	}
	d := r.DataSet
	mine, err := dsxml.SchemaElement(d, ns)
	if err != nil {
		return fmt.Errorf("the shape's DataSet %s: %w", d.Name, err)
	}
	if got, want := dsxml.Canonical(kids[0]), dsxml.Canonical(mine); got != want {
		return fail(x, what+": the DataSet's schema", "the schema of the shape's DataSet "+d.Name, "%s", firstLineDiff(got, want))
	}
	c := &dsCompare{d: d, service: ns}
	c.diffgram(kids[1])
	if len(c.diffs) > 0 {
		list := c.diffs
		if len(list) > maxShapeDiffs {
			list = append(list[:maxShapeDiffs:maxShapeDiffs], fmt.Sprintf("and %d more", len(c.diffs)-maxShapeDiffs))
		}
		return fail(x, what+": the DataSet's rows", "rows of the shape's DataSet "+d.Name, "%s", strings.Join(list, "; "))
	}
	return nil
}

// firstLineDiff says where two canonical descriptions first differ.
func firstLineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var a, b string
		if i < len(g) {
			a = strings.TrimSpace(g[i])
		}
		if i < len(w) {
			b = strings.TrimSpace(w[i])
		}
		if a != b {
			return fmt.Sprintf("declaration %d is %q, where the shape's is %q", i+1, a, b)
		}
	}
	return "they differ"
}

// dsCompare collects the differences between a diffgram and a DataSet.
type dsCompare struct {
	d       *shape.DataSet
	service string
	diffs   []string
}

func (c *dsCompare) addf(format string, args ...any) {
	if len(c.diffs) <= maxShapeDiffs {
		c.diffs = append(c.diffs, fmt.Sprintf(format, args...))
	}
}

// diffgram checks the diffgram's DataSet element and its rows.
func (c *dsCompare) diffgram(dg *etree.Element) {
	var data []*etree.Element
	for _, k := range dg.ChildElements() {
		if k.NamespaceURI() != diffgramNS { // diffgr:before, diffgr:errors
			data = append(data, k)
		}
	}
	if len(data) == 0 {
		return // no rows at all
	}
	ns := c.d.Namespace.Resolve(c.service, "")
	want := qname{ns, c.d.Name}
	if len(data) > 1 || nameOf(data[0]) != want {
		c.addf("diffgram: %s, want one %s", names(data), want)
		return
	}
	top := map[string]bool{}
	for _, t := range c.d.TopLevel() {
		top[t.Name] = true
	}
	for _, row := range data[0].ChildElements() {
		t := c.d.TableNamed(row.Tag)
		if t == nil || !top[t.Name] || row.NamespaceURI() != ns {
			c.addf("%s: %s is no table of the DataSet at its level", want.Local, nameOf(row))
			continue
		}
		c.row(row, t, ns, want.Local+"/"+t.Name)
	}
}

// row checks one row of t and its nested rows.
func (c *dsCompare) row(el *etree.Element, t *shape.Table, ns, at string) {
	attrs := map[qname]*shape.Column{}
	for _, col := range t.Columns {
		switch col.MappingOf() {
		case shape.MappingAttribute:
			attrs[qname{"", col.Name}] = col
		case shape.MappingHidden:
			attrs[qname{msdataNS, "hidden" + col.Name}] = col
		}
	}
	has := map[qname]bool{}
	for _, a := range el.Attr {
		if a.Space == "xmlns" || a.Space == "" && a.Key == "xmlns" {
			continue
		}
		n := qname{a.NamespaceURI(), a.Key}
		has[n] = true
		switch {
		case n == qname{diffgramNS, "id"} || n == qname{msdataNS, "rowOrder"}:
		case n == qname{diffgramNS, "hasChanges"}:
			if t.Changes == "" || a.Value != t.Changes {
				c.addf("%s: diffgr:hasChanges=%q, want the rows %s", at, a.Value, map[bool]string{true: "unchanged", false: t.Changes}[t.Changes == ""])
			}
		case attrs[n] != nil:
			c.value(at+"/@"+a.Key, a.Value, attrs[n])
		default:
			c.addf("%s: attribute %s is no column of the table", at, n)
		}
	}
	for _, n := range []qname{{diffgramNS, "id"}, {msdataNS, "rowOrder"}} {
		if !has[n] {
			c.addf("%s: no %s", at, n)
		}
	}
	if t.Changes != "" && !has[qname{diffgramNS, "hasChanges"}] {
		c.addf("%s: no diffgr:hasChanges=%q", at, t.Changes)
	}
	var elems []*shape.Column
	for _, col := range t.Columns {
		if col.MappingOf() == shape.MappingElement {
			elems = append(elems, col)
		}
	}
	nested := map[string]*shape.Table{}
	for _, r := range c.d.NestedChildren(t) {
		if ct := c.d.TableNamed(r.Child); ct != nil {
			nested[ct.Name] = ct
		}
	}
	i := 0
	for _, k := range el.ChildElements() {
		if k.NamespaceURI() != ns {
			c.addf("%s: %s is in the wrong namespace, want %s", at, nameOf(k), nsText(ns))
			continue
		}
		if ct := nested[k.Tag]; ct != nil && !slices.ContainsFunc(elems[i:], func(col *shape.Column) bool { return col.Name == k.Tag }) {
			c.row(k, ct, ns, at+"/"+ct.Name)
			i = len(elems)
			continue
		}
		j := slices.IndexFunc(elems[i:], func(col *shape.Column) bool { return col.Name == k.Tag })
		if j < 0 {
			c.addf("%s: %s is no column of the table (or out of order)", at, k.Tag)
			continue
		}
		col := elems[i+j]
		i += j + 1
		if len(k.ChildElements()) > 0 {
			c.addf("%s/%s: holds elements, want a %s value", at, col.Name, col.Type)
			continue
		}
		if k.Text() == "" && slices.Contains([]string{"string", "anyURI", "token", "normalizedString"}, col.Type) {
			continue
		}
		c.value(at+"/"+col.Name, k.Text(), col)
	}
}

// value checks that a column's text is written as its type says.
func (c *dsCompare) value(at, text string, col *shape.Column) {
	sc := &shapeCompare{}
	sc.value(at, text, &shape.Field{Element: col.Name, Type: col.Type, Format: col.Format})
	c.diffs = append(c.diffs, sc.diffs...)
}

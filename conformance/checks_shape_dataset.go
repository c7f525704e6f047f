package conformance

import (
	"fmt"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/dsxml"
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
			return fail(x, what+": envelope", "<"+op+"Response>/<"+op+"Result> in the service namespace", "%s", snippet(x.RespBody, x.masks()...))
		}
	} else {
		wrapper = doc.Root()
		want := r.RootName(ns)
		if got := nameOf(wrapper); got != (qname{want.Space, want.Local}) {
			return fail(x, what+": root", qname{want.Space, want.Local}.String()+" (layout dataset)", "%s", got)
		}
	}
	// The DataSet's schema, then one per other namespace its tables and
	// columns are in, then the diffgram.
	kids := wrapper.ChildElements()
	n := 0
	for n < len(kids) && nameOf(kids[n]) == (qname{xsdNS, "schema"}) {
		n++
	}
	if n == 0 || n != len(kids)-1 || nameOf(kids[n]) != (qname{diffgramNS, "diffgram"}) {
		return fail(x, what+": "+wrapper.Tag, "an inline xs:schema (one per namespace of the DataSet) then a diffgr:diffgram (layout dataset)", "%s", names(kids))
	}
	schemas, diffgram := kids[:n], kids[n]
	d := r.DataSet
	if d.Schema != "" && n != 1 {
		return fail(x, what+": the DataSet's schema", "the one schema of the shape's DataSet "+d.Name, "%d schemas", n)
	}
	if d.Schema != "" {
		// The shape holds the deployment's schema as written.
		doc := etree.NewDocument()
		if err := doc.ReadFromString(d.Schema); err != nil {
			return fmt.Errorf("the shape's DataSet %s: its schema: %w", d.Name, err)
		}
		if got, want := canonical(kids[0]), canonical(doc.Root()); got != want {
			return fail(x, what+": the DataSet's schema", "the schema of the shape's DataSet "+d.Name, "%s", firstLineDiff(got, want))
		}
	} else {
		read, err := dsxml.ReadSchema(schemas...)
		if err != nil {
			return fail(x, what+": the DataSet's schema", "the inline schema of a DataSet", "%v", err)
		}
		selfNestedInNone(read, d, ns)
		if diff := diffDataSets(read, d, ns); diff != "" {
			return fail(x, what+": the DataSet's schema", "the tables, columns and relations of the shape's DataSet "+d.Name, "%s", diff)
		}
	}
	c := &dsCompare{d: d, service: ns}
	c.diffgram(diffgram)
	if len(c.diffs) > 0 {
		list := c.diffs
		if len(list) > maxShapeDiffs {
			list = append(list[:maxShapeDiffs:maxShapeDiffs], fmt.Sprintf("and %d more", len(c.diffs)-maxShapeDiffs))
		}
		return fail(x, what+": the DataSet's rows", "rows of the shape's DataSet "+d.Name, "%s", strings.Join(list, "; "))
	}
	return nil
}

// selfNestedInNone puts the tables of got, a DataSet read from a schema,
// in no namespace where want has them there, nested in themselves and in
// no other table: .NET's XmlTreeGen (SchemaTree) declares such a table as
// a global element of the DataSet's own schema, referred to unprefixed,
// so that the schema puts it in the DataSet's namespace while its rows
// are in none. The schema cannot say it; the rows, compared after it, do.
func selfNestedInNone(got, want *shape.DataSet, service string) {
	for _, wt := range want.Tables {
		if want.SelfNested(wt) == nil || want.NestedParent(wt) != nil || want.TableNamespace(wt, service) != "" {
			continue
		}
		if gt := got.TableNamed(wt.Name); gt != nil && gt.Namespace == "" && got.SelfNested(gt) != nil && got.NestedParent(gt) == nil {
			gt.Namespace = shape.NoNamespace
		}
	}
}

// canonical describes an element by structure: names by namespace, the
// attributes but namespace declarations with their values, sorted, the
// children in order.
func canonical(e *etree.Element) string {
	var b strings.Builder
	var walk func(e *etree.Element, depth int)
	walk = func(e *etree.Element, depth int) {
		var as []string
		for _, a := range e.Attr {
			if !isXMLNS(a) {
				as = append(as, qname{a.NamespaceURI(), a.Key}.String()+"="+a.Value)
			}
		}
		slices.Sort(as)
		fmt.Fprintf(&b, "%s%s %s\n", strings.Repeat(" ", depth), nameOf(e), strings.Join(as, " "))
		for _, k := range e.ChildElements() {
			walk(k, depth+1)
		}
	}
	walk(e, 0)
	return b.String()
}

// diffDataSets says how the DataSet a schema declares (got) differs from
// the shape's (want): its name, namespace and locale; its tables, their
// element columns in order and their attribute and hidden columns in
// order (the schema does not tell the two apart), their unique
// constraints; its relations. What .NET leaves out of a schema (keys of
// the names it gives those it makes) is not compared; "" when alike.
func diffDataSets(got, want *shape.DataSet, service string) string {
	switch {
	case got.Name != want.Name:
		return fmt.Sprintf("the DataSet %s, want %s", got.Name, want.Name)
	case got.Namespace.Resolve(service, "") != want.Namespace.Resolve(service, ""):
		return fmt.Sprintf("the DataSet's namespace %s, want %s", nsText(got.Namespace.Resolve(service, "")), nsText(want.Namespace.Resolve(service, "")))
	case got.Locale != want.Locale:
		return fmt.Sprintf("the DataSet's locale %q, want %q", got.Locale, want.Locale)
	case got.CaseSensitive != want.CaseSensitive:
		return fmt.Sprintf("the DataSet case sensitive: %v, want %v", got.CaseSensitive, want.CaseSensitive)
	}
	var names []string
	for _, t := range want.Tables {
		names = append(names, t.Name)
	}
	var gotNames []string
	for _, t := range got.Tables {
		gotNames = append(gotNames, t.Name)
	}
	if !slices.Equal(sortedCopy(gotNames), sortedCopy(names)) {
		return fmt.Sprintf("the tables %s, want %s", strings.Join(gotNames, ", "), strings.Join(names, ", "))
	}
	for _, wt := range want.Tables {
		gt := got.TableNamed(wt.Name)
		if g, w := got.TableNamespace(gt, service), want.TableNamespace(wt, service); g != w {
			return fmt.Sprintf("table %s in namespace %s, want %s", wt.Name, nsText(g), nsText(w))
		}
		column := func(d *shape.DataSet, t *shape.Table, c *shape.Column) string {
			return fmt.Sprintf("%s %s %s null:%v auto:%v/%d/%d ns:%s", c.Name, c.MappingOf(), c.Type, !c.NotNull, c.AutoIncrement, c.Seed, c.StepOf(),
				d.ColumnNamespace(t, c, service))
		}
		var ge, ga, we, wa []string
		for _, c := range gt.Columns {
			if c.MappingOf() == shape.MappingElement {
				ge = append(ge, column(got, gt, c))
			} else {
				ga = append(ga, column(got, gt, c))
			}
		}
		for _, c := range wt.Columns {
			switch {
			case want.AutoGenerated(wt, c):
			case c.MappingOf() == shape.MappingElement:
				we = append(we, column(want, wt, c))
			default:
				wa = append(wa, column(want, wt, c))
			}
		}
		if d := firstDiff(ge, we); d != "" {
			return fmt.Sprintf("table %s: element column %s", wt.Name, d)
		}
		if d := firstDiff(ga, wa); d != "" {
			return fmt.Sprintf("table %s: attribute or hidden column %s", wt.Name, d)
		}
		var gu, wu []string
		for _, u := range gt.Unique {
			gu = append(gu, fmt.Sprintf("%s(%s) pk:%v", u.Name, strings.Join(u.Columns, ","), u.PrimaryKey))
		}
		for _, u := range wt.Unique {
			if !want.AutoGeneratedUnique(wt, u) {
				wu = append(wu, fmt.Sprintf("%s(%s) pk:%v", u.Name, strings.Join(u.Columns, ","), u.PrimaryKey))
			}
		}
		if !slices.Equal(gu, wu) {
			return fmt.Sprintf("table %s has the unique constraints %s, want %s", wt.Name, strings.Join(gu, "; "), strings.Join(wu, "; "))
		}
	}
	relation := func(r *shape.Relation) string {
		return fmt.Sprintf("%s %s(%s)->%s(%s) nested:%v constraint:%v", r.Name, r.Parent, strings.Join(r.ParentColumns, ","), r.Child,
			strings.Join(r.ChildColumns, ","), r.Nested, !r.NoConstraint)
	}
	var gr, wr []string
	for _, r := range got.Relations {
		gr = append(gr, relation(r))
	}
	for _, r := range want.Relations {
		if !want.AutoGeneratedRelation(r) && !(r.NoConstraint && r.Nested && autoKeys(want, r)) {
			wr = append(wr, relation(r))
		}
	}
	if g, w := sortedCopy(gr), sortedCopy(wr); !slices.Equal(g, w) {
		return fmt.Sprintf("the relations %s, want %s", strings.Join(g, "; "), strings.Join(w, "; "))
	}
	return ""
}

// firstDiff says where two lists first differ: "3 is A, want B"; "" when
// equal.
func firstDiff(got, want []string) string {
	for i := 0; i < len(got) || i < len(want); i++ {
		g, w := "(none)", "(none)"
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w {
			return fmt.Sprintf("%d is %s, want %s", i+1, g, w)
		}
	}
	return ""
}

// autoKeys reports whether a relation's columns are all auto-generated.
func autoKeys(d *shape.DataSet, r *shape.Relation) bool {
	p, c := d.TableNamed(r.Parent), d.TableNamed(r.Child)
	if p == nil || c == nil {
		return false
	}
	for i, name := range r.ParentColumns {
		if !d.AutoGenerated(p, p.ColumnNamed(name)) || i >= len(r.ChildColumns) || !d.AutoGenerated(c, c.ColumnNamed(r.ChildColumns[i])) {
			return false
		}
	}
	return true
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
		if t == nil || !top[t.Name] || row.NamespaceURI() != c.d.TableNamespace(t, c.service) {
			c.addf("%s: %s is no table of the DataSet at its level", want.Local, nameOf(row))
			continue
		}
		c.row(row, t, want.Local+"/"+t.Name, 0)
	}
}

// row checks one row of t and its nested rows (depth levels below the
// DataSet's).
func (c *dsCompare) row(el *etree.Element, t *shape.Table, at string, depth int) {
	if depth > 64 {
		c.addf("%s: rows nested more than 64 levels deep", at)
		return
	}
	attrs := map[qname]*shape.Column{}
	var text *shape.Column // a simpleContent column: the row's text
	for _, col := range t.Columns {
		switch col.MappingOf() {
		case shape.MappingAttribute:
			attrs[qname{"", col.Name}] = col
		case shape.MappingHidden:
			attrs[qname{msdataNS, "hidden" + col.Name}] = col
		case shape.MappingSimpleContent:
			text = col
		}
	}
	has := map[qname]bool{}
	null := false
	for _, a := range el.Attr {
		if a.Space == "xmlns" || a.Space == "" && a.Key == "xmlns" || a.Space == "xml" && a.Key == "space" && text != nil {
			continue
		}
		if text != nil && a.NamespaceURI() == xsiNS && a.Key == "nil" {
			null = a.Value == "true"
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
	if text != nil {
		switch {
		case len(el.ChildElements()) > 0:
			c.addf("%s: holds elements, want its %s as its text", at, text.Name)
		case null || el.Text() == "" && slices.Contains([]string{"string", "anyURI", "token", "normalizedString"}, text.Type):
		default:
			c.value(at+"/text()", el.Text(), text)
		}
		return
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
	if c.d.SelfNested(t) != nil {
		nested[t.Name] = t // a hierarchy of its rows
	}
	i := 0
	for _, k := range el.ChildElements() {
		if ct := nested[k.Tag]; ct != nil && !slices.ContainsFunc(elems[i:], func(col *shape.Column) bool { return col.Name == k.Tag }) {
			if ns := c.d.TableNamespace(ct, c.service); k.NamespaceURI() != ns {
				c.addf("%s: %s is in the wrong namespace, want %s", at, nameOf(k), nsText(ns))
				continue
			}
			c.row(k, ct, at+"/"+ct.Name, depth+1)
			i = len(elems)
			continue
		}
		j := slices.IndexFunc(elems[i:], func(col *shape.Column) bool { return col.Name == k.Tag })
		if j < 0 {
			c.addf("%s: %s is no column of the table (or out of order)", at, k.Tag)
			continue
		}
		col := elems[i+j]
		if ns := c.d.ColumnNamespace(t, col, c.service); k.NamespaceURI() != ns {
			c.addf("%s: %s is in the wrong namespace, want %s", at, nameOf(k), nsText(ns))
			continue
		}
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

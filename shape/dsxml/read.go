package dsxml

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// ReadSchema reads a DataSet's inline schema (an xs:schema element as
// .NET writes one) into the DataSet it describes: its name, namespace and
// locale, its tables (top-level ones from the DataSet element's choice,
// nested ones inside their parents), their columns in column order (from
// msdata:Ordinal when the schema writes it, else elements then
// attributes), their unique constraints, and the relations its keyrefs
// and msdata:Relationship annotations declare (nesting included). What it
// does not model (simple type restrictions, expressions, extended
// properties, tables of other namespaces) it leaves out: compare
// Schema(d) with the schema read to know whether d says it all. Column
// values are not the schema's to say: the DataSet's columns have none.
func ReadSchema(root *etree.Element) (*shape.DataSet, error) {
	d, _, err := ReadSchemaInfo(root)
	return d, err
}

// SchemaInfo is what a schema says beyond the DataSet ReadSchema makes of
// it, for placing what it leaves out (auto-generated keys and relations).
type SchemaInfo struct {
	// Ordinals are the ordinals the schema writes of element columns
	// (msdata:Ordinal, written when a table has both element and
	// attribute or hidden columns).
	Ordinals map[*shape.Column]int
	// NestedIn is the table each nested table's element is declared in.
	NestedIn map[*shape.Table]*shape.Table
}

// ReadSchemaInfo is ReadSchema, and what else the schema says.
func ReadSchemaInfo(root *etree.Element) (*shape.DataSet, *SchemaInfo, error) {
	d, r, err := readSchema(root)
	if err != nil {
		return nil, nil, err
	}
	return d, &SchemaInfo{Ordinals: r.ordinals, NestedIn: r.nestedIn}, nil
}

// declaredApart is the error for a table the DataSet's choice refers to
// (ref) instead of declaring it: one nested in itself (a self-referencing
// nested relation; .NET declares it as a global element of the schema), or
// one in another namespace (declared in a schema of its own). Neither is
// modelled.
func (r *reader) declaredApart(ref string) error {
	if !strings.Contains(ref, ":") {
		for _, g := range xsKids(r.root, "element") {
			if g.SelectAttrValue("name", "") != ref {
				continue
			}
			for _, k := range g.FindElements(".//element") {
				if k.NamespaceURI() == NSXSD && k.SelectAttrValue("ref", "") == ref {
					return fmt.Errorf("table %s is nested in itself (a relation of the table to itself), which is not modelled", ref)
				}
			}
		}
	}
	return fmt.Errorf("table %s is declared apart (another namespace's tables are not modelled)", ref)
}

func readSchema(root *etree.Element) (*shape.DataSet, *reader, error) {
	if root == nil || root.Tag != "schema" || root.NamespaceURI() != NSXSD {
		return nil, nil, errors.New("not an xs:schema element")
	}
	r := &reader{root: root, tns: root.SelectAttrValue("targetNamespace", ""), ordinals: map[*shape.Column]int{},
		nestedIn: map[*shape.Table]*shape.Table{}}
	var dsEl *etree.Element
	for _, e := range xsKids(root, "element") {
		if msdata(e, "IsDataSet") == "true" {
			dsEl = e
			break
		}
	}
	if dsEl == nil {
		return nil, nil, errors.New("no DataSet element (msdata:IsDataSet=\"true\")")
	}
	d := &shape.DataSet{Name: dsEl.SelectAttrValue("name", "")}
	if d.Name == "" {
		return nil, nil, errors.New("the DataSet element has no name")
	}
	if r.tns != "" {
		d.Namespace = shape.Namespace(r.tns)
	}
	if msdataAttr(dsEl, "Locale") != nil {
		loc := msdata(dsEl, "Locale")
		if loc == "" {
			loc = shape.LocaleInvariant
		}
		d.Locale = loc
	}
	d.CaseSensitive = msdata(dsEl, "CaseSensitive") == "true"
	d.Prefix = msdata(dsEl, "Prefix")
	r.d = d
	choice := path(dsEl, "complexType", "choice")
	if choice == nil {
		return nil, nil, errors.New("the DataSet element has no xs:complexType/xs:choice of tables")
	}
	for _, e := range xsKids(choice, "element") {
		if ref := e.SelectAttrValue("ref", ""); ref != "" {
			return nil, nil, r.declaredApart(ref)
		}
		if err := r.table(e, nil, 0); err != nil {
			return nil, nil, err
		}
	}
	if len(d.Tables) == 0 {
		return nil, nil, errors.New("the DataSet has no tables")
	}
	uniques := map[string]*shape.Unique{} // by schema name
	uniqueTable := map[string]*shape.Table{}
	for _, u := range xsKids(dsEl, "unique") {
		t := d.TableNamed(r.selector(u))
		if t == nil {
			return nil, nil, fmt.Errorf("unique %s: no table %q", u.SelectAttrValue("name", ""), r.selector(u))
		}
		name := u.SelectAttrValue("name", "")
		if cn := msdata(u, "ConstraintName"); cn != "" {
			name = cn
		}
		c := &shape.Unique{Name: name, Columns: r.fields(u), PrimaryKey: msdata(u, "PrimaryKey") == "true"}
		t.Unique = append(t.Unique, c)
		uniques[u.SelectAttrValue("name", "")] = c
		uniqueTable[u.SelectAttrValue("name", "")] = t
	}
	// keyrefs are written in reverse order of their relations.
	keyrefs := xsKids(dsEl, "keyref")
	for i := len(keyrefs) - 1; i >= 0; i-- {
		k := keyrefs[i]
		refer := k.SelectAttrValue("refer", "")
		u, p := uniques[refer], uniqueTable[refer]
		child := d.TableNamed(r.selector(k))
		if u == nil || child == nil {
			return nil, nil, fmt.Errorf("keyref %s: refers to no unique constraint or table", k.SelectAttrValue("name", ""))
		}
		name := k.SelectAttrValue("name", "")
		if rn := msdata(k, "RelationName"); rn != "" {
			name = rn
		}
		rel := &shape.Relation{Name: name, Parent: p.Name, ParentColumns: u.Columns, Child: child.Name, ChildColumns: r.fields(k),
			Nested: msdata(k, "IsNested") == "true"}
		r.relations = append(r.relations, rel)
	}
	// Relations without constraints: annotations, nested ones in their
	// table's element, the others at the schema's end.
	for _, a := range xsKids(root, "annotation") {
		r.relationships(a, false)
	}
	// The relations in the DataSet's order are not in the schema; nested
	// ones first, in table order, then the others.
	d.Relations = append(d.Relations, r.relations...)
	return d, r, nil
}

// reader reads one schema.
type reader struct {
	root      *etree.Element
	tns       string
	d         *shape.DataSet
	relations []*shape.Relation
	ordinals  map[*shape.Column]int
	nestedIn  map[*shape.Table]*shape.Table
}

// table reads a table's element (and its nested tables') into r.d.
func (r *reader) table(e *etree.Element, parent *shape.Table, depth int) error {
	if depth > 64 {
		return errors.New("tables nested more than 64 levels deep")
	}
	t := &shape.Table{Name: e.SelectAttrValue("name", "")}
	if t.Name == "" {
		return errors.New("a table without a name")
	}
	if r.d.TableNamed(t.Name) != nil {
		return fmt.Errorf("a second table named %s", t.Name)
	}
	r.d.Tables = append(r.d.Tables, t)
	if parent != nil {
		r.nestedIn[t] = parent
	}
	ct := xsKid(e, "complexType")
	if ct == nil {
		if typ := e.SelectAttrValue("type", ""); typ != "" {
			return fmt.Errorf("table %s is one typed column (a repeated element), which is not modelled", t.Name)
		}
		return fmt.Errorf("table %s has no complexType", t.Name)
	}
	type placed struct {
		col     *shape.Column
		ordinal int // -1: none
	}
	var elements, attrs []placed
	var nested []*etree.Element
	// A simpleContent column, placed at its ordinal as an element column;
	// the other columns are the extension's attributes.
	attrsIn := ct
	if sc := xsKid(ct, "simpleContent"); sc != nil {
		ext := xsKid(sc, "extension")
		if ext == nil {
			return fmt.Errorf("table %s: a text column (simpleContent) without xs:extension is not modelled", t.Name)
		}
		name := msdata(sc, "ColumnName")
		if name == "" {
			name = t.Name + "_text" // .NET's name for a text column read without its own
		}
		decl := etree.NewElement("element")
		decl.CreateAttr("name", name)
		decl.CreateAttr("type", ext.SelectAttrValue("base", ""))
		decl.CreateAttr("minOccurs", "0")
		c, err := column(decl, shape.MappingSimpleContent)
		if err != nil {
			return fmt.Errorf("table %s: %w", t.Name, err)
		}
		ord := -1
		if o := msdata(sc, "Ordinal"); o != "" {
			n, err := strconv.Atoi(o)
			if err != nil || n < 0 || n > 1<<16 {
				return fmt.Errorf("table %s: column %s: ordinal %q", t.Name, c.Name, o)
			}
			ord = n
		}
		elements = append(elements, placed{c, ord})
		attrsIn = ext
	}
	if seq := xsKid(ct, "sequence"); seq != nil {
		for _, k := range xsKids(seq, "element") {
			if xsKid(k, "complexType") != nil || k.SelectAttrValue("ref", "") != "" {
				nested = append(nested, k)
				continue
			}
			c, err := column(k, shape.MappingElement)
			if err != nil {
				return fmt.Errorf("table %s: %w", t.Name, err)
			}
			ord := -1
			if o := msdata(k, "Ordinal"); o != "" {
				n, err := strconv.Atoi(o)
				if err != nil || n < 0 || n > 1<<16 {
					return fmt.Errorf("table %s: column %s: ordinal %q", t.Name, c.Name, o)
				}
				ord = n
			}
			elements = append(elements, placed{c, ord})
		}
	}
	for _, k := range xsKids(attrsIn, "attribute") {
		mapping := shape.MappingAttribute
		if k.SelectAttrValue("use", "") == "prohibited" {
			mapping = shape.MappingHidden
		}
		c, err := column(k, mapping)
		if err != nil {
			return fmt.Errorf("table %s: %w", t.Name, err)
		}
		attrs = append(attrs, placed{c, -1})
	}
	// Column order: element columns at their ordinals, the others filling
	// the places left, in the schema's order. A place no column fills is
	// an auto-generated column's, which the schema leaves out.
	size := len(elements) + len(attrs)
	ordered := true
	for _, p := range elements {
		if p.ordinal < 0 || p.ordinal > 1<<12 {
			ordered = false
		}
		size = max(size, p.ordinal+1)
	}
	var cols []*shape.Column
	if ordered {
		slots := make([]*shape.Column, size)
		for _, p := range elements {
			if slots[p.ordinal] != nil {
				ordered = false
				break
			}
			slots[p.ordinal] = p.col
			r.ordinals[p.col] = p.ordinal
		}
		i := 0
		for _, p := range attrs {
			for i < len(slots) && slots[i] != nil {
				i++
			}
			if i == len(slots) {
				ordered = false
				break
			}
			slots[i] = p.col
		}
		for _, c := range slots {
			if c != nil {
				cols = append(cols, c)
			}
		}
	}
	if !ordered {
		cols = cols[:0]
		for _, p := range elements {
			cols = append(cols, p.col)
			delete(r.ordinals, p.col)
		}
		for _, p := range attrs {
			cols = append(cols, p.col)
		}
	}
	t.Columns = cols
	for _, k := range nested {
		if k.SelectAttrValue("ref", "") != "" {
			return fmt.Errorf("table %s: a nested table declared apart is not modelled", t.Name)
		}
		if err := r.table(k, t, depth+1); err != nil {
			return err
		}
		for _, a := range xsKids(k, "annotation") {
			r.relationships(a, true)
		}
	}
	return nil
}

// column reads a column's declaration.
func column(e *etree.Element, mapping string) (*shape.Column, error) {
	c := &shape.Column{Name: e.SelectAttrValue("name", "")}
	if c.Name == "" {
		return nil, errors.New("a column without a name")
	}
	if mapping != shape.MappingElement {
		c.Mapping = mapping
	}
	typ := e.SelectAttrValue("type", "")
	_, local, _ := strings.Cut(typ, ":")
	if local == "" {
		local = typ
	}
	c.Type = xsdType(local)
	switch mapping {
	case shape.MappingElement:
		c.NotNull = e.SelectAttrValue("minOccurs", "1") != "0"
	case shape.MappingAttribute:
		c.NotNull = e.SelectAttrValue("use", "") == "required"
	case shape.MappingHidden:
		c.NotNull = msdata(e, "AllowDBNull") == "false"
	}
	if msdata(e, "AutoIncrement") == "true" {
		c.AutoIncrement = true
		if s := msdata(e, "AutoIncrementSeed"); s != "" {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("column %s: seed %q", c.Name, s)
			}
			c.Seed = n
		}
		if s := msdata(e, "AutoIncrementStep"); s != "" {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil || n == 0 {
				return nil, fmt.Errorf("column %s: step %q", c.Name, s)
			}
			if n != 1 {
				c.Step = n
			}
		}
	}
	return c, nil
}

// xsdType is the type a shape gives a column of XSD type t: t itself when
// atmkit writes it, else string (the schema is then kept as written).
func xsdType(t string) string {
	switch t {
	case "int", "long", "short", "byte", "unsignedByte", "unsignedShort", "unsignedInt", "unsignedLong", "integer",
		"double", "float", "decimal", "string", "anyURI", "boolean", "dateTime":
		return t
	}
	return "string"
}

// relationships reads the msdata:Relationship annotations of a, relations
// without constraints.
func (r *reader) relationships(a *etree.Element, nested bool) {
	for _, app := range xsKids(a, "appinfo") {
		for _, rel := range app.ChildElements() {
			if rel.Tag != "Relationship" || rel.NamespaceURI() != NSMSData {
				continue
			}
			r.relations = append(r.relations, &shape.Relation{
				Name:          rel.SelectAttrValue("name", ""),
				Parent:        msdata(rel, "parent"),
				Child:         msdata(rel, "child"),
				ParentColumns: strings.Fields(msdata(rel, "parentkey")),
				ChildColumns:  strings.Fields(msdata(rel, "childkey")),
				Nested:        nested,
				NoConstraint:  true,
			})
		}
	}
}

// selector is the table a constraint's xs:selector names: .//mstns:Table.
func (r *reader) selector(c *etree.Element) string {
	s := xsKid(c, "selector")
	if s == nil {
		return ""
	}
	return stripPath(s.SelectAttrValue("xpath", ""))
}

// fields are the columns a constraint's xs:fields name: mstns:Col, @Col.
func (r *reader) fields(c *etree.Element) []string {
	var out []string
	for _, f := range xsKids(c, "field") {
		out = append(out, stripPath(f.SelectAttrValue("xpath", "")))
	}
	return out
}

// stripPath is the name in an xpath of a constraint: .//p:Name, @p:Name.
func stripPath(x string) string {
	x = strings.TrimPrefix(x, ".//")
	x = strings.TrimPrefix(x, "@")
	if i := strings.LastIndexByte(x, ':'); i >= 0 {
		x = x[i+1:]
	}
	return x
}

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

// SchemaElement returns the schema of d, as Schema builds it, as a parsed
// element (to compare it with Canonical).
func SchemaElement(d *shape.DataSet, service string) (*etree.Element, error) {
	n, err := Schema(d, service)
	if err != nil {
		return nil, err
	}
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(Append(nil, n, -1, false)); err != nil {
		return nil, fmt.Errorf("the schema written does not parse: %w", err)
	}
	return doc.Root(), nil
}

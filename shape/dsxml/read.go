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

// ReadSchema reads a DataSet's inline schemas (the xs:schema elements
// .NET writes before the diffgram: the DataSet's own, then one per other
// namespace its tables and columns are in) into the DataSet they describe:
// its name, namespace and locale, its tables (top-level ones from the
// DataSet element's choice, declared there or referred to, nested ones
// inside their parents), their namespaces and prefixes, their columns in
// column order (from msdata:Ordinal when the schema writes it, else
// elements then attributes), their unique constraints, and the relations
// its keyrefs and msdata:Relationship annotations declare (nesting, of a
// table in itself too, included). What it does not model (simple type
// restrictions, expressions, extended properties) it leaves out: compare
// Schemas(d) with the schemas read to know whether d says it all. Column
// values are not the schema's to say: the DataSet's columns have none.
func ReadSchema(schemas ...*etree.Element) (*shape.DataSet, error) {
	d, _, err := ReadSchemaInfo(schemas...)
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
	// Order is the namespaces of the schemas in the order the writer
	// enumerated them (see shape.DataSet.SchemaOrder); nil for one schema.
	Order []string
}

// ReadSchemaInfo is ReadSchema, and what else the schemas say.
func ReadSchemaInfo(schemas ...*etree.Element) (*shape.DataSet, *SchemaInfo, error) {
	d, r, err := readSchema(schemas)
	if err != nil {
		return nil, nil, err
	}
	return d, &SchemaInfo{Ordinals: r.ordinals, NestedIn: r.nestedIn, Order: r.order()}, nil
}

// order is the enumeration order of the schemas' namespaces: the other
// schemas' in their order, the DataSet's own where each other schema's
// imports place it (.NET prepends each import: they are in reverse
// order of enumeration), the first place that fits every schema, else
// first.
//
// A schema fits the places p where the namespaces before p but its own
// are the ones it imports after its import of the DataSet's (all of them
// if it has none), last first: p from where those are matched through
// the run of its own namespace that follows. Each schema's places are
// found in one walk of its imports, runs skipped whole, and the place is
// the first in all of them: time in proportion to the schemas and their
// imports.
func (r *reader) order() []string {
	if len(r.others) == 0 {
		return nil
	}
	var out []string
	for _, s := range r.others {
		out = append(out, s.SelectAttrValue("targetNamespace", ""))
	}
	if r.tns == "" {
		return out
	}
	// runEnd[i]: the end of the run of out[i]'s namespace from i.
	runEnd := make([]int, len(out))
	for i := len(out) - 1; i >= 0; i-- {
		runEnd[i] = i + 1
		if i+1 < len(out) && out[i+1] == out[i] {
			runEnd[i] = runEnd[i+1]
		}
	}
	lo, hi := 0, len(out) // the places that fit every schema so far
	for k, s := range r.others {
		self := out[k]
		imports := xsKids(s, "import")
		p := 0
		fits := true
		for i := len(imports) - 1; i >= 0 && fits; i-- {
			r.looked++
			ns := imports[i].SelectAttrValue("namespace", "")
			if ns == r.tns {
				break
			}
			if p < len(out) && out[p] == self {
				p = runEnd[p]
			}
			if p == len(out) || out[p] != ns {
				fits = false
			}
			p++
		}
		if !fits {
			return slices.Insert(out, 0, r.tns)
		}
		end := p
		if p < len(out) && out[p] == self {
			end = runEnd[p]
		}
		lo, hi = max(lo, p), min(hi, end)
		if lo > hi {
			return slices.Insert(out, 0, r.tns)
		}
	}
	return slices.Insert(out, lo, r.tns)
}

// nsOf is the namespace of t, a table read: its own, else the one of the
// table it is declared in, else the DataSet's.
func (r *reader) nsOf(t *shape.Table) string {
	for range len(r.d.Tables) + 1 {
		if t.Namespace != "" {
			return t.Namespace.Resolve("", "")
		}
		p := r.nestedIn[t]
		if p == nil {
			break
		}
		t = p
	}
	return r.tns
}

// resolve resolves the QName q written in an attribute of e: its
// namespace URI (by e's declarations in scope) and local name.
func resolve(e *etree.Element, q string) (ns, local string, ok bool) {
	prefix, local, has := strings.Cut(q, ":")
	if !has {
		prefix, local = "", q
	}
	key, space := prefix, "xmlns"
	if prefix == "" {
		key, space = "xmlns", ""
	}
	for x := e; x != nil; x = x.Parent() {
		for _, a := range x.Attr {
			if a.Space == space && a.Key == key {
				return a.Value, local, true
			}
		}
	}
	return "", local, prefix == ""
}

// global returns the global element declaration ref refers to (written in
// an attribute of e), and its schema's target namespace; nil if no schema
// read declares it.
func (r *reader) global(e *etree.Element, ref string) (*etree.Element, string) {
	ns, local, ok := resolve(e, ref)
	if !ok {
		return nil, ""
	}
	s := r.schemas[ns]
	if s == nil {
		return nil, ""
	}
	globals, ok := r.globals[ns]
	if !ok { // indexed once, not searched for each reference
		globals = map[string]*etree.Element{}
		for _, g := range xsKids(s, "element") {
			r.looked++
			name := g.SelectAttrValue("name", "")
			if _, seen := globals[name]; !seen && msdata(g, "IsDataSet") != "true" {
				globals[name] = g
			}
		}
		r.globals[ns] = globals
	}
	r.looked++
	if g := globals[local]; g != nil {
		return g, ns
	}
	return nil, ""
}

func readSchema(schemas []*etree.Element) (*shape.DataSet, *reader, error) {
	r := &reader{ordinals: map[*shape.Column]int{}, nestedIn: map[*shape.Table]*shape.Table{}, schemas: map[string]*etree.Element{},
		read: map[*etree.Element]bool{}, kids: map[string][]string{}, tables: map[string]*shape.Table{},
		globals: map[string]map[string]*etree.Element{}}
	var dsEl *etree.Element
	for _, s := range schemas {
		if s == nil || s.Tag != "schema" || s.NamespaceURI() != NSXSD {
			return nil, nil, errors.New("not an xs:schema element")
		}
		tns := s.SelectAttrValue("targetNamespace", "")
		if r.schemas[tns] != nil {
			return nil, nil, fmt.Errorf("two schemas of namespace %q", tns)
		}
		r.schemas[tns] = s
		found := false
		for _, e := range xsKids(s, "element") {
			if msdata(e, "IsDataSet") == "true" && dsEl == nil {
				dsEl, r.root, r.tns, found = e, s, tns, true
				break
			}
		}
		if !found {
			r.others = append(r.others, s)
		}
	}
	if dsEl == nil {
		return nil, nil, errors.New("no DataSet element (msdata:IsDataSet=\"true\")")
	}
	root := r.root
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
		ns := r.tns
		if ref := e.SelectAttrValue("ref", ""); ref != "" {
			g, gns := r.global(e, ref)
			if g == nil {
				return nil, nil, fmt.Errorf("table %s: the schemas declare no such element", ref)
			}
			e, ns = g, gns
		}
		if err := r.table(e, nil, 0, ns); err != nil {
			return nil, nil, err
		}
	}
	if len(d.Tables) == 0 {
		return nil, nil, errors.New("the DataSet has no tables")
	}
	uniques := map[string]*shape.Unique{} // by schema name
	uniqueTable := map[string]*shape.Table{}
	for _, u := range xsKids(dsEl, "unique") {
		t := r.tableNamed(r.selector(u))
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
		child := r.tableNamed(r.selector(k))
		if u == nil || child == nil {
			return nil, nil, fmt.Errorf("keyref %s: refers to no unique constraint or table", k.SelectAttrValue("name", ""))
		}
		// The relation's name: msdata:RelationName when its foreign key
		// has another name, else the foreign key's: msdata:ConstraintName
		// when another constraint took it in the schema, else the
		// keyref's name (XmlTreeGen.HandleTable).
		name := k.SelectAttrValue("name", "")
		if cn := msdata(k, "ConstraintName"); cn != "" {
			name = cn
		}
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
	r.orderNested()
	return d, r, nil
}

// reader reads a DataSet's schemas.
type reader struct {
	root    *etree.Element // the DataSet's schema
	tns     string
	schemas map[string]*etree.Element // by target namespace
	others  []*etree.Element          // the schemas but the DataSet's, in their order
	read    map[*etree.Element]bool   // the table declarations read
	// kids are the tables each table's sequence nests, in its order (its
	// ChildRelations' order), itself included when it is nested in itself.
	kids      map[string][]string
	d         *shape.DataSet
	relations []*shape.Relation
	ordinals  map[*shape.Column]int
	nestedIn  map[*shape.Table]*shape.Table
	tables    map[string]*shape.Table              // the tables read, by name
	globals   map[string]map[string]*etree.Element // each schema's tables declared globally, by namespace and name
	looked    int                                  // tables, declarations and relations lookups looked at (TestReadSchemaLinear)
}

// tableNamed is the table read called name, or nil.
func (r *reader) tableNamed(name string) *shape.Table {
	r.looked++
	return r.tables[name]
}

// table reads a table's element (and its nested tables') into r.d; ns is
// the target namespace of the schema declaring it.
func (r *reader) table(e *etree.Element, parent *shape.Table, depth int, ns string) error {
	if depth > 64 {
		return errors.New("tables nested more than 64 levels deep")
	}
	t := &shape.Table{Name: e.SelectAttrValue("name", "")}
	if t.Name == "" {
		return errors.New("a table without a name")
	}
	if r.tableNamed(t.Name) != nil {
		return fmt.Errorf("a second table named %s", t.Name)
	}
	r.read[e] = true
	r.d.Tables = append(r.d.Tables, t)
	r.tables[t.Name] = t
	if parent != nil {
		r.nestedIn[t] = parent
	}
	if e.SelectAttrValue("form", "") == "unqualified" {
		ns = ""
	}
	inherited := r.tns
	if parent != nil {
		inherited = r.nsOf(parent)
	}
	switch {
	case ns == inherited:
	case ns == "":
		t.Namespace = shape.NoNamespace
	default:
		t.Namespace = shape.Namespace(ns)
	}
	t.Prefix = msdata(e, "Prefix")
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
		c, err := column(decl, shape.MappingSimpleContent)
		if err != nil {
			return fmt.Errorf("table %s: %w", t.Name, err)
		}
		// The column allows DBNull when the table's element is nillable
		// (XSDSchema.HandleSimpleContentColumn: AllowDBNull = isNillable).
		c.NotNull = e.SelectAttrValue("nillable", "") != "true"
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
			decl, cns, unqualified := k, "", false
			if ref := k.SelectAttrValue("ref", ""); ref != "" {
				g, gns := r.global(k, ref)
				if g == nil {
					return fmt.Errorf("table %s: %s: the schemas declare no such element", t.Name, ref)
				}
				if xsKid(g, "complexType") != nil {
					nested = append(nested, k)
					continue
				}
				// A column in a namespace of its own, declared in its
				// namespace's schema: its occurrence is the reference's.
				decl = g.Copy()
				decl.RemoveAttr("minOccurs")
				if m := k.SelectAttr("minOccurs"); m != nil {
					decl.CreateAttr("minOccurs", m.Value)
				}
				cns = gns
			} else if xsKid(k, "complexType") != nil {
				nested = append(nested, k)
				continue
			} else {
				unqualified = k.SelectAttrValue("form", "") == "unqualified"
			}
			c, err := column(decl, shape.MappingElement)
			if err != nil {
				return fmt.Errorf("table %s: %w", t.Name, err)
			}
			switch {
			case cns != "" && cns != r.nsOf(t):
				c.Namespace = shape.Namespace(cns)
			case unqualified && r.nsOf(t) != "":
				// A column in no namespace (its Namespace set to ""),
				// its table in one.
				c.Namespace = shape.NoNamespace
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
	tns := r.nsOf(t)
	for _, k := range nested {
		decl, kns := k, tns
		if ref := k.SelectAttrValue("ref", ""); ref != "" {
			decl, kns = r.global(k, ref)
			if decl != nil {
				r.kids[t.Name] = append(r.kids[t.Name], decl.SelectAttrValue("name", ""))
			}
			if decl == nil || r.read[decl] {
				continue // itself (a self-nested table), or read already
			}
		} else {
			r.kids[t.Name] = append(r.kids[t.Name], k.SelectAttrValue("name", ""))
		}
		if err := r.table(decl, t, depth+1, kns); err != nil {
			return err
		}
		for _, a := range xsKids(k, "annotation") {
			r.relationships(a, true)
		}
	}
	return nil
}

// orderNested puts the nested relations of each parent table in the order
// its sequence declares its nested tables (keyrefs do not tell it when a
// table is nested in itself: its own keyref follows its children's).
func (r *reader) orderNested() {
	at := map[string][]int{} // the places of each parent's nested relations
	for i, rel := range r.d.Relations {
		r.looked++
		if rel.Nested {
			at[rel.Parent] = append(at[rel.Parent], i)
		}
	}
	type ranked struct {
		rel  *shape.Relation
		rank int // its child's place in kids; len(kids) if none
	}
	for parent, kids := range r.kids {
		place := make(map[string]int, len(kids))
		for i, k := range kids {
			r.looked++
			if _, ok := place[k]; !ok { // the first place
				place[k] = i
			}
		}
		var rels []ranked
		for _, i := range at[parent] {
			r.looked++
			rank, ok := place[r.d.Relations[i].Child]
			if !ok {
				rank = len(kids)
			}
			rels = append(rels, ranked{r.d.Relations[i], rank})
		}
		slices.SortStableFunc(rels, func(a, b ranked) int { return a.rank - b.rank })
		for k, i := range at[parent] {
			r.d.Relations[i] = rels[k].rel
		}
	}
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
	if typ == "" && mapping != shape.MappingHidden && mapping != shape.MappingSimpleContent {
		c.MaxLength = maxLength(e)
	}
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

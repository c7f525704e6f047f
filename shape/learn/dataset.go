package learn

// This file learns a DataSet result: its tables, columns, constraints and
// relations from its inline schema (dsxml.ReadSchema), the keys the schema
// leaves out from the rows' hidden attributes, which list fills each
// table from the rows (their counts against the JSON answers', one row
// per parent row, a location's languages), and which value each column
// holds by matching the rows with the JSON answers, as for other layouts.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/dsxml"
	"github.com/beevik/etree"
)

// dsLearned is what was learned of a DataSet result.
type dsLearned struct {
	d    *shape.DataSet
	root string // the GET/POST root
	// cols are the leaves standing for the columns that hold values, by
	// table and column, and what they were mapped to.
	cols map[*shape.Column]*node
	// tables' rows seen, for the report: the rows of the content table.
	items int
	// fillers are the tables whose rows hold a list atmkit has no data
	// for: written one row per parent row (or one row) of generated values,
	// so that answers keep their structure.
	fillers map[*shape.Table]bool
}

// dsRow is one row of a diffgram.
type dsRow struct {
	table  *shape.Table
	el     *etree.Element
	parent *dsRow
	// attrs are the attribute and hidden columns' values by column name
	// (hidden ones as msdata:hiddenName), in the order written.
	attrs map[string]string
	order []string
	// elems are the element columns' texts, by name: absent when the
	// row does not write the column (DBNull).
	elems    map[string]string
	inserted bool
	// rowOrder is the row's msdata:rowOrder (its place in its table),
	// -1 when it has none.
	rowOrder int
}

// dsAnswer is one answer's rows.
type dsAnswer struct {
	c    *content
	rows map[*shape.Table][]*dsRow
	// top are the tables of the rows at the DataSet's level, in the order
	// they first appear.
	top  []*shape.Table
	json *jsonAnswer
	// bad: the answer's grouped rows are in an order the mock does not
	// write (checkGroupOrder, refused).
	bad bool
	// searchPos: the answer's locations' rows are bank by bank, its JSON
	// answer's locations in the search's order, paired by id
	// (checkGroupOrder; json then holds them in the rows' order): each
	// row's place in the search.
	searchPos []int
}

// learnDataSet learns g's DataSet from its answers.
func (l *learner) learnDataSet(g *group) {
	var schema []*etree.Element
	var answers []*dsAnswer
	var d *shape.DataSet
	var info *dsxml.SchemaInfo
	canon := ""
	for _, c := range g.contents {
		if l.stopped() {
			return
		}
		s, diffgram := dataSetParts(c)
		if d == nil {
			var err error
			d, info, err = dsxml.ReadSchemaInfo(s...)
			if err != nil {
				l.note("skipped %s (%s %s): its inline schema: %v", c.sample.Where, c.sample.Binding, c.sample.Op, err)
				d = nil
				continue
			}
			d.SchemaOrder = info.Order
			schema, canon = s, dsxml.CanonicalAll(s)
		} else if dsxml.CanonicalAll(s) != canon {
			l.note("skipped %s (%s %s): its DataSet's schema differs from the one of %s", c.sample.Where, c.sample.Binding, c.sample.Op, g.contents[0].sample.Where)
			continue
		}
		a := &dsAnswer{c: c, rows: map[*shape.Table][]*dsRow{}, json: l.jsons[c.sample.Op+"\x00"+c.sample.Query]}
		answers = append(answers, a)
		a.readRows(d, info, diffgram)
	}
	ds := &dsLearned{cols: map[*shape.Column]*node{}, root: "DataSet", fillers: map[*shape.Table]bool{}}
	g.ds = ds
	if d == nil {
		// No schema could be read: the built-in result meanwhile.
		g.def = defaultResult(g.content)
		l.report.NotSeen = append(l.report.NotSeen, fmt.Sprintf("%s: the whole result: no DataSet answer could be read; kept meanwhile as atmkit writes it by default", strings.Join(g.ops, ", ")))
		return
	}
	ds.d = d
	d.WSDL = g.dsForm
	for _, c := range g.contents {
		if !c.soap {
			ds.root = c.root.Tag
			break
		}
	}
	if ds.root == "DataSet" && l.info != nil {
		for _, op := range g.ops {
			if r := l.info.ops[op]; r != nil && r.root != "" {
				ds.root = r.root
				break
			}
		}
	}
	typedNS := d.Namespace != "" && d.Namespace != shape.NoNamespace
	switch {
	case d.WSDL == shape.WSDLTyped && !typedNS:
		// A typed DataSet's schema has a namespace of its own; without
		// it, .NET's form.
		d.WSDL = ""
	case d.WSDL == "" && typedNS && ds.root != "DataSet":
		// Without a WSDL: a root named after a class of its own is a
		// typed DataSet's (an untyped one's is DataSet).
		d.WSDL = shape.WSDLTyped
	}
	namespacesFromRows(d, answers)
	orderByRows(d, answers)
	l.keysFromRows(d, answers, info)
	l.roles(g, d, answers)
	l.mapColumns(g, d, answers)
	// The schema atmkit writes for what was learned, against the
	// deployment's: kept as written where they differ.
	if mine, err := dsxml.SchemaElements(d, l.ns); err == nil && dsxml.CanonicalAll(mine) == canon {
		return
	}
	if len(schema) > 1 {
		l.report.Notes = append(l.report.Notes, fmt.Sprintf("%s: the DataSet's inline schemas declare more than its tables, columns and relations say (say, a simple type or an expression), which is not modelled for a DataSet of several namespaces: atmkit writes the schemas its tables say", d.Name))
		return
	}
	n, err := dsxml.ParseNode(elementText(schema[0]))
	if err != nil {
		return
	}
	d.Schema = string(dsxml.Append(nil, n, -1, false))
	l.report.Notes = append(l.report.Notes, fmt.Sprintf("%s: the DataSet's inline schema declares more than its tables, columns and relations say (say, a simple type or an expression): it is written as the deployment writes it (schema: in the file)", d.Name))
}

// elementText writes e alone.
func elementText(e *etree.Element) []byte {
	doc := etree.NewDocument()
	doc.SetRoot(e.Copy())
	b, _ := doc.WriteToBytes()
	return b
}

// readRows reads the rows of a diffgram: its DataSet element's children,
// nested ones inside their parents.
func (a *dsAnswer) readRows(d *shape.DataSet, info *dsxml.SchemaInfo, diffgram *etree.Element) {
	var data *etree.Element
	for _, k := range diffgram.ChildElements() {
		if k.NamespaceURI() != nsDiffgram { // not diffgr:before or diffgr:errors
			data = k
			break
		}
	}
	if data == nil {
		return // no rows at all
	}
	var read func(k *etree.Element, t *shape.Table, parent *dsRow, depth int)
	read = func(k *etree.Element, t *shape.Table, parent *dsRow, depth int) {
		r := &dsRow{table: t, el: k, parent: parent, attrs: map[string]string{}, elems: map[string]string{}, rowOrder: -1}
		null := false
		for _, at := range k.Attr {
			switch ns := at.NamespaceURI(); {
			case at.Space == "xmlns" || at.Space == "" && at.Key == "xmlns" || at.Space == "xml":
			case ns == nsXSI:
				null = null || at.Key == "nil" && at.Value == "true"
			case ns == nsDiffgram:
				r.inserted = r.inserted || at.Key == "hasChanges" && at.Value == "inserted"
			case ns == nsMSData && strings.HasPrefix(at.Key, "hidden"):
				name := strings.TrimPrefix(at.Key, "hidden")
				r.attrs[name] = at.Value
				r.order = append(r.order, "hidden "+name)
			case ns == nsMSData && at.Key == "rowOrder":
				if n, err := strconv.Atoi(at.Value); err == nil && n >= 0 {
					r.rowOrder = n
				}
			case ns == nsMSData:
			default:
				r.attrs[at.Key] = at.Value
				r.order = append(r.order, at.Key)
			}
		}
		a.rows[t] = append(a.rows[t], r)
		if c := textColumn(t); c != nil && !null {
			r.elems[c.Name] = k.Text() // DBNull (xsi:nil): absent
		}
		for _, e := range k.ChildElements() {
			if ct := d.TableNamed(e.Tag); ct != nil && (info.NestedIn[ct] == t || ct == t && d.SelfNested(t) != nil) && depth < 32 {
				read(e, ct, r, depth+1)
				continue
			}
			r.elems[e.Tag] = e.Text()
		}
	}
	for _, k := range data.ChildElements() {
		if t := d.TableNamed(k.Tag); t != nil && info.NestedIn[t] == nil {
			if !slices.Contains(a.top, t) {
				a.top = append(a.top, t)
			}
			read(k, t, nil, 0)
		}
	}
}

// textColumn returns t's simpleContent column, or nil.
func textColumn(t *shape.Table) *shape.Column {
	for _, c := range t.Columns {
		if c.MappingOf() == shape.MappingSimpleContent {
			return c
		}
	}
	return nil
}

// inRowElement reports whether c is written in its row's element (an
// element column, or the row's text), not as one of its attributes.
func inRowElement(c *shape.Column) bool {
	return c.MappingOf() == shape.MappingElement || c.MappingOf() == shape.MappingSimpleContent
}

// keysFromRows adds the hidden key columns the schema leaves out (.NET's
// auto-generated ones: Table_Id, named as it names those it makes) from
// the rows' msdata:hidden attributes, places them in column order where
// the rows write them, and relates a nested table to its parent by them.
func (l *learner) keysFromRows(d *shape.DataSet, answers []*dsAnswer, info *dsxml.SchemaInfo) {
	ordinals := info.Ordinals
	for _, t := range d.Tables {
		var order []string
		for _, a := range answers {
			if rows := a.rows[t]; len(rows) > 0 {
				order = rows[0].order
				break
			}
		}
		added := false
		for _, o := range order {
			name, hidden := strings.CutPrefix(o, "hidden ")
			if !hidden || t.ColumnNamed(name) != nil {
				continue
			}
			t.Columns = append(t.Columns, &shape.Column{Name: name, Mapping: shape.MappingHidden, Type: "int"})
			added = true
		}
		if !added {
			continue
		}
		// Place the attribute and hidden columns as the rows write them,
		// the element columns at their ordinals.
		var attrs, elems []*shape.Column
		for _, o := range order {
			name, _ := strings.CutPrefix(o, "hidden ")
			if c := t.ColumnNamed(name); c != nil && !inRowElement(c) {
				attrs = append(attrs, c)
			}
		}
		for _, c := range t.Columns {
			if !inRowElement(c) && !slices.Contains(attrs, c) {
				attrs = append(attrs, c)
			}
			if inRowElement(c) {
				elems = append(elems, c)
			}
		}
		n := len(t.Columns)
		slots := make([]*shape.Column, n)
		ok := len(ordinals) > 0
		for _, c := range elems {
			o, has := ordinals[c]
			if !has || o >= n || slots[o] != nil {
				ok = false
				break
			}
			slots[o] = c
		}
		if ok {
			i := 0
			for _, c := range attrs {
				for slots[i] != nil {
					i++
				}
				slots[i] = c
			}
			t.Columns = slots
		} else {
			t.Columns = append(attrs, elems...)
		}
	}
	// A nested table without a relation: related by the key of its
	// parent's name both write.
	for _, t := range d.Tables {
		p := info.NestedIn[t]
		if p == nil || d.NestedParent(t) != nil {
			continue
		}
		key := p.Name + "_Id"
		pc, cc := p.ColumnNamed(key), t.ColumnNamed(key)
		if pc == nil || cc == nil {
			l.note("%s: table %s is nested in %s without a relation the answers show", d.Name, t.Name, p.Name)
			continue
		}
		pc.AutoIncrement, pc.NotNull = true, true
		if p.UniqueOn([]string{key}) == nil {
			name := "Constraint1"
			for i := 2; uniqueNamed(d, name); i++ {
				name = "Constraint" + strconv.Itoa(i)
			}
			p.Unique = append(p.Unique, &shape.Unique{Name: name, Columns: []string{key}})
		}
		d.Relations = append(d.Relations, &shape.Relation{Name: p.Name + "_" + t.Name, Parent: p.Name, Child: t.Name,
			ParentColumns: []string{key}, ChildColumns: []string{key}, Nested: true})
	}
}

func uniqueNamed(d *shape.DataSet, name string) bool {
	for _, t := range d.Tables {
		for _, u := range t.Unique {
			if u.Name == name {
				return true
			}
		}
	}
	return false
}

// valueOf is a row's value of a column, element or attribute.
func valueOf(r *dsRow, col string) string {
	if v, ok := r.attrs[col]; ok {
		return v
	}
	return r.elems[col]
}

// mapColumns maps the columns holding values onto atmkit's values, by
// scope: the content rows (and the rows of one per content row) with the
// JSON answers' items, the result's own rows with the JSON answers' own
// values.
func (l *learner) mapColumns(g *group, d *shape.DataSet, answers []*dsAnswer) {
	content := d.ContentTable()
	if content == nil {
		return
	}
	leafOf := func(t *shape.Table, c *shape.Column) *node {
		n := &node{name: c.Name, attr: c.MappingOf() == shape.MappingAttribute, typ: c.Type, fromWSDL: true, anyText: true}
		g.ds.cols[c] = n
		return n
	}
	var itemLeaves, topLeaves, groupLeaves []leafAt
	itemTables := []*shape.Table{}
	grp := d.GroupTable()
	for _, t := range d.Tables {
		switch {
		case t == content || t.Rows == shape.RowsOne && belongsTo(d, t, content):
			itemTables = append(itemTables, t)
		case t.Rows == shape.RowsOne, t == grp:
		default:
			continue
		}
		for _, c := range t.Columns {
			// A hidden column is a value like any other (msdata:hiddenName
			// in the rows), unless it is a key.
			if c.MappingOf() == shape.MappingHidden && c.AutoIncrement || d.IsKey(t, c) || c.Value != "" {
				continue
			}
			lf := leafAt{leafOf(t, c), d.Name + "/" + t.Name + "/" + map[bool]string{true: "@", false: ""}[c.MappingOf() == shape.MappingAttribute] + c.Name}
			switch {
			case g.ds.fillers[t]:
				// Generated: its rows are not atmkit's.
			case t == grp:
				groupLeaves = append(groupLeaves, lf)
			case slices.Contains(itemTables, t):
				itemLeaves = append(itemLeaves, lf)
			default:
				topLeaves = append(topLeaves, lf)
			}
		}
	}
	fill := func(rec record, r *dsRow) {
		for _, c := range r.table.Columns {
			n := g.ds.cols[c]
			if n == nil {
				continue
			}
			v, ok := r.elems[c.Name]
			if !ok {
				v, ok = r.attrs[c.Name]
			}
			if ok {
				rec[n] = append(rec[n], v)
				n.texts = append(n.texts, v)
			}
		}
	}
	var items, tops []pair
	var itemRecs []record
	for _, a := range answers {
		top := record{}
		for _, t := range d.Tables {
			if t.Rows == shape.RowsOne && !slices.Contains(itemTables, t) && len(a.rows[t]) == 1 {
				fill(top, a.rows[t][0])
			}
		}
		var recs []record
		for _, pr := range a.rows[content] {
			rec := record{}
			fill(rec, pr)
			for _, t := range itemTables {
				if t == content {
					continue
				}
				for _, r := range rowsOfItem(d, a, t, content, pr) {
					fill(rec, r)
				}
			}
			recs = append(recs, rec)
		}
		itemRecs = append(itemRecs, recs...)
		switch {
		case g.content == shape.Locations && a.json != nil && len(recs) == len(a.json.items):
			tops = append(tops, pair{rec: top, values: a.json.top})
			for i, rec := range recs {
				items = append(items, pair{rec: rec, values: a.json.items[i].values})
			}
		case g.content == shape.Locations:
			tops = append(tops, pair{rec: top})
			for _, rec := range recs {
				items = append(items, pair{rec: rec})
			}
		default:
			tops = append(tops, pair{rec: top, values: map[string]string{"count": strconv.Itoa(len(recs))}})
		}
	}
	if !l.hasJSON(g) {
		l.sameTableAs(g, d, slices.Concat(itemLeaves, groupLeaves))
	}
	switch g.content {
	case shape.Locations:
		l.matchScope(itemLeaves, shape.ScopeLocation, items, nil, true)
		l.matchScope(topLeaves, shape.ScopeLocations, tops, nil, true)
		if grp != nil {
			l.matchScope(groupLeaves, shape.ScopeGroup, groupPairs(d, answers, grp, content, fill), nil, true)
		}
	case shape.Institutions:
		l.matchScope(itemLeaves, shape.ScopeInstitution, l.institutionPairs(itemLeaves, itemRecs), nil, false)
		l.matchScope(itemLeaves, shape.ScopeInstitution, nil, nil, true)
		l.matchScope(topLeaves, shape.ScopeInstitutions, tops, nil, false)
	case shape.Provinces:
		l.mapProvinces(itemLeaves)
		l.matchScope(itemLeaves, shape.ScopeProvince, nil, nil, true)
		l.matchScope(topLeaves, shape.ScopeProvinces, tops, nil, false)
	}
	// The columns: their values, or generated; an empty string left out.
	for _, t := range d.Tables {
		for _, c := range t.Columns {
			n := g.ds.cols[c]
			if n == nil {
				continue
			}
			at := d.Name + "/" + t.Name + "/" + c.Name
			if n.value == "" {
				if t.Rows == shape.RowsNone {
					continue
				}
				c.Generated = true
				if allBlank(n.texts) {
					l.blank[c] = at
				}
				l.report.Unmapped = append(l.report.Unmapped, fmt.Sprintf("%s: %s (%s): no value of atmkit's data matches it; written with generated values", d.Name, at, c.Type))
				continue
			}
			c.Value = n.value
			c.Format = formatOf(c.Type, n.texts)
			if c.Type == "boolean" && c.Format == shape.FormatOneZero {
				c.Format = "" // a DataSet writes booleans true/false
			}
			c.OmitEmpty = omitsEmpty(d, answers, t, c, content)
			l.mapped(n, d.Name, at, c.Value)
		}
	}
	if grp != nil && g.content == shape.Locations {
		l.learnDataSetGroupOrder(d, answers, grp, content)
	}
}

// rowsOfItem are the rows of t (a table of one row per parent row) that
// belong to the content row pr, through t's parents.
func rowsOfItem(d *shape.DataSet, a *dsAnswer, t, content *shape.Table, pr *dsRow) []*dsRow {
	rel := d.ParentOf(t)
	if rel == nil {
		return nil
	}
	parent := d.TableNamed(rel.Parent)
	if parent == content {
		return childRows(d, a, t, pr)
	}
	var out []*dsRow
	for _, p := range rowsOfItem(d, a, parent, content, pr) {
		out = append(out, childRows(d, a, t, p)...)
	}
	return out
}

// omitsEmpty reports whether a string column is left out of the rows
// whose value is empty (the deployment stores DBNull for it): it is
// missing from a row, and never written empty.
func omitsEmpty(d *shape.DataSet, answers []*dsAnswer, t *shape.Table, c *shape.Column, content *shape.Table) bool {
	if !slices.Contains([]string{"string", "anyURI"}, c.Type) || c.MappingOf() == shape.MappingHidden {
		return false
	}
	missing, empty := false, false
	for _, a := range answers {
		for _, r := range a.rows[t] {
			v, ok := r.elems[c.Name]
			if c.MappingOf() == shape.MappingAttribute {
				v, ok = r.attrs[c.Name]
			}
			switch {
			case !ok:
				missing = true
			case v == "":
				empty = true
			}
		}
	}
	return missing && !empty
}

// dataSetResult is the result learned of a DataSet group.
func (l *learner) dataSetResult(g *group) *shape.Result {
	return &shape.Result{Layout: shape.Dataset, Root: g.ds.root, DataSet: g.ds.d}
}

package mockserver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/dsxml"
)

// A DataSet result (shape layout dataset) is written as .NET's
// DataSet.WriteXml writes one with its schema as a diffgram: the inline
// xs:schema (the same for every answer: compiled once, dsxml), then
// <diffgr:diffgram> holding the DataSet's element and, in it, the rows of
// each table in the DataSet's order; a nested table's rows inside their
// parent row. Each row carries diffgr:id (its table's name and number, 1
// and up), msdata:rowOrder (its position in its table, 0 and up), its
// attribute columns and its hidden ones (msdata:hiddenName), then its
// element columns. A DataSet whose tables are all empty writes the
// diffgram empty.
//
// The rows of the content table (the locations, institutions or
// provinces) are the answer's items. A location's row, nested rows
// included, is cached per ATM (fragments.go) with holes where the numbers
// that depend on its place in the answer go: its own number, and those of
// its nested rows, which count on from the rows of the ATMs before it.

// dsOpKind is the kind of one step of a DataSet row program.
type dsOpKind uint8

const (
	dsBytes   dsOpKind = iota // append b
	dsElement                 // an element column: b value close, empty for "", nothing for omitEmpty "" or no search point
	dsAttr                    // an attribute column: as dsElement, empty being b and its closing quote
	dsNumber                  // a row number: mul * (the row number of table) + add, as leaf writes integers
	dsOpen                    // the end of a row's start tag: > (or, with nothing in the row, />)
	dsClose                   // the row's end tag
	dsRows                    // the rows of a nested table
	dsText                    // a simpleContent column: the row's text (as dsElement with b and close empty)
)

// dsOp is one step of a row program.
type dsOp struct {
	kind      dsOpKind
	b, close  []byte // dsBytes, dsElement, dsAttr: the bytes; dsClose: the end tag
	empty     []byte // dsElement: the whole empty element; dsAttr: the attribute with no value
	leaf      leaf
	omitEmpty bool
	point     bool // written only when the result has a search point
	table     int  // dsNumber: the table whose row number it is
	mul, add  int64
	child     *dsTable // dsRows
	// decl is, for dsOpen and dsElement, the length of the namespace
	// declaration that ends the start tag before its '>': the attributes
	// written after it (xsi:nil, xml:space) go before it, as XmlTextWriter
	// writes the declarations last (WriteEndStartTag).
	decl int
}

// dsTable is a table compiled for one binding family.
type dsTable struct {
	t       *shape.Table
	index   int      // its place in the DataSet's tables: its row counter
	row     []dsOp   // the program of one row
	perItem bool     // its rows belong to the content table's rows (a nested or related table of a list's items)
	parent  *dsTable // the table its rows belong to, for perItem tables
	flat    bool     // written apart from its parent's rows, at its own place (not nested)
	langs   bool     // one row per language of the location
	groups  bool     // one row per institution of the locations (rows: groups)
	scope   shape.Scope
}

// dsCode is a DataSet result compiled for one binding family: inside a
// SOAP <OpResult>, or as the GET/POST document after the XML declaration.
type dsCode struct {
	ds *shape.DataSet
	// start is everything up to the diffgram's start tag, unclosed;
	// empty closes it at once (no rows at all), open opens it and the
	// DataSet's element; end closes them; rest follows the diffgram.
	start, empty, open, end, rest []byte
	tables                        []*dsTable // in the DataSet's order
	top                           []*dsTable // tables written at the DataSet's level, in order
	content                       *dsTable
	// anchor is the top-level table whose rows are the answer's items
	// (items): the content table, or the table of groups the content
	// rows are nested in (nested). The tables before it are written in
	// the head, those after it in the tail.
	anchor *dsTable
	// group is the table of groups (rows: groups), if any; nested, when
	// the content rows are nested in its rows: each group's row is then
	// written around its locations' rows, its program cut at them
	// (groupOpen, groupClose).
	group  *dsTable
	nested bool
	// bankByBank: the content rows, not nested, are written in the order
	// of their groups (rowOrder: groups).
	bankByBank            bool
	groupOpen, groupClose []dsOp
	// result is the number of top-level one-row tables of the result's
	// own values: the DataSet holds a row even with no items.
	result int
	// variant is the fragment cache variant of the content rows (locations).
	variant int
	kind    listKind
	// scope is the namespaces in scope in the DataSet's element.
	scope dsScope
	// nilAttr marks a simpleContent row DBNull: xsi:nil, declaring xsi
	// where nothing above declares it (GET and POST; the SOAP envelope
	// does, and XmlTextWriter finds it there).
	nilAttr []byte
}

// dsScope is the namespaces in scope where a row is written: the default
// one and the prefixes'.
type dsScope struct {
	def      string
	prefixes map[string]string
}

// rowScope is the scope the start tag of a row of dt is written in: the
// DataSet's element's, or its nesting parent row's.
func (code *dsCode) rowScope(dt *dsTable, service string) dsScope {
	if dt.parent == nil || dt.flat {
		return code.scope
	}
	_, _, in := code.rowStart(dt.parent, code.rowScope(dt.parent, service), service)
	return in
}

// rowStart is how a row of dt starts in scope: its element's qualified
// name, the namespace declaration it writes after its attributes (as
// XmlTextWriter does, .NET's rows being written with their table's prefix
// when the table is in a namespace, else none), and the scope inside it.
func (code *dsCode) rowStart(dt *dsTable, scope dsScope, service string) (name, xmlns string, in dsScope) {
	ns := code.ds.TableNamespace(dt.t, service)
	prefix := ""
	if ns != "" {
		prefix = dt.t.Prefix
	}
	if prefix == "" {
		if scope.def == ns {
			return dt.t.Name, "", scope
		}
		return dt.t.Name, ` xmlns="` + xmlEscape(ns) + `"`, dsScope{def: ns, prefixes: scope.prefixes}
	}
	name = prefix + ":" + dt.t.Name
	if scope.prefixes[prefix] == ns {
		return name, "", scope
	}
	prefixes := map[string]string{prefix: ns}
	for p, u := range scope.prefixes {
		if p != prefix {
			prefixes[p] = u
		}
	}
	return name, ` xmlns:` + prefix + `="` + xmlEscape(ns) + `"`, dsScope{def: scope.def, prefixes: prefixes}
}

// dataSet compiles a DataSet result for a binding family: SOAP (inside
// <OpResult>, at depth soapResultDepth+1, not indented: DataSet.WriteXml
// writes through the XmlWriter it is given) or GET/POST (under the root,
// indented).
func (c *compiler) dataSet(r *shape.Result, soap bool) (*dsCode, error) {
	d := r.DataSet
	schemas, err := dsxml.Schemas(d, c.ns)
	if err != nil {
		return nil, fmt.Errorf("the DataSet's schema: %w", err)
	}
	depth := 1 // the schema's and the diffgram's
	var start []byte
	if soap {
		depth = soapResultDepth + 1
	} else {
		start = append(start, "<"+r.Root+xmlnsAttr(c.ns, "")+">"...)
	}
	for _, schema := range schemas {
		start = dsxml.Append(start, schema, depth, !c.flat)
	}
	start = append(start, c.indent(depth)+`<diffgr:diffgram xmlns:msdata="`+dsxml.NSMSData+`" xmlns:diffgr="`+dsxml.NSDiffgram+`"`...)
	code := &dsCode{ds: d, start: start, nilAttr: []byte(` xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`)}
	if soap {
		code.nilAttr = []byte(` xsi:nil="true"`)
	}
	rest := c.indent(depth - 1)
	if !soap {
		rest = "\r\n</" + r.Root + ">"
	}
	code.empty = []byte(" />" + rest)
	dsNS := d.Namespace.Resolve(c.ns, "")
	dsName, dsXmlns := d.Name, xmlnsAttr(dsNS, c.ns)
	if d.Prefix != "" && dsNS != "" {
		// <at:Atlas xmlns:at="...">: the top-level rows declare the
		// namespace as their default (dsRow).
		dsName, dsXmlns = d.Prefix+":"+d.Name, ` xmlns:`+d.Prefix+`="`+xmlEscape(dsNS)+`"`
	}
	code.open = []byte(">" + c.indent(depth+1) + "<" + dsName + dsXmlns + ">")
	// The namespaces in scope in the DataSet's element: its default one,
	// and its prefix's.
	code.scope = dsScope{def: c.ns, prefixes: map[string]string{}}
	if d.Prefix != "" && dsNS != "" {
		code.scope.prefixes[d.Prefix] = dsNS
	} else {
		code.scope.def = dsNS
	}
	code.end = []byte(c.indent(depth+1) + "</" + dsName + ">" + c.indent(depth) + "</diffgr:diffgram>")
	code.rest = []byte(rest)
	content := r.Content()
	for i, t := range d.Tables {
		code.tables = append(code.tables, &dsTable{t: t, index: i, scope: d.RowScope(t, content), langs: t.Rows == "languages", groups: t.Rows == shape.RowsGroups})
	}
	byName := map[string]*dsTable{}
	for _, dt := range code.tables {
		byName[dt.t.Name] = dt
		if dt.t == d.ContentTable() {
			code.content = dt
		}
		if dt.groups {
			code.group = dt
		}
	}
	// Which rows belong to the content's: its children, theirs, and so on.
	for _, dt := range code.tables {
		rel := d.ParentOf(dt.t)
		if rel == nil {
			continue
		}
		dt.parent = byName[rel.Parent]
		dt.flat = !rel.Nested
	}
	for _, dt := range code.tables {
		for p := dt.parent; p != nil; p = p.parent {
			if p == code.content {
				dt.perItem = true
				break
			}
		}
	}
	code.anchor = code.content
	if g := code.group; g != nil && code.content != nil && code.content.parent == g && !code.content.flat {
		code.nested, code.anchor = true, g
	}
	code.bankByBank = code.group != nil && code.content != nil && !code.nested && code.content.t.RowOrder == shape.RowOrderGroups
	for _, dt := range code.tables {
		switch {
		case dt == code.content && code.nested:
			// Written inside the groups' rows (items).
		case dt == code.content:
			code.top = append(code.top, dt)
		case dt.perItem && !dt.flat:
			// Written inside its parent's rows.
		case dt.perItem, dt.parent == nil:
			code.top = append(code.top, dt)
			if dt.parent == nil && dt.t.Rows == shape.RowsOne {
				code.result++
			}
		default:
			return nil, fmt.Errorf("table %s: its rows belong to table %s's, which are not the result's list", dt.t.Name, dt.parent.t.Name)
		}
	}
	for _, dt := range code.tables {
		rowDepth := depth + 2
		for p := dt; p.parent != nil && !p.flat; p = p.parent {
			rowDepth++
		}
		c.dsRow(code, dt, rowDepth, code.rowScope(dt, c.ns))
	}
	if code.nested {
		ops := code.group.row
		i := slices.IndexFunc(ops, func(o dsOp) bool { return o.kind == dsRows && o.child == code.content })
		if i < 0 {
			return nil, fmt.Errorf("table %s: its rows hold no rows of table %s", code.group.t.Name, code.content.t.Name)
		}
		code.groupOpen, code.groupClose = ops[:i], ops[i+1:]
	}
	switch content {
	case shape.Institutions:
		code.kind = institutionItems
	case shape.Provinces:
		code.kind = provinceItems
	default:
		code.kind = locationItems
		key := fmt.Sprintf("ds|%s|%d|%t", r.Name, depth, c.flat)
		v, ok := c.variants[key]
		if !ok {
			v = *c.next
			*c.next++
			c.variants[key] = v
		}
		code.variant = v
	}
	return code, nil
}

// dsRow compiles the program of one row of dt at depth, in scope.
func (c *compiler) dsRow(code *dsCode, dt *dsTable, depth int, scope dsScope) {
	d, t := code.ds, dt.t
	name, xmlns, in := code.rowStart(dt, scope, c.ns)
	var ops []dsOp
	bytes := func(s string) {
		if n := len(ops); n > 0 && ops[n-1].kind == dsBytes {
			ops[n-1].b = append(ops[n-1].b, s...)
			return
		}
		ops = append(ops, dsOp{kind: dsBytes, b: []byte(s)})
	}
	number := func(table int, mul, add int64, l leaf) {
		ops = append(ops, dsOp{kind: dsNumber, table: table, mul: mul, add: add, leaf: l})
	}
	plain := leaf{kind: shape.KindInt, typ: "int", fixed: -1, bits: 64}
	// diffgr:id is the TableName (XmlDataTreeWriter.XmlDataRowWriter:
	// row.Table.TableName, where the element is EncodedTableName): the
	// shape's name XmlConvert.DecodeName'd.
	bytes(c.indent(depth) + "<" + name + ` diffgr:id="` + xmlEscape(decodeName(t.Name)))
	number(dt.index, 1, 1, plain)
	bytes(`" msdata:rowOrder="`)
	number(dt.index, 1, 0, plain)
	bytes(`"`)
	if t.Changes == shape.ChangesInserted {
		bytes(` diffgr:hasChanges="inserted"`)
	}
	// Attribute and hidden columns, in column order; then element columns.
	for _, col := range t.Columns {
		switch col.MappingOf() {
		case shape.MappingAttribute:
			c.dsColumn(&ops, bytes, number, code, dt, col, " "+col.Name+`="`, `"`, true)
		case shape.MappingHidden:
			c.dsColumn(&ops, bytes, number, code, dt, col, " msdata:hidden"+col.Name+`="`, `"`, true)
		}
	}
	// A row in another namespace than the one in scope declares it,
	// after its attributes (the DataSet's element with a prefix: every
	// row outside another row).
	bytes(xmlns)
	ops = append(ops, dsOp{kind: dsOpen, decl: len(xmlns)})
	end := c.indent(depth) + "</" + name + ">"
	for _, col := range t.Columns {
		switch col.MappingOf() {
		case shape.MappingElement:
			// An element column is written with no prefix, in its
			// namespace (the table's, or its own).
			colXmlns := xmlnsAttr(d.ColumnNamespace(t, col, c.ns), in.def)
			n := len(ops)
			c.dsColumn(&ops, bytes, number, code, dt, col, c.indent(depth+1)+"<"+col.Name+colXmlns+">", "</"+col.Name+">", false)
			if len(ops) == n+1 && ops[n].kind == dsElement {
				ops[n].decl = len(colXmlns)
			}
		case shape.MappingSimpleContent:
			// The row's text, its end tag on its line.
			n := len(ops)
			c.dsColumn(&ops, bytes, number, code, dt, col, "", "", false)
			if len(ops) == n+1 && ops[n].kind == dsElement {
				ops[n].kind = dsText
			}
			end = "</" + name + ">"
		}
	}
	for _, r := range d.NestedChildren(t) {
		for _, child := range code.tables {
			if child.t.Name == r.Child && child.t.Rows != shape.RowsNone {
				ops = append(ops, dsOp{kind: dsRows, child: child})
			}
		}
	}
	ops = append(ops, dsOp{kind: dsClose, close: []byte(end)})
	dt.row = ops
}

// dsColumn compiles one column of a row of dt: its value, its key (an
// auto-increment number, or its parent row's value of the related
// column), or the row's index. open and end are what goes around it.
func (c *compiler) dsColumn(ops *[]dsOp, bytes func(string), number func(int, int64, int64, leaf), code *dsCode, dt *dsTable, col *shape.Column,
	open, end string, attr bool) {
	d := code.ds
	f := &shape.Field{Element: col.Name, Type: col.Type, Value: col.Value, Format: col.Format, Generated: col.Generated}
	// A key: its own number, or its parent row's column.
	src, srcTable := col, dt
	for {
		p := d.ParentColumn(srcTable.t, src)
		if p == nil || srcTable.parent == nil {
			break
		}
		src, srcTable = p, srcTable.parent
	}
	numberLeaf := c.leaf(&shape.Field{Element: col.Name, Type: col.Type, Format: col.Format, Value: "index"}, shape.ScopeLocation)
	numberLeaf.kind = shape.KindInt
	switch {
	case src.AutoIncrement:
		bytes(open)
		number(srcTable.index, src.StepOf(), src.Seed, numberLeaf)
		bytes(end)
		return
	case src != col:
		f.Value, f.Generated = src.Value, src.Generated
		if src.Generated {
			f.Type = src.Type
		}
	}
	scope := srcTable.scope
	if f.Value == "index" && (scope == shape.ScopeLocation || scope == shape.ScopeInstitution || scope == shape.ScopeProvince) {
		// The item's place in the answer: its row's number.
		idx := srcTable
		for idx.parent != nil && idx != code.content {
			idx = idx.parent
		}
		bytes(open)
		number(idx.index, 1, 0, numberLeaf)
		bytes(end)
		return
	}
	if f.Value == "" && !f.Generated {
		return // a key of no value (a parent column that is itself a key of no value)
	}
	l := c.leaf(f, scope)
	if src == col {
		l.maxLen = col.MaxLength
	}
	point := scope == shape.ScopeLocations && strings.HasPrefix(f.Value, "coordinates.")
	if attr {
		*ops = append(*ops, dsOp{kind: dsAttr, b: []byte(open), close: []byte(end), empty: []byte(open + end), leaf: l, omitEmpty: col.OmitEmpty, point: point})
		return
	}
	*ops = append(*ops, dsOp{kind: dsElement, b: []byte(open), close: []byte(end), empty: []byte(strings.TrimSuffix(open, ">") + " />"),
		leaf: l, omitEmpty: col.OmitEmpty, point: point})
}

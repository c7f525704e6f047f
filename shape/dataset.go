package shape

import (
	"slices"
	"strings"
)

// A result of layout dataset is a System.Data.DataSet, which ASMX writes
// as DataSet.WriteXml writes it with its schema as a diffgram: an inline
// xs:schema (the DataSet's tables, columns and relations, whatever rows it
// holds) then a diffgr:diffgram holding the rows. In SOAP the two are the
// children of <OpResult>; in HTTP GET and POST they sit under a root named
// Result.Root (DataSet for an untyped DataSet) in the service namespace.
//
// The rows come from atmkit's data: each table says which of its lists
// fills it (Table.Rows), and each column which value of the list's items it
// holds (Column.Value), as a typed result's fields do.

// DataSet describes a DataSet result: its name and namespace, its tables
// in the DataSet's order, and the relations between them.
type DataSet struct {
	// Name is the DataSetName: the schema's id, the DataSet element of the
	// schema and the diffgram's data element.
	Name string
	// Namespace is the DataSet's Namespace: NoNamespace (the default) or a
	// URI; its tables are in it.
	Namespace Namespace
	// Locale is the DataSet's Locale as the schema declares it: "" for the
	// current culture (msdata:UseCurrentLocale="true", a Locale never set),
	// LocaleInvariant for the invariant culture (msdata:Locale=""), or a
	// culture name such as en-US (msdata:Locale="en-US").
	Locale string
	// CaseSensitive writes msdata:CaseSensitive="true".
	CaseSensitive bool
	// Prefix is the DataSet's Prefix (a DataSet in a namespace only): the
	// schema says it (msdata:Prefix), and the diffgram's data element is
	// written with it (<at:Atlas xmlns:at="...">), the top-level rows then
	// declaring the namespace as their default.
	Prefix string
	// WSDL is how the WSDL declares the result: WSDLSchemaAny (.NET's
	// default, "" means it) or WSDLLaxAny (Mono's, and .NET's with the
	// system.data.dataset WSDL_VERSION 2.0 setting) for an untyped DataSet,
	// WSDLTyped for a typed one (its GET/POST root is then its class's
	// name, Result.Root).
	WSDL string
	// Tables are the DataSet's tables, in its order.
	Tables []*Table
	// Relations are the DataSet's relations, in its order.
	Relations []*Relation
	// Schema, when not empty, is the inline schema as the deployment writes
	// it (one xs:schema element), written instead of the schema atmkit
	// derives from the tables: for what the tables do not describe.
	Schema string
	// SchemaOrder lists the namespace URIs of the DataSet's schemas (its
	// own, its tables' and columns' other namespaces) in the order the
	// deployment's schema writer enumerates them: the order of the
	// xs:import elements and of the schemas written after the DataSet's
	// own. .NET keeps them in a Hashtable, so the order follows the
	// runtime's string hash codes (Mono's and .NET Framework's differ);
	// shape learn takes it from a recorded answer. Namespaces it leaves
	// out follow in the order they are first used.
	SchemaOrder []string

	line int
}

// Locales and WSDL forms of a DataSet.
const (
	// LocaleInvariant is the invariant culture: msdata:Locale="".
	LocaleInvariant = "invariant"
	// WSDLSchemaAny is .NET's description of a DataSet result in the WSDL:
	// a sequence of a reference to xs:schema and an xs:any.
	WSDLSchemaAny = "schema-any"
	// WSDLLaxAny is the other description (Mono; .NET with WSDL_VERSION
	// 2.0): a repeated sequence of two lax xs:any, in the XSD and the
	// diffgram namespaces.
	WSDLLaxAny = "lax-any"
	// WSDLTyped is a typed DataSet's (a class generated from an XSD): an
	// xs:any in the DataSet's namespace, whose schema the WSDL imports from
	// service.asmx?schema=Name, where the service serves it.
	WSDLTyped = "typed"
)

// Table is one DataTable of a DataSet.
type Table struct {
	// Name is the TableName: the row elements' name.
	Name string
	// Rows says which list fills the table: RowsOne (one row of the
	// result's own values), a list of the result's content (locations,
	// institutions, provinces), languages (a location's languages, in a
	// table related to the locations' table), RowsGroups (the groups of
	// the locations by institution, the locations table related to it)
	// or RowsNone (no rows).
	Rows string
	// GroupOrder is the order of a table of groups' rows (Rows
	// RowsGroups): GroupByFirst ("" says it too), GroupByID or
	// GroupByName; the locations' rows are numbered in the search's order
	// whatever it is.
	GroupOrder string
	// RowOrder is the order of a locations table's rows whose parent is
	// a table of groups in a relation not nested: "" (the search's
	// order) or RowOrderGroups (each group's rows together, the groups
	// in the table of groups' order, each group's in the search's
	// order), the rows numbered in the order written either way.
	RowOrder string
	// Changes is the rows' state: "" (unchanged, as after AcceptChanges)
	// or ChangesInserted (added: diffgr:hasChanges="inserted").
	Changes string
	// Columns are the table's columns, in their order.
	Columns []*Column
	// Unique are the table's unique constraints (a primary key, or the
	// parent key of a relation), in their order.
	Unique []*Unique
	// Namespace is the table's Namespace when it is set (DataTable.Namespace):
	// NoNamespace or a URI; "" inherits it, as .NET does, from the table it
	// is nested in, else from the DataSet. A table in another
	// namespace is declared in a schema of that namespace, which the
	// DataSet's schema imports, and its rows are written in it.
	Namespace Namespace
	// Prefix is the table's Prefix (a table in a namespace only): the
	// schema says it (msdata:Prefix) and the rows are written with it.
	Prefix string

	line int
}

// Rows of a table that are no list of the model.
const (
	RowsOne  = "one"  // one row: the result's own values (count, search point)
	RowsNone = "none" // no rows: declared in the schema only
	// RowsGroups is the groups of a DataSet's locations by institution:
	// one row per institution of the locations found (its values, scope
	// ScopeGroup), in the table's GroupOrder (by default the order of
	// its first location), as a typed result's group: institution orders
	// them; the locations table is
	// the child of this one in a relation whose parent columns hold the
	// institution's values, nested (each group's locations in its row,
	// in the answer's order) or not (the groups' rows, then the
	// locations' in the answer's order, or bank by bank: RowOrder). A row of either table keeps the
	// number of its place in its own table (diffgr:id, msdata:rowOrder),
	// as DataSet.WriteXml writes them.
	RowsGroups = "groups"
	// RowOrderGroups is a locations table's RowOrder when a deployment
	// adds its rows grouped (the search's locations grouped by
	// institution first, LINQ's GroupBy then SelectMany): bank by bank.
	RowOrderGroups = "groups"
	// ChangesInserted marks rows added and not accepted.
	ChangesInserted = "inserted"
)

// Column is one DataColumn.
type Column struct {
	// Name is the ColumnName.
	Name string
	// Mapping is how the column is written: MappingElement (the default),
	// MappingAttribute, MappingHidden (an attribute msdata:hiddenName,
	// declared use="prohibited": a key .NET clients read but do not show)
	// or MappingSimpleContent (the row's text).
	Mapping string
	// Type is the XSD type of the column's DataType (int, string, double,
	// boolean, short, unsignedByte, ...).
	Type string
	// NotNull is AllowDBNull false: an element column without minOccurs="0",
	// an attribute use="required", a hidden msdata:AllowDBNull="false".
	NotNull bool
	// AutoIncrement numbers the rows: AutoIncrementSeed plus
	// AutoIncrementStep (0 means 1) times the row's position in its table.
	AutoIncrement bool
	Seed, Step    int64
	// Value is the model value the column holds, as a Field's Value, read
	// in the scope of the table's rows. Empty for a generated column, an
	// auto-increment column, or a relation's child column (which holds its
	// parent row's key).
	Value string
	// Generated marks a column atmkit has no data for: written with
	// GeneratedValue, as a generated field.
	Generated bool
	// OmitEmpty writes nothing for an empty string value (the deployment
	// stores DBNull for it), where an empty string is written <Name />.
	OmitEmpty bool
	// Format is how a boolean or number is written, as a Field's Format.
	Format string
	// Namespace is an element column's Namespace when it is not its
	// table's (DataColumn.Namespace set): a URI. The column is declared
	// as a global element of a schema of that namespace, and written in it.
	Namespace Namespace
	// MaxLength is a string column's MaxLength (0: none, .NET's -1): the
	// schema declares the column's type as a restriction of xs:string with
	// that maxLength, and a DataSet reading the answer refuses a longer
	// value (ConstraintException when it enables its constraints), so the
	// data set's values must fit it (CheckData) and a generated value is
	// cut to it.
	MaxLength int

	line int
}

// Column mappings.
const (
	MappingElement   = "element"
	MappingAttribute = "attribute"
	MappingHidden    = "hidden"
	// MappingSimpleContent is a column written as its row's text (the row
	// element holds no element columns and no nested rows; a value of
	// white space only gets xml:space="preserve", an empty one left out
	// with omitEmpty is DBNull: xsi:nil).
	MappingSimpleContent = "simpleContent"
)

// Unique is a UniqueConstraint.
type Unique struct {
	// Name is the ConstraintName (the schema's name, unless another
	// constraint of the DataSet has it: then Table_Name).
	Name       string
	Columns    []string
	PrimaryKey bool

	line int
}

// Relation is a DataRelation between two tables.
type Relation struct {
	// Name is the RelationName.
	Name          string
	Parent, Child string
	// ParentColumns and ChildColumns are the related columns, in pairs.
	ParentColumns, ChildColumns []string
	// Nested writes the child rows inside their parent row, and the child
	// table inside its parent's in the schema.
	Nested bool
	// NoConstraint is a relation made without constraints: no xs:keyref,
	// an msdata:Relationship annotation instead.
	NoConstraint bool

	line int
}

// MappingOf is c's mapping, MappingElement when not given.
func (c *Column) MappingOf() string {
	if c.Mapping == "" {
		return MappingElement
	}
	return c.Mapping
}

// StepOf is c's AutoIncrementStep (1 when not given).
func (c *Column) StepOf() int64 {
	if c.Step == 0 {
		return 1
	}
	return c.Step
}

// IsKey reports whether c is a key column with no value of its own: auto
// incremented, or the child column of a relation of d (set by the parent
// row).
func (d *DataSet) IsKey(t *Table, c *Column) bool {
	if c.AutoIncrement {
		return true
	}
	return d.ParentColumn(t, c) != nil
}

// ParentColumn returns the column of t's parent table that c, a child
// column of a relation, takes its values from; nil if c is no child column.
func (d *DataSet) ParentColumn(t *Table, c *Column) *Column {
	for _, r := range d.Relations {
		if r.Child != t.Name {
			continue
		}
		if i := slices.Index(r.ChildColumns, c.Name); i >= 0 && i < len(r.ParentColumns) {
			if p := d.TableNamed(r.Parent); p != nil {
				return p.ColumnNamed(r.ParentColumns[i])
			}
		}
	}
	return nil
}

// TableNamed returns the table called name, or nil.
func (d *DataSet) TableNamed(name string) *Table {
	for _, t := range d.Tables {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// ColumnNamed returns the column called name, or nil.
func (t *Table) ColumnNamed(name string) *Column {
	for _, c := range t.Columns {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// TableNamespace is the namespace URI t's rows are written in: its own,
// else inherited as DataTable.Namespace inherits it: the table it is
// nested in's, else its DataSet's.
func (d *DataSet) TableNamespace(t *Table, service string) string {
	for range len(d.Tables) + 1 {
		if t.Namespace != "" {
			return t.Namespace.Resolve(service, "")
		}
		r := d.NestedParent(t)
		if r == nil {
			break
		}
		p := d.TableNamed(r.Parent)
		if p == nil {
			break
		}
		t = p
	}
	return d.Namespace.Resolve(service, "")
}

// ColumnNamespace is the namespace URI of c, a column of t, as
// DataColumn.Namespace says it: an attribute column's is none; another
// column's is its own, else its table's.
func (d *DataSet) ColumnNamespace(t *Table, c *Column, service string) string {
	switch {
	case c.MappingOf() == MappingAttribute:
		return ""
	case c.Namespace != "":
		return c.Namespace.Resolve(service, "")
	}
	return d.TableNamespace(t, service)
}

// SelfNested returns the nested relation of t to itself (a hierarchy of
// t's rows), or nil.
func (d *DataSet) SelfNested(t *Table) *Relation {
	for _, r := range d.Relations {
		if r.Nested && r.Parent == t.Name && r.Child == t.Name {
			return r
		}
	}
	return nil
}

// NestedParent returns the relation that nests t in another table, or nil.
func (d *DataSet) NestedParent(t *Table) *Relation {
	for _, r := range d.Relations {
		if r.Nested && r.Child == t.Name && r.Parent != t.Name {
			return r
		}
	}
	return nil
}

// NestedChildren lists the relations nesting another table in t, in the
// DataSet's order.
func (d *DataSet) NestedChildren(t *Table) []*Relation {
	var out []*Relation
	for _, r := range d.Relations {
		if r.Nested && r.Parent == t.Name && r.Child != t.Name {
			out = append(out, r)
		}
	}
	return out
}

// TopLevel lists the tables nested in no other, in the DataSet's order.
func (d *DataSet) TopLevel() []*Table {
	var out []*Table
	for _, t := range d.Tables {
		if d.NestedParent(t) == nil {
			out = append(out, t)
		}
	}
	return out
}

// ContentTable returns the table whose rows are the result's content list
// (locations, institutions or provinces), or nil.
func (d *DataSet) ContentTable() *Table {
	for _, t := range d.Tables {
		switch Content(t.Rows) {
		case Locations, Institutions, Provinces:
			return t
		}
	}
	return nil
}

// GroupTable returns the table of the groups of the locations (rows:
// groups), or nil.
func (d *DataSet) GroupTable() *Table {
	for _, t := range d.Tables {
		if t.Rows == RowsGroups {
			return t
		}
	}
	return nil
}

// ParentOf returns the relation whose child t is (the one nesting it, if
// any, else the first), or nil: the table whose rows t's rows belong to.
func (d *DataSet) ParentOf(t *Table) *Relation {
	if r := d.NestedParent(t); r != nil {
		return r
	}
	for _, r := range d.Relations {
		if r.Child == t.Name && r.Parent != t.Name {
			return r
		}
	}
	return nil
}

// RowScope is the scope the values of t's columns are read in, for a
// result holding content: the items of a list for a table of a list's
// rows (a language for languages); for a table of one row, the result's
// own values, or, when the table is the child of another in a relation
// (one row per parent row, say a location's address in a table of its
// own), its parent's scope. "" for a table of no rows, and for one whose
// relation names no table (a shape Validate refuses): what its values are
// cannot be known.
func (d *DataSet) RowScope(t *Table, content Content) Scope {
	for range len(d.Tables) + 1 {
		switch t.Rows {
		case string(Locations):
			return ScopeLocation
		case string(Institutions):
			return ScopeInstitution
		case string(Provinces):
			return ScopeProvince
		case "languages":
			return ScopeLanguage
		case RowsGroups:
			return ScopeGroup
		case RowsOne:
			r := d.ParentOf(t)
			if r == nil {
				return ScopeOf(content)
			}
			p := d.TableNamed(r.Parent)
			if p == nil {
				return ""
			}
			t = p
			continue
		}
		return ""
	}
	return "" // a cycle of one-row tables
}

// AutoGenerated reports whether c is a key column .NET leaves out of the
// schema, taking it for one it makes itself when it reads nested XML: a
// hidden int column named Table_Id (or Table_Id_0), or the child column,
// named Parent_Id, of a nested one-column relation. Its values are still
// written (msdata:hiddenTable_Id) in the diffgram. The rules are .NET's
// (XmlTreeGen.AutoGenerated and SetupAutoGenerated): a constraint on the
// column that is not itself auto-generated keeps the column in the schema.
func (d *DataSet) AutoGenerated(t *Table, c *Column) bool { return d.autoGenerated().cols[c] }

// AutoGeneratedUnique reports whether .NET leaves u, a constraint of t,
// out of the schema: one named Constraint... on one auto-generated column.
func (d *DataSet) AutoGeneratedUnique(t *Table, u *Unique) bool { return d.autoGenerated().uniques[u] }

// AutoGeneratedRelation reports whether .NET leaves r's foreign key out
// of the schema: a relation named Parent_Child... on one auto-generated
// column (see AutoGenerated).
func (d *DataSet) AutoGeneratedRelation(r *Relation) bool { return d.autoGenerated().rels[r] }

// autoMarks are what .NET leaves out of a DataSet's schema.
type autoMarks struct {
	cols    map[*Column]bool
	uniques map[*Unique]bool
	rels    map[*Relation]bool
}

// autoGenerated marks what .NET leaves out of the schema, table by table
// in the DataSet's order, as SetupAutoGenerated does: first the columns
// by their names, then the table's constraints (its unique constraints,
// then the foreign keys of the relations it is the child of), each either
// marked or unmarking the columns it holds.
func (d *DataSet) autoGenerated() autoMarks {
	m := autoMarks{cols: map[*Column]bool{}, uniques: map[*Unique]bool{}, rels: map[*Relation]bool{}}
	for _, t := range d.Tables {
		for _, c := range t.Columns {
			if d.autoGeneratedName(t, c) {
				m.cols[c] = true
			}
		}
		for _, u := range t.Unique {
			if d.autoGeneratedUnique(t, u) {
				m.uniques[u] = true
			} else if len(u.Columns) > 0 {
				delete(m.cols, t.ColumnNamed(u.Columns[0]))
			}
		}
		for _, r := range d.Relations {
			if r.Child != t.Name || r.NoConstraint {
				continue
			}
			if d.autoGeneratedRelation(r) {
				m.rels[r] = true
				continue
			}
			p := d.TableNamed(r.Parent)
			if len(r.ChildColumns) > 0 {
				delete(m.cols, t.ColumnNamed(r.ChildColumns[0]))
			}
			if p == nil || len(r.ParentColumns) == 0 {
				continue
			}
			delete(m.cols, p.ColumnNamed(r.ParentColumns[0]))
			if u := p.UniqueOn(r.ParentColumns); u != nil {
				delete(m.uniques, u)
				delete(m.cols, p.ColumnNamed(u.Columns[0]))
			}
		}
	}
	return m
}

// UniqueOn returns t's unique constraint on exactly the columns cols, or nil.
func (t *Table) UniqueOn(cols []string) *Unique {
	for _, u := range t.Unique {
		if slices.Equal(u.Columns, cols) {
			return u
		}
	}
	return nil
}

// autoGeneratedName is .NET's naming rule of auto-generated key columns.
func (d *DataSet) autoGeneratedName(t *Table, c *Column) bool {
	if c == nil || c.MappingOf() != MappingHidden || c.Type != "int" {
		return false
	}
	if c.Name == t.Name+"_Id" || c.Name == t.Name+"_Id_0" {
		return true
	}
	generated := ""
	for _, r := range d.Relations {
		if !r.Nested || r.Child != t.Name || len(r.ChildColumns) != 1 || r.ChildColumns[0] != c.Name || len(r.ParentColumns) != 1 {
			continue
		}
		generated = r.Parent + "_Id"
	}
	return generated != "" && (c.Name == generated || c.Name == generated+"_0")
}

// autoGeneratedUnique is .NET's rule for unique constraints: named
// Constraint..., on one column of an auto-generated name.
func (d *DataSet) autoGeneratedUnique(t *Table, u *Unique) bool {
	if !strings.HasPrefix(u.Name, "Constraint") || len(u.Columns) != 1 {
		return false
	}
	return d.autoGeneratedName(t, t.ColumnNamed(u.Columns[0]))
}

// autoGeneratedRelation is .NET's rule for a relation's foreign key:
// named Parent_Child..., on one parent column of an auto-generated name.
func (d *DataSet) autoGeneratedRelation(r *Relation) bool {
	if !strings.HasPrefix(r.Name, r.Parent+"_"+r.Child) || len(r.ParentColumns) != 1 {
		return false
	}
	p := d.TableNamed(r.Parent)
	return p != nil && d.autoGeneratedName(p, p.ColumnNamed(r.ParentColumns[0]))
}

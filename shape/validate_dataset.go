package shape

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
)

// nsXSD is the XML Schema namespace.
const nsXSD = "http://www.w3.org/2001/XMLSchema"

// cultureName is the form of a culture name (en-US, fr-CA, zh-Hans-CN).
var cultureName = regexp.MustCompile(`^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$`)

// checkDataSet checks a dataset result's DataSet.
func (c *checker) checkDataSet(d *DataSet, where string) {
	if !isNCName(d.Name) {
		c.addf(d.line, where+".name", "name %q is not an XML element name (the DataSetName)", d.Name)
	}
	c.checkNamespace(d.line, where+".namespace", d.Namespace)
	switch {
	case d.Prefix == "":
	case !isNCName(d.Prefix) || strings.Contains(d.Prefix, ":") || strings.HasPrefix(strings.ToLower(d.Prefix), "xml"):
		c.addf(d.line, where+".prefix", "prefix %q is not a namespace prefix", d.Prefix)
	case d.Namespace == "" || d.Namespace == NoNamespace:
		c.addf(d.line, where+".prefix", "a prefix is for a DataSet in a namespace (namespace:)")
	}
	if d.Locale != "" && d.Locale != LocaleInvariant && !cultureName.MatchString(d.Locale) {
		c.addf(d.line, where+".locale", "locale %q: want %s or a culture name such as en-US (leave it out for the current culture)", d.Locale, LocaleInvariant)
	}
	switch d.WSDL {
	case "", WSDLSchemaAny, WSDLLaxAny:
	case WSDLTyped:
		switch d.Namespace {
		case "", NoNamespace:
			c.addf(d.line, where+".namespace", "a typed DataSet is in a namespace of its own (its schema's target namespace)")
		case Service:
			c.addf(d.line, where+".namespace", "%s", typedInService("the service namespace"))
		}
	default:
		c.addf(d.line, where+".wsdl", "wsdl %q: want %s (.NET's), %s (Mono's) or %s (a typed DataSet)", d.WSDL, WSDLSchemaAny, WSDLLaxAny, WSDLTyped)
	}
	for i, ns := range d.SchemaOrder {
		if ns == "" || !absoluteURI(ns) || strings.ContainsAny(ns, " \t\r\n<>\"") {
			c.addf(d.line, fmt.Sprintf("%s.schemaOrder[%d]", where, i), "%q is not an absolute namespace URI", ns)
		}
	}
	if d.Schema != "" {
		if err := checkSchemaText(d.Schema); err != nil {
			c.addf(d.line, where+".schema", "%v", err)
		}
	}
	if len(d.Tables) == 0 {
		c.addf(d.line, where+".tables", "a DataSet has at least one table")
		return
	}
	names := map[string]bool{}
	var content []string
	for i, t := range d.Tables {
		if t == nil {
			c.addf(d.line, where+".tables", "an empty table")
			continue
		}
		at := fmt.Sprintf("%s.tables[%d] (%s)", where, i, t.Name)
		if !isNCName(t.Name) {
			c.addf(t.line, at, "table %q is not an XML element name", t.Name)
		} else if names[t.Name] {
			c.addf(t.line, at, "a second table named %q", t.Name)
		}
		names[t.Name] = true
		c.checkTableNamespace(d, t, at)
		switch Content(t.Rows) {
		case Locations, Institutions, Provinces:
			content = append(content, t.Rows)
		}
	}
	if len(content) != 1 {
		c.addf(d.line, where+".tables", "%d tables hold the result's list (%s); exactly one table has rows: locations, institutions or provinces",
			len(content), strings.Join(content, ", "))
	}
	result := Content("")
	if len(content) > 0 {
		result = Content(content[0])
	}
	c.checkRelations(d, where)
	for i, t := range d.Tables {
		if t != nil {
			c.checkTable(d, t, result, fmt.Sprintf("%s.tables[%d] (%s)", where, i, t.Name))
		}
	}
}

// typedInService says why a typed DataSet in the service namespace ns is
// refused. .NET Framework does not import such a schema: the typed
// DataSet's schema provider takes XmlSchemaExporter.ExportSpecialMapping's
// XsdType branch, whose AddSchemaImport returns for a namespace equal to
// the referencing one, and XmlSchemas.Compile (ServiceDescriptionReflector.
// Reflect) merges the schema's items into the first schema of that
// namespace, the service's. The DataSet's element (msdata:IsDataSet) then
// makes the service schema a DataSet schema, which Reflect moves out of
// wsdl:types; DiscoveryServerProtocol.AddSchemaImports serves it at
// ?schema=schema1 (it has no id) and links it with an xs:include (or an import from the
// first schema left). With the HTTP GET and POST bindings the mock writes,
// the GET/POST root element (the class's XmlRoot, the DataSet's name) and
// the DataSet's element are two declarations of one name, which the merge
// refuses (InvalidOperationException, "Cannot merge schemas"), so the
// deployment has no WSDL at all. atmkit models none of this.
func typedInService(ns string) string {
	return fmt.Sprintf("a typed DataSet in %s is not modelled: .NET merges its schema into the service's schema, "+
		"which then counts as a DataSet schema and leaves the WSDL for a ?schema= document linked by an xs:include, "+
		"and with the HTTP GET/POST bindings its element and the GET/POST root of the same name fail the merge (\"Cannot merge schemas\"), "+
		"so the deployment serves no WSDL: give the typed DataSet a namespace of its own (its schema's targetNamespace)", ns)
}

// CheckServiceNamespace reports, as an *Error, each typed DataSet result
// of s whose namespace is the service namespace ns, which Validate cannot
// know (a DataSet names a URI, not service): see typedInService. nil when
// there is none.
func (s *Shape) CheckServiceNamespace(ns string) error {
	c := &checker{}
	for _, r := range s.Results {
		if r == nil || r.Layout != Dataset || r.DataSet == nil || r.DataSet.WSDL != WSDLTyped {
			continue
		}
		if d := r.DataSet; d.Namespace != NoNamespace && d.Namespace.Resolve(ns, "") == ns {
			c.addf(d.line, "results."+r.Name+".dataset.namespace", "%s", typedInService(fmt.Sprintf("the service namespace (%s)", ns)))
		}
	}
	return c.err()
}

// checkTableNamespace checks the namespaces of t and its columns.
func (c *checker) checkTableNamespace(d *DataSet, t *Table, at string) {
	c.checkNamespace(t.line, at+".namespace", t.Namespace)
	switch {
	case t.Prefix == "":
	case !isNCName(t.Prefix) || strings.Contains(t.Prefix, ":") || strings.HasPrefix(strings.ToLower(t.Prefix), "xml"):
		c.addf(t.line, at+".prefix", "prefix %q is not a namespace prefix", t.Prefix)
	case t.Namespace == NoNamespace || t.Namespace == "" && (d.Namespace == "" || d.Namespace == NoNamespace):
		c.addf(t.line, at+".prefix", "a prefix is for a table in a namespace (namespace:)")
	}
	for _, col := range t.Columns {
		if col == nil || col.Namespace == "" {
			continue
		}
		cat := at + ".columns (" + col.Name + ").namespace"
		line := col.line
		if line == 0 {
			line = t.line
		}
		switch {
		case col.MappingOf() != MappingElement:
			c.addf(line, cat, "a namespace of its own is supported for element columns only")
		default:
			c.checkNamespace(line, cat, col.Namespace)
		}
	}
}

// checkSchemaText checks that s is one xs:schema element.
func checkSchemaText(s string) error {
	dec := xml.NewDecoder(bytes.NewReader([]byte(s)))
	depth, roots := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			if depth == 0 && roots == 1 && errors.Is(err, io.EOF) {
				return nil
			}
			if roots == 0 && errors.Is(err, io.EOF) {
				return fmt.Errorf("the schema is empty: give the xs:schema element, or leave schema out")
			}
			return fmt.Errorf("the schema is not XML: %v", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
				if t.Name.Space != nsXSD || t.Name.Local != "schema" {
					return fmt.Errorf("the schema's root is <%s>, not xs:schema", t.Name.Local)
				}
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 && len(bytes.TrimSpace(t)) > 0 {
				return fmt.Errorf("the schema has text outside its xs:schema element")
			}
		}
		if roots > 1 {
			return fmt.Errorf("the schema holds more than one element: give one xs:schema")
		}
	}
}

// checkTable checks a table and its columns; result is the content of the
// DataSet's result.
func (c *checker) checkTable(d *DataSet, t *Table, result Content, at string) {
	switch t.Rows {
	case RowsOne, RowsNone, string(Locations), string(Institutions), string(Provinces):
	case RowsGroups:
		c.checkGroupTable(d, t, result, at)
	case "languages":
		r := d.ParentOf(t)
		switch {
		case result == "":
			// No table holds the result's list (reported).
		case result != Locations:
			c.addf(t.line, at+".rows", "rows: languages is a location's languages: only in a DataSet of locations")
		case r == nil || d.TableNamed(r.Parent) == nil || d.RowScope(d.TableNamed(r.Parent), result) != ScopeLocation:
			c.addf(t.line, at+".rows", "a table of languages is the child, in a relation, of the locations table (%s) or of a table of one row per location: relations: [{parent: %s, child: %s, ...}]",
				d.ContentTable().Name, d.ContentTable().Name, t.Name)
		}
	case "":
		c.addf(t.line, at+".rows", "missing: say which list fills the table (one, none, locations, institutions, provinces, languages or groups)")
	default:
		c.addf(t.line, at+".rows", "rows %q: want one, none, locations, institutions, provinces, languages or groups", t.Rows)
	}
	if r := d.ParentOf(t); r != nil {
		if p := d.TableNamed(r.Parent); p != nil && p.Rows == "languages" {
			c.addf(t.line, at, "a table related to a table of languages is not supported: a language's row holds its code")
		}
	}
	c.checkGroupOrder(t.GroupOrder, t.Rows == RowsGroups, t.line, at+".groupOrder", "a table of groups (rows: groups)")
	c.checkRowOrder(d, t, at)
	switch t.Changes {
	case "", ChangesInserted:
	default:
		c.addf(t.line, at+".changes", "changes %q: want %s, or leave it out for unchanged rows", t.Changes, ChangesInserted)
	}
	if len(t.Columns) == 0 {
		c.addf(t.line, at+".columns", "a table has at least one column")
	}
	c.checkSimpleContent(d, t, at)
	scope := d.RowScope(t, result)
	if t.Rows == RowsGroups && (result != Locations || d.GroupTable() != t) {
		scope = "" // groups refused (reported): what its values are cannot be known
	}
	seen := map[string]bool{}
	for i, col := range t.Columns {
		if col == nil {
			c.addf(t.line, at+".columns", "an empty column")
			continue
		}
		cat := fmt.Sprintf("%s.columns[%d] (%s)", at, i, col.Name)
		if !isNCName(col.Name) {
			c.addf(col.line, cat, "column %q is not an XML name", col.Name)
		} else if col.Name == "xmlns" && col.Mapping == MappingAttribute {
			c.addf(col.line, cat, "an attribute named xmlns is a namespace declaration, not a value: give the column another name")
		} else if seen[col.Name] {
			c.addf(col.line, cat, "a second column named %q", col.Name)
		}
		seen[col.Name] = true
		c.checkColumn(d, t, col, scope, cat)
	}
	for i, u := range t.Unique {
		uat := fmt.Sprintf("%s.unique[%d]", at, i)
		line := t.line
		if u != nil && u.line != 0 {
			line = u.line
		}
		if u == nil || u.Name == "" {
			c.addf(line, uat, "a unique constraint has a name")
			continue
		}
		if len(u.Columns) == 0 {
			c.addf(line, uat, "a unique constraint has columns")
		}
		for _, name := range u.Columns {
			if t.ColumnNamed(name) == nil {
				c.addf(line, uat, "no column %q in table %s", name, t.Name)
			}
		}
	}
}

// checkColumn checks one column, whose values are read in scope.
func (c *checker) checkColumn(d *DataSet, t *Table, col *Column, scope Scope, at string) {
	switch col.Mapping {
	case "", MappingElement, MappingAttribute, MappingHidden, MappingSimpleContent:
	default:
		c.addf(col.line, at+".mapping", "mapping %q: want element, attribute, hidden or simpleContent", col.Mapping)
	}
	if col.Type == "" {
		c.addf(col.line, at+".type", "no type (the XSD type of its DataType: int, string, double, boolean, ...)")
		return
	}
	if !knownType(col.Type) {
		c.addf(col.line, at+".type", "type %q is not a type atmkit writes (want one of %s)", col.Type,
			strings.Join(slices.Concat(intTypes, decimalTypes, stringTypes, otherTypes), ", "))
		return
	}
	if col.AutoIncrement && !slices.Contains(intTypes, col.Type) {
		c.addf(col.line, at+".autoIncrement", "an auto-increment column is an integer, not %s", col.Type)
	}
	if (col.Seed != 0 || col.Step != 0) && !col.AutoIncrement {
		c.addf(col.line, at, "seed and step are an auto-increment column's")
	}
	if col.MaxLength > 0 && (col.Type != "string" || col.MappingOf() != MappingElement && col.MappingOf() != MappingAttribute) {
		// DataColumn.MaxLength is a String column's; atmkit writes its
		// restriction for element and attribute columns.
		c.addf(col.line, at+".maxLength", "maxLength is for a string column written as an element or an attribute, not one of type %s, mapping %s", col.Type, col.MappingOf())
	}
	if col.OmitEmpty && !slices.Contains(stringTypes, col.Type) {
		c.addf(col.line, at+".omitEmpty", "omitEmpty is for strings: an empty string is written as nothing")
	}
	if _, err := checkFormat(col.Type, col.Format); err != nil {
		c.addf(col.line, at+".format", "%v", err)
	} else if col.Format != "" && col.Format != FormatShortest && col.Format != FormatTrueFalse && col.Type != "decimal" {
		// A DataSet writes a column's value with XmlConvert.ToString of
		// its DataType (DataStorage.ConvertObjectToXml): a Boolean true or
		// false, a Double or Single in its shortest round-trip form; only
		// a Decimal keeps the decimals it holds.
		c.addf(col.line, at+".format", "format %q: a DataSet writes a %s column as XmlConvert does (%s); only a decimal column's values keep their decimals (fixed:N)",
			col.Format, col.Type, map[bool]string{true: "true or false", false: "its shortest round-trip form"}[col.Type == "boolean"])
	}
	// A column a relation names as its child column is a key, even when
	// the relation's parent is wrong (reported with the relation).
	key := d.IsKey(t, col) || childColumn(d, t, col)
	switch {
	case key && (col.Value != "" || col.Generated):
		c.addf(col.line, at, "a key column (auto-increment, or a relation's child column holding its parent's key) has no value or generated")
	case key, t.Rows == RowsNone:
	case col.Generated && col.Value != "":
		c.addf(col.line, at, "value %q and generated: a column is either atmkit's data or generated", col.Value)
	case col.Generated:
	case scope == "":
		// The table's rows are wrong (reported with them): what its
		// values are cannot be known.
	case col.Value == "":
		c.addf(col.line, at+".value", "no value: name the value of atmkit's data it holds (one of %s), or mark it generated: true", valueNames(scope))
	default:
		v, ok := LookupValue(scope, col.Value)
		switch {
		case !ok:
			c.addf(col.line, at+".value", "%q is not a value of a %s (want one of %s)", col.Value, scope, valueNames(scope))
		case v.Kind == KindInt && col.Type == "boolean":
			c.addf(col.line, at+".type", "%s is a number, not a flag: it cannot be a boolean", col.Value)
		case !typeFits(v.Kind, col.Type):
			c.addf(col.line, at+".type", "type %q cannot hold %s (%s)", col.Type, col.Value, v.Kind)
		}
	}
}

// checkSimpleContent checks a table's simpleContent column, as .NET's
// DataTable refuses it: one per table, in a table with no element column
// and no nested table, holding a value (no key).
func (c *checker) checkSimpleContent(d *DataSet, t *Table, at string) {
	var text *Column
	elements := false
	for _, col := range t.Columns {
		switch {
		case col == nil:
		case col.MappingOf() == MappingSimpleContent && text != nil:
			c.addf(col.line, at+".columns", "a second simpleContent column (%s, after %s): a row has one text", col.Name, text.Name)
		case col.MappingOf() == MappingSimpleContent:
			text = col
		case col.MappingOf() == MappingElement:
			elements = true
		}
	}
	if text == nil {
		return
	}
	if elements {
		c.addf(text.line, at, "a table with a simpleContent column (%s) has no element columns: write them as attributes", text.Name)
	}
	if len(d.NestedChildren(t)) > 0 {
		c.addf(text.line, at, "a table with a simpleContent column (%s) has no nested tables", text.Name)
	}
	if text.AutoIncrement || childColumn(d, t, text) {
		c.addf(text.line, at, "a simpleContent column (%s) holds a value, not a key", text.Name)
	}
	for _, r := range d.Relations {
		if r != nil && r.Parent == t.Name && slices.Contains(r.ParentColumns, text.Name) {
			c.addf(text.line, at, "a simpleContent column (%s) holds a value, not a key", text.Name)
		}
	}
}

// childColumn reports whether a relation of d names c as a child column
// of t.
func childColumn(d *DataSet, t *Table, c *Column) bool {
	for _, r := range d.Relations {
		if r != nil && r.Child == t.Name && slices.Contains(r.ChildColumns, c.Name) {
			return true
		}
	}
	return false
}

// checkRelations checks the relations between d's tables.
func (c *checker) checkRelations(d *DataSet, where string) {
	names := map[string]bool{}
	nested := map[string]int{}
	for i, r := range d.Relations {
		at := fmt.Sprintf("%s.relations[%d]", where, i)
		if r == nil {
			c.addf(d.line, at, "an empty relation")
			continue
		}
		line := r.line
		if line == 0 {
			line = d.line
		}
		if r.Name == "" {
			c.addf(line, at, "a relation has a name")
			continue
		}
		at += " (" + r.Name + ")"
		if names[r.Name] {
			c.addf(line, at, "a second relation named %q", r.Name)
		}
		names[r.Name] = true
		p, ch := d.TableNamed(r.Parent), d.TableNamed(r.Child)
		if p == nil {
			c.addf(line, at+".parent", "no table %q", r.Parent)
		}
		if ch == nil {
			c.addf(line, at+".child", "no table %q", r.Child)
		}
		if r.Parent == r.Child && r.Parent != "" && !r.Nested {
			c.addf(line, at, "a table related to itself is supported nested only (nested: true: a hierarchy of its rows)")
		}
		if len(r.ParentColumns) == 0 || len(r.ParentColumns) != len(r.ChildColumns) {
			c.addf(line, at, "parentColumns and childColumns name the related columns in pairs")
		}
		if p == nil || ch == nil {
			continue
		}
		for k, name := range r.ParentColumns {
			pc := p.ColumnNamed(name)
			if pc == nil {
				c.addf(line, at+".parentColumns", "no column %q in table %s", name, p.Name)
				continue
			}
			if k < len(r.ChildColumns) {
				cc := ch.ColumnNamed(r.ChildColumns[k])
				if cc == nil {
					c.addf(line, at+".childColumns", "no column %q in table %s", r.ChildColumns[k], ch.Name)
				} else if cc.Type != pc.Type {
					c.addf(line, at, "column %s.%s is %s, %s.%s is %s: related columns have one type", p.Name, pc.Name, pc.Type, ch.Name, cc.Name, cc.Type)
				}
			}
		}
		if !r.NoConstraint && p.UniqueOn(r.ParentColumns) == nil {
			c.addf(line, at, "a relation with constraints refers to a unique constraint on its parent columns: add unique: [{name: Constraint1, columns: [%s]}] to table %s, or say constraint: false",
				strings.Join(r.ParentColumns, ", "), p.Name)
		}
		if r.Nested {
			if nested[r.Child]++; nested[r.Child] > 1 {
				c.addf(line, at, "table %s is nested in two tables: a row has one nested parent", r.Child)
			}
		}
	}
	// No cycle of nesting.
	for _, t := range d.Tables {
		seen := map[string]bool{}
		for x := t; x != nil; {
			if seen[x.Name] {
				c.addf(d.line, where+".relations", "nested relations make a cycle through table %s", t.Name)
				break
			}
			seen[x.Name] = true
			r := d.NestedParent(x)
			if r == nil {
				break
			}
			x = d.TableNamed(r.Parent)
		}
	}
}

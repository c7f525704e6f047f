package shape

// The dataset: block of a result in a shape file: reading and writing it.

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

func (p *parser) dataSet(n *yaml.Node, where string) *DataSet {
	d := &DataSet{line: n.Line}
	m := p.pairs(n, where, "name", "namespace", "prefix", "locale", "caseSensitive", "wsdl", "tables", "relations", "schema", "schemaOrder")
	if m == nil {
		return d
	}
	d.Name = p.scalar(m["name"], where+".name")
	if m["name"] == nil {
		p.addf(n.Line, where+".name", "missing: the DataSetName")
	}
	d.Namespace = Namespace(p.scalar(m["namespace"], where+".namespace"))
	d.Locale = p.scalar(m["locale"], where+".locale")
	if m["locale"] != nil && d.Locale == "" {
		p.addf(m["locale"].Line, where+".locale", "an empty locale: write %s for the invariant culture, or leave it out for the current one", LocaleInvariant)
	}
	d.Prefix = p.scalar(m["prefix"], where+".prefix")
	d.CaseSensitive = p.boolean(m["caseSensitive"], where+".caseSensitive")
	d.WSDL = p.scalar(m["wsdl"], where+".wsdl")
	d.Schema = p.scalar(m["schema"], where+".schema")
	d.SchemaOrder = p.names(m["schemaOrder"], where+".schemaOrder")
	for i, tn := range p.list(m["tables"], where+".tables") {
		d.Tables = append(d.Tables, p.table(tn, fmt.Sprintf("%s.tables[%d]", where, i)))
	}
	if m["tables"] == nil {
		p.addf(n.Line, where+".tables", "missing: a DataSet has tables")
	}
	for i, rn := range p.list(m["relations"], where+".relations") {
		d.Relations = append(d.Relations, p.relation(rn, fmt.Sprintf("%s.relations[%d]", where, i)))
	}
	return d
}

func (p *parser) table(n *yaml.Node, where string) *Table {
	t := &Table{line: n.Line}
	m := p.pairs(n, where, "table", "namespace", "prefix", "rows", "groupOrder", "rowOrder", "changes", "columns", "unique")
	if m == nil {
		return t
	}
	t.Name, where = p.name(n, m, "table", where)
	t.Namespace = Namespace(p.scalar(m["namespace"], where+".namespace"))
	t.Prefix = p.scalar(m["prefix"], where+".prefix")
	t.Rows = p.scalar(m["rows"], where+".rows")
	t.GroupOrder = p.scalar(m["groupOrder"], where+".groupOrder")
	t.RowOrder = p.scalar(m["rowOrder"], where+".rowOrder")
	t.Changes = p.scalar(m["changes"], where+".changes")
	for i, cn := range p.list(m["columns"], where+".columns") {
		t.Columns = append(t.Columns, p.column(cn, fmt.Sprintf("%s.columns[%d]", where, i)))
	}
	for i, un := range p.list(m["unique"], where+".unique") {
		uat := fmt.Sprintf("%s.unique[%d]", where, i)
		um := p.pairs(un, uat, "name", "columns", "primaryKey")
		if um == nil {
			continue
		}
		t.Unique = append(t.Unique, &Unique{Name: p.scalar(um["name"], uat+".name"), Columns: p.names(um["columns"], uat+".columns"),
			PrimaryKey: p.boolean(um["primaryKey"], uat+".primaryKey"), line: un.Line})
	}
	return t
}

func (p *parser) column(n *yaml.Node, where string) *Column {
	c := &Column{line: n.Line}
	m := p.pairs(n, where, "column", "mapping", "type", "allowNull", "autoIncrement", "seed", "step", "value", "generated", "omitEmpty", "format", "namespace", "maxLength")
	if m == nil {
		return c
	}
	c.Name, where = p.name(n, m, "column", where)
	c.Mapping = p.scalar(m["mapping"], where+".mapping")
	c.Type = p.scalar(m["type"], where+".type")
	c.NotNull = p.givenFalse(m, "allowNull", where)
	c.AutoIncrement = p.boolean(m["autoIncrement"], where+".autoIncrement")
	c.Seed = p.integer(m["seed"], where+".seed")
	c.Step = p.integer(m["step"], where+".step")
	if m["step"] != nil && c.Step == 0 {
		p.addf(m["step"].Line, where+".step", "an auto-increment step is not 0")
	}
	c.Value = p.scalar(m["value"], where+".value")
	c.Generated = p.boolean(m["generated"], where+".generated")
	c.OmitEmpty = p.boolean(m["omitEmpty"], where+".omitEmpty")
	c.Format = p.scalar(m["format"], where+".format")
	c.Namespace = Namespace(p.scalar(m["namespace"], where+".namespace"))
	if m["maxLength"] != nil {
		n := p.integer(m["maxLength"], where+".maxLength")
		if n <= 0 || n > math.MaxInt32 {
			p.addf(m["maxLength"].Line, where+".maxLength", "a MaxLength is a positive int (no maxLength: none)")
		}
		c.MaxLength = int(n)
	}
	return c
}

func (p *parser) relation(n *yaml.Node, where string) *Relation {
	r := &Relation{line: n.Line}
	m := p.pairs(n, where, "name", "parent", "child", "parentColumns", "childColumns", "nested", "constraint")
	if m == nil {
		return r
	}
	r.Name = p.scalar(m["name"], where+".name")
	r.Parent = p.scalar(m["parent"], where+".parent")
	r.Child = p.scalar(m["child"], where+".child")
	r.ParentColumns = p.names(m["parentColumns"], where+".parentColumns")
	r.ChildColumns = p.names(m["childColumns"], where+".childColumns")
	r.Nested = p.boolean(m["nested"], where+".nested")
	r.NoConstraint = p.givenFalse(m, "constraint", where)
	return r
}

// name reads the name a table or column (key) must have, and returns it
// with where naming the place by it from then on (messages are easier to
// place).
func (p *parser) name(n *yaml.Node, m map[string]*yaml.Node, key, where string) (string, string) {
	name := p.scalar(m[key], where+"."+key)
	if name == "" {
		p.addf(n.Line, where+"."+key, "missing: the %s's name", key)
		return "", where
	}
	return name, where + " (" + name + ")"
}

// givenFalse reads a boolean key whose default is true (allowNull,
// constraint): it reports whether the key is there and false.
func (p *parser) givenFalse(m map[string]*yaml.Node, key, where string) bool {
	n, ok := m[key]
	return ok && !p.boolean(n, where+"."+key) && p.scalar(n, where+"."+key) == "false"
}

// writeDataSet writes a DataSet's block at the indentation of a result's keys.
func writeDataSet(b *bytes.Buffer, d *DataSet) {
	b.WriteString("    dataset:\n")
	fmt.Fprintf(b, "      name: %s\n", yamlString(d.Name))
	if d.Namespace != "" {
		fmt.Fprintf(b, "      namespace: %s\n", yamlString(string(d.Namespace)))
	}
	if d.Prefix != "" {
		fmt.Fprintf(b, "      prefix: %s\n", yamlString(d.Prefix))
	}
	if d.Locale != "" {
		fmt.Fprintf(b, "      locale: %s\n", yamlString(d.Locale))
	}
	if d.CaseSensitive {
		b.WriteString("      caseSensitive: true\n")
	}
	if d.WSDL != "" {
		fmt.Fprintf(b, "      wsdl: %s\n", yamlString(d.WSDL))
	}
	b.WriteString("      tables:\n")
	for _, t := range d.Tables {
		fmt.Fprintf(b, "        - table: %s\n", yamlString(t.Name))
		if t.Namespace != "" {
			fmt.Fprintf(b, "          namespace: %s\n", yamlString(string(t.Namespace)))
		}
		if t.Prefix != "" {
			fmt.Fprintf(b, "          prefix: %s\n", yamlString(t.Prefix))
		}
		fmt.Fprintf(b, "          rows: %s\n", yamlString(t.Rows))
		if t.GroupOrder != "" {
			fmt.Fprintf(b, "          groupOrder: %s\n", yamlString(t.GroupOrder))
		}
		if t.RowOrder != "" {
			fmt.Fprintf(b, "          rowOrder: %s\n", yamlString(t.RowOrder))
		}
		if t.Changes != "" {
			fmt.Fprintf(b, "          changes: %s\n", yamlString(t.Changes))
		}
		b.WriteString("          columns:\n")
		for _, c := range t.Columns {
			fmt.Fprintf(b, "            - %s\n", flowColumn(c))
		}
		if len(t.Unique) > 0 {
			b.WriteString("          unique:\n")
			for _, u := range t.Unique {
				pk := ""
				if u.PrimaryKey {
					pk = ", primaryKey: true"
				}
				fmt.Fprintf(b, "            - {name: %s, columns: %s%s}\n", yamlString(u.Name), flowNames(u.Columns), pk)
			}
		}
	}
	if len(d.Relations) > 0 {
		b.WriteString("      relations:\n")
		for _, r := range d.Relations {
			parts := []string{"name: " + yamlString(r.Name), "parent: " + yamlString(r.Parent), "parentColumns: " + flowNames(r.ParentColumns),
				"child: " + yamlString(r.Child), "childColumns: " + flowNames(r.ChildColumns)}
			if r.Nested {
				parts = append(parts, "nested: true")
			}
			if r.NoConstraint {
				parts = append(parts, "constraint: false")
			}
			fmt.Fprintf(b, "        - {%s}\n", strings.Join(parts, ", "))
		}
	}
	if len(d.SchemaOrder) > 0 {
		fmt.Fprintf(b, "      schemaOrder: %s\n", flowNames(d.SchemaOrder))
	}
	if d.Schema != "" {
		b.WriteString("      schema: |\n")
		for _, line := range strings.Split(strings.TrimRight(d.Schema, "\n"), "\n") {
			b.WriteString(strings.TrimRight("        "+line, " "))
			b.WriteString("\n")
		}
	}
}

// flowColumn writes a column as a flow mapping.
func flowColumn(c *Column) string {
	parts := []string{"column: " + yamlString(c.Name)}
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+": "+yamlString(v))
		}
	}
	flag := func(k string, v bool) {
		if v {
			parts = append(parts, k+": true")
		}
	}
	add("mapping", c.Mapping)
	add("type", c.Type)
	if c.NotNull {
		parts = append(parts, "allowNull: false")
	}
	flag("autoIncrement", c.AutoIncrement)
	if c.Seed != 0 {
		parts = append(parts, "seed: "+strconv.FormatInt(c.Seed, 10))
	}
	if c.Step != 0 {
		parts = append(parts, "step: "+strconv.FormatInt(c.Step, 10))
	}
	add("value", c.Value)
	flag("generated", c.Generated)
	flag("omitEmpty", c.OmitEmpty)
	add("format", c.Format)
	add("namespace", string(c.Namespace))
	if c.MaxLength > 0 {
		parts = append(parts, "maxLength: "+strconv.Itoa(c.MaxLength))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// flowNames writes a list of names: [A, B].
func flowNames(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = yamlString(n)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

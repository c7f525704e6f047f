package shape

import (
	"slices"
	"strings"
)

// checkGroupOrder checks order, the groupOrder of a grouped list or of a
// table of groups (grouped: whether the field or table is one, what).
func (c *checker) checkGroupOrder(order string, grouped bool, line int, at, what string) {
	switch {
	case order == "":
	case !grouped:
		c.addf(line, at, "only %s has an order of groups", what)
	case !slices.Contains(GroupOrders, order):
		c.addf(line, at, "groupOrder %q: want %s (ascending; a name compared ordinally, by UTF-16 code unit: a culture's order is not modelled)", order, strings.Join(GroupOrders, ", "))
	}
}

// checkRowOrder checks t's rowOrder: groups only on a DataSet's
// locations table whose parent is its table of groups in a relation not
// nested (nested, each group's rows are in its row already).
func (c *checker) checkRowOrder(d *DataSet, t *Table, at string) {
	switch t.RowOrder {
	case "":
	case RowOrderGroups:
		r, g := d.ParentOf(t), d.GroupTable()
		if t.Rows != string(Locations) || g == nil || r == nil || r.Parent != g.Name || r.Nested {
			c.addf(t.line, at+".rowOrder", "rowOrder: groups orders the locations table's rows whose parent is the table of groups (rows: groups) in a relation not nested")
		}
	default:
		c.addf(t.line, at+".rowOrder", "rowOrder %q: want %s (bank by bank), or leave it out for the search's order", t.RowOrder, RowOrderGroups)
	}
}

// checkGroups checks the grouped locations list of r, if any
// (Field.Group): a typed result's, whose group item holds one locations
// list (its own locations) beside the institution's values, no index (a
// location's position in the answer, which grouping reorders), and
// nothing of the search point.
func (c *checker) checkGroups(r *Result, where string) {
	for _, f := range r.Fields {
		if f == nil || f.List != string(Locations) || f.Group == "" || f.Item == nil {
			continue
		}
		at := path(where, f.label())
		if r.Layout != Typed {
			c.addf(f.lineOf("group"), at+".group", "only a typed result's locations are grouped (layout %s)", r.Layout)
		}
		it := f.Item
		iat := path(at, it.label())
		var lists []*Field
		walkFields(it.Fields, false, func(k *Field) bool {
			if k.List == string(Locations) {
				lists = append(lists, k)
			}
			return true
		})
		if len(lists) != 1 {
			c.addf(it.line, iat, "a group holds its institution's locations in one locations list, not %d", len(lists))
			continue
		}
		if lists[0].Item != nil {
			walkFields(lists[0].Item.Fields, true, func(k *Field) bool {
				if k.Value == "index" {
					c.addf(k.lineOf("value"), iat, "a grouped location has no index: grouping reorders the answer's locations")
				}
				return true
			})
		}
	}
}

// checkGroupTable checks t, a DataSet's table of groups (rows: groups),
// in a result of content result: in a DataSet of locations, the one such
// table, of no parent, the parent of the locations table in the relation
// its rows belong to, whose parent columns hold an institution's values
// (the key each location's row carries: no auto-increment, no generated
// value, which the mock numbers or makes up per row, not per
// institution), and the parent of no other table (a group's row holds
// its institution's values and its locations).
func (c *checker) checkGroupTable(d *DataSet, t *Table, result Content, at string) {
	switch {
	case result == "":
		return // no table holds the result's list (reported)
	case result != Locations:
		c.addf(t.line, at+".rows", "rows: groups is the groups of the locations by institution: only in a DataSet of locations")
		return
	case d.GroupTable() != t:
		c.addf(t.line, at+".rows", "a second table of groups (%s has rows: groups): the locations are grouped once", d.GroupTable().Name)
		return
	}
	if r := d.ParentOf(t); r != nil {
		c.addf(t.line, at, "a table of groups has no parent table (relation %s)", r.Name)
	}
	content := d.ContentTable()
	r := d.ParentOf(content)
	if r == nil || r.Parent != t.Name {
		c.addf(t.line, at, "the locations table (%s) is the child of the table of groups in a relation: relations: [{parent: %s, child: %s, parentColumns: [...], childColumns: [...], nested: ...}]",
			content.Name, t.Name, content.Name)
		return
	}
	for _, name := range r.ParentColumns {
		if pc := t.ColumnNamed(name); pc != nil && (pc.AutoIncrement || pc.Generated || pc.Value == "") {
			c.addf(pc.line, at, "column %s, the key the locations' rows hold (relation %s), holds an institution's value (value: institution.id, ...): not auto-increment or generated, which would number or make up a value per row, not per institution", pc.Name, r.Name)
		}
	}
	for _, o := range d.Relations {
		if o != nil && o.Parent == t.Name && o.Child != content.Name {
			c.addf(t.line, at, "table %s is related to the table of groups (relation %s): a group's row holds its institution's values and its locations only", o.Child, o.Name)
		}
	}
}

package conformance

import (
	"strings"

	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/dsxml"
	"github.com/beevik/etree"
)

// A DataSet holds a location's list values (its languages) in rows of a
// table of their own, related to the locations' table. A nested relation
// writes them inside the location's row; one that is not nested writes
// them after the locations' rows, each naming its location by a key
// column, and a .NET client reads them with row.GetChildRows(relation) all
// the same: the location's row carries them, as the document asks of the
// location node. relatedRows finds them, for the specs that compare a
// location node's values with the JSON location's.

// relatedRows maps each row of the DataSets under root to the rows of other
// tables that name it through a relation of their inline schema that is
// not nested (a keyref or an msdata:Relationship annotation), in document
// order. A relation of a table to itself is left out: its child rows are
// locations of their own. Rows a key column of which is left out (DBNull)
// relate to none.
func relatedRows(root *etree.Element) map[*etree.Element][]*etree.Element {
	out := map[*etree.Element][]*etree.Element{}
	var walk func(e *etree.Element)
	walk = func(e *etree.Element) {
		if isDataSet(e) {
			relateDataSet(e, out)
			return
		}
		for _, k := range dataKids(e) {
			walk(k)
		}
	}
	if root != nil {
		walk(root)
	}
	return out
}

// relateDataSet adds to out the related rows of the DataSet wrapper w (its
// schemas, then its diffgram).
func relateDataSet(w *etree.Element, out map[*etree.Element][]*etree.Element) {
	var schemas []*etree.Element
	var data *etree.Element
	for _, k := range w.ChildElements() {
		switch nameOf(k) {
		case qname{xsdNS, "schema"}:
			schemas = append(schemas, k)
		case qname{diffgramNS, "diffgram"}:
			if kids := dataKids(k); len(kids) > 0 {
				data = kids[0]
			}
		}
	}
	if data == nil {
		return
	}
	d, err := dsxml.ReadSchema(schemas...)
	if err != nil {
		return // the shape specs say what is wrong with the schema
	}
	columns := map[string]map[string]*shape.Column{}
	for _, t := range d.Tables {
		m := map[string]*shape.Column{}
		for _, c := range t.Columns {
			m[c.Name] = c
		}
		columns[t.Name] = m
	}
	rows := map[string][]*etree.Element{}
	var collect func(e *etree.Element)
	collect = func(e *etree.Element) {
		for _, k := range dataKids(e) {
			if _, ok := columns[k.Tag]; ok {
				rows[k.Tag] = append(rows[k.Tag], k)
			}
			collect(k)
		}
	}
	collect(data)
	for _, r := range d.Relations {
		if r.Nested || r.Parent == r.Child || len(r.ParentColumns) == 0 || len(r.ParentColumns) != len(r.ChildColumns) {
			continue
		}
		byKey := map[string][]*etree.Element{}
		for _, c := range rows[r.Child] {
			if k, ok := rowKey(c, r.ChildColumns, columns[r.Child]); ok {
				byKey[k] = append(byKey[k], c)
			}
		}
		for _, p := range rows[r.Parent] {
			if k, ok := rowKey(p, r.ParentColumns, columns[r.Parent]); ok {
				out[p] = append(out[p], byKey[k]...)
			}
		}
	}
}

// rowKey joins the values of a row's key columns, compared as norm
// compares values (a key of 7 and one of 7.0 relate); ok is false when
// one is left out.
func rowKey(row *etree.Element, names []string, cols map[string]*shape.Column) (string, bool) {
	var b strings.Builder
	for _, n := range names {
		v, ok := columnValue(row, n, cols[n])
		if !ok {
			return "", false
		}
		b.WriteString(norm(v))
		b.WriteByte(0)
	}
	return b.String(), true
}

// columnValue is the value of column name in row, as the column's mapping
// writes it.
func columnValue(row *etree.Element, name string, c *shape.Column) (string, bool) {
	mapping := shape.MappingElement
	if c != nil {
		mapping = c.MappingOf()
	}
	switch mapping {
	case shape.MappingAttribute:
		for _, a := range row.Attr {
			if a.Key == name && !isMetaAttr(a) {
				return a.Value, true
			}
		}
		return "", false
	case shape.MappingHidden:
		for _, a := range row.Attr {
			if a.Key == "hidden"+name && a.NamespaceURI() == msdataNS {
				return a.Value, true
			}
		}
		return "", false
	case shape.MappingSimpleContent:
		return textOf(row), true
	}
	for _, k := range dataKids(row) {
		if k.Tag == name {
			return textOf(k), true
		}
	}
	return "", false
}

// locationLeaves lists a location node's values (leaves), then those of
// the rows related to it (relatedRows), each under its row's name, as if
// nested in it; a related row's own related rows follow it, once each.
func locationLeaves(loc *etree.Element, related map[*etree.Element][]*etree.Element) []leaf {
	out := leaves(loc)
	seen := map[*etree.Element]bool{loc: true}
	var add func(e *etree.Element, path string)
	add = func(e *etree.Element, path string) {
		for _, r := range related[e] {
			if seen[r] {
				continue
			}
			seen[r] = true
			p := strings.TrimPrefix(path+"/"+r.Tag, "/")
			for _, l := range leaves(r) {
				l.Path = p + "/" + l.Path
				out = append(out, l)
			}
			if len(dataKids(r)) == 0 {
				// A row of a SimpleContent column: its text is a value.
				out = append(out, leaf{p, textOf(r), rawText(r)})
			}
			add(r, p)
		}
	}
	add(loc, "")
	return out
}

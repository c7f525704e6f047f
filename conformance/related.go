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

// relations are the rows of the DataSets under a result's root that
// relations of their inline schemas not nested relate: children maps each
// row to the rows of other tables that name it (a location's languages),
// parents each row to the rows it names (a location's institution, when
// the DataSet groups locations by institution in a table of their own).
type relations struct {
	children, parents map[*etree.Element][]*etree.Element
	// root is the result's root: groupLeaves reads no group above it.
	root *etree.Element
}

// relatedRows finds the rows of the DataSets under root that name each
// other through a relation of their inline schema that is not nested (a
// keyref or an msdata:Relationship annotation), in document order. A
// relation of a table to itself is left out: its child rows are locations
// of their own. Rows a key column of which is left out (DBNull) relate to
// none.
func relatedRows(root *etree.Element) *relations {
	out := &relations{map[*etree.Element][]*etree.Element{}, map[*etree.Element][]*etree.Element{}, root}
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
func relateDataSet(w *etree.Element, out *relations) {
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
				out.children[p] = append(out.children[p], byKey[k]...)
				for _, c := range byKey[k] {
					out.parents[c] = append(out.parents[c], p)
				}
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
// nested in it; a related row's own related rows follow it, once each;
// then the values of its group (groupLeaves).
func locationLeaves(loc *etree.Element, rel *relations) []leaf {
	out := leaves(loc)
	if rel == nil {
		return out
	}
	seen := map[*etree.Element]bool{loc: true}
	var add func(e *etree.Element, path string)
	add = func(e *etree.Element, path string) {
		for _, r := range rel.children[e] {
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
	return append(out, groupLeaves(loc, rel)...)
}

// A deployment may group its locations, by institution most often: a
// typed result's array of banks, each holding the institution's values
// and an array of its ATMs (ArrayOfBank/Bank{Name, Atms/Atm}); a DataSet's
// Bank table with the Atm table related to it, nested (the ATM rows in
// their bank's row) or not (the ATM rows after the banks', naming theirs
// by a key). The location node then holds no institution value: its
// group does, and a .NET client reads it there (the parent object, the
// row's GetParentRow). groupLeaves reads it as the document's location
// node carries it.

// groupLeaves lists the values a location node's groups hold for it: the
// own values (attributes, and child elements holding text only) of each
// of its ancestors below the result's root (and below a DataSet's own
// element, whose rows are the result's), the innermost first, and of
// the rows a relation that is not nested names as its parents, each under
// "../" and the group's name (../Bank/Name, ../Bank/@id). An ancestor's
// element holding other elements (the list of its ATMs, a nested object)
// is not its own value.
func groupLeaves(loc *etree.Element, rel *relations) []leaf {
	var out []leaf
	own := func(g *etree.Element) {
		p := "../" + g.Tag
		for _, a := range g.Attr {
			if !isMetaAttr(a) {
				out = append(out, leaf{p + "/@" + a.Key, a.Value, a.Value})
			}
		}
		for _, k := range dataKids(g) {
			if len(dataKids(k)) == 0 {
				for _, l := range leaves(k) {
					out = append(out, leaf{p + "/" + k.Tag + "/" + l.Path, l.Value, l.Raw})
				}
				out = append(out, leaf{p + "/" + k.Tag, textOf(k), rawText(k)})
			}
		}
	}
	for g := loc.Parent(); g != nil && g != rel.root; g = g.Parent() {
		if p := g.Parent(); p == nil || nameOf(p) == (qname{diffgramNS, "diffgram"}) || isDataSet(g) {
			break // the DataSet's own element: the result, no group
		}
		own(g)
	}
	for _, p := range rel.parents[loc] {
		own(p)
	}
	return out
}

// grouped reports whether location values hold a group's (groupLeaves).
func grouped(xv [][]leaf) bool {
	for _, ls := range xv {
		for _, l := range ls {
			if strings.HasPrefix(l.Path, "../") {
				return true
			}
		}
	}
	return false
}

// alignByID returns, for each JSON location of jl, the index of the XML
// location of xv that is the same location: one holding its id among its
// values, the one at its own position when that one does, else the one
// holding most of its values (coverage); the one at its own position when
// none holds its id. A grouped result lists its locations group by group,
// not in the JSON answer's order: the specs compare each JSON location
// with its own XML node.
func alignByID(jl []map[string]any, xv [][]leaf) []int {
	byValue := map[string][]int{}
	for j, ls := range xv {
		for _, l := range ls {
			if !strings.HasPrefix(l.Path, "../") {
				k := norm(l.Value)
				if n := len(byValue[k]); n == 0 || byValue[k][n-1] != j {
					byValue[k] = append(byValue[k], j)
				}
			}
		}
	}
	used := make([]bool, len(xv))
	out := make([]int, len(jl))
	for i := range jl {
		out[i] = -1
		id, _ := jsonField(jl[i], "id")
		best, bestCover := -1, -1
		for _, j := range byValue[norm(id)] {
			if used[j] {
				continue
			}
			if j == i {
				best = j
				break
			}
			if c := leafCoverage(xv[j], jl[i]); c > bestCover {
				best, bestCover = j, c
			}
		}
		if best < 0 && i < len(xv) && !used[i] {
			best = i
		}
		if best >= 0 {
			used[best], out[i] = true, best
		}
	}
	for i := range out { // those found by no value: the first unused
		for j := 0; out[i] < 0 && j < len(xv); j++ {
			if !used[j] {
				used[j], out[i] = true, j
			}
		}
	}
	return out
}

// leafCoverage is coverage of an XML node's values ls.
func leafCoverage(ls []leaf, loc map[string]any) int {
	have := map[string]int{}
	for _, l := range ls {
		have[norm(l.Value)]++
	}
	n := 0
	for _, l := range jsonLeaves(loc, "", nil) {
		if k := norm(l.Value); l.Path != "index" && strings.TrimSpace(l.Value) != "" && have[k] > 0 {
			have[k]--
			n++
		}
	}
	return n
}

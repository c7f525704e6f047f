package learn

// This file learns a DataSet whose locations are grouped by institution:
// a table of groups (one row per institution, rows: groups) and the
// locations' table related to it, nested or not, as a deployment fills
// them reading the locations found in order.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/shape"
)

// groupTables finds, in a DataSet of locations, the locations grouped by
// institution: a table (the locations') whose parent in a relation is a
// table of no parent (the groups') of fewer columns than half its own,
// every row of it in one group's row, every group's row holding one or
// more, with as many rows as the JSON answers' locations where compared,
// and groups that are no locations (a JSON answer whose locations are
// not as many as the groups, or a group of more than one row). It checks
// that the answers order the groups as the mock writes them (groupOrder),
// puts the locations' rows of a nested relation in their table's order
// (msdata:rowOrder: the search's), and returns the two tables; nil when
// there is no such pair.
func (l *learner) groupTables(d *shape.DataSet, answers []*dsAnswer) (content, grp *shape.Table) {
	for _, r := range d.Relations {
		p, t := d.TableNamed(r.Parent), d.TableNamed(r.Child)
		if p == nil || t == nil || p == t || d.ParentOf(p) != nil || d.ParentOf(t) != r || len(t.Columns) < 2*len(p.Columns) {
			continue
		}
		ok, rows, apart := true, 0, false
		for _, a := range answers {
			n := 0
			for _, pr := range a.rows[p] {
				k := len(childRows(d, a, t, pr))
				ok = ok && k > 0
				apart = apart || k > 1
				n += k
			}
			ok = ok && n == len(a.rows[t])
			if a.json != nil {
				ok = ok && len(a.rows[t]) == len(a.json.items)
				apart = apart || len(a.rows[p]) != len(a.json.items)
			}
			rows += n
		}
		if !ok || !apart || rows == 0 {
			continue
		}
		for _, a := range answers {
			l.checkGroupOrder(d, r, a, p, t)
		}
		return t, p
	}
	return nil, nil
}

// checkGroupOrder records in l.groupOrder an answer whose groups (rows of
// p) or locations (rows of t, related by r) are in another order than the
// mock writes: the groups in the order of their first location in the
// search's order (the locations' msdata:rowOrder), each group's locations
// in that order; not nested, the locations' rows in it. A nested answer's
// locations' rows are put in the search's order.
func (l *learner) checkGroupOrder(d *shape.DataSet, r *shape.Relation, a *dsAnswer, p, t *shape.Table) {
	rows := a.rows[t]
	search := slices.Clone(rows)
	slices.SortStableFunc(search, func(x, y *dsRow) int { return x.rowOrder - y.rowOrder })
	keyOf := func(row *dsRow, cols []string) string {
		var vs []string
		for _, c := range cols {
			vs = append(vs, valueOf(row, c))
		}
		return strings.Join(vs, "\x00")
	}
	var want, got []string
	inSearch := true
	for i, row := range search {
		inSearch = inSearch && row.rowOrder == i
		if k := keyOf(row, r.ChildColumns); !slices.Contains(want, k) {
			want = append(want, k)
		}
	}
	for _, pr := range a.rows[p] {
		got = append(got, keyOf(pr, r.ParentColumns))
	}
	var grouped []*dsRow
	for _, k := range want {
		for _, row := range search {
			if keyOf(row, r.ChildColumns) == k {
				grouped = append(grouped, row)
			}
		}
	}
	written := search
	if r.Nested {
		written = grouped
	}
	if !inSearch || !slices.Equal(got, want) || !slices.Equal(rows, written) {
		how := "the locations' rows in the search's order (msdata:rowOrder)"
		if r.Nested {
			how = "each group's rows of locations in the search's order (msdata:rowOrder)"
		}
		l.groupOrder = append(l.groupOrder, fmt.Sprintf("%s: rows of %s in another order than one per institution in the order of its first location in %s, with %s", a.c.sample.Where, p.Name, t.Name, how))
		return
	}
	a.rows[t] = search
}

// groupPairs are the rows of grp (the table of groups) of each answer,
// each with the values of its first location's JSON item where the
// answer's JSON form was read: an institution's values are the group's.
func groupPairs(d *shape.DataSet, answers []*dsAnswer, grp, content *shape.Table, fill func(record, *dsRow)) []pair {
	var out []pair
	for _, a := range answers {
		for _, pr := range a.rows[grp] {
			rec := record{}
			fill(rec, pr)
			pa := pair{rec: rec}
			if kids := childRows(d, a, content, pr); a.json != nil && len(kids) > 0 && len(a.rows[content]) == len(a.json.items) {
				if i := slices.Index(a.rows[content], kids[0]); i >= 0 {
					pa.values = a.json.items[i].values
				}
			}
			out = append(out, pa)
		}
	}
	return out
}

// hasJSON reports whether a JSON answer to one of g's calls was read.
func (l *learner) hasJSON(g *group) bool {
	for _, c := range g.contents {
		if l.jsons[c.sample.Op+"\x00"+c.sample.Query] != nil {
			return true
		}
	}
	return false
}

// sameTableAs maps the leaves of d's columns, a DataSet compared with no
// JSON answer, like the columns of the same name, type and mapping in a
// table of the same name and rows of a DataSet learned before (one
// compared with JSON answers: learnDataSet learns those first): the
// Branches' Atm table of a site like its Nearby's.
func (l *learner) sameTableAs(g *group, d *shape.DataSet, leaves []leafAt) {
	for _, lf := range leaves {
		if lf.n.value != "" {
			continue
		}
		t, c := g.ds.columnOf(lf.n)
		if t == nil {
			continue
		}
	others:
		for _, o := range l.groups {
			if o == g || o.ds == nil || o.ds.d == nil || o.content != g.content {
				continue
			}
			ot := o.ds.d.TableNamed(t.Name)
			if ot == nil || ot.Rows != t.Rows {
				continue
			}
			oc := ot.ColumnNamed(c.Name)
			if oc == nil || oc.Type != c.Type || oc.MappingOf() != c.MappingOf() || o.ds.cols[oc] == nil || o.ds.cols[oc].value == "" {
				continue
			}
			src := o.ds.cols[oc]
			lf.n.value, lf.n.guessed = src.value, src.guessed
			lf.n.evidence = fmt.Sprintf("as %s/%s/%s, the column of the same name in the same table of DataSet %s", o.ds.d.Name, ot.Name, oc.Name, o.ds.d.Name)
			break others
		}
	}
}

// columnOf returns the table and column whose leaf n is, or nils.
func (ds *dsLearned) columnOf(n *node) (*shape.Table, *shape.Column) {
	for _, t := range ds.d.Tables {
		for _, c := range t.Columns {
			if ds.cols[c] == n {
				return t, c
			}
		}
	}
	return nil, nil
}

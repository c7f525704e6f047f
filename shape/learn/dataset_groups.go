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
// that the answers number the rows as the mock does (checkGroupOrder; the
// groups' order is learned later, learnDataSetGroupOrder), puts the
// locations' rows of a nested relation in their table's order
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

// checkGroupOrder records in l.groupOrder an answer whose rows are in
// another order than the mock writes: the groups' (rows of p) numbered in
// the order written (msdata:rowOrder), the locations' (rows of t, related
// by r to p's) in the search's order (their msdata:rowOrder); nested,
// each group's rows in it, not nested, all of them. A nested answer's
// locations' rows are put in the search's order. An answer not nested
// whose locations' rows are bank by bank (each group's together, the
// groups in their rows' order) where its JSON answer's locations are not
// grouped is paired with them by id (pairByID: a.json in the rows'
// order, a.searchPos each row's place in the search; learnRowOrder then
// learns rowOrder groups), or recorded in l.rowOrder when no column
// pairs them: their order is not the search's, so they cannot be paired
// by place. The order of the groups is learned once the columns are
// mapped (learnDataSetGroupOrder).
func (l *learner) checkGroupOrder(d *shape.DataSet, r *shape.Relation, a *dsAnswer, p, t *shape.Table) {
	rows := a.rows[t]
	search := slices.Clone(rows)
	slices.SortStableFunc(search, func(x, y *dsRow) int { return x.rowOrder - y.rowOrder })
	inSearch := true
	for i, row := range search {
		inSearch = inSearch && row.rowOrder == i
	}
	var grouped []*dsRow
	for _, pr := range a.rows[p] {
		k := rowKey(pr, r.ParentColumns)
		for _, row := range search {
			if rowKey(row, r.ChildColumns) == k {
				grouped = append(grouped, row)
			}
		}
	}
	written := search
	if r.Nested {
		written = grouped
	}
	for i, pr := range a.rows[p] {
		if pr.rowOrder >= 0 && pr.rowOrder != i {
			l.groupOrder = append(l.groupOrder, fmt.Sprintf("%s: rows of %s numbered in another order than written (msdata:rowOrder)", a.c.sample.Where, p.Name))
			a.bad = true
			return
		}
	}
	if !r.Nested && inSearch && slices.Equal(rows, grouped) && a.json != nil && len(a.json.items) == len(rows) && !jsonGrouped(a.json) {
		perm := pairByID(t, rows, a.json)
		if perm == nil {
			l.rowOrder = append(l.rowOrder, fmt.Sprintf("%s: rows of %s bank by bank (each group's together, in the order of the rows of %s), where the JSON answer's locations are not grouped (the search's order), and no column of %s holds the JSON locations' ids to pair them by", a.c.sample.Where, t.Name, p.Name, t.Name))
			a.bad = true
			return
		}
		// The JSON locations in the rows' order, each row's place in
		// the search kept (the groups' order is of the search's).
		items := make([]jsonLocation, len(perm))
		for i, j := range perm {
			items[i] = a.json.items[j]
		}
		a.json = &jsonAnswer{top: a.json.top, items: items}
		a.searchPos = perm
	}
	if !inSearch || !slices.Equal(rows, written) {
		how := "the locations' rows in the search's order (msdata:rowOrder)"
		if r.Nested {
			how = "each group's rows of locations in the search's order (msdata:rowOrder)"
		}
		l.groupOrder = append(l.groupOrder, fmt.Sprintf("%s: rows of %s in another order than %s", a.c.sample.Where, t.Name, how))
		a.bad = true
		return
	}
	a.rows[t] = search
}

// jsonGrouped reports whether the locations of a JSON answer are grouped
// by institution (each institution's together), as they are in a search
// that found them so, or holds one institution's.
func jsonGrouped(a *jsonAnswer) bool {
	seen := map[string]bool{}
	for i, it := range a.items {
		id := it.values["institution.id"]
		if i > 0 && id == a.items[i-1].values["institution.id"] {
			continue
		}
		if seen[id] {
			return false
		}
		seen[id] = true
	}
	return true
}

// pairByID pairs rows, a locations table's, with the JSON answer's
// locations by their id: it returns, for each row, the place of its
// location in the JSON answer, the row's id being the value of a column
// of t that holds a distinct JSON location's id in every row; nil when
// no column does.
func pairByID(t *shape.Table, rows []*dsRow, j *jsonAnswer) []int {
	at := map[string]int{}
	for k, it := range j.items {
		id := it.values["id"]
		if _, dup := at[id]; dup || id == "" {
			return nil
		}
		at[id] = k
	}
columns:
	for _, c := range t.Columns {
		perm := make([]int, len(rows))
		used := map[int]bool{}
		for i, row := range rows {
			k, ok := at[valueOf(row, c.Name)]
			if !ok || used[k] {
				continue columns
			}
			used[k], perm[i] = true, k
		}
		return perm
	}
	return nil
}

// rowKey is the values of row's columns cols, joined.
func rowKey(row *dsRow, cols []string) string {
	var vs []string
	for _, c := range cols {
		vs = append(vs, valueOf(row, c))
	}
	return strings.Join(vs, "\x00")
}

// learnDataSetGroupOrder learns the order of the rows of grp, d's table
// of groups, from the answers (learnGroupOrder): each group's row told
// apart by the columns mapped to the institution's id and name, and by
// the place of its first location's row in the search's order.
func (l *learner) learnDataSetGroupOrder(d *shape.DataSet, answers []*dsAnswer, grp, content *shape.Table) {
	r := d.ParentOf(content)
	var idCol, nameCol string
	for _, c := range grp.Columns {
		switch c.Value {
		case "institution.id":
			idCol = c.Name
		case "institution.name":
			nameCol = c.Name
		}
	}
	var evidence []groupOrderOf
	for _, a := range answers {
		if a.bad {
			continue
		}
		o := groupOrderOf{where: a.c.sample.Where, keys: []groupKey{}}
		for _, pr := range a.rows[grp] {
			k := groupKey{first: len(a.rows[content])}
			key := rowKey(pr, r.ParentColumns)
			for i, row := range a.rows[content] {
				if rowKey(row, r.ChildColumns) != key {
					continue
				}
				if a.searchPos == nil {
					k.first = i
					break
				}
				k.first = min(k.first, a.searchPos[i]) // bank by bank: the search's place
			}
			if idCol != "" {
				k.id, k.hasID = valueOf(pr, idCol), true
			}
			if nameCol != "" {
				_, inElems := pr.elems[nameCol]
				_, inAttrs := pr.attrs[nameCol]
				k.name, k.hasName = valueOf(pr, nameCol), inElems || inAttrs
			}
			o.keys = append(o.keys, k)
		}
		evidence = append(evidence, o)
	}
	if order := l.learnGroupOrder(d.Name+"/"+grp.Name, evidence); order != shape.GroupByFirst {
		grp.GroupOrder = order
	}
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

// learnRowOrder learns the order of content's rows, the locations' of a
// DataSet of groups: rowOrder groups when an answer's are bank by bank
// where its JSON answer's search order is another (checkGroupOrder
// paired them by id), the search's otherwise; an answer of each is
// refused (l.rowOrder), naming both.
func (l *learner) learnRowOrder(d *shape.DataSet, content *shape.Table, answers []*dsAnswer) {
	var inGroups, inSearch []string
	for _, a := range answers {
		switch {
		case a.bad || a.json == nil:
		case a.searchPos != nil:
			inGroups = append(inGroups, a.c.sample.Where)
		case jsonGrouped(a.json):
		default:
			inSearch = append(inSearch, a.c.sample.Where)
		}
	}
	switch {
	case len(inGroups) > 0 && len(inSearch) > 0:
		l.rowOrder = append(l.rowOrder, fmt.Sprintf("%s/%s: rows bank by bank in %s, in the search's order in %s", d.Name, content.Name, strings.Join(inGroups, ", "), strings.Join(inSearch, ", ")))
	case len(inGroups) > 0:
		content.RowOrder = shape.RowOrderGroups
		l.report.Mapped = append(l.report.Mapped, fmt.Sprintf("%s: %s/%s rowOrder groups (its rows bank by bank, paired with the JSON answers' locations, in the search's order, by id in %d compared)", d.Name, d.Name, content.Name, len(inGroups)))
	}
}

package learn

// This file decides which list fills each table of a DataSet: the content
// table (its rows counted against the JSON answers' items), the tables of
// one row per parent row, a location's languages, and the tables of rows
// atmkit has no data for.

import (
	"fmt"
	"slices"

	"github.com/atmkit/atmkit/shape"
)

// roles decides which list fills each table: the content table (its rows
// are the answers' locations, institutions or provinces), tables of one
// row (the result's own values, or one per parent row), tables of a
// location's languages, and tables of no rows.
func (l *learner) roles(g *group, d *shape.DataSet, answers []*dsAnswer) {
	// The content table: a table of no parent whose row counts are the
	// JSON answers' (locations), else the one with the most rows, then
	// the most columns.
	var best *shape.Table
	bestScore := [3]int{-1, -1, -1}
	grp := (*shape.Table)(nil)
	if g.content == shape.Locations {
		best, grp = l.groupTables(d, answers)
		if best != nil {
			bestScore = [3]int{0, rowsIn(answers, best), len(best.Columns)}
			for _, a := range answers {
				if a.json != nil {
					bestScore[0]++
				}
			}
		}
	}
	for _, t := range d.Tables {
		if d.ParentOf(t) != nil || grp != nil {
			continue
		}
		agree, rows := 0, 0
		for _, a := range answers {
			n := len(a.rows[t])
			rows += n
			if a.json != nil && n == len(a.json.items) {
				agree++
			} else if a.json != nil {
				agree = -1 << 20
			}
		}
		score := [3]int{agree, rows, len(t.Columns)}
		if slices.Compare(score[:], bestScore[:]) > 0 {
			best, bestScore = t, score
		}
	}
	if best == nil {
		if g.content == shape.Locations {
			l.groupedInParent(d, answers)
		}
		return
	}
	best.Rows = string(g.content)
	if g.content == shape.Locations && grp == nil {
		l.groupedRows(d, best, answers)
	}
	why := fmt.Sprintf("%d rows in the %d answers read", bestScore[1], len(answers))
	if bestScore[0] > 0 {
		why = fmt.Sprintf("as many rows as the JSON answers' %s in %d compared", g.content, bestScore[0])
	}
	l.report.Mapped = append(l.report.Mapped, fmt.Sprintf("%s: %s/%s ← the %s list (%s)", d.Name, d.Name, best.Name, g.content, why))
	if grp != nil {
		grp.Rows = shape.RowsGroups
		markInserted(answers, grp)
		rel := d.ParentOf(best)
		how := map[bool]string{true: "nested", false: "not nested"}[rel.Nested]
		l.report.Mapped = append(l.report.Mapped, fmt.Sprintf("%s: %s/%s ← the groups of the locations by institution (%d rows, each the parent of its locations' rows in %s, %s; one per institution, their order learned as groupOrder)",
			d.Name, d.Name, grp.Name, rowsIn(answers, grp), rel.Name, how))
		l.learnRowOrder(d, best, answers)
	}
	g.ds.items = bestScore[1]
	g.items = map[*content]int{}
	for _, a := range answers {
		g.items[a.c] = len(a.rows[best])
	}
	for _, t := range d.Tables {
		if t == best || t == grp {
			continue
		}
		if t.Rows = l.roleOf(g, d, t, best, answers); t.Rows == shape.RowsNone && rowsIn(answers, t) > 0 {
			rel := d.ParentOf(t)
			switch {
			case rel == nil:
				t.Rows, g.ds.fillers[t] = shape.RowsOne, true
				l.report.Unmapped = append(l.report.Unmapped, fmt.Sprintf("%s: %s/%s: rows of a list atmkit has no data for; written as one row of generated values", d.Name, d.Name, t.Name))
			case belongsTo(d, d.TableNamed(rel.Parent), best):
				t.Rows, g.ds.fillers[t] = shape.RowsOne, true
				l.report.Unmapped = append(l.report.Unmapped, fmt.Sprintf("%s: %s/%s: rows of a list atmkit has no data for; written as one row of generated values per %s row", d.Name, d.Name, t.Name, rel.Parent))
			default:
				l.report.Unmapped = append(l.report.Unmapped, fmt.Sprintf("%s: %s/%s: rows of a list atmkit has no data for; the table is written empty", d.Name, d.Name, t.Name))
			}
		}
		markInserted(answers, t)
	}
	markInserted(answers, best)
}

// markInserted marks t's rows as inserted ones (diffgr:hasChanges) when
// the answers hold rows of t and every one of them is.
func markInserted(answers []*dsAnswer, t *shape.Table) {
	changes := true
	for _, a := range answers {
		for _, r := range a.rows[t] {
			changes = changes && r.inserted
		}
	}
	if changes && rowsIn(answers, t) > 0 {
		t.Changes = shape.ChangesInserted
	}
}

func rowsIn(answers []*dsAnswer, t *shape.Table) int {
	n := 0
	for _, a := range answers {
		n += len(a.rows[t])
	}
	return n
}

// roleOf decides the rows of table t, other than the content table.
func (l *learner) roleOf(g *group, d *shape.DataSet, t, content *shape.Table, answers []*dsAnswer) string {
	rel := d.ParentOf(t)
	if rel == nil {
		// Of the result itself: one row in every answer.
		n := rowsIn(answers, t)
		if n == 0 {
			return shape.RowsNone
		}
		for _, a := range answers {
			if len(a.rows[t]) != 1 {
				return shape.RowsNone
			}
		}
		l.report.Mapped = append(l.report.Mapped, fmt.Sprintf("%s: %s/%s ← one row of the result's own values (one row in each of the %d answers)", d.Name, d.Name, t.Name, len(answers)))
		return shape.RowsOne
	}
	parent := d.TableNamed(rel.Parent)
	if parent == nil || !belongsTo(d, parent, content) {
		return shape.RowsNone
	}
	// Rows per parent row.
	one, compared, equal := true, 0, true
	for _, a := range answers {
		for _, pr := range a.rows[parent] {
			kids := childRows(d, a, t, pr)
			if len(kids) != 1 {
				one = false
			}
		}
		if parent != content || g.content != shape.Locations || a.json == nil || len(a.rows[content]) != len(a.json.items) {
			continue
		}
		col := languageColumn(d, t)
		if col == nil {
			equal = false
			continue
		}
		for i, pr := range a.rows[content] {
			var got []string
			for _, k := range childRows(d, a, t, pr) {
				got = append(got, k.elems[col.Name]+k.attrs[col.Name])
			}
			compared++
			if !slices.Equal(got, a.json.items[i].languages) && len(got)+len(a.json.items[i].languages) > 0 {
				equal = false
			}
		}
	}
	switch {
	case compared > 0 && equal:
		l.report.Mapped = append(l.report.Mapped, fmt.Sprintf("%s: %s/%s ← a location's languages (equal to the JSON answers' language lists in %d of %d compared)", d.Name, d.Name, t.Name, compared, compared))
		if col := languageColumn(d, t); col != nil {
			col.Value = "language"
		}
		return "languages"
	case one && rowsIn(answers, t) > 0:
		l.report.Mapped = append(l.report.Mapped, fmt.Sprintf("%s: %s/%s ← one row per %s row (as many as its parent's in the answers read)", d.Name, d.Name, t.Name, parent.Name))
		return shape.RowsOne
	case compared == 0 && parent == content && g.content == shape.Locations && languageColumn(d, t) != nil &&
		(nameMatch(t.Name, "languages") > 0 || nameMatch(languageColumn(d, t).Name, "languages") > 0):
		l.guess("%s: %s/%s ← a location's languages (by its name; no JSON answer to compare)", d.Name, d.Name, t.Name)
		languageColumn(d, t).Value = "language"
		return "languages"
	}
	return shape.RowsNone
}

// belongsTo reports whether t is content or a table whose rows belong to
// content's, one row each.
func belongsTo(d *shape.DataSet, t, content *shape.Table) bool {
	for range len(d.Tables) {
		if t == content {
			return true
		}
		r := d.ParentOf(t)
		if r == nil {
			return false
		}
		if t = d.TableNamed(r.Parent); t == nil {
			return false
		}
	}
	return false
}

// languageColumn is the one column of t that is no key, if t has one.
func languageColumn(d *shape.DataSet, t *shape.Table) *shape.Column {
	var found *shape.Column
	for _, c := range t.Columns {
		if c.MappingOf() == shape.MappingHidden || d.IsKey(t, c) {
			continue
		}
		if found != nil {
			return nil
		}
		found = c
	}
	if found == nil || !slices.Contains([]string{"string", "anyURI"}, found.Type) {
		return nil
	}
	return found
}

// childRows are the rows of t that belong to parent row pr: nested in it,
// or with the related columns' values of pr.
func childRows(d *shape.DataSet, a *dsAnswer, t *shape.Table, pr *dsRow) []*dsRow {
	rel := d.ParentOf(t)
	var out []*dsRow
	for _, r := range a.rows[t] {
		switch {
		case rel.Nested && r.parent != nil:
			if r.parent == pr {
				out = append(out, r)
			}
		default:
			match := len(rel.ChildColumns) > 0
			for i, cc := range rel.ChildColumns {
				if i >= len(rel.ParentColumns) || valueOf(r, cc) != valueOf(pr, rel.ParentColumns[i]) || valueOf(r, cc) == "" {
					match = false
				}
			}
			if match {
				out = append(out, r)
			}
		}
	}
	return out
}

// groupedRows records in l.grouped whether the rows of content, the table
// taken for the locations, are groups of the locations: a table related
// to it (nested or not) has more rows and twice its columns or more, as
// an Atm table has whose rows are related to their bank's in a Bank
// table (see NotModelledError).
func (l *learner) groupedRows(d *shape.DataSet, content *shape.Table, answers []*dsAnswer) {
	for _, t := range d.Tables {
		rel := d.ParentOf(t)
		if t == content || rel == nil || rel.Parent != content.Name {
			continue
		}
		if rowsIn(answers, t) > rowsIn(answers, content) && len(t.Columns) >= 2*len(content.Columns) {
			how := "not nested"
			if rel.Nested {
				how = "nested"
			}
			l.grouped = append(l.grouped, fmt.Sprintf("%s: %s/%s taken for the locations, %d rows, has a table %s related to it (%s, %s) of %d rows holding more columns", d.Name, d.Name, content.Name, rowsIn(answers, content), t.Name, rel.Name, how, rowsIn(answers, t)))
		}
	}
}

// groupedInParent records in l.grouped the tables of d that hold the
// locations in rows of another table (their rows as many as the JSON
// answers' locations in every answer compared, and more columns than
// their parent table, itself of no parent), when no table of no parent
// does: an Atm table nested in a Bank table.
func (l *learner) groupedInParent(d *shape.DataSet, answers []*dsAnswer) {
	for _, t := range d.Tables {
		rel := d.ParentOf(t)
		if rel == nil || rel.Parent == t.Name {
			continue
		}
		if p := d.TableNamed(rel.Parent); p == nil || d.ParentOf(p) != nil || len(t.Columns) <= len(p.Columns) {
			continue // a location's own rows (its languages'), or no group's
		}
		agree := 0
		for _, a := range answers {
			if a.json == nil {
				continue
			}
			if len(a.rows[t]) != len(a.json.items) {
				agree = -1
				break
			}
			agree++
		}
		if agree > 0 {
			how := "not nested"
			if rel.Nested {
				how = "nested"
			}
			l.grouped = append(l.grouped, fmt.Sprintf("%s: %s/%s holds as many rows as the JSON answers' locations in %d compared, in rows of %s (%s, %s)", d.Name, d.Name, t.Name, agree, rel.Parent, rel.Name, how))
		}
	}
}

package mockserver

import (
	"slices"
)

// A DataSet of locations grouped by institution (a table of rows:
// groups, the locations table its child in a relation) is written as
// DataSet.WriteXml writes the one a deployment fills as it reads the
// locations found, in order: a row in the groups' table for each
// institution at its first location, a row in the locations' table for
// each location. Each row keeps the number of its place in its table
// (diffgr:id, msdata:rowOrder, an auto-increment key), the locations'
// and their languages' in the search's order. Not nested, the groups'
// rows are written at their table's place (groupRows) and the locations'
// as a flat list's. Nested, each group's row holds its locations' rows
// (XmlDataTreeWriter writes a row's child rows in it): the locations are
// written in the order of their groups (groupOrder, as a typed grouped
// list's), each run of one institution's wrapped in its group's row
// (groupedItems), their cached rows numbered as in the search's order.
// Not nested with rowOrder: groups (a deployment that adds the locations
// grouped), the locations are put in the order of their groups
// (bankByBank) and numbered in it, as a flat list of that order.

// inOrder is the locations of a in the search's order: a.atms, unless
// they were put in the order of their groups (regroup).
func (w *dsWriter) inOrder(a answer) []int32 {
	if w.code.nested && a.sc != nil && a.sc.dsOrig != nil {
		return a.sc.dsOrig
	}
	return a.atms
}

// regroup returns atms in the order of their groups, in sc's buffer, and
// keeps in sc what numbers their rows: atms (the search's order), each
// one's place in it, and the language rows before each.
func (w *dsWriter) regroup(atms []int32, sc *scratch) []int32 {
	n := len(atms)
	pos := slices.Grow(sc.dsPos[:0], n)[:n]
	groupOrder(w.d, atms, pos, w.code.group.t.GroupOrder)
	out := slices.Grow(sc.grouped[:0], n)[:n]
	for k, p := range pos {
		out[k] = atms[p]
	}
	langs := slices.Grow(sc.dsLangs[:0], n+1)[:n+1]
	langs[0] = 0
	for k, i := range atms {
		langs[k+1] = langs[k] + int64(len(w.d.ds.ATMs[i].Languages))
	}
	sc.dsOrig, sc.dsPos, sc.grouped, sc.dsLangs = atms, pos, out, langs
	return out
}

// bankByBank returns atms in the order of their groups (in sc's buffer
// when there is one), for a locations table of rowOrder: groups, whose
// rows are then numbered in that order: a deployment added them so.
func (w *dsWriter) bankByBank(atms []int32, sc *scratch) []int32 {
	n := len(atms)
	var pos, out []int32
	if sc != nil {
		pos, out = slices.Grow(sc.dsPos[:0], n)[:n], slices.Grow(sc.grouped[:0], n)[:n]
		sc.dsPos, sc.grouped = pos, out
	} else {
		pos, out = make([]int32, n), make([]int32, n)
	}
	groupOrder(w.d, atms, pos, w.code.group.t.GroupOrder)
	for k, p := range pos {
		out[k] = atms[p]
	}
	return out
}

// groupRows appends the rows of dt, the table of groups not nested: one
// per institution of a's locations, in the table's group order.
func (w *dsWriter) groupRows(dst []byte, a answer, dt *dsTable, st *dsState) []byte {
	if a.kind != locationItems {
		return dst
	}
	for k, id := range groupIDs(w.d, w.inOrder(a), dt.t.GroupOrder) {
		st.rows[dt.index] = int64(k)
		ctx := w.d.groupCtx(id)
		dst = w.row(dst, dt, &ctx, st)
	}
	return dst
}

// groupedItems appends the items from to to of a, whose locations are
// in the order of their groups and nested in their groups' rows: each
// group's row starts before its first location and ends after its last.
func (w *dsWriter) groupedItems(dst []byte, a answer, from, to int) []byte {
	sc := a.sc
	g := w.code.group
	groups := w.groupsBefore(a, from)
	var st dsState
	st.init(w, a)
	var buf [24]byte
	inst := func(k int) int { return w.d.ds.ATMs[a.atms[k]].InstitutionID }
	for k := from; k < to; k++ {
		i, id := a.atms[k], inst(k)
		if k == 0 || inst(k-1) != id {
			st.rows[g.index] = groups
			groups++
			ctx := w.d.groupCtx(id)
			dst = w.rowOps(dst, g, w.code.groupOpen, &ctx, &st)
		}
		f := w.d.frags.get(w.code.variant, i)
		if f == nil {
			f = w.buildRow(a, i)
		}
		p := sc.dsPos[k]
		dst = appendRow(dst, f, int64(p), sc.dsLangs[p], &buf)
		if k == a.n-1 || inst(k+1) != id {
			ctx := w.d.groupCtx(id)
			dst = w.rowOps(dst, g, w.code.groupClose, &ctx, &st)
		}
	}
	sc.ds = dsCursor{to: to, groups: groups}
	return dst
}

// groupsBefore is the number of groups of the items before item from:
// carried from the previous call of items when it ended there.
func (w *dsWriter) groupsBefore(a answer, from int) int64 {
	if a.sc.ds.to == from {
		return a.sc.ds.groups
	}
	var n int64
	for k := range from {
		if k == 0 || w.d.ds.ATMs[a.atms[k]].InstitutionID != w.d.ds.ATMs[a.atms[k-1]].InstitutionID {
			n++
		}
	}
	return n
}

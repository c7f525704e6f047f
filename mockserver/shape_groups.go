package mockserver

import (
	"cmp"
	"slices"
	"unicode/utf16"

	"github.com/atmkit/atmkit/shape"
)

// A locations list grouped by institution (shape.Field.Group: an
// XmlSerializer array of institutions, each holding its values and an
// array of its locations found) is written by groupedWriter: the answer's
// locations are put in the order of the groups (regroup: each
// institution's locations together, in the answer's order, the
// institutions in the list's group order: by default of their first
// location, as LINQ's GroupBy orders them), and each run of one institution's
// locations is wrapped in the group's start (its element, its values, its
// list's start tag) and end. The locations are the fragment cache's as in
// a flat list; the flat lists' writer (xmlWriter) is not touched.

// groupCode is the compiled item of a grouped list: the group's program
// up to its locations list's items (run with the institution's values),
// that list, and the program after its items.
type groupCode struct {
	open, close []op
	inner       *listCode
	order       string // the order of the groups (shape.Field.GroupOrder)
}

// group compiles the group item it (in ScopeGroup) written with prefix in
// ns at depth, where the default namespace is inScope.
func (c *compiler) group(it *shape.Field, prefix, ns, inScope string, depth int) *groupCode {
	inner := &resultCode{}
	c.element(it.Element, prefix, ns, inScope, depth, it.Fields, shape.ScopeGroup, func(d int) {
		c.fields(it.Fields, shape.ScopeGroup, it.ChildNamespace(c.ns, ns), childInScope(prefix, ns, inScope), d, inner)
	})
	g := &groupCode{inner: inner.list}
	for i, o := range c.ops {
		if o.kind == opList && o.list == inner.list {
			g.open, g.close = slices.Clone(c.ops[:i]), slices.Clone(c.ops[i+1:])
			break
		}
	}
	c.ops = nil
	return g
}

// groupedWriter writes the answers of an operation whose locations list
// is grouped, in one XML binding.
type groupedWriter struct {
	*xmlWriter
	g *groupCode
}

// regroup returns atms in the order of their groups (see above), in sc's
// buffer (a new one without sc): atms may be the data set's own list.
func (w *groupedWriter) regroup(atms []int32, sc *scratch) []int32 {
	var out []int32
	if sc != nil {
		out = slices.Grow(sc.grouped[:0], len(atms))[:len(atms)]
		defer func() { sc.grouped = out }()
	} else {
		out = make([]int32, len(atms))
	}
	groupOrder(w.d, atms, out, w.g.order)
	for k, p := range out {
		out[k] = atms[p]
	}
	return out
}

// groupOrder sets out (as long as atms) to the positions in atms of its
// locations in the order of their groups: each institution's locations
// together, in atms' order, the institutions in order by (a
// shape.GroupOrders value): by default of their first location (LINQ's
// GroupBy).
func groupOrder(d *data, atms []int32, out []int32, by string) {
	order := map[int]int{} // institution → its group's number
	var starts []int       // each group's size, then where it starts
	for _, i := range atms {
		id := d.ds.ATMs[i].InstitutionID
		g, ok := order[id]
		if !ok {
			g = len(starts)
			order[id] = g
			starts = append(starts, 0)
		}
		starts[g]++
	}
	at := 0
	if by == "" || by == shape.GroupByFirst {
		for g, n := range starts {
			starts[g], at = at, at+n
		}
	} else {
		ids := make([]int, len(starts))
		for id, g := range order {
			ids[g] = id
		}
		for _, g := range sortGroups(d, ids, by) {
			starts[g], at = at, at+starts[g]
		}
	}
	for k, i := range atms {
		g := order[d.ds.ATMs[i].InstitutionID]
		out[starts[g]] = int32(k)
		starts[g]++
	}
}

// groupIDs returns the institutions of atms' locations, each once, in
// the order of their groups (see groupOrder).
func groupIDs(d *data, atms []int32, by string) []int {
	var ids []int
	seen := map[int]bool{}
	for _, i := range atms {
		if id := d.ds.ATMs[i].InstitutionID; !seen[id] {
			seen[id] = true
			ids = append(ids, id)
		}
	}
	if by == "" || by == shape.GroupByFirst {
		return ids
	}
	out := make([]int, len(ids))
	for k, g := range sortGroups(d, ids, by) {
		out[k] = ids[g]
	}
	return out
}

// sortGroups returns the positions of ids, institutions in the order of
// their first location, sorted by (shape.GroupByID or GroupByName) as
// LINQ's OrderBy sorts them: stably, a name compared ordinally (by UTF-16
// code unit, StringComparer.Ordinal), an institution the data set lacks
// (no name: null) first.
func sortGroups(d *data, ids []int, by string) []int {
	seq := make([]int, len(ids))
	for g := range seq {
		seq[g] = g
	}
	switch by {
	case shape.GroupByID:
		slices.SortStableFunc(seq, func(a, b int) int { return cmp.Compare(ids[a], ids[b]) })
	case shape.GroupByName:
		names := make([][]uint16, len(ids))
		known := make([]bool, len(ids))
		for g, id := range ids {
			if in, ok := d.institutions[id]; ok {
				names[g], known[g] = utf16.Encode([]rune(in.Name)), true
			}
		}
		slices.SortStableFunc(seq, func(a, b int) int {
			if known[a] != known[b] {
				if known[a] {
					return 1
				}
				return -1
			}
			return slices.Compare(names[a], names[b])
		})
	}
	return seq
}

// inst is the institution ID of the location at position k of a.
func (w *groupedWriter) inst(a answer, k int) int {
	return w.d.ds.ATMs[a.atms[k]].InstitutionID
}

// items appends the locations from position from to to of the regrouped
// answer, each group's start before its first and its end after its last.
func (w *groupedWriter) items(dst []byte, a answer, from, to int) []byte {
	inner := w.g.inner
	for k := from; k < to; k++ {
		id := w.inst(a, k)
		if k == 0 || w.inst(a, k-1) != id {
			dst = w.groupStart(dst, id)
		}
		f := w.d.frags.get(inner.variant, a.atms[k])
		if f == nil {
			f = buildLocation(w.d, inner, a.atms[k])
		}
		dst = append(dst, f.b...)
		if k == a.n-1 || w.inst(a, k+1) != id {
			dst = w.groupEnd(dst, id)
		}
	}
	return dst
}

// groupStart appends the start of institution id's group: up to its
// locations list's first item.
func (w *groupedWriter) groupStart(dst []byte, id int) []byte {
	ctx := w.groupCtx(id)
	dst, _ = run(dst, w.g.open, &ctx, false, false)
	return append(dst, w.g.inner.open...)
}

// groupEnd appends the end of institution id's group.
func (w *groupedWriter) groupEnd(dst []byte, id int) []byte {
	dst = append(dst, w.g.inner.close...)
	ctx := w.groupCtx(id)
	dst, _ = run(dst, w.g.close, &ctx, false, false)
	return dst
}

// groupCtx is what the values of institution id's group are read from.
func (w *groupedWriter) groupCtx(id int) valueCtx { return w.d.groupCtx(id) }

// groupCtx is what the values of institution id's group (a typed
// result's or a DataSet's) are read from: the institution, whose position
// in the data set's list (1 to n; 0 for an institution it lacks) numbers
// the group's generated values.
func (d *data) groupCtx(id int) valueCtx {
	ord := 0
	for i := range d.ds.Institutions {
		if d.ds.Institutions[i].ID == id {
			ord = i + 1
			break
		}
	}
	return valueCtx{inst: d.institution(id), ord: ord, count: 1}
}

// itemsLength is the length of what items appends for every location:
// the locations' fragments and the groups' starts and ends.
func (w *groupedWriter) itemsLength(a answer) int {
	n := 0
	var buf []byte
	for k := 0; k < a.n; k++ {
		id := w.inst(a, k)
		if k == 0 || w.inst(a, k-1) != id {
			buf = w.groupStart(buf[:0], id)
			n += len(buf)
		}
		f := w.d.frags.length(w.g.inner.variant, a.atms[k])
		if f == 0 {
			f = len(buildLocation(w.d, w.g.inner, a.atms[k]).b)
		}
		n += f
		if k == a.n-1 || w.inst(a, k+1) != id {
			buf = w.groupEnd(buf[:0], id)
			n += len(buf)
		}
	}
	return n
}

package learn

// This file learns a typed locations result whose locations are grouped by
// institution (shape.Field.Group): an array of institutions, each holding
// its values and an array of its locations found (ArrayOfBank/Bank{@id,
// Name, Atms/Atm}). The group's values are matched with the JSON answers'
// institution values of its first location, its locations with the JSON
// answers' locations put in the groups' order (each institution's
// together, the institutions in the order of their first location).

import (
	"fmt"

	"github.com/beevik/etree"

	"github.com/atmkit/atmkit/shape"
)

// findGroup marks g's content list item as a group of locations when it
// holds a list whose items hold most of its values: that list's item is
// then the location (g.item), the group g.grp.
func (l *learner) findGroup(g *group) {
	if g.content != shape.Locations || g.item == nil || g.layout != shape.Typed {
		return
	}
	n := g.item
	for _, k := range n.kids {
		it := k
		if !k.repeated {
			it = k.wrappedItem()
		}
		if it == nil || it.attr || it.isLeaf() || 2*valuesUnder(it) <= valuesUnder(n) {
			continue
		}
		g.grp, g.item = n, it
		n.group = true
		it.list = string(shape.Locations)
		it.evidence = "a repeated element in each group"
		return
	}
}

// groupInstances collects records of one answer of a grouped result: the
// result's, one per group, and one per location, in the answer's order;
// sizes holds each group's number of locations.
func (l *learner) groupInstances(g *group, c *content) (top record, groups, items []record, sizes []int) {
	el := resultElement(c, g.layout)
	top = record{}
	var gels []*etree.Element
	if !shape.WritesSearchPoint(c.sample.Op) {
		pointless(g.root, el, g.grp)
	}
	collect(g.root, el, top, g.grp, &gels)
	for _, gel := range gels {
		gr := record{}
		var iels []*etree.Element
		collect(g.grp, gel, gr, g.item, &iels)
		groups = append(groups, gr)
		sizes = append(sizes, len(iels))
		for _, it := range iels {
			r := record{}
			g.item.sawDerived(it)
			collect(g.item, it, r, nil, nil)
			items = append(items, r)
		}
	}
	if g.items == nil {
		g.items = map[*content]int{}
	}
	g.items[c] = len(items)
	return top, groups, items, sizes
}

// inGroups returns the JSON locations in the order of their groups (by
// institution.id, the groups in the order of their first location), and
// the size of each group.
func inGroups(locs []jsonLocation) ([]jsonLocation, []int) {
	var order []string
	by := map[string][]jsonLocation{}
	for _, x := range locs {
		id := x.values["institution.id"]
		if _, ok := by[id]; !ok {
			order = append(order, id)
		}
		by[id] = append(by[id], x)
	}
	var out []jsonLocation
	var sizes []int
	for _, id := range order {
		out = append(out, by[id]...)
		sizes = append(sizes, len(by[id]))
	}
	return out, sizes
}

// matchGroups maps a grouped location result: its own values, its groups'
// (institution values) and its locations'.
func (l *learner) matchGroups(g *group) {
	var tops, groups, items []pair
	for _, c := range g.contents {
		if l.stopped() {
			return
		}
		top, grecs, recs, sizes := l.groupInstances(g, c)
		j := l.jsons[c.sample.Op+"\x00"+c.sample.Query]
		if j == nil {
			tops = append(tops, pair{rec: top})
			for _, r := range grecs {
				groups = append(groups, pair{rec: r})
			}
			for _, r := range recs {
				items = append(items, pair{rec: r})
			}
			continue
		}
		tops = append(tops, pair{rec: top, values: j.top})
		locs, want := inGroups(j.items)
		if !sameSizes(sizes, want) {
			// Another order of groups (by name, by id) than the one the
			// mock writes: a shape learned from it would serve other
			// answers than the deployment's.
			l.groupOrder = append(l.groupOrder, fmt.Sprintf("%s: groups of %v locations, where the JSON answer to the same query, its locations grouped by institution in the order of their first location, makes groups of %v", c.sample.Where, sizes, want))
			continue
		}
		at := 0
		for i, r := range grecs {
			groups = append(groups, pair{rec: r, values: locs[at].values})
			at += sizes[i]
		}
		for i, r := range recs {
			items = append(items, pair{rec: r, values: locs[i].values, langs: nonNil(locs[i].languages)})
		}
	}
	l.matchScope(scopeLeaves(g.root, ""), shape.ScopeLocations, tops, typeNames(g.root), true)
	l.matchScope(scopeLeaves(g.grp, ""), shape.ScopeGroup, groups, typeNames(g.grp), true)
	l.matchScope(scopeLeaves(g.item, ""), shape.ScopeLocation, items, typeNames(g.item), true)
}

// sameSizes reports whether a and b hold the same sizes.
func sameSizes(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

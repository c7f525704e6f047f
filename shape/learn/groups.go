package learn

// This file learns a typed locations result whose locations are grouped by
// institution (shape.Field.Group): an array of institutions, each holding
// its values and an array of its locations found (ArrayOfBank/Bank{@id,
// Name, Atms/Atm}). The group's values are matched with the JSON answers'
// institution values of its first location, its locations with the JSON
// answers' locations put in the groups' order (each institution's
// together, the institutions in the order learned, group_order.go).

import (
	"slices"
	"strings"

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

// jsonGroups returns the keys of the groups of a JSON answer's
// locations (by institution.id) in the order of their first location,
// and each one's locations.
func jsonGroups(locs []jsonLocation) ([]groupKey, [][]jsonLocation) {
	var keys []groupKey
	var members [][]jsonLocation
	at := map[string]int{}
	for i, x := range locs {
		id := x.values["institution.id"]
		g, ok := at[id]
		if !ok {
			g = len(keys)
			at[id] = g
			name, hasName := x.values["institution.name"]
			keys = append(keys, groupKey{first: i, id: id, name: name, hasID: true, hasName: hasName})
			members = append(members, nil)
		}
		members[g] = append(members[g], x)
	}
	return keys, members
}

// inGroups returns the JSON locations in the order of their groups (by
// institution.id, the groups in order by, a shape.GroupOrders value), and
// the size of each group.
func inGroups(locs []jsonLocation, by string) ([]jsonLocation, []int) {
	keys, members := jsonGroups(locs)
	seq, _ := sortKeys(keys, by)
	var out []jsonLocation
	var sizes []int
	for _, g := range seq {
		out = append(out, members[g]...)
		sizes = append(sizes, len(members[g]))
	}
	return out, sizes
}

// recordedOrder is the evidence of the order of the groups of an answer
// (grecs, the groups' records, of sizes locations each) whose JSON form
// lists locs: each group told apart by an institution value of the JSON
// answer that the group holds and no other institution of it has (its
// id, its name), and as many locations; where a group cannot be told
// apart so, the orders whose groups' sizes are the answer's.
func recordedOrder(where string, grecs []record, sizes []int, locs []jsonLocation) groupOrderOf {
	keys, members := jsonGroups(locs)
	out := groupOrderOf{where: where}
	// What tells each institution apart: its values no other one has.
	owner := map[string]int{} // value -> group, -1 when shared
	for g, m := range members {
		for k, v := range m[0].values {
			if !strings.HasPrefix(k, "institution.") || v == "" {
				continue
			}
			if o, ok := owner[v]; ok && o != g {
				owner[v] = -1
			} else {
				owner[v] = g
			}
		}
	}
	used := map[int]bool{}
	for i, rec := range grecs {
		who := map[int]bool{}
		for _, vs := range rec {
			for _, v := range vs {
				if g, ok := owner[v]; ok && g >= 0 && !used[g] && len(members[g]) == sizes[i] {
					who[g] = true
				}
			}
		}
		if len(who) != 1 {
			out.keys = nil
			break
		}
		for g := range who {
			used[g] = true
			out.keys = append(out.keys, keys[g])
		}
	}
	if out.keys == nil || len(out.keys) != len(keys) {
		out.keys = nil
		for _, by := range shape.GroupOrders {
			if _, want := inGroups(locs, by); sameSizes(sizes, want) {
				out.bySize = append(out.bySize, by)
			}
		}
	}
	return out
}

// matchGroups maps a grouped location result: its own values, its groups'
// (institution values) and its locations', learning the order of its
// groups (learnGroupOrder).
func (l *learner) matchGroups(g *group) {
	type answer struct {
		top         record
		grecs, recs []record
		sizes       []int
		j           *jsonAnswer
	}
	var answers []answer
	var evidence []groupOrderOf
	for _, c := range g.contents {
		if l.stopped() {
			return
		}
		top, grecs, recs, sizes := l.groupInstances(g, c)
		j := l.jsons[c.sample.Op+"\x00"+c.sample.Query]
		answers = append(answers, answer{top, grecs, recs, sizes, j})
		if j != nil {
			evidence = append(evidence, recordedOrder(c.sample.Where, grecs, sizes, j.items))
		}
	}
	order := l.learnGroupOrder(g.root.name+"/"+g.grp.name, evidence)
	if order != shape.GroupByFirst {
		g.grp.groupOrder = order
	}
	var tops, groups, items []pair
	for _, a := range answers {
		if a.j == nil {
			tops = append(tops, pair{rec: a.top})
			for _, r := range a.grecs {
				groups = append(groups, pair{rec: r})
			}
			for _, r := range a.recs {
				items = append(items, pair{rec: r})
			}
			continue
		}
		tops = append(tops, pair{rec: a.top, values: a.j.top})
		locs, want := inGroups(a.j.items, order)
		if !sameSizes(a.sizes, want) {
			continue // refused (learnGroupOrder)
		}
		at := 0
		for i, r := range a.grecs {
			groups = append(groups, pair{rec: r, values: locs[at].values})
			at += a.sizes[i]
		}
		for i, r := range a.recs {
			items = append(items, pair{rec: r, values: locs[i].values, langs: nonNil(locs[i].languages)})
		}
	}
	l.matchScope(scopeLeaves(g.root, ""), shape.ScopeLocations, tops, typeNames(g.root), true)
	l.matchScope(scopeLeaves(g.grp, ""), shape.ScopeGroup, groups, typeNames(g.grp), true)
	l.matchScope(scopeLeaves(g.item, ""), shape.ScopeLocation, items, typeNames(g.item), true)
}

// sameSizes reports whether a and b hold the same sizes.
func sameSizes(a, b []int) bool {
	return slices.Equal(a, b)
}

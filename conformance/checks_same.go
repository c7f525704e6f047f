package conformance

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// sameAsAllAtms checks the document's "All search operations return the
// same location node as ReturnAllAtms": each location node of r (a search's
// HTTP GET result) holds the values of the ReturnAllAtms node of the same
// id (allLocs), leaf by leaf, in order; the rows a DataSet relates to it
// (relatedRows) count as its own. A leaf that holds the node's position in
// its result (the index: the JSON index, "position in the array", in XML),
// in both results or in the one that holds it, is no value of the location
// and is left out; a DataSet's bookkeeping (row ids and orders, hidden
// keys) is none either (leaves).
func sameAsAllAtms(f *Facts, r *resultNode, allLocs []located) *Failure {
	locs := resultLocations(f, r)
	if len(locs) == 0 {
		return nil
	}
	allByID := map[string]located{}
	for _, l := range allLocs {
		allByID[l.id] = l
	}
	// A position leaf both results hold, or one of them alone (an index
	// written in the searches' results only).
	inSearch, inAll := positional(locs), positional(allLocs)
	skip := map[string]bool{}
	for p := range inSearch {
		if inAll[p] || !holds(allLocs, p) {
			skip[p] = true
		}
	}
	for p := range inAll {
		if !holds(locs, p) {
			skip[p] = true
		}
	}
	op := r.X.Request.Op
	for i, l := range locs {
		a, ok := allByID[l.id]
		if !ok {
			continue // checkAllAtms names it
		}
		want := byPath(a.leaves, skip)
		got := byPath(l.leaves, skip)
		if d := diffValues(got, want); d != "" {
			return &Failure{
				What:      fmt.Sprintf("%s: location node %d (id %s)", op, i+1, l.id[2:]),
				Expected:  "the same location node as ReturnAllAtms's of that id (the document: all search operations return the same location node as ReturnAllAtms), its position aside",
				Got:       printablef(r.X.masks(), "%s", d),
				Exchanges: []*Exchange{r.X, a.x},
			}
		}
	}
	return nil
}

// located is a location node of a result: its id (norm), its values
// and the exchange that gave it.
type located struct {
	id     string
	leaves []leaf
	x      *Exchange
}

// resultLocations lists the location nodes of a result, with their ids
// (by the learned id leaf) and values.
func resultLocations(f *Facts, r *resultNode) []located {
	related := relatedRows(r.Root)
	var out []located
	for _, e := range f.xmlLocations(r.Root) {
		id, _ := xmlField(e, f.Fields["id"])
		out = append(out, located{norm(id), locationLeaves(e, related), r.X})
	}
	return out
}

// positional returns the paths that hold, in every location node of a
// result and once in each, its position: 0, 1, 2, … or 1, 2, 3, ….
func positional(locs []located) map[string]bool {
	out := map[string]bool{}
	if len(locs) == 0 {
		return out
	}
	for _, first := range locs[0].leaves {
		for _, start := range []int{0, 1} {
			ok := true
			for i, l := range locs {
				n := 0
				for _, lf := range l.leaves {
					if lf.Path != first.Path {
						continue
					}
					if n++; strings.TrimSpace(lf.Value) != strconv.Itoa(start+i) {
						ok = false
					}
				}
				if n != 1 {
					ok = false
				}
				if !ok {
					break
				}
			}
			if ok {
				out[first.Path] = true
			}
		}
	}
	return out
}

// holds reports whether some location node of locs has a value at path.
func holds(locs []located, path string) bool {
	for _, l := range locs {
		for _, lf := range l.leaves {
			if lf.Path == path {
				return true
			}
		}
	}
	return false
}

// byPath groups a node's values (as written) by path, in document order,
// paths in skip left out.
func byPath(ls []leaf, skip map[string]bool) map[string][]string {
	m := map[string][]string{}
	for _, l := range ls {
		if !skip[l.Path] {
			m[l.Path] = append(m[l.Path], l.Raw)
		}
	}
	return m
}

// diffValues describes the first path whose values differ between a
// search's node (got) and ReturnAllAtms's (want), or "".
func diffValues(got, want map[string][]string) string {
	paths := make([]string, 0, len(got)+len(want))
	for p := range got {
		paths = append(paths, p)
	}
	for p := range want {
		if _, ok := got[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	for _, p := range paths {
		g, w := got[p], want[p]
		if slices.Equal(g, w) {
			continue
		}
		switch {
		case len(w) == 0:
			return fmt.Sprintf("%s = %s, which ReturnAllAtms's node does not hold", p, quoteAll(g))
		case len(g) == 0:
			return fmt.Sprintf("no %s, which ReturnAllAtms's node holds (%s)", p, quoteAll(w))
		}
		return fmt.Sprintf("%s = %s; ReturnAllAtms's node: %s", p, quoteAll(g), quoteAll(w))
	}
	return ""
}

func quoteAll(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

package learn

// This file maps the leaves of each content's result onto atmkit's values:
// locations against the JSON answers of the same query, institutions by
// the ids the JSON answers show and by the locations' institution type,
// provinces by their codes and names.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/shape"
)

// typeNames gives the complexType name of each container by path, from the WSDL.
func typeNames(root *node) map[string]string {
	out := map[string]string{}
	for _, k := range root.kids {
		k.walk(k.label(), func(x *node, at string) {
			if x.typeName != "" {
				out[at] = x.typeName
			}
		})
	}
	return out
}

// matchLocations maps a location result and its items.
func (l *learner) matchLocations(g *group) {
	var tops, items []pair
	for _, c := range g.contents {
		if l.stopped() {
			return
		}
		top, recs := l.instances(g, c)
		j := l.jsons[c.sample.Op+"\x00"+c.sample.Query]
		if j == nil {
			tops = append(tops, pair{rec: top})
			for _, r := range recs {
				items = append(items, pair{rec: r})
			}
			continue
		}
		tops = append(tops, pair{rec: top, values: j.top})
		if len(recs) != len(j.items) {
			l.note("%s: %d locations in XML, %d in the JSON answer to the same query: not compared", c.sample.Where, len(recs), len(j.items))
			continue
		}
		for i, r := range recs {
			items = append(items, pair{rec: r, values: j.items[i].values, langs: nonNil(j.items[i].languages)})
		}
	}
	l.matchScope(scopeLeaves(g.root, ""), shape.ScopeLocations, tops, typeNames(g.root), true)
	if g.item != nil {
		l.matchScope(scopeLeaves(g.item, ""), shape.ScopeLocation, items, typeNames(g.item), true)
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// jsonInstitutions gathers the institutions the JSON answers show, by id.
func (l *learner) jsonInstitutions() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, j := range l.jsons {
		for _, it := range j.items {
			id := it.values["institution.id"]
			if id == "" {
				continue
			}
			out[id] = map[string]string{"id": id, "name": it.values["institution.name"], "url": it.values["institution.url"],
				"isAtlanticCreditUnion": it.values["institution.isAtlanticCreditUnion"]}
		}
	}
	return out
}

// matchInstitutions maps the institutions list's items: by value against
// the institutions the JSON answers show, then as the same type as the
// locations' institution, then by name.
func (l *learner) matchInstitutions(g *group) {
	if g.item == nil {
		return
	}
	leaves := scopeLeaves(g.item, "")
	var recs []record
	for _, c := range g.contents {
		_, rs := l.instances(g, c)
		recs = append(recs, rs...)
	}
	pairs := l.institutionPairs(leaves, recs)
	l.matchCount(g, shape.ScopeInstitutions)
	l.matchScope(leaves, shape.ScopeInstitution, pairs, typeNames(g.item), false)
	l.sameTypeAsLocations(g, leaves, "institution.")
	l.matchScope(leaves, shape.ScopeInstitution, nil, typeNames(g.item), true)
}

// institutionPairs pairs records of institutions with the institutions
// the JSON answers show, joined by the leaf holding their ids: the one
// whose joined institutions' names and addresses appear in the records.
func (l *learner) institutionPairs(leaves []leafAt, recs []record) []pair {
	known := l.jsonInstitutions()
	var join *node
	best := 0
	for _, lf := range leaves {
		score := 0
		for _, r := range recs {
			t := r[lf.n]
			if len(t) == 0 {
				continue
			}
			inst := known[strings.TrimSpace(t[0])]
			if inst == nil {
				continue
			}
			for _, other := range leaves {
				if o := r[other.n]; other.n != lf.n && len(o) > 0 && o[0] != "" && (o[0] == inst["name"] || o[0] == inst["url"]) {
					score++
				}
			}
		}
		if score > best {
			join, best = lf.n, score
		}
	}
	var pairs []pair
	if join != nil {
		for _, r := range recs {
			if t := r[join]; len(t) > 0 {
				if v := known[strings.TrimSpace(t[0])]; v != nil {
					pairs = append(pairs, pair{rec: r, values: v})
				}
			}
		}
	}
	return pairs
}

// sameTypeAsLocations maps the leaves of a reference list's item like the
// locations' container of the same type (or the same element names): an
// institutions item typed Institution like the location's <Bank>.
func (l *learner) sameTypeAsLocations(g *group, leaves []leafAt, prefix string) {
	for _, lg := range l.groups {
		if lg.content != shape.Locations || lg.item == nil {
			continue
		}
		var cont *node
		lg.item.walk("", func(x *node, _ string) {
			if cont != nil || x.isLeaf() || x == lg.item {
				return
			}
			if g.item.typeName != "" && x.typeName == g.item.typeName || sameNames(x, g.item) {
				cont = x
			}
		})
		if cont == nil {
			continue
		}
		used := map[string]bool{}
		for _, lf := range leaves {
			if lf.n.value != "" {
				used[lf.n.value] = true
			}
		}
		for _, lf := range leaves {
			if lf.n.value != "" {
				continue
			}
			k := cont.child(lf.n.name, lf.n.attr)
			if k == nil || !strings.HasPrefix(k.value, prefix) {
				continue
			}
			v := strings.TrimPrefix(k.value, prefix)
			if used[v] {
				continue
			}
			lf.n.value, used[v] = v, true
			lf.n.evidence = fmt.Sprintf("the same type as the locations' <%s>, whose <%s> holds %s", cont.name, k.name, k.value)
			lf.n.guessed = k.guessed
		}
	}
}

func sameNames(a, b *node) bool {
	if len(a.kids) != len(b.kids) || len(a.kids) == 0 {
		return false
	}
	for i := range a.kids {
		if a.kids[i].name != b.kids[i].name || a.kids[i].attr != b.kids[i].attr {
			return false
		}
	}
	return true
}

var provinceCode = regexp.MustCompile(`^[A-Z]{2}$`)

// mapProvinces maps a province's code and name among leaves, by their
// texts (which the answers read have filled).
func (l *learner) mapProvinces(leaves []leafAt) {
	seen := map[string]bool{}
	for _, j := range l.jsons {
		for _, it := range j.items {
			if p := it.values["address.province"]; p != "" {
				seen[p] = true
			}
		}
	}
	var code *node
	bestOverlap := -1
	for _, lf := range leaves {
		if len(lf.n.texts) == 0 || lf.n.typ != "string" && lf.n.fromWSDL {
			continue
		}
		all, overlap := true, 0
		for _, t := range lf.n.texts {
			if !provinceCode.MatchString(t) {
				all = false
			}
			if seen[t] {
				overlap++
			}
		}
		if all && overlap > bestOverlap {
			code, bestOverlap = lf.n, overlap
		}
	}
	if code != nil {
		code.value = "code"
		if bestOverlap > 0 {
			code.evidence = fmt.Sprintf("two-letter codes, %d of them provinces of the recorded locations", bestOverlap)
		} else {
			code.evidence, code.guessed = "two-letter codes (no location to compare with)", true
		}
	}
	// The name: the leaf of words whose values are most often names of the
	// provinces atmkit knows (a capital city's are words too), else the
	// leaf of words named best.
	var name *node
	known, bestKnown := provinceNames(), 0
	for _, lf := range leaves {
		if lf.n == code || len(lf.n.texts) == 0 || lf.n.typ != "string" {
			continue
		}
		words, names := true, 0
		for _, t := range lf.n.texts {
			if !strings.ContainsFunc(t, func(r rune) bool { return r >= 'a' && r <= 'z' }) {
				words = false
			}
			if known[strings.ToLower(strings.TrimSpace(t))] {
				names++
			}
		}
		if !words {
			continue
		}
		if names > bestKnown || names == bestKnown && (name == nil || nameScore(lf.at, "name", nil) > nameScore(name.name, "name", nil)) {
			name, bestKnown = lf.n, names
		}
	}
	switch {
	case name != nil && bestKnown > 0:
		name.value = "name"
		name.evidence = fmt.Sprintf("words, %d of the %d read names of provinces in atmkit's data set", bestKnown, len(name.texts))
	case name != nil:
		name.value = "name"
		name.evidence, name.guessed = "values are words (province names), no JSON form to compare", true
	}
}

// provinceNames are the names of the provinces of atmkit's embedded data
// set, lower case.
var provinceNames = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	ds, err := fixtures.Default()
	if err != nil {
		return out // the name is then told by its leaf's name, as before
	}
	for _, p := range ds.Provinces {
		out[strings.ToLower(p.Name)] = true
	}
	return out
})

// matchProvinces maps the provinces list's items. There is no JSON form of
// ReturnProvinces: the code is the leaf of two capital letters (the more
// so when the locations' provinces are among them), the name the leaf of
// words that are most often names of provinces atmkit knows; then by name.
func (l *learner) matchProvinces(g *group) {
	if g.item == nil {
		return
	}
	leaves := scopeLeaves(g.item, "")
	for _, c := range g.contents {
		l.instances(g, c) // the leaves' texts
	}
	l.mapProvinces(leaves)
	l.matchScope(leaves, shape.ScopeProvince, nil, typeNames(g.item), true)
	l.matchCount(g, shape.ScopeProvinces)
}

// matchCount maps the result's own leaves of a reference list (say a
// count attribute on its root) on its values: the number of items each
// answer lists.
func (l *learner) matchCount(g *group, scope shape.Scope) {
	var pairs []pair
	for _, c := range g.contents {
		top, items := l.instances(g, c)
		pairs = append(pairs, pair{rec: top, values: map[string]string{"count": strconv.Itoa(len(items))}})
	}
	l.matchScope(scopeLeaves(g.root, ""), scope, pairs, typeNames(g.root), false)
}

package verify

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"github.com/atmkit/atmkit/internal/wire"
)

// The structure of two trees is compared on their shapes: each node's
// name, namespace, type and attributes, the items of a list merged into
// one. A child is aligned with its counterpart by key, in order, so that a
// rename, an addition, a removal or a move is reported where it happened.

// vshape is the structure of a node: for a list, of all its items merged.
type vshape struct {
	name, space string
	key         string // aligns shapes: the name (with @name in a WSDL or schema)
	typ         string
	attrs       []vattr // value varies when the items disagree
	kids        []*vshape
	n           int // nodes merged into the shape (the items of a list)
	seen        int // of the parent's n nodes, how many have this child
}

// optional reports whether kid, a child shape of parent, is missing from
// some of parent's items (an element XmlSerializer leaves out when null).
func optional(kid, parent *vshape) bool { return kid.seen < parent.n }

// repeated reports whether a shape is a list: more items than parents.
func repeated(s *vshape) bool { return s.n > s.seen }

// varies marks an attribute whose value differs between merged items.
const varies = "\x00varies"

// treeCmp compares two trees of one kind.
type treeCmp struct {
	c           *comparison
	json        bool
	descriptive bool // a WSDL, schema or discovery document: no lists; attributes are structure
	// gone holds the shape paths of elements reported removed or added, so
	// the values they take along are not reported again.
	gone map[string]bool
}

// structural reports a Removed or Added child of the shape at path.
func (t *treeCmp) structural(path string, d Difference) {
	t.c.add(d)
	t.markGone(path, d.Recorded+d.Live)
}

// markGone notes that the child key of the shape at path is reported as
// removed, added or renamed.
func (t *treeCmp) markGone(path, key string) {
	if t.gone == nil {
		t.gone = map[string]bool{}
	}
	t.gone[t.childPath(path, key)] = true
}

// compareTrees compares a recorded tree with a live one: their structure,
// then (unless ignored) their values. An XML schema inside an answer (a
// DataSet's inline xs:schema) is compared as a schema document is: its
// attributes (names, types, occurrences) are structure.
func (c *comparison) compareTrees(r, l *vnode, isJSON bool) {
	if !isJSON && !isDescriptive(r) {
		var rs, ls []inlineSchema
		r, rs = withoutSchemas(r, "")
		l, ls = withoutSchemas(l, "")
		c.compareSchemas(rs, ls)
	}
	t := &treeCmp{c: c, json: isJSON, descriptive: !isJSON && isDescriptive(r)}
	rs, ls := t.shapeOf(r), t.shapeOf(l)
	path := "$"
	if !isJSON {
		path = "/" + rs.key
		switch {
		case rs.key != ls.key:
			c.add(Difference{Path: "/", Change: Renamed, Recorded: rs.key, Live: ls.key})
		case rs.space != ls.space:
			c.add(Difference{Path: path, Change: NamespaceChanged, Recorded: rs.space, Live: ls.space})
		}
	}
	t.compareShape(path, rs, ls, nsMoves{rs.space: ls.space})
	if !c.ignoreValues {
		t.compareValues(path, r, l)
	}
}

// inlineSchema is an xs:schema element inside an answer, and its path.
type inlineSchema struct {
	path string
	n    *vnode
}

// withoutSchemas returns n without the xs:schema elements below it (the
// nodes on their way copied, n left as it is) and those schemas, with
// their paths (parent is n's parent's path).
func withoutSchemas(n *vnode, parent string) (*vnode, []inlineSchema) {
	path := parent + "/" + n.name
	var found []inlineSchema
	var kids []*vnode
	for i, k := range n.kids {
		if k.space == nsXSD && k.name == "schema" {
			if kids == nil {
				kids = append([]*vnode{}, n.kids[:i]...)
			}
			found = append(found, inlineSchema{path + "/" + k.name, k})
			continue
		}
		nk, more := withoutSchemas(k, path)
		if nk != k && kids == nil {
			kids = append([]*vnode{}, n.kids[:i]...)
		}
		if kids != nil {
			kids = append(kids, nk)
		}
		found = append(found, more...)
	}
	if kids == nil {
		return n, found
	}
	cp := *n
	cp.kids = kids
	return &cp, found
}

// compareSchemas compares the inline schemas of a recorded answer with a
// live one's, aligned by path and order, as schema documents.
func (c *comparison) compareSchemas(rs, ls []inlineSchema) {
	for i, r := range rs {
		if i >= len(ls) || ls[i].path != r.path {
			c.add(Difference{Path: path.Dir(r.path), Change: Removed, Recorded: "schema"})
			continue
		}
		t := &treeCmp{c: c, descriptive: true}
		a, b := t.shapeOf(r.n), t.shapeOf(ls[i].n)
		t.compareShape(r.path, a, b, nsMoves{a.space: b.space})
	}
	for i := len(rs); i < len(ls); i++ {
		c.add(Difference{Path: path.Dir(ls[i].path), Change: Added, Live: "schema"})
	}
}

// isDescriptive reports whether the root is a WSDL, an XML schema or a
// discovery document, whose attributes are names and types.
func isDescriptive(root *vnode) bool {
	switch {
	case root.space == nsWSDL && root.name == "definitions",
		root.space == nsXSD && root.name == "schema",
		root.space == nsDisco && root.name == "discovery":
		return true
	}
	return false
}

// keyOf is how a node is aligned with its counterpart and written in paths.
func (t *treeCmp) keyOf(n *vnode) string {
	if t.descriptive {
		for _, a := range n.attrs {
			if a.name == "name" && a.space == "" {
				return n.name + "[@name='" + a.value + "']"
			}
		}
	}
	return n.name
}

// runs groups XML siblings: each run holds same-named elements in a row
// (the items of a list). In a WSDL or schema each element is its own run.
func (t *treeCmp) runs(kids []*vnode) [][]*vnode {
	var out [][]*vnode
	for _, k := range kids {
		if n := len(out); n > 0 && !t.descriptive && !t.json {
			last := out[n-1][0]
			if last.name == k.name && last.space == k.space {
				out[n-1] = append(out[n-1], k)
				continue
			}
		}
		out = append(out, []*vnode{k})
	}
	return out
}

func (t *treeCmp) shapeOf(n *vnode) *vshape {
	s := &vshape{name: n.name, space: n.space, key: t.keyOf(n), typ: typeOf(n), attrs: append([]vattr(nil), n.attrs...), n: 1, seen: 1}
	switch n.kind {
	case vArray:
		if len(n.kids) > 0 {
			items := make([]*vshape, len(n.kids))
			for k, kid := range n.kids {
				items[k] = t.shapeOf(kid)
			}
			item := t.mergeAll(items)
			item.key, item.seen = itemKey, 1
			s.kids = []*vshape{item}
		}
	case vObject:
		for _, k := range n.kids {
			s.kids = append(s.kids, t.shapeOf(k))
		}
	case vElement:
		for _, run := range t.runs(n.kids) {
			items := make([]*vshape, len(run))
			for k, kid := range run {
				items[k] = t.shapeOf(kid)
			}
			m := t.mergeAll(items)
			m.seen = 1
			s.kids = append(s.kids, m)
		}
	}
	return s
}

// mergeAll merges shapes, the items of a list, into the first and returns
// it: its type, count and attributes take in each item's, and each child
// of an item merges into the child of the same key (the first), or, when
// there is none, goes right after the child before it (first when none
// is). All items are merged at once, in a list linked by index, so that
// n items of n distinct children take time in n, not n squared.
func (t *treeCmp) mergeAll(items []*vshape) *vshape {
	a := items[0]
	if len(items) == 1 {
		return a
	}
	type attrKey struct{ name, space string }
	attrAt := make(map[attrKey]int, len(a.attrs))
	for k, x := range a.attrs {
		if _, dup := attrAt[attrKey{x.name, x.space}]; !dup {
			attrAt[attrKey{x.name, x.space}] = k
		}
	}
	type shapeKey struct{ key, space string }
	type node struct {
		shapes []*vshape // merged into the first
		next   int       // the node after; -1 ends
	}
	nodes := make([]node, 0, len(a.kids))
	byKey := make(map[shapeKey]int, len(a.kids))
	for k, ak := range a.kids {
		nodes = append(nodes, node{shapes: []*vshape{ak}, next: k + 1})
		if _, dup := byKey[shapeKey{ak.key, ak.space}]; !dup {
			byKey[shapeKey{ak.key, ak.space}] = k
		}
	}
	head := -1
	if len(nodes) > 0 {
		head, nodes[len(nodes)-1].next = 0, -1
	}
	for _, b := range items[1:] {
		a.typ = mergeType(a.typ, b.typ, t.json)
		a.n += b.n
		for _, ba := range b.attrs {
			if k, ok := attrAt[attrKey{ba.name, ba.space}]; ok {
				if a.attrs[k].value != ba.value {
					a.attrs[k].value = varies
				}
				continue
			}
			attrAt[attrKey{ba.name, ba.space}] = len(a.attrs)
			a.attrs = append(a.attrs, ba)
		}
		pos := -1
		for _, bk := range b.kids {
			if k, ok := byKey[shapeKey{bk.key, bk.space}]; ok {
				nodes[k].shapes = append(nodes[k].shapes, bk)
				pos = k
				continue
			}
			n := len(nodes)
			byKey[shapeKey{bk.key, bk.space}] = n
			if pos < 0 {
				nodes, head = append(nodes, node{shapes: []*vshape{bk}, next: head}), n
			} else {
				nodes = append(nodes, node{shapes: []*vshape{bk}, next: nodes[pos].next})
				nodes[pos].next = n
			}
			pos = n
		}
	}
	a.kids = make([]*vshape, 0, len(nodes))
	for k := head; k >= 0; k = nodes[k].next {
		seen := 0
		for _, s := range nodes[k].shapes {
			seen += s.seen
		}
		m := t.mergeAll(nodes[k].shapes)
		m.seen = seen
		a.kids = append(a.kids, m)
	}
	return a
}

func findAttr(attrs []vattr, a vattr) int {
	for k, x := range attrs {
		if x.name == a.name && x.space == a.space {
			return k
		}
	}
	return -1
}

// attrLabel writes an attribute's name as paths show it.
func attrLabel(a vattr) string {
	switch a.space {
	case "":
		return a.name
	case nsXSI:
		return "xsi:" + a.name
	}
	return "{" + a.space + "}" + a.name
}

// bookkeeping reports whether an attribute says nothing of a result's
// structure: a DataSet's row bookkeeping (diffgr:, msdata:) and xsi
// attributes but xsi:type. Their values are still compared.
func bookkeeping(a vattr) bool {
	switch a.space {
	case nsDiffgram, nsMSData:
		return true
	case nsXSI:
		return a.name != "type"
	}
	return false
}

// structuralValue reports whether an attribute's value is structure: every
// attribute of a WSDL or schema, and xsi:type.
func (t *treeCmp) structuralValue(a vattr) bool {
	return t.descriptive || (a.space == nsXSI && a.name == "type")
}

// sameAttrValue compares attribute values; in a WSDL or discovery
// document an absolute URL (soap:address location, a reference) is
// compared by its path from the service path on and its query only, as
// its host and base path are where the document was fetched from (a
// cassette recorded from staging below /atm verifies against production
// at the root, as requests are sent).
func (t *treeCmp) sameAttrValue(a, b string) bool {
	if a == b {
		return true
	}
	if t.descriptive {
		ua, ea := url.Parse(a)
		ub, eb := url.Parse(b)
		if ea == nil && eb == nil && ua.Host != "" && ub.Host != "" {
			return strings.EqualFold(servicePart(ua.Path), servicePart(ub.Path)) && ua.RawQuery == ub.RawQuery
		}
	}
	return false
}

// servicePart is the URL path u from the service path or the JSON path on
// (ignoring case), or all of it when it names neither.
func servicePart(u string) string {
	for _, p := range []string{asmx.ServicePath, asmx.JSONPath} {
		if k := wire.IndexFold(u, strings.ToLower(p)); k >= 0 {
			return u[k:]
		}
	}
	return u
}

func (t *treeCmp) childPath(path, key string) string {
	switch {
	case !t.json:
		return path + "/" + key
	case strings.HasPrefix(key, "["):
		return path + key
	}
	return path + "." + key
}

// nsMoves are the namespace changes reported above a shape: an element
// below that moved from the same namespace to the same other one is part
// of that change, not one of its own.
type nsMoves map[string]string

// namespace reports a namespace change of an aligned pair at path unless
// a parent's change covers it, and returns the moves for below.
func (t *treeCmp) namespace(path string, r, l *vshape, ns nsMoves) nsMoves {
	if r.space == l.space {
		return ns
	}
	if to, ok := ns[r.space]; ok && to == l.space {
		return ns
	}
	t.c.add(Difference{Path: path, Change: NamespaceChanged, Recorded: r.space, Live: l.space})
	out := nsMoves{r.space: l.space}
	for k, v := range ns {
		if k != r.space {
			out[k] = v
		}
	}
	return out
}

// compareShape compares the structure below two aligned shapes.
func (t *treeCmp) compareShape(path string, r, l *vshape, ns nsMoves) {
	if typeChanged(r.typ, l.typ, t.json) {
		t.c.add(Difference{Path: path, Change: TypeChanged, Recorded: r.typ, Live: l.typ})
		if isLeafType(r.typ) != isLeafType(l.typ) || t.json {
			return
		}
	}
	if r.typ == "empty" || l.typ == "empty" || r.typ == "null" || l.typ == "null" {
		return // nothing to compare below
	}
	for _, ra := range r.attrs {
		if bookkeeping(ra) {
			continue
		}
		k := findAttr(l.attrs, ra)
		switch {
		case k < 0:
			t.c.add(Difference{Path: path, Change: AttributeRemoved, Recorded: attrLabel(ra)})
		case t.descriptive && ra.name == "name" && ra.space == "":
			// part of the key: a change is a rename, reported above
		case t.structuralValue(ra) && ra.value != varies && l.attrs[k].value != varies && !t.sameAttrValue(ra.value, l.attrs[k].value):
			rv, lv := ra.text(), l.attrs[k].text()
			if rv == lv { // QNames written alike, bound to other namespaces
				rv, lv = ra.value, l.attrs[k].value
			}
			t.c.add(Difference{Path: path + "/@" + attrLabel(ra), Change: AttributeChanged, Recorded: recorded.Quote(rv), Live: recorded.Quote(lv)})
		}
	}
	for _, la := range l.attrs {
		if !bookkeeping(la) && findAttr(r.attrs, la) < 0 {
			t.c.add(Difference{Path: path, Change: AttributeAdded, Live: attrLabel(la)})
		}
	}
	if t.json && r.typ == "object" {
		t.compareMembers(path, r, l, ns)
		return
	}
	t.compareSequence(path, r, l, ns)
}

// missing reports whether a child shape absent from the other side says
// nothing of structure: it is missing from some items of its parent
// (optional, as XmlSerializer leaves out nulls), or it is a list, which
// the other side may have empty (a JSON array's items, even one).
func missing(kid, parent *vshape) bool {
	return optional(kid, parent) || repeated(kid) || kid.key == itemKey
}

// itemKey is the key of the shape of a JSON array's items.
const itemKey = "[*]"

// compareMembers compares the members of two JSON objects, whose order
// means nothing: by name; what is left is renamed in pairs, then added or
// removed.
func (t *treeCmp) compareMembers(path string, r, l *vshape, ns nsMoves) {
	used := make([]bool, len(l.kids))
	free := positions(l.kids)
	var removed []*vshape
	for _, rk := range r.kids {
		k := take(free, rk.key)
		if k < 0 {
			removed = append(removed, rk)
			continue
		}
		used[k] = true
		t.compareShape(t.childPath(path, rk.key), rk, l.kids[k], ns)
	}
	var added []*vshape
	for n, lk := range l.kids {
		if !used[n] {
			added = append(added, lk)
		}
	}
	t.gap(path, r, l, removed, added, ns)
}

// gap reports the unmatched children of one place: those that may be
// missing are left alone; the others pair up as renamed (and are compared
// below), the rest are removed or added.
func (t *treeCmp) gap(path string, r, l *vshape, removed, added []*vshape, ns nsMoves) {
	removed = slices.DeleteFunc(removed, func(s *vshape) bool { return missing(s, r) })
	added = slices.DeleteFunc(added, func(s *vshape) bool { return missing(s, l) })
	n := min(len(removed), len(added))
	for k := range n {
		t.c.add(Difference{Path: path, Change: Renamed, Recorded: removed[k].key, Live: added[k].key})
		t.markGone(path, removed[k].key)
		t.markGone(path, added[k].key)
		t.compareShape(t.childPath(path, added[k].key), removed[k], added[k], ns)
	}
	for _, s := range removed[n:] {
		t.structural(path, Difference{Path: path, Change: Removed, Recorded: s.key})
	}
	for _, s := range added[n:] {
		t.structural(path, Difference{Path: path, Change: Added, Live: s.key})
	}
}

// compareSequence compares ordered children: aligned by a longest common
// subsequence of their keys; an element missing from one place and found
// at another moved; what is left in each gap between aligned ones goes to
// gap.
func (t *treeCmp) compareSequence(path string, rp, lp *vshape, ns nsMoves) {
	r, l := rp.kids, lp.kids
	inR, inL := positions(r), positions(l)
	pairs := lcs(r, l)
	pairs = append(pairs, [2]int{len(r), len(l)})
	type gapped struct{ removed, added []*vshape }
	var gaps []gapped
	var elsewhereR, elsewhereL []*vshape // found at another place in the other list
	ri, li := 0, 0
	for _, p := range pairs {
		var g gapped
		for _, s := range r[ri:p[0]] {
			if len(inL[s.key]) > 0 {
				elsewhereR = append(elsewhereR, s)
			} else {
				g.removed = append(g.removed, s)
			}
		}
		for _, s := range l[li:p[1]] {
			if len(inR[s.key]) > 0 {
				elsewhereL = append(elsewhereL, s)
			} else {
				g.added = append(g.added, s)
			}
		}
		gaps = append(gaps, g)
		if p[0] < len(r) {
			rs, ls := r[p[0]], l[p[1]]
			cp := t.childPath(path, rs.key)
			t.compareShape(cp, rs, ls, t.namespace(cp, rs, ls, ns))
		}
		ri, li = p[0]+1, p[1]+1
	}
	used := make([]bool, len(elsewhereL))
	free := positions(elsewhereL)
	for _, rs := range elsewhereR {
		k := take(free, rs.key)
		if k < 0 {
			if !missing(rs, rp) {
				t.structural(path, Difference{Path: path, Change: Removed, Recorded: rs.key})
			}
			continue
		}
		used[k] = true
		t.c.add(Difference{Path: path, Change: Moved, Recorded: rs.key, Live: rs.key})
		cp := t.childPath(path, rs.key)
		t.compareShape(cp, rs, elsewhereL[k], t.namespace(cp, rs, elsewhereL[k], ns))
	}
	for k, ls := range elsewhereL {
		if !used[k] && !missing(ls, lp) {
			t.structural(path, Difference{Path: path, Change: Added, Live: ls.key})
		}
	}
	for _, g := range gaps {
		t.gap(path, rp, lp, g.removed, g.added, ns)
	}
}

// positions maps each key of list to its indexes in list, in order.
func positions(list []*vshape) map[string][]int {
	at := make(map[string][]int, len(list))
	for k, s := range list {
		at[s.key] = append(at[s.key], k)
	}
	return at
}

// take returns the first index of key left in free and removes it, or -1.
func take(free map[string][]int, key string) int {
	q := free[key]
	if len(q) == 0 {
		return -1
	}
	free[key] = q[1:]
	return q[0]
}

// lcs aligns two lists of shapes by key: the index pairs of a longest
// common subsequence. Very long lists are aligned greedily.
func lcs(r, l []*vshape) [][2]int {
	if len(r)*len(l) > 1<<18 {
		// Each of r to the first of its key in l after the last pair.
		at := positions(l)
		var out [][2]int
		j := 0
		for i, s := range r {
			ps := at[s.key]
			if n, _ := slices.BinarySearch(ps, j); n < len(ps) {
				out = append(out, [2]int{i, ps[n]})
				j = ps[n] + 1
			}
		}
		return out
	}
	// dp[i][j]: LCS length of r[i:] and l[j:].
	dp := make([][]int, len(r)+1)
	for i := range dp {
		dp[i] = make([]int, len(l)+1)
	}
	for i := len(r) - 1; i >= 0; i-- {
		for j := len(l) - 1; j >= 0; j-- {
			if r[i].key == l[j].key {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	var out [][2]int
	for i, j := 0, 0; i < len(r) && j < len(l); {
		switch {
		case r[i].key == l[j].key:
			out = append(out, [2]int{i, j})
			i++
			j++
		case dp[i+1][j] >= dp[i][j+1]:
			i++
		default:
			j++
		}
	}
	return out
}

package verify

import (
	"encoding/json"
	"regexp"
	"strconv"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
)

// The values of two trees are compared node by node: texts, attributes
// and JSON scalars, the items of a list one by one.

// itemIndex matches the item numbers of a value path ("location[2]").
var itemIndex = regexp.MustCompile(`\[[0-9]+\]`)

// compareValues compares the values of two aligned nodes and below: texts,
// attributes and JSON scalars, list items one by one.
func (t *treeCmp) compareValues(path string, r, l *vnode) {
	for _, ra := range r.attrs {
		if t.structuralValue(ra) {
			continue
		}
		if k := findAttr(l.attrs, ra); k >= 0 && ra.value != l.attrs[k].value && !numEqual(ra.value, l.attrs[k].value) {
			t.c.add(Difference{Path: path + "/@" + attrLabel(ra), Change: ValueChanged, Recorded: recorded.Quote(clip(ra.text())), Live: recorded.Quote(clip(l.attrs[k].text()))})
		}
	}
	switch {
	case t.json:
		t.compareJSONValues(path, r, l)
		return
	case r.text != l.text && !numEqual(r.text, l.text):
		t.c.add(Difference{Path: path, Change: ValueChanged, Recorded: recorded.Quote(clip(r.text)), Live: recorded.Quote(clip(l.text))})
	}
	lruns := map[string][][]*vnode{}
	for _, run := range t.runs(l.kids) {
		k := t.keyOf(run[0])
		lruns[k] = append(lruns[k], run)
	}
	seen := map[string]int{}
	for _, rrun := range t.runs(r.kids) {
		key := t.keyOf(rrun[0])
		occ := seen[key]
		seen[key]++
		if occ >= len(lruns[key]) {
			t.absent(path+"/"+key, rrun, true)
			continue
		}
		lrun := lruns[key][occ]
		if len(rrun) != len(lrun) {
			t.c.add(Difference{Path: path + "/" + key, Change: CountChanged, Recorded: strconv.Itoa(len(rrun)), Live: strconv.Itoa(len(lrun))})
		}
		many := len(rrun) > 1 || len(lrun) > 1
		for k := range min(len(rrun), len(lrun)) {
			cp := path + "/" + key
			if many {
				cp += "[" + strconv.Itoa(k+1) + "]"
			}
			t.compareValues(cp, rrun[k], lrun[k])
		}
	}
	for key, runs := range lruns {
		for _, lrun := range runs[min(seen[key], len(runs)):] {
			t.absent(path+"/"+key, lrun, false)
		}
	}
}

// absent reports the values of a run of elements one side lacks: how many
// items a list had (a single element with children is an item: its list
// is empty on the other side, or the element is a null left out), or the
// text of a single leaf. One reported removed or added is structure's.
func (t *treeCmp) absent(path string, run []*vnode, inRecording bool) {
	if t.gone[itemIndex.ReplaceAllString(path, "")] {
		return // reported as removed or added
	}
	var d Difference
	switch {
	case len(run) > 1 || len(run[0].kids) > 0:
		d = Difference{Path: path, Change: CountChanged, Recorded: strconv.Itoa(len(run)), Live: "0"}
	case len(run[0].kids) == 0 && run[0].text != "":
		d = Difference{Path: path, Change: ValueChanged, Recorded: recorded.Quote(clip(run[0].text)), Live: "absent"}
	default:
		return
	}
	if !inRecording {
		d.Recorded, d.Live = d.Live, d.Recorded
	}
	t.c.add(d)
}

func (t *treeCmp) compareJSONValues(path string, r, l *vnode) {
	switch {
	case r.kind == vObject && l.kind == vObject:
		free := map[string][]int{}
		for n, lk := range l.kids {
			free[lk.name] = append(free[lk.name], n)
		}
		for _, rk := range r.kids {
			if q := free[rk.name]; len(q) > 0 {
				free[rk.name] = q[1:]
				t.compareValues(t.childPath(path, rk.name), rk, l.kids[q[0]])
			}
		}
	case r.kind == vArray && l.kind == vArray:
		if len(r.kids) != len(l.kids) {
			t.c.add(Difference{Path: path, Change: CountChanged, Recorded: recorded.Plural(len(r.kids), "item"), Live: strconv.Itoa(len(l.kids))})
		}
		for k := range min(len(r.kids), len(l.kids)) {
			t.compareValues(path+"["+strconv.Itoa(k)+"]", r.kids[k], l.kids[k])
		}
	case r.kind >= vString && l.kind >= vString: // scalars
		same := r.kind == l.kind && (r.text == l.text || (r.kind == vNumber && numEqual(r.text, l.text)))
		if !same && (r.kind == l.kind || r.kind == vNull || l.kind == vNull) {
			t.c.add(Difference{Path: path, Change: ValueChanged, Recorded: jsonLiteral(r), Live: jsonLiteral(l)})
		}
	}
}

// jsonLiteral writes a JSON scalar as JSON does.
func jsonLiteral(n *vnode) string {
	if n.kind == vString {
		b, _ := json.Marshal(clip(n.text))
		return string(b)
	}
	return n.text
}

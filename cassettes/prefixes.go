package cassettes

import (
	"fmt"
	"slices"
	"strings"
)

// XmlTextWriter, which ASMX writes every XML answer with, names a prefix it
// must make up for a namespace d{depth}p{n}: the depth of the element that
// declares it (1 for the document's root) and its count on that element.
// Moved to another depth, as a re-wrapped result is (its content sits three
// levels deeper in a SOAP envelope than under a GET/POST root), such a
// prefix gets the name the writer gives it at its new depth.

// depth is an element's depth in its document: 1 for the root.
func (n *xnode) depth() int {
	d := 0
	for e := n; e != nil && e.kind == xElem; e = e.parent {
		d++
	}
	return d
}

// generatedPrefix splits a prefix XmlTextWriter made up, d{depth}p{n}.
func generatedPrefix(p string) (depth int, n string, ok bool) {
	rest, ok := strings.CutPrefix(p, "d")
	if !ok {
		return 0, "", false
	}
	d, n, ok := strings.Cut(rest, "p")
	if !ok || !isDigits(d) || !isDigits(n) || d[0] == '0' || n[0] == '0' {
		return 0, "", false
	}
	for _, c := range d {
		depth = depth*10 + int(c-'0')
		if depth > 1<<16 {
			return 0, "", false
		}
	}
	return depth, n, true
}

func isDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// shiftGenerated renames the prefixes XmlTextWriter made up in el's subtree
// (el included) as it names them when el's subtree sits shift levels deeper
// (shallower when negative): a prefix is renamed when every declaration of
// it in the subtree is on an element at the depth its name says. It returns
// el in a re-parsed copy of its document, or el itself when nothing is to
// be renamed.
func shiftGenerated(el *xnode, shift int) (*xnode, error) {
	if shift == 0 {
		return el, nil
	}
	rename := map[string]string{}
	keep := map[string]bool{}
	var collect func(e *xnode, depth int)
	collect = func(e *xnode, depth int) {
		for _, a := range e.attrs {
			p, decl := declPrefix(a.name)
			if !decl || p == "" {
				continue
			}
			d, n, ok := generatedPrefix(p)
			switch {
			case !ok:
			case d != depth || d+shift < 1:
				keep[p] = true
			default:
				rename[p] = fmt.Sprintf("d%dp%s", d+shift, n)
			}
		}
		for _, k := range e.kids {
			if k.kind == xElem {
				collect(k, depth+1)
			}
		}
	}
	collect(el, el.depth())
	for p := range keep {
		delete(rename, p)
	}
	if len(rename) == 0 {
		return el, nil
	}
	// Every renamed prefix must be free at its new name: a name already
	// used in the subtree would then mean two namespaces.
	used := map[string]bool{}
	var uses func(e *xnode)
	uses = func(e *xnode) {
		used[e.prefix()] = true
		for _, a := range e.attrs {
			if p, decl := declPrefix(a.name); decl {
				used[p] = true
			}
		}
		for _, k := range e.kids {
			if k.kind == xElem {
				uses(k)
			}
		}
	}
	uses(el)
	for _, to := range rename {
		if _, away := rename[to]; used[to] && !away {
			return el, nil
		}
	}

	type edit struct {
		at, n int
		with  string
	}
	var edits []edit
	prefixed := func(name string, at int) {
		if p, _, ok := strings.Cut(name, ":"); ok {
			if to, ok := rename[p]; ok {
				edits = append(edits, edit{at, len(p), to})
			}
		}
	}
	var walk func(e *xnode)
	walk = func(e *xnode) {
		prefixed(e.name, e.start+1)
		for _, a := range e.attrs {
			if p, decl := declPrefix(a.name); decl && p != "" {
				if to, ok := rename[p]; ok {
					edits = append(edits, edit{a.start + len("xmlns:"), len(p), to})
				}
				continue
			}
			prefixed(a.name, a.start)
			if p, ok := qnamePrefix(a.value); ok {
				if to, ok := rename[p]; ok {
					edits = append(edits, edit{a.end - 1 - len(a.value), len(p), to})
				}
			}
		}
		for _, k := range e.kids {
			if k.kind == xElem {
				walk(k)
			}
		}
		if !e.empty {
			prefixed(e.name, e.innerEnd+2)
		}
	}
	walk(el)
	slices.SortFunc(edits, func(a, b edit) int { return a.at - b.at })
	src := el.src
	out := make([]byte, 0, len(src)+len(edits)*2)
	last := 0
	for _, e := range edits {
		out = append(out, src[last:e.at]...)
		out = append(out, e.with...)
		last = e.at + e.n
	}
	out = append(out, src[last:]...)
	doc, err := parseXML(out)
	if err != nil {
		return nil, fmt.Errorf("rename the prefixes the writer made up: %w", err)
	}
	// Find el again by its path of element positions.
	var path []int
	for e := el; e.parent != nil && e.parent.kind == xElem; e = e.parent {
		path = append(path, slices.Index(e.parent.elements(), e))
	}
	n := doc.root()
	for k := len(path) - 1; k >= 0; k-- {
		n = n.elements()[path[k]]
	}
	return n, nil
}

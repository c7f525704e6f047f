package learn

// This file finds a result's content list (the element repeated for each
// location, institution or province) and reads an answer into records:
// the result's own and one per item of the list.

import (
	"strings"

	"github.com/beevik/etree"

	"github.com/atmkit/atmkit/shape"
)

// findList marks the content list of a group: the repeated element with
// the most values below it (locations), or the one repeated element
// (institutions, provinces).
func (l *learner) findList(g *group) {
	var best *node
	bestLeaves := -1
	var visit func(n *node)
	visit = func(n *node) {
		for _, k := range n.kids {
			if k.attr {
				continue
			}
			if k.repeated && !k.isLeaf() {
				leaves := 0
				k.walk("", func(x *node, _ string) {
					if x.isLeaf() {
						leaves++
					}
				})
				if leaves > bestLeaves {
					best, bestLeaves = k, leaves
				}
				continue
			}
			visit(k)
		}
	}
	visit(g.root)
	if best == nil && !l.answersEmpty(g) {
		// No answer held two items: the complex element with the most
		// values (of a location, more than a search point's two).
		var visit2 func(n *node)
		visit2 = func(n *node) {
			for _, k := range n.kids {
				if k.isLeaf() || k.attr {
					continue
				}
				if it := k.wrappedItem(); it == nil && len(k.kids) > 0 {
					leaves := 0
					k.walk("", func(x *node, _ string) {
						if x.isLeaf() {
							leaves++
						}
					})
					if leaves > bestLeaves && leaves >= minItemLeaves(g.content) {
						best, bestLeaves = k, leaves
					}
				}
				visit2(k)
			}
		}
		visit2(g.root)
		if best != nil {
			best.repeated = true
			l.guess("%s: <%s> is taken for the %s list's item: no answer held two of them", strings.Join(g.ops, ", "), best.name, g.content)
		}
	}
	if best == nil {
		return
	}
	best.list = string(g.content)
	if !best.guessed {
		best.evidence = "a repeated element"
		if best.fromWSDL {
			best.evidence = "maxOccurs unbounded in the WSDL"
		}
	}
	g.item = best
}

// instances collects records of a group's answers: per answer, the
// result's record and one per content list item, whose number it keeps
// in g.items.
func (l *learner) instances(g *group, c *content) (record, []record) {
	el := resultElement(c, g.layout)
	top := record{}
	var items []*etree.Element
	if !shape.WritesSearchPoint(c.sample.Op) {
		pointless(g.root, el, g.item)
	}
	collect(g.root, el, top, g.item, &items)
	var recs []record
	for _, it := range items {
		r := record{}
		g.item.sawDerived(it)
		collect(g.item, it, r, nil, nil)
		recs = append(recs, r)
	}
	if g.items == nil {
		g.items = map[*content]int{}
	}
	g.items[c] = len(recs)
	return top, recs
}

// collect fills rec with the texts of el, an instance of n; instances of
// stop (the content list's item) go to items instead.
func collect(n *node, el *etree.Element, rec record, stop *node, items *[]*etree.Element) {
	held := map[*node]bool{}
	for _, k := range n.kids {
		switch {
		case k.attr:
			if a := attrOf(el, k); a != nil {
				rec[k] = append(rec[k], a.Value)
				k.texts = append(k.texts, a.Value)
			} else {
				k.absent++
			}
		case k.text:
			t := el.Text()
			rec[k] = append(rec[k], t)
			k.texts = append(k.texts, t)
		}
	}
	for _, c := range el.ChildElements() {
		k := n.child(c.Tag, false)
		if k == nil || k.text {
			continue
		}
		held[k] = true
		if isNil(c) {
			k.nils++
		}
		switch {
		case k == stop:
			*items = append(*items, c)
		case k.isLeaf():
			t := c.Text()
			rec[k] = append(rec[k], t)
			k.texts = append(k.texts, t)
			k.sawXsiType(c)
		case k.repeated && k.list != "":
			// Another content list (a deployment nesting lists): not read.
		default:
			k.sawDerived(c)
			collect(k, c, rec, stop, items)
		}
	}
	for _, k := range n.kids {
		if !k.attr && !k.text && !k.repeated && !held[k] {
			k.absent++
		}
	}
}

// pointless counts, on the kids of n (not into the content list's item
// stop), the instances el holds in an answer of an operation that has no
// search point (node.noPoint).
func pointless(n *node, el *etree.Element, stop *node) {
	for _, k := range n.kids {
		if k.attr && attrOf(el, k) != nil {
			k.noPoint++
		}
	}
	for _, c := range el.ChildElements() {
		k := n.child(c.Tag, false)
		if k == nil || k.text || k == stop || k.repeated {
			continue
		}
		k.noPoint++
		if !k.isLeaf() {
			pointless(k, c, stop)
		}
	}
}

// isNil reports whether el is written null: xsi:nil="true".
func isNil(el *etree.Element) bool {
	for _, a := range el.Attr {
		if a.Key == "nil" && a.NamespaceURI() == nsXSI {
			return a.Value == "true" || a.Value == "1"
		}
	}
	return false
}

// minItemLeaves is the fewest values an element taken for an item of
// content must hold when no answer held two items: a province has a code
// and a name; a location more than a search point's latitude and
// longitude, which an answer with no location still holds.
func minItemLeaves(content shape.Content) int {
	if content == shape.Locations {
		return 3
	}
	return 2
}

// answersEmpty reports whether the JSON answers to the queries of g's
// every answer say it holds no item: then no XML element of theirs is one.
func (l *learner) answersEmpty(g *group) bool {
	if len(g.contents) == 0 {
		return false
	}
	for _, c := range g.contents {
		j := l.jsons[c.sample.Op+"\x00"+c.sample.Query]
		if j == nil || len(j.items) > 0 {
			return false
		}
	}
	return true
}

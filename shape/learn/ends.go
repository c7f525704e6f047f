package learn

// This file reads how a node result's answers end an element holding an
// empty value: a deployment that set the element's text to an empty
// string (InnerText = "") has .NET's XmlElement.WriteTo end it with
// WriteFullEndElement, <x></x> (over GET and POST, where XmlTextWriter
// indents, <x>, a line break and indentation, </x>); one that gave it no
// text writes <x />. The parsed answer does not tell the two apart, so
// the answer's bytes are read again (shape.Field.FullEnd).

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"

	"github.com/beevik/etree"
)

// emptyEnds adds to ends, for each element of c's answer that holds
// nothing but white space, whether the answer ends it with an end tag of
// its own (true) or writes it as an empty-element tag, <x /> (false). An
// answer whose bytes do not read as the parsed document does adds nothing.
func (c *content) emptyEnds(ends map[*etree.Element]bool) {
	body := c.sample.Body
	d := xml.NewDecoder(bytes.NewReader(body))
	// Offsets count the bytes as sent, whatever the declared encoding.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	var selfClosed []bool // by start tag, in document order
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return
		}
		if _, ok := tok.(xml.StartElement); ok {
			// Just after the start tag's >; an empty-element tag ends />.
			off := d.InputOffset()
			selfClosed = append(selfClosed, off >= 2 && off <= int64(len(body)) && body[off-2] == '/')
		}
	}
	var els []*etree.Element
	var walk func(e *etree.Element)
	walk = func(e *etree.Element) {
		els = append(els, e)
		for _, k := range e.ChildElements() {
			walk(k)
		}
	}
	walk(c.doc)
	if len(els) != len(selfClosed) {
		return
	}
	for i, e := range els {
		if len(e.ChildElements()) == 0 && strings.TrimSpace(e.Text()) == "" {
			ends[e] = !selfClosed[i]
		}
	}
}

// countEnds counts, into k, how the elements els that hold an empty value
// of k were ended (l.ends): with an end tag of their own, or as <x />.
func (l *learner) countEnds(k *node, els []*etree.Element) {
	for _, e := range els {
		if full, ok := l.ends[e]; ok && full {
			k.fullEnds++
		} else if ok {
			k.shortEnds++
		}
	}
}

// fullEnd reports whether the field of k, a value of the node result being
// built, ends its empty string with an end tag of its own: the answers
// wrote it so, and never as <x />.
func (l *learner) fullEnd(k *node) bool {
	return l.prefixes && k.fullEnds > 0 && k.shortEnds == 0
}

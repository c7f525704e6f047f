package mockserver

import (
	"slices"

	"github.com/atmkit/atmkit/shape"
)

// How a typed result's empty, null and absent values are compiled: an
// empty string's element (<Name />, a full end tag, xsi:nil, nothing),
// and the steps that a result with no search point skips.

// emptyEnd is how the element name, whose start tag (indented for depth)
// open is without its closing >, is written holding f's value when it is
// an empty string: <Name />, as XmlTextWriter ends an element given no
// text (an XmlElement that IsEmpty); for a value marked fullEnd, as it
// ends one whose text is an empty string (XmlElement.WriteTo's
// WriteFullEndElement after writing no text): the start tag closed, then
// the end tag, on a line of its own indented as the start tag where the
// result is indented, right after the start tag where it is not (SOAP:
// XmlTextWriter's Indent writes nothing under Formatting.None). A
// nillable value's empty string is a null: <Name xsi:nil="true" />; an
// omitEmpty value's is a null string XmlSerializer leaves out: nothing.
func (c *compiler) emptyEnd(f *shape.Field, open, name string, depth int) string {
	switch {
	case f.Nillable:
		return c.afterName(open, name, depth, nilAttr) + " />"
	case f.OmitEmpty:
		return ""
	}
	if f.FullEnd {
		return open + ">" + c.indent(depth) + "</" + name + ">"
	}
	return open + " />"
}

// nilAttr marks a null nillable element: XmlSerializer's
// WriteNullTagLiteral, the xsi prefix being the SOAP envelope's or the
// GET/POST root's.
const nilAttr = ` xsi:nil="true"`

// afterName returns open, the start tag (indented for depth) of the
// element name without its closing >, with attr written right after the
// name: before the namespace declarations, which XmlTextWriter writes
// after an element's attributes.
func (c *compiler) afterName(open, name string, depth int, attr string) string {
	at := len(c.indent(depth)) + 1 + len(name)
	return open[:at] + attr + open[at:]
}

// nilElement is how f, an element of a typed result written with prefix
// in ns at depth where the default namespace is inScope, is written when
// null: <Name xsi:nil="true" /> when it is nillable, else nothing (left
// out).
func (c *compiler) nilElement(f *shape.Field, prefix, ns, inScope string, depth int) []byte {
	if !f.Nillable {
		return nil
	}
	name, open := c.leafTag(f.Element, prefix, ns, inScope, depth)
	return []byte(c.afterName(open, name, depth, nilAttr) + " />")
}

// conditional makes the steps from start on depend on the search point: a
// result with none gets alt in their place.
func (c *compiler) conditional(start int, alt []byte) {
	body := slices.Clone(c.ops[start:])
	c.ops = append(c.ops[:start], op{kind: opIfPoint, skip: len(body), b: alt})
	c.ops = append(c.ops, body...)
}

// alwaysWritten returns copies of fields, the fields of a container of
// the search point marked always, each marked always too: written in
// every answer, its values 0 where the result has no search point.
func alwaysWritten(fields []*shape.Field) []*shape.Field {
	out := make([]*shape.Field, len(fields))
	for i, f := range fields {
		k := *f
		k.Always = true
		k.Fields = alwaysWritten(f.Fields)
		out[i] = &k
	}
	return out
}

// Package dsxml is the XML of System.Data.DataSet results as .NET writes
// them (DataSet.WriteXml with the schema, as a diffgram): the inline
// xs:schema of a shape.DataSet (Schema, the rules of .NET's XmlTreeGen in
// the WebService format), written as XmlTextWriter writes it (Append);
// reading an inline schema back into a shape.DataSet (ReadSchema); and
// comparing two schemas by structure (Canonical). The mock server writes
// the schema of its DataSet results with it, the learner reads the
// deployment's, and the conformance suite compares them.
package dsxml

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
)

// Namespaces of a DataSet's XML.
const (
	NSXSD      = "http://www.w3.org/2001/XMLSchema"
	NSMSData   = "urn:schemas-microsoft-com:xml-msdata"
	NSDiffgram = "urn:schemas-microsoft-com:xml-diffgram-v1"
	NSMSProp   = "urn:schemas-microsoft-com:xml-msprop"
)

// Node is an element of a schema as .NET builds it in an XmlDocument: its
// name and attributes as written (with their prefixes, namespace
// declarations among the attributes, in the order they are set), and its
// element children.
type Node struct {
	Name  string
	Attrs []Attr
	Kids  []*Node
	// Full writes the node without kids with an end tag of its own, as
	// .NET's schema writer writes an empty xs:extension.
	Full bool
}

// Attr is an attribute as written: its qualified name and value.
type Attr struct{ Name, Value string }

// el makes a node named name with attributes given as name, value pairs.
func el(name string, attrs ...string) *Node {
	n := &Node{Name: name}
	for i := 0; i+1 < len(attrs); i += 2 {
		n.Attrs = append(n.Attrs, Attr{attrs[i], attrs[i+1]})
	}
	return n
}

// set sets attribute name: in place if it is set already (as XmlElement's
// SetAttribute keeps its position), else at the end.
func (n *Node) set(name, value string) {
	for i := range n.Attrs {
		if n.Attrs[i].Name == name {
			n.Attrs[i].Value = value
			return
		}
	}
	n.Attrs = append(n.Attrs, Attr{name, value})
}

// attr is the value of n's attribute name, or "".
func (n *Node) attr(name string) string {
	for _, a := range n.Attrs {
		if a.Name == name {
			return a.Value
		}
	}
	return ""
}

// add appends kids to n and returns n.
func (n *Node) add(kids ...*Node) *Node {
	n.Kids = append(n.Kids, kids...)
	return n
}

// Append appends n as XmlTextWriter writes it: compact when indent is
// false; else every element on a line of its own (lines broken with CR LF,
// as .NET Framework's TextWriter.WriteLine does), each level two spaces
// deeper, starting with a line break and the indentation of depth (none
// for depth 0 when n starts the document's first line: pass depth -1).
// Elements without children are written <name ... />.
func Append(dst []byte, n *Node, depth int, indent bool) []byte {
	if indent && depth >= 0 {
		dst = append(dst, "\r\n"...)
		for range depth {
			dst = append(dst, "  "...)
		}
	}
	dst = append(dst, '<')
	dst = append(dst, n.Name...)
	for _, a := range n.Attrs {
		dst = append(dst, ' ')
		dst = append(dst, a.Name...)
		dst = append(dst, `="`...)
		dst = appendEscaped(dst, a.Value)
		dst = append(dst, '"')
	}
	if len(n.Kids) == 0 && !n.Full {
		return append(dst, " />"...)
	}
	dst = append(dst, '>')
	kid := depth + 1
	if depth < 0 {
		kid = 1
	}
	for _, k := range n.Kids {
		dst = Append(dst, k, kid, indent)
	}
	if indent {
		dst = append(dst, "\r\n"...)
		for range max(depth, 0) {
			dst = append(dst, "  "...)
		}
	}
	dst = append(dst, "</"...)
	dst = append(dst, n.Name...)
	return append(dst, '>')
}

// appendEscaped escapes an attribute value as XmlTextWriter does: &, <,
// > and the double quote.
func appendEscaped(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			dst = append(dst, "&amp;"...)
		case '<':
			dst = append(dst, "&lt;"...)
		case '>':
			dst = append(dst, "&gt;"...)
		case '"':
			dst = append(dst, "&quot;"...)
		case '\n':
			dst = append(dst, "&#xA;"...)
		case '\r':
			dst = append(dst, "&#xD;"...)
		case '\t':
			dst = append(dst, "&#x9;"...)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// maxDepth bounds the nesting ParseNode reads.
const maxDepth = 256

// ParseNode reads one element (a schema as a deployment writes it, say)
// into a Node, keeping prefixes and attribute order as written; text and
// comments are dropped.
func ParseNode(data []byte) (*Node, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	var stack []*Node
	var root *Node
	for {
		tok, err := dec.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("the schema does not parse: %w", err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root != nil && len(stack) == 0 {
				return nil, errors.New("more than one element")
			}
			if len(stack) >= maxDepth {
				return nil, fmt.Errorf("nested more than %d levels deep", maxDepth)
			}
			n := &Node{Name: qualified(t.Name)}
			for _, a := range t.Attr {
				n.Attrs = append(n.Attrs, Attr{qualified(a.Name), a.Value})
			}
			if len(stack) > 0 {
				p := stack[len(stack)-1]
				p.Kids = append(p.Kids, n)
			} else {
				root = n
			}
			stack = append(stack, n)
		case xml.EndElement:
			if len(stack) == 0 {
				return nil, errors.New("an end tag without its start")
			}
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 && len(bytes.TrimSpace(t)) > 0 {
				return nil, errors.New("text outside the element")
			}
		}
	}
	if root == nil {
		return nil, errors.New("no element")
	}
	if len(stack) > 0 {
		return nil, errors.New("the element is not closed")
	}
	return root, nil
}

// qualified writes a raw name as it was written: prefix:local.
func qualified(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// String writes n compactly, for messages and tests.
func (n *Node) String() string { return string(Append(nil, n, -1, false)) }

package asmx

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
)

// The standard reader: what ASMX's SoapServerProtocol.ReadParameters does
// with an XmlTextReader and the serializer XmlSerializer generates for an
// operation's parameters, step by step, over the document's nodes as
// encoding/xml reads them. It is exact where the fast reader only takes the
// plain shape, including XmlSerializer's quirks: a parameter is read with
// XmlReader.ReadElementString, which takes the text of a child element and
// leaves the reader inside the parameter, so that what follows is read one
// level off; a comment inside a parameter is an error.

// Kinds of node, as XmlReader.NodeType names them.
const (
	nodeElement = iota + 1
	nodeEndElement
	nodeText // Text or CDATA
	nodeWhitespace
	nodeComment
	nodePI
	nodeDTD
	nodeEOF
	nodeError
)

// node is one node of the document as an XmlTextReader reports it.
type node struct {
	kind         int
	space, local string
	attrs        []xml.Attr
	empty        bool   // an element written <a/> (IsEmptyElement)
	text         []byte // of text and white space
	depth        int    // XmlReader.Depth: 0 for the root element and its end tag
	off          int    // the node's first byte in the text
	err          string // the XmlException of a nodeError
}

// nodeReader reads the nodes of a text one at a time.
type nodeReader struct {
	text  []byte
	dec   *xml.Decoder
	depth int
	next  *node // a node read ahead
	cur   node
}

func newNodeReader(text []byte) *nodeReader {
	dec := xml.NewDecoder(bytes.NewReader(text))
	dec.Strict = true
	dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	return &nodeReader{text: text, dec: dec}
}

// read moves to the next node (XmlReader.Read) and returns it.
func (r *nodeReader) read() *node {
	if r.cur.kind == nodeEOF || r.cur.kind == nodeError {
		return &r.cur
	}
	if r.next != nil {
		r.cur, r.next = *r.next, nil
		return &r.cur
	}
	off := int(r.dec.InputOffset())
	if r.depth == 0 && off < len(r.text) {
		// At the document's top level, .NET's XmlTextReader (v1Compat,
		// as ASMX reads a request) takes a NUL right after markup for the
		// end of the data, whatever follows (ParseDocumentContent), and
		// one after white space only as the stream's last character
		// (ZeroEndingStream): a C client sending its string's terminator
		// after the envelope is answered.
		i := off
		for i < len(r.text) && isXMLSpace(r.text[i]) {
			i++
		}
		if i < len(r.text) && r.text[i] == 0 && (i == off || i == len(r.text)-1) {
			r.cur = node{kind: nodeEOF, off: i}
			return &r.cur
		}
	}
	tok, err := r.dec.Token()
	end := int(r.dec.InputOffset())
	switch {
	case err == io.EOF:
		r.cur = node{kind: nodeEOF, off: off}
		return &r.cur
	case err != nil:
		e := markupError(r.text, off)
		if e == nil {
			e = xmlErrorOf(r.text, err, off)
		}
		r.cur = node{kind: nodeError, off: off, err: e.message()}
		return &r.cur
	}
	n := node{off: off, depth: r.depth}
	switch t := tok.(type) {
	case xml.StartElement:
		if e := markupError(r.text, off); e != nil {
			// encoding/xml reads ':' anywhere in a name, attributes
			// without white space between them, any xml:space.
			r.cur = node{kind: nodeError, off: off, err: e.message()}
			return &r.cur
		}
		if msg, at, bad := attrError(r.text[off:end], t.Attr); bad {
			// encoding/xml refuses neither (see attrError).
			line, col := position(r.text, off+at)
			r.cur = node{kind: nodeError, off: off + at, err: (&xmlError{msg: msg, line: line, col: col, hasPos: true}).message()}
			return &r.cur
		}
		n.kind, n.space, n.local, n.attrs = nodeElement, t.Name.Space, t.Name.Local, t.Attr
		if end >= 2 && string(r.text[end-2:end]) == "/>" {
			// An empty element is one node: drop the end encoding/xml adds.
			n.empty = true
			if _, err := r.dec.Token(); err != nil {
				r.next = &node{kind: nodeError, off: end, err: xmlErrorOf(r.text, err, end).message()}
			}
		} else {
			r.depth++
		}
	case xml.EndElement:
		r.depth--
		n.kind, n.space, n.local, n.depth = nodeEndElement, t.Name.Space, t.Name.Local, r.depth
	case xml.CharData:
		n.kind, n.text = nodeText, t
		if len(bytes.Trim(t, " \t\r\n")) == 0 && !bytes.HasPrefix(r.text[off:], []byte("<![CDATA[")) {
			n.kind = nodeWhitespace
		}
	case xml.Comment:
		n.kind = nodeComment
	case xml.ProcInst:
		n.kind = nodePI
		if t.Target == "xml" && off > 0 {
			n.kind, n.err = nodeError, "Unexpected XML declaration."
		} else if e := markupError(r.text, off); e != nil {
			n.kind, n.err = nodeError, e.message()
		}
	case xml.Directive: // a DTD, prohibited
		n.kind, n.err = nodeError, errDTD.message()
	}
	if n.kind == nodeElement || n.kind == nodeText || n.kind == nodeWhitespace {
		if at, v := surrogateRef(r.text[off:end]); at >= 0 {
			// encoding/xml reads it as U+FFFD; .NET's reader refuses it.
			line, col := position(r.text, off+at)
			n = node{kind: nodeError, off: off + at, err: (&xmlError{msg: fmt.Sprintf("'\uFFFD', hexadecimal value 0x%X, is an invalid character.", v), line: line, col: col, hasPos: true}).message()}
		}
	}
	r.cur = n
	return &r.cur
}

// surrogateRef finds, in the raw text of a start tag (its attribute
// values) or of text, a character reference to a UTF-16 surrogate
// (&#xD800; to &#xDFFF;, alone or as a pair of references): .NET's
// XmlTextReader, normalizing as ASMX's does, refuses each as an invalid
// character (ParseNumericCharRefInline); a reference above U+FFFF is read.
// It returns the offset of the reference's first digit and its value, or
// -1. A CDATA section holds no references.
func surrogateRef(raw []byte) (int, int) {
	if bytes.HasPrefix(raw, []byte("<![CDATA[")) {
		return -1, 0
	}
	for i := 0; ; {
		j := bytes.Index(raw[i:], []byte("&#"))
		if j < 0 {
			return -1, 0
		}
		start := i + j + 2
		digits, base := start, 10
		if digits < len(raw) && raw[digits] == 'x' {
			digits, base = digits+1, 16
		}
		k := digits
		for k < len(raw) && raw[k] != ';' && k-digits < 8 {
			k++
		}
		if v, err := strconv.ParseUint(string(raw[digits:k]), base, 32); err == nil && v >= 0xD800 && v <= 0xDFFF {
			return digits, int(v)
		}
		i = start
	}
}

// moveToContent skips white space, comments and processing instructions
// (XmlReader.MoveToContent).
func (r *nodeReader) moveToContent() *node {
	for r.cur.kind == nodeWhitespace || r.cur.kind == nodeComment || r.cur.kind == nodePI || r.cur.kind == 0 {
		r.read()
	}
	return &r.cur
}

// skip moves past the current node and, for an element, its content
// (XmlReader.Skip).
func (r *nodeReader) skip() {
	if r.cur.kind == nodeElement && !r.cur.empty {
		d := r.cur.depth
		for n := r.read(); !(n.kind == nodeEndElement && n.depth == d); n = r.read() {
			if n.kind == nodeEOF || n.kind == nodeError {
				return
			}
		}
	}
	r.read()
}

// failed reports whether the reader met an XML error (or the document's
// end too early).
func (r *nodeReader) failed() bool { return r.cur.kind == nodeError || r.cur.kind == nodeEOF }

// position is the line and column .NET's reader reports for the current
// node: that of its name for elements, of its content for the others.
func (r *nodeReader) position() (int, int) {
	off := r.cur.off
	switch r.cur.kind {
	case nodeElement:
		off++
	case nodeEndElement, nodePI:
		off += 2
	case nodeComment:
		off += 4
	case nodeText:
		if bytes.HasPrefix(r.text[off:], []byte("<![CDATA[")) {
			off += 9
		}
	}
	return position(r.text, off)
}

// readElementString reads the current element as XmlReader's
// ReadElementString does, with the reader's ReadString: the text up to the
// first node that is not text, or, when the element starts with a child
// element, that child's text. ok is false where it throws (the node it
// stops at is not an end tag).
func (r *nodeReader) readElementString() (string, bool) {
	if r.cur.empty {
		r.read()
		return "", true
	}
	n := r.read()
	if n.kind == nodeElement {
		if n.empty {
			return "", false
		}
		n = r.read()
	}
	var b []byte
	for n.kind == nodeText || n.kind == nodeWhitespace {
		b = append(b, n.text...)
		n = r.read()
	}
	if n.kind != nodeEndElement {
		return "", false
	}
	r.read()
	return string(b), true
}

// decodeSOAPStd reads the parameters of op from text as ReadParameters
// does. guess is the version ASMX assumes until it has read the envelope's
// namespace; ct is the request's content type.
func decodeSOAPStd(ns, ct string, guess Binding, op *Operation, text []byte) (*Call, *Error) {
	if e := leadingError(text); e != nil {
		return nil, newUnreadableError(guess, e.message())
	}
	r := newNodeReader(text)
	helper := guess
	unreadable := func() *Error {
		msg := r.cur.err
		switch {
		case r.cur.kind == nodeEOF:
			msg = "Unexpected end of file has occurred."
		case msg == "":
			line, col := r.position()
			msg = "'" + nodeKindName(r.cur.kind) + "' is an invalid XmlNodeType. Line " + strconv.Itoa(line) + ", position " + strconv.Itoa(col) + "."
		}
		return newUnreadableError(helper, msg)
	}
	root := r.moveToContent()
	if root.kind != nodeElement {
		return nil, unreadable()
	}
	envNS := root.space
	switch envNS {
	case NamespaceSOAP11:
		helper = SOAP11
		if !matchesBase(ct, "text/xml") {
			return nil, newUnsupportedMediaTypeError(SOAP11, ct)
		}
	case NamespaceSOAP12:
		helper = SOAP12
	default:
		return nil, newVersionMismatchError(envNS)
	}
	if root.local != "Envelope" {
		return nil, newMissingElementError(helper, true)
	}
	if root.empty {
		return nil, newMissingElementError(helper, false)
	}
	r.read()
	var mustUnderstand []string
	if n := r.moveToContent(); n.kind == nodeElement && n.space == envNS && n.local == "Header" {
		if n.empty {
			r.read()
		} else {
			d := n.depth
			r.read()
			for n = r.moveToContent(); n.kind == nodeElement; n = r.moveToContent() {
				v11, v12, has11 := "", "", false
				for _, a := range n.attrs {
					switch {
					case a.Name.Local != "mustUnderstand":
					case a.Name.Space == NamespaceSOAP11:
						v11, has11 = a.Value, true
					case a.Name.Space == NamespaceSOAP12:
						v12 = a.Value
					}
				}
				if !has11 {
					v11 = v12
				}
				if isMustUnderstand(v11) {
					mustUnderstand = append(mustUnderstand, n.local)
				}
				r.skip()
			}
			for !(r.cur.kind == nodeEndElement && r.cur.depth == d) && !r.failed() {
				r.read()
			}
			r.read()
		}
	}
	if r.failed() {
		return nil, unreadable()
	}
	if n := r.moveToContent(); n.kind != nodeElement || n.space != envNS || n.local != "Body" {
		if r.failed() {
			return nil, unreadable()
		}
		return nil, newMissingElementError(helper, false)
	}
	r.read() // ReadStartElement(Body)
	c := newCall(op, helper)
	// The serializer: every element of the operation's name in the Body
	// (up to the first end tag it meets), and in each the parameters.
	for n := r.moveToContent(); n.kind != nodeEndElement && !r.failed(); n = r.moveToContent() {
		if n.kind != nodeElement || n.space != ns || n.local != op.Name {
			r.skip()
			continue
		}
		if n.empty {
			r.skip()
			continue
		}
		r.read()
		var read uint16
		for n := r.moveToContent(); n.kind != nodeEndElement && !r.failed(); n = r.moveToContent() {
			i := -1
			if n.kind == nodeElement && n.space == ns {
				for k, p := range op.Params {
					if p.Name == n.local && read&(1<<k) == 0 {
						i = k
						break
					}
				}
			}
			if i < 0 {
				r.skip()
				continue
			}
			value, ok := r.readElementString()
			if !ok || r.failed() {
				return nil, unreadable()
			}
			read |= 1 << i
			if x := c.set(i, value); x != nil {
				line, col := r.position()
				return nil, newConvertSOAPError(helper, op, op.Params[i], value, line, col, x)
			}
		}
		if r.failed() {
			return nil, unreadable()
		}
		r.read() // ReadEndElement
	}
	if r.failed() {
		return nil, unreadable()
	}
	// ReadParameters reads on to the Envelope's end tag, and one node more.
	for r.cur.depth > 0 || r.cur.kind != nodeEndElement {
		if r.read(); r.failed() {
			return nil, unreadable()
		}
	}
	switch n := r.read(); n.kind {
	case nodeElement:
		return nil, newUnreadableError(helper, "There are multiple root elements.")
	case nodeText:
		return nil, newUnreadableError(helper, "Data at the root level is invalid.")
	case nodeError:
		return nil, unreadable()
	}
	if len(mustUnderstand) > 0 {
		c.MustUnderstand = mustUnderstand
	}
	return c, nil
}

func nodeKindName(k int) string {
	switch k {
	case nodeElement:
		return "Element"
	case nodeEndElement:
		return "EndElement"
	case nodeText:
		return "Text"
	case nodeComment:
		return "Comment"
	case nodePI:
		return "ProcessingInstruction"
	}
	return "None"
}

// The namespaces of the xml and xmlns prefixes.
const (
	nsXMLPrefix   = "http://www.w3.org/XML/1998/namespace"
	nsXMLNSPrefix = "http://www.w3.org/2000/xmlns/"
)

// attrError is the error .NET's XmlTextReaderImpl raises for the
// attributes of start tag tag (its bytes from "<" to ">"; attrs as
// encoding/xml read them, which refuses neither), with the offset in tag
// where the reader places it; nil when it raises none. Namespace
// declarations come first (AddNamespace, as each is read): a prefix bound
// to no namespace (xmlns:p="", Xml_BadNamespaceDecl, at the value's opening
// quote),
// the xmlns namespace bound to any prefix (Xml_XmlnsPrefix for
// xmlns:xmlns, else Xml_NamespaceDeclXmlXmlns, at the value); the xml
// namespace bound to another prefix is read, as ASMX's reader is v1Compat.
// Then a duplicate attribute (the same local name and namespace twice:
// Xml_DupAttributeName, naming the second as written, at it).
func attrError(tag []byte, attrs []xml.Attr) (msg string, at int, bad bool) {
	raws := tagAttrs(tag)
	if len(raws) != len(attrs) {
		return "", 0, false // not the tag encoding/xml read: never so
	}
	for i, a := range attrs {
		prefixed := a.Name.Space == "xmlns"
		if !prefixed && (a.Name.Space != "" || a.Name.Local != "xmlns") {
			continue
		}
		prefix := ""
		if prefixed {
			prefix = a.Name.Local
		}
		switch {
		case a.Value == nsXMLNSPrefix && prefix == "xmlns":
			return `Prefix "xmlns" is reserved for use by XML.`, raws[i].value, true
		case a.Value == nsXMLNSPrefix:
			return "Prefix '" + prefix + `' cannot be mapped to namespace name reserved for "xml" or "xmlns".`, raws[i].value, true
		case a.Value == "" && prefixed:
			return "Invalid namespace declaration.", raws[i].value - 1, true
		}
	}
	for i := 1; i < len(attrs); i++ {
		for _, a := range attrs[:i] {
			if a.Name == attrs[i].Name {
				return "'" + raws[i].raw + "' is a duplicate attribute name.", raws[i].name, true
			}
		}
	}
	return "", 0, false
}

// rawAttr is an attribute as a start tag writes it: its name (prefix and
// all) and the offsets of its name and of its value (after the quote).
type rawAttr struct {
	raw         string
	name, value int
}

// tagAttrs returns the attributes of start tag tag, in order, as written;
// tag is well-formed (encoding/xml read it).
func tagAttrs(tag []byte) []rawAttr {
	var out []rawAttr
	i := 1
	for i < len(tag) && !isXMLSpace(tag[i]) && tag[i] != '>' && tag[i] != '/' {
		i++ // the element's name
	}
	for i < len(tag) {
		for i < len(tag) && isXMLSpace(tag[i]) {
			i++
		}
		start := i
		for i < len(tag) && !isXMLSpace(tag[i]) && tag[i] != '=' && tag[i] != '>' && tag[i] != '/' {
			i++
		}
		if i == start {
			return out
		}
		a := rawAttr{raw: string(tag[start:i]), name: start}
		for i < len(tag) && tag[i] != '"' && tag[i] != '\'' {
			i++
		}
		if i >= len(tag) {
			return out
		}
		q := tag[i]
		i++
		a.value = i
		for i < len(tag) && tag[i] != q {
			i++
		}
		i++
		out = append(out, a)
	}
	return out
}

package asmx

import (
	"bytes"
	"sync"
)

// The fast SOAP reader: a scanner for the plain documents SOAP clients send,
// feeding the same soapReader as encoding/xml does. It gives up (and
// DecodeSOAPRequest falls back to encoding/xml) on anything outside that plain
// shape, and on every error of the request itself, so the answers, errors
// above all, stay encoding/xml's. What it reads:
//
//   - bytes: printable ASCII, tab and line feed only; no '&' (so no entity
//     or character reference), no carriage return (which XML would
//     normalise), no "<!" (comment, CDATA, DTD), no "]]>";
//   - an optional XML declaration at the very start, version 1.0, encoding
//     utf-8 or none;
//   - elements with ASCII names (at most one prefix), attributes in quotes
//     after white space, namespace declarations, prefixes that are declared;
//   - white space around the root element, nothing else.

// decodeSOAPFast decodes body if it has the plain shape and decodes without
// error; ok is false otherwise. op is the routed operation, or nil to route
// by the body's first element.
//
// The byte-level conditions are checked as the bytes are read, each byte
// once, by whatever reads it: the text between tags (plainText), names
// (nameClass), attribute values (plainValue), the white space in tags.
func decodeSOAPFast(ns, ct string, op *Operation, body []byte) (c *Call, ok bool) {
	s := scannerPool.Get().(*fastScanner)
	defer s.release()
	s.in = body
	s.r = soapReader{ns: ns, ct: ct, op: op, param: -1, paramText: s.r.paramText[:0], deferSet: true, pending: s.r.pending[:0]}
	if c, ok := s.fromSkeleton(op); ok {
		return c, true
	}
	if c, ok := s.usual(op); ok {
		return c, true
	}
	s.pos = 0
	s.r = soapReader{ns: ns, ct: ct, op: op, param: -1, paramText: s.r.paramText[:0], deferSet: true, pending: s.r.pending[:0]}
	if !s.document() {
		return nil, false
	}
	c, e := s.r.finish()
	return c, e == nil
}

// byteClass sorts the bytes for the plain shape: 0 plain, 1 never in a
// plain document, 2 plain unless it starts "]]>" (']'). ('!' is plain: it
// can only follow '<' in a name, where nameClass refuses it.)
var byteClass = func() (t [256]uint8) {
	for c := range 256 {
		if (c < 0x20 && c != '\t' && c != '\n') || c > 0x7e || c == '&' {
			t[c] = 1
		}
	}
	t[']'] = 2
	return t
}()

// plainText reports whether text, the characters between two tags, has
// only plain bytes and no "]]>".
func plainText(text []byte) bool {
	for i, c := range text {
		switch byteClass[c] {
		case 0:
		case 1:
			return false
		default:
			if i+2 < len(text) && text[i+1] == ']' && text[i+2] == '>' {
				return false
			}
		}
	}
	return true
}

// plainValue reports whether an attribute value (its quotes excluded) is
// plain and has nothing XML would change: no '<', no tab or line feed
// (which attribute values read as spaces), no ']' (so no "]]>").
func plainValue(v []byte) bool {
	for _, c := range v {
		if byteClass[c] != 0 || c == '<' || c == '\t' || c == '\n' {
			return false
		}
	}
	return true
}

// Namespaces of XML Schema, which requests declare.
const (
	namespaceXSI = "http://www.w3.org/2001/XMLSchema-instance"
	namespaceXSD = "http://www.w3.org/2001/XMLSchema"
)

// knownNamespace reports whether an attribute value is one of the
// namespaces requests declare but the service's, all of them plain, so
// that plainValue need not go over it.
func knownNamespace(v []byte) bool {
	switch len(v) {
	case len(NamespaceSOAP11):
		return string(v) == NamespaceSOAP11 || string(v) == namespaceXSI
	case len(NamespaceSOAP12):
		return string(v) == NamespaceSOAP12
	case len(namespaceXSD):
		return string(v) == namespaceXSD
	}
	return false
}

// onlySpace reports whether b is white space only (space, tab, line feed).
func onlySpace(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) {
			return false
		}
	}
	return true
}

// span is a part of the document, in[start:end]. The scanner's stacks hold
// spans, not slices, so they hold no pointers: a pooled scanner needs no
// clearing and keeps no document alive.
type span struct{ start, end int }

// empty reports whether the span is empty: an absent prefix (a prefix that
// is present is never empty).
func (sp span) empty() bool { return sp.end == sp.start }

// nsBinding is one namespace declaration in scope; an empty prefix is the
// default namespace.
type nsBinding struct {
	prefix, uri span
	depth       int
}

// fastScanner is the state of reading one document. Scanners are pooled
// (scannerPool) with the backing arrays of their stacks, so reading a usual
// request allocates nothing but the call.
type fastScanner struct {
	in    []byte
	pos   int
	r     soapReader
	depth int
	open  []span // raw names of the open elements
	ns    []nsBinding
	attrs []fastAttr // scratch
}

var scannerPool = sync.Pool{New: func() any {
	return &fastScanner{open: make([]span, 0, 8), ns: make([]nsBinding, 0, 8), attrs: make([]fastAttr, 0, 8)}
}}

// release drops the scanner's references to the document and the call,
// and returns it to the pool unless its buffers grew unusually large.
func (s *fastScanner) release() {
	if cap(s.open) > 64 || cap(s.ns) > 64 || cap(s.attrs) > 64 || cap(s.r.paramText) > 4<<10 || cap(s.r.pending) > 64 {
		return
	}
	s.in, s.pos, s.depth = nil, 0, 0
	s.open, s.ns, s.attrs = s.open[:0], s.ns[:0], s.attrs[:0]
	s.r = soapReader{paramText: s.r.paramText[:0], pending: s.r.pending[:0]}
	scannerPool.Put(s)
}

// at returns the bytes of sp.
func (s *fastScanner) at(sp span) []byte { return s.in[sp.start:sp.end] }

type fastAttr struct {
	prefix, local, value span
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

func (s *fastScanner) skipSpace() {
	for s.pos < len(s.in) && isSpace(s.in[s.pos]) {
		s.pos++
	}
}

// document reads the whole body; false means "not plain, or an error".
func (s *fastScanner) document() bool {
	if bytes.HasPrefix(s.in, []byte("<?")) {
		if !s.declaration() {
			return false
		}
	}
	rootDone := false
	for {
		start := s.pos
		if i := bytes.IndexByte(s.in[s.pos:], '<'); i >= 0 {
			s.pos += i
		} else {
			s.pos = len(s.in)
		}
		if s.pos > start {
			text := s.in[start:s.pos]
			if s.depth == 0 {
				if !onlySpace(text) {
					return false // text outside the root
				}
			} else if !plainText(text) || s.r.text(text) != nil {
				return false
			}
		}
		if s.pos == len(s.in) {
			return rootDone && s.depth == 0
		}
		s.pos++ // '<'
		if s.pos == len(s.in) {
			return false
		}
		switch s.in[s.pos] {
		case '/':
			s.pos++
			if !s.endTag() {
				return false
			}
			if s.depth == 0 {
				rootDone = true
			}
		case '?':
			return false // a processing instruction past the start
		default:
			if rootDone {
				return false // a second root
			}
			if !s.startTag() {
				return false
			}
			if s.depth == 0 {
				rootDone = true // <Envelope/>
			}
		}
	}
}

// declaration reads <?xml version="1.0"?> with an optional utf-8 encoding.
func (s *fastScanner) declaration() bool {
	end := bytes.Index(s.in, []byte("?>"))
	if end < 0 {
		return false
	}
	switch string(s.in[:end+2]) {
	case `<?xml version="1.0"?>`, `<?xml version="1.0" encoding="utf-8"?>`, `<?xml version="1.0" encoding="UTF-8"?>`,
		`<?xml version='1.0'?>`, `<?xml version='1.0' encoding='utf-8'?>`, `<?xml version='1.0' encoding='UTF-8'?>`:
	default:
		return false
	}
	s.pos = end + 2
	return true
}

// nameClass sorts the bytes of names: 0 none, 1 a letter or '_' (may
// start a name), 2 a digit, '-' or '.' (may not), 3 ':'.
var nameClass = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = 1, 1
	}
	t['_'] = 1
	for c := '0'; c <= '9'; c++ {
		t[c] = 2
	}
	t['-'], t['.'], t[':'] = 2, 2, 3
	return t
}()

// name reads an XML name of ASCII letters, digits, '_', '-' and '.', with at
// most one ':' splitting prefix and local part.
func (s *fastScanner) name() (raw, prefix, local span, ok bool) {
	in := s.in
	start, colon, i := s.pos, -1, s.pos
	for {
		// Letters and '_' are the most of every name: a loop of their own.
		for i < len(in) && nameClass[in[i]] == 1 {
			i++
		}
		if i == len(in) {
			break
		}
		c := nameClass[in[i]]
		if c == 0 {
			break
		}
		if i == start || i == colon+1 || c == 3 && colon >= 0 {
			return span{}, span{}, span{}, false // a digit, '-', '.' or ':' first, or a second ':'
		}
		if c == 3 {
			colon = i
		}
		i++
	}
	s.pos = i
	raw = span{start, i}
	if raw.empty() || colon == i-1 {
		return span{}, span{}, span{}, false
	}
	if colon < 0 {
		return raw, span{}, raw, true
	}
	return raw, span{start, colon}, span{colon + 1, i}, true
}

// lookup resolves a prefix (empty for the default namespace) among the
// declarations in scope.
func (s *fastScanner) lookup(prefix span) ([]byte, bool) {
	p := s.at(prefix)
	for i := len(s.ns) - 1; i >= 0; i-- {
		if bytes.Equal(s.at(s.ns[i].prefix), p) {
			return s.at(s.ns[i].uri), true
		}
	}
	return nil, prefix.empty()
}

// namespace returns uri as a string, without allocating for the namespaces
// requests use: the service's and SOAP's.
func (s *fastScanner) namespace(uri []byte) string {
	// Comparisons, not a switch: a switch on string(uri) with a case that
	// is not a constant builds the string.
	switch {
	case string(uri) == s.r.ns:
		return s.r.ns
	case string(uri) == NamespaceSOAP11:
		return NamespaceSOAP11
	case string(uri) == NamespaceSOAP12:
		return NamespaceSOAP12
	}
	return string(uri)
}

// startTag reads a start tag after its '<'.
func (s *fastScanner) startTag() bool {
	raw, prefix, local, ok := s.name()
	if !ok {
		return false
	}
	s.attrs = s.attrs[:0]
	selfClosing := false
	for {
		spaced := s.pos < len(s.in) && isSpace(s.in[s.pos])
		s.skipSpace()
		if s.pos >= len(s.in) {
			return false
		}
		if c := s.in[s.pos]; c == '>' || c == '/' {
			if c == '/' {
				if s.pos+1 >= len(s.in) || s.in[s.pos+1] != '>' {
					return false
				}
				selfClosing = true
				s.pos++
			}
			s.pos++
			break
		}
		if !spaced {
			return false
		}
		_, ap, al, ok := s.name()
		if !ok {
			return false
		}
		s.skipSpace()
		if s.pos >= len(s.in) || s.in[s.pos] != '=' {
			return false
		}
		s.pos++
		s.skipSpace()
		if s.pos >= len(s.in) || (s.in[s.pos] != '"' && s.in[s.pos] != '\'') {
			return false
		}
		q := s.in[s.pos]
		s.pos++
		end := bytes.IndexByte(s.in[s.pos:], q)
		if end < 0 {
			return false
		}
		v := span{s.pos, s.pos + end}
		s.pos += end + 1
		if val := s.at(v); !knownNamespace(val) && !plainValue(val) {
			return false
		}
		if string(s.at(ap)) == "xml" && string(s.at(al)) == "space" && string(s.at(v)) != "default" && string(s.at(v)) != "preserve" {
			return false // .NET's reader refuses it (see markupError)
		}
		for _, a := range s.attrs {
			if bytes.Equal(s.at(a.local), s.at(al)) {
				// A duplicate attribute, or two prefixes of one namespace
				// maybe: the standard reader resolves and tells.
				return false
			}
		}
		s.attrs = append(s.attrs, fastAttr{ap, al, v})
	}
	depth := s.depth + 1
	// Namespace declarations apply to the element itself.
	for _, a := range s.attrs {
		isDecl := a.prefix.empty() && string(s.at(a.local)) == "xmlns" || string(s.at(a.prefix)) == "xmlns"
		if isDecl && string(s.at(a.value)) == nsXMLNSPrefix {
			return false // refused by .NET's reader (see attrError)
		}
		switch {
		case a.prefix.empty() && string(s.at(a.local)) == "xmlns":
			s.ns = append(s.ns, nsBinding{span{}, a.value, depth})
		case string(s.at(a.prefix)) == "xmlns":
			if a.value.empty() || string(s.at(a.local)) == "xml" || string(s.at(a.local)) == "xmlns" {
				return false
			}
			s.ns = append(s.ns, nsBinding{a.local, a.value, depth})
		}
	}
	if p := s.at(prefix); string(p) == "xml" || string(p) == "xmlns" {
		return false
	}
	space, ok := s.lookup(prefix)
	if !ok {
		return false
	}
	s.depth = depth
	s.open = append(s.open, raw)
	if s.r.start(s.namespace(space), s.localName(s.at(local)), s.attr) != nil {
		return false
	}
	if selfClosing {
		return s.closeElement()
	}
	return true
}

// attr looks up an attribute of the element just read by namespace and
// local name; prefixes that are not declared match nothing.
func (s *fastScanner) attr(space, local string) (string, bool) {
	for _, a := range s.attrs {
		if string(s.at(a.local)) != local {
			continue
		}
		var uri []byte
		if !a.prefix.empty() {
			p := string(s.at(a.prefix))
			if p == "xmlns" {
				continue
			}
			u, ok := s.lookup(a.prefix)
			if !ok {
				continue
			}
			uri = u
		} else if local == "xmlns" {
			continue
		}
		if string(uri) == space {
			return string(s.at(a.value)), true
		}
	}
	return "", false
}

// endTag reads an end tag after its "</": the open element's name, as
// its start tag spelt it, then '>' after optional white space.
func (s *fastScanner) endTag() bool {
	if s.depth == 0 {
		return false
	}
	return s.endOf(s.open[len(s.open)-1]) && s.closeElement()
}

// closeElement ends the innermost element and the declarations it made.
func (s *fastScanner) closeElement() bool {
	if s.r.end(nil) != nil {
		return false
	}
	for len(s.ns) > 0 && s.ns[len(s.ns)-1].depth == s.depth {
		s.ns = s.ns[:len(s.ns)-1]
	}
	s.open = s.open[:len(s.open)-1]
	s.depth--
	return true
}

// knownNames are the local names requests use, so reading them allocates
// nothing.
var knownNames = func() map[string]string {
	m := map[string]string{"Envelope": "Envelope", "Body": "Body", "Header": "Header"}
	for _, op := range operations {
		m[op.Name] = op.Name
		for _, p := range op.Params {
			m[p.Name] = p.Name
		}
	}
	return m
}()

// localName returns the local name of the element being opened as a
// string, without allocating for the names a request is made of: the
// reader's state says which it may be. A skipped element's name is never
// read (soapReader.start), so it is not made.
func (s *fastScanner) localName(b []byte) string {
	r := &s.r
	if r.skipDepth > 0 {
		return ""
	}
	switch r.depth + 1 {
	case 1:
		if string(b) == "Envelope" {
			return "Envelope"
		}
	case 2:
		switch string(b) {
		case "Body":
			return "Body"
		case "Header":
			return "Header"
		}
	case 3:
		if r.op != nil && string(b) == r.op.Name {
			return r.op.Name
		}
	case 4:
		if r.call != nil {
			for _, p := range r.call.Op.Params {
				if string(b) == p.Name {
					return p.Name
				}
			}
		}
	}
	return knownName(b)
}

func knownName(b []byte) string {
	if s, ok := knownNames[string(b)]; ok {
		return s
	}
	return string(b)
}

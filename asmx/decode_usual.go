package asmx

import "bytes"

// The usual request: what WSDL-generated clients send, read in one pass
// that expects each part where it stands, before the fast reader's
// general scanner (which it falls back to on anything else):
//
//	[declaration] <P:Envelope xmlns...> <P:Body> <Q:Op xmlns...>
//	  <Q:param>text</Q:param> or <Q:param/> ...
//	</Q:Op> </P:Body> </P:Envelope>
//
// with white space between the tags and nothing else: no Header, no
// attribute but namespace declarations (on the Envelope and the operation's
// element only), no element the call does not read, no parameter twice,
// the Body and the end tags spelt as the start tags were. The bytes obey
// the fast reader's conditions (plainText, plainValue, nameClass), so
// whatever this reads, the general scanner and encoding/xml read the same
// way.

// usualNS is a namespace declaration in scope while reading the usual
// request: its prefix (empty: the default namespace) and what it names.
type usualNS struct {
	prefix span
	ns     usualSpace
}

// usualSpace tells the namespaces the usual request uses.
type usualSpace uint8

const (
	spaceOther   usualSpace = iota // any other
	spaceService                   // the service namespace
	spaceSOAP11
	spaceSOAP12
)

// usual reads the body as the usual request; ok is false for any other
// body, to be read by the general scanner. op is the routed operation, or
// nil to route by the operation's element.
func (s *fastScanner) usual(op *Operation) (c *Call, ok bool) {
	in := s.in
	if bytes.HasPrefix(in, []byte("<?")) && !s.declaration() {
		return nil, false
	}
	var decls [8]usualNS
	nd := 0

	// <P:Envelope xmlns...>
	if !s.skipSpaceTo('<') {
		return nil, false
	}
	envRaw, envPrefix, envLocal, ok := s.name()
	if !ok || string(s.at(envLocal)) != "Envelope" {
		return nil, false
	}
	if nd, ok = s.usualDecls(decls[:], nd); !ok {
		return nil, false
	}
	version := SOAP11
	switch lookupUsual(s, decls[:nd], envPrefix) {
	case spaceSOAP11:
		if !matchesBase(s.r.ct, "text/xml") {
			return nil, false // a 415: the general reader answers it
		}
	case spaceSOAP12:
		version = SOAP12
	default:
		return nil, false
	}

	// <P:Body>, with the Envelope's prefix
	if !s.skipSpaceTo('<') {
		return nil, false
	}
	bodyRaw, bodyPrefix, bodyLocal, ok := s.name()
	if !ok || !bytes.Equal(s.at(bodyPrefix), s.at(envPrefix)) || string(s.at(bodyLocal)) != "Body" || !s.closeTag() {
		return nil, false
	}

	// <Q:Op xmlns...>
	if !s.skipSpaceTo('<') {
		return nil, false
	}
	opRaw, opPrefix, opLocal, ok := s.name()
	if !ok {
		return nil, false
	}
	if nd, ok = s.usualDecls(decls[:], nd); !ok || lookupUsual(s, decls[:nd], opPrefix) != spaceService {
		return nil, false
	}
	selfClosing := s.in[s.pos-2] == '/'
	if op == nil {
		if op = operationNamed(s.at(opLocal)); op == nil {
			return nil, false
		}
	} else if string(s.at(opLocal)) != op.Name {
		return nil, false
	}

	// The parameters, each once, in the service namespace.
	r := &s.r
	var read uint16
	var vals [maxParams]usualValue
	nv := 0
	for !selfClosing {
		if !s.skipSpaceTo('<') {
			return nil, false
		}
		if s.pos < len(in) && in[s.pos] == '/' {
			s.pos++
			if !s.endOf(opRaw) {
				return nil, false
			}
			break
		}
		raw, prefix, local, ok := s.name()
		if !ok || lookupUsual(s, decls[:nd], prefix) != spaceService {
			return nil, false
		}
		i := paramIndex(op, s.at(local))
		if i < 0 || read&(1<<i) != 0 || !s.closeTag() {
			return nil, false
		}
		read |= 1 << i
		if nv == len(vals) {
			return nil, false
		}
		vals[nv] = usualValue{int8(i), -1, -1}
		nv++
		start := len(r.paramText)
		if in[s.pos-2] != '/' {
			end := bytes.IndexByte(in[s.pos:], '<')
			if end < 0 || !plainText(in[s.pos:s.pos+end]) {
				return nil, false
			}
			vals[nv-1].start, vals[nv-1].end = s.pos, s.pos+end
			r.paramText = append(r.paramText, in[s.pos:s.pos+end]...)
			s.pos += end + 1
			if s.pos >= len(in) || in[s.pos] != '/' {
				return nil, false // an element inside a parameter
			}
			s.pos++
			if !s.endOf(raw) {
				return nil, false
			}
		}
		r.pending = append(r.pending, pendingParam{i, start, len(r.paramText)})
	}

	// </P:Body> </P:Envelope>, then white space to the end.
	if !s.skipSpaceTo('<') || s.pos >= len(in) || in[s.pos] != '/' {
		return nil, false
	}
	s.pos++
	if !s.endOf(bodyRaw) || !s.skipSpaceTo('<') || s.pos >= len(in) || in[s.pos] != '/' {
		return nil, false
	}
	s.pos++
	if !s.endOf(envRaw) || !onlySpace(in[s.pos:]) {
		return nil, false
	}

	r.call = newCall(op, version)
	r.envDone = true
	c, e := r.finish()
	if e != nil {
		return nil, false
	}
	s.learnSkeleton(op, version, vals[:nv])
	return c, true
}

// skipSpaceTo skips white space up to a '<' and past it; false if
// anything else comes first.
func (s *fastScanner) skipSpaceTo(c byte) bool {
	s.skipSpace()
	if s.pos >= len(s.in) || s.in[s.pos] != c {
		return false
	}
	s.pos++
	return true
}

// closeTag reads the end of a start tag with no attributes: optional white
// space, then '>' or "/>".
func (s *fastScanner) closeTag() bool {
	s.skipSpace()
	in := s.in
	switch {
	case s.pos < len(in) && in[s.pos] == '>':
		s.pos++
	case s.pos+1 < len(in) && in[s.pos] == '/' && in[s.pos+1] == '>':
		s.pos += 2
	default:
		return false
	}
	return true
}

// endOf reads the rest of an end tag after its "</": the name raw, as its
// start tag spelt it, optional white space and '>'.
func (s *fastScanner) endOf(raw span) bool {
	name := s.at(raw)
	end := s.pos + len(name)
	if end > len(s.in) || !bytes.Equal(s.in[s.pos:end], name) || end < len(s.in) && nameClass[s.in[end]] != 0 {
		return false
	}
	s.pos = end
	s.skipSpace()
	if s.pos >= len(s.in) || s.in[s.pos] != '>' {
		return false
	}
	s.pos++
	return true
}

// usualDecls reads the rest of a start tag whose attributes may only be
// namespace declarations (each prefix once, none of xml or xmlns, none
// undeclaring one, none binding the xmlns namespace), appending them to decls[:nd]; it reads the tag's end
// too ('>' or "/>").
func (s *fastScanner) usualDecls(decls []usualNS, nd int) (int, bool) {
	in := s.in
	first := nd
	for {
		spaced := s.pos < len(in) && isSpace(in[s.pos])
		s.skipSpace()
		if s.pos >= len(in) {
			return nd, false
		}
		switch in[s.pos] {
		case '>':
			s.pos++
			return nd, true
		case '/':
			if s.pos+1 < len(in) && in[s.pos+1] == '>' {
				s.pos += 2
				return nd, true
			}
			return nd, false
		}
		if !spaced || nd == len(decls) {
			return nd, false
		}
		_, prefix, local, ok := s.name()
		var bound span
		switch {
		case !ok:
			return nd, false
		case prefix.empty() && string(s.at(local)) == "xmlns":
			bound = span{local.start, local.start} // the default namespace
		case string(s.at(prefix)) == "xmlns" && string(s.at(local)) != "xml" && string(s.at(local)) != "xmlns":
			bound = local
		default:
			return nd, false // another attribute: the general scanner's
		}
		s.skipSpace()
		if s.pos >= len(in) || in[s.pos] != '=' {
			return nd, false
		}
		s.pos++
		s.skipSpace()
		if s.pos >= len(in) || (in[s.pos] != '"' && in[s.pos] != '\'') {
			return nd, false
		}
		q := in[s.pos]
		s.pos++
		end := bytes.IndexByte(in[s.pos:], q)
		if end < 0 {
			return nd, false
		}
		v := in[s.pos : s.pos+end]
		s.pos += end + 1
		if len(v) == 0 || !knownNamespace(v) && !plainValue(v) || string(v) == nsXMLNSPrefix {
			// nsXMLNSPrefix: refused by .NET's reader (see attrError).
			return nd, false
		}
		for _, d := range decls[first:nd] {
			if bytes.Equal(s.at(d.prefix), s.at(bound)) {
				return nd, false // declared twice
			}
		}
		ns := spaceOther
		switch {
		case string(v) == s.r.ns:
			ns = spaceService
		case string(v) == NamespaceSOAP11:
			ns = spaceSOAP11
		case string(v) == NamespaceSOAP12:
			ns = spaceSOAP12
		}
		decls[nd] = usualNS{bound, ns}
		nd++
	}
}

// lookupUsual is the namespace prefix names among decls, the innermost
// declaration first; spaceOther when none declares it.
func lookupUsual(s *fastScanner, decls []usualNS, prefix span) usualSpace {
	p := s.at(prefix)
	for i := len(decls) - 1; i >= 0; i-- {
		if bytes.Equal(s.at(decls[i].prefix), p) {
			return decls[i].ns
		}
	}
	return spaceOther
}

// operationNamed is the operation named b, or nil.
func operationNamed(b []byte) *Operation {
	for _, op := range operations {
		if string(b) == op.Name {
			return op
		}
	}
	return nil
}

// paramIndex is the index of op's parameter named b, or -1.
func paramIndex(op *Operation, b []byte) int {
	for i, p := range op.Params {
		if string(b) == p.Name {
			return i
		}
	}
	return -1
}

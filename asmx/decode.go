package asmx

import (
	"bytes"
	"encoding/xml"
	"io"
	"mime"
	"net/url"
	"strings"
	"unicode/utf8"
)

// MaxDepth is the deepest element nesting a SOAP request may have.
const MaxDepth = 32

// SOAPVersion tells the SOAP binding from a request's content type: SOAP11 for
// text/xml, SOAP12 for application/soap+xml, 0 for anything else. For SOAP 1.2
// it also returns the content type's optional action parameter.
func SOAPVersion(contentType string) (b Binding, action string, hasAction bool) {
	// SOAP 1.1 takes nothing from the parameters: tell it without parsing
	// them (ParseMediaType allocates), by the media type as the fallback
	// below reads it.
	base, _, _ := strings.Cut(contentType, ";")
	if equalFoldASCII(strings.TrimSpace(base), "text/xml") {
		return SOAP11, "", false
	}
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		// Tolerate a broken parameter list if the media type itself is clear.
		mt = strings.ToLower(strings.TrimSpace(strings.SplitN(contentType, ";", 2)[0]))
	}
	switch mt {
	case "text/xml":
		return SOAP11, "", false
	case "application/soap+xml":
		action, hasAction = params["action"]
		return SOAP12, action, hasAction
	}
	return 0, "", false
}

// equalFoldASCII reports whether s equals the lower-case ASCII lower,
// ignoring ASCII case only (as strings.ToLower then == would for lower).
func equalFoldASCII(s, lower string) bool {
	if len(s) != len(lower) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// DecodeSOAP decodes a SOAP request of binding b (SOAP11 or SOAP12) for the
// service namespace ns. action is the SOAPAction header (SOAP 1.1) or the
// content type's action parameter (SOAP 1.2), as sent; hasAction says whether
// one was sent at all. Parameters are matched by name in any order, unknown
// children are skipped, missing ones keep their zero values, as ASP.NET does.
//
// Requests in the plain shape clients send (ASCII, no entities, comments,
// CDATA or DTD) that decode without error are read by a small scanner
// (decode_fast.go); everything else, and every error, goes through
// encoding/xml, so both give the same answers.
func DecodeSOAP(b Binding, ns, action string, hasAction bool, body []byte) (*Call, *Error) {
	var routed *Operation
	if b == SOAP11 || hasAction {
		a := strings.TrimSpace(action)
		if len(a) >= 2 && a[0] == '"' && a[len(a)-1] == '"' {
			a = a[1 : len(a)-1]
		}
		routed = operationOfAction(ns, a)
		// SOAP 1.1 routes by SOAPAction alone. SOAP 1.2's optional action
		// parameter routes when it names an operation; otherwise ASMX falls
		// back to the body element.
		if routed == nil && b == SOAP11 {
			return nil, ErrUnknownAction(b, a)
		}
	}
	if c, ok := decodeSOAPFast(b, ns, routed, body); ok {
		return c, nil
	}
	return decodeSOAPStd(b, ns, routed, body)
}

// operationOfAction returns the operation whose SOAPAction(ns, op) is a,
// or nil; it builds no strings.
func operationOfAction(ns, a string) *Operation {
	prefix := ns
	if len(ns) == 0 || ns[len(ns)-1] != '/' {
		if !strings.HasPrefix(a, ns) || len(a) <= len(ns) || a[len(ns)] != '/' {
			return nil
		}
		prefix = a[:len(ns)+1]
	}
	if !strings.HasPrefix(a, prefix) {
		return nil
	}
	op, ok := LookupOperation(a[len(prefix):])
	if !ok {
		return nil
	}
	return op
}

// decodeSOAPStd reads body with encoding/xml.
func decodeSOAPStd(b Binding, ns string, routed *Operation, body []byte) (*Call, *Error) {
	d := newSOAPReader(b, ns, routed)
	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.Strict = true
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, ErrMalformed(err.Error())
		}
		var e *Error
		switch t := tok.(type) {
		case xml.Directive:
			e = d.directive()
		case xml.ProcInst:
			e = d.procInst(t.Target, t.Inst)
		case xml.StartElement:
			e = d.start(t.Name.Space, t.Name.Local, func() bool { return isNil(t.Attr) })
		case xml.CharData:
			d.text(t)
		case xml.EndElement:
			e = d.end()
		}
		if e != nil {
			return nil, e
		}
	}
	return d.finish()
}

// soapReader is the state of reading one SOAP request, fed the document's
// tokens in order by either reader.
type soapReader struct {
	b      Binding
	ns     string
	routed *Operation // from the action, if any

	call      *Call
	depth     int
	envNS     string
	inBody    bool
	seenBody  bool
	param     int // index of the parameter being read, at depth 4; -1 if none
	paramText []byte
	skipDepth int // >0: skipping an unknown element opened at that depth
}

func newSOAPReader(b Binding, ns string, routed *Operation) *soapReader {
	return &soapReader{b: b, ns: ns, routed: routed, param: -1}
}

func (d *soapReader) directive() *Error {
	return ErrBadXML(d.b, "DTD is prohibited in this XML document.")
}

func (d *soapReader) procInst(target string, inst []byte) *Error {
	if target != "xml" || d.depth > 0 {
		return nil
	}
	if enc := procInstEncoding(inst); enc != "" && !strings.EqualFold(enc, "utf-8") && !strings.EqualFold(enc, "us-ascii") {
		return ErrBadXML(d.b, "Only UTF-8 encoded requests are supported; the request declares "+enc+".")
	}
	return nil
}

// start handles a start tag; nilAttr reports whether it carries
// xsi:nil="true" (asked only of parameters).
func (d *soapReader) start(space, local string, nilAttr func() bool) *Error {
	b := d.b
	d.depth++
	if d.depth > MaxDepth {
		return ErrBadXML(b, "The XML nesting is deeper than the limit of 32 levels.")
	}
	if d.skipDepth > 0 {
		return nil
	}
	switch d.depth {
	case 1:
		if local != "Envelope" {
			return ErrBadXML(b, "The root element <"+local+" xmlns='"+space+"'> is not a SOAP Envelope.")
		}
		d.envNS = space
		want := NamespaceSOAP11
		if b == SOAP12 {
			want = NamespaceSOAP12
		}
		if d.envNS != want {
			return ErrVersionMismatch(b, d.envNS)
		}
	case 2:
		if space == d.envNS && local == "Body" {
			if d.seenBody {
				return ErrBadXML(b, "The envelope has more than one Body.")
			}
			d.inBody, d.seenBody = true, true
		} else {
			d.skipDepth = d.depth // Header and anything else
		}
	case 3:
		if !d.inBody {
			return nil
		}
		if d.call != nil {
			d.skipDepth = d.depth // ASMX reads the first body element only
			return nil
		}
		op, ok := (*Operation)(nil), false
		if space == d.ns {
			op, ok = LookupOperation(local)
		}
		if d.routed != nil && (!ok || op != d.routed) {
			return ErrUnexpectedElement(b, local, space, d.routed.Name)
		}
		if !ok {
			return ErrUnknownElement(b, local, space)
		}
		d.call = newCall(op, b)
	case 4:
		if d.call == nil {
			d.skipDepth = d.depth
			return nil
		}
		d.param = -1
		if space == d.ns {
			for i, p := range d.call.Op.Params {
				if p.Name == local {
					d.param = i
					break
				}
			}
		}
		if d.param < 0 {
			d.skipDepth = d.depth // unknown child: skipped, as XmlSerializer does
			return nil
		}
		d.paramText = d.paramText[:0]
		if nilAttr() {
			d.call.Present[d.param] = true
			d.skipDepth = d.depth
			d.param = -1
		}
	default:
		if d.param >= 0 {
			name := d.call.Op.Params[d.param].Name
			return ErrBadXML(b, "The parameter "+name+" holds an element <"+local+">; it must hold text only.")
		}
	}
	return nil
}

func (d *soapReader) text(t []byte) {
	if d.param >= 0 && d.skipDepth == 0 && d.depth == 4 {
		d.paramText = append(d.paramText, t...)
	}
}

func (d *soapReader) end() *Error {
	if d.skipDepth == d.depth {
		d.skipDepth = 0
	}
	if d.depth == 4 && d.param >= 0 {
		if e := d.call.set(d.param, string(d.paramText)); e != nil {
			return e
		}
		d.param = -1
	}
	if d.depth == 2 {
		d.inBody = false
	}
	d.depth--
	return nil
}

// finish returns the call once the whole document is read.
func (d *soapReader) finish() (*Call, *Error) {
	if d.envNS == "" {
		return nil, ErrMalformed("no root element")
	}
	if d.call == nil {
		if d.routed != nil {
			// An empty Body with a valid action: the operation with no parameters.
			return newCall(d.routed, d.b), nil
		}
		return nil, ErrBadXML(d.b, "The SOAP Body holds no operation element.")
	}
	return d.call, nil
}

func isNil(attrs []xml.Attr) bool {
	for _, a := range attrs {
		if a.Name.Local == "nil" && a.Name.Space == "http://www.w3.org/2001/XMLSchema-instance" {
			return strings.TrimSpace(a.Value) == "true" || strings.TrimSpace(a.Value) == "1"
		}
	}
	return false
}

func procInstEncoding(inst []byte) string {
	s := string(inst)
	i := strings.Index(s, "encoding=")
	if i < 0 {
		return ""
	}
	s = s[i+len("encoding="):]
	if len(s) < 2 {
		return ""
	}
	q := s[0]
	if q != '"' && q != '\'' {
		return ""
	}
	j := strings.IndexByte(s[1:], q)
	if j < 0 {
		return ""
	}
	return s[1 : j+1]
}

// DecodeValues decodes the parameters of a GET, POST or JSON call from
// name/value pairs. Every parameter of the operation must be present, as ASMX
// requires of these bindings; repeated names are joined with commas, as
// ASP.NET's NameValueCollection does, and unknown names are ignored.
func DecodeValues(op *Operation, b Binding, values url.Values) (*Call, *Error) {
	c := newCall(op, b)
	for i, p := range op.Params {
		vs, ok := values[p.Name]
		if !ok {
			return nil, ErrMissingParam(b, p.Name)
		}
		v := strings.Join(vs, ",")
		if !utf8.ValidString(v) {
			return nil, ErrBadQuery(b, "the value of "+p.Name+" is not valid UTF-8")
		}
		if e := c.set(i, v); e != nil {
			return nil, e
		}
	}
	return c, nil
}

// OperationFromPath finds the operation a GET/POST/JSON path names: the last
// path segment after the .asmx file, matched ignoring case as IIS does.
// ok is false for a path naming no operation; name is what it named.
func OperationFromPath(rest string) (op *Operation, name string, ok bool) {
	name = strings.TrimPrefix(rest, "/")
	op, ok = lookupOperationFold(name)
	return op, name, ok
}

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

// DecodeSOAP decodes a SOAP request of binding b (SOAP11 or SOAP12) for the
// service namespace ns. action is the SOAPAction header (SOAP 1.1) or the
// content type's action parameter (SOAP 1.2), as sent; hasAction says whether
// one was sent at all. Parameters are matched by name in any order, unknown
// children are skipped, missing ones keep their zero values, as ASP.NET does.
func DecodeSOAP(b Binding, ns, action string, hasAction bool, body []byte) (*Call, *Error) {
	var routed *Operation
	if b == SOAP11 || hasAction {
		a := strings.TrimSpace(action)
		if len(a) >= 2 && a[0] == '"' && a[len(a)-1] == '"' {
			a = a[1 : len(a)-1]
		}
		for _, op := range operations {
			if a == SOAPAction(ns, op.Name) {
				routed = op
				break
			}
		}
		// SOAP 1.1 routes by SOAPAction alone. SOAP 1.2's optional action
		// parameter routes when it names an operation; otherwise ASMX falls
		// back to the body element.
		if routed == nil && b == SOAP11 {
			return nil, ErrUnknownAction(b, a)
		}
	}

	dec := xml.NewDecoder(bytes.NewReader(body))
	dec.Strict = true
	var (
		call      *Call
		depth     int
		envNS     string
		inBody    bool
		seenBody  bool
		param     = -1 // index of the parameter being read, at depth 4
		paramText []byte
		skipDepth int // >0: skipping an unknown element opened at that depth
	)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, ErrMalformed(err.Error())
		}
		switch t := tok.(type) {
		case xml.Directive:
			return nil, ErrBadXML(b, "DTD is prohibited in this XML document.")
		case xml.ProcInst:
			if t.Target != "xml" || depth > 0 {
				continue
			}
			if enc := procInstEncoding(t.Inst); enc != "" && !strings.EqualFold(enc, "utf-8") && !strings.EqualFold(enc, "us-ascii") {
				return nil, ErrBadXML(b, "Only UTF-8 encoded requests are supported; the request declares "+enc+".")
			}
		case xml.StartElement:
			depth++
			if depth > MaxDepth {
				return nil, ErrBadXML(b, "The XML nesting is deeper than the limit of 32 levels.")
			}
			if skipDepth > 0 {
				continue
			}
			switch depth {
			case 1:
				if t.Name.Local != "Envelope" {
					return nil, ErrBadXML(b, "The root element <"+t.Name.Local+" xmlns='"+t.Name.Space+"'> is not a SOAP Envelope.")
				}
				envNS = t.Name.Space
				want := NamespaceSOAP11
				if b == SOAP12 {
					want = NamespaceSOAP12
				}
				if envNS != want {
					return nil, ErrVersionMismatch(b, envNS)
				}
			case 2:
				if t.Name.Space == envNS && t.Name.Local == "Body" {
					if seenBody {
						return nil, ErrBadXML(b, "The envelope has more than one Body.")
					}
					inBody, seenBody = true, true
				} else {
					skipDepth = depth // Header and anything else
				}
			case 3:
				if !inBody {
					continue
				}
				if call != nil {
					skipDepth = depth // ASMX reads the first body element only
					continue
				}
				op, ok := (*Operation)(nil), false
				if t.Name.Space == ns {
					op, ok = LookupOperation(t.Name.Local)
				}
				if routed != nil && (!ok || op != routed) {
					return nil, ErrUnexpectedElement(b, t.Name.Local, t.Name.Space, routed.Name)
				}
				if !ok {
					return nil, ErrUnknownElement(b, t.Name.Local, t.Name.Space)
				}
				call = newCall(op, b)
			case 4:
				if call == nil {
					skipDepth = depth
					continue
				}
				param = -1
				if t.Name.Space == ns {
					for i, p := range call.Op.Params {
						if p.Name == t.Name.Local {
							param = i
							break
						}
					}
				}
				if param < 0 {
					skipDepth = depth // unknown child: skipped, as XmlSerializer does
					continue
				}
				paramText = paramText[:0]
				if isNil(t.Attr) {
					call.Present[param] = true
					skipDepth = depth
					param = -1
				}
			default:
				if param >= 0 {
					name := call.Op.Params[param].Name
					return nil, ErrBadXML(b, "The parameter "+name+" holds an element <"+t.Name.Local+">; it must hold text only.")
				}
			}
		case xml.CharData:
			if param >= 0 && skipDepth == 0 && depth == 4 {
				paramText = append(paramText, t...)
			}
		case xml.EndElement:
			if skipDepth == depth {
				skipDepth = 0
			}
			if depth == 4 && param >= 0 {
				if e := call.set(param, string(paramText)); e != nil {
					return nil, e
				}
				param = -1
			}
			if depth == 2 {
				inBody = false
			}
			depth--
		}
	}
	if envNS == "" {
		return nil, ErrMalformed("no root element")
	}
	if call == nil {
		if routed != nil {
			// An empty Body with a valid action: the operation with no parameters.
			return newCall(routed, b), nil
		}
		return nil, ErrBadXML(b, "The SOAP Body holds no operation element.")
	}
	return call, nil
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

package asmx

import (
	"bytes"
	"encoding/xml"
	"io"
	"mime"
	"strings"
)

// SOAPVersion tells the SOAP binding from a request's content type: SOAP11 for
// text/xml, SOAP12 for application/soap+xml, 0 for anything else. For SOAP 1.2
// it also returns the content type's optional action parameter. It is a
// guess from the content type alone; DecodeSOAPRequest reads a request as
// ASMX does (the envelope decides the version).
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

// SOAPRequest is what ASMX reads of a SOAP call.
type SOAPRequest struct {
	// Namespace is the service namespace.
	Namespace string
	// ContentType is the Content-Type header as sent.
	ContentType string
	// Action is the SOAPAction header as sent; HasAction says whether the
	// header was sent at all.
	Action    string
	HasAction bool
	// Body is the request body.
	Body []byte
}

// DecodeSOAPRequest reads a SOAP call as ASP.NET's SoapServerProtocol does:
//
//   - It guesses the version first: SOAP 1.2 when there is no SOAPAction
//     header or the content type is application/soap+xml, else SOAP 1.1.
//   - SOAP 1.1 routes by the SOAPAction header alone (unquoted,
//     URL-decoded); SOAP 1.2 by the content type's action parameter, else
//     by the body's first element. Errors up to here are answered in the
//     guessed version (or the envelope's, once routing read it).
//   - The envelope's namespace then decides the version: a SOAP 1.2
//     envelope sent as text/xml is answered as SOAP 1.2; a SOAP 1.1
//     envelope must come as text/xml (else 415); any other namespace is a
//     VersionMismatch.
//   - The body is read leniently, as XmlSerializer does: every element of
//     the routed operation's name in the service namespace is read (a
//     later one overwrites what an earlier one set), parameters are matched
//     by name and namespace in any order, the first of a name wins,
//     unknown elements are skipped and missing parameters keep their zero
//     values.
//
// The text is read in the encoding the content type names (see
// charset.go). Requests in the plain shape clients send are read by a
// small scanner (decode_fast.go); everything else, and every error, goes
// through encoding/xml, so both give the same answers.
func DecodeSOAPRequest(r SOAPRequest) (*Call, *Error) { return decodeSOAP(r, true) }

// decodeSOAP is DecodeSOAPRequest; fast says whether the fast reader may
// answer (tests compare the two readers).
func decodeSOAP(r SOAPRequest, fast bool) (*Call, *Error) {
	guess, op, action, e := routeByHeaders(r)
	if e != nil {
		return nil, e
	}
	if fast && fastReadable(r.ContentType) {
		if c, ok := decodeSOAPFast(r.Namespace, r.ContentType, op, r.Body); ok {
			return c, nil
		}
	}
	text := soapText(r.ContentType, r.Body)
	if op == nil {
		rt := routeByElement(text)
		version := SOAP12
		if rt.rootRead {
			switch rt.rootNS {
			case NamespaceSOAP11:
				version = SOAP11
			case NamespaceSOAP12:
			default:
				return nil, newVersionMismatchError(rt.rootNS)
			}
		}
		switch {
		case rt.err != nil:
			return nil, newRoutingFailedError(version, rt.err.exception())
		case rt.missing != 0:
			return nil, newRoutingFailedError(version, missingElementException(rt.missing == missingEnvelope))
		}
		if rt.space == r.Namespace {
			op, _ = LookupOperation(rt.local)
		}
		if op == nil {
			if action != "" {
				return nil, newActionNotRecognizedError(version, action)
			}
			return nil, newNoActionError(version, rt.local, rt.space)
		}
	}
	if !isSOAPContentType(r.ContentType) {
		return nil, newUnsupportedMediaTypeError(guess, r.ContentType)
	}
	if text.err != nil {
		return nil, newUnreadableError(guess, text.err.message())
	}
	return decodeSOAPStd(r.Namespace, r.ContentType, guess, op, text.text)
}

// routeByHeaders routes a SOAP call as far as its headers take it, before
// ASMX reads the body: the version guessed (SOAP 1.2 when there is no
// SOAPAction header or the content type is application/soap+xml), and the
// operation the SOAPAction header names (SOAP 1.1: unquoted, URL-decoded;
// one naming none is the error) or the content type's action parameter
// does (SOAP 1.2; action is the parameter URL-decoded when it names none).
// op is nil when SOAP 1.2 must route by the body's element. Both versions
// match the action only after URL-decoding it, as .NET's
// Soap11ServerProtocolHelper and Soap12ServerProtocolHelper.RouteRequest
// do (HttpUtility.UrlDecode: '+' is a space), never as sent: an action
// holding the namespace's own '+' or '%' names no operation.
func routeByHeaders(r SOAPRequest) (guess Binding, op *Operation, action string, e *Error) {
	guess = SOAP11
	if !r.HasAction || matchesBase(r.ContentType, "application/soap+xml") {
		guess = SOAP12
	}
	if guess == SOAP11 {
		a := r.Action
		if a == `"` {
			// Soap11ServerProtocolHelper strips the quotes with
			// Substring(1, Length - 2): for a lone quote, which both
			// starts and ends with one, that is Substring(1, -1).
			return guess, nil, "", newLoneQuoteActionError()
		}
		if len(a) >= 2 && a[0] == '"' && a[len(a)-1] == '"' {
			a = a[1 : len(a)-1]
		}
		a = urlDecode(a)
		if op = operationOfAction(r.Namespace, a); op == nil {
			return guess, nil, "", newUnknownActionError(a)
		}
	} else if a, ok := contentTypeParam(r.ContentType, "action"); ok && a != "" {
		action = urlDecode(a)
		if op = operationOfAction(r.Namespace, action); op != nil {
			action = ""
		}
	}
	return guess, op, action, nil
}

// fastReadable reports whether a body of plain ASCII bytes reads the same
// in ct's encoding as in UTF-8, and ct is a SOAP content type: the fast
// reader's condition on the content type.
func fastReadable(ct string) bool {
	if !isSOAPContentType(ct) {
		return false
	}
	name, ok := contentTypeParam(ct, "charset")
	if !ok || name == "" || equalFoldASCII(name, "utf-8") {
		return true
	}
	cs, known := lookupCharset(name)
	return !known || cs.compatible // unknown: US-ASCII, or the reader's own detection
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

// Values of routeResult.missing.
const (
	missingEnvelope = 1
	missingBody     = 2
)

// routeResult is what ASMX's GetRequestElement finds: the root's namespace
// and the body's first element.
type routeResult struct {
	rootRead     bool
	rootNS       string
	space, local string
	missing      int
	err          *xmlError
}

// routeByElement finds the body's first element as ASMX's
// SoapServerProtocolHelper.GetRequestElement does: the root must be an
// Envelope (of any namespace); its children are skipped up to a Body of
// the same namespace; the first content node in the Body names the
// operation (an empty Body, or text, names none).
func routeByElement(rt requestText) routeResult {
	var res routeResult
	if rt.err != nil {
		res.err = rt.err
		return res
	}
	text := rt.text
	if e := leadingError(text); e != nil {
		res.err = e
		return res
	}
	if e := versionError(text); e != nil {
		res.err = e
		return res
	}
	dec := xml.NewDecoder(bytes.NewReader(text))
	dec.Strict = true
	dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	// .NET's v1Compat reader reads a reference to an entity no DTD
	// defines as an entity reference node while routing (the call fails
	// later, reading the parameters): read them as nothing here.
	dec.Entity = undefinedEntities(text)
	depth := 0
	inBody := false
	var starts []int // the offsets of the open elements' start tags
	for {
		off := int(dec.InputOffset())
		if !res.rootRead && nulFirst(text, off) {
			// Before the root, .NET's v1Compat reader takes a NUL where a
			// node starts for the end of the data (ParseDocumentContent).
			res.err = &xmlError{msg: "Root element is missing."}
			return res
		}
		tok, err := dec.Token()
		if err == io.EOF {
			if !res.rootRead {
				res.err = &xmlError{msg: "Root element is missing."}
			} else {
				res.missing = missingBody
			}
			return res
		}
		if err != nil {
			if res.err = markupError(text, off); res.err == nil {
				if res.err = mismatchError(text, err, starts, off); res.err == nil {
					res.err = xmlErrorOf(text, err, off)
				}
			}
			return res
		}
		switch t := tok.(type) {
		case xml.Directive:
			res.err = errDTD
			if res.rootRead {
				res.err = dtdLocationError(text, off)
			}
			return res
		case xml.ProcInst:
			if e := markupError(text, off); e != nil {
				res.err = e
				return res
			}
			if e := piTargetError(text, t.Target, off); e != nil {
				res.err = e
				return res
			}
		case xml.StartElement:
			if e := markupError(text, off); e != nil {
				res.err = e
				return res
			}
			starts = append(starts, off)
			if msg, at, bad := attrError(text[off:dec.InputOffset()], t.Attr); bad {
				line, col := position(text, off+at)
				res.err = &xmlError{msg: msg, line: line, col: col, hasPos: true}
				return res
			}
			depth++
			switch {
			case inBody:
				res.space, res.local = t.Name.Space, t.Name.Local
				return res
			case depth == 1:
				res.rootRead, res.rootNS = true, t.Name.Space
				if t.Name.Local != "Envelope" {
					res.missing = missingEnvelope
					return res
				}
			case depth == 2 && t.Name.Local == "Body" && t.Name.Space == res.rootNS:
				inBody = true
			}
		case xml.EndElement:
			if inBody { // an empty Body: the Body's end names no operation
				res.space, res.local = t.Name.Space, t.Name.Local
				return res
			}
			depth--
			starts = starts[:len(starts)-1]
		case xml.CharData:
			if !res.rootRead {
				// Text before the root (after the XML declaration: a
				// body read on in another encoding from there).
				if i := bytes.IndexFunc(text[off:dec.InputOffset()], func(r rune) bool { return r > 0x7F || !isXMLSpace(byte(r)) }); i >= 0 {
					line, col := position(text, off+i)
					res.err = &xmlError{msg: "Data at the root level is invalid.", line: line, col: col, hasPos: true}
					return res
				}
			}
			if inBody && len(bytes.Trim(t, " \t\r\n")) > 0 {
				return res // text names no operation
			}
		}
	}
}

// Stages of reading the envelope's children.
const (
	stageHead   = iota // before Header or Body
	stageHeader        // in or after the Header: the Body must come next
	stageBody          // in the Body
	stageAfter         // after the Body
)

// soapReader is the state of reading one SOAP request, fed the document's
// tokens in order by either reader.
type soapReader struct {
	ns    string
	ct    string
	guess Binding
	op    *Operation // the routed operation; nil: the body's first element names it (fast reader only)

	call      *Call
	version   Binding // from the envelope's namespace; 0 until read
	depth     int
	envNS     string
	stage     int
	inHeader  bool
	wrapper   bool   // in an element of the operation's name, at depth 3
	read      uint16 // parameters read in the current wrapper element (bit i: Op.Params[i])
	param     int    // index of the parameter being read, at depth 4; -1 if none
	paramText []byte // its text; with deferSet, every parameter's text, one after another

	// deferSet (the fast reader) sets the parameters once the document is
	// read (finish), from one string of all their texts: pending lists
	// them in the order read, and textStart is where the current one's
	// text starts in paramText.
	deferSet  bool
	pending   []pendingParam
	textStart int
	skipDepth int // >0: skipping an element opened at that depth
	envDone   bool

	mustUnderstand []string
}

// helper is the version ASMX answers in at this point: the guess until the
// envelope's namespace is read.
func (d *soapReader) helper() Binding {
	if d.version != 0 {
		return d.version
	}
	return d.guess
}

// isMustUnderstand reports whether a header's mustUnderstand attribute marks
// it so, as ASMX reads it (SoapUnknownHeader.InternalMustUnderstand): the
// attribute in the SOAP 1.1 namespace, else the one in the SOAP 1.2
// namespace, whatever the envelope's version, is exactly "1" or "true" (not
// trimmed; any other value is false).
func isMustUnderstand(v string) bool { return v == "1" || v == "true" }

// start handles a start tag; attr looks up one of its attributes.
func (d *soapReader) start(space, local string, attr func(space, local string) (string, bool)) *Error {
	d.depth++
	if d.skipDepth > 0 {
		return nil
	}
	switch d.depth {
	case 1:
		d.envNS = space
		switch space {
		case NamespaceSOAP11:
			d.version = SOAP11
			if !matchesBase(d.ct, "text/xml") {
				return newUnsupportedMediaTypeError(SOAP11, d.ct)
			}
		case NamespaceSOAP12:
			d.version = SOAP12
		default:
			return newVersionMismatchError(space)
		}
		if local != "Envelope" {
			return newMissingElementError(d.version, true)
		}
	case 2:
		isHeader := space == d.envNS && local == "Header"
		isBody := space == d.envNS && local == "Body"
		switch {
		case d.stage == stageHead && isHeader:
			d.stage, d.inHeader = stageHeader, true
		case (d.stage == stageHead || d.stage == stageHeader) && isBody:
			d.stage = stageBody
			if d.op != nil {
				d.call = newCall(d.op, d.version)
			}
		case d.stage == stageAfter:
			d.skipDepth = d.depth
		default:
			return newMissingElementError(d.version, false)
		}
	case 3:
		switch {
		case d.inHeader:
			v, ok := attr(NamespaceSOAP11, "mustUnderstand")
			if !ok {
				v, _ = attr(NamespaceSOAP12, "mustUnderstand")
			}
			if isMustUnderstand(v) {
				d.mustUnderstand = append(d.mustUnderstand, local)
			}
			d.skipDepth = d.depth
		case d.stage == stageBody:
			if d.op == nil { // the fast reader routing by the first element
				op, ok := LookupOperation(local)
				if !ok || space != d.ns {
					return errRouting
				}
				d.op, d.call = op, newCall(op, d.version)
			}
			if space == d.ns && local == d.op.Name {
				d.wrapper, d.read = true, 0
			} else {
				d.skipDepth = d.depth // XmlSerializer skips unknown nodes
			}
		default:
			d.skipDepth = d.depth
		}
	case 4:
		if !d.wrapper {
			d.skipDepth = d.depth
			return nil
		}
		d.param = -1
		if space == d.ns {
			for i, p := range d.call.Op.Params {
				if p.Name == local && d.read&(1<<i) == 0 {
					d.param = i
					break
				}
			}
		}
		if d.param < 0 {
			d.skipDepth = d.depth // unknown, or read already: skipped
			return nil
		}
		if d.deferSet {
			d.textStart = len(d.paramText)
		} else {
			d.paramText = d.paramText[:0]
		}
	default:
		if d.param >= 0 { // ReadElementString reads text only
			return newUnreadableError(d.helper(), "'Element' is an invalid XmlNodeType.")
		}
	}
	return nil
}

// errRouting stops the fast reader where the first body element names no
// operation; DecodeSOAPRequest then answers as ASMX does.
var errRouting = &Error{Message: "the body element names no operation"}

// xmlSpace reports whether t is XML white space only (space, tab, CR, LF).
func xmlSpace(t []byte) bool {
	for _, c := range t {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

// text handles character data.
func (d *soapReader) text(t []byte) *Error {
	switch {
	case d.skipDepth > 0:
	case d.param >= 0 && d.depth == 4:
		d.paramText = append(d.paramText, t...)
	case d.depth == 1 && d.stage < stageBody && !xmlSpace(t):
		return newMissingElementError(d.version, false) // text where the Body must be
	case d.op == nil && d.depth == 2 && d.stage == stageBody && !xmlSpace(t):
		return errRouting // text names no operation
	}
	return nil
}

// end handles an end tag; next gives the position of the node after it.
func (d *soapReader) end(next func() (int, int)) *Error {
	defer func() { d.depth-- }()
	if d.skipDepth > 0 {
		if d.skipDepth == d.depth {
			d.skipDepth = 0
		}
		return nil
	}
	switch d.depth {
	case 4:
		if d.param >= 0 {
			i := d.param
			d.param = -1
			d.read |= 1 << i
			if d.deferSet {
				d.pending = append(d.pending, pendingParam{i, d.textStart, len(d.paramText)})
				return nil
			}
			value := string(d.paramText)
			if x := d.call.set(i, value); x != nil {
				if next == nil {
					return errRouting // the fast reader leaves errors to encoding/xml
				}
				line, col := next()
				return newConvertSOAPError(d.version, d.call.Op, d.call.Op.Params[i], value, line, col, x)
			}
		}
	case 3:
		d.wrapper = false
	case 2:
		switch d.stage {
		case stageHeader:
			d.inHeader = false
		case stageBody:
			d.stage = stageAfter
			if d.call == nil && d.op == nil {
				return errRouting // an empty Body names no operation
			}
		}
	case 1:
		if d.stage < stageBody {
			return newMissingElementError(d.version, false)
		}
		d.envDone = true
	}
	return nil
}

// finish returns the call once the document is read.
func (d *soapReader) finish() (*Call, *Error) {
	if !d.envDone || d.call == nil {
		return nil, newUnreadableError(d.helper(), "Unexpected end of file has occurred.")
	}
	if len(d.pending) > 0 {
		texts := string(d.paramText) // one string for every parameter's text
		for _, p := range d.pending {
			if x := d.call.set(p.i, texts[p.start:p.end]); x != nil {
				return nil, errRouting // the fast reader leaves errors to encoding/xml
			}
		}
	}
	if len(d.mustUnderstand) > 0 {
		d.call.MustUnderstand = d.mustUnderstand
	}
	return d.call, nil
}

// pendingParam is a parameter read but not yet set (soapReader.deferSet):
// its index and its text, paramText[start:end].
type pendingParam struct{ i, start, end int }

// OperationFromPath finds the operation a GET/POST/JSON path names: the last
// path segment after the .asmx file, matched ignoring case. ok is false for
// a path naming no operation; name is what it named. It is for readers of
// recorded requests; a server resolves names as ASMX does with MethodFromPath.
func OperationFromPath(rest string) (op *Operation, name string, ok bool) {
	name = strings.TrimPrefix(rest, "/")
	op, ok = lookupOperationFold(name)
	return op, name, ok
}

// MethodFromPath finds the operation an HTTP GET or POST path names, as
// ASMX's HttpServerProtocol does: pathInfo is the path after the .asmx file
// ("/ReturnProvinces"); the name must match exactly. A name that matches
// only ignoring case, or none, is an error in b's form. With jsonOnly, only
// the operations of the JSON path count.
func MethodFromPath(b Binding, pathInfo string, jsonOnly bool) (*Operation, *Error) {
	name := strings.TrimPrefix(pathInfo, "/")
	var fold *Operation
	for _, op := range operations {
		if jsonOnly && !op.JSON {
			continue
		}
		if op.Name == name {
			return op, nil
		}
		if fold == nil && strings.EqualFold(op.Name, name) {
			fold = op
		}
	}
	if fold != nil {
		return nil, newMethodNameCaseError(b, name, fold.Name)
	}
	return nil, newUnknownMethodError(b, name)
}

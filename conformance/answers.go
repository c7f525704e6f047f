package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/beevik/etree"
)

// This file reads answers: the XML result of a successful call in each
// binding, and faults.

func envelopeNS(b Binding) (want, other string) {
	if b == SOAP12 {
		return soap12EnvNS, soap11EnvNS
	}
	return soap11EnvNS, soap12EnvNS
}

func wantContentType(b Binding) string {
	if b == SOAP12 {
		return ctSOAP12
	}
	return ctTextXML
}

// checkContentType compares media type and charset (case-insensitively, as
// MIME does) with want. A parameter besides charset fails too: ASMX writes
// none (an action parameter, say, belongs to a SOAP 1.2 request, never to
// an answer).
func checkContentType(x *Exchange, what, want string) error {
	if cts := x.RespHeader.Values("Content-Type"); len(cts) > 1 {
		quoted := make([]string, len(cts))
		for i, ct := range cts {
			quoted[i] = fmt.Sprintf("%q", quote(ct, 200, x.masks()...))
		}
		// ASP.NET writes one; a client joins two (.NET's with a comma) or
		// reads either, so what it decodes the body as is anyone's guess.
		return fail(x, what+": content type", want+" (one Content-Type header: ASMX writes one)", "%d Content-Type headers: %s", len(cts), strings.Join(quoted, ", "))
	}
	wmt, wcs, _ := mediaType(want)
	mt, cs, ok := mediaType(x.ContentType())
	if !ok || mt != wmt || cs != wcs {
		return fail(x, what+": content type", want, "%q", x.ContentType())
	}
	if extra := otherParams(x.ContentType()); len(extra) > 0 {
		return fail(x, what+": content type", want+" (no parameter but charset: ASMX writes none)", "%q, with %s", x.ContentType(), strings.Join(extra, ", "))
	}
	return nil
}

// snippet is the start of a body as a failure quotes it: at most 300
// bytes, keys (the call's, Exchange.masks) masked before it is made
// printable and cut (quote), and before its first 4,096 bytes, enough to
// fill the snippet, are cut from it (head).
func snippet(b []byte, keys ...string) string {
	s := strings.TrimSpace(head(b, 4096, keys...))
	if s == "" {
		if len(bytes.TrimSpace(b)) > 0 {
			return "(white space in its first 4096 bytes)"
		}
		return "(empty body)"
	}
	return quote(s, 300, keys...)
}

// answered describes an answer's status and body for a failure: "503 with
// <the body's start>", and where a redirect points (the suite follows
// none).
func answered(x *Exchange) string {
	if isRedirect(x.Status) {
		return fmt.Sprintf("%d, a redirect to %s (not followed), with %s", x.Status, redirectTarget(x), snippet(x.RespBody, x.masks()...))
	}
	return fmt.Sprintf("%d with %s", x.Status, snippet(x.RespBody, x.masks()...))
}

// resultOf checks a successful answer of an XML binding (status 200, the
// binding's content type, the envelope of the request's SOAP version with
// exactly <Op>Response in ns holding exactly <Op>Result, or a bare XML
// document for GET and POST) and returns the result's wrapper: the
// <Op>Result element in SOAP, the document's root in GET and POST. What the
// wrapper holds (one node, typed fields or items, a DataSet) is the
// deployment's choice; see layout.go.
func resultOf(x *Exchange, ns string) (*etree.Element, error) {
	return resultIn(x, x.Request.Binding, ns)
}

// resultIn is resultOf for an answer expected in binding b, whatever the
// request's binding was (a SOAP 1.2 envelope sent as text/xml is answered
// as SOAP 1.2).
func resultIn(x *Exchange, b Binding, ns string) (*etree.Element, error) {
	op := x.Request.Op
	what := fmt.Sprintf("%s over %s", op, b)
	if x.Request.Reversed {
		what += " with its parameters in reverse order"
	}
	if a := x.Request.Action; a != "" && !strings.HasPrefix(a, `"`) {
		what += " with SOAPAction " + a + " (unquoted)"
	}
	if ct := x.Request.ContentType; ct != "" {
		what += " sent as " + ct
	}
	if x.Status != http.StatusOK {
		return nil, fail(x, what+": status", "200", "%s", answered(x))
	}
	if err := checkContentType(x, what, wantContentType(b)); err != nil {
		return nil, err
	}
	doc, err := x.xml()
	if err != nil {
		if (b == HTTPGet || b == HTTPPost) && isSearch(op) && onlyDeclaration(x.RespBody) {
			// A search's null node (XmlElement, XmlNode): XmlSerializer
			// writes the declaration alone (WriteNullTagLiteral writes no
			// element of an empty name).
			return nullResult(ns, op), nil
		}
		return nil, fail(x, what+": body", "an XML document", "%v in %s", err, snippet(x.RespBody, x.masks()...))
	}
	root := doc.Root()
	switch b {
	case SOAP11, SOAP12:
		if err := noDoctype(x, doc, what); err != nil {
			return nil, err
		}
	case HTTPGet, HTTPPost:
		if err := noDoctype(x, doc, what); err != nil {
			return nil, err
		}
		if q := nameOf(root); q.Local == "Envelope" && (q.Space == soap11EnvNS || q.Space == soap12EnvNS) {
			return nil, fail(x, what+": body", "the bare XML result, no SOAP envelope", "a %s envelope", q)
		}
		return root, nil
	}
	env, other := envelopeNS(b)
	if q := nameOf(root); q != (qname{env, "Envelope"}) {
		return nil, fail(x, what+": envelope", qname{env, "Envelope"}.String(), "root element %s", q)
	}
	var stray *etree.Element
	var walk func(e *etree.Element)
	walk = func(e *etree.Element) {
		if stray == nil && e.NamespaceURI() == other {
			stray = e
		}
		for _, k := range e.ChildElements() {
			walk(k)
		}
	}
	walk(root)
	if stray != nil {
		return nil, fail(x, what+": envelope", "only the "+string(b)+" envelope namespace "+env, "element %s", nameOf(stray))
	}
	body, err := soapBody(x, root, env, what)
	if err != nil {
		return nil, err
	}
	want := qname{ns, op + "Response"}
	if kids := body.ChildElements(); len(kids) != 1 || nameOf(kids[0]) != want {
		return nil, fail(x, what+": Body", "exactly "+want.String(), "%s", names(kids))
	}
	resp := body.ChildElements()[0]
	want = qname{ns, op + "Result"}
	if len(resp.ChildElements()) == 0 && textOf(resp) == "" && isSearch(op) {
		// A search's null result: ASMX leaves <OpResult> out (the
		// return value's element is not nillable; minOccurs="0").
		return nullResult(ns, op), nil
	}
	if kids := resp.ChildElements(); len(kids) != 1 || nameOf(kids[0]) != want {
		return nil, fail(x, what+": "+op+"Response", "exactly "+want.String(), "%s", names(kids))
	}
	return resp.ChildElements()[0], nil
}

// noDoctype fails an answer with a document type declaration: SOAP 1.1
// (section 3) and 1.2 (part 1, section 5) forbid one in a message, ASMX
// reads none (it answers a request with a DOCTYPE 400) and writes none, and
// clients that prohibit DTDs (.NET's XmlReader by default) refuse it.
func noDoctype(x *Exchange, doc *etree.Document, what string) error {
	if d, ok := doctype(doc); ok {
		return fail(x, what+": envelope", "no document type declaration (SOAP forbids one in a message; ASMX prohibits DTDs)", "%s", clip(d, 200, x.masks()...))
	}
	return nil
}

// xmlDeclRE matches an XML declaration at the start of a document, and
// encodingRE the encoding it names.
var (
	xmlDeclRE  = regexp.MustCompile(`^<\?xml[ \t\r\n][^?]*\?>`)
	encodingRE = regexp.MustCompile(`[ \t\r\n]encoding[ \t\r\n]*=[ \t\r\n]*["']([^"']*)["']`)
)

// checkDeclaration checks that an XML answer begins with an XML declaration
// whose encoding, if it names one, is the charset of the answer's content
// type: ASMX writes <?xml version="1.0" encoding="utf-8"?> before every
// result and fault, and a declared encoding other than the bytes' makes
// clients that read it (rather than the content type) decode the answer
// wrongly or refuse it.
func checkDeclaration(x *Exchange, what string) error {
	body := bytes.TrimPrefix(x.RespBody, []byte("\ufeff"))
	decl := xmlDeclRE.Find(body)
	if decl == nil {
		return fail(x, what+": XML declaration", `<?xml version="1.0" encoding="utf-8"?> at the start (ASMX writes one before every result and fault)`, "%s", snippet(body[:min(len(body), 80)], x.masks()...))
	}
	_, charset, _ := mediaType(x.ContentType())
	if m := encodingRE.FindSubmatch(decl); m != nil && !strings.EqualFold(string(m[1]), charset) {
		// The charset is quoted as mediaType reads it, in lower case: a key
		// it holds is masked in lower case too.
		masks := x.masks()
		for _, k := range x.masks() {
			masks = append(masks, strings.ToLower(k))
		}
		return fail(x, what+": XML declaration's encoding", fmt.Sprintf("%q, the charset of the content type %q", clip(charset, 100, masks...), clip(x.ContentType(), 100, x.masks()...)), "%s", string(decl))
	}
	return nil
}

func names(es []*etree.Element) string {
	if len(es) == 0 {
		return "no elements"
	}
	s := make([]string, len(es))
	for i, e := range es {
		s[i] = nameOf(e).String()
	}
	return strings.Join(s, ", ")
}

// resolve returns the namespace URI bound to prefix at e.
func resolve(e *etree.Element, prefix string) string {
	for ; e != nil; e = e.Parent() {
		for _, a := range e.Attr {
			if (prefix != "" && a.Space == "xmlns" && a.Key == prefix) || (prefix == "" && a.Space == "" && a.Key == "xmlns") {
				return a.Value
			}
		}
	}
	return ""
}

// qnameValue resolves a QName written as element text (e.g. soap:Client).
func qnameValue(e *etree.Element) qname {
	t := textOf(e)
	prefix, local, ok := strings.Cut(t, ":")
	if !ok {
		prefix, local = "", t
	}
	return qname{resolve(e, prefix), local}
}

// ASMX's texts and forms of a refusal.
const (
	// unableToProcess begins the text of every fault ASMX makes of an
	// exception that is not a SoapException, always with the Server code
	// (SoapServerProtocol.WriteException).
	unableToProcess = "Server was unable to process request."
	// soapExceptionType begins a fault text written in the detailed form
	// (customErrors Off, or a caller on the server itself): e.ToString().
	soapExceptionType = "System.Web.Services.Protocols.SoapException: "
)

// soapFault checks that x is a SOAP fault of binding b's version as ASMX
// writes one (HTTP 500, the version's content type, Envelope/Body/Fault with
// a code and a non-empty text) and returns its code and text.
func soapFault(x *Exchange, b Binding, what string) (qname, string, error) {
	if x.Status != http.StatusInternalServerError {
		return qname{}, "", fail(x, what+": status", fmt.Sprintf("500 with a %s fault (ASMX answers every fault with a body as 500)", b), "%s", answered(x))
	}
	if err := checkContentType(x, what, wantContentType(b)); err != nil {
		return qname{}, "", err
	}
	if err := checkDeclaration(x, what); err != nil {
		return qname{}, "", err
	}
	doc, err := parseXML(x.RespBody, x.masks()...)
	if err != nil {
		return qname{}, "", fail(x, what+": body", "a SOAP fault", "%v in %s", err, snippet(x.RespBody, x.masks()...))
	}
	if err := noDoctype(x, doc, what); err != nil {
		return qname{}, "", err
	}
	env, _ := envelopeNS(b)
	root := doc.Root()
	if nameOf(root) != (qname{env, "Envelope"}) {
		return qname{}, "", fail(x, what+": envelope", qname{env, "Envelope"}.String(), "root element %s", nameOf(root))
	}
	bd, err := soapBody(x, root, env, what)
	if err != nil {
		return qname{}, "", err
	}
	var fault *etree.Element
	for _, k := range bd.ChildElements() {
		if nameOf(k) == (qname{env, "Fault"}) {
			fault = k
		}
	}
	if fault == nil {
		return qname{}, "", fail(x, what+": body", qname{env, "Fault"}.String()+" in the Body", "%s", snippet(x.RespBody, x.masks()...))
	}
	if b == SOAP11 {
		// SOAP 1.1 (section 4.4) has faultcode and faultstring unqualified:
		// a client looks for them in no namespace.
		fc, fs := child(fault, qname{"", "faultcode"}), child(fault, qname{"", "faultstring"})
		if fc == nil || fs == nil || textOf(fs) == "" {
			return qname{}, "", fail(x, what+": fault", "faultcode and a non-empty faultstring, in no namespace (SOAP 1.1)", "children %s in %s", names(fault.ChildElements()), snippet(x.RespBody, x.masks()...))
		}
		return qnameValue(fc), textOf(fs), nil
	}
	var cv, txt *etree.Element
	if c := child(fault, qname{env, "Code"}); c != nil {
		cv = child(c, qname{env, "Value"})
	}
	if r := child(fault, qname{env, "Reason"}); r != nil {
		txt = child(r, qname{env, "Text"})
	}
	if cv == nil || txt == nil || textOf(txt) == "" {
		return qname{}, "", fail(x, what+": fault", "Code/Value and a non-empty Reason/Text, each in "+env+" (SOAP 1.2)", "children %s in %s", names(fault.ChildElements()), snippet(x.RespBody, x.masks()...))
	}
	// SOAP 1.2 (part 1, 5.4.2.1) requires xml:lang on each Reason/Text;
	// ASMX writes xml:lang="en" (Soap12ServerProtocolHelper.WriteFault),
	// and WCF's client refuses a fault without it (XmlLangAttributeMissing).
	if txt.SelectAttr("xml:lang") == nil {
		return qname{}, "", fail(x, what+": fault", "Reason/Text with an xml:lang attribute (SOAP 1.2 requires it; ASMX writes xml:lang=\"en\", and WCF clients refuse a fault without it)", "%s", snippet(x.RespBody, x.masks()...))
	}
	return qnameValue(cv), textOf(txt), nil
}

// soapBody returns the one Body of the envelope root in namespace env:
// SOAP 1.1 (section 4) and 1.2 (part 1, 5.3) give an envelope exactly
// one, and a client reads the first where the suite would read another.
func soapBody(x *Exchange, root *etree.Element, env, what string) (*etree.Element, error) {
	var bodies []*etree.Element
	for _, k := range root.ChildElements() {
		if nameOf(k) == (qname{env, "Body"}) {
			bodies = append(bodies, k)
		}
	}
	if len(bodies) != 1 {
		return nil, fail(x, what+": envelope", "one "+qname{env, "Body"}.String()+" in the envelope", "children %s", names(root.ChildElements()))
	}
	return bodies[0], nil
}

// child returns e's first child element named q, or nil.
func child(e *etree.Element, q qname) *etree.Element {
	for _, k := range e.ChildElements() {
		if nameOf(k) == q {
			return k
		}
	}
	return nil
}

// checkFault checks that x is a SOAP fault of the request's version (see
// soapFault) with one of codes (local names, e.g. "Client" or "Sender"; none
// given: any code SOAP defines), or for GET and POST ASMX's 500 text/plain.
func checkFault(x *Exchange, what string, codes ...string) error {
	return checkFaultIn(x, x.Request.Binding, what, codes...)
}

// checkFaultIn is checkFault for a fault expected in binding b's form.
func checkFaultIn(x *Exchange, b Binding, what string, codes ...string) error {
	switch b {
	case HTTPGet, HTTPPost, JSON:
		return checkServiceFault(x, what)
	}
	code, _, err := soapFault(x, b, what)
	if err != nil {
		return err
	}
	valid := []string{"Client", "Server", "VersionMismatch", "MustUnderstand"}
	if b == SOAP12 {
		valid = []string{"Sender", "Receiver", "VersionMismatch", "MustUnderstand", "DataEncodingUnknown"}
	}
	if len(codes) > 0 {
		valid = codes
	}
	env, _ := envelopeNS(b)
	for _, c := range valid {
		if code == (qname{env, c}) {
			return nil
		}
	}
	return fail(x, what+": fault code", fmt.Sprintf("one of %q in %s", valid, env), "%s", code)
}

// checkServiceFault checks a refusal by the service's own code (a key it does
// not accept) or by ASMX reading the parameters (a value that does not
// convert) in every form ASMX can give it:
//   - SOAP: HTTP 500, a fault of the request's version with the Client or
//     Server code (Sender or Receiver in SOAP 1.2), whatever the text (a
//     SoapException the service throws keeps its own code and message), but
//     the text "Server was unable to process request. ---> …" only with
//     Server/Receiver: ASMX writes it for an exception that is not a
//     SoapException, always with that code;
//   - HTTP GET and POST: HTTP 500, text/plain; charset=utf-8 (the messages,
//     or in the detailed form the exception's type names and stack trace);
//   - the JSON path, an .asmx too: the same as GET, or, when ASP.NET's
//     script handler serves it (a request declared application/json), HTTP
//     500 with a JSON object holding Message, declared application/json (any
//     charset) and marked by the header jsonerror: true.
func checkServiceFault(x *Exchange, what string) error {
	b := x.Request.Binding
	switch b {
	case HTTPGet, HTTPPost, JSON:
		if x.Status != http.StatusInternalServerError {
			return fail(x, what+": status", "500 (ASMX's error status for GET, POST and the JSON path)", "%s", answered(x))
		}
		if b == JSON && strings.EqualFold(strings.TrimSpace(x.RespHeader.Get("jsonerror")), "true") {
			if mt, _, _ := mediaType(x.ContentType()); mt != "application/json" {
				return fail(x, what+": content type", "application/json (ASP.NET's script handler, which marks its errors jsonerror: true)", "%q", x.ContentType())
			}
			var m map[string]any
			if err := json.Unmarshal(x.RespBody, &m); err != nil {
				return fail(x, what+": body", `a JSON object {"Message":…} (ASP.NET's script handler)`, "%v in %s", err, snippet(x.RespBody, x.masks()...))
			}
			if _, ok := m["Message"].(string); !ok {
				return fail(x, what+": body", `a JSON object {"Message":…} (ASP.NET's script handler)`, "%s", snippet(x.RespBody, x.masks()...))
			}
			return nil
		}
		return checkContentType(x, what, ctTextPlain)
	}
	code, text, err := soapFault(x, b, what)
	if err != nil {
		return err
	}
	env, _ := envelopeNS(b)
	client, server := qname{env, "Client"}, qname{env, "Server"}
	if b == SOAP12 {
		client, server = qname{env, "Sender"}, qname{env, "Receiver"}
	}
	if code != client && code != server {
		return fail(x, what+": fault code", fmt.Sprintf("%s or %s (the code of a SoapException the service throws, or ASMX's)", client, server), "%s", code)
	}
	if code == client && strings.HasPrefix(strings.TrimPrefix(text, soapExceptionType), unableToProcess) {
		return fail(x, what+": fault code and text", fmt.Sprintf("%q only with %s: ASMX writes it for an exception that is not a SoapException, always with that code; a SoapException of the service keeps its own code and message", unableToProcess+" ---> …", server.Local), "%s with %q", code.Local, clip(text, 200, x.masks()...))
	}
	return nil
}

// isSearch reports whether op is one of the six searches, whose result when
// nothing matches the interface document does not show: an empty list or
// null, as the deployment's code returns.
func isSearch(op string) bool {
	o := operation(op)
	return o.Locations && len(o.Params) > 1
}

// onlyDeclaration reports whether an answer's body is an XML declaration
// alone (white space around it), as XmlSerializer writes a null node over
// HTTP GET and POST.
func onlyDeclaration(body []byte) bool {
	body = bytes.TrimSpace(bytes.TrimPrefix(body, []byte("\ufeff")))
	decl := xmlDeclRE.Find(body)
	return decl != nil && len(bytes.TrimSpace(body[len(decl):])) == 0
}

// nullResult stands for a search's null result, which ASMX writes as no
// <OpResult> over SOAP, a root with xsi:nil="true" over HTTP GET and POST
// (a class, an array, a DataSet) or no root (a node): an <OpResult>
// wrapper in ns holding nothing, marked xsi:nil="true" as ASMX marks a
// null root. Its content is empty, as a typed nil root's is, so that the
// bindings' null results are equivalent, and different from any result
// that holds locations.
func nullResult(ns, op string) *etree.Element {
	e := etree.NewElement(op + "Result")
	if ns != "" {
		e.CreateAttr("xmlns", ns)
	}
	e.CreateAttr("xmlns:xsi", xsiNS)
	e.CreateAttr("xsi:nil", "true")
	return e
}

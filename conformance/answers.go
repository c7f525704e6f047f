package conformance

import (
	"fmt"
	"net/http"
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
// MIME does) with want.
func checkContentType(x *Exchange, what, want string) error {
	wmt, wcs, _ := mediaType(want)
	mt, cs, ok := mediaType(x.ContentType())
	if !ok || mt != wmt || cs != wcs {
		return fail(x, what+": content type", want, "%q", x.ContentType())
	}
	return nil
}

func snippet(b []byte) string {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return "(empty body)"
	}
	return truncate(s, 300)
}

// resultOf checks a successful answer of an XML binding (status 200, the
// binding's content type, the envelope of the request's SOAP version with
// exactly <Op>Response in ns holding <Op>Result, or the bare result for GET
// and POST) and returns the result node.
func resultOf(x *Exchange, ns string) (*etree.Element, error) {
	b, op := x.Request.Binding, x.Request.Op
	what := fmt.Sprintf("%s over %s", op, b)
	if x.Status != http.StatusOK {
		return nil, fail(x, what+": status", "200", "%d with %s", x.Status, snippet(x.RespBody))
	}
	if err := checkContentType(x, what, wantContentType(b)); err != nil {
		return nil, err
	}
	doc, err := x.xml()
	if err != nil {
		return nil, fail(x, what+": body", "an XML document", "%v in %s", err, snippet(x.RespBody))
	}
	root := doc.Root()
	switch b {
	case HTTPGet, HTTPPost:
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
	var body *etree.Element
	for _, k := range root.ChildElements() {
		if nameOf(k) == (qname{env, "Body"}) {
			body = k
		}
	}
	if body == nil {
		return nil, fail(x, what+": envelope", qname{env, "Body"}.String()+" in the envelope", "children %s", names(root.ChildElements()))
	}
	want := qname{ns, op + "Response"}
	if kids := body.ChildElements(); len(kids) != 1 || nameOf(kids[0]) != want {
		return nil, fail(x, what+": Body", "exactly "+want.String(), "%s", names(kids))
	}
	resp := body.ChildElements()[0]
	want = qname{ns, op + "Result"}
	if kids := resp.ChildElements(); len(kids) != 1 || nameOf(kids[0]) != want {
		return nil, fail(x, what+": "+op+"Response", "exactly "+want.String(), "%s", names(kids))
	}
	kids := resp.ChildElements()[0].ChildElements()
	if len(kids) != 1 {
		return nil, fail(x, what+": "+op+"Result", "one XML result node", "%s", names(kids))
	}
	return kids[0], nil
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

// checkFault checks that x is a refusal in the request's binding: a SOAP
// fault of the request's SOAP version with HTTP 500 (400 or 500 in SOAP 1.2)
// and the binding's content type; for GET and POST ASMX's 500 text/plain; for
// JSON anything but 200. codes, when given, are the acceptable fault codes
// (local names, e.g. "Client" or "Sender").
func checkFault(x *Exchange, what string, codes ...string) error {
	b := x.Request.Binding
	switch b {
	case JSON:
		if x.Status == http.StatusOK {
			return fail(x, what+": status", "an error status, not 200", "200 with %s", snippet(x.RespBody))
		}
		return nil
	case HTTPGet, HTTPPost:
		if x.Status != http.StatusInternalServerError {
			return fail(x, what+": status", "500 (ASMX's error status for GET and POST)", "%d with %s", x.Status, snippet(x.RespBody))
		}
		return checkContentType(x, what, ctTextPlain)
	}
	if b == SOAP11 && x.Status != http.StatusInternalServerError {
		return fail(x, what+": status", "500 with a SOAP 1.1 fault (SOAP 1.1 section 6.2)", "%d with %s", x.Status, snippet(x.RespBody))
	}
	if b == SOAP12 && x.Status != http.StatusInternalServerError && x.Status != http.StatusBadRequest {
		return fail(x, what+": status", "500 (or 400) with a SOAP 1.2 fault", "%d with %s", x.Status, snippet(x.RespBody))
	}
	if err := checkContentType(x, what, wantContentType(b)); err != nil {
		return err
	}
	doc, err := parseXML(x.RespBody)
	if err != nil {
		return fail(x, what+": body", "a SOAP fault", "%v in %s", err, snippet(x.RespBody))
	}
	env, _ := envelopeNS(b)
	root := doc.Root()
	if nameOf(root) != (qname{env, "Envelope"}) {
		return fail(x, what+": envelope", qname{env, "Envelope"}.String(), "root element %s", nameOf(root))
	}
	var fault *etree.Element
	for _, bd := range root.ChildElements() {
		if nameOf(bd) == (qname{env, "Body"}) {
			for _, k := range bd.ChildElements() {
				if nameOf(k) == (qname{env, "Fault"}) {
					fault = k
				}
			}
		}
	}
	if fault == nil {
		return fail(x, what+": body", qname{env, "Fault"}.String()+" in the Body", "%s", snippet(x.RespBody))
	}
	var code qname
	if b == SOAP11 {
		fc, fs := fault.SelectElement("faultcode"), fault.SelectElement("faultstring")
		if fc == nil || fs == nil || textOf(fs) == "" {
			return fail(x, what+": fault", "faultcode and a non-empty faultstring", "%s", snippet(x.RespBody))
		}
		code = qnameValue(fc)
	} else {
		var cv *etree.Element
		if c := fault.SelectElement("Code"); c != nil && nameOf(c).Space == env {
			cv = c.SelectElement("Value")
		}
		r := fault.SelectElement("Reason")
		if cv == nil || r == nil || r.SelectElement("Text") == nil {
			return fail(x, what+": fault", "Code/Value and Reason/Text in "+env, "%s", snippet(x.RespBody))
		}
		code = qnameValue(cv)
	}
	valid := []string{"Client", "Server", "VersionMismatch", "MustUnderstand"}
	if b == SOAP12 {
		valid = []string{"Sender", "Receiver", "VersionMismatch", "MustUnderstand", "DataEncodingUnknown"}
	}
	if len(codes) > 0 {
		valid = codes
	}
	for _, c := range valid {
		if code == (qname{env, c}) {
			return nil
		}
	}
	return fail(x, what+": fault code", fmt.Sprintf("one of %q in %s", valid, env), "%s", code)
}

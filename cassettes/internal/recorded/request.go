package recorded

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/internal/wire"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// CallOf decodes a request, live or recorded, with the asmx decoders: SOAP
// by its content type, GET, POST and JSON by path, query and form. ok is
// false for anything that is not a well-formed call of an operation (WSDL,
// help pages, health checks, requests the service rejects). A query or
// form that net/url cannot parse (%uXXXX escapes, a lone '%', a ';') is
// read as ASMX reads it (readValues). Queries and forms are read as a
// deployment of ASP.NET's default requestEncoding (UTF-8) reads them: in
// the charset a form's Content-Type names, else as UTF-8 (CallOfIn).
func CallOf(method, rawURL string, h http.Header, body string) (c *asmx.Call, ok bool) {
	return CallOfIn(asmx.RequestEncodingUTF8, method, rawURL, h, body)
}

// CallOfIn is CallOf for a deployment whose requestEncoding is enc: a
// query or form that names no charset is read in enc, as the mock serving
// with that requestEncoding reads it (asmx.RequestEncoding), so that a
// recording of a legacy deployment (requestEncoding="iso-8859-1":
// strCity=Montr%E9al) is the call that mock decodes from the same request.
func CallOfIn(enc asmx.RequestEncoding, method, rawURL string, h http.Header, body string) (c *asmx.Call, ok bool) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, false
	}
	path := u.Path
	switch {
	case cutBase(&path, asmx.ServicePath):
		rest := path[len(asmx.ServicePath):]
		if rest == "" || rest == "/" {
			if method != http.MethodPost {
				return nil, false
			}
			return soapCall(h, body)
		}
		if rest[0] != '/' {
			return nil, false
		}
		var raw, text string
		b := asmx.HTTPGet
		ct := HeaderValue(h, "Content-Type")
		switch method {
		case http.MethodGet:
			raw, text = u.RawQuery, enc.Query(ct, body != "", u.RawQuery)
		case http.MethodPost:
			b = asmx.HTTPPost
			mt := strings.ToLower(strings.TrimSpace(strings.SplitN(ct, ";", 2)[0]))
			if mt != asmx.ContentTypeForm {
				return nil, false
			}
			raw, text = body, enc.Form(ct, body)
		default:
			return nil, false
		}
		op, _, found := asmx.OperationFromPath(rest)
		if !found {
			return nil, false
		}
		c, e := decodeValues(op, b, text, readValues(raw, text))
		return c, e == nil
	case cutBase(&path, asmx.JSONPath):
		rest := path[len(asmx.JSONPath):]
		if rest == "" || rest[0] != '/' {
			return nil, false
		}
		ct := HeaderValue(h, "Content-Type")
		values := readValues(u.RawQuery, enc.Query(ct, body != "", u.RawQuery))
		switch method {
		case http.MethodGet:
		case http.MethodPost:
			form := readValues(body, enc.Form(ct, body))
			for k, v := range values {
				if _, dup := form[k]; !dup {
					form[k] = v
				}
			}
			values = form
		default:
			return nil, false
		}
		op, _, found := asmx.OperationFromPath(rest)
		if !found || !op.JSON {
			return nil, false
		}
		if method == http.MethodGet {
			c, e := decodeValues(op, asmx.JSON, enc.Query(ct, body != "", u.RawQuery), values)
			return c, e == nil
		}
		// A POST's form and query, merged by name: case variants of a
		// name in the form are joined as the map gives them (not in the
		// form's order), as they always were.
		c, e := asmx.DecodeValues(op, asmx.JSON, values)
		return c, e == nil
	}
	return nil, false
}

// decodeValues decodes the call of op from values, read from text (a
// query or form's text, see readValues), as asmx.DecodeValues does; when
// values holds names that differ only in case, whose values ASP.NET's
// NameValueCollection joins in the order text gives them ("STRCITY=b&
// strCity=a" is "b,a") and a url.Values cannot order, as asmx.DecodeQuery
// reads text, as the mock decodes the live call. Other calls are read from
// values, as they always were: their identity (RequestKey) stays.
func decodeValues(op *asmx.Operation, b asmx.Binding, text string, values url.Values) (*asmx.Call, *asmx.Error) {
	if caseVariants(values) {
		return asmx.DecodeQuery(op, b, text)
	}
	return asmx.DecodeValues(op, b, values)
}

// caseVariants reports whether two names of values differ only in case
// (as strings.ToUpper writes them: what ASP.NET compares ignoring case,
// and a few more beyond U+FFFF, which asmx.DecodeQuery then tells apart).
func caseVariants(values url.Values) bool {
	if len(values) < 2 {
		return false
	}
	seen := make(map[string]bool, len(values))
	for name := range values {
		u := strings.ToUpper(name)
		if seen[u] {
			return true
		}
		seen[u] = true
	}
	return false
}

// readValues reads a query string or a form body raw, whose text written
// for UTF-8 is text (raw itself, or raw read in the charset ASP.NET reads
// it in: asmx.RequestEncoding's Query and Form), as net/url parses it when
// nothing was read in another charset; otherwise, or when net/url refuses
// it (%uXXXX escapes, which JavaScript's escape() and classic ASP write, a
// lone '%', a ';'), as ASMX reads it (asmx.ParseQuery), so that a call
// recorded so is the call the mock decodes from the same request. What
// net/url parses is read as net/url reads it, as it always was: the calls
// of the cassettes recorded so far keep their identity (RequestKey), where
// the two readings differ (a pair without '=').
func readValues(raw, text string) url.Values {
	if text == raw {
		if v, err := url.ParseQuery(raw); err == nil {
			return v
		}
	}
	return asmx.ParseQuery(text)
}

// soapCall decodes a SOAP request. The service namespace is not known in
// advance: it is read from the body element (or the SOAPAction).
func soapCall(h http.Header, body string) (*asmx.Call, bool) {
	b, action, hasAction := asmx.SOAPVersion(HeaderValue(h, "Content-Type"))
	if b == 0 {
		return nil, false
	}
	if b == asmx.SOAP11 {
		action, hasAction = HeaderValue(h, "SOAPAction"), true
	}
	ns := soapNamespace(body, action, hasAction)
	// The request is read as sent with the binding's own content type.
	r := asmx.SOAPRequest{Namespace: ns, ContentType: asmx.ContentTypeSOAP11, Action: action, HasAction: true, Body: []byte(body)}
	if b == asmx.SOAP12 {
		r.ContentType, r.Action, r.HasAction = asmx.ContentTypeSOAP12, "", false
		if hasAction {
			r.ContentType += `; action="` + action + `"`
		}
	}
	c, e := asmx.DecodeSOAPRequest(r)
	return c, e == nil
}

// SOAPNamespace is the service namespace a recorded SOAP request was sent
// in: its operation element's, else its action's (SOAPAction, or the
// action parameter of a SOAP 1.2 content type); "" for a request that is
// no SOAP call.
func SOAPNamespace(h http.Header, body string) string {
	b, action, hasAction := asmx.SOAPVersion(HeaderValue(h, "Content-Type"))
	if b == 0 {
		return ""
	}
	if b == asmx.SOAP11 {
		action, hasAction = HeaderValue(h, "SOAPAction"), true
	}
	return soapNamespace(body, action, hasAction)
}

func soapNamespace(body, action string, hasAction bool) string {
	ns := bodyNamespace(body)
	if ns == "" && hasAction {
		a := strings.Trim(strings.TrimSpace(action), `"`)
		if i := strings.LastIndexByte(a, '/'); i > 0 {
			ns = a[:i]
		}
	}
	return ns
}

// bodyNamespace returns the namespace of the first element inside a SOAP
// Body (the operation element), or "".
func bodyNamespace(body string) string {
	d := xml.NewDecoder(strings.NewReader(body))
	depth := 0
	inBody := false
	for {
		tok, err := d.Token()
		if err != nil {
			return ""
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth == 2 && t.Name.Local == "Body" {
				inBody = true
			}
			if depth == 3 && inBody {
				return t.Name.Space
			}
		case xml.EndElement:
			if depth == 2 {
				inBody = false
			}
			depth--
		}
	}
}

// cutBase reports whether *path is below the service path p, at the root
// or below a base path (a deployment in a virtual directory,
// /atm/service/service.asmx, recorded with --upstream https://host/atm),
// and leaves *path starting at p.
func cutBase(path *string, p string) bool {
	s := *path
	for i := 0; i+len(p) <= len(s); i++ {
		if s[i] != '/' || !wire.HasPrefixFold(s[i:], p) {
			continue
		}
		if rest := s[i+len(p):]; rest == "" || rest[0] == '/' {
			*path = s[i:]
			return true
		}
	}
	return false
}

// DocFile reports whether path is one of the two .asmx files itself, at
// the root or below a base path (/app/service/service.asmx), as a request
// for its documentation names it; json is true for /service-v2.asmx.
func DocFile(path string) (json, ok bool) {
	for _, p := range []string{asmx.ServicePath, asmx.JSONPath} {
		rest := path
		if cutBase(&rest, p) && len(rest) == len(p) {
			return p == asmx.JSONPath, true
		}
	}
	return false, false
}

// ScrubQuery is a raw query string with the service key replaced by
// Placeholder, as a recorded request's query holds it.
func ScrubQuery(raw string) string {
	s := &scrubber{ph: Placeholder}
	return s.query(raw)
}

// RequestKey is the identity of a request for recording and for the
// Recorder's matcher: the binding and the call's canonical form for calls
// (key, whitespace, prefixes and parameter order ignored), otherwise the
// method, path (from the service file on, any base path left out),
// scrubbed query, the media type of the Content-Type, the
// SOAPAction (ASMX answers the same body by them: a SOAP 1.1 envelope sent
// as SOAP 1.2 with 415, an empty or unknown action with a fault, none by
// routing on the body) and a digest of the scrubbed body.
func RequestKey(method, rawURL string, h http.Header, body string) string {
	if c, ok := CallOf(method, rawURL, h, body); ok {
		return c.Binding.String() + "|" + c.Canonical()
	}
	s := &scrubber{ph: Placeholder}
	u, err := url.Parse(rawURL)
	path, query := rawURL, ""
	if err == nil {
		path, query = u.EscapedPath(), s.query(u.RawQuery)
		// Below a base path (recorded with --upstream https://host/atm),
		// the path from the service file on: the mock serves it at its
		// root, as it serves the calls (CallOf) and pages (DocFile).
		if !cutBase(&path, asmx.ServicePath) {
			cutBase(&path, asmx.JSONPath)
		}
	}
	ct := HeaderValue(h, "Content-Type")
	media, _, _ := strings.Cut(ct, ";")
	action := "-" // none, which ASMX tells from an empty one
	for k, vs := range h {
		if strings.EqualFold(k, "SOAPAction") && len(vs) > 0 {
			action = strconv.Quote(strings.TrimSpace(vs[0]))
		}
	}
	sum := sumText(s.body(body, ct))
	return "raw|" + method + " " + strings.ToLower(path) + "?" + query + "|" + strings.ToLower(strings.TrimSpace(media)) + "|" + action + "|" + hex.EncodeToString(sum[:8])
}

// RecordedKey is RequestKey of a recorded interaction.
func RecordedKey(r *cassette.Request) string {
	return RequestKey(r.Method, r.URL, r.Headers, r.Body)
}

// AnswerDigest identifies a recorded answer: status and body.
func AnswerDigest(r *cassette.Response) string {
	return strconv.Itoa(r.Code) + ":" + hex.EncodeToString(sumText(r.Body))
}

// sumText is the SHA-256 of s, hashed a piece at a time: []byte(s) would
// copy a body of tens of megabytes whole.
func sumText(s string) []byte {
	h := sha256.New()
	var buf [32 << 10]byte
	for len(s) > 0 {
		n := copy(buf[:], s)
		h.Write(buf[:n])
		s = s[n:]
	}
	return h.Sum(nil)
}

// DescribeRequest is a one-line, key-free description of a request for
// errors and logs: a call's operation and parameters but the key, or the
// method and URL of another request, its query's key replaced and a key
// elsewhere in it masked as redact.URL masks one (a path's
// .../strAtmServiceKey=K, a name percent-encoded, a password), and each
// path segment after an .asmx file that names no operation replaced
// (redact.MaskPathKeys: a client that built its URL wrong may have put its
// key there, .../service.asmx/KEY, which no parameter names; a line
// printed before a call with that key is noted cannot be taken back).
func DescribeRequest(method, rawURL string, h http.Header, body string) string {
	if c, ok := CallOf(method, rawURL, h, body); ok {
		return describeCall(c)
	}
	s := &scrubber{ph: Placeholder}
	return method + " " + redact.URL(MaskPathKeysURL(s.url(rawURL)))
}

// MaskPathKeysURL is rawURL (or a request line, "GET /path?query") with
// redact.MaskPathKeys applied to what comes before its query or fragment:
// each path segment after an .asmx file that names no operation is
// Placeholder.
func MaskPathKeysURL(rawURL string) string {
	end := len(rawURL)
	if i := strings.IndexAny(rawURL, "?#"); i >= 0 {
		end = i
	}
	return redact.MaskPathKeys(rawURL[:end], Placeholder) + rawURL[end:]
}

// describeCall writes Op(name="value", ...) [binding].
func describeCall(c *asmx.Call) string {
	var sb strings.Builder
	sb.WriteString(c.Op.Name)
	sb.WriteByte('(')
	for i, p := range c.Params() {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(p[0])
		sb.WriteString("=")
		sb.WriteString(Quote(p[1]))
	}
	sb.WriteString(") in ")
	sb.WriteString(c.Binding.String())
	return sb.String()
}

// Quote writes s in double quotes, its quotes escaped, for messages.
func Quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// Plural writes n and what, with an s for any n but 1: "1 call", "2 calls".
func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// KeyRejected reports whether i is a recorded key rejection: a call of an
// operation whose service key was recorded as RejectedPlaceholder, or an
// error answered to an empty key (recorded empty: it is no secret).
func KeyRejected(i *cassette.Interaction) bool {
	c, ok := CallOf(i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body)
	return ok && RejectedCall(c, i.Response.Code)
}

// RejectedCall reports whether call c answered with status is a recorded
// key rejection (see KeyRejected).
func RejectedCall(c *asmx.Call, status int) bool {
	return c.Key == RejectedPlaceholder || (c.Key == "" && status != http.StatusOK)
}

// Identify describes the request of i as cassettes.Entry does, its query
// or form read as a deployment whose requestEncoding is enc reads it
// (CallOfIn): the binding, operation and parameters (the key left out) of
// a call, and whether its query or form holds bytes that are not UTF-8
// (NotUTF8); or no binding and the method and request URI of another
// request.
func Identify(enc asmx.RequestEncoding, i *cassette.Interaction) (binding, operation string, params [][2]string, notUTF8 bool) {
	if c, ok := CallOfIn(enc, i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body); ok {
		return c.Binding.String(), c.Op.Name, c.Params(), NotUTF8(c.Binding, i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body)
	}
	operation = i.Request.Method + " " + i.Request.URL
	if u, err := url.Parse(i.Request.URL); err == nil {
		operation = i.Request.Method + " " + u.RequestURI()
	}
	return "", operation, nil, false
}

// latin1 is a requestEncoding other than UTF-8, for NotUTF8 to tell the
// queries and forms read in the deployment's requestEncoding.
var latin1, _ = asmx.ParseRequestEncoding("iso-8859-1")

// NotUTF8 reports whether a call that CallOf decodes in binding b (HTTP
// GET, POST or JSON) from a recorded request holds bytes that are not
// UTF-8, %XX-escaped or raw, in a query string or form the deployment
// reads in its requestEncoding (one whose request names no charset .NET
// knows): UTF-8, ASP.NET's default requestEncoding, reads each such byte
// as U+FFFD; a legacy deployment's (requestEncoding="iso-8859-1":
// strCity=Montr%E9al, Montréal) as what it stands for. A SOAP call, a form
// that names its charset, and one in UTF-8 (Montr%C3%A9al) hold none.
func NotUTF8(b asmx.Binding, method, rawURL string, h http.Header, body string) bool {
	if b.IsSOAP() {
		return false
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	ct := HeaderValue(h, "Content-Type")
	// A text is read in the requestEncoding when its reading in another
	// one differs from UTF-8's: it names no charset .NET knows, and holds
	// a byte beyond ASCII.
	if b != asmx.HTTPPost { // GET's query, and a JSON call's, POST or GET
		q := u.RawQuery
		if latin1.Query(ct, body != "", q) != asmx.RequestEncodingUTF8.Query(ct, body != "", q) && !validEscapes(q) {
			return true
		}
	}
	if b != asmx.HTTPGet && method == http.MethodPost { // the form of a POST, and of a JSON POST
		return latin1.Form(ct, body) != asmx.RequestEncodingUTF8.Form(ct, body) && !validEscapes(body)
	}
	return false
}

// validEscapes reports whether the bytes of a query string or form, raw
// or %XX-escaped, are UTF-8 in each run between its '&', '=', '+' and
// %uXXXX escapes (the runs ASP.NET decodes in the requestEncoding).
func validEscapes(raw string) bool {
	var run []byte
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '&' || c == '=' || c == '+':
		case c == '%' && i+5 < len(raw) && (raw[i+1] == 'u' || raw[i+1] == 'U') &&
			wire.IsHex(raw[i+2]) && wire.IsHex(raw[i+3]) && wire.IsHex(raw[i+4]) && wire.IsHex(raw[i+5]):
			i += 5
		case c == '%' && i+2 < len(raw) && wire.IsHex(raw[i+1]) && wire.IsHex(raw[i+2]):
			run = append(run, byte(wire.Unhex(raw[i+1])<<4|wire.Unhex(raw[i+2])))
			i += 2
			continue
		default:
			run = append(run, c)
			continue
		}
		if !utf8.Valid(run) {
			return false
		}
		run = run[:0]
	}
	return utf8.Valid(run)
}

package asmx

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// FaultCode says whose fault an error is, as SOAP names it.
type FaultCode int

// Fault codes. SOAP 1.1 writes them soap:Client, soap:Server,
// soap:VersionMismatch; SOAP 1.2 soap:Sender, soap:Receiver, soap:VersionMismatch.
const (
	Client FaultCode = iota
	Server
	VersionMismatch
)

// Kinds of error, the "code" of the JSON binding's error object.
const (
	KindMalformedRequest     = "MalformedRequest"
	KindUnsupportedMediaType = "UnsupportedMediaType"
	KindMethodNotAllowed     = "MethodNotAllowed"
	KindUnknownOperation     = "UnknownOperation"
	KindUnknownAction        = "UnknownSOAPAction"
	KindVersionMismatch      = "VersionMismatch"
	KindMissingParameter     = "MissingParameter"
	KindInvalidParameter     = "InvalidParameter"
	KindMissingServiceKey    = "MissingServiceKey"
	KindInvalidServiceKey    = "InvalidServiceKey"
	KindRequestTooLarge      = "RequestTooLarge"
	KindServerError          = "ServerError"
)

// Error is a failed request, with everything each binding needs to report it
// in its own form: a SOAP fault of the request's version, ASMX's plain text,
// or the JSON error object.
type Error struct {
	// Status is the HTTP status.
	Status int
	// Code is the SOAP fault code.
	Code FaultCode
	// Kind is the machine-readable kind (Kind* constants).
	Kind string
	// Param names the parameter at fault, if any.
	Param string
	// Fault is the SOAP faultstring / Reason text.
	Fault string
	// Text is the GET/POST body, in ASMX wording ("System.X: message").
	Text string
	// Message is the plain message of the JSON binding.
	Message string
	// EmptyBody is true where ASMX answers with a status and no body (400, 405, 415).
	EmptyBody bool
}

// Error implements error with the plain message.
func (e *Error) Error() string { return e.Message }

// WriteError writes e in the form of binding b. For b == 0 (a request whose
// binding is unknown) only the status is written.
func WriteError(w http.ResponseWriter, b Binding, e *Error) {
	h := w.Header()
	if e.Status == http.StatusMethodNotAllowed {
		h.Set("Allow", "GET, POST")
	}
	if e.EmptyBody || b == 0 {
		h.Set("Content-Length", "0")
		w.WriteHeader(e.Status)
		return
	}
	var body []byte
	switch b {
	case SOAP11, SOAP12:
		body = AppendFault(nil, b, e)
		h.Set("Content-Type", contentTypeOf(b))
	case HTTPGet, HTTPPost:
		body = []byte(e.Text)
		h.Set("Content-Type", ContentTypeText)
	case JSON:
		body = appendJSONError(nil, e)
		h.Set("Content-Type", ContentTypeJSONError)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(e.Status)
	_, _ = w.Write(body)
}

func contentTypeOf(b Binding) string {
	if b == SOAP12 {
		return ContentTypeSOAP12
	}
	return ContentTypeSOAP11
}

// AppendFault appends a SOAP fault envelope of b's version to dst.
func AppendFault(dst []byte, b Binding, e *Error) []byte {
	dst = append(dst, xmlDecl...)
	if b == SOAP12 {
		dst = append(dst, `<soap:Envelope xmlns:soap="`+NamespaceSOAP12+`" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">`+"\n  <soap:Body>\n    <soap:Fault>\n      <soap:Code>\n        <soap:Value>"...)
		switch e.Code {
		case Server:
			dst = append(dst, "soap:Receiver"...)
		case VersionMismatch:
			dst = append(dst, "soap:VersionMismatch"...)
		default:
			dst = append(dst, "soap:Sender"...)
		}
		dst = append(dst, "</soap:Value>\n      </soap:Code>\n      <soap:Reason>\n        <soap:Text xml:lang=\"en\">"...)
		dst = AppendEscaped(dst, e.Fault)
		return append(dst, "</soap:Text>\n      </soap:Reason>\n      <soap:Detail />\n    </soap:Fault>\n  </soap:Body>\n</soap:Envelope>"...)
	}
	dst = append(dst, `<soap:Envelope xmlns:soap="`+NamespaceSOAP11+`" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">`+"\n  <soap:Body>\n    <soap:Fault>\n      <faultcode>"...)
	switch e.Code {
	case Server:
		dst = append(dst, "soap:Server"...)
	case VersionMismatch:
		dst = append(dst, "soap:VersionMismatch"...)
	default:
		dst = append(dst, "soap:Client"...)
	}
	dst = append(dst, "</faultcode>\n      <faultstring>"...)
	dst = AppendEscaped(dst, e.Fault)
	return append(dst, "</faultstring>\n      <detail />\n    </soap:Fault>\n  </soap:Body>\n</soap:Envelope>"...)
}

// jsonError is the JSON binding's error object (see the README's decisions).
type jsonError struct {
	Error struct {
		Code      string `json:"code"`
		Message   string `json:"message"`
		Parameter string `json:"parameter,omitempty"`
		Status    int    `json:"status"`
	} `json:"error"`
}

func appendJSONError(dst []byte, e *Error) []byte {
	var je jsonError
	je.Error.Code = e.Kind
	je.Error.Message = e.Message
	je.Error.Parameter = e.Param
	je.Error.Status = e.Status
	b, _ := json.Marshal(je) // cannot fail: strings and ints only
	return append(dst, b...)
}

// jsonStatus is the HTTP status of the JSON binding for a caller's error of kind.
func jsonStatus(kind string) int {
	switch kind {
	case KindMissingServiceKey, KindInvalidServiceKey:
		return http.StatusForbidden
	case KindUnknownOperation:
		return http.StatusNotFound
	case KindServerError:
		return http.StatusInternalServerError
	default:
		return http.StatusBadRequest
	}
}

// callerError builds a caller's error: HTTP 500 with a Client fault in the
// XML bindings (as ASMX answers), a 4xx in the JSON binding.
func callerError(b Binding, kind, param, fault, text, msg string) *Error {
	status := http.StatusInternalServerError
	if b == JSON {
		status = jsonStatus(kind)
	}
	return &Error{Status: status, Code: Client, Kind: kind, Param: param, Fault: fault, Text: text, Message: msg}
}

// ErrMalformed is the answer to a body that is not well-formed XML: 400, empty body.
func ErrMalformed(detail string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: Client, Kind: KindMalformedRequest, EmptyBody: true,
		Message: "the request is not well-formed XML: " + detail}
}

// ErrUnsupportedMediaType is the answer to a SOAP request with a content type
// that is neither text/xml nor application/soap+xml: 415, empty body.
func ErrUnsupportedMediaType(ct string) *Error {
	return &Error{Status: http.StatusUnsupportedMediaType, Code: Client, Kind: KindUnsupportedMediaType, EmptyBody: true,
		Message: fmt.Sprintf("content type %q is neither text/xml nor application/soap+xml", ct)}
}

// ErrMethodNotAllowed is the answer to a method other than GET and POST: 405, empty body.
func ErrMethodNotAllowed(b Binding, method string) *Error {
	e := &Error{Status: http.StatusMethodNotAllowed, Code: Client, Kind: KindMethodNotAllowed, EmptyBody: b != JSON,
		Message: fmt.Sprintf("method %s is not allowed: use GET or POST", method)}
	e.Text, e.Fault = e.Message, e.Message
	return e
}

// ErrTooLarge is the answer to a request body over the cap, in b's form, with status 413.
func ErrTooLarge(b Binding, limit int64) *Error {
	msg := fmt.Sprintf("the request body exceeds the limit of %d bytes", limit)
	return &Error{Status: http.StatusRequestEntityTooLarge, Code: Client, Kind: KindRequestTooLarge,
		Fault:   "Server was unable to read request. ---> " + upperFirst(msg) + ".",
		Text:    "System.Web.HttpException: Maximum request length exceeded (" + strconv.FormatInt(limit, 10) + " bytes).",
		Message: msg}
}

// ErrUnknownAction is the SOAP fault for a SOAPAction that names no operation.
func ErrUnknownAction(b Binding, action string) *Error {
	return callerError(b, KindUnknownAction, "",
		"Server did not recognize the value of HTTP Header SOAPAction: "+action+".", "",
		fmt.Sprintf("unknown SOAPAction %q", action))
}

// ErrUnknownElement is the SOAP fault for a body element that names no operation.
func ErrUnknownElement(b Binding, local, ns string) *Error {
	return callerError(b, KindUnknownOperation, "",
		fmt.Sprintf("The request element <%s xmlns='%s'> was not recognized.", local, ns), "",
		fmt.Sprintf("unknown request element {%s}%s", ns, local))
}

// ErrUnexpectedElement is the SOAP fault for a body element that is not the
// operation the SOAPAction names.
func ErrUnexpectedElement(b Binding, local, ns, op string) *Error {
	return callerError(b, KindUnknownOperation, "",
		fmt.Sprintf("Server was unable to read request. ---> There is an error in XML document. ---> <%s xmlns='%s'> was not expected.", local, ns), "",
		fmt.Sprintf("request element {%s}%s does not match the SOAPAction's operation %s", ns, local, op))
}

// ErrUnknownMethod is the GET/POST/JSON answer to a path naming no operation.
func ErrUnknownMethod(b Binding, name string) *Error {
	return callerError(b, KindUnknownOperation, "", "",
		"System.InvalidOperationException: "+name+" Web Service method name is not valid.",
		fmt.Sprintf("%q is not an operation of this path", name))
}

// ErrVersionMismatch is the fault for an envelope namespace that does not
// match the content type's SOAP version.
func ErrVersionMismatch(b Binding, got string) *Error {
	want := NamespaceSOAP11
	if b == SOAP12 {
		want = NamespaceSOAP12
	}
	return &Error{Status: http.StatusInternalServerError, Code: VersionMismatch, Kind: KindVersionMismatch,
		Fault:   fmt.Sprintf("Possible SOAP version mismatch: Envelope namespace %s was unexpected. Expecting %s.", got, want),
		Message: fmt.Sprintf("envelope namespace %q does not match the content type (want %q)", got, want)}
}

// ErrBadXML is a Client fault for XML that is well-formed but unusable
// (a DTD, nesting too deep, a parameter holding elements).
func ErrBadXML(b Binding, detail string) *Error {
	return callerError(b, KindMalformedRequest, "",
		"Server was unable to read request. ---> There is an error in XML document. ---> "+detail, "", detail)
}

// ErrBadForm is the POST answer to a body that is not form-encoded.
func ErrBadForm(b Binding, ct string) *Error {
	return callerError(b, KindUnsupportedMediaType, "", "",
		"System.InvalidOperationException: Request format is invalid: "+ct+".",
		fmt.Sprintf("request format is invalid: %q (want %s)", ct, ContentTypeForm))
}

// ErrMissingParam is the GET/POST/JSON answer to a parameter that was not sent.
func ErrMissingParam(b Binding, name string) *Error {
	kind := KindMissingParameter
	if name == ParamKey {
		kind = KindMissingServiceKey
	}
	return callerError(b, kind, name,
		"Server was unable to process request. ---> Missing parameter: "+name+".",
		"System.InvalidOperationException: Missing parameter: "+name+".",
		"missing parameter: "+name)
}

// ErrKeyMissing is the answer to an empty service key.
func ErrKeyMissing(b Binding) *Error {
	return callerError(b, KindMissingServiceKey, ParamKey,
		"Server was unable to process request. ---> The service key (strAtmServiceKey) is missing or empty.",
		"System.ArgumentException: The service key (strAtmServiceKey) is missing or empty.\r\nParameter name: strAtmServiceKey",
		"the service key (strAtmServiceKey) is missing or empty")
}

// ErrKeyRejected is the answer to a service key the server does not accept.
func ErrKeyRejected(b Binding) *Error {
	return callerError(b, KindInvalidServiceKey, ParamKey,
		"Server was unable to process request. ---> The service key (strAtmServiceKey) is not valid.",
		"System.UnauthorizedAccessException: The service key (strAtmServiceKey) is not valid.",
		"the service key (strAtmServiceKey) is not valid")
}

// ErrServer is the answer to a failure of the server itself (a recovered panic, a broken data set).
func ErrServer(b Binding, msg string) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: Server, Kind: KindServerError,
		Fault:   "Server was unable to process request. ---> " + msg,
		Text:    "System.Exception: " + msg,
		Message: msg}
}

func convertError(b Binding, p Param, text, why string) *Error {
	return callerError(b, KindInvalidParameter, p.Name,
		fmt.Sprintf("Server was unable to read request. ---> There is an error in XML document. ---> Cannot convert %q to %s (%s): %s.", text, p.Type.XSD(), p.Name, why),
		fmt.Sprintf("System.ArgumentException: Cannot convert %s to %s.\r\nParameter name: %s", text, p.Type.DotNet(), p.Name),
		fmt.Sprintf("%s: cannot convert %q to %s: %s", p.Name, text, p.Type.XSD(), why))
}

func rangeError(b Binding, p Param, text string, limit float64) *Error {
	l := strconv.FormatFloat(limit, 'f', -1, 64)
	return callerError(b, KindInvalidParameter, p.Name,
		fmt.Sprintf("Server was unable to process request. ---> %s: %s is out of range; it must be from -%s to %s.", p.Name, text, l, l),
		fmt.Sprintf("System.ArgumentOutOfRangeException: Specified argument was out of the range of valid values.\r\nParameter name: %s\r\nActual value was %s.", p.Name, text),
		fmt.Sprintf("%s: %s is out of range; it must be from -%s to %s", p.Name, text, l, l))
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// ErrBadQuery is the answer to a query string or form body that cannot be parsed.
func ErrBadQuery(b Binding, detail string) *Error {
	return callerError(b, KindMalformedRequest, "", "",
		"System.InvalidOperationException: Request format is invalid: "+detail+".",
		"the parameters cannot be parsed: "+detail)
}

// KindNoRecording is the kind of a replay miss.
const KindNoRecording = "NoRecording"

// ErrNoRecording is a replaying server's answer to a call it has no recording
// of: it names the operation, the parameters and the nearest recording.
func ErrNoRecording(c *Call, nearest string) *Error {
	var sb strings.Builder
	sb.WriteString("No recorded interaction matches ")
	sb.WriteString(c.Op.Name)
	sb.WriteString("(")
	for i, p := range c.Params() {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(p[0] + "=" + strconv.Quote(p[1]))
	}
	sb.WriteString(")")
	if nearest != "" {
		sb.WriteString("; nearest recording: " + nearest)
	}
	msg := sb.String()
	return &Error{Status: http.StatusInternalServerError, Code: Server, Kind: KindNoRecording,
		Fault: "Server was unable to process request. ---> " + msg + ".", Text: "System.InvalidOperationException: " + msg + ".",
		Message: msg}
}

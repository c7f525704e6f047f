package asmx

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/internal/wire"
)

// FaultCode says whose fault an error is, as SOAP names it.
type FaultCode int

// Fault codes. SOAP 1.1 writes them soap:Client, soap:Server,
// soap:VersionMismatch, soap:MustUnderstand; SOAP 1.2 soap:Sender,
// soap:Receiver, soap:VersionMismatch, soap:MustUnderstand.
const (
	Client FaultCode = iota
	Server
	VersionMismatch
	MustUnderstand
)

// Kinds of error, as the journal and the request log name them.
const (
	KindMalformedRequest     = "MalformedRequest"
	KindUnsupportedMediaType = "UnsupportedMediaType"
	KindMethodNotAllowed     = "MethodNotAllowed"
	KindUnknownOperation     = "UnknownOperation"
	KindUnknownAction        = "UnknownSOAPAction"
	KindVersionMismatch      = "VersionMismatch"
	KindMustUnderstand       = "MustUnderstand"
	KindMissingParameter     = "MissingParameter"
	KindInvalidParameter     = "InvalidParameter"
	KindMissingServiceKey    = "MissingServiceKey"
	KindInvalidServiceKey    = "InvalidServiceKey"
	KindRequestTooLarge      = "RequestTooLarge"
	KindRequestValidation    = "RequestValidation"
	KindURLTooLong           = "URLTooLong"
	KindQueryStringTooLong   = "QueryStringTooLong"
	KindDangerousPath        = "DangerousPath"
	KindTooManyKeys          = "TooManyCollectionKeys"
	KindServerError          = "ServerError"
)

// Error is a failed request, with what each binding needs to report it in
// its own form: a SOAP fault, ASMX's plain text for the HTTP GET and POST
// protocols (the JSON path included), or ASP.NET's HTML error page for a
// request no ASMX protocol takes.
type Error struct {
	// Status is the HTTP status.
	Status int
	// Code is the SOAP fault code.
	Code FaultCode
	// Kind is the machine-readable kind (Kind* constants).
	Kind string
	// Param names the parameter at fault, if any.
	Param string
	// Binding is the SOAP version the fault is written in, when it is not
	// the request's: ASMX answers in the version it has established when
	// the error happens (a VersionMismatch always in SOAP 1.1). 0 means the
	// binding the error is written for.
	Binding Binding
	// Exception is the exception ASMX reports; the fault string and the
	// GET/POST text are made from it (ServerProtocol.GenerateFaultString),
	// in the remote or the detailed form. When it is nil, Fault and Text
	// are used as they are.
	Exception *Exception
	// Fault is the SOAP faultstring / Reason text, when Exception is nil.
	Fault string
	// Text is the GET/POST body, when Exception is nil.
	Text string
	// Message is a one-line description for logs and journals.
	Message string
	// EmptyBody is true where ASMX answers with a status and no body (400, 415).
	EmptyBody bool
	// Page is true for an error ASMX leaves to ASP.NET, which answers with
	// its HTML error page.
	Page bool
	// HeaderFault is true for a SoapHeaderException: the fault has no
	// detail element.
	HeaderFault bool
	// Method is the method name a GET, POST or JSON path named, for an
	// error of kind KindUnknownOperation: a script service refuses it
	// otherwise than ASMX (see WriteErrorForm).
	Method string
}

// Error implements error with the one-line message.
func (e *Error) Error() string { return e.Message }

// ErrorForm is how errors are written: the two forms of ASP.NET's custom
// errors setting, and the JSON path's error form.
type ErrorForm struct {
	// Detailed writes what a caller on the server itself (or any caller,
	// with customErrors Off) sees: type names and stack traces
	// (Exception.ToString()). Otherwise errors are in the remote form of a
	// default deployment (customErrors RemoteOnly): messages only.
	Detailed bool
	// AjaxJSON writes the JSON path's errors as ASP.NET AJAX script
	// services do: HTTP 500, a {"Message","StackTrace","ExceptionType"}
	// object, a jsonerror: true header. Otherwise they are ASMX's HTTP GET
	// protocol's text/plain errors.
	AjaxJSON bool
	// Service is the name of the service's class, which the service's
	// own stack frames are in (Service.CheckKey(…)), as the WSDL names the
	// service after it; empty: DefaultServiceName.
	Service string
}

// faultString is e's SOAP fault string in form f.
func (e *Error) faultString(f ErrorForm) string {
	if e.Exception == nil {
		return e.Fault
	}
	if f.Detailed {
		return e.Exception.detailedText(false)
	}
	return e.Exception.remoteText(false)
}

// plainText is e's HTTP GET/POST error body in form f: the fault text,
// HTML-encoded, and a line end.
func (e *Error) plainText(f ErrorForm) string {
	if e.Exception == nil {
		return e.Text
	}
	if f.Detailed {
		return e.Exception.detailedText(true) + crlf
	}
	return e.Exception.remoteText(true) + crlf
}

// WriteErrorForm writes e in the form of binding b and error form f.
func WriteErrorForm(w http.ResponseWriter, b Binding, e *Error, f ErrorForm) {
	if f.Detailed && f.Service != "" && f.Service != DefaultServiceName && e.Exception != nil {
		c := *e
		c.Exception = e.Exception.inService(f.Service)
		e = &c
	}
	if b == JSON && f.AjaxJSON && e.Kind == KindUnknownOperation && e.Method != "" {
		// A script service's RestHandler looks the method up before its
		// try block: ASP.NET's error page, not the JSON error object.
		e = newUnknownWebMethodError(e.Method)
	}
	h := w.Header()
	if e.Page {
		body := errorPage(e, f.Detailed)
		h.Set("Content-Type", ContentTypeHTML)
		h.Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(e.Status)
		_, _ = w.Write(body)
		return
	}
	if b.IsSOAP() && e.Binding.IsSOAP() {
		b = e.Binding
	}
	if e.EmptyBody || b == 0 {
		if b.IsSOAP() {
			h.Set("Content-Type", contentTypeOf(b))
		}
		h.Set("Content-Length", "0")
		w.WriteHeader(e.Status)
		return
	}
	var body []byte
	switch {
	case b.IsSOAP():
		body = appendFault(nil, b, e, f)
		h.Set("Content-Type", contentTypeOf(b))
	case b == JSON && f.AjaxJSON:
		body = appendAjaxError(nil, e, f.Detailed)
		h.Set("Content-Type", ContentTypeJSONError)
		h.Set("jsonerror", "true")
	default:
		body = []byte(e.plainText(f))
		h.Set("Content-Type", ContentTypeText)
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

// appendFault appends a SOAP fault envelope of b's version to dst, as ASMX
// writes one (Soap11/Soap12ServerProtocolHelper.WriteFault, through
// SoapServerProtocol's unindented XmlTextWriter: soapDecl): a
// VersionMismatch carries the Upgrade header listing the versions
// supported, a header fault has no detail element.
func appendFault(dst []byte, b Binding, e *Error, f ErrorForm) []byte {
	dst = append(dst, soapDecl...)
	env := NamespaceSOAP11
	if b == SOAP12 {
		env = NamespaceSOAP12
	}
	dst = append(dst, `<soap:Envelope xmlns:soap="`+env+`" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">`...)
	if e.Code == VersionMismatch {
		dst = append(dst, "<soap:Header><soap12:Upgrade xmlns:soap12=\""+NamespaceSOAP12+"\">"+
			"<soap12:SupportedEnvelope qname=\"soap:Envelope\" xmlns:soap=\""+NamespaceSOAP11+"\" />"+
			"<soap12:SupportedEnvelope qname=\"soap12:Envelope\" xmlns:soap12=\""+NamespaceSOAP12+"\" />"+
			"</soap12:Upgrade></soap:Header>"...)
	}
	dst = append(dst, "<soap:Body><soap:Fault>"...)
	if b == SOAP12 {
		dst = append(dst, "<soap:Code><soap:Value>"...)
		dst = append(dst, faultCodeText(b, e.Code)...)
		dst = append(dst, "</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang=\"en\">"...)
		dst = AppendText(dst, e.faultString(f))
		dst = append(dst, "</soap:Text></soap:Reason>"...)
		if !e.HeaderFault {
			dst = append(dst, "<soap:Detail />"...)
		}
	} else {
		dst = append(dst, "<faultcode>"...)
		dst = append(dst, faultCodeText(b, e.Code)...)
		dst = append(dst, "</faultcode><faultstring>"...)
		dst = AppendText(dst, e.faultString(f))
		dst = append(dst, "</faultstring>"...)
		if !e.HeaderFault {
			dst = append(dst, "<detail />"...)
		}
	}
	return append(dst, "</soap:Fault></soap:Body></soap:Envelope>"...)
}

// faultCodeText is a fault code as b's version writes it.
func faultCodeText(b Binding, c FaultCode) string {
	switch c {
	case Server:
		if b == SOAP12 {
			return "soap:Receiver"
		}
		return "soap:Server"
	case VersionMismatch:
		return "soap:VersionMismatch"
	case MustUnderstand:
		return "soap:MustUnderstand"
	}
	if b == SOAP12 {
		return "soap:Sender"
	}
	return "soap:Client"
}

// appendAjaxError appends ASP.NET AJAX's JSON error object
// (RestHandler.WriteExceptionJsonString): with custom errors on, a fixed
// message and empty stack trace and type; otherwise the exception's
// message, stack trace and type.
func appendAjaxError(dst []byte, e *Error, detailed bool) []byte {
	msg, stack, typ := "There was an error processing the request.", "", ""
	if detailed {
		switch x := e.Exception; {
		case x != nil:
			msg, stack, typ = x.Message, x.stackTrace(), x.Type
		default:
			msg, typ = e.Text, typeException
		}
	}
	dst = append(dst, `{"Message":`...)
	dst = wire.AjaxJSON.AppendString(dst, msg)
	dst = append(dst, `,"StackTrace":`...)
	dst = wire.AjaxJSON.AppendString(dst, stack)
	dst = append(dst, `,"ExceptionType":`...)
	dst = wire.AjaxJSON.AppendString(dst, typ)
	return append(dst, '}')
}

// errorPage is ASP.NET's HTML error page for an unhandled exception: with
// custom errors on the generic "Runtime Error" page, otherwise the page
// showing the exception.
func errorPage(e *Error, detailed bool) []byte {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\r\n<html>\r\n    <head>\r\n        <title>")
	if detailed && e.Exception != nil {
		// The page is titled after the exception first thrown, the
		// innermost (UnhandledErrorFormatter's _initialException).
		first := e.Exception
		for first.Inner != nil {
			first = first.Inner
		}
		b.WriteString(htmlEncode(first.Message))
		b.WriteString("</title>\r\n    </head>\r\n    <body bgcolor=\"white\">\r\n\r\n            <span><H1>Server Error in '/' Application.<hr width=100% size=1 color=silver></H1>\r\n\r\n            <h2> <i>")
		b.WriteString(htmlEncode(first.Message))
		b.WriteString("</i> </h2></span>\r\n\r\n            <b> Exception Details: </b>")
		b.WriteString(htmlEncode(first.Type))
		b.WriteString(": ")
		b.WriteString(htmlEncode(first.Message))
		b.WriteString("<br><br>\r\n\r\n            <b>Stack Trace:</b> <br><br>\r\n\r\n            <table width=100% bgcolor=\"#ffffcc\">\r\n               <tr>\r\n                  <td>\r\n                      <code><pre>\r\n\r\n")
		b.WriteString(htmlEncode(e.Exception.detailedText(false)))
		b.WriteString("\r\n</pre></code>\r\n\r\n                  </td>\r\n               </tr>\r\n            </table>\r\n\r\n    </body>\r\n</html>\r\n")
		return []byte(b.String())
	}
	b.WriteString("Runtime Error</title>\r\n    </head>\r\n    <body bgcolor=\"white\">\r\n\r\n            <span><H1>Server Error in '/' Application.<hr width=100% size=1 color=silver></H1>\r\n\r\n            <h2> <i>Runtime Error</i> </h2></span>\r\n\r\n" +
		"            <b>Description: </b>An application error occurred on the server. The current custom error settings for this application prevent the details of the application error from being viewed remotely (for security reasons). It could, however, be viewed by browsers running on the local server machine.\r\n" +
		"            <br><br>\r\n\r\n    </body>\r\n</html>\r\n")
	return []byte(b.String())
}

// Texts of System.Web.Services' resources, as .NET formats them.
const (
	msgUnableToRead    = "Server was unable to read request."
	msgUnableToProcess = "Server was unable to process request."
	msgExtensionError  = "There was an exception running the extensions specified in the config file."
	msgNoAction        = "Unable to handle request without a valid action parameter. Please supply a valid soap action."
	msgMissingEnvelope = "Request format is invalid: Missing required soap:Envelope element."
	msgMissingBody     = "Request format is invalid: Missing required soap:Body element."
	msgUnrecognized    = "Request format is unrecognized."
)

// soapException is a SoapException with the given message, inner exception
// and stack.
func soapException(msg string, inner *Exception, frames ...string) *Exception {
	return &Exception{Type: typeSoapException, Message: msg, Inner: inner, Stack: frames}
}

// frameworkErrorTexts are words of the errors ASMX itself gives before a
// service's own code runs (routing a call, reading its parameters), in
// .NET's words; Mono's unformatted texts ({0}) start the same way.
var frameworkErrorTexts = []string{
	"Server did not recognize the value of HTTP Header",
	"Unable to handle request",
	"was not recognized.",
	"Request format is unrecognized",
	"Request format is invalid",
	"Web Service method name is not valid",
	"Invalid method name",
	"Missing parameter:",
	"Cannot convert ",
	"Server was unable to read request.",
	"Possible SOAP version mismatch",
	"was not understood",
	"A potentially dangerous Request.",
	"XML Web service description was not found",
}

// IsFrameworkError reports whether an error text (a fault string, an HTTP
// GET or POST error body) is one ASMX gives before a service's own code
// runs: an unknown SOAPAction, operation or namespace, a missing or
// unconvertible parameter, an unreadable request. Such an error does not
// depend on the service key, so a call that gets it with any key is not
// one whose key is refused.
func IsFrameworkError(text string) bool {
	for _, t := range frameworkErrorTexts {
		if strings.Contains(text, t) {
			return true
		}
	}
	return false
}

// NewMalformedError is the answer to a request body that cannot be read at all
// (the connection failed while reading it): 400, empty body.
func NewMalformedError(detail string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: Client, Kind: KindMalformedRequest, EmptyBody: true,
		Message: "the request body cannot be read: " + detail}
}

// newUnsupportedMediaTypeError is the answer to a SOAP request whose content type
// is neither text/xml nor application/soap+xml, or a SOAP 1.1 envelope that
// is not text/xml: a Client fault with the UnsupportedMediaType subcode,
// which ASMX sends as HTTP 415 without a body, with the content type of
// version b.
func newUnsupportedMediaTypeError(b Binding, ct string) *Error {
	want := "text/xml"
	if b == SOAP12 {
		want = "application/soap+xml"
	}
	return &Error{Status: http.StatusUnsupportedMediaType, Code: Client, Kind: KindUnsupportedMediaType, EmptyBody: true,
		Binding: b, Message: fmt.Sprintf("content type %q: want %s", ct, want)}
}

// newUnreadableError is the answer to a SOAP request whose XML cannot be read
// (malformed, a DTD, bytes not in its encoding): a Client fault wrapping an
// XmlException, which ASMX sends as HTTP 400 without a body.
func newUnreadableError(b Binding, detail string) *Error {
	return &Error{Status: http.StatusBadRequest, Code: Client, Kind: KindMalformedRequest, EmptyBody: true, Binding: b,
		Exception: soapException(msgUnableToRead, &Exception{Type: typeXML, Message: detail, Stack: framesXMLReader}, framesSOAPRead...),
		Message:   "the request is not readable XML: " + detail}
}

// NewTooLargeError is the answer to an HTTP POST or JSON request whose
// body is over the cap (ASP.NET's maxRequestLength): the HttpException
// HttpRequest.GetEntireRawContent throws when ASMX's form reader first
// reads Request.Form, HTTP 500 in ASMX's text/plain form. (A SOAP request's
// is NewTooLargeSOAPError.)
func NewTooLargeError(limit int64) *Error {
	frames := concat([]string{"System.Web.HttpRequest.FillInFormCollection()", "System.Web.HttpRequest.EnsureForm()",
		"System.Web.HttpRequest.get_Form()"}, httpReaderFrames(HTTPPost)[1:])
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: KindRequestTooLarge,
		Exception: tooLargeException(frames...), Message: tooLargeMessage(limit)}
}

// NewTooLargeSOAPError is the answer to a SOAP request whose body is over
// the cap, as .NET's SoapServerProtocol.Initialize gives it: reading
// Request.InputStream throws ASP.NET's HttpException, which is kept while
// the call is routed by its headers, without a body. Then:
//   - a SOAPAction that names no operation is answered as always (the
//     routing error wins);
//   - a call routed by its SOAPAction header (SOAP 1.1) or its content
//     type's action parameter (SOAP 1.2) gets a Server/Receiver fault in
//     that version, "There was an exception running the extensions
//     specified in the config file. ---> Maximum request length
//     exceeded.";
//   - a call that must be routed by its body's element (no SOAPAction
//     header, or SOAP 1.2 without an action naming an operation) meets no
//     request stream: GetRequestElement's NullReferenceException, "Server
//     was unable to process request. ---> Object reference not set to an
//     instance of an object.", a SOAP 1.2 Receiver fault.
//
// Mono answers the same in each case, in its own words (its HttpException
// reads "Upload size exceeds httpRuntime limit.").
func NewTooLargeSOAPError(r SOAPRequest, limit int64) *Error {
	guess, op, _, e := routeByHeaders(r)
	switch {
	case e != nil:
		e.Kind, e.Message = KindRequestTooLarge, tooLargeMessage(limit)+"; "+e.Message
		return e
	case op != nil:
		inner := tooLargeException("System.Web.HttpRequest.get_InputStream()", "System.Web.Services.Protocols.SoapServerProtocol.Initialize()")
		return &Error{Status: http.StatusInternalServerError, Code: Server, Kind: KindRequestTooLarge, Binding: guess,
			Exception: soapException(msgExtensionError, inner, framesSOAPInit...), Message: tooLargeMessage(limit)}
	}
	nre := &Exception{Type: typeNullReference, Message: "Object reference not set to an instance of an object.",
		Stack: concat([]string{"System.Web.Services.Protocols.SoapServerProtocolHelper.GetRequestElement()"}, framesSOAPRoute(SOAP12))}
	e = newRoutingFailedError(SOAP12, nre)
	e.Kind, e.Message = KindRequestTooLarge, tooLargeMessage(limit)+", and routing the call needs its body"
	return e
}

// tooLargeException is ASP.NET's HttpException for a request body over
// maxRequestLength, thrown in HttpRequest.GetEntireRawContent and met
// through frames.
func tooLargeException(frames ...string) *Exception {
	return &Exception{Type: typeHTTPException, Message: "Maximum request length exceeded.",
		Stack: concat([]string{"System.Web.HttpRequest.GetEntireRawContent()"}, frames)}
}

// tooLargeMessage is the log line of a body over limit bytes.
func tooLargeMessage(limit int64) string {
	return fmt.Sprintf("the request body exceeds the limit of %d bytes", limit)
}

// newVersionMismatchError is the fault for an envelope namespace that is neither
// SOAP 1.1's nor SOAP 1.2's. ASMX answers it in SOAP 1.1.
func newVersionMismatchError(got string) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: VersionMismatch, Kind: KindVersionMismatch, Binding: SOAP11,
		Exception: soapException(fmt.Sprintf("Possible SOAP version mismatch: Envelope namespace %s was unexpected. Expecting %s.", got, NamespaceSOAP11), nil, framesSOAPRead...),
		Message:   fmt.Sprintf("envelope namespace %q is neither SOAP 1.1 nor SOAP 1.2", got)}
}

// newMissingElementError is the Client fault for an envelope without the
// Envelope or Body element ASMX expects where it reads the parameters.
func newMissingElementError(b Binding, missingEnvelope bool) *Error {
	msg := msgMissingBody
	if missingEnvelope {
		msg = msgMissingEnvelope
	}
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: KindMalformedRequest, Binding: b,
		Exception: soapException(msgUnableToRead, &Exception{Type: typeInvalidOperation, Message: msg,
			Stack: []string{"System.Web.Services.Protocols.SoapServerProtocol.ReadParameters()"}}, framesSOAPRead...),
		Message: strings.ToLower(msg[:1]) + msg[1:]}
}

// missingElementException is the InvalidOperationException of a missing
// Envelope or Body met while routing.
func missingElementException(missingEnvelope bool) *Exception {
	msg := msgMissingBody
	if missingEnvelope {
		msg = msgMissingEnvelope
	}
	return &Exception{Type: typeInvalidOperation, Message: msg,
		Stack: concat([]string{"System.Web.Services.Protocols.SoapServerProtocolHelper.GetRequestElement()"}, framesSOAPRoute(SOAP12))}
}

// newConvertSOAPError is the Client fault for a parameter value XmlSerializer
// cannot convert: the error in the XML document at line and col (the
// position of the node after the parameter), wrapping the conversion's.
func newConvertSOAPError(b Binding, op *Operation, p Param, value string, line, col int, inner *Exception) *Error {
	read := "Microsoft.Xml.Serialization.GeneratedAssembly.XmlSerializationReader1.Read1_" + op.Name + "()"
	inner.Stack = append(inner.Stack, read,
		"Microsoft.Xml.Serialization.GeneratedAssembly.ArrayOfObjectSerializer.Deserialize(XmlSerializationReader reader)",
		framesDeserialize[0])
	doc := &Exception{Type: typeInvalidOperation, Message: fmt.Sprintf("There is an error in XML document (%d, %d).", line, col),
		Inner: inner, Stack: framesDeserialize}
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: KindInvalidParameter, Param: p.Name, Binding: b,
		Exception: soapException(msgUnableToRead, doc, framesSOAPRead...),
		Message:   fmt.Sprintf("%s: cannot convert %q to %s: %s", p.Name, value, p.Type.XSD(), inner.Message)}
}

// NewMustUnderstandError is the fault for a SOAP header marked mustUnderstand
// that the service does not understand (ASMX checks after the call).
func NewMustUnderstandError(b Binding, header string) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: MustUnderstand, Kind: KindMustUnderstand, Binding: b, HeaderFault: true,
		Exception: &Exception{Type: typeSoapHeaderException, Message: "SOAP header " + header + " was not understood.",
			Stack: []string{"System.Web.Services.Protocols.SoapHeaderHandling.EnsureHeadersUnderstood(SoapHeaderCollection headers)",
				"System.Web.Services.Protocols.SoapServerProtocol.WriteReturns(Object[] returnValues, Stream outputStream)",
				"System.Web.Services.Protocols.WebServiceHandler.WriteReturns(Object[] returnValues)",
				"System.Web.Services.Protocols.WebServiceHandler.Invoke()"}},
		Message: fmt.Sprintf("SOAP header %s (mustUnderstand) was not understood", header)}
}

// httpInitFrames are the frames of the HTTP GET/POST protocol's method lookup.
var httpInitFrames = []string{
	"System.Web.Services.Protocols.HttpServerProtocol.Initialize()",
	"System.Web.Services.Protocols.ServerProtocol.SetContext(Type type, HttpContext context, HttpRequest request, HttpResponse response)",
	"System.Web.Services.Protocols.ServerProtocolFactory.Create(Type type, HttpContext context, HttpRequest request, HttpResponse response, Boolean& abortProcessing)",
}

// newUnknownMethodError is the GET/POST/JSON answer to a path naming no operation.
func newUnknownMethodError(b Binding, name string) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: KindUnknownOperation, Method: name,
		Exception: &Exception{Type: typeInvalidOperation, Message: name + " Web Service method name is not valid.", Stack: httpInitFrames},
		Message:   fmt.Sprintf("%q is not an operation of this path", name)}
}

// newUnknownWebMethodError is a script service's answer to a path naming
// no method (in any case: its methods are a case-sensitive dictionary):
// WebServiceData.GetMethodData's ArgumentException, thrown while
// RestHandlerFactory makes the handler, outside RestHandler's try block
// that writes the JSON error object, so ASP.NET's error page, HTTP 500.
func newUnknownWebMethodError(name string) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: KindUnknownOperation, Page: true, Method: name,
		Exception: &Exception{Type: typeArgument, Message: argumentMessage("Unknown web method "+name+".", "methodName"),
			Stack: []string{"System.Web.Script.Services.WebServiceData.GetMethodData(String methodName)",
				"System.Web.Script.Services.RestHandler.CreateHandler(WebServiceData webServiceData, String methodName)",
				"System.Web.Script.Services.RestHandler.CreateHandler(HttpContext context)",
				"System.Web.Script.Services.RestHandlerFactory.GetHandler(HttpContext context, String requestType, String url, String pathTranslated)",
				"System.Web.Script.Services.ScriptHandlerFactory.GetHandler(HttpContext context, String requestType, String url, String pathTranslated)"}},
		Message: fmt.Sprintf("%q is not a method of the script service", name)}
}

// newMethodNameCaseError is the GET/POST/JSON answer to a path naming an
// operation in the wrong case: ASMX matches method names exactly.
func newMethodNameCaseError(b Binding, name, real string) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: KindUnknownOperation, Method: name,
		Exception: &Exception{Type: typeArgument, Stack: httpInitFrames, Message: argumentMessage(
			"Invalid method name '"+name+"',  method names are case sensitive.   The method name '"+real+"' with the same name but different casing was found.", "methodName")},
		Message: fmt.Sprintf("%q is not an operation of this path (method names are case sensitive: %s)", name, real)}
}

// NewBadFormError is the POST answer to a body that is not form-encoded; ct is
// the request's content type as sent.
func NewBadFormError(b Binding, ct string) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: KindUnsupportedMediaType,
		Exception: &Exception{Type: typeInvalidOperation, Message: "Request format is invalid: " + ct + ".",
			Stack: []string{"System.Web.Services.Protocols.HttpServerProtocol.ReadParameters()", frameWebServiceHandlerCore}},
		Message: fmt.Sprintf("request format is invalid: %q (want %s)", ct, ContentTypeForm)}
}

// newMissingParamError is the GET/POST/JSON answer to a parameter that was not sent.
func newMissingParamError(b Binding, name string) *Error {
	kind := KindMissingParameter
	if name == ParamKey {
		kind = KindMissingServiceKey
	}
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: kind, Param: name,
		Exception: &Exception{Type: typeInvalidOperation, Message: "Missing parameter: " + name + ".", Stack: httpReaderFrames(b)},
		Message:   "missing parameter: " + name}
}

// newConvertValueError is the GET/POST/JSON answer to a value that does not
// convert to its parameter's type (ScalarFormatter.FromString).
func newConvertValueError(b Binding, p Param, value string, inner *Exception) *Error {
	inner.Stack = append(inner.Stack, "System.Convert.ChangeType(Object value, Type conversionType, IFormatProvider provider)",
		"System.Web.Services.Protocols.ScalarFormatter.FromString(String value, Type type)")
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: KindInvalidParameter, Param: p.Name,
		Exception: &Exception{Type: typeArgument, Message: argumentMessage("Cannot convert "+value+" to "+p.Type.dotNet()+".", "type"),
			Inner: inner, Stack: concat([]string{"System.Web.Services.Protocols.ScalarFormatter.FromString(String value, Type type)"}, httpReaderFrames(b))},
		Message: fmt.Sprintf("%s: cannot convert %q to %s: %s", p.Name, value, p.Type.XSD(), inner.Message)}
}

// The service's own errors. The service refuses a key by throwing a
// SoapException with the Client code, so every binding shows its message
// alone: a Client (SOAP 1.2: Sender) fault, and HTTP 500 with the message
// for GET, POST and JSON.
const (
	msgKeyMissing  = "The service key (strAtmServiceKey) is missing or empty."
	msgKeyRejected = "The service key (strAtmServiceKey) is not valid."
)

// NewKeyMissingError is the answer to a missing or empty service key in a call of op.
func NewKeyMissingError(b Binding, op *Operation) *Error {
	return serviceError(op, KindMissingServiceKey, msgKeyMissing)
}

// NewKeyRejectedError is the answer to a service key the server does not accept.
func NewKeyRejectedError(b Binding, op *Operation) *Error {
	return serviceError(op, KindInvalidServiceKey, msgKeyRejected)
}

func serviceError(op *Operation, kind, msg string) *Error {
	frames := concat([]string{DefaultServiceName + ".CheckKey(String strAtmServiceKey)"}, serviceFrames(op))
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: kind, Param: ParamKey,
		Exception: soapException(msg, nil, frames...),
		Message:   strings.ToLower(msg[:1]) + strings.TrimSuffix(msg[1:], ".")}
}

// NewServerError is the answer to a failure of the server itself (a recovered
// panic, a broken data set): an exception the service did not mean to
// throw, which ASMX wraps in a Server (SOAP 1.2: Receiver) fault.
func NewServerError(b Binding, msg string) *Error {
	x := &Exception{Type: typeException, Message: msg}
	if b.IsSOAP() {
		x = soapException(msgUnableToProcess, x)
	}
	return &Error{Status: http.StatusInternalServerError, Code: Server, Kind: KindServerError, Exception: x, Message: msg}
}

// NewDecimalOverflowError is the answer of a service whose result holds a
// value in a decimal field (xs:decimal) that it converts from a double past
// a decimal's range, infinite or NaN (a searched point of 1e300): .NET's
// conversion throws an OverflowException, which ASMX wraps in a Server
// (SOAP 1.2: Receiver) fault, and answers HTTP 500 with in GET and POST.
func NewDecimalOverflowError(b Binding) *Error {
	const msg = "Value was either too large or too small for a Decimal."
	x := &Exception{Type: typeOverflow, Message: msg}
	if b.IsSOAP() {
		x = soapException(msgUnableToProcess, x)
	}
	return &Error{Status: http.StatusInternalServerError, Code: Server, Kind: KindServerError, Exception: x, Message: msg}
}

// NewSoapExceptionError is the answer to a SoapException the service throws
// with code and message (an injected fault): a fault of that code with the
// message alone in SOAP, HTTP 500 with the message in GET, POST and JSON.
func NewSoapExceptionError(code FaultCode, msg string) *Error {
	kind := KindServerError
	if code == Client {
		kind = KindMalformedRequest
	}
	return &Error{Status: http.StatusInternalServerError, Code: code, Kind: kind,
		Exception: soapException(msg, nil), Message: msg}
}

// KindNoRecording is the kind of a replay miss.
const KindNoRecording = "NoRecording"

// NewNoRecordingError is a replaying server's answer to a call it has no recording
// of: it names the operation, the parameters and the nearest recording.
func NewNoRecordingError(c *Call, nearest string) *Error {
	msg := "No recorded interaction matches " + describeCall(c)
	if nearest != "" {
		msg += "; nearest recording: " + nearest
	}
	return replayError(c, msg)
}

// NewCannotReplayError is a replaying server's answer to a call whose question
// was recorded, but not in a form the server can answer in the call's
// binding; reason says why and what fixes it ("recorded over soap11 as a
// typed result; pass --shape to serve it over get").
func NewCannotReplayError(c *Call, reason string) *Error {
	return replayError(c, "Cannot replay "+describeCall(c)+" over "+c.Binding.String()+": "+reason)
}

// describeCall writes Op(name="value", ...), the key left out.
func describeCall(c *Call) string {
	var sb strings.Builder
	sb.WriteString(c.Op.Name)
	sb.WriteString("(")
	for i, p := range c.Params() {
		if i > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(p[0] + "=" + strconv.Quote(p[1]))
	}
	sb.WriteString(")")
	return sb.String()
}

// replayError is a replay miss with the message msg.
func replayError(c *Call, msg string) *Error {
	x := &Exception{Type: typeInvalidOperation, Message: msg + "."}
	if c.Binding.IsSOAP() {
		x = soapException(msgUnableToProcess, x)
	}
	return &Error{Status: http.StatusInternalServerError, Code: Server, Kind: KindNoRecording, Exception: x, Message: msg}
}

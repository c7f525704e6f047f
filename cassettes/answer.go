package cassettes

import (
	"encoding/json"
	"fmt"
	"html"
	"mime"
	"regexp"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/beevik/etree"
)

// A recorded error is served as recorded to a call in the binding it was
// recorded in. A call in another binding gets it re-served in that
// binding's form (errorOf): the status, the fault code and the message as
// recorded.

// faultOf reads a SOAP 1.1 or 1.2 fault.
func faultOf(code int, f *etree.Element) *asmx.Error {
	fc, text := "", ""
	if e := f.SelectElement("faultcode"); e != nil { // SOAP 1.1
		fc = e.Text()
	}
	if e := f.SelectElement("faultstring"); e != nil {
		text = e.Text()
	}
	if e := f.FindElement("Code/Value"); e != nil { // SOAP 1.2
		fc = e.Text()
	}
	if e := f.FindElement("Reason/Text"); e != nil {
		text = e.Text()
	}
	fc = strings.TrimSpace(fc)
	if i := strings.IndexByte(fc, ':'); i >= 0 {
		fc = fc[i+1:]
	}
	// ASMX's HTTP GET and POST protocol writes the exception the service
	// threw, HTML-encoded, and a line end (HttpServerProtocol.WriteException);
	// its SOAP protocols wrap any but a SoapException in one that reads
	// "Server was unable to process request. ---> " before it.
	e := &asmx.Error{Status: code, Code: asmx.Client, Kind: asmx.KindInvalidParameter, Fault: text,
		Text: textOfFault(text), Message: text}
	switch fc {
	case "Server", "Receiver":
		e.Code, e.Kind = asmx.Server, asmx.KindServerError
	case "VersionMismatch":
		e.Code, e.Kind = asmx.VersionMismatch, asmx.KindVersionMismatch
	}
	return e
}

// errorOf turns a recorded error response into an error every binding can serve.
func errorOf(b asmx.Binding, code int, body string) *asmx.Error {
	if strings.TrimSpace(body) == "" {
		return &asmx.Error{Status: code, Code: asmx.Client, Kind: asmx.KindMalformedRequest, EmptyBody: true,
			Message: fmt.Sprintf("recorded status %d with an empty body", code)}
	}
	switch {
	case b.IsSOAP():
		if f := soapFault(body); f != nil {
			return faultOf(code, f)
		}
	case b == asmx.JSON:
		var je struct {
			Error struct {
				Code      string `json:"code"`
				Message   string `json:"message"`
				Parameter string `json:"parameter"`
			} `json:"error"`
		}
		if json.Unmarshal([]byte(body), &je) == nil && je.Error.Message != "" {
			return &asmx.Error{Status: code, Code: asmx.Client, Kind: je.Error.Code, Param: je.Error.Parameter,
				Fault: "Server was unable to process request. ---> " + je.Error.Message, Text: "System.Exception: " + je.Error.Message,
				Message: je.Error.Message}
		}
	}
	// An HTTP GET or POST error: the exception's text, HTML-encoded, and a
	// line end; a SOAP fault holds it decoded (faultOfText).
	msg := strings.TrimSpace(body)
	kind := asmx.KindInvalidParameter
	fc := asmx.Client
	if code >= 500 && !strings.HasPrefix(msg, "System.InvalidOperationException") && !strings.HasPrefix(msg, "System.Argument") {
		kind, fc = asmx.KindServerError, asmx.Server
	}
	return &asmx.Error{Status: code, Code: fc, Kind: kind, Fault: faultOfText(html.UnescapeString(lineEnd.ReplaceAllString(body, ""))),
		Text: body, Message: msg}
}

// faultOfText is the fault string ASMX's SOAP protocols write for the
// exception whose HTTP GET/POST error text (decoded, without its line end)
// is text. Both come from ServerProtocol.GenerateFaultString, the SOAP
// one of the exception SoapServerProtocol.WriteException makes: a
// SoapException the service threw as it is, any other wrapped in a
// SoapException "Server was unable to process request." whose inner
// exception it is.
//
//   - The detailed form (custom errors off: e.ToString(), type names and
//     stack trace) names the exception's type first: a SoapException's
//     fault string is the text; any other's is ASMX's SoapException's
//     ToString around it.
//   - The remote form (custom errors on) is the messages alone, the same
//     for a SoapException and any other exception: nothing tells them
//     apart, and the text is taken for another exception's (the prefix).
func faultOfText(text string) string {
	m := detailedError.FindStringSubmatch(text)
	switch {
	case m == nil:
		return unableToProcess + text
	case m[1] == soapExceptionType || m[1] == soapHeaderExceptionType:
		return text
	}
	nl := "\n" // the deployment's line end: .NET's \r\n, Mono's \n on Linux
	if strings.Contains(text, "\r\n") {
		nl = "\r\n"
	}
	return soapExceptionType + ": " + unableToProcess + text + nl + "   --- End of inner exception stack trace ---"
}

// textOfFault is the HTTP GET/POST error text ASMX writes for the
// exception whose SOAP fault string is text (see faultOfText): the remote
// form's messages without ASMX's wrapper, HTML-encoded; the detailed
// form's exception without ASMX's SoapException around it (its message
// HTML-encoded, the stack trace as it is), with the deployment's line end.
func textOfFault(text string) string {
	if detailedError.FindStringSubmatch(text) == nil {
		return asmx.HTMLEncode(strings.TrimPrefix(text, unableToProcess)) + "\r\n"
	}
	nl := "\n"
	if strings.Contains(text, "\r\n") {
		nl = "\r\n"
	}
	wrapper, end := soapExceptionType+": "+unableToProcess, nl+"   --- End of inner exception stack trace ---"
	if strings.HasPrefix(text, wrapper) && strings.HasSuffix(text, end) {
		text = strings.TrimSuffix(strings.TrimPrefix(text, wrapper), end)
	}
	// GenerateFaultString encodes each exception's message, not the type
	// names, the " ---> " between them or the stack trace.
	head, frames := text, ""
	if loc := stackFrame.FindStringIndex(text); loc != nil {
		head, frames = text[:loc[0]], text[loc[0]:]
	}
	parts := strings.Split(head, " ---> ")
	for i, p := range parts {
		if typ, msg, ok := strings.Cut(p, ": "); ok && !strings.ContainsAny(typ, " <>&\"'") {
			parts[i] = typ + ": " + asmx.HTMLEncode(msg)
		}
	}
	return strings.Join(parts, " ---> ") + frames + nl
}

// stackFrame is the line end before the first stack frame of an
// exception's detailed text.
var stackFrame = regexp.MustCompile(`\r?\n\s+at \S`)

// The exceptions whose fault ASMX writes as they are.
const (
	soapExceptionType       = "System.Web.Services.Protocols.SoapException"
	soapHeaderExceptionType = "System.Web.Services.Protocols.SoapHeaderException"
)

// detailedError matches an error text in GenerateFaultString's detailed
// form: a type's full name first (a namespace, then the message after
// ": ", or none), and a stack frame on a line of its own ("   at ", Mono's
// "  at ").
var detailedError = regexp.MustCompile(`^([A-Za-z_][\w` + "`" + `]*(?:\.[A-Za-z_][\w` + "`" + `+]*)+)(?:: |\r?\n|$)(?s:.*)\n\s+at \S`)

// lineEnd is the line end ASMX writes after an HTTP GET or POST error's
// text (.NET's \r\n, Mono's \n on Linux).
var lineEnd = regexp.MustCompile(`\r?\n$`)

// unableToProcess starts the fault string of an exception ASMX's SOAP
// protocols wrap (any but a SoapException).
const unableToProcess = "Server was unable to process request. ---> "

// soapFault is the Fault element of a SOAP envelope, or nil.
func soapFault(body string) *etree.Element {
	doc := etree.NewDocument()
	if doc.ReadFromString(body) != nil || doc.Root() == nil {
		return nil
	}
	if sb := doc.Root().SelectElement("Body"); sb != nil {
		return sb.SelectElement("Fault")
	}
	return nil
}

// asmxErrorForm reports whether a recorded error answer in binding b is
// in the form ASMX writes b's errors in: a SOAP fault for SOAP, text/plain
// for HTTP GET and POST (and the JSON path, or ASP.NET AJAX's JSON error),
// or a status alone. Any other answer (an HTML page of IIS or ASP.NET, a
// gateway's 502) did not come from ASMX's protocol for b, and is the same
// whatever the binding: it is served as recorded in every binding.
func asmxErrorForm(b asmx.Binding, contentType, body string) bool {
	if strings.TrimSpace(body) == "" {
		return true
	}
	if b.IsSOAP() {
		return soapFault(body) != nil
	}
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		return false
	}
	if b == asmx.JSON {
		return mt == "text/plain" || mt == "application/json"
	}
	return mt == "text/plain"
}

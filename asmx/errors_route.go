package asmx

import (
	"fmt"
	"net/http"
)

// The faults of routing a SOAP call to its operation (decode.go's
// routeByHeaders and routeByElement), as .NET's
// Soap11ServerProtocolHelper and Soap12ServerProtocolHelper.RouteRequest
// give them.

// framesSOAPRoute are the frames of a routing error of helper b.
func framesSOAPRoute(b Binding) []string {
	helper := "System.Web.Services.Protocols.Soap11ServerProtocolHelper.RouteRequest()"
	if b == SOAP12 {
		helper = "System.Web.Services.Protocols.Soap12ServerProtocolHelper.RouteRequest()"
	}
	return concat([]string{helper, "System.Web.Services.Protocols.SoapServerProtocol.RouteRequest(SoapServerMessage message)"}, framesSOAPInit)
}

// newUnknownActionError is the SOAP 1.1 fault for a SOAPAction that names no
// operation (the action as ASMX looked it up: unquoted, URL-decoded).
func newUnknownActionError(action string) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: KindUnknownAction, Binding: SOAP11,
		Exception: soapException("Server did not recognize the value of HTTP Header SOAPAction: "+action+".", nil, framesSOAPRoute(SOAP11)...),
		Message:   fmt.Sprintf("unknown SOAPAction %q", action)}
}

// newLoneQuoteActionError is the fault for a SOAPAction header that is a
// lone '"': .NET's Soap11ServerProtocolHelper.RouteRequest strips quotes
// from an action that starts and ends with one with
// Substring(1, Length - 2), which for a lone quote throws
// ArgumentOutOfRangeException (mscorlib's ArgumentOutOfRange_NegativeLength,
// parameter "length"); SoapServerProtocol.WriteException wraps it in a
// Server fault, "Server was unable to process request.".
func newLoneQuoteActionError() *Error {
	inner := &Exception{Type: typeArgumentOutOfRange, Message: argumentMessage("Length cannot be less than zero.", "length"),
		Stack: concat([]string{"System.String.Substring(Int32 startIndex, Int32 length)"}, framesSOAPRoute(SOAP11))}
	return &Error{Status: http.StatusInternalServerError, Code: Server, Kind: KindUnknownAction, Binding: SOAP11,
		Exception: soapException(msgUnableToProcess, inner),
		Message:   `SOAPAction is a lone '"', which ASMX fails to unquote`}
}

// newNoActionError is the fault for a request with no action ASMX can route by
// and a body element that is no operation, in version b.
func newNoActionError(b Binding, local, ns string) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: KindUnknownOperation, Binding: b,
		Exception: soapException(msgNoAction, nil, framesSOAPRoute(SOAP12)...),
		Message:   fmt.Sprintf("no SOAPAction and the body element {%s}%s is no operation", ns, local)}
}

// newActionNotRecognizedError is the fault for a SOAP 1.2 action parameter that
// names no operation, with a body element that is none either, in version b.
func newActionNotRecognizedError(b Binding, action string) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: KindUnknownAction, Binding: b,
		Exception: soapException("Unable to handle request. The action '"+action+"' was not recognized.", nil, framesSOAPRoute(SOAP12)...),
		Message:   fmt.Sprintf("unknown action %q", action)}
}

// newRoutingFailedError is the Server fault for a request ASMX could not read
// while looking for its body element (no action to route by): inner is the
// XmlException or the missing element, in version b.
func newRoutingFailedError(b Binding, inner *Exception) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: Server, Kind: KindMalformedRequest, Binding: b,
		Exception: soapException(msgUnableToProcess, inner),
		Message:   "the request's body element cannot be found: " + inner.Message}
}

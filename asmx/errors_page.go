package asmx

import (
	"fmt"
	"net/http"
)

// NewMethodNotAllowedError is the answer to a method other than POST on the SOAP
// endpoint (GET serves the documentation): ASP.NET's error page with HTTP
// 405.
func NewMethodNotAllowedError(method string) *Error {
	return &Error{Status: http.StatusMethodNotAllowed, Code: Client, Kind: KindMethodNotAllowed, Page: true,
		Exception: &Exception{Type: typeHTTPException, Message: msgUnrecognized,
			Stack: []string{"System.Web.Services.Protocols.WebServiceHandlerFactory.CoreGetHandler(Type type, HttpContext context, HttpRequest request, HttpResponse response)"}},
		Message: fmt.Sprintf("method %s is not allowed: use POST (or GET for the documentation)", method)}
}

// NewUnrecognizedRequestError is the answer to a request for an operation's path
// that no protocol takes (a method other than GET and POST): ASP.NET's
// error page with HTTP 500. pathInfo is the path after the .asmx file.
func NewUnrecognizedRequestError(method, pathInfo string) *Error {
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: KindMethodNotAllowed, Page: true,
		Exception: &Exception{Type: typeInvalidOperation,
			Message: "Request format is unrecognized for URL unexpectedly ending in '" + pathInfo + "'.",
			Stack: []string{"System.Web.Services.Protocols.WebServiceHandlerFactory.CoreGetHandler(Type type, HttpContext context, HttpRequest request, HttpResponse response)",
				"System.Web.Services.Protocols.WebServiceHandlerFactory.GetHandler(HttpContext context, String verb, String url, String filePath)"}},
		Message: fmt.Sprintf("method %s is not taken by any ASMX protocol at %s", method, pathInfo)}
}

// NewScriptServiceError is the answer to a request below an .asmx file
// that ASP.NET 4's handler of .asmx files (System.Web.Extensions'
// ScriptHandlerFactory) hands to its script (JSON) handler rather than to
// ASMX: a path info of /js or /jsdebug (RestHandlerFactory.IsClientProxyRequest),
// or a request declared application/json (IsRestMethodCall). The service's
// class has no [ScriptService] attribute, so WebServiceData refuses it with an
// InvalidOperationException before any ASMX protocol reads the request:
// ASP.NET's error page with HTTP 500. pathInfo is the path after the .asmx
// file; a method call's shorter than "/x" fails RestHandler.CreateHandler's
// own check first.
func NewScriptServiceError(pathInfo string, proxy bool) *Error {
	const (
		dataFrame = "System.Web.Script.Services.WebServiceData..ctor(Type type, Boolean pageMethods)"
		getFrame  = "System.Web.Script.Services.WebServiceData.GetWebServiceData(HttpContext context, String virtualPath, Boolean failIfNoData, Boolean pageMethods, Boolean inlineScript)"
	)
	msg := "Only Web services with a [ScriptService] attribute on the class definition can be called from script."
	var stack []string
	switch {
	case proxy:
		stack = []string{dataFrame, getFrame,
			"System.Web.Script.Services.WebServiceClientProxyGenerator.GetClientProxyScript(HttpContext context)",
			"System.Web.Script.Services.RestClientProxyHandler.ProcessRequest(HttpContext context)"}
	case len(pathInfo) < 2:
		msg = "Invalid web service call, expected path info of /js/<Method>."
		stack = []string{"System.Web.Script.Services.RestHandler.CreateHandler(HttpContext context)"}
	default:
		stack = []string{dataFrame, getFrame, "System.Web.Script.Services.RestHandler.CreateHandler(HttpContext context)"}
	}
	if !proxy {
		stack = append(stack, "System.Web.Script.Services.RestHandlerFactory.GetHandler(HttpContext context, String requestType, String url, String pathTranslated)",
			"System.Web.Script.Services.ScriptHandlerFactory.GetHandler(HttpContext context, String requestType, String url, String pathTranslated)")
	}
	return &Error{Status: http.StatusInternalServerError, Code: Server, Kind: KindMethodNotAllowed, Page: true,
		Exception: &Exception{Type: typeInvalidOperation, Message: msg, Stack: stack},
		Message:   "ASP.NET's script handler takes " + pathInfo + " and the service is no [ScriptService]: " + msg}
}

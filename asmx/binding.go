package asmx

import "fmt"

// Binding is one of the ways an operation is called.
type Binding int

// The five bindings of the interface document.
const (
	SOAP11   Binding = iota + 1 // POST /service/service.asmx, text/xml
	SOAP12                      // POST /service/service.asmx, application/soap+xml
	HTTPGet                     // GET /service/service.asmx/<Op>
	HTTPPost                    // POST /service/service.asmx/<Op>, form-encoded
	JSON                        // GET /service-v2.asmx/<Op>
)

// Bindings lists every binding, in the document's order.
var Bindings = []Binding{SOAP11, SOAP12, HTTPGet, HTTPPost, JSON}

// XMLBindings lists the four bindings whose result is XML.
var XMLBindings = []Binding{SOAP11, SOAP12, HTTPGet, HTTPPost}

// String is the binding's short name: soap11, soap12, get, post or json.
func (b Binding) String() string {
	switch b {
	case SOAP11:
		return "soap11"
	case SOAP12:
		return "soap12"
	case HTTPGet:
		return "get"
	case HTTPPost:
		return "post"
	case JSON:
		return "json"
	}
	return fmt.Sprintf("binding(%d)", int(b))
}

// ParseBinding reads a binding's short name (as String writes it).
func ParseBinding(s string) (Binding, error) {
	for _, b := range Bindings {
		if b.String() == s {
			return b, nil
		}
	}
	return 0, fmt.Errorf("unknown binding %q (want soap11, soap12, get, post or json)", s)
}

// IsSOAP reports whether the binding wraps results in a SOAP envelope.
func (b Binding) IsSOAP() bool { return b == SOAP11 || b == SOAP12 }

// Wire constants.
const (
	// NamespaceSOAP11 is the SOAP 1.1 envelope namespace.
	NamespaceSOAP11 = "http://schemas.xmlsoap.org/soap/envelope/"
	// NamespaceSOAP12 is the SOAP 1.2 envelope namespace.
	NamespaceSOAP12 = "http://www.w3.org/2003/05/soap-envelope"
	// DefaultNamespace is the service namespace atmkit uses unless told otherwise.
	DefaultNamespace = "http://tempuri.org/atmService"

	// ContentTypeSOAP11 is the SOAP 1.1 request and response content type.
	ContentTypeSOAP11 = "text/xml; charset=utf-8"
	// ContentTypeSOAP12 is the SOAP 1.2 request and response content type.
	ContentTypeSOAP12 = "application/soap+xml; charset=utf-8"
	// ContentTypeXML is the content type of GET and POST results, and the one
	// the JSON binding declares for its JSON body.
	ContentTypeXML = "text/xml; charset=utf-8"
	// ContentTypeForm is the HTTP POST binding's request content type.
	ContentTypeForm = "application/x-www-form-urlencoded"
	// ContentTypeText is the content type of GET/POST error messages.
	ContentTypeText = "text/plain; charset=utf-8"
	// ContentTypeJSONError is the content type of ASP.NET AJAX's JSON
	// errors, which the JSON path writes with --json-errors ajax.
	ContentTypeJSONError = "application/json; charset=utf-8"
	// ContentTypeHTML is the content type of ASP.NET's HTML error page.
	ContentTypeHTML = "text/html; charset=utf-8"

	// ServicePath is the path of the four XML bindings.
	ServicePath = "/service/service.asmx"
	// JSONPath is the path of the JSON binding.
	JSONPath = "/service-v2.asmx"
)

// SOAPAction is the SOAP 1.1 action of an operation, unquoted: {ns}/{Op}.
func SOAPAction(ns, op string) string {
	if len(ns) > 0 && ns[len(ns)-1] == '/' {
		return ns + op
	}
	return ns + "/" + op
}

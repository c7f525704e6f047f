package asmx

import (
	"fmt"
	"net/http"
	"strings"
	"unicode"
)

// MS11100MaxHTTPCollectionKeys is aspnet:MaxHttpCollectionKeys' default in
// ASP.NET 2.0, 3.5 and 4.0 with the MS11-100 update. .NET Framework 4.5
// and later default to Int32.MaxValue (System.Web's AppSettings), no limit:
// their Hashtable resists the hash flooding the setting was made against.
const MS11100MaxHTTPCollectionKeys = 1000

// MaxHTTPCollectionKeysLimit is the largest value aspnet:MaxHttpCollectionKeys
// takes (Int32.MaxValue).
const MaxHTTPCollectionKeysLimit = 1<<31 - 1

// msgCollectionKeys is System.Web's CollectionCountExceeded_HttpValueCollection.
const msgCollectionKeys = `The maximum number of form, query string, or posted file items has already been read from the request. To change the maximum allowed request collection count from its current value of %d, change the "aspnet:MaxHttpCollectionKeys" setting. See http://go.microsoft.com/fwlink/?LinkId=238386 for more information.`

// msgInvalidForm is System.Web's Invalid_urlencoded_form_data, the
// HttpException FillInFormCollection wraps a form's reading error in.
const msgInvalidForm = "The URL-encoded form data is not valid."

// CollectionKeysExceeded reports whether ASP.NET refuses s, a query string
// or a form-encoded body, as it fills Request.QueryString or Request.Form
// with aspnet:MaxHttpCollectionKeys set to limit (0: no limit, .NET 4.5's
// default). HttpValueCollection.ThrowIfMaxHttpCollectionKeysExceeded runs
// before each pair is read and throws when the collection already holds
// limit keys: keys, not pairs, so a repeated name (ignoring case, as the
// collection compares them; the pairs without '=' are one key, the null
// name) counts once, and a query of exactly limit keys is read whole. A
// trailing '&' adds the null name unchecked. A query of no more than limit
// pairs is decided without reading its names, and without allocating.
func CollectionKeysExceeded(s string, limit int) bool {
	if limit <= 0 || strings.Count(s, "&") < limit {
		return false // at most limit pairs: the check never sees limit keys
	}
	keys := make(map[string]struct{}, limit)
	null := false
	count := func() int {
		if null {
			return len(keys) + 1
		}
		return len(keys)
	}
	for i := 0; i < len(s); {
		if count() >= limit {
			return true
		}
		pair := s[i:]
		j := strings.IndexByte(pair, '&')
		if j >= 0 {
			pair = pair[:j]
		}
		if name, _, found := strings.Cut(pair, "="); found {
			keys[foldName(urlDecode(name))] = struct{}{}
		} else {
			null = true
		}
		if j < 0 {
			break
		}
		i += j + 1
		if i == len(s) { // a trailing '&': the null name, added unchecked
			null = true
		}
	}
	return false
}

// foldName is name as sameName compares it: each character of the Basic
// Multilingual Plane as its upper case.
func foldName(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for _, r := range name {
		if r <= 0xFFFF {
			r = unicode.ToUpper(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// NewCollectionKeysError is the answer of binding b (HTTP GET, HTTP POST,
// the JSON path) to a call whose query string (GET) or form (POST) holds
// more keys than limit allows: ASMX's parameter reader fills
// Request.QueryString or Request.Form, the InvalidOperationException of
// ThrowIfMaxHttpCollectionKeysExceeded escapes it (a form's wrapped in an
// HttpException, "The URL-encoded form data is not valid."), and the
// protocol writes it as any error of the call: HTTP 500 in b's error form.
func NewCollectionKeysError(b Binding, limit int) *Error {
	inner := &Exception{Type: typeInvalidOperation, Message: fmt.Sprintf(msgCollectionKeys, limit),
		Stack: []string{"System.Web.HttpValueCollection.ThrowIfMaxHttpCollectionKeysExceeded()"}}
	x := inner
	source := "query string"
	if b == HTTPPost {
		source = "form"
		inner.Stack = append(inner.Stack,
			"System.Web.HttpValueCollection.FillFromEncodedBytes(Byte[] bytes, Encoding encoding)",
			"System.Web.HttpRequest.FillInFormCollection()")
		x = &Exception{Type: typeHTTPException, Message: msgInvalidForm, Inner: inner,
			Stack: concat([]string{"System.Web.HttpRequest.FillInFormCollection()", "System.Web.HttpRequest.get_Form()"}, httpReaderFrames(b)[1:])}
	} else {
		inner.Stack = concat(inner.Stack, []string{
			"System.Web.HttpValueCollection.FillFromString(String s, Boolean urlencoded, Encoding encoding)",
			"System.Web.HttpRequest.FillInQueryStringCollection()",
			"System.Web.HttpRequest.get_QueryString()",
		}, httpReaderFrames(b)[1:])
	}
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: KindTooManyKeys, Exception: x,
		Message: fmt.Sprintf("the %s holds more than aspnet:MaxHttpCollectionKeys, %d keys", source, limit)}
}

// NewDocsCollectionKeysError is the answer to a GET of an .asmx file itself
// (?WSDL, ?disco, the help pages) whose query string holds more keys than
// limit allows: DiscoveryServerProtocolFactory reads
// Request.QueryString[null] outside the try of ServerProtocolFactory.Create,
// CoreGetHandler wraps the exception in an InvalidOperationException
// ("Failed to handle request."), and it escapes the handler factory:
// ASP.NET's error page, HTTP 500.
func NewDocsCollectionKeysError(limit int) *Error {
	handler := []string{
		"System.Web.Services.Protocols.WebServiceHandlerFactory.CoreGetHandler(Type type, HttpContext context, HttpRequest request, HttpResponse response)",
		"System.Web.Services.Protocols.WebServiceHandlerFactory.GetHandler(HttpContext context, String verb, String url, String filePath)",
	}
	inner := &Exception{Type: typeInvalidOperation, Message: fmt.Sprintf(msgCollectionKeys, limit),
		Stack: []string{
			"System.Web.HttpValueCollection.ThrowIfMaxHttpCollectionKeysExceeded()",
			"System.Web.HttpValueCollection.FillFromString(String s, Boolean urlencoded, Encoding encoding)",
			"System.Web.HttpRequest.FillInQueryStringCollection()",
			"System.Web.HttpRequest.get_QueryString()",
			"System.Web.Services.Protocols.DiscoveryServerProtocolFactory.CreateIfRequestCompatible(HttpRequest request)",
			"System.Web.Services.Protocols.ServerProtocolFactory.Create(Type type, HttpContext context, HttpRequest request, HttpResponse response, Boolean& abortProcessing)",
			handler[0],
		}}
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: KindTooManyKeys, Page: true,
		Exception: &Exception{Type: typeInvalidOperation, Message: msgFailedToHandle, Stack: handler, Inner: inner},
		Message:   fmt.Sprintf("the documentation's query string holds more than aspnet:MaxHttpCollectionKeys, %d keys", limit)}
}

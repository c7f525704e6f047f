package asmx

import (
	"fmt"
	"net/http"
	"strings"
	"unicode/utf8"
)

// RequestValidation is how the deployment's ASP.NET validates the input of
// a request (<httpRuntime requestValidationMode>), which decides whether an
// HTTP GET, POST or JSON call whose parameter looks like markup ("<b",
// "&#65") reaches the service at all. The document does not say which the
// service runs with; the value is the deployment's configuration.
type RequestValidation uint8

const (
	// ValidationOff is ASP.NET 2.0 and 3.5, and 4.x with
	// requestValidationMode="2.0": only pages are validated, never a web
	// service's input.
	ValidationOff RequestValidation = iota + 1
	// Validation40 is ASP.NET 4.x without a targetFramework of 4.5 or
	// later (requestValidationMode="4.0"): the whole collection the
	// parameter reader reads (the query string of HTTP GET and the JSON
	// path, the form of HTTP POST) is validated, every value in the order
	// of its names, when the reader first reads it: before any parameter.
	Validation40
	// Validation45 is requestValidationMode="4.5", the default under
	// <httpRuntime targetFramework="4.5"/> and later: a value is validated
	// when the reader reads it, so only the operation's parameters, in
	// their order, each before it is converted.
	Validation45
)

// DefaultRequestValidation is ASP.NET 4.x's default for an application
// that names no targetFramework: Validation40.
const DefaultRequestValidation = Validation40

// ParseRequestValidation reads a requestValidationMode as web.config
// writes it: "2.0" (or "off"), "4.0" or "4.5".
func ParseRequestValidation(s string) (RequestValidation, error) {
	switch s {
	case "2.0", "off":
		return ValidationOff, nil
	case "4.0":
		return Validation40, nil
	case "4.5":
		return Validation45, nil
	}
	return 0, fmt.Errorf("request validation %q: want 2.0 (or off), 4.0 or 4.5", s)
}

// String is the mode as web.config writes it: 2.0, 4.0 or 4.5.
func (v RequestValidation) String() string {
	switch v {
	case ValidationOff:
		return "2.0"
	case Validation40:
		return "4.0"
	case Validation45:
		return "4.5"
	}
	return fmt.Sprintf("RequestValidation(%d)", int(v))
}

// ValidateQuery validates query, the query string of an HTTP GET or JSON
// call or the form-encoded body of an HTTP POST call of op, as ASP.NET's
// request validation does in mode v while ASMX's parameter reader reads it
// (HttpRequest.ValidateString): the first value holding "<" followed by a
// letter, "!", "/" or "?", or "&#", stops the call with an
// HttpRequestValidationException, HTTP 500 in b's error form. It returns
// nil when nothing is dangerous, and, in mode 4.5, when a parameter before
// the first dangerous one is missing or does not convert (DecodeQuery
// reports that). Values are read as DecodeQuery reads them: names compared
// ignoring case, the values of a repeated name joined with commas.
func ValidateQuery(op *Operation, b Binding, query string, v RequestValidation) *Error {
	if v != Validation40 && v != Validation45 {
		return nil
	}
	if !mayHoldMarkup(query) { // most queries: no parsing, no allocation
		return nil
	}
	return validateValues(op, b, query, v)
}

// validateValues is ValidateQuery without its shortcut for queries that
// cannot hold markup.
func validateValues(op *Operation, b Binding, query string, v RequestValidation) *Error {
	names := orderedValues(query)
	if v == Validation40 {
		for _, n := range names {
			if strings.HasPrefix(n.name, "__") {
				continue // ASP.NET's own fields (__VIEWSTATE…) are not validated
			}
			if value := strings.Join(n.values, ","); value != "" {
				if at, bad := dangerous(value); bad {
					return newRequestValidationError(b, v, n.name, value, at)
				}
			}
		}
		return nil
	}
	c := newCall(op, b)
	for i, p := range op.Params {
		k := indexFold(names, p.Name)
		if k < 0 {
			return nil // missing: reported by the reader
		}
		value := strings.Join(names[k].values, ",")
		if at, bad := dangerous(value); bad {
			return newRequestValidationError(b, v, names[k].name, value, at)
		}
		if !utf8.ValidString(value) {
			value = strings.ToValidUTF8(value, "\uFFFD")
		}
		if c.set(i, value) != nil {
			return nil // does not convert: reported by the reader
		}
	}
	return nil
}

// ValidateDocsQuery validates query, the query string of a GET of an .asmx
// file itself (its documentation: ?WSDL, ?disco, ?schema=, the help pages),
// as ASP.NET's request validation does in mode v when ASMX first reads it:
// WebServiceHandlerFactory tries the protocols in turn, and
// DiscoveryServerProtocolFactory, the first one to take a GET without a
// path info, reads Request.QueryString[null], then ["schema"], then
// ["wsdl"] (when there is no schema). In mode 4.0 that validates every
// value of the query, in the order of its names; in mode 4.5 the values
// without a name, then schema's, then wsdl's. The HttpRequestValidationException
// escapes the factory, and CoreGetHandler wraps it in an
// InvalidOperationException ("Failed to handle request."): ASP.NET's error
// page, HTTP 500. What the help page reads itself in mode 4.5 is not
// modelled. It returns nil when nothing is dangerous.
func ValidateDocsQuery(query string, v RequestValidation) *Error {
	if v != Validation40 && v != Validation45 || !mayHoldMarkup(query) {
		return nil
	}
	names := orderedValues(query)
	var bad *namedValues
	var at int
	check := func(n *namedValues) bool {
		if value := strings.Join(n.values, ","); value != "" {
			if i, dangerousValue := dangerous(value); dangerousValue {
				bad, at = n, i
				return true
			}
		}
		return false
	}
	if v == Validation40 {
		for k := range names {
			if !strings.HasPrefix(names[k].name, "__") && check(&names[k]) {
				break
			}
		}
	} else {
		for k := range names { // Request.QueryString[null]
			if names[k].null && check(&names[k]) {
				break
			}
		}
		if bad == nil {
			if k := indexFold(names, "schema"); k >= 0 {
				check(&names[k])
			} else if k := indexFold(names, "wsdl"); k >= 0 {
				check(&names[k])
			}
		}
	}
	if bad == nil {
		return nil
	}
	e := newRequestValidationError(HTTPGet, v, bad.name, strings.Join(bad.values, ","), at)
	frames := []string{"System.Web.HttpRequest.ValidateString(String value, String collectionKey, RequestValidationSource requestCollection)"}
	if v == Validation45 {
		frames = append(frames,
			"System.Web.HttpValueCollection.EnsureKeyValidated(String key)",
			"System.Web.HttpValueCollection.Get(String name)",
			"System.Collections.Specialized.NameValueCollection.get_Item(String name)")
	} else {
		frames = append(frames,
			"System.Web.HttpRequest.ValidateHttpValueCollection(HttpValueCollection collection, RequestValidationSource requestCollection)",
			"System.Web.HttpRequest.get_QueryString()")
	}
	handler := []string{
		"System.Web.Services.Protocols.WebServiceHandlerFactory.CoreGetHandler(Type type, HttpContext context, HttpRequest request, HttpResponse response)",
		"System.Web.Services.Protocols.WebServiceHandlerFactory.GetHandler(HttpContext context, String verb, String url, String filePath)",
	}
	e.Exception.Stack = concat(frames, []string{
		"System.Web.Services.Protocols.DiscoveryServerProtocolFactory.CreateIfRequestCompatible(HttpRequest request)",
		"System.Web.Services.Protocols.ServerProtocolFactory.Create(Type type, HttpContext context, HttpRequest request, HttpResponse response, Boolean& abortProcessing)",
	}, handler[:1])
	e.Exception = &Exception{Type: typeInvalidOperation, Message: msgFailedToHandle, Stack: handler, Inner: e.Exception}
	e.Page = true
	e.Message = "request validation of the documentation's query: " + e.Message
	return e
}

// msgFailedToHandle is System.Web.Services' FailedToHandleRequest0, the
// message CoreGetHandler wraps a protocol factory's exception in.
const msgFailedToHandle = "Failed to handle request."

// mayHoldMarkup reports whether a value of query may hold '<' or '&' once
// decoded: query has '<', or an escape of either (%3C, %26, %u003C,
// %u0026, any case). A raw '&' separates pairs, so only '<' or an escape
// can start a dangerous value.
func mayHoldMarkup(query string) bool {
	for i := 0; i < len(query); i++ {
		switch query[i] {
		case '<':
			return true
		case '%':
			rest := query[i+1:]
			if len(rest) >= 5 && (rest[0] == 'u' || rest[0] == 'U') && rest[1] == '0' && rest[2] == '0' {
				rest = rest[3:]
			}
			if len(rest) >= 2 && (rest[0] == '3' && (rest[1] == 'C' || rest[1] == 'c') || rest[0] == '2' && rest[1] == '6') {
				return true
			}
		}
	}
	return false
}

// namedValues is one name of a query and its values, as ASP.NET's
// HttpValueCollection holds them: the name as first written; null is
// ASP.NET's null name (values of pairs without '='), another key than "".
type namedValues struct {
	name   string
	null   bool
	values []string
}

// orderedValues reads a query as ParseQuery does, keeping the names in the
// order they first appear and the values of names that differ only in
// case together; the values without a name apart from those of "".
func orderedValues(query string) []namedValues {
	var names []namedValues
	eachPair(query, func(name, value string, named bool) { names = addValue(names, name, !named, value) })
	return names
}

func addValue(names []namedValues, name string, null bool, value string) []namedValues {
	for k, n := range names {
		if n.null == null && sameName(n.name, name) {
			names[k].values = append(names[k].values, value)
			return names
		}
	}
	return append(names, namedValues{name: name, null: null, values: []string{value}})
}

// indexFold is the index of name in names, ignoring case; -1 if none. The
// null name is no parameter's.
func indexFold(names []namedValues, name string) int {
	for k, n := range names {
		if !n.null && sameName(n.name, name) {
			return k
		}
	}
	return -1
}

// dangerous reports whether ASP.NET's request validation refuses s
// (CrossSiteScriptingValidation.IsDangerousString, after
// HttpRequest.RemoveNullCharacters), and at which index of s without its
// NULs. Indexes count UTF-16 units, as .NET's do.
func dangerous(s string) (int, bool) {
	u := utf16Units(strings.ReplaceAll(s, "\x00", ""))
	for n := 0; n+1 < len(u); n++ {
		switch u[n] {
		case '<':
			if c := u[n+1]; c < 0x80 && (isASCIILetter(byte(c)) || c == '!' || c == '/' || c == '?') {
				return n, true
			}
		case '&':
			if u[n+1] == '#' {
				return n, true
			}
		}
	}
	return 0, false
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// utf16Units is s as .NET's string holds it.
func utf16Units(s string) []uint16 {
	u := make([]uint16, 0, len(s))
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			u = append(u, uint16(0xD800+(r>>10)), uint16(0xDC00+(r&0x3FF)))
			continue
		}
		u = append(u, uint16(r))
	}
	return u
}

// fromUTF16 is the string of .NET's units u.
func fromUTF16(u []uint16) string {
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		r := rune(u[i])
		if r >= 0xD800 && r < 0xDC00 && i+1 < len(u) && u[i+1] >= 0xDC00 && u[i+1] < 0xE000 {
			r = 0x10000 + (r-0xD800)<<10 + rune(u[i+1]-0xDC00)
			i++
		}
		b.WriteRune(r)
	}
	return b.String()
}

// newRequestValidationError is the answer to a dangerous value of
// parameter name (as the query wrote it) at index at, found in mode v: an
// HttpRequestValidationException, whose message shows the value from 10
// units before the match to 20 after it (HttpRequest.ValidateString).
func newRequestValidationError(b Binding, v RequestValidation, name, value string, at int) *Error {
	u := utf16Units(strings.ReplaceAll(value, "\x00", ""))
	shown := name + "=\""
	start := at - 10
	if start <= 0 {
		start = 0
	} else {
		shown += "..."
	}
	if end := at + 20; end >= len(u) {
		shown += fromUTF16(u[start:]) + "\""
	} else {
		shown += fromUTF16(u[start:end]) + "...\""
	}
	source, collection := "Request.QueryString", "System.Web.HttpRequest.get_QueryString()"
	if b == HTTPPost {
		source, collection = "Request.Form", "System.Web.HttpRequest.get_Form()"
	}
	frames := []string{"System.Web.HttpRequest.ValidateString(String value, String collectionKey, RequestValidationSource requestCollection)"}
	if v == Validation45 { // validated as the reader reads the value
		frames = append(frames,
			"System.Web.HttpValueCollection.EnsureKeyValidated(String key)",
			"System.Web.HttpValueCollection.Get(String name)",
			"System.Collections.Specialized.NameValueCollection.get_Item(String name)")
		frames = append(frames, httpReaderFrames(b)...)
	} else { // validated whole, when the reader first reads the collection
		frames = append(frames,
			"System.Web.HttpRequest.ValidateHttpValueCollection(HttpValueCollection collection, RequestValidationSource requestCollection)",
			collection)
		frames = append(frames, httpReaderFrames(b)[1:]...)
	}
	return &Error{Status: http.StatusInternalServerError, Code: Client, Kind: KindRequestValidation, Param: name,
		Exception: &Exception{Type: typeRequestValidation,
			Message: "A potentially dangerous " + source + " value was detected from the client (" + shown + ").",
			Stack:   frames},
		Message: "request validation: a potentially dangerous " + source + " value of " + name}
}

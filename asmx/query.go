package asmx

import (
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/atmkit/atmkit/internal/wire"
)

// ParseQuery reads a query string or a form-encoded body as ASP.NET fills
// Request.QueryString and Request.Form (HttpValueCollection): pairs split at
// '&', name and value at the first '=', both URL-decoded leniently in
// UTF-8 ('+' is a space, %XX a byte, %uXXXX a UTF-16 unit, two of them a
// surrogate pair; an escape that
// does not decode stays as it is, bytes that are not UTF-8 become U+FFFD).
// It never fails: every query ASP.NET reads has an answer. A pair without
// '=' has an empty name, as ASP.NET gives it a null one.
func ParseQuery(s string) url.Values {
	v := make(url.Values)
	parseQuery(v, s)
	return v
}

// parseQuery adds the pairs of s to v (ParseQuery stays small enough to be
// inlined, so a caller's map need not escape).
func parseQuery(v url.Values, s string) {
	eachPair(s, func(name, value string, _ bool) { v[name] = append(v[name], value) })
}

// eachPair calls add with each pair of a query or form body, in order,
// name and value URL-decoded as ASP.NET's HttpValueCollection reads them: a
// pair without '=' has an empty name and named false (ASP.NET's null name,
// another key than "", which "=x" names), and a trailing '&' adds an empty
// value without a name.
func eachPair(s string, add func(name, value string, named bool)) {
	for len(s) > 0 {
		pair := s
		if i := strings.IndexByte(s, '&'); i >= 0 {
			pair, s = s[:i], s[i+1:]
			if s == "" {
				add("", "", false)
			}
		} else {
			s = ""
		}
		name, value, found := strings.Cut(pair, "=")
		if !found {
			name, value = "", pair
		}
		add(urlDecode(name), urlDecode(value), found)
	}
}

// urlDecode decodes s as ASP.NET's HttpUtility.UrlDecode does with UTF-8
// (wire.URLDecode).
func urlDecode(s string) string { return wire.URLDecode(s) }

// lookupValues returns the values of name in v as ASP.NET's
// NameValueCollection does: names compared ignoring case (sameName), the
// values of names that differ only in case together. A map keeps no
// order between names: DecodeQuery reads a query's in the query's order.
func lookupValues(v url.Values, name string) ([]string, bool) {
	vs, ok := v[name]
	for k, more := range v {
		if k != name && sameName(k, name) {
			vs, ok = append(append([]string(nil), vs...), more...), true
		}
	}
	return vs, ok
}

// sameName reports whether names a and b are equal as .NET's
// StringComparer.OrdinalIgnoreCase (NameValueCollection's) compares them:
// UTF-16 unit by unit, each as its upper case. Unlike strings.EqualFold,
// which folds whole Unicode orbits, the Kelvin sign K (U+212A), its own
// upper case, is no 'k'; a character beyond U+FFFF, two units, is
// compared as it is.
func sameName(a, b string) bool {
	for a != "" && b != "" {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb && (ra > 0xFFFF || rb > 0xFFFF || unicode.ToUpper(ra) != unicode.ToUpper(rb)) {
			return false
		}
		a, b = a[na:], b[nb:]
	}
	return a == b
}

// DecodeValues decodes the parameters of a GET, POST or JSON call from
// name/value pairs as ASMX's ValueCollectionParameterReader does: every
// parameter of the operation must be present; names are compared ignoring
// case, and the values of a repeated name are joined with commas, as
// ASP.NET's NameValueCollection does; unknown names are ignored. A
// url.Values has no order: the values of names that differ only in case
// are joined the parameter's own name's first, the others' as the map
// gives them, where NameValueCollection joins them in the query's order.
// Where the query or form's text is at hand, DecodeQuery reads it so.
func DecodeValues(op *Operation, b Binding, values url.Values) (*Call, *Error) {
	// Names that differ from a parameter's only in case count too; when
	// every parameter is there by its own name and nothing else is, there
	// are none to look for.
	exact := len(values) == len(op.Params)
	if exact {
		for _, p := range op.Params {
			if _, ok := values[p.Name]; !ok {
				exact = false
				break
			}
		}
	}
	return decodeValues(op, b, func(name string) ([]string, bool) {
		if exact {
			vs, ok := values[name]
			return vs, ok
		}
		return lookupValues(values, name)
	})
}

// decodeValues is DecodeValues with the values of each parameter's name
// (ignoring case, in order) given by lookup.
func decodeValues(op *Operation, b Binding, lookup func(name string) ([]string, bool)) (*Call, *Error) {
	c := newCall(op, b)
	for i, p := range op.Params {
		vs, ok := lookup(p.Name)
		if !ok {
			return nil, newMissingParamError(b, p.Name)
		}
		v := vs[0]
		if len(vs) > 1 {
			v = strings.Join(vs, ",")
		}
		if !utf8.ValidString(v) {
			v = strings.ToValidUTF8(v, "\uFFFD")
		}
		if x := c.set(i, v); x != nil {
			return nil, newConvertValueError(b, p, v, x)
		}
	}
	return c, nil
}

// DecodeQuery decodes the parameters of a GET, POST or JSON call from a
// query string or a form-encoded body, as DecodeValues(op, b,
// ParseQuery(query)) does, but with the values of names that differ only
// in case joined in the query's order, as NameValueCollection adds them
// ("LAT=1&lat=5" is "1,5"), where a map has no order. A query whose
// names are the parameters' own (or unknown), at most 16 of them, is read
// without building a list.
func DecodeQuery(op *Operation, b Binding, query string) (*Call, *Error) {
	if c, e, ok := decodeQueryFast(op, b, query); ok {
		return c, e
	}
	var pairs []queryPair
	eachPair(query, func(name, value string, named bool) {
		if named {
			pairs = append(pairs, queryPair{name, value})
		}
	})
	return decodeValues(op, b, func(name string) ([]string, bool) {
		var vs []string
		for _, q := range pairs {
			if q.name == name || sameName(q.name, name) {
				vs = append(vs, q.value)
			}
		}
		return vs, vs != nil
	})
}

// queryPair is a name and its value, URL-decoded, as a query gives them.
type queryPair struct{ name, value string }

// decodeQueryFast is DecodeQuery without the map; ok is false when the
// query has a name that matches a parameter's only ignoring case (whose
// values NameValueCollection joins with the parameter's), or more than 16
// pairs of parameters.
func decodeQueryFast(op *Operation, b Binding, s string) (c *Call, e *Error, ok bool) {
	var pairs [16]queryPair
	n := 0
	// A query of plain characters (no escape, no '+', ASCII only) needs no
	// decoding: its names and values are its own substrings.
	plain := plainQuery(s)
	for len(s) > 0 {
		pair := s
		if i := strings.IndexByte(s, '&'); i >= 0 {
			pair, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		// A pair without '=' has an empty name, and a trailing '&' adds
		// one: no parameter's, so ignored as DecodeValues ignores it.
		name, value, found := strings.Cut(pair, "=")
		if !found {
			continue
		}
		if !plain {
			name = urlDecode(name)
		}
		known := false
		for _, p := range op.Params {
			if p.Name == name {
				known = true
				break
			}
			// A character beyond ASCII whose upper case is ASCII
			// ('ı', 'ſ') is longer than it.
			if len(name) >= len(p.Name) && sameName(p.Name, name) {
				return nil, nil, false
			}
		}
		if !known {
			continue
		}
		if n == len(pairs) {
			return nil, nil, false
		}
		if !plain {
			value = urlDecode(value)
		}
		pairs[n] = queryPair{name, value}
		n++
	}
	c = newCall(op, b)
	for i, p := range op.Params {
		v, found, joined := "", false, false
		for _, q := range pairs[:n] {
			if q.name != p.Name {
				continue
			}
			if found {
				v, joined = v+","+q.value, true // a repeated name: ASP.NET joins its values
			} else {
				v, found = q.value, true
			}
		}
		if !found {
			return nil, newMissingParamError(b, p.Name), true
		}
		if joined && !utf8.ValidString(v) {
			v = strings.ToValidUTF8(v, "\uFFFD")
		}
		if x := c.set(i, v); x != nil {
			return nil, newConvertValueError(b, p, v, x), true
		}
	}
	return c, nil, true
}

// plainQuery reports whether s has no byte urlDecode would change: no
// '%', no '+', nothing beyond ASCII.
func plainQuery(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '%' || c == '+' || c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// FormText returns a form body (application/x-www-form-urlencoded) sent
// with content type ct written for UTF-8, so that ParseQuery, ValidateQuery
// and DecodeQuery read it as ASP.NET reads Request.Form in a deployment
// whose requestEncoding is UTF-8 (the default): RequestEncodingUTF8.Form.
func FormText(ct, body string) string { return RequestEncodingUTF8.Form(ct, body) }

// transcodeForm returns a form or query string whose bytes are read in cs
// written again for UTF-8: each run of bytes, raw or %XX-escaped, between
// its '&', '=', '+' and %uXXXX escapes is decoded in cs (as
// HttpUtility.UrlDecode does) and written as UTF-8 escapes. A body in
// UTF-8, or in UTF-16 or UTF-32 (left as UTF-8: .NET reads ASCII forms sent
// so as pairs of bytes, which no client sends), is returned as it is.
func transcodeForm(cs charset, body string) string {
	if cs.name == "" || cs.name == charsetUTF8.name || cs.unicode || !needsTranscoding(body, cs) {
		return body
	}
	var out strings.Builder
	out.Grow(len(body) + len(body)/2)
	var run []byte
	flush := func() {
		if len(run) == 0 {
			return
		}
		for _, c := range cs.decode(run) {
			if isUnreserved(c) {
				out.WriteByte(c)
			} else {
				out.WriteByte('%')
				out.WriteByte("0123456789ABCDEF"[c>>4])
				out.WriteByte("0123456789ABCDEF"[c&15])
			}
		}
		run = run[:0]
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '&' || c == '=' || c == '+':
			flush()
			out.WriteByte(c)
		case c == '%' && i+5 < len(body) && body[i+1] == 'u' &&
			wire.IsHex(body[i+2]) && wire.IsHex(body[i+3]) && wire.IsHex(body[i+4]) && wire.IsHex(body[i+5]):
			flush()
			out.WriteString(body[i : i+6])
			i += 5
		case c == '%' && i+2 < len(body) && wire.IsHex(body[i+1]) && wire.IsHex(body[i+2]):
			run = append(run, byte(wire.Unhex(body[i+1])<<4|wire.Unhex(body[i+2])))
			i += 2
		default:
			run = append(run, c)
		}
	}
	flush()
	return out.String()
}

// needsTranscoding reports whether form body, read in cs, could read
// otherwise than in UTF-8: it has a byte above 0x7F, raw or escaped, or cs
// reads ASCII bytes as other characters.
func needsTranscoding(body string, cs charset) bool {
	if !cs.compatible && !cs.ascii && string(cs.decode([]byte(asciiProbe))) != asciiProbe {
		return true // EBCDIC and the like
	}
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c >= 0x80:
			return true
		case c == '%' && i+2 < len(body) && body[i+1] >= '8' && wire.IsHex(body[i+1]) && wire.IsHex(body[i+2]):
			return true
		}
	}
	return false
}

// asciiProbe is the printable ASCII characters, to tell a charset that
// reads them as themselves.
const asciiProbe = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"

// isUnreserved reports whether c is written as it is in a URL-encoded
// form: letters, digits and "-_.!~*'()" (HttpUtility.UrlEncode's safe
// characters).
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0
}

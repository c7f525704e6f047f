package asmx

import (
	"net/url"
	"strings"
	"unicode/utf8"
)

// ParseQuery reads a query string or a form-encoded body as ASP.NET fills
// Request.QueryString and Request.Form (HttpValueCollection): pairs split at
// '&', name and value at the first '=', both URL-decoded leniently in
// UTF-8 ('+' is a space, %XX a byte, %uXXXX a UTF-16 unit; an escape that
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
	for len(s) > 0 {
		pair := s
		if i := strings.IndexByte(s, '&'); i >= 0 {
			pair, s = s[:i], s[i+1:]
			if s == "" { // a trailing '&' adds an empty value without a name
				v[""] = append(v[""], "")
			}
		} else {
			s = ""
		}
		name, value, found := strings.Cut(pair, "=")
		if !found {
			name, value = "", pair
		}
		k := urlDecode(name)
		v[k] = append(v[k], urlDecode(value))
	}
}

// urlDecode decodes s as ASP.NET's HttpUtility.UrlDecode does with UTF-8.
func urlDecode(s string) string {
	if strings.IndexByte(s, '%') < 0 && strings.IndexByte(s, '+') < 0 {
		if utf8.ValidString(s) {
			return s
		}
		return strings.ToValidUTF8(s, "\uFFFD")
	}
	var out []byte   // decoded UTF-8
	var bytes []byte // %XX bytes not yet decoded
	flush := func() {
		if len(bytes) > 0 {
			out = append(out, []byte(strings.ToValidUTF8(string(bytes), "\uFFFD"))...)
			bytes = bytes[:0]
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '+':
			flush()
			out = append(out, ' ')
			continue
		case c == '%' && i+5 < len(s) && s[i+1] == 'u' && isHex(s[i+2]) && isHex(s[i+3]) && isHex(s[i+4]) && isHex(s[i+5]):
			flush()
			r := rune(unhex(s[i+2])<<12 | unhex(s[i+3])<<8 | unhex(s[i+4])<<4 | unhex(s[i+5]))
			if r >= 0xD800 && r <= 0xDFFF {
				r = utf8.RuneError // a lone surrogate cannot be UTF-8
			}
			out = utf8.AppendRune(out, r)
			i += 5
			continue
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			bytes = append(bytes, byte(unhex(s[i+1])<<4|unhex(s[i+2])))
			i += 2
			continue
		}
		flush()
		out = append(out, c)
	}
	flush()
	return strings.ToValidUTF8(string(out), "\uFFFD")
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// lookupValues returns the values of name in v as ASP.NET's
// NameValueCollection does: names compared ignoring case, the values of
// names that differ only in case together.
func lookupValues(v url.Values, name string) ([]string, bool) {
	vs, ok := v[name]
	for k, more := range v {
		if k != name && strings.EqualFold(k, name) {
			vs, ok = append(append([]string(nil), vs...), more...), true
		}
	}
	return vs, ok
}

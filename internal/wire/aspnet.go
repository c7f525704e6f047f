package wire

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// ASP.NET's text encodings that more than one of atmkit's packages needs:
// the mock reads queries and forms and writes error texts with them (asmx),
// and the masking rule finds a key as they write it (internal/redact).

// URLDecode decodes s, a name or value of a query string or form body, as
// ASP.NET's HttpUtility.UrlDecode does with UTF-8: '+' is a space, %XX a
// byte, %uXXXX a UTF-16 unit (two of them a surrogate pair), an escape
// that does not decode stays as it is, and bytes that are not UTF-8 become
// U+FFFD. net/url's QueryUnescape refuses %u escapes.
func URLDecode(s string) string {
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
		case c == '%' && i+5 < len(s) && s[i+1] == 'u' && IsHex(s[i+2]) && IsHex(s[i+3]) && IsHex(s[i+4]) && IsHex(s[i+5]):
			flush()
			r := unitAt(s, i)
			i += 5
			if utf16.IsSurrogate(r) {
				// A pair of escapes is one character, as .NET's string
				// of UTF-16 units holds it; a lone one cannot be UTF-8.
				hi := r
				r = utf8.RuneError
				if j := i + 1; j+5 < len(s) && s[j] == '%' && s[j+1] == 'u' && IsHex(s[j+2]) && IsHex(s[j+3]) && IsHex(s[j+4]) && IsHex(s[j+5]) {
					if p := utf16.DecodeRune(hi, unitAt(s, j)); p != utf8.RuneError {
						r, i = p, j+5
					}
				}
			}
			out = utf8.AppendRune(out, r)
			continue
		case c == '%' && i+2 < len(s) && IsHex(s[i+1]) && IsHex(s[i+2]):
			bytes = append(bytes, byte(Unhex(s[i+1])<<4|Unhex(s[i+2])))
			i += 2
			continue
		}
		flush()
		out = append(out, c)
	}
	flush()
	return strings.ToValidUTF8(string(out), "\uFFFD")
}

// unitAt is the UTF-16 unit of the %uXXXX escape at s[i].
func unitAt(s string, i int) rune {
	return rune(Unhex(s[i+2])<<12 | Unhex(s[i+3])<<8 | Unhex(s[i+4])<<4 | Unhex(s[i+5]))
}

// IsHex reports whether c is a hexadecimal digit, in either case.
func IsHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

// Unhex is the value of the hexadecimal digit c (IsHex(c) must hold).
func Unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	}
	return int(c-'A') + 10
}

// HTMLEncode encodes s as ASP.NET's HttpUtility.HtmlEncode does: <, >, &,
// " and ' as entities, and the characters from U+00A0 to U+00FF as numeric
// references.
func HTMLEncode(s string) string {
	if !needsHTMLEncode(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		switch {
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '&':
			b.WriteString("&amp;")
		case r == '"':
			b.WriteString("&quot;")
		case r == '\'':
			b.WriteString("&#39;")
		case r >= 0xA0 && r <= 0xFF:
			b.WriteString("&#")
			b.WriteString(strconv.Itoa(int(r)))
			b.WriteByte(';')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func needsHTMLEncode(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '<' || c == '>' || c == '&' || c == '"' || c == '\'':
			return true
		case c == 0xC2 || c == 0xC3: // the UTF-8 lead bytes of U+0080 to U+00FF
			return true
		}
	}
	return false
}

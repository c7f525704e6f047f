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
// ASP.NET's HttpUtility.UrlDecode does with UTF-8 (HttpEncoder.UrlDecode
// over the request's bytes): '+' is a space, %XX a byte, %uXXXX a UTF-16
// unit (two of them a surrogate pair), an escape that does not decode
// stays as it is. Raw bytes and %XX bytes make one run of bytes, decoded
// together (UrlDecoder.AddByte), so "%C3" followed by a raw 0xA9 is "é";
// bytes that are not UTF-8 become U+FFFD as .NET Framework's UTF8Encoding
// replaces them (DecodeUTF8). net/url's QueryUnescape refuses %u escapes.
func URLDecode(s string) string {
	if strings.IndexByte(s, '%') < 0 && strings.IndexByte(s, '+') < 0 {
		if utf8.ValidString(s) {
			return s
		}
		return DecodeUTF8(s)
	}
	var out []byte   // decoded UTF-8
	var bytes []byte // bytes, raw or %XX, not yet decoded
	flush := func() {
		if len(bytes) > 0 {
			out = appendUTF8(out, bytes)
			bytes = bytes[:0]
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '+':
			c = ' ' // a byte of the run, as .NET adds it
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
			c = byte(Unhex(s[i+1])<<4 | Unhex(s[i+2]))
			i += 2
		}
		bytes = append(bytes, c)
	}
	flush()
	return string(out)
}

// DecodeUTF8 is s, bytes meant as UTF-8, as .NET Framework's UTF8Encoding
// with its replacement fallback (Encoding.UTF8.GetString) reads them: each
// invalid sequence is one U+FFFD, where a sequence is a byte that cannot
// start a character (0x80 to 0xBF, 0xC0, 0xC1, 0xF5 to 0xFF), or a lead
// byte with the continuation bytes read before the sequence broke off (at a
// byte that does not continue it, at the end, or at a second byte that
// makes it overlong, a surrogate or beyond U+10FFFF, which the sequence
// then includes). So %A4%E9%80 is two U+FFFD and %E0%80%80 two, where
// strings.ToValidUTF8 would write one.
func DecodeUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return string(appendUTF8(make([]byte, 0, len(s)+8), []byte(s)))
}

// appendUTF8 appends b, decoded as DecodeUTF8 decodes it, to dst.
func appendUTF8(dst, b []byte) []byte {
	const bad = "\uFFFD"
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			dst = append(dst, c)
			i++
			continue
		}
		need := 0 // continuation bytes the lead byte asks for
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need = 1
		case c >= 0xE0 && c <= 0xEF:
			need = 2
		case c >= 0xF0 && c <= 0xF4:
			need = 3
		default: // a continuation byte, C0, C1, F5 to FF: invalid alone
			dst = append(dst, bad...)
			i++
			continue
		}
		k := 1
		for ; k <= need; k++ {
			if i+k >= len(b) || b[i+k]&0xC0 != 0x80 {
				break // the sequence ends here; b[i+k] is read again
			}
			if k == 1 && !secondByteOK(c, b[i+1]) {
				k = 2 // the second byte belongs to the invalid sequence
				break
			}
		}
		if k <= need {
			dst = append(dst, bad...)
			i += k
			continue
		}
		dst = append(dst, b[i:i+need+1]...)
		i += need + 1
	}
	return dst
}

// secondByteOK reports whether b2, a continuation byte, may follow lead
// byte c (UTF8Encoding's checks at the second byte): not an overlong
// three-byte form (E0 80 to E0 9F), not a surrogate (ED A0 to ED BF), not
// an overlong four-byte form or one beyond U+10FFFF (F0 80 to F0 8F, F4 90
// and above).
func secondByteOK(c, b2 byte) bool {
	switch c {
	case 0xE0:
		return b2 >= 0xA0
	case 0xED:
		return b2 < 0xA0
	case 0xF0:
		return b2 >= 0x90
	case 0xF4:
		return b2 < 0x90
	}
	return true
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

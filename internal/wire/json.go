package wire

import "unicode/utf8"

// JSONStyle is how one JSON writer escapes strings. The writers atmkit
// imitates agree on '"', '\\' and control characters, and differ in the
// rest: which other characters they escape, whether \b and \f have short
// escapes, and what becomes of U+2028, U+2029 and invalid UTF-8.
type JSONStyle struct {
	// ascii says how each ASCII byte is written: 0 as it is, 'u' as
	// \u00XX, any other byte b as a backslash then b (\n, \", ...).
	ascii [utf8.RuneSelf]byte
	// lineSeps writes U+2028 and U+2029 as \u2028 and \u2029.
	lineSeps bool
	// raw passes bytes from 0x80 on as they are, valid UTF-8 or not;
	// otherwise an invalid byte becomes \ufffd.
	raw bool
}

// newJSONStyle is the common part of the styles: '"' and '\\' escaped by
// a backslash, \n, \r and \t by their short escapes, the other control
// characters as \u00XX, and each byte of extra as \u00XX too.
func newJSONStyle(extra string) *JSONStyle {
	st := &JSONStyle{}
	for c := range 0x20 {
		st.ascii[c] = 'u'
	}
	st.ascii['"'], st.ascii['\\'] = '"', '\\'
	st.ascii['\n'], st.ascii['\r'], st.ascii['\t'] = 'n', 'r', 't'
	for i := range len(extra) {
		st.ascii[extra[i]] = 'u'
	}
	return st
}

// The JSON styles atmkit writes.
var (
	// ResultJSON is how the JSON binding's results are written: '<', '>'
	// and '&' as \u escapes, \b and \f as \u0008 and \u000c, U+2028 and
	// U+2029 escaped, invalid UTF-8 as U+FFFD.
	ResultJSON = func() *JSONStyle {
		st := newJSONStyle("<>&")
		st.lineSeps = true
		return st
	}()
	// AjaxJSON is how ASP.NET AJAX's JavaScriptSerializer writes the
	// strings of a JSON error object: '<', '>', '&' and the apostrophe as
	// \u escapes, \b and \f short, every other byte as it is.
	AjaxJSON = func() *JSONStyle {
		st := newJSONStyle("<>&'")
		st.ascii['\b'], st.ascii['\f'] = 'b', 'f'
		st.raw = true
		return st
	}()
	// FileJSON is how atmkit's data set files are written: as
	// encoding/json escapes strings, but with '<', '>', '&', U+2028 and
	// U+2029 as they are, so that a file reads as it shows; \b and \f
	// short, invalid UTF-8 as U+FFFD.
	FileJSON = func() *JSONStyle {
		st := newJSONStyle("")
		st.ascii['\b'], st.ascii['\f'] = 'b', 'f'
		return st
	}()
)

const hexDigits = "0123456789abcdef"

// AppendString appends s to dst as a JSON string in style st, quotes
// included.
func (st *JSONStyle) AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			e := st.ascii[c]
			if e == 0 {
				i++
				continue
			}
			dst = append(dst, s[last:i]...)
			if e == 'u' {
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			} else {
				dst = append(dst, '\\', e)
			}
			i++
			last = i
			continue
		}
		if st.raw {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, s[last:i]...)
			dst = append(dst, `\ufffd`...)
		case st.lineSeps && (r == '\u2028' || r == '\u2029'):
			dst = append(dst, s[last:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		last = i
	}
	dst = append(dst, s[last:]...)
	return append(dst, '"')
}

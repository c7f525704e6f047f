package redact

import (
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/atmkit/atmkit/internal/wire"
)

// ReplaceJSONEscaped returns s with each run of it that reads, its JSON
// string escapes decoded (\uXXXX in either case, a surrogate pair as its
// character, \/, \", \\, \b, \f, \n, \r, \t), as one of keys replaced by
// mask, and how many runs it replaced: a key an upstream's JSON writer
// escaped otherwise than Forms' writers do (lua-cjson's and PHP's \/ for
// '/', System.Text.Json's \u002B for '+', a letter as \u0050), which no
// literal form of it matches. A run written without escapes is left to
// the literal forms. keys are decoded values.
func ReplaceJSONEscaped(s, mask string, keys ...string) (string, int) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, 0
	}
	return replaceDecoded(s, mask, keys, decodeJSONMapped)
}

// ReplaceXMLEscaped is ReplaceJSONEscaped for XML's references: a run of
// s that reads, its character references (&#NN; and &#xHH; in either
// case) and the five predefined entities decoded, as one of keys is
// replaced by mask. A writer's references other than Forms' (Python's
// &#x27; for an apostrophe, a letter as &#x6B;) leave no literal form.
func ReplaceXMLEscaped(s, mask string, keys ...string) (string, int) {
	if strings.IndexByte(s, '&') < 0 {
		return s, 0
	}
	return replaceDecoded(s, mask, keys, decodeXMLMapped)
}

// replaceDecoded replaces by mask each run of s that decode's reading of
// it holds as one of keys, written otherwise than as the key itself.
func replaceDecoded(s, mask string, keys []string, decode func(s string, mapped bool) (reading, bool)) (string, int) {
	// The text decoded first, without where each byte came from (16
	// bytes of maps a byte): most texts holding an escape (a JSON
	// answer's \n, ASP.NET AJAX's \/Date(...)\/, XML's &amp;) hold no key.
	r, changed := decode(s, false)
	if !changed || !slices.ContainsFunc(keys, func(k string) bool { return k != "" && strings.Contains(r.text, k) }) {
		return s, 0
	}
	r, _ = decode(s, true)
	spans := r.keySpans(nil, s, mask, keys)
	return applySpans(s, spans), len(spans)
}

// jsonShort are the characters of JSON's two-character escapes, by the
// letter after the backslash.
var jsonShort = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// decodeJSONMapped decodes the JSON string escapes of s (anywhere in it:
// which of its quotes start a string is not read), each byte mapped to
// the escape that wrote it when mapped, and reports whether it changed
// anything. A lone surrogate is read as U+FFFD, as encoding/json reads
// it; a backslash starting no escape stays as it is.
func decodeJSONMapped(s string, mapped bool) (reading, bool) {
	d := newDecoder(s, mapped)
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '\\')
		if j < 0 {
			d.plain(i, len(s))
			break
		}
		d.plain(i, i+j)
		i += j
		if i+1 >= len(s) {
			d.plain(i, i+1)
			break
		}
		if c, ok := jsonShort[s[i+1]]; ok {
			d.escape(i, i+2, c)
			i += 2
			continue
		}
		if s[i+1] != 'u' || i+5 >= len(s) || !isHex4(s[i+2:i+6]) {
			d.plain(i, i+1)
			i++
			continue
		}
		u := unhex4(s[i+2 : i+6])
		end := i + 6
		if utf16.IsSurrogate(u) {
			p := utf8.RuneError
			if end+5 < len(s) && s[end] == '\\' && s[end+1] == 'u' && isHex4(s[end+2:end+6]) {
				if p = utf16.DecodeRune(u, unhex4(s[end+2:end+6])); p != utf8.RuneError {
					end += 6
				}
			}
			u = p
		}
		d.escapeRune(i, end, u)
		i = end
	}
	return d.reading()
}

// A decoder builds a reading of s (decodeJSONMapped's, decodeXMLMapped's):
// runs of s as they are, and escapes decoded, each byte mapped to what
// wrote it when mapped.
type decoder struct {
	s       string
	b       []byte
	r       reading
	mapped  bool
	changed bool
}

func newDecoder(s string, mapped bool) *decoder {
	d := &decoder{s: s, b: make([]byte, 0, len(s)), mapped: mapped}
	if mapped {
		d.r.from, d.r.to = make([]int, 0, len(s)), make([]int, 0, len(s))
	}
	return d
}

// plain adds s[start:end] as it is.
func (d *decoder) plain(start, end int) {
	d.b = append(d.b, d.s[start:end]...)
	if d.mapped {
		for k := start; k < end; k++ {
			d.r.from, d.r.to = append(d.r.from, k), append(d.r.to, k+1)
		}
	}
}

// escape adds c, decoded from the escape s[start:end].
func (d *decoder) escape(start, end int, c byte) {
	d.b = append(d.b, c)
	if d.mapped {
		d.r.from, d.r.to = append(d.r.from, start), append(d.r.to, end)
	}
	d.changed = true
}

// escapeRune adds u, decoded from the escape s[start:end].
func (d *decoder) escapeRune(start, end int, u rune) {
	n := len(d.b)
	d.b = utf8.AppendRune(d.b, u)
	if d.mapped {
		for range len(d.b) - n {
			d.r.from, d.r.to = append(d.r.from, start), append(d.r.to, end)
		}
	}
	d.changed = true
}

// reading is what was decoded, and whether any escape was.
func (d *decoder) reading() (reading, bool) {
	d.r.text = string(d.b)
	return d.r, d.changed
}

// unhex4 reads four hex digits (isHex4) as a UTF-16 unit.
func unhex4(s string) rune {
	return rune(wire.Unhex(s[0])<<12 | wire.Unhex(s[1])<<8 | wire.Unhex(s[2])<<4 | wire.Unhex(s[3]))
}

// xmlEntities are XML's predefined entities, by name.
var xmlEntities = map[string]byte{"amp": '&', "lt": '<', "gt": '>', "quot": '"', "apos": '\''}

// decodeXMLMapped is decodeJSONMapped for XML's references (&#NN;,
// &#xHH;, the predefined entities), anywhere in s. A reference to no
// character XML allows (0, a surrogate, past U+10FFFF) stays as written.
func decodeXMLMapped(s string, mapped bool) (reading, bool) {
	d := newDecoder(s, mapped)
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '&')
		if j < 0 {
			d.plain(i, len(s))
			break
		}
		d.plain(i, i+j)
		i += j
		semi := strings.IndexByte(s[i+1:min(len(s), i+12)], ';')
		if semi < 0 {
			d.plain(i, i+1)
			i++
			continue
		}
		ref, end := s[i+1:i+1+semi], i+2+semi
		if c, ok := xmlEntities[ref]; ok {
			d.escape(i, end, c)
			i = end
			continue
		}
		if u, ok := charRef(ref); ok {
			d.escapeRune(i, end, u)
			i = end
			continue
		}
		d.plain(i, i+1)
		i++
	}
	return d.reading()
}

// charRef reads the inside of a character reference (#NN, #xHH): the
// character it names, if XML allows one there.
func charRef(ref string) (rune, bool) {
	digits, base := strings.TrimPrefix(ref, "#"), 10
	if len(digits) == len(ref) || digits == "" {
		return 0, false
	}
	if digits[0] == 'x' || digits[0] == 'X' { // X as HTML reads it
		digits, base = digits[1:], 16
	}
	if digits == "" || len(digits) > 8 {
		return 0, false
	}
	var u rune
	for j := 0; j < len(digits); j++ {
		c := digits[j]
		switch {
		case c >= '0' && c <= '9':
			u = u*rune(base) + rune(c-'0')
		case base == 16 && wire.IsHex(c):
			u = u*16 + rune(wire.Unhex(c))
		default:
			return 0, false
		}
	}
	if u <= 0 || u > utf8.MaxRune || utf16.IsSurrogate(u) {
		return 0, false
	}
	return u, true
}

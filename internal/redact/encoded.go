package redact

import (
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/atmkit/atmkit/internal/wire"
)

// encodedRounds is how many times Encoded and EncodedValues percent-decode
// a text: a key sent once, twice or three times percent-encoded (a URL in
// the query of a URL in a header) is found.
const encodedRounds = 3

// Encoded is Text for a text that may hold a key percent-encoded as a
// whole, name and all: a header field's value ("strAtmServiceKey%3DKey",
// a Referer holding a URL in its query, a configured key written
// "Sec%72etKey1"). Beyond what Text masks, s is read with its escapes
// decoded as ASP.NET decodes a query's (%XX a byte, %uXXXX a UTF-16 unit),
// up to three times over; a strAtmServiceKey value, or a form of one of
// keys, that a decoded reading holds is masked where its escapes stand in
// s. The rest of s stays as written.
func Encoded(s string, keys ...string) string {
	s = Text(s, keys...)
	if strings.IndexByte(s, '%') < 0 {
		return s
	}
	var lits []literal
	add := func(k string) {
		if k != "" && !slices.ContainsFunc(lits, func(l literal) bool { return l.key == k }) {
			lits = append(lits, newLiteral(k))
		}
	}
	for _, k := range keys {
		add(k)
	}
	var spans []span
	for _, r := range readings(s) {
		for _, v := range Values(r.text) {
			add(v)
		}
		slices.SortStableFunc(lits, func(a, b literal) int { return byLength(a.key, b.key) })
		for _, sp := range keySpans(r.text, lits) {
			// The span's bytes as decoded, mapped to the escapes
			// that wrote them in s.
			sp.start, sp.end = r.from[sp.start], r.to[sp.end-1]
			spans = append(spans, sp)
		}
	}
	return applySpans(s, spans)
}

// EncodedValues is Values of s and of its percent-decoded readings (see
// Encoded): the key "Other" of a header "strAtmServiceKey%3DOther", to be
// masked wherever else it appears.
func EncodedValues(s string) []string {
	out := Values(s)
	if strings.IndexByte(s, '%') < 0 {
		return out
	}
	for _, r := range readings(s) {
		for _, v := range Values(r.text) {
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// A reading is a text percent-decoded, with where each of its bytes
// was written in the text it was read from: from[i] is where byte i's
// escape starts there, to[i] where it ends.
type reading struct {
	text     string
	from, to []int
}

// readings returns s percent-decoded once, twice and so on (encodedRounds
// at most), each reading mapped to s's bytes, until decoding changes
// nothing.
func readings(s string) []reading {
	var out []reading
	cur := s
	var from, to []int // cur's bytes in s; nil: cur is s
	for range encodedRounds {
		r, changed := decodeMapped(cur)
		if !changed {
			break
		}
		if from != nil {
			for i := range r.from {
				r.from[i], r.to[i] = from[r.from[i]], to[r.to[i]-1]
			}
		}
		out = append(out, r)
		cur, from, to = r.text, r.from, r.to
	}
	return out
}

// decodeMapped decodes the escapes of s as wire.URLDecode does (%XX a
// byte, %uXXXX a UTF-16 unit), its bytes kept as they are (no UTF-8
// replacement: Values reads bytes that are not UTF-8 in ISO-8859-1 and
// windows-1252), and reports whether it changed anything. A '+' stays:
// a space would end the value that holds it, which Values and keySpans
// read as a query value, '+' and all.
func decodeMapped(s string) (reading, bool) {
	r := reading{from: make([]int, 0, len(s)), to: make([]int, 0, len(s))}
	var b []byte
	changed := false
	emit := func(start, end int, bs ...byte) {
		for _, c := range bs {
			b = append(b, c)
			r.from, r.to = append(r.from, start), append(r.to, end)
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '%' && i+5 < len(s) && s[i+1] == 'u' && isHex4(s[i+2:i+6]):
			u := rune(wire.Unhex(s[i+2])<<12 | wire.Unhex(s[i+3])<<8 | wire.Unhex(s[i+4])<<4 | wire.Unhex(s[i+5]))
			end := i + 6
			if utf16.IsSurrogate(u) && end+5 < len(s) && s[end] == '%' && s[end+1] == 'u' && isHex4(s[end+2:end+6]) {
				lo := rune(wire.Unhex(s[end+2])<<12 | wire.Unhex(s[end+3])<<8 | wire.Unhex(s[end+4])<<4 | wire.Unhex(s[end+5]))
				if p := utf16.DecodeRune(u, lo); p != utf8.RuneError {
					u, end = p, end+6
				}
			}
			emit(i, end, utf8.AppendRune(nil, u)...)
			i = end - 1
			changed = true
		case c == '%' && i+2 < len(s) && wire.IsHex(s[i+1]) && wire.IsHex(s[i+2]):
			emit(i, i+3, byte(wire.Unhex(s[i+1])<<4|wire.Unhex(s[i+2])))
			i += 2
			changed = true
		default:
			emit(i, i+1, c)
		}
	}
	r.text = string(b)
	return r, changed
}

func isHex4(s string) bool {
	return wire.IsHex(s[0]) && wire.IsHex(s[1]) && wire.IsHex(s[2]) && wire.IsHex(s[3])
}

// A span is a part of a text to be replaced by mask.
type span struct {
	start, end int
	mask       string
}

// keySpans returns where in s Text would mask: the strAtmServiceKey
// values of its query strings and forms, and the forms of lits.
func keySpans(s string, lits []literal) []span {
	var out []span
	eachParam(s, lits, func(start, end int, excerpt bool) {
		if start == end || isMask(s[start:end]) {
			return
		}
		mask := stars
		if !excerpt {
			v := wire.URLDecode(s[start:end])
			if isMask(v) {
				return
			}
			if m := Key(v); queryValue(m) == len(m) && openQuote(m) == "" {
				mask = m
			}
		}
		out = append(out, span{start, end, mask})
	})
	for _, l := range lits {
		for _, f := range l.forms {
			for from := 0; f != ""; {
				i := strings.Index(s[from:], f)
				if i < 0 {
					break
				}
				start, end := from+i, from+i+len(f)
				from = end
				if l.word && (isWordByte(f[0]) && start > 0 && isWordByte(s[start-1]) ||
					isWordByte(f[len(f)-1]) && end < len(s) && isWordByte(s[end])) {
					from = start + 1
					continue
				}
				out = append(out, span{start, end, l.mask})
			}
		}
	}
	return out
}

// applySpans replaces spans of s by their masks, overlapping spans as one
// (the first one's mask).
func applySpans(s string, spans []span) string {
	if len(spans) == 0 {
		return s
	}
	slices.SortStableFunc(spans, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	var b strings.Builder
	last := 0
	for i := 0; i < len(spans); {
		cur := spans[i]
		for i++; i < len(spans) && spans[i].start < cur.end; i++ {
			cur.end = max(cur.end, spans[i].end)
		}
		b.WriteString(s[last:cur.start])
		b.WriteString(cur.mask)
		last = cur.end
	}
	b.WriteString(s[last:])
	return b.String()
}

// ReplaceEscaped returns s with each run of it that percent-decodes (%XX
// in either case, %uXXXX, as ASP.NET decodes a query's, once, twice or
// three times over) to one of keys replaced by mask, and how many runs it
// replaced: a key written with other escapes than those of the call that
// carried it (%2f for %2F, a '/' left as it is, a letter escaped), which
// no literal form of it matches. A run written without escapes is left to
// the literal forms. keys are decoded values.
func ReplaceEscaped(s, mask string, keys ...string) (string, int) {
	if strings.IndexByte(s, '%') < 0 || len(keys) == 0 {
		return s, 0
	}
	var spans []span
	for _, r := range readings(s) {
		spans = r.keySpans(spans, s, mask, keys)
	}
	return applySpans(s, spans), len(spans)
}

// keySpans appends to spans, for each run of the reading r of s that holds
// one of keys, the span of s it was read from, to be replaced by mask,
// unless s writes the key there as it is (the literal forms' to replace).
func (r reading) keySpans(spans []span, s, mask string, keys []string) []span {
	for _, k := range keys {
		if k == "" {
			continue
		}
		for from := 0; ; {
			i := strings.Index(r.text[from:], k)
			if i < 0 {
				break
			}
			start, end := from+i, from+i+len(k)
			from = end
			if sp := (span{r.from[start], r.to[end-1], mask}); s[sp.start:sp.end] != k {
				spans = append(spans, sp)
			}
		}
	}
	return spans
}

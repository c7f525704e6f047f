package redact

import (
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"
)

// stars is the mask of an excerpt: Key's of a short key.
const stars = "******"

// excerptWindow is the most bytes a request validation excerpt (see
// excerpt) takes in a text: 36 UTF-16 units (30 of the value, two "..."),
// each written in at most 12 bytes (&amp;#65535; in HTML escaped twice),
// and its closing quote.
const excerptWindow = 36*12 + 16

// maskQueries returns s with the value of every strAtmServiceKey query
// parameter (queryValue) and every request validation excerpt of one
// (excerpt) masked: a value by Key, an excerpt, a cut part of a value, by
// "******" whatever it holds.
func maskQueries(s string, lits []literal) string {
	var b strings.Builder
	last := 0
	eachParam(s, lits, func(start, end int, excerpt bool) {
		v := s[start:end]
		var mask string
		if excerpt {
			if v == "" || isMask(v) {
				return
			}
			mask = stars // no character of a cut part shown
		} else {
			if d, err := url.QueryUnescape(v); err == nil {
				v = d
			}
			if v == "" || isMask(v) {
				return
			}
			mask = Key(v)
			if queryValue(mask) < len(mask) || openQuote(mask) != "" {
				mask = stars // a decoded character that would end the value, or open a quote, is not shown
			}
		}
		b.WriteString(s[last:start])
		b.WriteString(mask)
		last = end
	})
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// Excerpts returns s with the excerpt of every strAtmServiceKey value that
// ASP.NET's request validation quotes in its error ("A potentially
// dangerous Request.QueryString value was detected from the client
// (strAtmServiceKey=\"...\")."), as text, HTML, XML or JSON write it,
// replaced by repl's answer for it (repl is not called for an empty one).
// An excerpt of a long key is a part of it that no mask of the key
// matches: Text masks excerpts as "******"; the cassettes replace them by
// their placeholder.
func Excerpts(s string, repl func(excerpt string) string) string {
	if !HasParamName(s) {
		return s
	}
	var b strings.Builder
	last := 0
	eachParam(s, nil, func(start, end int, excerpt bool) {
		if !excerpt || start == end {
			return
		}
		b.WriteString(s[last:start])
		b.WriteString(repl(s[start:end]))
		last = end
	})
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// namelessRE matches where ASP.NET's request validation error quotes a
// value without a name: "... was detected from the client (=\"...\")."
var namelessRE = regexp.MustCompile(`(?i)from the client \(=`)

// NamelessExcerpts is Excerpts for the excerpt of values without a name
// that ASP.NET's request validation quotes ("... detected from the client
// (=\"...Key-Tail9,<x>Tail8\")."; the values joined with commas, cut to
// their last characters): the rest of a key holding & that a client sent
// unencoded is such a value, and the cassettes replace its excerpt when
// the request holds one.
func NamelessExcerpts(s string, repl func(excerpt string) string) string {
	var b strings.Builder
	last := 0
	for _, loc := range namelessRE.FindAllStringIndex(s, -1) {
		end := loc[1]
		if end < last {
			continue
		}
		q := openQuote(s[end:])
		if q == "" {
			continue
		}
		vs := end + len(q)
		ve, _ := excerptEnd(s, vs, q)
		if ve == vs {
			continue
		}
		b.WriteString(s[last:vs])
		b.WriteString(repl(s[vs:ve]))
		last = ve
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// eachParam calls f with the bounds of every strAtmServiceKey value of s,
// in order, without overlaps: a query string's or form's value (after
// "strAtmServiceKey=" at the start of s or after one of paramStarts,
// queryValue), and the excerpt of a value ASP.NET's request
// validation quotes (excerpt is true), after "strAtmServiceKey=" and an
// opening double quote. A query value that starts with a form of one of
// lits (the keys being masked) is that form whole, though it holds a
// character that ends a query value: a page echoes a key's ' or " as
// "&#39;" or "&quot;", and the value's end at its & would leave the
// key's rest where its forms are no longer found.
func eachParam(s string, lits []literal, f func(start, end int, excerpt bool)) {
	for from := 0; from < len(s); {
		loc := nameRE.FindStringIndex(s[from:])
		if loc == nil {
			return
		}
		start, end := from+loc[0], from+loc[1]
		from = end
		if q := openQuote(s[end:]); q != "" {
			vs := end + len(q)
			if strings.HasPrefix(s[vs:], stars) {
				// Masked before: its end is no longer known, and a
				// window taken from the shorter text would reach
				// further than the first mask's did.
				from = vs + len(stars)
				continue
			}
			ve, cut := excerptEnd(s, vs, q)
			if cut && strings.HasPrefix(s[vs:], Placeholder) {
				from = ve // replaced before: its end is no longer known
				continue
			}
			f(vs, ve, true)
			from = ve
			continue
		}
		if start > 0 && !strings.ContainsRune(paramStarts, rune(s[start-1])) {
			continue
		}
		ve := end + queryValue(s[end:])
		ve = max(ve, end+formAt(s[end:], lits))
		ve = continuationEnd(s, ve)
		if s[end:ve] == "'" && strings.HasPrefix(s[ve:], `"$ATMKIT_KEY"`) {
			continue // a POSIX curl line's '...='"$ATMKIT_KEY"'...'
		}
		f(end, ve, false)
		from = ve
	}
}

// paramStarts are the bytes after which a strAtmServiceKey= starts a
// value eachParam finds: a query's or form's ? & ;, white space or a
// quote around a URL in a text, and a path's / (a client that put the
// parameter in the path, .../ReturnProvinces/strAtmServiceKey=K, which the
// mock's error echoes: "... Web Service method name is not valid.").
const paramStarts = "?&;/ \t\n\f\r\"'"

// continuationEnd is where the values without '=' that follow a query
// value ending at end of s end (end itself when none): the rest of a key
// holding & that a client sent unencoded (strAtmServiceKey=Le&ak-Key),
// which ASP.NET reads as a value without a name and which is the key's
// all the same. A value asking for a document (wsdl, disco) is not one,
// nor what starts as an entity (&amp;, &quot;, &#39;: a page's text).
func continuationEnd(s string, end int) int {
	for end < len(s) && s[end] == '&' {
		n := queryValue(s[end+1:])
		seg := s[end+1 : end+1+n]
		if seg == "" || strings.ContainsRune(seg, '=') || entityRE.MatchString(seg) ||
			strings.EqualFold(seg, "wsdl") || strings.EqualFold(seg, "disco") {
			break
		}
		end += 1 + n
	}
	return end
}

// entityRE matches what starts as an HTML or XML entity or character
// reference, after its &.
var entityRE = regexp.MustCompile(`^(?:[A-Za-z][A-Za-z0-9]*|#[0-9]+|#[xX][0-9A-Fa-f]+);`)

// formAt is the length of the longest form of lits that s starts with, 0
// for none.
func formAt(s string, lits []literal) int {
	n := 0
	for _, l := range lits {
		for _, f := range l.forms {
			if len(f) > n && strings.HasPrefix(s, f) {
				n = len(f)
			}
		}
	}
	return n
}

// queryValue is the length of the query value at the start of s: up to
// the next pair (&, as ASP.NET splits a query), white space, ", < or >,
// which end a URL in a text, a quote or markup. A ' or ; does not end it:
// ASP.NET reads both as the value's, and a key holding one would show its
// rest.
func queryValue(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '&', ' ', '\t', '\n', '\f', '\r', '"', '<', '>':
			return i
		}
	}
	return len(s)
}

// OpenQuote is the opening quote of a request validation excerpt that s
// starts with (see Excerpts), as a text writes it, or "": a value after
// "strAtmServiceKey=" that starts with one is such an excerpt.
func OpenQuote(s string) string { return openQuote(s) }

// openQuote returns the double quote s starts with, as a text may write
// the one of ASP.NET's request validation message ("A potentially
// dangerous Request.QueryString value was detected from the client
// (strAtmServiceKey=\"...\")."): raw, escaped by backslashes (JSON, Go's
// %q, once or more), as an HTML or XML entity or reference (once or twice
// escaped) or a JSON \u escape; "" when s starts with none.
func openQuote(s string) string {
	n := 0
	for n < len(s) && s[n] == '\\' {
		n++
	}
	if n < len(s) && s[n] == '"' {
		return s[:n+1]
	}
	for _, q := range []string{"&quot;", "&#34;", "&#x22;", "&amp;quot;", "&amp;#34;", `\u0022`} {
		if len(s) >= len(q) && strings.EqualFold(s[:len(q)], q) {
			return s[:len(q)]
		}
	}
	return ""
}

// excerptEnd is where the excerpt of a value that starts at start of s,
// after the opening quote q, ends: at the last q followed by ")" (the
// message's end; the excerpt itself, a value's characters as sent, may
// hold both) within excerptWindow bytes, else at the first q (a value in
// quotes of another text), else (cut is true) at the window's end or s's:
// a text cut inside the excerpt.
func excerptEnd(s string, start int, q string) (end int, cut bool) {
	window := s[start:min(len(s), start+excerptWindow+len(q)+1)]
	if i := strings.LastIndex(window, q+")"); i >= 0 {
		return start + i, false
	}
	if i := strings.Index(window, q); i >= 0 {
		return start + i, false
	}
	end = start + min(len(s)-start, excerptWindow)
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	return end, true
}

// xmlMask is the mask of v, the text of an XML value (its entities and
// character references replaced): Key's, or "******" when its characters
// would be written as markup or references (&, <, >, a control
// character), as a query value's mask is when a decoded character would
// end it. A mask never shows a part of an entity, nor more of the key
// than two characters.
func xmlMask(v string) string {
	m := Key(v)
	if strings.ContainsFunc(m, func(r rune) bool { return r == '&' || r == '<' || r == '>' || r < 0x20 || r == 0xFFFE || r == 0xFFFF }) {
		return stars
	}
	return m
}

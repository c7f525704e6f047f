package recorded

import (
	"html"
	"net/url"
	"strings"

	"github.com/atmkit/atmkit/internal/redact"
)

// pageFormat is how a page or an answer writes the text a key's value
// stands in, which says where the value ends (pageValue).
type pageFormat int

const (
	pageText pageFormat = iota // plain text: a value ends at white space
	pageHTML                   // HTML: markup, entities
	pageXML                    // XML: markup, entities
	pageJSON                   // a JSON text: backslash escapes
)

// formatOf is the pageFormat of a body of media type mt (lower case).
func formatOf(mt string) pageFormat {
	switch {
	case strings.Contains(mt, "html"):
		return pageHTML
	case strings.Contains(mt, "xml"):
		return pageXML
	case strings.Contains(mt, "json"):
		return pageJSON
	}
	return pageText
}

// pageKeys replaces the value of every strAtmServiceKey=value of a page
// (an HTML page's links and text) or an answer's text (a string result
// naming a URL, an error's text). A page is no form: a key in a link it
// holds ends where the link's query does, the rest of the page stays. A
// value that starts with a key found in the request, in any of its forms
// and however short, is that key whole. One the request never carried
// (a help page's sample link, an answer naming another key) ends where
// pageValue says: not at an & that writes one of the key's characters
// (&amp;, &#39;, \u0026), only at one that starts another name=value pair.
func (s *scrubber) pageKeys(b string, f pageFormat) string {
	locs := htmlKeyRE.FindAllStringIndex(b, -1)
	if locs == nil {
		return b
	}
	known := s.formsOf(1)
	var out strings.Builder
	last := 0
	for _, loc := range locs {
		start := loc[1]
		if start < last { // inside a value that ran past the match
			continue
		}
		if q := redact.OpenQuote(b[start:]); q != "" && !strings.HasPrefix(b[start+len(q):], q) {
			// A request validation excerpt, in its quotes: textBody's
			// (redact.Excerpts). An empty one is none: ASP.NET's
			// validation never refuses an empty value.
			continue
		}
		end := start + pageValue(b[:start], b[start:], f)
		for _, k := range known { // the longest first
			if len(k) > end-start && strings.HasPrefix(b[start:], k) {
				end = start + len(k)
				break
			}
		}
		v := b[start:end]
		s.note(v)
		if dv, err := url.QueryUnescape(v); err == nil {
			s.note(dv)
		}
		if f == pageHTML || f == pageXML {
			s.note(html.UnescapeString(v)) // as it stands raw elsewhere
		}
		if v == "" || s.done(v) {
			continue
		}
		s.n++
		out.WriteString(b[last:start])
		out.WriteString(s.ph)
		last = end
	}
	if last == 0 {
		return b
	}
	out.WriteString(b[last:])
	return out.String()
}

// pageValue is the length of the value at the start of s, a key the
// request did not carry, which text before (the page up to the value)
// holds in format f. It ends at white space, or where a raw & or one
// written as the format writes it (&amp;, &#38;, \u0026) starts another
// pair (name=); any other & is one of the key's characters, or starts the
// entity of one (&#39;). In HTML and XML markup (inside a tag: a link's
// href) a value also ends at a quote, <, > and # (a fragment); in their
// text, where ASP.NET and .NET's XML writers leave ' and " raw, at < and
// > only. In JSON it also ends at the string's closing quote and at an
// escaped line break, tab or form feed (white space); \" and the other
// escapes are the key's characters. A key holding & followed by name=
// itself is cut there: no text tells it from the next pair.
func pageValue(before, s string, f pageFormat) int {
	inTag := (f == pageHTML || f == pageXML) && strings.LastIndexByte(before, '<') > strings.LastIndexByte(before, '>')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			return i
		case (f == pageHTML || f == pageXML) && (c == '<' || c == '>'):
			return i
		case inTag && (c == '"' || c == '\'' || c == '#'):
			return i
		case f == pageJSON && c == '"':
			return i
		case f == pageJSON && c == '\\':
			if i+1 < len(s) && strings.IndexByte("nrtf", s[i+1]) >= 0 {
				return i
			}
			if n := separator(s[i:], f); n > 0 {
				if pairAt(s[i+n:]) {
					return i
				}
				i += n
				continue
			}
			i += min(2, len(s)-i) // \" \\ \/ and the rest of a \u escape
			continue
		case c == '&':
			if n := separator(s[i:], f); n > 0 && pairAt(s[i+n:]) {
				return i
			}
		}
		i++
	}
	return len(s)
}

// separator is the length of the & that s starts with, raw or as format
// f writes it in a text (&amp;, &#38; or &#x26; in HTML and XML, \u0026
// in JSON), 0 for none.
func separator(s string, f pageFormat) int {
	forms := []string{"&"}
	switch f {
	case pageHTML, pageXML:
		forms = []string{"&amp;", "&#38;", "&#x26;", "&"}
	case pageJSON:
		forms = []string{`\u0026`, "&"}
	}
	for _, sep := range forms {
		if len(s) >= len(sep) && strings.EqualFold(s[:len(sep)], sep) {
			return len(sep)
		}
	}
	return 0
}

// pairAt reports whether s starts with a name=value pair: a name (no
// white space, quote, markup, & or escape in it) and its =.
func pairAt(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '=':
			return i > 0
		case '&', ';', ' ', '\t', '\n', '\r', '\f', '"', '\'', '<', '>', '#', '\\':
			return false
		}
	}
	return false
}

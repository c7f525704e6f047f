package mockserver

import "bytes"

// The places withAddress, discoAt and helpAt move in a recorded page,
// found in one pass at the speed of bytes.IndexByte: Go's regexp took 4 ms
// for the captures over a 37 kB WSDL, on every request. Each finder finds
// what its regular expression, written above it, finds (leftmost first,
// as FindAllSubmatchIndex; replay_docs_scan_test.go holds the expressions
// and checks the finders against them on any input).

// match is one match: the bytes [start, end), and the group moved,
// [v0, v1).
type match struct{ start, end, v0, v1 int }

// finder returns the first match in b that starts at or after from.
type finder func(b []byte, from int) (match, bool)

// isSpace is \s of Go's regexp: [\t\n\f\r ].
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// isWordASCII is \w of Go's regexp: [0-9A-Za-z_].
func isWordASCII(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// isNameByte is a byte of a prefix: [\w.-].
func isNameByte(c byte) bool { return isWordASCII(c) || c == '.' || c == '-' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// skipSpaces is the index of the first byte of b at or after i that is no
// \s.
func skipSpaces(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// nextByte finds the first byte of set in b at or after from, remembering
// the last answer: the finders ask for positions in increasing order, and
// an unclosed value would otherwise be looked for to the end from each.
type nextByte struct {
	set      string
	from, at int // no byte of set in [from, at); at is one, or len(b): none
	valid    bool
}

func (n *nextByte) find(b []byte, i int) int {
	if !n.valid || i < n.from || i > n.at {
		n.from, n.valid = i, true
		if k := bytes.IndexAny(b[i:], n.set); k >= 0 {
			n.at = i + k
		} else {
			n.at = len(b)
		}
	}
	return n.at
}

// elementAttr finds, as
//
//	<(?:[A-Za-z_][\w.-]*:)?TAG\s[^>]*?\bATTR\s*=\s*["']([^"']*)["']
//
// with query false, or with query true as
//
//	<(?:[A-Za-z_][\w.-]*:)?TAG\s[^>]*?\bATTR\s*=\s*["']([^"'?]*)\?
//
// the value of attribute attr of an element tag (attr starts with a
// letter).
func elementAttr(tag, attr string, query bool) finder {
	return func(b []byte, from int) (match, bool) {
		ends := nextByte{set: `"'`}
		if query {
			ends.set = `"'?`
		}
		// Each place the tag's name is, in order, and the '<' that
		// starts it, if any: right before it, or before a prefix, which
		// is all the name bytes before its ':' (they exclude '<' and ':',
		// so only one split of them can match).
		for i := from + 1; i < len(b); {
			k := bytes.Index(b[i:], []byte(tag))
			if k < 0 {
				break
			}
			q := i + k
			i = q + 1
			p := q - 1
			if b[p] == ':' {
				p--
				for p >= 0 && isNameByte(b[p]) {
					p--
				}
				if p+1 == q-1 || isDigit(b[p+1]) || b[p+1] == '.' || b[p+1] == '-' {
					continue // no name before the ':'
				}
			}
			if p < from || b[p] != '<' || q+len(tag) >= len(b) || !isSpace(b[q+len(tag)]) {
				continue
			}
			// [^>]*? : the first place, before the tag's '>', where
			// the attribute matches.
			for j := q + len(tag) + 1; j < len(b) && b[j] != '>'; j++ {
				if b[j] != attr[0] || isWordASCII(b[j-1]) || !bytes.HasPrefix(b[j:], []byte(attr)) {
					continue
				}
				e := skipSpaces(b, j+len(attr))
				if e >= len(b) || b[e] != '=' {
					continue
				}
				e = skipSpaces(b, e+1)
				if e >= len(b) || b[e] != '"' && b[e] != '\'' {
					continue
				}
				v0 := e + 1
				v1 := ends.find(b, v0)
				if v1 == len(b) || query && b[v1] != '?' {
					continue
				}
				return match{p, v1 + 1, v0, v1}, true
			}
		}
		return match{}, false
	}
}

// discoLocation finds, as
//
//	\s(?:ref|docRef|address)\s*=\s*(?:"([^"]*)"|'([^']*)')
//
// a location attribute of a discovery document, its value the group
// whichever its quotes.
func discoLocation(b []byte, from int) (match, bool) {
	ends := [2]nextByte{{set: `"`}, {set: `'`}}
	for i := from; i+1 < len(b); i++ {
		if !isSpace(b[i]) {
			continue
		}
		var n int
		switch rest := b[i+1:]; {
		case bytes.HasPrefix(rest, []byte("ref")):
			n = len("ref")
		case bytes.HasPrefix(rest, []byte("docRef")):
			n = len("docRef")
		case bytes.HasPrefix(rest, []byte("address")):
			n = len("address")
		default:
			continue
		}
		e := skipSpaces(b, i+1+n)
		if e >= len(b) || b[e] != '=' {
			continue
		}
		e = skipSpaces(b, e+1)
		if e >= len(b) || b[e] != '"' && b[e] != '\'' {
			continue
		}
		q := 0
		if b[e] == '\'' {
			q = 1
		}
		v1 := ends[q].find(b, e+1)
		if v1 == len(b) {
			continue
		}
		return match{i, v1 + 1, e + 1, v1}, true
	}
	return match{}, false
}

// helpHost finds, as
//
//	(?i)\bHost:(?:[ \t]|&nbsp;|&#160;)*([^\s<>&"']+)
//
// the value of the Host line of a help page's sample request. Go folds
// case as Unicode does: s matches ſ (U+017F) too.
func helpHost(b []byte, from int) (match, bool) {
	for i := from; i < len(b); i++ {
		if b[i]|0x20 != 'h' || i > 0 && isWordASCII(b[i-1]) {
			continue
		}
		e, ok := foldedPrefix(b, i, "host:")
		if !ok {
			continue
		}
		for {
			if e < len(b) && (b[e] == ' ' || b[e] == '\t') {
				e++
			} else if n, ok := foldedPrefix(b, e, "&nbsp;"); ok {
				e = n
			} else if bytes.HasPrefix(b[e:], []byte("&#160;")) {
				e += len("&#160;")
			} else {
				break
			}
		}
		v1 := e
		for v1 < len(b) && !isSpace(b[v1]) && b[v1] != '<' && b[v1] != '>' && b[v1] != '&' && b[v1] != '"' && b[v1] != '\'' {
			v1++
		}
		if v1 == e {
			continue
		}
		return match{i, v1, e, v1}, true
	}
	return match{}, false
}

// foldedPrefix reports whether b[i:] starts with lower (lower-case ASCII)
// as (?i) matches it, and where it ends: a letter in either case, s as ſ
// too.
func foldedPrefix(b []byte, i int, lower string) (int, bool) {
	for k := 0; k < len(lower); k++ {
		c := lower[k]
		switch {
		case i < len(b) && (b[i] == c || 'a' <= c && c <= 'z' && b[i] == c-('a'-'A')):
			i++
		case c == 's' && bytes.HasPrefix(b[i:], []byte("ſ")):
			i += len("ſ")
		default:
			return i, false
		}
	}
	return i, true
}

// replaceGroup returns b with the group of every match find finds that
// keep accepts replaced by with, b itself when none is; matches in a
// comment or a CDATA section are no markup and stay as recorded.
func replaceGroup(b []byte, find finder, with string, keep func([]byte) bool) []byte {
	var out []byte
	last := 0
	unmarked := unmarkedSpans(b)
	for from := 0; ; {
		m, ok := find(b, from)
		if !ok {
			break
		}
		from = m.end
		for len(unmarked) > 0 && unmarked[0][1] <= m.start {
			unmarked = unmarked[1:] // spans are in order, and so are matches
		}
		if !keep(b[m.v0:m.v1]) || len(unmarked) > 0 && unmarked[0][0] < m.end {
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(b)+256)
		}
		out = append(out, b[last:m.v0]...)
		out = append(out, with...)
		last = m.v1
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

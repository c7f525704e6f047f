package recorded

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"unicode/utf8"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Item is one interaction encoded as an item of a cassette's interactions
// list: MarshalItem's bytes, byte for byte, but a long body that yaml.v3
// writes as a literal block or double-quoted (bodyStyle) is kept as the
// string it is and written out only by WriteTo. yaml.v3 builds the whole
// item in memory, growing its buffer as it goes (some five times the
// item's size allocated for a body of tens of megabytes), and reading it
// back to check it parses a second copy of the body: a recorder writing an
// item to its spool holds the body once instead.
type Item struct {
	parts []itemPart
	size  int64
}

// itemPart is bytes of an item as they are, or a body written in a style
// (its lines indented by indent spaces when a literal block).
type itemPart struct {
	b      []byte
	body   string
	style  style
	indent int
}

// Len is the item's size in bytes.
func (it *Item) Len() int64 { return it.size }

// Bytes is the item whole (MarshalItem's bytes).
func (it *Item) Bytes() []byte {
	if len(it.parts) == 1 && it.parts[0].b != nil {
		return it.parts[0].b
	}
	var b bytes.Buffer
	b.Grow(int(it.size))
	_, _ = it.WriteTo(&b)
	return b.Bytes()
}

// WriteTo writes the item to w.
func (it *Item) WriteTo(w io.Writer) (int64, error) {
	if len(it.parts) == 1 && it.parts[0].b != nil {
		n, err := w.Write(it.parts[0].b)
		return int64(n), err
	}
	cw := &countWriter{w: w}
	bw := bufio.NewWriterSize(cw, 256<<10)
	for _, p := range it.parts {
		if p.b != nil {
			_, _ = bw.Write(p.b)
			continue
		}
		writeBody(bw, p)
	}
	err := bw.Flush()
	return cw.n, err
}

// countWriter counts the bytes written to w.
type countWriter struct {
	w io.Writer
	n int64
}

func (c *countWriter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	c.n += int64(n)
	return n, err
}

// bytesItem is an item of bytes.
func bytesItem(b []byte) *Item {
	return &Item{parts: []itemPart{{b: b}}, size: int64(len(b))}
}

// longBody is the size from which EncodeItem writes a body by itself
// (bodyStyle) rather than through yaml.v3: shorter ones cost little either
// way.
const longBody = 64 << 10

// Tokens stand for the long bodies in what yaml.v3 encodes; each must be
// found exactly once in its output, or the item is encoded whole.
const (
	requestToken  = "atmkit-long-request-body-3f9a1c"
	responseToken = "atmkit-long-response-body-3f9a1c"
)

// EncodeItem encodes i as MarshalItem does, to the same bytes, holding a
// long body that yaml.v3 writes as a literal block or double-quoted
// (bodyStyle: an XML or JSON answer with line breaks, as deployments send
// them, CRLF ones included) by reference rather than encoded: the rest of
// the interaction goes through yaml.v3 with a token in the body's place,
// is checked to read back, and the body is written where the token is, as
// yaml.v3 writes it.
func EncodeItem(i *cassette.Interaction) (*Item, error) {
	if it, ok := encodeLong(i); ok {
		return it, nil
	}
	b, err := marshalItem(i)
	if err != nil {
		return nil, err
	}
	return bytesItem(b), nil
}

// encodeLong is EncodeItem for an interaction with a long body of a style
// it writes; ok is false when it has none, or when the tokens cannot stand
// for them.
func encodeLong(i *cassette.Interaction) (*Item, bool) {
	c := *i
	var bodies []itemPart // in the order yaml.v3 writes them: request, then response
	var tokens []string
	for _, b := range []struct {
		body *string
		tok  string
	}{{&c.Request.Body, requestToken}, {&c.Response.Body, responseToken}} {
		if len(*b.body) < longBody {
			continue
		}
		if st := bodyStyle(*b.body); st != styleNone {
			bodies, tokens = append(bodies, itemPart{body: *b.body, style: st}), append(tokens, b.tok)
			*b.body = b.tok
		}
	}
	if len(bodies) == 0 {
		return nil, false
	}
	rest, err := marshalOne(file{Version: cassette.CassetteFormatV2, Interactions: []*cassette.Interaction{&c}})
	if err != nil || !readsBack(rest, &c) {
		return nil, false
	}
	it := &Item{}
	for k, tok := range tokens {
		at := bytes.Index(rest, []byte(" "+tok+"\n"))
		if at < 0 || bytes.Count(rest, []byte(tok)) != 1 {
			return nil, false
		}
		lineStart := bytes.LastIndexByte(rest[:at], '\n') + 1
		key := rest[lineStart:at]
		keyIndent := len(key) - len(bytes.TrimLeft(key, " "))
		if string(key[keyIndent:]) != "body:" {
			return nil, false
		}
		head := rest[:at+1]
		p := bodies[k]
		p.indent = keyIndent + 4
		var size counter
		writeBody(&size, p)
		it.parts = append(it.parts, itemPart{b: head}, p)
		it.size += int64(len(head)) + size.n
		rest = rest[at+1+len(tok)+1:]
	}
	it.parts = append(it.parts, itemPart{b: rest})
	it.size += int64(len(rest))
	return it, true
}

// style is a way yaml.v3 writes a body that EncodeItem writes too.
type style int

const (
	styleNone         style = iota // none of these: yaml.v3 writes it
	styleLiteral                   // a literal block, no indentation indicator, chomping "-" or none
	styleDoubleQuoted              // double-quoted, on one line
	styleSingleQuoted              // single-quoted, on one line
	stylePlain                     // plain, on one line
)

// bodyStyle is how yaml.v3 (v3.0.1) writes s, a mapping's value, when it
// is one of the styles EncodeItem writes, all of which read back as s;
// styleNone for any other (a string not in UTF-8 is written as !!binary,
// for one).
//
// A string with a line feed is asked for as a literal block, which
// yaml.v3's emitter (yaml_emitter_analyze_scalar) refuses when s ends with
// a space, has a space before a line break, or holds a character it does
// not write as it is (a carriage return, a control character, a byte order
// mark, one beyond U+FFFF; a tab it does): s is double-quoted then, on one
// line (no width is set). A literal block is left to yaml.v3 when it
// begins with a space, a tab or a line break (an indentation indicator, or
// a block yaml.v3 cannot read back: see quoteItem), holds a line break
// other than a line feed (written as it is), or ends with two line breaks
// (the chomping "+").
//
// A string with no line feed is asked for plain unless it would read as
// another type (left to yaml.v3 when its first character may make it one:
// a sign, a digit, a dot, or a letter of true, null, yes...); the emitter
// double-quotes it when it holds a tab or a character it does not write as
// it is, single-quotes it when it begins or ends with a space or holds an
// indicator (a first character such as '{' or '#', ": ", " #", a final
// ':'), and leaves it plain otherwise. One with a line or paragraph
// separator and nothing to double-quote is left to yaml.v3.
//
// A string beginning with a byte order mark is left to yaml.v3: its
// is_bom looks at the string's start, whatever the position, so every
// character is escaped then. TestEncodeItemAsYAML and FuzzLiteralBody hold
// bodyStyle to yaml.v3's output.
func bodyStyle(s string) style {
	if s == "" || !utf8.ValidString(s) || strings.HasPrefix(s, "\ufeff") {
		return styleNone
	}
	var special, tab, lf, otherBreak, spaceBreak, breakSpace, prevSpace, prevBreak bool
	for j := 0; j < len(s); {
		r, w := rune(s[j]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(s[j:])
		}
		j += w
		if r >= 0x20 && r <= 0x7e && r != ' ' { // most of a body
			prevSpace, prevBreak = false, false
			continue
		}
		isBreak := r == '\n' || r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029
		switch {
		case r == ' ':
			breakSpace = breakSpace || prevBreak
		case r == '\n':
			lf = true
		case r == '\t':
			tab = true
		case r < 0x20 || r == 0x7f || !printableRune(r):
			special = true // \r and NEL included
		}
		if isBreak {
			spaceBreak = spaceBreak || prevSpace
			otherBreak = otherBreak || r != '\n'
		}
		prevSpace, prevBreak = r == ' ', isBreak
	}
	first, last := s[0], s[len(s)-1]
	if lf {
		switch {
		case special || spaceBreak || last == ' ':
			return styleDoubleQuoted
		case otherBreak || first == ' ' || first == '\t' || first == '\n' || strings.HasSuffix(s, "\n\n"):
			return styleNone
		}
		return styleLiteral
	}
	switch {
	case strings.IndexByte("+-.0123456789yYnNtTfFoO~", first) >= 0:
		return styleNone // resolve might read it as another type
	case special || tab || spaceBreak || breakSpace:
		return styleDoubleQuoted
	case otherBreak:
		return styleNone
	case first == ' ' || last == ' ' || blockIndicators(s):
		return styleSingleQuoted
	}
	return stylePlain
}

// blockIndicators reports whether yaml.v3's emitter finds indicators in
// s (with no line break, tab or control character) that keep it from being
// plain in a block: "---" or "..." at its start, a first character that
// is an indicator (or '?', ':' followed by a space or the end), ": " or a
// final ':', and " #".
func blockIndicators(s string) bool {
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		return true
	}
	if strings.IndexByte("#,[]{}&*!|>'\"%@`", s[0]) >= 0 {
		return true
	}
	if (s[0] == '?' || s[0] == ':' || s[0] == '-') && (len(s) == 1 || s[1] == ' ') {
		return true
	}
	return strings.Contains(s, ": ") || s[len(s)-1] == ':' || strings.Contains(s, " #")
}

// printableRune reports whether yaml.v3's emitter writes r, beyond ASCII,
// as it is (its is_printable): U+00A0 to U+D7FF and U+E000 to U+FFFD but
// the byte order mark.
func printableRune(r rune) bool {
	return r >= 0xa0 && r <= 0xd7ff || r >= 0xe000 && r <= 0xfffd && r != 0xfeff
}

// textWriter is what writeBody writes to: a bufio.Writer, or a counter.
type textWriter interface {
	WriteString(s string) (int, error)
	WriteByte(c byte) error
}

// counter counts what is written to it.
type counter struct{ n int64 }

func (c *counter) WriteString(s string) (int, error) { c.n += int64(len(s)); return len(s), nil }
func (c *counter) WriteByte(byte) error              { c.n++; return nil }

// writeBody writes p's body in its style, as yaml.v3 writes it after
// "body:" and its space, up to the line break that ends its last line.
func writeBody(w textWriter, p itemPart) {
	switch p.style {
	case styleDoubleQuoted:
		writeDoubleQuoted(w, p.body)
	case styleSingleQuoted:
		writeSingleQuoted(w, p.body)
	case stylePlain:
		_, _ = w.WriteString(p.body)
	default:
		writeLiteral(w, p.body, p.indent)
	}
	_ = w.WriteByte('\n')
}

// writeSingleQuoted writes s (styleSingleQuoted) as yaml.v3 writes it
// single-quoted: its quotes doubled.
func writeSingleQuoted(w textWriter, s string) {
	_ = w.WriteByte('\'')
	for {
		j := strings.IndexByte(s, '\'')
		if j < 0 {
			break
		}
		_, _ = w.WriteString(s[:j+1])
		_ = w.WriteByte('\'')
		s = s[j+1:]
	}
	_, _ = w.WriteString(s)
	_ = w.WriteByte('\'')
}

// writeLiteral writes s (styleLiteral) as yaml.v3 writes a literal block:
// its header, and its lines indented by indent spaces (an empty line by
// none), the last without its line break.
func writeLiteral(w textWriter, s string, indent int) {
	if strings.HasSuffix(s, "\n") {
		_, _ = w.WriteString("|")
		s = s[:len(s)-1] // the break of the last line is the block's end
	} else {
		_, _ = w.WriteString("|-")
	}
	for {
		line, rest, more := strings.Cut(s, "\n")
		_ = w.WriteByte('\n')
		if line != "" {
			for range indent {
				_ = w.WriteByte(' ')
			}
			_, _ = w.WriteString(line)
		}
		if !more {
			return
		}
		s = rest
	}
}

// writeDoubleQuoted writes s (styleDoubleQuoted) as yaml.v3 writes it
// double-quoted (yaml_emitter_write_double_quoted_scalar): the characters
// it does not write as they are, line breaks, '"' and '\\' escaped.
func writeDoubleQuoted(w textWriter, s string) {
	_ = w.WriteByte('"')
	for len(s) > 0 {
		j := 0
		for j < len(s) {
			c := s[j]
			if c >= 0x20 && c <= 0x7e && c != '"' && c != '\\' {
				j++
				continue
			}
			if c < utf8.RuneSelf {
				break
			}
			r, n := utf8.DecodeRuneInString(s[j:])
			if !printableRune(r) || r == 0x2028 || r == 0x2029 {
				break
			}
			j += n
		}
		_, _ = w.WriteString(s[:j])
		if j == len(s) {
			break
		}
		r, n := utf8.DecodeRuneInString(s[j:])
		s = s[j+n:]
		_ = w.WriteByte('\\')
		if e, ok := shortEscapes[r]; ok {
			_ = w.WriteByte(e)
			continue
		}
		digits := 8
		switch {
		case r <= 0xff:
			_ = w.WriteByte('x')
			digits = 2
		case r <= 0xffff:
			_ = w.WriteByte('u')
			digits = 4
		default:
			_ = w.WriteByte('U')
		}
		for k := (digits - 1) * 4; k >= 0; k -= 4 {
			_ = w.WriteByte("0123456789ABCDEF"[r>>uint(k)&0xf])
		}
	}
	_ = w.WriteByte('"')
}

// shortEscapes are the escapes yaml.v3 writes as one letter.
var shortEscapes = map[rune]byte{
	0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0a: 'n', 0x0b: 'v', 0x0c: 'f', 0x0d: 'r',
	0x1b: 'e', '"': '"', '\\': '\\', 0x85: 'N', 0xa0: '_', 0x2028: 'L', 0x2029: 'P',
}

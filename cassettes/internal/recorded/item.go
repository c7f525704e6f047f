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
// writes as a plain literal block (literalBody) is kept as the string it is
// and written out only by WriteTo. yaml.v3 builds the whole item in memory,
// growing its buffer as it goes (some five times the item's size allocated
// for a body of tens of megabytes), and reading it back to check it parses
// a second copy of the body: a recorder writing an item to its spool holds
// the body once instead.
type Item struct {
	parts []itemPart
	size  int64
}

// itemPart is bytes of an item as they are, or a body written as a
// literal block whose lines are indented by indent spaces.
type itemPart struct {
	b      []byte
	body   string
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
		writeLiteral(bw, p.body, p.indent)
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
// (literalBody) rather than through yaml.v3: shorter ones cost little either way.
const longBody = 64 << 10

// Tokens stand for the long bodies in what yaml.v3 encodes; each must be
// found exactly once in its output, or the item is encoded whole.
const (
	requestToken  = "atmkit-long-request-body-3f9a1c"
	responseToken = "atmkit-long-response-body-3f9a1c"
)

// EncodeItem encodes i as MarshalItem does, to the same bytes, holding a
// long body of a plain literal block (literalBody; an XML or JSON answer
// with line breaks, as deployments send them) by reference rather than
// encoded: the rest of the interaction goes through yaml.v3 with a token
// in the body's place, is checked to read back, and the block is written
// where the token is, as yaml.v3 writes it.
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

// encodeLong is EncodeItem for an interaction with a long body of a plain
// literal block; ok is false when it has none, or when the tokens cannot
// stand for them.
func encodeLong(i *cassette.Interaction) (*Item, bool) {
	c := *i
	var bodies []string // in the order yaml.v3 writes them: request, then response
	var tokens []string
	if len(i.Request.Body) >= longBody && literalBody(i.Request.Body) {
		c.Request.Body = requestToken
		bodies, tokens = append(bodies, i.Request.Body), append(tokens, requestToken)
	}
	if len(i.Response.Body) >= longBody && literalBody(i.Response.Body) {
		c.Response.Body = responseToken
		bodies, tokens = append(bodies, i.Response.Body), append(tokens, responseToken)
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
		it.parts = append(it.parts, itemPart{b: head}, itemPart{body: bodies[k], indent: keyIndent + 4})
		it.size += int64(len(head)) + literalSize(bodies[k], keyIndent+4)
		rest = rest[at+1+len(tok)+1:]
	}
	it.parts = append(it.parts, itemPart{b: rest})
	it.size += int64(len(rest))
	return it, true
}

// literalBody reports whether yaml.v3 (v3.0.1) writes s, a mapping's value,
// as a literal block with no indentation indicator and the chomping "-"
// (no final line break) or none (one), which reads back as s: a string with
// a line break (yaml.v3 chooses the literal style then), valid UTF-8 of
// the characters its emitter writes as they are (printable, tab, line feed;
// no other line break, whose writing differs), that does not begin with a
// space, a tab or a line break (an indentation indicator, or a block
// yaml.v3 cannot read back: see quoteItem), has no space before a line
// break or at its end (yaml.v3 double-quotes it then), and does not end
// with two line breaks (the chomping "+"). TestEncodeItemAsYAML and
// FuzzLiteralBody hold it to yaml.v3's output.
func literalBody(s string) bool {
	if !strings.Contains(s, "\n") {
		return false
	}
	switch s[0] {
	case ' ', '\t', '\n':
		return false
	}
	if strings.HasSuffix(s, " ") || strings.HasSuffix(s, "\n\n") || strings.Contains(s, " \n") {
		return false
	}
	for j := 0; j < len(s); {
		c := s[j]
		if c < utf8.RuneSelf {
			if c != '\n' && c != '\t' && (c < 0x20 || c > 0x7e) {
				return false
			}
			j++
			continue
		}
		r, w := utf8.DecodeRuneInString(s[j:])
		if r == utf8.RuneError && w == 1 || !printableRune(r) {
			return false
		}
		j += w
	}
	return true
}

// printableRune reports whether yaml.v3's emitter writes r, beyond ASCII,
// as it is in a literal block (its is_printable, and no line break): U+00A0
// to U+D7FF and U+E000 to U+FFFD but the byte order mark, the line and
// paragraph separators aside.
func printableRune(r rune) bool {
	switch {
	case r == 0x2028 || r == 0x2029 || r == 0xfeff:
		return false
	case r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd:
		return true
	}
	return false
}

// literalHeader is the block's header yaml.v3 writes for s (literalBody).
func literalHeader(s string) string {
	if strings.HasSuffix(s, "\n") {
		return "|\n"
	}
	return "|-\n"
}

// writeLiteral writes s (literalBody) as yaml.v3 writes it as a literal
// block, its lines indented by indent spaces (an empty line by none), and
// the line break that ends the block's last line.
func writeLiteral(w *bufio.Writer, s string, indent int) {
	_, _ = w.WriteString(literalHeader(s))
	for len(s) > 0 {
		line, rest, _ := strings.Cut(s, "\n")
		if line != "" {
			for range indent {
				_ = w.WriteByte(' ')
			}
			_, _ = w.WriteString(line)
		}
		_ = w.WriteByte('\n')
		s = rest
	}
}

// literalSize is the size of what writeLiteral writes.
func literalSize(s string, indent int) int64 {
	n := int64(len(literalHeader(s)))
	for len(s) > 0 {
		line, rest, _ := strings.Cut(s, "\n")
		if line != "" {
			n += int64(indent + len(line))
		}
		n++
		s = rest
	}
	return n
}

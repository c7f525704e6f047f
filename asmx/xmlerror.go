package asmx

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf16"
	"unicode/utf8"
)

// xmlError is an XmlException: its message and, if it has one, the
// position .NET appends to it.
type xmlError struct {
	msg       string
	line, col int
	hasPos    bool
	inner     *Exception
}

func (e *xmlError) message() string {
	if !e.hasPos {
		return e.msg
	}
	return e.msg + " Line " + strconv.Itoa(e.line) + ", position " + strconv.Itoa(e.col) + "."
}

func (e *xmlError) exception() *Exception {
	return &Exception{Type: typeXML, Message: e.message(), Inner: e.inner, Stack: framesXMLReader}
}

// position returns the 1-based line and column of byte offset off in text,
// as .NET's XML reader counts them: lines end at \n, \r\n or \r; columns
// count UTF-16 code units.
func position(text []byte, off int) (line, col int) {
	if off > len(text) {
		off = len(text)
	}
	line, start := 1, 0
	for i := 0; i < off; i++ {
		switch text[i] {
		case '\n':
			line, start = line+1, i+1
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				continue
			}
			line, start = line+1, i+1
		}
	}
	col = 1
	for _, r := range string(text[start:off]) {
		col += utf16.RuneLen(r)
	}
	return line, col
}

// xmlErrorOf turns an encoding/xml error into the XmlException .NET's
// reader throws at the same point, as far as atmkit knows its texts.
func xmlErrorOf(text []byte, err error, off int) *xmlError {
	msg := err.Error()
	if se, ok := err.(*xml.SyntaxError); ok {
		msg = se.Msg
	}
	switch {
	case strings.Contains(msg, "unexpected EOF"):
		line, col := position(text, len(text))
		return &xmlError{msg: "Unexpected end of file has occurred.", line: line, col: col, hasPos: true}
	}
	if e := misplacedDeclError(text, off); e != nil {
		// encoding/xml reads an XML declaration's content wherever it is
		// (version="1.1": "unsupported version"); .NET refuses one that is
		// not first before it reads its content.
		return e
	}
	line, col := position(text, off)
	return &xmlError{msg: upperFirst(msg) + ".", line: line, col: col, hasPos: true}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// leadingError reports the XmlException of a document that has no root
// element, or text before it, as .NET words them.
func leadingError(text []byte) *xmlError {
	i := 0
	for i < len(text) {
		switch {
		case isXMLSpace(text[i]):
			i++
			continue
		case text[i] == '<':
			return nil
		case text[i] == 0 && i == 0: // the end of the data (see nulFirst)
			return &xmlError{msg: "Root element is missing."}
		}
		line, col := position(text, i)
		return &xmlError{msg: "Data at the root level is invalid.", line: line, col: col, hasPos: true}
	}
	return &xmlError{msg: "Root element is missing."}
}

// piTargetError is the XmlException of a processing instruction at off
// whose target is "xml" in any case (XmlTextReaderImpl.ParsePI): the XML
// declaration is only allowed as the document's first bytes, and another
// case of "xml" is no name for a processing instruction. The position is
// that of the target.
func piTargetError(text []byte, target string, off int) *xmlError {
	if !strings.EqualFold(target, "xml") || target == "xml" && off == 0 {
		return nil
	}
	msg := "Unexpected XML declaration. The XML declaration must be the first node in the document, and no white space characters are allowed to appear before it."
	if target != "xml" {
		msg = "'" + target + "' is an invalid name for processing instructions."
	}
	line, col := position(text, off+2)
	return &xmlError{msg: msg, line: line, col: col, hasPos: true}
}

// misplacedDeclError is piTargetError's XmlException for an XML
// declaration starting at off, after any white space, that is not the
// document's first bytes; nil for anything else.
func misplacedDeclError(text []byte, off int) *xmlError {
	i := off
	for i < len(text) && isXMLSpace(text[i]) {
		i++
	}
	rest := text[i:]
	if i == 0 || !bytes.HasPrefix(rest, []byte("<?xml")) || len(rest) > 5 && !isXMLSpace(rest[5]) && rest[5] != '?' {
		return nil
	}
	return piTargetError(text, "xml", i)
}

// versionError is the XmlException of an XML declaration whose version is
// not "1.0" (XmlTextReaderImpl.ParseXmlDeclaration: .NET reads XML 1.0
// only), at the position of the value.
func versionError(text []byte) *xmlError {
	const decl = "<?xml"
	if !bytes.HasPrefix(text, []byte(decl)) || len(text) == len(decl) || !isXMLSpace(text[len(decl)]) {
		return nil
	}
	i := len(decl)
	for i < len(text) && isXMLSpace(text[i]) {
		i++
	}
	if !bytes.HasPrefix(text[i:], []byte("version")) {
		return nil
	}
	i += len("version")
	for i < len(text) && isXMLSpace(text[i]) {
		i++
	}
	if i >= len(text) || text[i] != '=' {
		return nil
	}
	i++
	for i < len(text) && isXMLSpace(text[i]) {
		i++
	}
	if i >= len(text) || text[i] != '"' && text[i] != '\'' {
		return nil
	}
	end := bytes.IndexByte(text[i+1:], text[i])
	if end < 0 {
		return nil
	}
	value := string(text[i+1 : i+1+end])
	if value == "1.0" {
		return nil
	}
	line, col := position(text, i+1)
	return &xmlError{msg: "Version number '" + value + "' is invalid.", line: line, col: col, hasPos: true}
}

// errDTD is the XmlException of a DOCTYPE: DTDs are prohibited.
var errDTD = &xmlError{msg: "DTD is prohibited in this XML document."}

// tagNameError is the XmlException .NET's reader throws for the name of
// the start tag or processing instruction at off (text[off] is '<'), as
// XmlTextReaderImpl.ParseQName, ParseElement and ParsePI read it; nil when
// the name is good, or off starts neither. encoding/xml reads names by
// other rules (':' anywhere, no check of where a name ends) and words its
// errors its own way.
func tagNameError(text []byte, off int) *xmlError {
	if off+1 >= len(text) || text[off] != '<' {
		return nil
	}
	pos, pi := off+1, false
	switch text[off+1] {
	case '/', '!':
		return nil
	case '?': // a processing instruction's target: a name without ':'
		pos, pi = off+2, true
	}
	end, e := qnameEnd(text, pos, !pi)
	switch {
	case e != nil, end >= len(text):
		return e // at the end of the data encoding/xml's error stands
	case isXMLSpace(text[end]), !pi && (text[end] == '>' || text[end] == '/'), pi && bytes.HasPrefix(text[end:], []byte("?>")):
		// The end of the name: white space, '>' or "/" must follow
		// (white space or "?>" a target).
		return nil
	}
	return charError(text, end, badNameChar)
}

// Formats of the XmlExceptions of a character in a name.
const (
	badStartNameChar = "Name cannot begin with the '%s' character, hexadecimal value %s."
	badNameChar      = "The '%s' character, hexadecimal value %s, cannot be included in a name."
)

// qnameEnd reads the name starting at pos as XmlTextReaderImpl.ParseQName
// does (one ':' when qualified, none otherwise, each part starting with a
// start character) and returns the offset after it, or the error of its
// first bad character.
func qnameEnd(text []byte, pos int, qualified bool) (int, *xmlError) {
	colon, start := !qualified, true
	for pos < len(text) {
		r, size := utf8.DecodeRune(text[pos:])
		switch {
		case start:
			if !isNCNameStart(r) {
				return pos, charError(text, pos, badStartNameChar)
			}
			start = false
		case isNCNameChar(r):
		case r == ':':
			if colon {
				return pos, charError(text, pos, badNameChar)
			}
			colon, start = true, true
		default:
			return pos, nil
		}
		pos += size
	}
	return pos, nil
}

// charError is the XmlException format (with the character and its
// hexadecimal value, as XmlException.BuildCharExceptionArgs writes them:
// '.' for NUL, a surrogate pair as one code point) for the character at
// pos.
func charError(text []byte, pos int, format string) *xmlError {
	r, _ := utf8.DecodeRune(text[pos:])
	shown, value := string(r), fmt.Sprintf("0x%02X", r)
	switch {
	case r == 0:
		shown = "."
	case r == utf8.RuneError:
		shown, value = "\uFFFD", "0xFFFD"
	}
	line, col := position(text, pos)
	return &xmlError{msg: fmt.Sprintf(format, shown, value), line: line, col: col, hasPos: true}
}

// isNCNameStart reports whether r may begin a name part (XML 1.0 fourth
// edition, as .NET Framework's XmlCharType): a letter or '_'. Outside
// ASCII it asks encoding/xml, whose tables are that edition's (all in the
// BMP), once a character (nameStarts).
func isNCNameStart(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == '_'
	case r > 0xFFFF:
		return false
	}
	return nameStarts.has(r, func() bool { return goXMLName(string(r)) })
}

// isNCNameChar reports whether r may continue a name part: a start
// character, a digit, '.', '-', or a combining or extending character.
func isNCNameChar(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return isNCNameStart(r) || '0' <= r && r <= '9' || r == '.' || r == '-'
	case r > 0xFFFF:
		return false
	}
	return nameChars.has(r, func() bool { return goXMLName("a" + string(r)) })
}

// runeSet caches a yes or no for each BMP character, asked once: two bits
// a character (known, yes), so that a body of many names beyond ASCII
// costs encoding/xml's verdict once per distinct character.
type runeSet [0x10000 / 16]atomic.Uint32

var nameStarts, nameChars runeSet

func (s *runeSet) has(r rune, ask func() bool) bool {
	w, shift := &s[r/16], uint(r%16)*2
	if v := w.Load() >> shift; v&1 != 0 {
		return v&2 != 0
	}
	bits := uint32(1)
	if ask() {
		bits |= 2
	}
	w.Or(bits << shift)
	return bits&2 != 0
}

// goXMLName reports whether encoding/xml reads name as an element name.
func goXMLName(name string) bool {
	d := xml.NewDecoder(strings.NewReader("<" + name + "/>"))
	d.Strict = true
	_, err := d.Token()
	return err == nil
}

// markupError is the XmlException .NET's reader (XmlTextReaderImpl, as
// ASMX's v1Compat reader reads) throws in the markup or text starting at
// off, scanned as .NET scans it, where encoding/xml either reads what .NET
// refuses (attributes without white space between them, `xmlns:=`, a bad
// xml:space value, names) or words and places its error otherwise; nil
// when the scan finds nothing (encoding/xml's error, if any, stands).
// End tags that do not match and undefined entities are left to the
// callers and encoding/xml.
func markupError(text []byte, off int) *xmlError {
	if off >= len(text) {
		return nil
	}
	if text[off] != '<' {
		return textError(text, off)
	}
	rest := text[off:]
	switch {
	case bytes.HasPrefix(rest, []byte("<!--")):
		return commentError(text, off)
	case bytes.HasPrefix(rest, []byte("<!")):
		return nil
	case bytes.HasPrefix(rest, []byte("</")):
		if off+2 < len(text) {
			if r, _ := utf8.DecodeRune(text[off+2:]); !isNCNameStart(r) {
				return charError(text, off+2, badStartNameChar)
			}
		}
		return nil
	}
	if e := tagNameError(text, off); e != nil || len(rest) > 1 && rest[1] == '?' {
		return e
	}
	return attributesError(text, nameEnd(text, off+1))
}

// nameEnd is the offset after the name starting at pos.
func nameEnd(text []byte, pos int) int {
	for pos < len(text) {
		r, size := utf8.DecodeRune(text[pos:])
		if r != ':' && !isNCNameChar(r) {
			break
		}
		pos += size
	}
	return pos
}

// unexpectedToken is .NET's "'X' is an unexpected token. The expected
// token is 'Y'." (or "Expecting white space.") at pos.
func unexpectedToken(text []byte, pos int, expected string) *xmlError {
	r, _ := utf8.DecodeRune(text[pos:])
	line, col := position(text, pos)
	msg := "'" + string(r) + "' is an unexpected token. "
	if expected == "" {
		msg += "Expecting white space."
	} else {
		msg += "The expected token is " + expected + "."
	}
	return &xmlError{msg: msg, line: line, col: col, hasPos: true}
}

// attributesError scans a start tag's attributes from pos (after its
// name) to its end, as XmlTextReaderImpl.ParseAttributes does.
func attributesError(text []byte, pos int) *xmlError {
	for {
		ws := pos
		for pos < len(text) && isXMLSpace(text[pos]) {
			pos++
		}
		if pos >= len(text) {
			return nil
		}
		switch text[pos] {
		case '>':
			return nil
		case '/':
			if pos+1 < len(text) && text[pos+1] != '>' {
				return unexpectedToken(text, pos, "'>'")
			}
			return nil
		}
		if pos == ws {
			return unexpectedToken(text, pos, "")
		}
		nameAt := pos
		end, e := qnameEnd(text, pos, true)
		if e != nil {
			return e
		}
		pos = end
		name := string(text[nameAt:pos])
		for pos < len(text) && isXMLSpace(text[pos]) {
			pos++
		}
		if pos >= len(text) {
			return nil
		}
		if text[pos] != '=' {
			return unexpectedToken(text, pos, "'='")
		}
		pos++
		for pos < len(text) && isXMLSpace(text[pos]) {
			pos++
		}
		if pos >= len(text) {
			return nil
		}
		q := text[pos]
		if q != '"' && q != '\'' {
			return unexpectedToken(text, pos, `'"' or '''`)
		}
		pos++
		valueAt := pos
		for pos < len(text) && text[pos] != q {
			switch c := text[pos]; {
			case c == '<':
				return charError(text, pos, "'%s', hexadecimal value %s, is an invalid attribute character.")
			case c == '&':
				if e := referenceError(text, pos); e != nil {
					return e
				}
			case c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != 0:
				return charError(text, pos, "'%s', hexadecimal value %s, is an invalid character.")
			}
			pos++
		}
		if pos >= len(text) {
			return nil
		}
		if name == "xml:space" {
			if v := string(text[valueAt:pos]); v != "default" && v != "preserve" {
				line, col := position(text, nameAt)
				return &xmlError{msg: "'" + v + "' is an invalid xml:space value.", line: line, col: col, hasPos: true}
			}
		}
		pos++
	}
}

// referenceError is the error of the reference at pos ('&'): a character
// reference to a character XML does not allow, or a name not ended by ';'
// (an undefined entity is no error here: v1Compat reads it as an entity
// reference node).
func referenceError(text []byte, pos int) *xmlError {
	i := pos + 1
	if i < len(text) && text[i] == '#' {
		i++
		hex := i < len(text) && text[i] == 'x'
		if hex {
			i++
		}
		digits := i
		v := 0
		for i < len(text) && (text[i] >= '0' && text[i] <= '9' || hex && strings.IndexByte("abcdefABCDEF", text[i]) >= 0) {
			d, _ := strconv.ParseUint(string(text[i]), 16, 8)
			if hex {
				v = v*16 + int(d)
			} else {
				v = v*10 + int(text[i]-'0')
			}
			if v > 0x10FFFF {
				return nil // encoding/xml's error stands
			}
			i++
		}
		if i < len(text) && text[i] == ';' && i > digits && (v < 0x20 && v != '\t' && v != '\n' && v != '\r' || v == 0xFFFE || v == 0xFFFF) {
			shown, value := string(rune(v)), fmt.Sprintf("0x%02X", v)
			if v == 0 {
				shown = "."
			}
			line, col := position(text, digits)
			return &xmlError{msg: "'" + shown + "', hexadecimal value " + value + ", is an invalid character.", line: line, col: col, hasPos: true}
		}
		return nil
	}
	end := nameEnd(text, i)
	if end < len(text) && text[end] != ';' && end > i {
		line, col := position(text, i)
		return &xmlError{msg: "An error occurred while parsing EntityName.", line: line, col: col, hasPos: true}
	}
	return nil
}

// textError scans the text at off up to the next '<': a character XML
// does not allow, "]]>", or a bad reference.
func textError(text []byte, off int) *xmlError {
	for pos := off; pos < len(text) && text[pos] != '<'; pos++ {
		switch c := text[pos]; {
		case c == ']' && bytes.HasPrefix(text[pos:], []byte("]]>")):
			line, col := position(text, pos)
			return &xmlError{msg: "']]>' is not allowed in character data.", line: line, col: col, hasPos: true}
		case c == '&':
			if e := referenceError(text, pos); e != nil {
				return e
			}
		case c == 0 && (pos == off || pos == len(text)-1):
			return nil // the end of the data, for .NET's v1Compat reader
		case c < 0x20 && c != '\t' && c != '\n' && c != '\r':
			return charError(text, pos, "'%s', hexadecimal value %s, is an invalid character.")
		case c == 0xEF && (bytes.HasPrefix(text[pos:], []byte("\uFFFE")) || bytes.HasPrefix(text[pos:], []byte("\uFFFF"))):
			return charError(text, pos, "'%s', hexadecimal value %s, is an invalid character.")
		}
	}
	return nil
}

// commentError is the error of the comment at off: "--" inside it, or no
// end.
func commentError(text []byte, off int) *xmlError {
	at := bytes.Index(text[off+4:], []byte("--"))
	if at < 0 || off+4+at+2 >= len(text) {
		line, col := position(text, len(text))
		return &xmlError{msg: "Unexpected end of file while parsing Comment has occurred.", line: line, col: col, hasPos: true}
	}
	if at += off + 4; text[at+2] != '>' {
		line, col := position(text, at)
		return &xmlError{msg: "An XML comment cannot contain '--', and '-' cannot be the last character.", line: line, col: col, hasPos: true}
	}
	return nil
}

// mismatchError is .NET's error for an end tag that does not match the
// open element (encoding/xml's "element <a> closed by </b>"): "The 'a'
// start tag on line L position P does not match the end tag of 'b'.", at
// the end tag's name; names as written. starts are the offsets of the
// open elements' start tags; off is the end tag's.
func mismatchError(text []byte, err error, starts []int, off int) *xmlError {
	if !strings.Contains(err.Error(), " closed by </") || len(starts) == 0 || !bytes.HasPrefix(text[off:], []byte("</")) {
		return nil
	}
	start := starts[len(starts)-1]
	startName := string(text[start+1 : nameEnd(text, start+1)])
	endName := string(text[off+2 : nameEnd(text, off+2)])
	sl, sc := position(text, start+1)
	line, col := position(text, off+2)
	return &xmlError{msg: fmt.Sprintf("The '%s' start tag on line %d position %d does not match the end tag of '%s'.", startName, sl, sc, endName), line: line, col: col, hasPos: true}
}

// dtdLocationError is .NET's error for a DOCTYPE at off inside the root
// element (a DTD before it is prohibited: errDTD).
func dtdLocationError(text []byte, off int) *xmlError {
	line, col := position(text, off+2)
	return &xmlError{msg: "Unexpected DTD declaration.", line: line, col: col, hasPos: true}
}

// undefinedEntities maps the names of the entity references in text
// other than XML's five to "" (nil when there are none).
func undefinedEntities(text []byte) map[string]string {
	var ents map[string]string
	for i := bytes.IndexByte(text, '&'); i >= 0; {
		end := nameEnd(text, i+1)
		if end > i+1 && end < len(text) && text[end] == ';' {
			switch name := string(text[i+1 : end]); name {
			case "amp", "lt", "gt", "quot", "apos":
			default:
				if ents == nil {
					ents = map[string]string{}
				}
				ents[name] = ""
			}
		}
		next := bytes.IndexByte(text[i+1:], '&')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return ents
}

// nulFirst reports whether the node at off starts with a NUL.
func nulFirst(text []byte, off int) bool {
	return off < len(text) && text[off] == 0
}

package asmx

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
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
// the name is good, or off starts neither. encoding/xml reads names by other rules (':' anywhere, no
// check of where a name ends) and words its errors its own way.
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
	colon, start := false, true
	for pos < len(text) {
		r, size := utf8.DecodeRune(text[pos:])
		switch {
		case start:
			if !isNCNameStart(r) {
				return charError(text, pos, "Name cannot begin with the '%s' character, hexadecimal value %s.")
			}
			start = false
		case isNCNameChar(r):
		case r == ':':
			if colon || pi {
				return charError(text, pos, "The '%s' character, hexadecimal value %s, cannot be included in a name.")
			}
			colon, start = true, true
		default:
			// The end of the name: white space, '>' or "/" must follow
			// (white space or "?>" a target).
			if isXMLSpace(text[pos]) || !pi && (text[pos] == '>' || text[pos] == '/') || pi && bytes.HasPrefix(text[pos:], []byte("?>")) {
				return nil
			}
			return charError(text, pos, "The '%s' character, hexadecimal value %s, cannot be included in a name.")
		}
		pos += size
	}
	return nil // the end of the data: encoding/xml's error stands
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
// ASCII it asks encoding/xml, whose tables are that edition's.
func isNCNameStart(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || r == '_'
	case r == utf8.RuneError:
		return false
	}
	return goXMLName(string(r))
}

// isNCNameChar reports whether r may continue a name part: a start
// character, a digit, '.', '-', or a combining or extending character.
func isNCNameChar(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return isNCNameStart(r) || '0' <= r && r <= '9' || r == '.' || r == '-'
	case r == utf8.RuneError:
		return false
	}
	return goXMLName("a" + string(r))
}

// goXMLName reports whether encoding/xml reads name as an element name.
func goXMLName(name string) bool {
	d := xml.NewDecoder(strings.NewReader("<" + name + "/>"))
	d.Strict = true
	_, err := d.Token()
	return err == nil
}

// textCharError is the XmlException .NET's reader throws for the first
// character XML does not allow (a control other than tab, line feed and
// carriage return; U+FFFE, U+FFFF) in the text run at off, before any '&'
// or '<' ends what is read as plain text: "'X', hexadecimal value 0xHH,
// is an invalid character." (XmlTextReaderImpl.ParseText). NUL is left to
// the readers (.NET ends the data at some). nil when there is none.
func textCharError(text []byte, off int) *xmlError {
	for pos := off; pos < len(text); {
		r, size := utf8.DecodeRune(text[pos:])
		switch {
		case r == '<' || r == '&' || r == 0:
			return nil
		case r < 0x20 && r != '\t' && r != '\n' && r != '\r', r == 0xFFFE, r == 0xFFFF:
			return charError(text, pos, "'%s', hexadecimal value %s, is an invalid character.")
		}
		pos += size
	}
	return nil
}

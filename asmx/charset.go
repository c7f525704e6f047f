package asmx

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"

	"github.com/atmkit/atmkit/internal/wire"
)

// A SOAP request's bytes become text as ASMX's SoapServerProtocol reads
// them (RequestResponseUtils.GetEncoding2, then an XmlTextReader):
//
//   - a charset in the content type names the encoding; for a text/* type
//     (text/xml) without a charset, or with one .NET does not know, it is
//     US-ASCII (RFC 3023): every byte above 0x7F reads as '?';
//   - a byte order mark overrides it (the StreamReader detects it);
//   - the XML declaration's encoding is then ignored;
//   - for an application/* type (application/soap+xml) without a known
//     charset the XML reader detects the encoding itself: a byte order
//     mark, UTF-16 or UTF-32 by the first bytes, else the declaration's
//     encoding, else UTF-8, strictly (invalid bytes are an XML error).
//
// Decoding with a named encoding never fails: bytes that do not decode
// become U+FFFD, as .NET's decoders replace them.

// mediaBase is the content type's media type, before any parameter.
func mediaBase(ct string) string {
	base, _, _ := strings.Cut(ct, ";")
	return base
}

// matchesBase reports whether ct's media type is want, ignoring case, as
// ASMX's ContentType.MatchesBase does (no trimming).
func matchesBase(ct, want string) bool { return strings.EqualFold(mediaBase(ct), want) }

// isApplication reports whether ct's type is application/*.
func isApplication(ct string) bool {
	t, _, _ := strings.Cut(mediaBase(ct), "/")
	return strings.EqualFold(t, "application")
}

// isSOAPContentType reports whether ct is text/xml or application/soap+xml.
func isSOAPContentType(ct string) bool {
	return matchesBase(ct, "text/xml") || matchesBase(ct, "application/soap+xml")
}

// contentTypeParam returns a content type parameter as ASMX's
// ContentType.GetParameter reads it: the first parameter whose name starts
// with name (ignoring case), its value trimmed of spaces, tabs and quotes.
func contentTypeParam(ct, name string) (string, bool) {
	i := strings.IndexByte(ct, ';')
	if i < 0 {
		return "", false
	}
	rest := ct[i+1:]
	for {
		p, next, more := rest, "", false
		if j := strings.IndexByte(rest, ';'); j >= 0 {
			p, next, more = rest[:j], rest[j+1:], true
		}
		for len(p) > 0 && isXMLSpace(p[0]) { // strings.TrimLeft(p, " \t\r\n"), without its set
			p = p[1:]
		}
		if len(p) >= len(name) && strings.EqualFold(p[:len(name)], name) {
			if eq := strings.IndexByte(p[len(name):], '='); eq >= 0 {
				return trimParamValue(p[len(name)+eq+1:]), true
			}
		}
		if !more {
			return "", false
		}
		rest = next
	}
}

// trimParamValue is strings.Trim(v, " '\"\t"), without building the set
// of bytes each call: a parameter's value without its quotes.
func trimParamValue(v string) string {
	cut := func(c byte) bool { return c == ' ' || c == '\'' || c == '"' || c == '\t' }
	for len(v) > 0 && cut(v[0]) {
		v = v[1:]
	}
	for len(v) > 0 && cut(v[len(v)-1]) {
		v = v[:len(v)-1]
	}
	return v
}

// charset is a text encoding .NET knows by name.
type charset struct {
	name  string            // its name, lower case ("utf-16le")
	enc   encoding.Encoding // nil for US-ASCII and UTF-8
	ascii bool              // US-ASCII: bytes above 0x7F read as '?'
	// compatible: a byte below 0x80 is that ASCII character, so a body of
	// ASCII bytes reads the same in it (no decoding needed).
	compatible bool
	unicode    bool // UTF-16 or UTF-32
}

var (
	charsetUTF8    = charset{name: "utf-8", compatible: true}
	charsetASCII   = charset{name: "us-ascii", ascii: true, compatible: true}
	charsetUTF16LE = charset{name: "utf-16le", enc: unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), unicode: true}
	charsetUTF16BE = charset{name: "utf-16be", enc: unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM), unicode: true}
	charsetUTF32LE = charset{name: "utf-32le", enc: utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM), unicode: true}
	charsetUTF32BE = charset{name: "utf-32be", enc: utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM), unicode: true}
)

// lookupCharset finds an encoding by the names Encoding.GetEncoding knows.
func lookupCharset(name string) (charset, bool) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "utf-8", "utf8", "unicode-1-1-utf-8", "unicode-2-0-utf-8", "x-unicode20utf8":
		return charsetUTF8, true
	case "us-ascii", "ascii", "us", "ansi_x3.4-1968", "ansi_x3.4-1986", "cp367", "csascii", "ibm367",
		"iso-ir-6", "iso646-us", "iso_646.irv:1991":
		return charsetASCII, true
	case "utf-16", "utf-16le", "unicode", "ucs-2", "iso-10646-ucs-2", "unicode-1-1":
		return charsetUTF16LE, true
	case "utf-16be", "unicodefffe":
		return charsetUTF16BE, true
	case "utf-32", "utf-32le":
		return charsetUTF32LE, true
	case "utf-32be":
		return charsetUTF32BE, true
	}
	enc, err := ianaindex.IANA.Encoding(name)
	if err != nil || enc == nil {
		return charset{}, false
	}
	n, _ := ianaindex.IANA.Name(enc)
	n = strings.ToLower(n)
	compatible := strings.HasPrefix(n, "iso-8859-") || strings.HasPrefix(n, "windows-125") || strings.HasPrefix(n, "koi8")
	display := n
	if m, err := ianaindex.MIME.Name(enc); err == nil && m != "" {
		display = strings.ToLower(m)
	}
	return charset{name: display, enc: enc, compatible: compatible}, true
}

// bomCharset detects a byte order mark as .NET's StreamReader does and
// returns the encoding and the mark's length.
func bomCharset(b []byte) (charset, int, bool) {
	switch {
	case bytes.HasPrefix(b, []byte{0xEF, 0xBB, 0xBF}):
		return charsetUTF8, 3, true
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE, 0, 0}):
		return charsetUTF32LE, 4, true
	case bytes.HasPrefix(b, []byte{0xFF, 0xFE}):
		return charsetUTF16LE, 2, true
	case bytes.HasPrefix(b, []byte{0xFE, 0xFF}):
		return charsetUTF16BE, 2, true
	case bytes.HasPrefix(b, []byte{0, 0, 0xFE, 0xFF}):
		return charsetUTF32BE, 4, true
	}
	return charset{}, 0, false
}

// decode turns b into UTF-8 text in cs, replacing what does not decode.
func (cs charset) decode(b []byte) []byte {
	switch {
	case cs.ascii:
		if isASCII(b) {
			return b
		}
		out := make([]byte, len(b))
		for i, c := range b {
			if c >= 0x80 {
				c = '?'
			}
			out[i] = c
		}
		return out
	case cs.enc == nil: // UTF-8
		if utf8.Valid(b) {
			return b
		}
		// One U+FFFD an invalid sequence, as .NET's UTF8Encoding
		// replaces them, not one a run of them.
		return []byte(wire.DecodeUTF8(string(b)))
	case cs.compatible && isASCII(b):
		return b
	}
	if cm, ok := cs.enc.(*charmap.Charmap); ok {
		return decodeSingleByte(cm, b)
	}
	out, err := cs.enc.NewDecoder().Bytes(b)
	if err != nil { // x/text decoders replace rather than fail; be safe
		return bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	return out
}

// decodeSingleByte decodes b in a single-byte charset as .NET's code
// pages do: a byte from 0x80 to 0x9F the charset leaves undefined (every
// one in ISO-8859-2 to -16, a few in windows-125x) is the C1 control of
// the same number, where x/text's tables give U+FFFD (Mono and .NET both
// read ISO-8859-15's 0x92 as U+0092).
func decodeSingleByte(cm *charmap.Charmap, b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/2)
	for _, c := range b {
		r := cm.DecodeByte(c)
		if r == utf8.RuneError && c >= 0x80 && c <= 0x9F {
			r = rune(c)
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// requestText is a SOAP body as text, ready for the XML readers.
type requestText struct {
	text []byte
	// from names the encoding the text was decoded from; empty when the
	// text is the body's own bytes, read as UTF-8.
	from string
	// strict is true when the text is the body's own UTF-8 bytes and
	// invalid UTF-8 is an XML error (the XML reader detected UTF-8); false
	// when a decoder produced the text (invalid bytes already replaced).
	strict bool
	// err is an XML error met while choosing the encoding (an unknown or
	// impossible declared encoding).
	err *xmlError
	// switchedFrom is the encoding detected before the declaration named
	// another, which the text is in after it; zero when nothing switched.
	switchedFrom charset
}

// soapText decodes a SOAP body as ASMX reads a request of content type ct.
func soapText(ct string, body []byte) requestText {
	cs, named := charset{}, false
	if name, ok := contentTypeParam(ct, "charset"); ok && name != "" {
		cs, named = lookupCharset(name)
	}
	if !named && !isApplication(ct) {
		cs, named = charsetASCII, true // text/*: US-ASCII by default
	}
	if named {
		if bom, n, ok := bomCharset(body); ok {
			// A charset's StreamReader: a byte order mark wins over the
			// charset, and the XML reader over a TextReader never checks
			// or switches the declared encoding.
			return requestText{text: bom.decode(body[n:]), from: bom.name}
		}
		return requestText{text: cs.decode(body), from: cs.name}
	}
	return streamText(body)
}

// streamText decodes a SOAP body as .NET's XML reader reads a stream
// (XmlTextReaderImpl, when the content type names no charset): it
// detects the encoding by a byte order mark or the first bytes
// (DetectEncoding; UTF-8 when none), reads the XML declaration in it, and
// CheckEncoding and SwitchEncoding then decide on the declared name:
// utf-16, ucs-2 or iso-10646-ucs-2 need a UTF-16 detected (else "There is
// no Unicode byte order mark."), ucs-4 keeps what was detected, a name
// Encoding.GetEncoding does not know is an error, and any other encoding
// reads the bytes after the declaration's "?>" from then on, whatever
// was detected (a UTF-16 body declaring utf-8 reads as UTF-8 there, NULs
// and all, as .NET does).
func streamText(body []byte) requestText {
	det, n, detected := bomCharset(body)
	if !detected {
		det, detected = detectCharset(body)
	}
	rt := requestText{text: body[n:], strict: true} // the reader's UTF-8
	if detected && det != charsetUTF8 {
		rt = requestText{text: det.decode(body[n:]), from: det.name}
	}
	name, pos, ok := declaredEncoding(rt.text)
	if !ok {
		return rt
	}
	switch strings.ToLower(name) {
	case "ucs-2", "utf-16", "iso-10646-ucs-2":
		if det != charsetUTF16LE && det != charsetUTF16BE {
			rt.err = &xmlError{msg: "There is no Unicode byte order mark. Cannot switch to Unicode."}
		}
		return rt
	case "ucs-4":
		if !detected {
			// The reader's own encoding, Encoding.UTF8, which replaces
			// what does not decode rather than fail.
			return requestText{text: charsetUTF8.decode(rt.text), from: charsetUTF8.name}
		}
		return rt
	}
	decl, known := lookupCharset(name)
	switch {
	case !known:
		rt.err = unknownEncodingError(name, pos)
		return rt
	case decl == det, decl == charsetUTF8 && !detected:
		return rt // the same decoder: nothing switches
	}
	end := bytes.Index(rt.text, []byte("?>")) + 2
	rest := body[min(n+encodedLen(det, rt.text[:end]), len(body)):]
	head := rt.text[:end:end]
	if decl == charsetUTF8 {
		return requestText{text: append(head, rest...), strict: true, switchedFrom: det}
	}
	return requestText{text: append(head, decl.decode(rest)...), from: decl.name, switchedFrom: det}
}

// detectCharset is the encoding .NET's XML reader detects from a body's
// first bytes when there is no byte order mark: UTF-16 or UTF-32 by the
// NULs around a first '<'.
func detectCharset(body []byte) (charset, bool) {
	switch {
	case bytes.HasPrefix(body, []byte{0, 0, 0, '<'}):
		return charsetUTF32BE, true
	case bytes.HasPrefix(body, []byte{'<', 0, 0, 0}):
		return charsetUTF32LE, true
	case bytes.HasPrefix(body, []byte{0, '<'}):
		return charsetUTF16BE, true
	case bytes.HasPrefix(body, []byte{'<', 0}):
		return charsetUTF16LE, true
	}
	return charset{}, false
}

// encodedLen is how many bytes text (an XML declaration, decoded from
// cs) took in cs.
func encodedLen(cs charset, text []byte) int {
	switch cs {
	case charsetUTF16LE, charsetUTF16BE:
		n := 0
		for _, r := range string(text) {
			n += 2 * utf16.RuneLen(r)
		}
		return n
	case charsetUTF32LE, charsetUTF32BE:
		return 4 * utf8.RuneCount(text)
	}
	return len(text)
}

// unknownEncodingError is the XmlException of an XML declaration naming
// an encoding .NET does not know, at byte pos of the first line:
// XmlTextReaderImpl.CheckEncoding wraps Encoding.GetEncoding's
// ArgumentException (.NET Framework 4.6 and later word it so).
func unknownEncodingError(name string, pos int) *xmlError {
	return &xmlError{
		msg: "System does not support '" + name + "' encoding.", line: 1, col: pos + 1, hasPos: true,
		inner: &Exception{Type: typeArgument, Stack: framesGetEncoding, Message: argumentMessage(
			"'"+name+"' is not a supported encoding name. For information on defining a custom encoding, see the documentation for the Encoding.RegisterProvider method.", "name")}}
}

// SOAPText returns the body of a SOAP request of content type ct as the
// UTF-8 text ASMX reads (see above), and the name of the encoding it was
// decoded from ("utf-16le", "iso-8859-1"); the name is empty when the text
// is the body's own bytes. Bytes that do not decode become U+FFFD (or '?'
// in US-ASCII), except in a body read as UTF-8, which is returned as it is.
//
// Unlike ASMX's reader, SOAPText reads a body in UTF-16 or UTF-32 (by its
// byte order mark or first bytes) whole in that encoding even when its XML
// declaration names another: a text to show or to find a key in, where
// the reader switches encodings after the declaration and fails.
func SOAPText(ct string, body []byte) (text []byte, charset string) {
	t := soapText(ct, body)
	if t.switchedFrom.unicode {
		_, n, _ := bomCharset(body)
		return t.switchedFrom.decode(body[n:]), t.switchedFrom.name
	}
	return t.text, t.from
}

// declaredEncoding reads the encoding of an XML declaration at the very
// start of b, and the 0-based column of its value.
func declaredEncoding(b []byte) (name string, col int, ok bool) {
	if !bytes.HasPrefix(b, []byte("<?xml")) || len(b) < 6 || !isXMLSpace(b[5]) {
		return "", 0, false
	}
	end := bytes.Index(b, []byte("?>"))
	if end < 0 {
		return "", 0, false
	}
	decl := b[:end]
	i := bytes.Index(decl, []byte("encoding"))
	if i < 0 {
		return "", 0, false
	}
	j := i + len("encoding")
	for j < len(decl) && isXMLSpace(decl[j]) {
		j++
	}
	if j >= len(decl) || decl[j] != '=' {
		return "", 0, false
	}
	j++
	for j < len(decl) && isXMLSpace(decl[j]) {
		j++
	}
	if j >= len(decl) || (decl[j] != '"' && decl[j] != '\'') {
		return "", 0, false
	}
	q := decl[j]
	k := bytes.IndexByte(decl[j+1:], q)
	if k < 0 {
		return "", 0, false
	}
	return string(decl[j+1 : j+1+k]), j + 1, true
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

package recorded

import (
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// wideEncodings are the encodings whose text is not ASCII-compatible: a
// key in a body in one of them is not found in its bytes.
var wideEncodings = map[string]encoding.Encoding{
	"utf-16le": unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM),
	"utf-16be": unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM),
	"utf-32le": utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM),
	"utf-32be": utf32.UTF32(utf32.BigEndian, utf32.IgnoreBOM),
}

// byteOrderMarks are the marks a wide body may begin with, the longest first.
var byteOrderMarks = []string{"\x00\x00\xfe\xff", "\xff\xfe\x00\x00", "\xfe\xff", "\xff\xfe"}

// wideText decodes a body in UTF-16 or UTF-32 (a SOAP request as ASMX reads
// it with content type ct: by its byte order mark, its charset or its first
// bytes; an answer alike) to UTF-8, and returns a function writing text back
// in the body's encoding, its byte order mark kept. ok is false for a body
// in UTF-8 or an ASCII-compatible encoding, whose keys are in its bytes.
func wideText(b, ct string) (text string, back func(string) string, ok bool) {
	if len(b) < 2 || !strings.ContainsRune(b, 0) && !strings.HasPrefix(b, "\xff\xfe") && !strings.HasPrefix(b, "\xfe\xff") {
		return "", nil, false // no wide text has neither a NUL byte nor a mark
	}
	t, from := asmx.SOAPText(ct, []byte(b))
	enc, ok := wideEncodings[from]
	if !ok {
		return "", nil, false
	}
	bom := ""
	for _, m := range byteOrderMarks {
		if strings.HasPrefix(b, m) {
			bom = m
			break
		}
	}
	return string(t), func(s string) string {
		out, err := enc.NewEncoder().String(s)
		if err != nil {
			// Never b, which holds what f took out: the text as
			// changed, in UTF-8 (decoded text always encodes back).
			return s
		}
		return bom + out
	}, true
}

// inText applies f to the text of body b (content type ct) when it is in
// a wide encoding (wideText), writing it back in that encoding only if f
// changed it, and then to its bytes in any case: a body that only looks
// wide keeps no key in its bytes either.
func inText(b, ct string, f func(string) string) string {
	if text, back, ok := wideText(b, ct); ok {
		if out := f(text); out != text {
			b = back(out)
		}
	}
	return f(b)
}

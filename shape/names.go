package shape

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
)

// decodeNamePattern is XmlConvert.DecodeName's escape: _xHHHH_ or
// _xHHHHHHHH_.
var decodeNamePattern = regexp.MustCompile(`_[Xx]([0-9a-fA-F]{4}|[0-9a-fA-F]{8})_`)

// DecodeName decodes name as .NET's XmlConvert.DecodeName does: each
// _xHHHH_ or _xHHHHHHHH_ is the character of that code. A surrogate code
// (which .NET keeps as a lone UTF-16 unit, and its UTF-8 encoder replaces)
// is U+FFFD; a code above U+10FFFF is left as written, and, as .NET's copy
// position stays before it, the text between the previous escape and it is
// copied again when a later escape is decoded.
func DecodeName(name string) string {
	if !strings.Contains(name, "_") {
		return name
	}
	var b strings.Builder
	copied := 0
	for _, m := range decodeNamePattern.FindAllStringIndex(name, -1) {
		b.WriteString(name[copied:m[0]])
		u, _ := strconv.ParseUint(name[m[0]+2:m[1]-1], 16, 32)
		if u > unicode.MaxRune {
			continue
		}
		if utf16.IsSurrogate(rune(u)) {
			u = unicode.ReplacementChar
		}
		b.WriteRune(rune(u))
		copied = m[1]
	}
	if copied == 0 {
		return name
	}
	b.WriteString(name[copied:])
	return b.String()
}

package mocktest

import (
	"fmt"
	"net/url"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// PercentU writes s as a query or form may for ASP.NET: characters beyond
// ASCII as %uXXXX escapes of their UTF-16 units, the rest escaped as
// url.QueryEscape does.
func PercentU(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c < utf8.RuneSelf {
			b.WriteString(url.QueryEscape(string(c)))
			continue
		}
		for _, u := range utf16.Encode([]rune{c}) {
			fmt.Fprintf(&b, "%%u%04X", u)
		}
	}
	return b.String()
}

// PercentUAll writes every character of s as %uXXXX escapes of its UTF-16
// units, ASCII included, as a client may for ASP.NET (JavaScript's
// escape() writes those beyond Latin-1 so; ASP.NET reads any): a query or
// form net/url refuses whatever s holds.
func PercentUAll(s string) string {
	var b strings.Builder
	for _, c := range s {
		for _, u := range utf16.Encode([]rune{c}) {
			fmt.Fprintf(&b, "%%u%04x", u)
		}
	}
	return b.String()
}

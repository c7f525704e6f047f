// Package printable makes text that came from a remote party (the body of
// a deployment's answer, a parser's error quoting it) safe to print on a
// terminal, in a log or in a report: bytes that are not UTF-8 and control
// characters other than the newline and the tab become escapes, so that
// an answer can neither send escape sequences to a terminal nor garble an
// XML report.
package printable

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text returns s with every byte that is not UTF-8 written \xNN and every
// control character but '\n' and '\t' written as Go escapes it ("\x1b",
// "\r", "\u0085"). Printable text is returned as it is.
func Text(s string) string {
	if clean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case control(r):
			q := strconv.QuoteRuneToASCII(r) // '\x1b', '\r', '\u0085'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// clean reports whether s is valid UTF-8 without control characters but
// the newline and the tab.
func clean(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n <= 1 || control(r) {
			return false
		}
		i += n
	}
	return true
}

func control(r rune) bool { return unicode.IsControl(r) && r != '\n' && r != '\t' }

package printable

import (
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"plain text, é, 日本\n\ttab", "plain text, é, 日本\n\ttab"},
		{"\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"a\x00b\rc", `a\x00b\rc`},
		{"bad \xff\xfe bytes", `bad \xff\xfe bytes`},
		{"cut \xe6\x97", `cut \xe6\x97`},
		{"c1 \u0085 \u009b", `c1 \u0085 \u009b`},
		{"\ufffd stays", "\ufffd stays"}, // a replacement character written as such is text
		{"", ""},
	} {
		if got := Text(tc.in); got != tc.want {
			t.Errorf("Text(%q): got %q, want %q", tc.in, got, tc.want)
		}
	}
}

// isPrintable reports whether s is valid UTF-8 without control characters
// but the newline and the tab.
func isPrintable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			return false
		}
	}
	return true
}

// FuzzText: any text comes out printable, and printable text as it was.
func FuzzText(f *testing.F) {
	for _, s := range []string{"", "plain", "\x00\x01\x1b[31mred\xff\xfe <<<", "é\xe6\x97", "\u0085\r\n\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		if !isPrintable(out) {
			t.Fatalf("Text(%q) = %q, not printable", s, out)
		}
		if isPrintable(s) && out != s {
			t.Fatalf("Text(%q) = %q, changed printable text", s, out)
		}
	})
}

package asmx

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/atmkit/atmkit/internal/wire"
)

func TestParsePathInvalidChars(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want []rune
		ok   bool
	}{
		{DefaultRequestPathInvalidCharacters, []rune{'<', '>', '*', '%', '&', ':', '\\', '?'}, true},
		{"", nil, true},
		{" < , > ", []rune{'<', '>'}, true},
		{"%3C,%u0436", []rune{'<', 'ж'}, true},
		{"<,%2C", []rune{'<', ','}, true}, // decoded first, a comma too many: split first, then decoded
		{"<>", nil, false},
		{"<,,>", nil, false},
		{"+", nil, false}, // a space once decoded, trimmed away
		{"\U0001F600", nil, false},
	}
	for _, tt := range tests {
		got, err := ParsePathInvalidChars(tt.in)
		if (err == nil) != tt.ok || !slices.Equal(got, tt.want) {
			t.Errorf("ParsePathInvalidChars(%q): got %q, %v; want %q, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

func TestURLLimitsCheck(t *testing.T) {
	t.Parallel()
	l := DefaultURLLimits()
	tests := []struct {
		path, query string
		kind        string // "" passes
	}{
		{"/service/service.asmx/ReturnProvinces", "strAtmServiceKey=k", ""},
		{"/" + strings.Repeat("a", 259), strings.Repeat("q", 2048), ""},
		{"/" + strings.Repeat("a", 260), "", KindURLTooLong},
		{"/" + strings.Repeat("é", 259), "", ""},                            // 518 bytes, 260 characters
		{"/" + strings.Repeat("a", 258) + "\U0001F600", "", KindURLTooLong}, // a surrogate pair is two
		{"/" + strings.Repeat("a", 257) + "\xff\xfe", "", ""},               // a byte that is not UTF-8 is one
		{"/", strings.Repeat("q", 2049), KindQueryStringTooLong},
		{"/", strings.Repeat("é", 1024), ""},
		{"/", strings.Repeat("q", 2046) + "#", KindQueryStringTooLong}, // "#" is written "%23"
		// Bytes that are not UTF-8: one unit for each invalid sequence, as
		// .NET's UTF8Encoding reads them (E9 80 is one: a lead byte and the
		// continuation it had), not one a byte.
		{"/", strings.Repeat("q", 2045) + "\xa4\xe9\x80", ""},
		{"/", strings.Repeat("q", 2047) + "\xe9\x80", ""},
		{"/", strings.Repeat("q", 2047) + "\xa4\xe9", KindQueryStringTooLong},
		{"/a<b", "", KindDangerousPath},
		{"/" + strings.Repeat("a", 260) + "<", strings.Repeat("q", 2049), KindURLTooLong},
		{"/a", strings.Repeat("q", 2049) + "<", KindQueryStringTooLong},
		{"/a", "<>*%&:\\?", ""},
	}
	for _, tt := range tests {
		e := l.Check(tt.path, tt.query)
		got := ""
		if e != nil {
			got = e.Kind
			if e.Status != 400 || !e.Page || e.Exception == nil || e.Exception.Type != typeHTTPException {
				t.Errorf("Check(%.40q, %.40q): got %+v, want HTTP 400, ASP.NET's page of an HttpException", tt.path, tt.query, e)
			}
		}
		if got != tt.kind {
			t.Errorf("Check(%.40q…, %.40q…): got kind %q, want %q", tt.path, tt.query, got, tt.kind)
		}
	}
	if e := l.Check("/x:y", ""); e == nil || e.Exception.Message != "A potentially dangerous Request.Path value was detected from the client (:)." {
		t.Errorf("Check(/x:y): got %+v", e)
	}
}

// FuzzURLLimits holds Check to .NET's rules computed the slow way: lengths
// in UTF-16 units of the strings as .NET decodes them (each byte that is
// not UTF-8 in the path one U+FFFD, in the query one for each invalid
// sequence as wire.DecodeUTF8 reads it; "#" in the query three), the path's length before
// the query's, then the first invalid character of the path; and
// ParsePathInvalidChars to what it reads back.
func FuzzURLLimits(f *testing.F) {
	f.Add("/service/service.asmx/ReturnProvinces", "strAtmServiceKey=k", 260, 2048, DefaultRequestPathInvalidCharacters)
	f.Add("/a<b", "x#y", 3, 3, "<,%2C")
	f.Add("/\xff\U0001F600:", "é", 1, 1, "%u0436, :")
	f.Fuzz(func(t *testing.T, path, query string, maxURL, maxQuery int, chars string) {
		rs, err := ParsePathInvalidChars(chars)
		if err != nil {
			return
		}
		for _, r := range rs {
			if r >= 0x10000 || !utf8.ValidRune(r) {
				t.Fatalf("ParsePathInvalidChars(%q) read %q", chars, r)
			}
		}
		if maxURL < 1 || maxQuery < 1 {
			return
		}
		l := URLLimits{MaxURLLength: maxURL, MaxQueryStringLength: maxQuery, InvalidPathChars: rs}
		want := ""
		switch {
		case slowUnits(path) > maxURL:
			want = KindURLTooLong
		case slowUnits(wire.DecodeUTF8(query))+2*strings.Count(query, "#") > maxQuery:
			want = KindQueryStringTooLong
		case strings.ContainsFunc(path, func(r rune) bool { return slices.Contains(rs, r) }):
			want = KindDangerousPath
		}
		got := ""
		if e := l.Check(path, query); e != nil {
			got = e.Kind
		}
		if got != want {
			t.Fatalf("Check(%q, %q) with %d, %d, %q: got %q, want %q", path, query, maxURL, maxQuery, chars, got, want)
		}
	})
}

// slowUnits is the length of s in UTF-16 units, each byte that is not
// UTF-8 one unit.
func slowUnits(s string) int {
	var rs []rune
	for len(s) > 0 {
		r, n := utf8.DecodeRuneInString(s)
		rs = append(rs, r)
		s = s[n:]
	}
	return len(utf16.Encode(rs))
}

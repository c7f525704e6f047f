package asmx

import (
	"slices"
	"strings"
	"testing"
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

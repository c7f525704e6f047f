package asmx

import (
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/atmkit/atmkit/internal/wire"
)

// TestFormText: a form is read in the charset its content type names, as
// Request.Form is (HttpRequest.ContentEncoding): raw and escaped bytes
// alike, escapes of '&', '=' and '+' staying data; %uXXXX is a UTF-16 unit
// in any charset; UTF-8, no charset, a charset .NET does not know, and
// UTF-16 leave the body as it is.
func TestFormText(t *testing.T) {
	t.Parallel()
	const form = "application/x-www-form-urlencoded"
	for _, tc := range []struct {
		ct, body string
		want     map[string]string
	}{
		{form + "; charset=iso-8859-1", "city=Montr%E9al&x=1", map[string]string{"city": "Montréal", "x": "1"}},
		{form + "; charset=ISO-8859-1", "city=Montr\xe9al", map[string]string{"city": "Montréal"}},
		{form + `; charset="latin1"`, "a%E9=b%E8", map[string]string{"aé": "bè"}},
		{form + "; charset=iso-8859-1", "v=%E9%26%3D%2B+%u20AC", map[string]string{"v": "é&=+ €"}},
		{form + "; charset=windows-1252", "v=%80%93%9C", map[string]string{"v": "€“œ"}},
		{form + "; charset=us-ascii", "v=%E9a", map[string]string{"v": "?a"}},
		{form + "; charset=shift_jis", "v=%93%FA%96%7B", map[string]string{"v": "日本"}},
		{form + "; charset=iso-8859-1", "v=100%&w=%zz", map[string]string{"v": "100%", "w": "%zz"}},
		{form + "; charset=utf-8", "v=%C3%A9", map[string]string{"v": "é"}},
		{form, "v=%C3%A9", map[string]string{"v": "é"}},
		{form + "; charset=nope", "v=%C3%A9", map[string]string{"v": "é"}},
		{form + "; charset=utf-16", "v=%C3%A9", map[string]string{"v": "é"}},
	} {
		got := ParseQuery(FormText(tc.ct, tc.body))
		for name, want := range tc.want {
			if v := got.Get(name); v != want {
				t.Errorf("FormText(%q, %q): %s=%q, want %q (all: %v)", tc.ct, tc.body, name, v, want, got)
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("FormText(%q, %q): %v, want %v", tc.ct, tc.body, got, tc.want)
		}
	}
	for _, cs := range []string{"iso-8859-1", "windows-1252", "us-ascii", "shift_jis"} {
		if body := "a=b&c=%41+d"; FormText(form+"; charset="+cs, body) != body {
			t.Errorf("an ASCII form in %s was rewritten: %q", cs, FormText(form+"; charset="+cs, body))
		}
	}
	// EBCDIC's '=' is no byte 0x3D: .NET splits the bytes first, so the
	// pair has no name (FillFromEncodedBytes).
	if got := ParseQuery(FormText(form+"; charset=ibm037", "\x81\x7e\x82")); got.Get("") != "a=b" || len(got) != 1 {
		t.Errorf("an EBCDIC form (a=b): %v", got)
	}
}

// FuzzFormText: a Latin-1 form read through FormText and ParseQuery gives
// the pairs .NET's HttpValueCollection.FillFromEncodedBytes gives, each
// name and value decoded byte by byte in Latin-1 (latin1Pairs, written
// apart from FormText).
func FuzzFormText(f *testing.F) {
	for _, s := range []string{"a=b", "city=Montr%E9al&x=1", "v=%E9%26%3D%2B+%u20AC", "a\xe9=\xff", "%", "%u00", "=&=&", "v=100%&w=%zz", "%uD800=%E9"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, body string) {
		got := ParseQuery(FormText("application/x-www-form-urlencoded; charset=iso-8859-1", body))
		want := latin1Pairs(body)
		if len(got) != len(want) {
			t.Fatalf("%q: got %v, want %v", body, got, want)
		}
		for name, vs := range want {
			if strings.Join(got[name], "\x00") != strings.Join(vs, "\x00") {
				t.Fatalf("%q: %q: got %q, want %q", body, name, got[name], vs)
			}
		}
	})
}

// latin1Pairs reads a form as FillFromEncodedBytes does with Latin-1
// (HttpEncoder.UrlDecode of the bytes takes %u escapes in lower case only:
// `bytes[pos + 1] == 'u'`; %U0000 stays as it is):
// pairs split at '&', name and value at the first '=', '+' a space,
// %uXXXX a UTF-16 unit, %XX and any other byte one Latin-1 character; a
// pair without '=' has an empty name; a trailing '&' adds an empty pair.
func latin1Pairs(s string) map[string][]string {
	out := map[string][]string{}
	decode := func(p string) string {
		var units []uint16
		for i := 0; i < len(p); i++ {
			c := p[i]
			switch {
			case c == '+':
				units = append(units, ' ')
			case c == '%' && i+5 < len(p) && p[i+1] == 'u' && wire.IsHex(p[i+2]) && wire.IsHex(p[i+3]) && wire.IsHex(p[i+4]) && wire.IsHex(p[i+5]):
				units = append(units, uint16(wire.Unhex(p[i+2])<<12|wire.Unhex(p[i+3])<<8|wire.Unhex(p[i+4])<<4|wire.Unhex(p[i+5])))
				i += 5
			case c == '%' && i+2 < len(p) && wire.IsHex(p[i+1]) && wire.IsHex(p[i+2]):
				units = append(units, uint16(wire.Unhex(p[i+1])<<4|wire.Unhex(p[i+2])))
				i += 2
			default:
				units = append(units, uint16(c))
			}
		}
		return strings.ToValidUTF8(string(utf16.Decode(units)), "\uFFFD")
	}
	for len(s) > 0 {
		pair := s
		if i := strings.IndexByte(s, '&'); i >= 0 {
			pair, s = s[:i], s[i+1:]
			if s == "" {
				out[""] = append(out[""], "")
			}
		} else {
			s = ""
		}
		name, value, found := strings.Cut(pair, "=")
		if !found {
			name, value = "", pair
		}
		n := decode(name)
		out[n] = append(out[n], decode(value))
	}
	return out
}

package asmx

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestRequestEncoding: in a deployment whose requestEncoding is ISO-8859-1
// a query string is read in it, whatever the content type of a request
// without a body, and in the charset of one with a body (UTF-16 reads it as
// UTF-8: QueryStringEncoding); a form is read in its named charset when
// .NET knows it, else in requestEncoding. UTF-8, the default, leaves both
// as they are.
func TestRequestEncoding(t *testing.T) {
	t.Parallel()
	latin1, err := ParseRequestEncoding("ISO-8859-1")
	if err != nil {
		t.Fatal(err)
	}
	const form = "application/x-www-form-urlencoded"
	for _, tc := range []struct {
		name    string
		read    func(ct, s string) string
		ct, s   string
		strCity string
	}{
		{"query, Latin-1 escapes", func(ct, s string) string { return latin1.Query(ct, false, s) }, "", "strCity=Montr%E9al", "Montréal"},
		{"query, UTF-8 escapes", func(ct, s string) string { return latin1.Query(ct, false, s) }, "", "strCity=Montr%C3%A9al", "MontrÃ©al"},
		{"query, raw bytes", func(ct, s string) string { return latin1.Query(ct, false, s) }, "", "strCity=Montr\xe9al", "Montréal"},
		{"query, %u escape", func(ct, s string) string { return latin1.Query(ct, false, s) }, "", "strCity=Montr%u00e9al", "Montréal"},
		{"query, no body: the charset is not read", func(ct, s string) string { return latin1.Query(ct, false, s) }, "text/plain; charset=utf-8", "strCity=Montr%C3%A9al", "MontrÃ©al"},
		{"query, a body: its charset", func(ct, s string) string { return latin1.Query(ct, true, s) }, "text/plain; charset=utf-8", "strCity=Montr%C3%A9al", "Montréal"},
		{"query, a body in UTF-16: UTF-8", func(ct, s string) string { return latin1.Query(ct, true, s) }, "text/plain; charset=utf-16", "strCity=Montr%C3%A9al", "Montréal"},
		{"query, a body in a charset .NET does not know", func(ct, s string) string { return latin1.Query(ct, true, s) }, "text/plain; charset=nope", "strCity=Montr%E9al", "Montréal"},
		{"form, no charset", latin1.Form, form, "strCity=Montr%E9al", "Montréal"},
		{"form, no charset, UTF-8 escapes", latin1.Form, form, "strCity=Montr%C3%A9al", "MontrÃ©al"},
		{"form, UTF-8 wins", latin1.Form, form + "; charset=utf-8", "strCity=Montr%C3%A9al", "Montréal"},
		{"form, windows-1252 wins", latin1.Form, form + "; charset=windows-1252", "strCity=%80", "€"},
		{"form, a charset .NET does not know", latin1.Form, form + "; charset=nope", "strCity=Montr%E9al", "Montréal"},
		{"UTF-8, query", func(ct, s string) string { return RequestEncodingUTF8.Query(ct, false, s) }, "", "strCity=Montr%C3%A9al", "Montréal"},
		{"UTF-8, form", RequestEncodingUTF8.Form, form, "strCity=Montr%C3%A9al", "Montréal"},
		{"the zero RequestEncoding is UTF-8", RequestEncoding{}.Form, form, "strCity=Montr%C3%A9al", "Montréal"},
	} {
		if got := ParseQuery(tc.read(tc.ct, tc.s)).Get("strCity"); got != tc.strCity {
			t.Errorf("%s: %q read %q, want %q", tc.name, tc.s, got, tc.strCity)
		}
	}
	if q := "strCity=Montr%C3%A9al&x=1"; RequestEncodingUTF8.Query("", false, q) != q || RequestEncodingUTF8.Form(form, q) != q {
		t.Errorf("UTF-8 rewrote %q", q)
	}
}

// TestParseRequestEncoding: names .NET knows, in any case, give the
// encoding's own name; unknown names, UTF-16 and UTF-32 are errors naming
// what was given.
func TestParseRequestEncoding(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{"utf-8": "utf-8", "UTF8": "utf-8", "iso-8859-1": "iso-8859-1", "Latin1": "iso-8859-1",
		"windows-1252": "windows-1252", "us-ascii": "us-ascii", "iso-8859-15": "iso-8859-15"} {
		e, err := ParseRequestEncoding(name)
		if err != nil || e.Name() != want || e.IsUTF8() != (want == "utf-8") {
			t.Errorf("%q: got %q (UTF-8 %v), %v; want %q", name, e.Name(), e.IsUTF8(), err, want)
		}
	}
	for _, name := range []string{"", "nope", "utf-16", "unicode", "utf-32", "utf-16be"} {
		if _, err := ParseRequestEncoding(name); err == nil || !strings.Contains(err.Error(), `"`+name+`"`) {
			t.Errorf("%q: got %v, want an error naming it", name, err)
		}
	}
}

// FuzzRequestEncodingQuery: a query string read in requestEncoding
// ISO-8859-1 through Query and ParseQuery gives the pairs .NET's
// HttpValueCollection.FillFromEncodedBytes gives (latin1Pairs, written
// apart from the reader).
func FuzzRequestEncodingQuery(f *testing.F) {
	for _, s := range []string{"strCity=Montr%E9al", "strCity=Montr%C3%A9al", "a\xe9=\xff&", "%u00e9=%E9", "=&=", "v=100%&w=%zz"} {
		f.Add(s)
	}
	latin1, err := ParseRequestEncoding("iso-8859-1")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, query string) {
		got := ParseQuery(latin1.Query("", false, query))
		want := latin1Pairs(query)
		if len(got) != len(want) {
			t.Fatalf("%q: got %v, want %v", query, got, want)
		}
		for name, vs := range want {
			if strings.Join(got[name], "\x00") != strings.Join(vs, "\x00") {
				t.Fatalf("%q: %q: got %q, want %q", query, name, got[name], vs)
			}
		}
	})
}

// TestRequestEncodingQueryEscape: a value escaped for a deployment's
// requestEncoding reads back as itself there (Query, then ParseQuery);
// a character the encoding cannot hold is sent as '?', as .NET's encoders
// write it; UTF-8 is url.QueryEscape's.
func TestRequestEncodingQueryEscape(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ enc, in, escaped, read string }{
		{"utf-8", "Montréal 1+1", "Montr%C3%A9al+1%2B1", "Montréal 1+1"},
		{"iso-8859-1", "Montréal 1+1", "Montr%E9al+1%2B1", "Montréal 1+1"},
		{"iso-8859-1", "Kraków €", "Krak%F3w+%3F", "Kraków ?"},
		{"windows-1252", "€ café", "%80+caf%E9", "€ café"},
		{"us-ascii", "café", "caf%3F", "caf?"},
	} {
		e, err := ParseRequestEncoding(tc.enc)
		if err != nil {
			t.Fatal(err)
		}
		got := e.QueryEscape(tc.in)
		if got != tc.escaped {
			t.Errorf("%s: QueryEscape(%q) = %q, want %q", tc.enc, tc.in, got, tc.escaped)
		}
		v := ParseQuery(e.Query("", false, "x="+got))
		if v.Get("x") != tc.read {
			t.Errorf("%s: %q reads back as %q, want %q", tc.enc, got, v.Get("x"), tc.read)
		}
	}
}

// FuzzRequestEncodingQueryEscape: any value escaped for a deployment of
// requestEncoding windows-1252 or iso-8859-1 reads back there as the value
// with each character the encoding cannot hold (and each invalid UTF-8
// byte) as '?'.
func FuzzRequestEncodingQueryEscape(f *testing.F) {
	for _, s := range []string{"Montréal", "€ café", "Kraków", "a+b&c=d%", "\xff\xfe", "日本"} {
		f.Add(s)
	}
	encs := map[string]func(rune) bool{
		"iso-8859-1": func(r rune) bool { return r < 0x100 },
		"windows-1252": func(r rune) bool {
			return r < 0x80 || r >= 0xa0 && r < 0x100 || strings.ContainsRune("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ", r)
		},
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, holds := range encs {
			e, err := ParseRequestEncoding(name)
			if err != nil {
				t.Fatal(err)
			}
			var want strings.Builder
			for _, r := range s { // an invalid byte is utf8.RuneError
				if !holds(r) || r == utf8.RuneError {
					r = '?'
				}
				want.WriteRune(r)
			}
			got := ParseQuery(e.Query("", false, "x="+e.QueryEscape(s)))
			if got.Get("x") != want.String() {
				t.Fatalf("%s: %q escaped %q reads back as %q, want %q", name, s, e.QueryEscape(s), got.Get("x"), want.String())
			}
		}
	})
}

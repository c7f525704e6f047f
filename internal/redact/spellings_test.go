package redact

import (
	"slices"
	"strings"
	"testing"
)

// TestNameSpellings: the parameter's name spelled with a long s (ſ,
// U+017F) or a dotless i (ı, U+0131), whose upper cases are S and I, is
// the key's for ASMX's OrdinalIgnoreCase as the mock compares names
// (asmx's sameName), raw, percent-encoded (%C5%BF, %u017F) and as a JSON
// \u escape: its value is masked, and found (Values, EncodedValues) to be
// masked where the text echoes it, as the strAtmServiceKey spelling's is.
// redact's name gate (a lower-cased search for strAtmServiceKey) let
// every one of them through as sent.
func TestNameSpellings(t *testing.T) {
	t.Parallel()
	const key = "Leak-Key-1234"
	for _, c := range []struct{ in, want string }{
		{"GET /x?\u017ftrAtmServiceKey=Leak-Key-1234&a=1", "GET /x?\u017ftrAtmServiceKey=Le****&a=1"},
		{"GET /x?strAtm\u017fERVICEKEY=Leak-Key-1234", "GET /x?strAtm\u017fERVICEKEY=Le****"},
		{"GET /x?strAtmServ\u0131ceKey=Leak-Key-1234&a=1", "GET /x?strAtmServ\u0131ceKey=Le****&a=1"},
		{"path=/service.asmx/ReturnProvinces/\u017ftrAtmServiceKey=Leak-Key-1234 status=500", "path=/service.asmx/ReturnProvinces/\u017ftrAtmServiceKey=Le**** status=500"},
		{"<\u017ftrAtmServiceKey>Leak-Key-1234</\u017ftrAtmServiceKey>", "<\u017ftrAtmServiceKey>Le****</\u017ftrAtmServiceKey>"},
		{"<a:strAtmServ\u0131ceKey>Leak-Key-1234</a:strAtmServ\u0131ceKey>", "<a:strAtmServ\u0131ceKey>Le****</a:strAtmServ\u0131ceKey>"},
		{`{"strAtmServ` + "\u0131" + `ceKey":"Leak-Key-1234"}`, `{"strAtmServ` + "\u0131" + `ceKey":"Le****"}`},
		{`{"\u017ftrAtmServiceKey":"Leak-Key-1234"}`, `{"\u017ftrAtmServiceKey":"Le****"}`},
		{`{"\u017FtrAtm\u017FerviceKey":"Leak-Key-1234"}`, `{"\u017FtrAtm\u017FerviceKey":"Le****"}`},
		{`{'strAtmServ\u0131ceKey':'Leak-Key-1234'}`, `{'strAtmServ\u0131ceKey':'Le****'}`},
		{`{"strAtmService\u212aey":"Leak-Key-1234"}`, `{"strAtmService\u212aey":"Le****"}`},
		{"(\u017ftrAtmServiceKey=\"...-5678-90ab<b-secret-tail...\").", "(\u017ftrAtmServiceKey=\"******\")."},
	} {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%q): got %q, want %q", c.in, got, c.want)
		}
		if got := NewMasker().Text(c.in); got != c.want {
			t.Errorf("Masker.Text(%q): got %q, want %q", c.in, got, c.want)
		}
		if got := Encoded(c.in); got != c.want {
			t.Errorf("Encoded(%q): got %q, want %q", c.in, got, c.want)
		}
		if vs := Values(c.in); strings.Contains(c.in, key) && !slices.Contains(vs, key) {
			t.Errorf("Values(%q): got %q, want it to hold %q", c.in, vs, key)
		}
	}
	// Percent-encoded, as a client sends the name in a query: the value
	// is masked where it stands (Encoded) and found, so that an echo of
	// it is masked too.
	for _, c := range []struct{ in, want string }{
		{"%C5%BFtrAtmServiceKey=Leak-Key-1234&a=1", "%C5%BFtrAtmServiceKey=Le****&a=1"},
		{"%c5%bftrAtmServiceKey=Leak-Key-1234", "%c5%bftrAtmServiceKey=Le****"},
		{"%u017FtrAtmServiceKey=Leak-Key-1234", "%u017FtrAtmServiceKey=Le****"},
		{"strAtmServ%C4%B1ceKey=Leak-Key-1234", "strAtmServ%C4%B1ceKey=Le****"},
		{"next=%2Fs%3F%25C5%25BFtrAtmServiceKey%253DLeak-Key-1234", "next=%2Fs%3F%25C5%25BFtrAtmServiceKey%253DLe****"},
	} {
		if got := Encoded(c.in); got != c.want {
			t.Errorf("Encoded(%q): got %q, want %q", c.in, got, c.want)
		}
		vs := EncodedValues(c.in)
		if !slices.Contains(vs, key) {
			t.Errorf("EncodedValues(%q): got %q, want it to hold %q", c.in, vs, key)
		}
		if got := Text("echo: "+key, vs...); got != "echo: Le****" {
			t.Errorf("the echo of %q: got %q", c.in, got)
		}
	}
	for _, name := range []string{"\u017ftrAtmServiceKey", "strAtmServ\u0131ceKey", "STRATM\u017fERV\u0131CEKEY", "strAtmService\u212aey"} {
		if !IsParamName(name) {
			t.Errorf("IsParamName(%q) = false, want true", name)
		}
	}
	for _, name := range []string{"strAtmServiceKeys", "strAtmServ\u0130ceKey", "ſtrAtm"} {
		if IsParamName(name) {
			t.Errorf("IsParamName(%q) = true, want false", name)
		}
	}
}

package redact

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestEncoded(t *testing.T) {
	t.Parallel()
	const key = "SecretKey1"
	for _, c := range []struct{ in, want string }{
		{"strAtmServiceKey%3DSecretKey1", "strAtmServiceKey%3DSe****"},
		{"strAtmServiceKey%3DOther-Key-0815", "strAtmServiceKey%3DOt****"},
		{"Sec%72etKey1 and Sec%2572etKey1", "Se**** and Se****"},
		{"%73trAtmServiceKey=Oth%65r-Key-0815&b=2", "%73trAtmServiceKey=Ot****&b=2"},
		{"strAtmServiceKey%u003DOther-Key-0815", "strAtmServiceKey%u003DOt****"},
		{"x%3Fa%3D1%26STRATMSERVICEKEY%3dOther+Key+0815%26b%3D2", "x%3Fa%3D1%26STRATMSERVICEKEY%3dOt****%26b%3D2"},
		{"next=%25252Fs%25253FstrAtmServiceKey%25253DOther-Key", "next=%25252Fs%25253FstrAtmServiceKey%25253DOt****"},
		{"Cl%u00E9-%u79D8%u5BC6!", "******!"},
		// Not the key: as written.
		{"100%25 done+ok %3D strAtmServiceKey%3D", "100%25 done+ok %3D strAtmServiceKey%3D"},
		{"Secret%4Bey2 %ZZ %u12", "Secret%4Bey2 %ZZ %u12"},
		{"strAtmServiceKey%3DOt****", "strAtmServiceKey%3DOt****"},
	} {
		if got := Encoded(c.in, key, "Clé-秘密"); got != c.want {
			t.Errorf("Encoded(%q): got %q, want %q", c.in, got, c.want)
		}
	}
	if got := EncodedValues("a%26strAtmServiceKey%3DOth%2565r-Key"); !strings.Contains(fmt.Sprint(got), "Other-Key") {
		t.Errorf("EncodedValues: got %q, want it to hold Other-Key", got)
	}
}

// FuzzEncoded: a key written into a text with any of its bytes
// percent-encoded, once to three times over, is in none of the readings
// of what Encoded returns; masking that again changes nothing.
func FuzzEncoded(f *testing.F) {
	f.Add("a ", "SecretKey1", " b", uint64(0b1010), uint8(1))
	f.Add("strAtmServiceKey%3D", "Other-Key", "%26x", uint64(0), uint8(2))
	f.Add("%", "4142434445", "%", uint64(1), uint8(3))
	f.Fuzz(func(t *testing.T, pre, key, post string, bits uint64, depth uint8) {
		if len(key) < MinLiteral || len(key) > 32 || strings.ContainsFunc(key, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-')
		}) {
			t.Skip()
		}
		var b strings.Builder
		for i := 0; i < len(key); i++ {
			if bits>>(i%64)&1 == 1 {
				fmt.Fprintf(&b, "%%%02X", key[i])
			} else {
				b.WriteByte(key[i])
			}
		}
		enc := b.String()
		for range int(depth % 3) {
			enc = strings.ReplaceAll(enc, "%", "%25")
		}
		s := pre + enc + post
		got := Encoded(s, key)
		if again := Encoded(got, key); again != got {
			t.Fatalf("Encoded(%q) = %q, again %q", s, got, again)
		}
		texts := []string{got}
		for _, r := range readings(got) {
			texts = append(texts, r.text)
		}
		for _, text := range texts {
			if strings.Contains(text, key) {
				t.Fatalf("Encoded(%q) = %q: a reading holds the key: %q", s, got, text)
			}
		}
	})
}

// TestJSONKeys: a strAtmServiceKey member as ASP.NET AJAX's
// JavaScriptSerializer reads a script service's request, in single
// quotes, with a bare name or a name of \u escapes, is masked, and its
// value is one of Values; a member of another name is not.
func TestJSONKeys(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want, value string }{
		{`{'strAtmServiceKey':'Single-Quoted-1'}`, `{'strAtmServiceKey':'Si****'}`, "Single-Quoted-1"},
		{`{strAtmServiceKey: "Bare-Name-1", x: 1}`, `{strAtmServiceKey: "Ba****", x: 1}`, "Bare-Name-1"},
		{`{"strAtm\u0053erviceKey":"Esc-Name-Key-1"}`, `{"strAtm\u0053erviceKey":"Es****"}`, "Esc-Name-Key-1"},
		{`{'\u0073TRATMSERVICEKEY':'It\'s-a-key"x'}`, `{'\u0073TRATMSERVICEKEY':'It****'}`, `It's-a-key"x`},
		// Script source building such a text: the rest of the line is
		// the value JavaScriptSerializer would read.
		{`data: "{'strAtmServiceKey':'" + k + "'}"`, `data: "{'strAtmServiceKey':'******'}"`, `" + k + "`},
		{`{"xstrAtmServiceKey":"not-a-key", strAtmServiceKeys: 'not-one-either'}`, `{"xstrAtmServiceKey":"not-a-key", strAtmServiceKeys: 'not-one-either'}`, ""},
	} {
		if got := Text(c.in); got != c.want {
			t.Errorf("Text(%s): got %s, want %s", c.in, got, c.want)
		}
		if vs := Values(c.in); c.value != "" && !slices.Contains(vs, c.value) {
			t.Errorf("Values(%s): got %q, want it to hold %q", c.in, vs, c.value)
		}
	}
}

// FuzzMayNameJSONKey: a text that holds a member jsonRE matches is never
// skipped by mayNameJSONKey.
func FuzzMayNameJSONKey(f *testing.F) {
	for _, s := range []string{`strAtmServiceKey=k&x="y:"`, "strAtmServiceKey \f:", `{'strAtmServiceKey':'k'}`, `{"strAtm\u0053erviceKey":"k"}`, `{\u0073trAtmServiceKey:"k"}`, `\u004`, `{"\u017ftrAtmServ\u0131ceKey":"k"}`, "{'strAtmServ\u0131ceKey':'k'}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !mayNameJSONKey(s) && jsonRE.MatchString(s) {
			t.Fatalf("mayNameJSONKey(%q) = false, but jsonRE matches it", s)
		}
	})
}

// TestJSONKeysSkipsForms: JSONKeys reads a text that names the key but
// holds no JSON member of it (a form of 1 MB, strAtmServiceKey=... and a
// long pad) without running its regular expression or copying the text:
// the recorder scrubbed an 11 MB form in two passes of about a second of
// CPU each, and under a loaded CI run the call through it failed. It
// still finds members spaced or quoted as JavaScriptSerializer reads them.
func TestJSONKeysSkipsForms(t *testing.T) {
	form := "strAtmServiceKey=Leak-Key-0815&pad=" + strings.Repeat("x", 1<<20) + "&STRATMSERVICEKEY=x"
	if allocs := testing.AllocsPerRun(3, func() {
		if got := JSONKeys(form, func(string, byte) string { return "masked" }); got != form {
			t.Fatalf("JSONKeys changed a form: %.80q", got)
		}
	}); allocs != 0 {
		t.Errorf("JSONKeys of a 1 MB form: %v allocations, want none", allocs)
	}
	for _, s := range []string{`{"strAtmServiceKey" : "k"}`, "{strAtmServiceKey\t:'k'}", `{'STRATMSERVICEKEY':'k'}`, "{\"\u212atrAtmServiceKey\":\"k\"}"} {
		if !mayNameJSONKey(s) {
			t.Errorf("mayNameJSONKey(%q) = false", s)
		}
	}
}

func TestReplaceEscaped(t *testing.T) {
	t.Parallel()
	const key = "s3cr3t/KEY:4242"
	for _, c := range []struct {
		in, want string
		n        int
	}{
		{"/a/s3cr3t%2fKEY%3A4242/b", "/a/R/b", 1},
		{"x=s3cr3t/KEY%3a4242&y=%733cr3t%2FKEY:4242", "x=R&y=R", 2},
		{"u=%2Fa%3Fk%3Ds3cr3t%252FKEY%253A4242", "u=%2Fa%3Fk%3DR", 1},
		// As written (the literal forms' business), another key, no escape.
		{"s3cr3t/KEY:4242", "s3cr3t/KEY:4242", 0},
		{"s3cr3t%2FKEY%3A4243", "s3cr3t%2FKEY%3A4243", 0},
		{"plain text", "plain text", 0},
	} {
		if got, n := ReplaceEscaped(c.in, "R", key); got != c.want || n != c.n {
			t.Errorf("ReplaceEscaped(%q): got %q (%d), want %q (%d)", c.in, got, n, c.want, c.n)
		}
	}
}

func FuzzReplaceEscaped(f *testing.F) {
	f.Add("/a/s3cr3t%2fKEY%3A4242/b", "s3cr3t/KEY:4242")
	f.Add("%u0073%2", "s%")
	f.Fuzz(func(t *testing.T, s, key string) {
		out, n := ReplaceEscaped(s, "REDACTED", key)
		if (n == 0) != (out == s) {
			t.Errorf("ReplaceEscaped(%q, %q): %q after %d replacements", s, key, out, n)
		}
	})
}

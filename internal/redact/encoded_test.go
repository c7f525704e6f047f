package redact

import (
	"fmt"
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

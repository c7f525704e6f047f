package asmx

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestTrimsAsStrings: the trims written out byte by byte (xmlTrim, the
// content type's parameters) cut what strings.Trim and strings.TrimLeft
// cut with the same sets, on strings of the bytes they cut, others, and
// bytes of multi-byte characters; contentTypeParam finds what it found
// with them.
func TestTrimsAsStrings(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	alphabet := []string{" ", "\t", "\r", "\n", "'", "\"", "a", "=", ";", "\x00", "\xa0", "é", "\u3000", "\xff"}
	for range 20_000 {
		var b strings.Builder
		for range rng.IntN(8) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		s := b.String()
		if got, want := xmlTrim(s), strings.Trim(s, " \t\n\r"); got != want {
			t.Fatalf("xmlTrim(%q) = %q, want %q", s, got, want)
		}
		if got, want := trimParamValue(s), strings.Trim(s, " '\"\t"); got != want {
			t.Fatalf("trimParamValue(%q) = %q, want %q", s, got, want)
		}
		ct := "text/xml;" + s + "charset=" + s + "utf-8" + s
		for _, ct := range []string{ct, s, "text/xml" + s + ";" + s + "CharSet" + s + "=" + s, "a;" + s + ";charset=" + s} {
			name, ok := contentTypeParam(ct, "charset")
			wantName, wantOK := contentTypeParamBefore(ct, "charset")
			if name != wantName || ok != wantOK {
				t.Fatalf("contentTypeParam(%q) = %q, %v; want %q, %v", ct, name, ok, wantName, wantOK)
			}
		}
	}
}

// contentTypeParamBefore is contentTypeParam as it was, with strings.Trim
// and strings.TrimLeft: the test's oracle.
func contentTypeParamBefore(ct, name string) (string, bool) {
	i := strings.IndexByte(ct, ';')
	if i < 0 {
		return "", false
	}
	rest := ct[i+1:]
	for {
		p, next, more := rest, "", false
		if j := strings.IndexByte(rest, ';'); j >= 0 {
			p, next, more = rest[:j], rest[j+1:], true
		}
		p = strings.TrimLeft(p, " \t\r\n")
		if len(p) >= len(name) && strings.EqualFold(p[:len(name)], name) {
			if eq := strings.IndexByte(p[len(name):], '='); eq >= 0 {
				return strings.Trim(p[len(name)+eq+1:], " '\"\t"), true
			}
		}
		if !more {
			return "", false
		}
		rest = next
	}
}

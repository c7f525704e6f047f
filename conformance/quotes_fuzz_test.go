package conformance

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/atmkit/atmkit/internal/printable"
	"github.com/atmkit/atmkit/internal/redact"
)

// FuzzQuotes: the helpers that quote a target's answer (printablef, clip,
// quote, head) never let a key out. A text holds two keys, each in one of
// the forms the masker knows (redact.Forms); in what each helper returns,
// cut anywhere, no form of either key appears, raw or escaped as the
// helpers escape (printable.Text, a %q verb), and head leaves nothing of
// a form its cut went through.
//
// Each key is Q + a fuzzed text + Q, and nothing else the fuzzer gives
// holds a Q or a key a '*': no form of a key writes Q otherwise, and no
// escape, cut mark or mask writes a Q between a '*'-free text, so a form
// found in what a helper returned is a key's form the text held, not
// masked. (Without the Qs an escape makes texts of its own: \x01ab holds
// the key x01ab the answer never held.)
func FuzzQuotes(f *testing.F) {
	f.Add("Leak-Key-1234", "Leak\xffSecret-5678", "<a>", "&", "</a>", uint8(0), uint8(0), uint16(20))
	f.Add("Leak-Key-1234", "Leak\xffSecret-5678", "<a>", "&", "</a>", uint8(2), uint8(3), uint16(30))
	f.Add("Clé-\x01-秘密", "k'\"<>&", "strAtmServiceKey=", " ", "\n", uint8(5), uint8(9), uint16(7))
	f.Add("Fuzz-Key-5678", "Fuzz-Key-567", "", "", "", uint8(1), uint8(2), uint16(4096))
	f.Fuzz(func(t *testing.T, a, b, pre, mid, post string, formA, formB uint8, n uint16) {
		if strings.ContainsAny(a+b, "Q*") || strings.ContainsRune(pre+mid+post, 'Q') {
			return
		}
		keyA, keyB := "Q"+a+"Q", "Q"+b+"Q"
		if utf8.RuneCountInString(keyA) < redact.MinLiteral || utf8.RuneCountInString(keyB) < redact.MinLiteral {
			return // shorter keys are masked only as words of their own
		}
		formsA, formsB := redact.Forms(keyA), redact.Forms(keyB)
		form := func(key string, forms []string, i uint8) string {
			if i == 0 {
				return key // as it is: the likeliest
			}
			return forms[int(i)%len(forms)]
		}
		fa, fb := form(keyA, formsA, formA), form(keyB, formsB, formB)
		text := pre + fa + mid + fb + post
		keys := []string{keyA, keyB}
		cut := int(n)

		outs := map[string]string{
			"printablef": printablef(keys, "%s|%q|%v|%q|%d", text, []string{pre, fa, fb}, errors.New(text), fb, cut),
			"clip":       clip(text, cut, keys...),
			"quote":      quote(text, cut, keys...),
			"head":       head([]byte(text), cut, keys...),
		}
		// The forms, and the forms as the helpers escape a text: a key
		// escaped before it was masked is out as well.
		var written []string
		for _, form := range append(formsA, formsB...) {
			q := strconv.Quote(form)
			written = append(written, form, printable.Text(form), q[1:len(q)-1])
		}
		for name, out := range outs {
			for _, form := range written {
				if strings.Contains(out, form) {
					t.Fatalf("%s(%q, cut %d) holds the key's form %q:\n%q", name, text, cut, form, out)
				}
			}
		}
		// head cuts before it masks: the start of a form the cut went
		// through, left at the end, is dropped.
		for _, p := range []struct{ at, len int }{{len(pre), len(fa)}, {len(pre) + len(fa) + len(mid), len(fb)}} {
			if cut > p.at && cut < p.at+p.len {
				if piece := text[p.at:cut]; strings.HasSuffix(outs["head"], piece) {
					t.Fatalf("head(%q, %d) ends with %q, the start of a key's form cut in two: %q", text, cut, piece, outs["head"])
				}
			}
		}
	})
}

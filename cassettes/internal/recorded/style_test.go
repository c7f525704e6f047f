package recorded

import (
	"bytes"
	"testing"
)

// TestStyle: a cassette's text written in a Style gets the mark once and
// CR LF for each LF, an LF after a CR left as it is, however the text is
// cut into writes; StyleOf reads both back.
func TestStyle(t *testing.T) {
	t.Parallel()
	const text = "---\nversion: 2\nbody: \"a\\r\\n\"\nx: |\n    a\n    b\n"
	for _, st := range []Style{{}, {BOM: true}, {CRLF: true}, {BOM: true, CRLF: true}} {
		want := text
		if st.CRLF {
			want = string(bytes.ReplaceAll([]byte(text), []byte("\n"), []byte("\r\n")))
		}
		if st.BOM {
			want = bom + want
		}
		if got := string(st.apply([]byte(text))); got != want {
			t.Errorf("%+v: apply: got %q, want %q", st, got, want)
		}
		for cut := range len(text) + 1 { // two writes, cut anywhere
			var b bytes.Buffer
			w := st.writer(&b)
			if n, err := w.Write([]byte(text[:cut])); err != nil || n != cut {
				t.Fatalf("write: %d, %v", n, err)
			}
			if n, err := w.Write([]byte(text[cut:])); err != nil || n != len(text)-cut {
				t.Fatalf("write: %d, %v", n, err)
			}
			if b.String() != want {
				t.Errorf("%+v, cut at %d: got %q, want %q", st, cut, b.String(), want)
			}
		}
		if got := StyleOf([]byte(want)); got != st {
			t.Errorf("StyleOf: got %+v, want %+v", got, st)
		}
	}
	var b bytes.Buffer // an LF after a CR, across writes
	w := Style{CRLF: true}.writer(&b)
	_, _ = w.Write([]byte("a\r"))
	_, _ = w.Write([]byte("\nb\n"))
	if got, want := b.String(), "a\r\nb\r\n"; got != want {
		t.Errorf("CR, then LF in the next write: got %q, want %q", got, want)
	}
}

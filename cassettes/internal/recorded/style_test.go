package recorded

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
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

// TestReadFileNamesATabIndent: a cassette a hand edit indented with a tab
// is refused naming the line and the tab (yaml.v3 says "found character
// that cannot start any token" for some, and names the line before for
// others).
func TestReadFileNamesATabIndent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "c.yaml")
	i := &cassette.Interaction{Request: cassette.Request{Method: "GET", URL: "http://h/x", Headers: http.Header{"Accept": {"*/*"}}},
		Response: cassette.Response{Code: 200, Body: "ok", Headers: http.Header{"Content-Type": {"text/plain"}}}}
	if err := WriteFile(path, []*cassette.Interaction{i, ownCopy(i)}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	for _, edit := range []struct{ line, indent string }{
		{"                - '*/*'", "\t\t"}, // a list item
		{"        method: GET", "    \t"},   // spaces, then a tab
		{"    - id: 1", "\t"},               // an interaction
	} {
		at := slices.Index(lines, edit.line)
		if at < 0 {
			t.Fatalf("no line %q in:\n%s", edit.line, data)
		}
		edited := slices.Clone(lines)
		edited[at] = edit.indent + strings.TrimLeft(edit.line, " ")
		if err := os.WriteFile(path, []byte(strings.Join(edited, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadFile(path)
		if want := fmt.Sprintf("line %d is indented with a tab", at+1); err == nil || !errors.Is(err, ErrInvalidCassette) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q indented %q: got %v, want ErrInvalidCassette saying %q", edit.line, edit.indent, err, want)
		}
	}
}

// ownCopy is a copy of i with maps of its own.
func ownCopy(i *cassette.Interaction) *cassette.Interaction {
	cp := *i
	cp.Request.Headers = i.Request.Headers.Clone()
	cp.Response.Headers = i.Response.Headers.Clone()
	return &cp
}

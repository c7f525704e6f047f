package redact

import (
	"strings"
	"testing"
)

func TestReplaceJSONEscaped(t *testing.T) {
	t.Parallel()
	const key = "s3cr3t/KEY+4242é😀"
	for _, c := range []struct {
		in, want string
		n        int
	}{
		{`{"k":"s3cr3t\/KEY+4242é😀"}`, `{"k":"R"}`, 1},
		{`"s3cr3t/KEY\u002B4242\u00e9\ud83d\ude00" "\u0073\u0033cr3t\/KEY\u002b4242\u00E9\uD83D\uDE00"`, `"R" "R"`, 2},
		// Escaped inside a longer text: only the key's run is replaced.
		{`a\nb s3cr3t\/KEY+4242é😀\tc`, `a\nb R\tc`, 1},
		// As written (the literal forms' business), another key, a
		// lone surrogate, a backslash starting no escape.
		{key, key, 0},
		{`s3cr3t\/KEY+4243é😀`, `s3cr3t\/KEY+4243é😀`, 0},
		{`s3cr3t\/KEY+4242é\ud83d`, `s3cr3t\/KEY+4242é\ud83d`, 0},
		{`\x \u12 \`, `\x \u12 \`, 0},
	} {
		if got, n := ReplaceJSONEscaped(c.in, "R", key); got != c.want || n != c.n {
			t.Errorf("ReplaceJSONEscaped(%q): got %q (%d), want %q (%d)", c.in, got, n, c.want, c.n)
		}
	}
}

// FuzzReplaceJSONEscaped: the count says whether the text changed, and
// what is left holds no run that decodes to the key but the literal key
// itself (the literal forms' business).
func FuzzReplaceJSONEscaped(f *testing.F) {
	f.Add(`{"k":"s3cr3t\/KEY\u002B4242"}`, "s3cr3t/KEY+4242")
	f.Add(`\ud83d\ude00\ud83d`, "😀")
	f.Add(`\u005c\u005c`, `\\`)
	f.Fuzz(func(t *testing.T, s, key string) {
		out, n := ReplaceJSONEscaped(s, "REDACTED", key)
		if (n == 0) != (out == s) {
			t.Errorf("ReplaceJSONEscaped(%q, %q): %q after %d replacements", s, key, out, n)
		}
		if key == "" || strings.Contains(key, "REDACTED") || strings.Contains("REDACTED", key) || strings.ContainsAny(key, `\`) {
			return
		}
		r, _ := decodeJSONMapped(out, false)
		if strings.Count(r.text, key) > strings.Count(out, key) {
			t.Errorf("ReplaceJSONEscaped(%q, %q) = %q, which still decodes to the key", s, key, out)
		}
	})
}

func TestReplaceXMLEscaped(t *testing.T) {
	t.Parallel()
	const key = `it's-K&Y-4242é`
	for _, c := range []struct {
		in, want string
		n        int
	}{
		{`<m>it&#x27;s-K&amp;Y-4242é</m>`, `<m>R</m>`, 1},
		{`<m a="&#105;t&apos;s-K&#x26;Y-4242&#xE9;">&#x69;&#X74;'s-K&#38;Y-4242&#233;</m>`, `<m a="R">R</m>`, 2},
		// As written (the literal forms' business), another key, a
		// reference to no character, an entity XML does not define.
		{key, key, 0},
		{`it&#x27;s-K&amp;Y-4243é`, `it&#x27;s-K&amp;Y-4243é`, 0},
		{`it&#0;s &#xD800; &#x110000; &#xFFFFFFFF; &nbsp; & &#;`, `it&#0;s &#xD800; &#x110000; &#xFFFFFFFF; &nbsp; & &#;`, 0},
	} {
		if got, n := ReplaceXMLEscaped(c.in, "R", key); got != c.want || n != c.n {
			t.Errorf("ReplaceXMLEscaped(%q): got %q (%d), want %q (%d)", c.in, got, n, c.want, c.n)
		}
	}
}

// FuzzReplaceXMLEscaped is FuzzReplaceJSONEscaped for XML's references.
func FuzzReplaceXMLEscaped(f *testing.F) {
	f.Add(`<m>it&#x27;s-K&amp;Y-4242</m>`, "it's-K&Y-4242")
	f.Add(`&#x1F600;&#55357;&#xFFFFFFFF;`, "😀")
	f.Add(`&#38;amp;`, `&amp;`)
	f.Fuzz(func(t *testing.T, s, key string) {
		out, n := ReplaceXMLEscaped(s, "REDACTED", key)
		if (n == 0) != (out == s) {
			t.Errorf("ReplaceXMLEscaped(%q, %q): %q after %d replacements", s, key, out, n)
		}
		if key == "" || strings.Contains(key, "REDACTED") || strings.Contains("REDACTED", key) || strings.ContainsAny(key, "&;#") {
			return
		}
		r, _ := decodeXMLMapped(out, false)
		if strings.Count(r.text, key) > strings.Count(out, key) {
			t.Errorf("ReplaceXMLEscaped(%q, %q) = %q, which still decodes to the key", s, key, out)
		}
	})
}

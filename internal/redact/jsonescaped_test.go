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

package learn

import (
	"testing"

	"github.com/atmkit/atmkit/shape"
)

// TestSameValue compares XML texts with JSON values: an empty XmlElement
// Mono writes indented (its end tag on a line of its own) is an empty
// string; other whitespace is a value.
func TestSameValue(t *testing.T) {
	for _, c := range []struct {
		kind      shape.Kind
		xml, json string
		want      bool
	}{
		{shape.KindString, "https://cabot.example", "https://cabot.example", true},
		{shape.KindString, "\n      ", "", true},
		{shape.KindString, "\r\n\t", "", true},
		{shape.KindString, " ", "", false},
		{shape.KindString, "\n  x", "", false},
		{shape.KindString, "\n      ", "x", false},
		{shape.KindFlag, "true", "1", true},
		{shape.KindDouble, "46.41", "46.413374", true}, // rounded to its decimals
		{shape.KindDouble, "46.42", "46.413374", false},
	} {
		if got := sameValue(c.kind, c.xml, c.json); got != c.want {
			t.Errorf("sameValue(%v, %q, %q) = %v, want %v", c.kind, c.xml, c.json, got, c.want)
		}
	}
}

package redact

import (
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// FuzzXMLControlForms: the forms Forms adds for a key holding characters
// XML 1.0 forbids are what the mock's answers write (asmx.AppendText and
// AppendAttr), which redact, under internal/, may not import outside its
// tests.
func FuzzXMLControlForms(f *testing.F) {
	for _, s := range []string{"Le\x01ak", "a\x1fb\tc\nd\re<f>&\"'", "\uFFFE\uFFFF", "\xff\x01", "plain"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, key string) {
		if got, want := xmlControl(xmlText.Replace(key)), string(asmx.AppendText(nil, key)); got != want {
			t.Errorf("text of %q: got %q, want %q", key, got, want)
		}
		if got, want := xmlControl(xmlAttrBreaks.Replace(key)), string(asmx.AppendAttr(nil, key)); got != want {
			t.Errorf("attribute of %q: got %q, want %q", key, got, want)
		}
	})
}

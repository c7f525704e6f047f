package recorded

import (
	"strings"
	"testing"
)

// keyPatterns are the patterns mayNameKey stands in front of.
var keyPatterns = []interface{ MatchString(string) bool }{xmlKeyRE, xmlOpenKeyRE, htmlKeyRE, jsonKeyRE}

func TestMayNameKey(t *testing.T) {
	for _, c := range []struct {
		b    string
		want bool
	}{
		{"", false},
		{"trAtm", true},
		{"<strAtmServiceKey>k</strAtmServiceKey>", true},
		{"<STRATMSERVICEKEY>k</STRATMSERVICEKEY>", true},
		{"<ſtrAtmServiceKey>k</ſtrAtmServiceKey>", true}, // a long s: the patterns fold it
		{"<strAtmServiceKey>k</strAtmServiceKey>", true}, // a Kelvin sign
		{`{"strAtmServiceKey":"k"}`, true},
		{"<ATMs><Name>Montréal</Name></ATMs>", false},
		{"trAt", false},
		{"xxxxtratm", true},
		{"TRATMT", true},
		{strings.Repeat("tratx", 1000), false},
	} {
		if got := mayNameKey(c.b); got != c.want {
			t.Errorf("mayNameKey(%q) = %v, want %v", c.b, got, c.want)
		}
	}
}

// FuzzMayNameKey: a body any key pattern matches is never skipped.
func FuzzMayNameKey(f *testing.F) {
	for _, s := range []string{"<strAtmServiceKey>k</strAtmServiceKey>", "strAtmServiceKey=k", `"strAtmServiceKey":"k"`, "<STRATMSERVICEKEY x='1'>k", "tratm"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b string) {
		if mayNameKey(b) {
			return
		}
		for _, re := range keyPatterns {
			if re.MatchString(b) {
				t.Fatalf("mayNameKey(%q) = false, but %v matches it", b, re)
			}
		}
	})
}

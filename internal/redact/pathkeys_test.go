package redact

import (
	"slices"
	"strings"
	"testing"
)

// TestPathKeys: the segments after an .asmx file that name no operation
// (a key a client put in the path) are found, as written and decoded, and
// masked; an operation's name in any case, the script proxy, the part
// before the .asmx file and a path without one are left.
func TestPathKeys(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		path, masked string
		keys         []string
	}{
		{"/service/service.asmx/Leak-Key-1", "/service/service.asmx/REDACTED", []string{"Leak-Key-1"}},
		{"/atm/SERVICE-V2.ASMX/returnprovinces/Leak%2DKey", "/atm/SERVICE-V2.ASMX/returnprovinces/REDACTED", []string{"Leak%2DKey", "Leak-Key"}},
		{"/service/service.asmx/ReturnAtmSearchByCity", "/service/service.asmx/ReturnAtmSearchByCity", nil},
		{"/service-v2.asmx/jsdebug", "/service-v2.asmx/jsdebug", nil},
		{"/Leak-Key-1/service/service.asmx", "/Leak-Key-1/service/service.asmx", nil},
		{"/other/Leak-Key-1", "/other/Leak-Key-1", nil},
		// Letters whose lower case is longer or shorter in UTF-8 before the
		// file: the segment after it is found where it is, not bytes off
		// (Ⱥ lower-cases to 3 bytes from 2: 12 of them hid the whole key).
		{"/" + strings.Repeat("Ⱥ", 12) + "/service.asmx/Leak-Key-1", "/" + strings.Repeat("Ⱥ", 12) + "/service.asmx/REDACTED", []string{"Leak-Key-1"}},
		{"/\u212a\u212a/service.asmx/Leak-Key-1", "/\u212a\u212a/service.asmx/REDACTED", []string{"Leak-Key-1"}},
	} {
		if got := PathKeys(c.path); !slices.Equal(got, c.keys) {
			t.Errorf("PathKeys(%q): got %q, want %q", c.path, got, c.keys)
		}
		if got := MaskPathKeys(c.path, "REDACTED"); got != c.masked {
			t.Errorf("MaskPathKeys(%q): got %q, want %q", c.path, got, c.masked)
		}
	}
}

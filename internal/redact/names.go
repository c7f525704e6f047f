package redact

import (
	"regexp"
	"strings"
)

// NamePattern is ParamName's regular expression, for a pattern of case
// folding ((?i)): the name in every spelling ASMX reads as it. ASMX
// compares parameter names as StringComparer.OrdinalIgnoreCase does, each
// character as its upper case (the mock's asmx.sameName), so the long s
// (ſ, U+017F) is an s and the dotless ı (U+0131) an i. Go's case folding
// joins ſ to s, and the Kelvin sign (U+212A, no k for ASMX: masked the
// more) to k, but not ı to i, which the pattern spells out.
const NamePattern = `strAtmServ[i\x{131}]ceKey`

// nameOnlyRE finds the name in a text that holds ſ or ı (HasParamName).
var nameOnlyRE = regexp.MustCompile(`(?i)` + NamePattern)

// IsParamName reports whether name is strAtmServiceKey in one of the
// spellings NamePattern matches: any case, an s written ſ, an i written ı
// (and a k written as the Kelvin sign).
func IsParamName(name string) bool {
	return strings.EqualFold(strings.ReplaceAll(name, "\u0131", "i"), ParamName)
}

// HasParamName reports whether s holds the parameter's name in one of the
// spellings NamePattern matches: the gate of every search for a value of
// it (a lower-cased search for the name alone let ſ and ı through). It
// does not allocate: the request log asks it of every path.
func HasParamName(s string) bool {
	n := len(ParamName)
	for i := 0; i+n <= len(s); i++ {
		if s[i]|0x20 == 's' && strings.EqualFold(s[i:i+n], ParamName) {
			return true
		}
	}
	return strings.ContainsAny(s, "\u017f\u0131\u212a") && nameOnlyRE.MatchString(s)
}

package redact

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// jsonRE matches a strAtmServiceKey member of a JSON text as ASP.NET
// AJAX's JavaScriptSerializer reads a script service's request
// (JavaScriptObjectDeserializer): the name in double quotes, in single
// quotes or bare, any case, its letters raw or as \u escapes
// ("strAtm\u0053erviceKey"); the value a string in double or single
// quotes ({'strAtmServiceKey':'K'}, as many an ASP.NET AJAX page writes
// its data). Group 1 is what comes before the value's opening quote,
// group 2 a double-quoted value, group 3 a single-quoted one.
var jsonRE = regexp.MustCompile(`(?i)((?:"` + jsonName + `"|'` + jsonName + `'|(?:^|[^\w\\])` + jsonName + `)\s*:\s*)(?:"((?:[^"\\]|\\.)*)|'((?:[^'\\]|\\.)*))`)

// jsonName is ParamName's pattern in a JSON name: each letter raw or as a
// \u escape of either case, and the letters beyond ASCII that NamePattern
// reads as the name's the same ways (ſ, ı, the Kelvin sign: \u017f,
// \u0131, \u212a).
var jsonName = func() string {
	var b strings.Builder
	for _, r := range ParamName {
		lo, up := strings.ToLower(string(r)), strings.ToUpper(string(r))
		fmt.Fprintf(&b, `(?:%s|\\u00%02x|\\u00%02x`, lo, lo[0], up[0])
		switch lo {
		case "s":
			b.WriteString(`|\\u017f`)
		case "i":
			b.WriteString(`|\x{131}|\\u0131`)
		case "k":
			b.WriteString(`|\\u212a`)
		}
		b.WriteString(")")
	}
	return b.String()
}()

// HasLetterEscape reports whether s holds a \u escape of an ASCII letter,
// which may write a letter of strAtmServiceKey in a JSON member's name
// (not those of <, >, & and ' that .NET's JSON writers escape), or of a
// letter beyond ASCII that NamePattern reads as one of the name's (ſ, ı,
// the Kelvin sign). It does not allocate: a caller that looks for the name
// itself without allocating (a long answer) asks this besides.
func HasLetterEscape(s string) bool {
	for i := strings.IndexByte(s, '\\'); i >= 0 && i+5 < len(s); {
		if s[i+1]|0x20 == 'u' && (s[i+2] == '0' && s[i+3] == '0' && s[i+4] >= '4' && s[i+4] <= '7' && isHexByte(s[i+5]) ||
			strings.EqualFold(s[i+2:i+6], "017f") || strings.EqualFold(s[i+2:i+6], "0131") || strings.EqualFold(s[i+2:i+6], "212a")) {
			return true
		}
		j := strings.IndexByte(s[i+1:], '\\')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// mayNameJSONKey reports whether s may hold a member jsonRE matches: the
// name (any case) followed by a colon, past its closing quote and white
// space; a \u escape of a letter (HasLetterEscape); or a letter that
// jsonRE reads as one of the name's beyond ASCII (the Kelvin sign, the
// long s, the dotless i). It reads s without allocating, so
// that the regular expression runs only on a text that may hold such a
// member: an 11 MB form holding strAtmServiceKey= cost the recorder two
// passes of it, about a second of CPU each (TestJSONKeysSkipsForms).
func mayNameJSONKey(s string) bool {
	if HasLetterEscape(s) || strings.Contains(s, "\u212a") || strings.Contains(s, "\u017f") || strings.Contains(s, "\u0131") {
		return true
	}
	for i := 0; i+len(ParamName) <= len(s); i++ {
		if s[i]|0x20 != 's' || !strings.EqualFold(s[i:i+len(ParamName)], ParamName) {
			continue
		}
		k := i + len(ParamName)
		if k < len(s) && (s[k] == '"' || s[k] == '\'') {
			k++
		}
		for k < len(s) && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\f' || s[k] == '\r') {
			k++
		}
		if k < len(s) && s[k] == ':' {
			return true
		}
	}
	return false
}

func isHexByte(c byte) bool { return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f' }

// JSONKeys returns s with the value of every strAtmServiceKey member
// (jsonRE: quoted as JavaScriptSerializer reads it) replaced by repl's
// answer for it, given the value as written and its quote (" or ').
func JSONKeys(s string, repl func(value string, quote byte) string) string {
	if !mayNameJSONKey(s) {
		return s
	}
	return jsonRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := jsonRE.FindStringSubmatch(m)
		v, q := sub[2], byte('"')
		if len(sub[1]) < len(m) && m[len(sub[1])] == '\'' {
			v, q = sub[3], '\''
		}
		return sub[1] + string(q) + repl(v, q)
	})
}

// jsonKeyValues returns the values of the strAtmServiceKey members of s as
// written and decoded.
func jsonKeyValues(s string) []string {
	if !mayNameJSONKey(s) {
		return nil
	}
	var out []string
	for _, sub := range jsonRE.FindAllStringSubmatch(s, -1) {
		v, q := sub[2], byte('"')
		if sub[3] != "" {
			v, q = sub[3], '\''
		}
		out = append(out, v)
		if d, ok := JSONString(v, q); ok {
			out = append(out, d)
		}
	}
	return out
}

// JSONString decodes v, a string's text between quote q (" or ') as
// JavaScriptSerializer reads it: JSON's escapes, and \' in a single-quoted
// one.
func JSONString(v string, q byte) (string, bool) {
	if q == '\'' {
		v = strings.ReplaceAll(strings.ReplaceAll(v, `\'`, `'`), `"`, `\"`)
	}
	var d string
	if json.Unmarshal([]byte(`"`+v+`"`), &d) != nil {
		return "", false
	}
	return d, true
}

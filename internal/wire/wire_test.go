package wire

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestHasPrefixFold(t *testing.T) {
	for _, tt := range []struct {
		s, prefix string
		want      bool
	}{
		{"/service/service.asmx/ReturnProvinces", "/service/service.asmx", true},
		{"/SERVICE/Service.ASMX", "/service/service.asmx", true},
		{"/service", "/service/service.asmx", false},
		{"/other/service.asmx", "/service/", false},
		{"", "", true},
	} {
		if got := HasPrefixFold(tt.s, tt.prefix); got != tt.want {
			t.Errorf("HasPrefixFold(%q, %q): got %v, want %v", tt.s, tt.prefix, got, tt.want)
		}
	}
}

func TestJSONStyles(t *testing.T) {
	const in = "a\"b\\c\n\r\t\b\f\x01<>&' caf\u00e9 \u2028\u2029 \xff"
	for _, tt := range []struct {
		name  string
		style *JSONStyle
		want  string
	}{
		{"ResultJSON", ResultJSON, `"a\"b\\c\n\r\t\u0008\u000c\u0001\u003c\u003e\u0026' café \u2028\u2029 \ufffd"`},
		{"AjaxJSON", AjaxJSON, "\"a\\\"b\\\\c\\n\\r\\t\\b\\f\\u0001\\u003c\\u003e\\u0026\\u0027 caf\u00e9 \u2028\u2029 \xff\""},
		{"FileJSON", FileJSON, "\"a\\\"b\\\\c\\n\\r\\t\\b\\f\\u0001<>&' caf\u00e9 \u2028\u2029 \\ufffd\""},
	} {
		if got := string(tt.style.AppendString([]byte("x"), in)); got != "x"+tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, "x"+tt.want)
		}
	}
}

// TestFileJSONIsEncodingJSON: FileJSON writes what encoding/json writes
// without HTML escaping, for strings without U+2028 and U+2029, and every
// style but the raw AjaxJSON writes a valid string as JSON that reads back
// as it.
func TestFileJSONIsEncodingJSON(t *testing.T) {
	var all strings.Builder
	for c := range 0x80 {
		all.WriteByte(byte(c))
	}
	for _, s := range []string{"", "plain", all.String(), "caf\u00e9 \U0001F600", "bad \xc3 \xff\xfe end"} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		want := strings.TrimSuffix(buf.String(), "\n")
		if got := string(FileJSON.AppendString(nil, s)); got != want {
			t.Errorf("FileJSON %q: got %s, want %s", s, got, want)
		}
		for _, st := range []*JSONStyle{ResultJSON, FileJSON} {
			var back string
			if err := json.Unmarshal(st.AppendString(nil, s), &back); err != nil {
				t.Fatalf("%q: %v", s, err)
			}
			if utf8.ValidString(s) && back != s {
				t.Errorf("%q read back as %q", s, back)
			}
		}
	}
}

func TestCheckNamespace(t *testing.T) {
	for _, ns := range []string{"http://tempuri.org/atmService", "http://tempuri.org/", "urn:example:atm", "https://example.org/ns?v=2"} {
		if err := CheckNamespace(ns); err != nil {
			t.Errorf("CheckNamespace(%q): got %v, want nil", ns, err)
		}
	}
	for _, ns := range []string{"", "tempuri.org/atmService", "http://tempuri.org/atm service", "http:", "/relative"} {
		if err := CheckNamespace(ns); err == nil {
			t.Errorf("CheckNamespace(%q): got nil, want an error", ns)
		}
	}
}

func TestURLDecode(t *testing.T) {
	for in, want := range map[string]string{
		"Cl%C3%A9+x":                "Clé x",
		"Cl%u00E9-%u79d8":           "Clé-秘",
		"%uD83D%uDD11":              "🔑", // a surrogate pair is one character
		"%uD83D-%uDD11":             "\uFFFD-\uFFFD",
		"Cl%E9":                     "Cl\uFFFD", // not UTF-8
		"%zz%u12%":                  "%zz%u12%",
		"plain":                     "plain",
		"Cl\xe9":                    "Cl\uFFFD",
		"%E7%A7%98%u5BC6%E5%AF%86":  "秘密密",
		"%3Cb%u003C%U003C":          "<b<%U003C",
		"strAtmServiceKey=Cl%u00e9": "strAtmServiceKey=Clé",
		// Each invalid sequence is one U+FFFD, as .NET Framework's
		// UTF8Encoding reads it (a run of them is not one).
		"x%A4%E9%80":   "x\uFFFD\uFFFD", // a stray continuation byte, then an unfinished sequence
		"%FF%FE":       "\uFFFD\uFFFD",
		"%E0%80%80":    "\uFFFD\uFFFD", // overlong: E0 80 is one sequence, 80 another
		"%ED%A0%80":    "\uFFFD\uFFFD", // a surrogate likewise
		"%F4%90%80%80": "\uFFFD\uFFFD\uFFFD",
		"%C0%AF":       "\uFFFD\uFFFD",
		"%E9%80%3Cb":   "\uFFFD<b",
		"%F0%9F%94%91": "🔑",
		"%F0%9F%94+":   "\uFFFD ",
		"a\xff\xfeb":   "a\uFFFD\uFFFDb", // raw bytes alike
		// Raw bytes and %XX bytes are one run of bytes (UrlDecoder.AddByte).
		"%C3\xa9%3Cb":  "é<b",
		"\xc3%A9":      "é",
		"%C3%u00e9%A9": "\uFFFDé\uFFFD", // a %u escape ends the run
	} {
		if got := URLDecode(in); got != want {
			t.Errorf("URLDecode(%q): got %q, want %q", in, got, want)
		}
	}
}

func TestHTMLEncode(t *testing.T) {
	for in, want := range map[string]string{
		`Clé-秘密<b>&"'`: "Cl&#233;-秘密&lt;b&gt;&amp;&quot;&#39;",
		"plain":        "plain",
		"\u00a0ÿĀ":     "&#160;&#255;Ā",
	} {
		if got := HTMLEncode(in); got != want {
			t.Errorf("HTMLEncode(%q): got %q, want %q", in, got, want)
		}
	}
}

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

// FuzzDecodeUTF8 holds DecodeUTF8 to a port of .NET Framework's
// UTF8Encoding.GetChars state machine (its slow loop: one int of pending
// bits and flags, a U+FFFD each time it jumps to InvalidByteSequence, and
// one for bits pending at the end), and URLDecode to valid UTF-8.
func FuzzDecodeUTF8(f *testing.F) {
	for _, s := range []string{"x\xa4\xe9\x80", "\xe0\x80\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf0\x9f\x94\x91", "\xc0\xaf", "é\xff", "%C3\xa9%u00e9+%zz"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := DecodeUTF8(s), dotNetGetChars([]byte(s)); got != want {
			t.Fatalf("DecodeUTF8(%q) = %q, .NET's UTF8Encoding reads %q", s, got, want)
		}
		if got := URLDecode(s); !utf8.ValidString(got) {
			t.Fatalf("URLDecode(%q) = %q, not UTF-8", s, got)
		}
	})
}

// dotNetGetChars is UTF8Encoding.GetChars (mscorlib's utf8encoding.cs)
// with a replacement fallback, ported as it is written.
func dotNetGetChars(b []byte) string {
	const finalByte, suppl, three = 1 << 29, 1 << 28, 1 << 27
	var out strings.Builder
	ch, start := 0, 0
	for i := 0; i < len(b); {
		if ch == 0 { // ReadChar
			start = i
			c := int(b[i])
			i++
			switch {
			case c <= 0x7F:
				out.WriteByte(byte(c))
			case c&0x40 == 0:
				out.WriteRune(0xFFFD)
			case c&0x20 != 0 && c&0x10 != 0: // four bytes
				if c&0x0F > 4 {
					out.WriteRune(0xFFFD)
					break
				}
				ch = c&0x0F | finalByte>>18 | suppl | suppl>>6 | suppl>>12 | suppl>>18
			case c&0x20 != 0: // three bytes
				ch = c&0x0F | finalByte>>12 | three | three>>6 | three>>12
			default: // two bytes
				if c&0x1F <= 1 {
					out.WriteRune(0xFFFD)
					break
				}
				ch = c&0x1F | finalByte>>6
			}
			continue
		}
		cha := int(b[i])
		if cha&0xC0 != 0x80 { // read again as the start of a sequence
			out.WriteRune(0xFFFD)
			ch = 0
			continue
		}
		i++
		ch = ch<<6 | cha&0x3F
		switch {
		case ch&finalByte != 0:
			out.Write(b[start:i])
			ch = 0
		case ch&suppl != 0:
			if ch&(finalByte>>6) == 0 { // the second byte of four
				if x := ch & 0x1F0; x < 0x10 || x > 0x100 {
					out.WriteRune(0xFFFD)
					ch = 0
				}
			}
		case ch&(0x1F<<5) == 0 || ch&(0xF800>>6) == 0xD800>>6: // the second byte of three
			out.WriteRune(0xFFFD)
			ch = 0
		}
	}
	if ch != 0 {
		out.WriteRune(0xFFFD)
	}
	return out.String()
}

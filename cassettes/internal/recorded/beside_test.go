package recorded

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// FuzzMultipartForm: whatever a multipart body around a strAtmServiceKey
// field holds, its value (a key without white space, CR or LF) is gone
// from what multipartForm returns, which it returns again unchanged.
func FuzzMultipartForm(f *testing.F) {
	f.Add("----b", "strAtmServiceKey", "Multi-Key-1", "x", "\r\n")
	f.Add("b", "STRATMSERVICEKEY", "k", "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n", "\n")
	f.Add("b", "strAtm%53erviceKey", "ab", "", "\r\n")
	f.Fuzz(func(t *testing.T, boundary, name, key, more, nl string) {
		if nl != "\r\n" && nl != "\n" || key == "" || isPlaceholder(key) || strings.ContainsAny(key, " \t\r\n\"") || strings.ContainsAny(name, "\"\r\n\\") ||
			boundary == "" || strings.ContainsAny(boundary, " \t\r\n\";\\") || strings.Contains(key+more, boundary) || strings.Contains(more, key) || strings.Contains(boundary, key) {
			t.Skip()
		}
		body := "--" + boundary + nl + `Content-Disposition: form-data; name="` + name + `"` + nl + nl + key + nl + more + "--" + boundary + "--" + nl
		s := &scrubber{ph: Placeholder}
		got := s.multipartForm(body, `multipart/form-data; boundary="`+boundary+`"`)
		if !IsKeyName(name) {
			if got != body {
				t.Fatalf("a field %q replaced: %q", name, got)
			}
			return
		}
		if strings.Contains(got, nl+key+nl) {
			t.Fatalf("multipartForm(%q) = %q: the key is there", body, got)
		}
		if again := s.multipartForm(got, `multipart/form-data; boundary="`+boundary+`"`); again != got {
			t.Fatalf("again: %q, want %q", again, got)
		}
	})
}

// FuzzItemFilter: an encoded interaction (EncodeItem's, long bodies
// included) holding a key where SweepInteraction finds it, in any text
// yaml.v3 writes in any style (a URL, a header, a short or long body with
// spaces, quotes, line breaks, control characters, a body in UTF-16 or
// UTF-32 as its charset names it), passes the key's
// ItemFilter: the Recorder decodes only the items that pass, and an item
// held back would keep the key.
func FuzzItemFilter(f *testing.F) {
	f.Add("Leak-Key-1234", "<a>", "</a>", uint8(0))
	f.Add(`it's "a key"`, "x: '", "'\n", uint8(1))
	f.Add("Clé-秘密 key", "\t\x01", "\n\n  y", uint8(2))
	f.Add("k\\ey\nwith-lines", strings.Repeat("long line ", 12), strings.Repeat("\n<x>z</x>", 60), uint8(3))
	f.Add("Wide-Key-4321", "<a>", "</a>", uint8(4))
	f.Add("Wide-Key-4321", "<a>", "</a>", uint8(11))
	f.Add("Wide-Key-4321", "<a>", "</a>", uint8(16))
	f.Fuzz(func(t *testing.T, key, pre, post string, where uint8) {
		if len(key) < minSweepLen || len(key) > 64 || !utf8.ValidString(key) || isPlaceholder(key) || inPlaceholder(key) {
			t.Skip()
		}
		text := pre + key + post
		i := longInteraction("<soap/>", "<ok/>")
		switch where % 6 {
		case 0:
			i.Response.Body = text
		case 1:
			i.Request.Body = text
		case 2:
			i.Response.Headers.Set("X-Note", text)
		case 3:
			i.Response.Body = atmsAnswer(30, text)
		case 4, 5: // in UTF-16 (little- or big-endian) or UTF-32, as the charset names it
			enc := []encoding.Encoding{unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM), unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM),
				utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM)}[int(where/6)%3]
			wide, err := enc.NewEncoder().String(text)
			if err != nil {
				t.Skip()
			}
			ct := "text/xml; charset=utf-16"
			if where/6%3 == 2 {
				ct = "text/xml; charset=utf-32"
			}
			if where%6 == 4 {
				i.Response.Body = wide
				i.Response.Headers.Set("Content-Type", ct)
			} else {
				i.Request.Body = wide
				i.Request.Headers.Set("Content-Type", ct)
			}
		}
		item, err := EncodeItem(i)
		if err != nil {
			t.Skip() // not written so that it reads back
		}
		back, err := UnmarshalItem(item.Bytes())
		if err != nil {
			t.Fatalf("item does not read back: %v", err)
		}
		if SweepInteraction(back, Placeholder, key) > 0 && !ItemFilter(key)(item.Bytes()) {
			t.Fatalf("ItemFilter(%q) held back an item holding it:\n%s", key, item.Bytes())
		}
	})
}

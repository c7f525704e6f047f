package recorded

import (
	"strings"
	"testing"
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

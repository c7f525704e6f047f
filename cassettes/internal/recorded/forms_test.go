package recorded

import (
	"net/http"
	"strings"
	"testing"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// FuzzSweepTogether: of two values a = s1+s2 and b = s2+s3 (overlapping
// by s2, or one holding the other when s1 or s3 is empty), in a text
// holding s1+s2+s3, no part outside the overlap survives a sweep of both,
// whether the text was swept of one of them alone before (a secret swept
// before the key holding it was noted) or not.
func FuzzSweepTogether(f *testing.F) {
	f.Add("s3cr3t-", "KEY-4242", "-partner9", "Key ", "\n", uint8(0))
	f.Add("", "s3cr3t-KEY-4242", "-partner9", "<a>", "</a>", uint8(1))
	f.Add("s3cr3t-", "KEY-4242", "", "", "", uint8(2))
	f.Fuzz(func(t *testing.T, s1, s2, s3, pre, post string, first uint8) {
		a, b := s1+s2, s2+s3
		if len(a) < minSweepLen || len(b) < minSweepLen || a == b || s2 == "" {
			t.Skip()
		}
		for _, part := range []string{s1, s3} {
			if part == "" {
				continue
			}
			if len(part) < minSweepLen || inPlaceholder(part) || strings.Contains(Placeholder, part) ||
				strings.Contains(pre, part) || strings.Contains(post, part) || strings.ContainsAny(part, "%\\&<>\"'+ ") {
				t.Skip()
			}
		}
		if strings.ContainsAny(pre+post+s2, "%\\&") {
			t.Skip()
		}
		i := &cassette.Interaction{Response: cassette.Response{Status: "200 OK", Headers: http.Header{}, Body: pre + s1 + s2 + s3 + post}}
		switch first % 3 {
		case 1:
			SweepInteraction(i, Placeholder, a)
		case 2:
			SweepInteraction(i, Placeholder, b)
		}
		SweepInteraction(i, Placeholder, a, b)
		for _, part := range []string{s1, s3} {
			if part != "" && strings.Contains(i.Response.Body, part) {
				t.Fatalf("a %q, b %q, first %d: %q holds %q", a, b, first%3, i.Response.Body, part)
			}
		}
	})
}

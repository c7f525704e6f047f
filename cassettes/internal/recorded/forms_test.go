package recorded

import (
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

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

// FuzzItemFilterWith: an encoded interaction swept of a secret as it
// joined, which held a key holding or overlapping the secret (key s1+s2,
// secret s2+s3, the text s1+s2+s3), is swept of the key's rest s1 when
// a Recorder sweeps the key noted later from the items ItemFilterWith
// passes: what the secret's sweep left of the key (s1+REDACTED) is found,
// though the key's own forms are gone.
func FuzzItemFilterWith(f *testing.F) {
	f.Add("s3cr3t-", "KEY-4242", "", "<a>", "</a>", false)
	f.Add("s3cr3t-", "KEY-4242", "-partner9", "Key ", "\n", true)
	f.Add("Leak-", "Key-1234", "-more", "x: '", "'\n", false)
	f.Fuzz(func(t *testing.T, s1, s2, s3, pre, post string, header bool) {
		key, secret := s1+s2, s2+s3
		if len(s1) < minSweepLen || len(secret) < minSweepLen || len(key) > 64 || len(secret) > 64 ||
			!utf8.ValidString(key+secret+pre+post) || inPlaceholder(key) || inPlaceholder(secret) ||
			strings.Contains(secret, s1) || strings.Contains(pre+post, s1) || strings.Contains(Placeholder, s1) {
			t.Skip()
		}
		plain, err := EncodeItem(longInteraction("<soap/>", "<ok/>"))
		if err != nil || strings.Contains(string(plain.Bytes()), s1) {
			t.Skip()
		}
		text := pre + s1 + s2 + s3 + post
		i := longInteraction("<soap/>", "<ok/>")
		if header {
			i.Response.Headers.Set("X-Note", text)
		} else {
			i.Response.Body = text
		}
		SweepInteraction(i, Placeholder, secret) // as it joined
		item, err := EncodeItem(i)
		if err != nil {
			t.Skip()
		}
		back, err := UnmarshalItem(item.Bytes())
		if err != nil {
			t.Fatalf("item does not read back: %v", err)
		}
		if ItemFilterWith([]string{secret}, key)(item.Bytes()) {
			SweepInteraction(back, Placeholder, key, secret)
		}
		again, err := EncodeItem(back)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(again.Bytes()), s1) {
			t.Fatalf("key %q, secret %q: the item swept holds %q:\n%s", key, secret, s1, string(again.Bytes()))
		}
	})
}

package recorded

import (
	"encoding/json"
	"encoding/xml"
	"net/url"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/redact"
)

// The forms a sweep replaces: the values found in every encoding, and
// what sweeping one of them leaves of another.

// forms returns the found values in every encoding they may appear in:
// raw, URL-encoded, XML-escaped, JSON-escaped, and those of a value beyond
// ASCII (redact.Forms: %uXXXX escapes, ISO-8859-1 and windows-1252 bytes,
// ASP.NET's HtmlEncode, character references), longest first. Short ones
// are left out.
func (s *scrubber) forms() []string { return s.formsOf(minSweepLen) }

// formsOf is forms with the forms shorter than least left out.
func (s *scrubber) formsOf(least int) []string {
	seen := map[string]bool{}
	var out []string
	add := func(v string) {
		if len(v) >= least && !isPlaceholder(v) && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for v := range s.found {
		for _, f := range formsOfValue(v) { // a key beyond ASCII too: %u, Latin-1, &#233;, …
			add(f)
		}
	}
	// The longest first, as found (values are noted in a map): a value
	// swept before a longer one that holds it would leave the longer
	// one's rest.
	slices.SortFunc(out, byLength)
	// Then what a sweep of one value leaves of another that holds it or
	// overlaps it (residues): an earlier sweep's (a text swept of a
	// secret before the key holding it was noted), or this one's (of two
	// overlapping values, the one swept first leaves the other's rest).
	base := len(out)
	for _, v := range s.residues(least) {
		for _, f := range formsOfValue(v) {
			add(f)
		}
	}
	slices.SortFunc(out[base:], byLength)
	return out
}

// byLength orders the longest first, then by bytes.
func byLength(a, b string) int {
	if len(a) != len(b) {
		return len(b) - len(a)
	}
	return strings.Compare(a, b)
}

// formsOfValue is what formsOf finds of one value: its forms beyond ASCII
// (redact.Forms), URL-encoded, XML- and JSON-escaped.
func formsOfValue(v string) []string {
	out := redact.Forms(v)
	out = append(out, url.QueryEscape(v), url.PathEscape(v), string(asmx.AppendEscaped(nil, v)))
	var b strings.Builder
	_ = xml.EscapeText(&b, []byte(v))
	out = append(out, b.String())
	if j, err := json.Marshal(v); err == nil {
		out = append(out, string(j[1:len(j)-1]))
	}
	return out
}

// residues returns what sweeping one found value (least bytes or more)
// by ph leaves of another, for every two of them where one holds the
// other (a secret "Key K" holding the service key K: "Key "+ph) or the
// end of one is the start of the other (K-partner9 holding both the key
// K and the secret KEY-4242-partner9: ph+"-partner9" or "s3cr3t-"+ph),
// and of a value holding several, all of them swept (longest first).
// Swept after the values themselves, they make the sweep's result the
// same whichever value a sweep met first, in this pass or an earlier one
// (a Recorder sweeps a key noted late from interactions already swept of
// the secrets): otherwise the rest of a secret holding the key stayed in
// the cassette. The values are few (the keys noted, WithSecrets' values):
// the pairs cost nothing beside a body's sweep.
func (s *scrubber) residues(least int) []string {
	var vals []string
	for v := range s.found {
		if len(v) >= least && !isPlaceholder(v) {
			vals = append(vals, v)
		}
	}
	if len(vals) < 2 {
		return nil
	}
	slices.SortFunc(vals, byLength)
	var out []string
	add := func(r string) {
		if r != s.ph && !s.found[r] && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	for _, a := range vals {
		all := a
		for _, b := range vals {
			if a == b {
				continue
			}
			for _, r := range residuesOf(a, b, s.ph) {
				add(r)
			}
			if len(b) < len(a) && strings.Contains(a, b) {
				all = strings.ReplaceAll(all, b, s.ph)
			}
		}
		if all != a {
			add(all)
		}
	}
	return out
}

// residuesOf returns what sweeping b by ph leaves of a text holding a
// (with b, where they overlap): a with b replaced, where a holds b;
// a[:len(a)-k]+ph, where a's last k bytes are b's first (a text
// a[:len(a)-k]+b); ph+a[k:], where b's last k bytes are a's first.
func residuesOf(a, b, ph string) []string {
	var out []string
	if len(b) < len(a) && strings.Contains(a, b) {
		out = append(out, strings.ReplaceAll(a, b, ph))
	}
	for k := 1; k < min(len(a), len(b)); k++ {
		if strings.HasSuffix(a, b[:k]) {
			out = append(out, a[:len(a)-k]+ph)
		}
		if strings.HasSuffix(b, a[:k]) {
			out = append(out, ph+a[k:])
		}
	}
	return out
}

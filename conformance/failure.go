package conformance

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/atmkit/atmkit/internal/printable"
	"github.com/atmkit/atmkit/internal/redact"
)

// Failure is a conformance failure: what the document (or ASMX) expects,
// what came instead, and the requests that reproduce it.
type Failure struct {
	// What names the property checked, e.g. "content type of ReturnAllAtms over soap11".
	What string
	// Expected and Got describe the expected and the actual value.
	Expected string
	Got      string
	// Exchanges are the requests involved; each is printed as a curl line.
	Exchanges []*Exchange
}

// gotIndent is the width of a failure's "  got:      ", which the lines of
// what it got after the first are indented by.
const gotIndent = "            "

// Error formats the failure on several lines: what, expected, got, and a
// curl line per request.
func (f *Failure) Error() string {
	var b strings.Builder
	b.WriteString(f.What)
	got := f.Got
	for _, x := range f.Exchanges {
		if x != nil {
			got = redact.Text(got, x.masks()...) // before the cut: no part of a key left
		}
	}
	// An answer's lines (a GET body) stay under "got:", indented past it,
	// where they would start at the margin as lines of the failure's own.
	got = strings.ReplaceAll(truncate(got, 600), "\n", "\n"+gotIndent)
	fmt.Fprintf(&b, "\n  expected: %s\n  got:      %s", f.Expected, got)
	for _, x := range f.Exchanges {
		if x != nil {
			fmt.Fprintf(&b, "\n  reproduce: %s", x.Curl())
		}
	}
	return b.String()
}

// fail builds a *Failure. What it got quotes the target's answer: the
// call's keys (Exchange.masks) are masked in its arguments and in the
// text, and the text is then made printable (internal/printable). In that
// order: a key holding a control character or a byte that is not UTF-8,
// escaped first (by printable, or by a %q verb), is a text no mask matches.
func fail(x *Exchange, what, expected, gotFormat string, args ...any) error {
	var keys []string
	if x != nil {
		keys = x.masks()
	}
	return &Failure{What: what, Expected: expected, Got: printablef(keys, gotFormat, args...), Exchanges: []*Exchange{x}}
}

// printablef is fmt.Sprintf(format, args...) masked for keys and made
// printable, in that order: keys are masked in the arguments (strings,
// lists of them, errors' texts) before a %q verb escapes them, and in the
// text before printable.Text escapes what a %s verb left. A key holding a
// control character or a byte that is not UTF-8, escaped first, is a text
// no mask matches.
func printablef(keys []string, format string, args ...any) string {
	masked := make([]any, len(args))
	for i, a := range args {
		switch a := a.(type) {
		case string:
			masked[i] = redact.Text(a, keys...)
		case []string:
			m := make([]string, len(a))
			for j, s := range a {
				m[j] = redact.Text(s, keys...)
			}
			masked[i] = m
		case error:
			masked[i] = redact.Text(a.Error(), keys...)
		default:
			masked[i] = a
		}
	}
	return printable.Text(redact.Text(fmt.Sprintf(format, masked...), keys...))
}

// also adds exchanges to a failure; other errors are returned unchanged.
func also(err error, xs ...*Exchange) error {
	var f *Failure
	if errors.As(err, &f) {
		f.Exchanges = append(f.Exchanges, xs...)
	}
	return err
}

// clip is truncate(s, n) for a text quoting an answer: keys (the call's
// key and secrets, Exchange.masks) are masked before the cut, which would
// otherwise leave the part of one before it, a text no mask matches.
func clip(s string, n int, keys ...string) string { return truncate(redact.Text(s, keys...), n) }

// head is the start of b, its first n bytes, keys masked: b is cut at n,
// masked, and what the cut left at the end of the text of a key's form
// cut in two (its start, which no mask matches) is dropped. The whole of
// b is not masked: an answer holds up to maxAnswer bytes.
func head(b []byte, n int, keys ...string) string {
	if len(b) <= n {
		return redact.Text(string(b), keys...)
	}
	s := redact.Text(string(b[:n]), keys...)
	for _, k := range keys {
		if k == "" {
			continue
		}
		for _, f := range redact.Forms(k) {
			s = withoutStartOf(s, f)
		}
	}
	return s
}

// withoutStartOf returns s without its longest suffix that is the start
// of form (shorter than form).
func withoutStartOf(s, form string) string {
	for l := min(len(form)-1, len(s)); l > 0; l-- {
		if strings.HasSuffix(s, form[:l]) {
			return s[:len(s)-l]
		}
	}
	return s
}

// quote is clip for a text to print as it is (not through a %q verb): keys
// masked, then made printable, then cut. Masked first, as fail's text is.
func quote(s string, n int, keys ...string) string {
	return truncate(printable.Text(redact.Text(s, keys...)), n)
}

// SkipError marks a check that does not apply to the target (no WSDL served,
// no city id found); the specs report it as skipped.
type SkipError struct{ Reason string }

// Error returns why the spec was skipped.
func (e *SkipError) Error() string { return "skipped: " + e.Reason }

func skip(format string, args ...any) error {
	return &SkipError{Reason: fmt.Sprintf(format, args...)}
}

// IsSkip reports whether err says the check does not apply.
func IsSkip(err error) bool {
	var s *SkipError
	return errors.As(err, &s)
}

// truncate shortens s to at most n bytes, at a character boundary, and
// says how long it was.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d bytes in all)", len(s))
}

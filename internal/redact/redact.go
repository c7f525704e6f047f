// Package redact is atmkit's one rule for keeping service keys out of what
// it prints and writes: logs, banners, journals, reports and error values.
//
// A key is shown only as its mask (Key): six characters whatever the key's
// length, so neither the key nor its length shows. Text, URL and Error mask
// the value of every strAtmServiceKey parameter they find (in a query
// string, an XML element or a JSON member) and every literal occurrence of
// the keys they are given.
package redact

import (
	"errors"
	"net/url"
	"reflect"
	"regexp"
	"strings"
	"unicode/utf8"
)

// ParamName is the service key's parameter.
const ParamName = "strAtmServiceKey"

// MinLiteral is the shortest key that Text also masks wherever it appears
// literally. A shorter one ("k", "test") would match ordinary words; it is
// still masked where it is the value of a strAtmServiceKey parameter.
const MinLiteral = 6

// showFrom is the shortest key whose first two characters the mask shows.
const showFrom = 8

// Key masks a service key: the first two characters of a key of eight
// characters or more and "****", otherwise "******". Every mask is six
// characters long. An empty key stays empty.
func Key(k string) string {
	if k == "" {
		return ""
	}
	if utf8.RuneCountInString(k) < showFrom {
		return "******"
	}
	_, a := utf8.DecodeRuneInString(k)
	_, b := utf8.DecodeRuneInString(k[a:])
	return k[:a+b] + "****"
}

var (
	// queryRE matches strAtmServiceKey=value in a query string or form body,
	// also inside a quoted URL of an error message.
	queryRE = regexp.MustCompile(`(?i)((?:^|[?&;\s"'])` + ParamName + `=)([^&;\s"'<>]*)`)
	// xmlRE matches the content of a strAtmServiceKey element, any prefix.
	xmlRE = regexp.MustCompile(`(?is)(<(?:[^\s<>/:="']+:)?` + ParamName + `(?:\s[^>]*)?>)([^<]*)`)
	// jsonRE matches "strAtmServiceKey": "value".
	jsonRE = regexp.MustCompile(`(?i)("` + ParamName + `"\s*:\s*")((?:[^"\\]|\\.)*)`)
)

// Text returns s with the value of every strAtmServiceKey parameter masked,
// and every occurrence of keys (those of MinLiteral characters or more)
// replaced by its mask.
func Text(s string, keys ...string) string {
	if s == "" {
		return s
	}
	if containsFold(s, ParamName) {
		s = queryRE.ReplaceAllStringFunc(s, func(m string) string {
			sub := queryRE.FindStringSubmatch(m)
			v, err := url.QueryUnescape(sub[2])
			if err != nil {
				v = sub[2]
			}
			if v == "" || isMask(v) {
				return m
			}
			return sub[1] + Key(v)
		})
		s = xmlRE.ReplaceAllStringFunc(s, func(m string) string {
			sub := xmlRE.FindStringSubmatch(m)
			if strings.TrimSpace(sub[2]) == "" || isMask(sub[2]) {
				return m
			}
			return sub[1] + Key(sub[2])
		})
		s = jsonRE.ReplaceAllStringFunc(s, func(m string) string {
			sub := jsonRE.FindStringSubmatch(m)
			if sub[2] == "" || isMask(sub[2]) {
				return m
			}
			return sub[1] + Key(sub[2])
		})
	}
	for _, k := range keys {
		if len(k) >= MinLiteral && strings.Contains(s, k) {
			s = strings.ReplaceAll(s, k, Key(k))
		}
		// The key as it appears URL-encoded, in a quoted URL.
		if q := url.QueryEscape(k); q != k && len(k) >= MinLiteral && strings.Contains(s, q) {
			s = strings.ReplaceAll(s, q, Key(k))
		}
	}
	return s
}

// isMask reports whether v is already a mask (or the cassettes' placeholder),
// so masking twice changes nothing.
func isMask(v string) bool {
	return v == "REDACTED" || v == "******" || (len(v) >= 6 && strings.HasSuffix(v, "****") && utf8.RuneCountInString(v) == 6)
}

func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// URL returns the URL raw with its password and the value of its
// strAtmServiceKey query parameter masked. Text that does not parse as a
// URL is masked as Text masks it.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return Text(raw)
	}
	if _, has := u.User.Password(); has {
		raw = u.Redacted()
	}
	return Text(raw)
}

// Error returns err with every key masked in its text (see Text). When
// nothing needs masking it returns err itself. Otherwise the result's Error
// holds the masked text; errors.Is sees through it to err's chain, and
// errors.As finds the errors of that chain, a *url.Error with its URL and
// cause masked.
func Error(err error, keys ...string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	masked := Text(msg, keys...)
	var ue *url.Error
	if masked == msg && !errors.As(err, &ue) {
		return err
	}
	return &maskedError{msg: masked, err: err, keys: keys}
}

// maskedError is an error whose text has its keys masked.
type maskedError struct {
	msg  string
	err  error
	keys []string
}

func (e *maskedError) Error() string { return e.msg }

// Is reports whether the masked error's chain holds target.
func (e *maskedError) Is(target error) bool { return errors.Is(e.err, target) }

// As finds target in the masked error's chain; a *url.Error is returned as
// a copy with its URL and cause masked.
func (e *maskedError) As(target any) bool {
	if !errors.As(e.err, target) {
		return false
	}
	// The value found may be the *url.Error itself, also when target is
	// an interface it implements (interface{ Timeout() bool }).
	v := reflect.ValueOf(target).Elem()
	if ue, ok := v.Interface().(*url.Error); ok && ue != nil {
		cp := *ue
		cp.URL = URL(cp.URL)
		cp.Err = Error(cp.Err, e.keys...)
		v.Set(reflect.ValueOf(&cp))
	}
	return true
}

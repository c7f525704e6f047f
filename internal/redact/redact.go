// Package redact is atmkit's one rule for keeping service keys out of what
// it prints and writes: logs, banners, journals, reports and error values.
//
// A key is shown only as its mask (Key): six characters whatever the key's
// length, so neither the key nor its length shows. Text, URL and Error mask
// the value of every strAtmServiceKey parameter they find (in a query
// string, an XML element or a JSON member) and every occurrence of the keys
// they are given, raw or escaped as URLs, XML and JSON write them. Every
// command, log, journal, cassette, report and error value of atmkit goes
// through this package; there is no other masking rule.
package redact

import (
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/atmkit/atmkit/internal/printable"
	"github.com/atmkit/atmkit/internal/wire"
)

// ParamName is the service key's parameter.
const ParamName = "strAtmServiceKey"

// MinLiteral is the shortest key that Text masks wherever it appears
// literally, even inside a longer word. A shorter one ("k", "test") is
// masked only where it stands as a word of its own, so that it does not
// mangle ordinary words, and always where it is the value of a
// strAtmServiceKey parameter.
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
	// nameRE matches the parameter's name and its '=', any case: where a
	// query value (queryValue) or a request validation excerpt
	// (excerpt) starts.
	nameRE = regexp.MustCompile(`(?i)` + NamePattern + `=`)
	// xmlRE matches the content of a strAtmServiceKey element, any prefix:
	// its text, CDATA sections, comments and processing instructions, up
	// to the next tag.
	xmlRE = regexp.MustCompile(`(?is)(<(?:[^\s<>/:="']+:)?` + NamePattern + `(?:\s[^>]*)?>)((?:[^<]|<!\[CDATA\[.*?\]\]>|<!--.*?-->|<\?.*?\?>)*)`)
)

// Text returns s with the value of every strAtmServiceKey parameter masked,
// and every occurrence of keys (those of MinLiteral characters or more)
// replaced by its mask, the longest keys first.
func Text(s string, keys ...string) string {
	if s == "" {
		return s
	}
	var lits []literal
	for _, k := range longestFirst(keys) {
		// Every form of a key has at least a byte for each of its
		// characters: a key of more characters than s has bytes is not
		// in it, and its forms, costly for a long key, need not be made.
		if k != "" && utf8.RuneCountInString(k) <= len(s) {
			lits = append(lits, newLiteral(k))
		}
	}
	s = maskParams(s, lits)
	for _, l := range lits {
		s = l.maskIn(s)
	}
	return s
}

// longestFirst returns keys, the longest first (stably): a key masked
// before a longer one that holds it would leave the longer one's rest
// ("Clé" in "Clé-秘密" leaves "******-秘密").
func longestFirst(keys []string) []string {
	if slices.IsSortedFunc(keys, byLength) {
		return keys
	}
	keys = slices.Clone(keys)
	slices.SortStableFunc(keys, byLength)
	return keys
}

func byLength(a, b string) int { return len(b) - len(a) }

// maskParams masks the value of every strAtmServiceKey parameter in s; a
// query value that starts with a form of one of lits is that form whole
// (see eachParam).
func maskParams(s string, lits []literal) string {
	if HasParamName(s) {
		s = maskQueries(s, lits)
		s = xmlRE.ReplaceAllStringFunc(s, func(m string) string {
			sub := xmlRE.FindStringSubmatch(m)
			v := sub[2]
			if strings.ContainsAny(v, "<&") { // a CDATA section, a comment, a processing instruction, an entity: the key is the text they write
				v = xmlValue(v)
			}
			if strings.TrimSpace(v) == "" || isMask(v) {
				return m
			}
			return sub[1] + xmlMask(v)
		})
	}
	return JSONKeys(s, func(v string, q byte) string {
		if d, ok := JSONString(v, q); ok && strings.Contains(v, `\`) {
			v = d // the key its escapes write, as an XML value's entities
		}
		if v == "" || isMask(v) {
			return v
		}
		if m := Key(v); !strings.ContainsFunc(m, func(r rune) bool { return r == '"' || r == '\'' || r == '\\' || r < 0x20 }) {
			return m
		}
		return stars // a quote or backslash shown would end the string, or escape its end
	})
}

// A Masker masks a fixed set of keys as Text does, with the forms of each
// key (Forms) found once, not for every text: for a server that masks its
// configured keys in a log line a call.
type Masker struct {
	keys []literal
}

// literal is a key as Text replaces it (maskIn): its forms and its mask.
type literal struct {
	key, mask string
	word      bool // shorter than MinLiteral: masked as a whole word only
	forms     []string
}

func newLiteral(key string) literal {
	return literal{key: key, mask: Key(key), word: utf8.RuneCountInString(key) < MinLiteral, forms: Forms(key)}
}

// NewMasker returns a Masker of keys (empty ones are left out).
func NewMasker(keys ...string) *Masker {
	m := &Masker{}
	for _, k := range keys {
		if k != "" && !m.Has(k) {
			m.keys = append(m.keys, newLiteral(k))
		}
	}
	slices.SortStableFunc(m.keys, func(a, b literal) int { return byLength(a.key, b.key) })
	return m
}

// Has reports whether key is one of m's keys.
func (m *Masker) Has(key string) bool {
	for _, l := range m.keys {
		if l.key == key {
			return true
		}
	}
	return false
}

// Text is Text(s, keys..., more...) for m's keys: more are keys m does not
// hold (a call's own, say), whose forms are found for this text alone.
func (m *Masker) Text(s string, more ...string) string {
	if s == "" {
		return s
	}
	if len(more) == 0 {
		s = maskParams(s, m.keys)
		for _, l := range m.keys {
			s = l.maskIn(s)
		}
		return s
	}
	// m's keys and more, the longest first (longestFirst), m's first of
	// keys as long.
	more = longestFirst(more)
	var own []literal
	for _, k := range more {
		if !m.Has(k) && k != "" && utf8.RuneCountInString(k) <= len(s) {
			own = append(own, newLiteral(k))
		}
	}
	lits := m.keys
	if len(own) > 0 {
		lits = append(slices.Clone(m.keys), own...)
	}
	s = maskParams(s, lits)
	i := 0
	for _, l := range own {
		for ; i < len(m.keys) && len(m.keys[i].key) >= len(l.key); i++ {
			s = m.keys[i].maskIn(s)
		}
		s = l.maskIn(s)
	}
	for ; i < len(m.keys); i++ {
		s = m.keys[i].maskIn(s)
	}
	return s
}

// Values returns the values of the strAtmServiceKey parameters Text finds
// in s (a query string or form body, XML elements, JSON members), each as
// written and, where that differs, decoded and trimmed, so that their
// other occurrences can be masked too (Text(s, Values(s)...)). A query
// value is decoded as ASP.NET decodes it (%uXXXX escapes too), and, when
// its bytes are not UTF-8, as ISO-8859-1 and windows-1252 (a form sent in
// either charset); a form in another charset is best made UTF-8 first
// (asmx.FormText). Values that are masks already are left out.
func Values(s string) []string {
	if !HasParamName(s) && !HasLetterEscape(s) { // no parameter, no JSON member
		return nil
	}
	var out []string
	add := func(vs ...string) {
		for _, v := range vs {
			if v != "" && !isMask(v) && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	eachParam(s, nil, func(start, end int, excerpt bool) {
		if excerpt { // a cut part of a value: masked where it stands, no key to look for elsewhere
			return
		}
		raw := s[start:end]
		add(raw)
		if v := wire.URLDecode(raw); !strings.Contains(v, "\uFFFD") {
			add(v) // a lossy reading, bytes not UTF-8, is left to readings
		}
		if v, err := url.QueryUnescape(raw); err == nil {
			add(v)
			add(Readings(v)...)
		}
	})
	for _, sub := range xmlRE.FindAllStringSubmatch(s, -1) {
		add(sub[2], strings.TrimSpace(sub[2]), strings.TrimSpace(html.UnescapeString(sub[2])))
		if strings.Contains(sub[2], "<") {
			add(xmlValue(sub[2]), strings.TrimSpace(xmlValue(sub[2])))
		}
	}
	add(jsonKeyValues(s)...)
	return out
}

// XMLText is the text of an element's content raw (up to its end tag), as
// the service reads it: comments and processing instructions left out,
// CDATA sections as they hold them, entities and character references
// replaced, those of control characters too (&#x1;), which .NET's
// XmlTextReader reads and Go's encoding/xml refuses.
func XMLText(raw string) string { return xmlValue(raw) }

// xmlValue is the text of an element's content raw, as xmlRE matches it:
// comments and processing instructions left out, CDATA sections as they
// hold it, entities and character references replaced.
func xmlValue(raw string) string {
	var b strings.Builder
	for raw != "" {
		switch {
		// The end is looked for after the start, as xmlRE does: "<!-->"
		// and "<?>" open, and do not close.
		case strings.HasPrefix(raw, "<!--"):
			end := len("<!--") + strings.Index(raw[len("<!--"):], "-->")
			raw = raw[end+len("-->"):]
		case strings.HasPrefix(raw, "<?"):
			end := len("<?") + strings.Index(raw[len("<?"):], "?>")
			raw = raw[end+len("?>"):]
		case strings.HasPrefix(raw, "<![CDATA["):
			end := strings.Index(raw, "]]>")
			b.WriteString(raw[len("<![CDATA["):end])
			raw = raw[end+len("]]>"):]
		default:
			text := raw
			if i := strings.IndexByte(raw, '<'); i >= 0 {
				text = raw[:i]
			}
			b.WriteString(html.UnescapeString(text))
			raw = raw[len(text):]
		}
	}
	return b.String()
}

// Placeholder replaces the value of a credential header (IsCredentialHeader)
// whole, and the service key in cassettes.
const Placeholder = "REDACTED"

// credentialWords are the words of a header name that carries credentials:
// Authorization, Proxy-Authorization, Cookie and Set-Cookie, and the keys
// and tokens API gateways ask of an app (X-Api-Key, Api-Key,
// Ocp-Apim-Subscription-Key, X-Auth-Token, X-Amz-Security-Token,
// X-Functions-Key, a gateway's own X-Gateway-Secret).
var credentialWords = []string{"auth", "cookie", "key", "token", "secret", "password", "passwd", "credential", "signature", "session"}

// IsCredentialHeader reports whether a header of this name (any case)
// carries credentials, by the words of its name: Authorization,
// Proxy-Authorization, Cookie, Set-Cookie, and any name holding key,
// token, secret, password, credential, signature, session or auth (the
// API keys gateways ask an app to send). Its value is replaced whole
// wherever atmkit keeps headers (cassettes, the mock's journal), never
// shown or kept. Keep-Alive is no credential.
func IsCredentialHeader(name string) bool {
	lower := strings.ToLower(name)
	if lower == "keep-alive" {
		return false
	}
	for _, w := range credentialWords {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// maskIn replaces every occurrence of l's key in s with its mask: the key
// as it is and as URL query or path encoding, XML or HTML escaping and JSON
// string escaping write it, longer forms first so an escaped form is masked
// whole. A key shorter than MinLiteral is masked only where it is not part
// of a longer word.
func (l literal) maskIn(s string) string {
	for _, f := range l.forms {
		if f == "" || !strings.Contains(s, f) {
			continue
		}
		s = replace(s, f, l.mask, l.word)
	}
	return s
}

// Forms returns key as Text finds it literally: as it is and as URL query
// or path encoding (its escapes in either case: .NET's
// HttpUtility.UrlEncode writes "%2f"), XML (an answer's control
// character as &#x1;) or HTML escaping (ASP.NET's
// HttpUtility.HtmlEncode too, as the mock's error texts echo a value:
// "&quot;" and "&#39;") and JSON string escaping (encoding/json's and
// atmkit's JSON writers', wire.JSONStyle) write it, longest first, each
// once, and as Go's %q verb and internal/printable escape it. A key beyond
// ASCII has more forms: see beyondASCII.
func Forms(key string) []string {
	query, path := url.QueryEscape(key), url.PathEscape(key)
	forms := []string{key, query, path, lowerEscapes(query), lowerEscapes(path), html.EscapeString(key),
		xmlText.Replace(key), xmlAttr.Replace(key), xmlAll.Replace(key), wire.HTMLEncode(key)}
	if strings.ContainsFunc(key, func(r rune) bool { return r < 0x20 || r == 0xFFFE || r == 0xFFFF }) {
		// As an answer writes it (.NET's XmlTextEncoder): a control
		// character as a character reference, &#x1;.
		forms = append(forms, xmlControl(xmlText.Replace(key)), xmlControl(xmlAttrBreaks.Replace(key)))
	}
	if b, err := json.Marshal(key); err == nil {
		forms = append(forms, string(b[1:len(b)-1]))
	}
	// As atmkit's own JSON writers escape it: ASP.NET AJAX's error
	// object (an apostrophe as \u0027), the JSON binding's results (\b
	// as \u0008).
	for _, st := range []*wire.JSONStyle{wire.AjaxJSON, wire.ResultJSON, wire.FileJSON} {
		b := st.AppendString(nil, key)
		forms = append(forms, string(b[1:len(b)-1]))
	}
	// As Go's %q verb (and slog's text handler) escapes it, and as
	// internal/printable writes a remote party's text: a key holding a
	// control character, a byte that is not UTF-8 or a character Go does
	// not print ("\x01", "\xff", "\U000f0000"), quoted before it was
	// masked, is still found.
	forms = append(forms, goQuoted(key), printable.Text(key))
	forms = append(forms, beyondASCII(key)...)
	slices.SortFunc(forms, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	return slices.Compact(forms)
}

// goQuoted is key as Go's %q verb writes it, without the quotes: key
// itself when it is printable ASCII without '"' or '\\' (no allocation,
// as for most keys).
func goQuoted(key string) string {
	for i := 0; i < len(key); i++ {
		if c := key[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			q := strconv.Quote(key)
			return q[1 : len(q)-1]
		}
	}
	return key
}

// The XML escapings Forms writes a key in: text (as XmlTextWriter writes
// it), attribute values, and every character XML can escape. Built once:
// Forms runs for every request the mock logs.
var (
	xmlText = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	xmlAttr = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	xmlAll  = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")
	// xmlAttrBreaks is xmlAttr as XmlTextWriter escapes an attribute's
	// value: its CR and LF as references too (asmx.AppendAttr).
	xmlAttrBreaks = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "\r", "&#xD;", "\n", "&#xA;")
)

// xmlControl writes the characters XML 1.0 forbids in s as the character
// references .NET's XmlTextEncoder writes (asmx.AppendText): the control
// characters but tab, LF and CR, U+FFFE and U+FFFF, in upper-case hex.
// (internal/ packages import no atmkit package outside internal/.)
func xmlControl(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
			fmt.Fprintf(&b, "&#x%X;", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// replace replaces the occurrences of old in s with mask; with word set,
// only those that are not inside a longer word.
func replace(s, old, mask string, word bool) string {
	if !word {
		return strings.ReplaceAll(s, old, mask)
	}
	var b strings.Builder
	for {
		i := strings.Index(s, old)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(old)
		whole := !(isWordByte(old[0]) && i > 0 && isWordByte(s[i-1])) &&
			!(isWordByte(old[len(old)-1]) && end < len(s) && isWordByte(s[end]))
		b.WriteString(s[:i])
		if whole {
			b.WriteString(mask)
		} else {
			b.WriteString(old[:1])
			end = i + 1
		}
		s = s[end:]
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// isMask reports whether v is already a mask (six characters: "******",
// or two and "****", as Key writes them), one of the cassettes'
// placeholders (REDACTED, and REDACTED-REJECTED for a key rejection) or a
// reference to the variable ATMKIT_KEY as a whole (keyRefs), so masking
// twice changes nothing. A value that only holds one of these ("x$ATMKIT_KEY",
// "Le****-secret") is a key. (A six-character key of two characters and
// "****" is no different from a mask: it is masked where it is one of the
// keys given, not as a parameter's value.)
func isMask(v string) bool {
	return v == Placeholder || v == Placeholder+"-REJECTED" || slices.Contains(keyRefs, v) || v == "******" || (len(v) >= 6 && strings.HasSuffix(v, "****") && utf8.RuneCountInString(v) == 6)
}

// keyRefs are the references to the variable ATMKIT_KEY atmkit writes in
// place of a key (curl lines in reports, serve's try line): a POSIX
// shell's, in a word's single quotes or not, cmd.exe's and PowerShell's.
var keyRefs = []string{`$ATMKIT_KEY`, `"$ATMKIT_KEY"`, `'"$ATMKIT_KEY"'`, `%ATMKIT_KEY%`, `$env:ATMKIT_KEY`, `${env:ATMKIT_KEY}`}

// URL returns the URL raw with its password and the value of its
// strAtmServiceKey query parameter masked, the parameter's name
// percent-encoded too (%73trAtmServiceKey, as ASMX decodes it: Encoded).
// Text that does not parse as a URL is masked as Encoded masks it.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return Encoded(unparsedPassword(raw))
	}
	if _, has := u.User.Password(); has {
		raw = u.Redacted()
	}
	return Encoded(raw)
}

// unparsedPassword returns raw, a URL that does not parse, with the
// password of its user information written xxxxx, as url.URL.Redacted
// writes it: what lies between the first ':' and the last '@' of the
// authority (after "://", up to the first '/', '?' or '#').
func unparsedPassword(raw string) string {
	i := strings.Index(raw, "://")
	if i < 0 {
		return raw
	}
	start := i + len("://")
	end := len(raw)
	if j := strings.IndexAny(raw[start:], "/?#"); j >= 0 {
		end = start + j
	}
	at := strings.LastIndexByte(raw[start:end], '@')
	if at < 0 {
		return raw
	}
	colon := strings.IndexByte(raw[start:start+at], ':')
	if colon < 0 {
		return raw
	}
	return raw[:start+colon+1] + "xxxxx" + raw[start+at:]
}

// Error returns err with every key masked in its text (see Text; the
// name and the keys percent-encoded too, as Encoded reads a URL). When
// nothing needs masking it returns err itself. Otherwise the result's Error
// holds the masked text; errors.Is sees through it to err's chain, and
// errors.As finds the errors of that chain, a *url.Error with its URL and
// cause masked.
func Error(err error, keys ...string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	masked := Encoded(msg, keys...)
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

// beyondASCII returns the further forms a key holding characters beyond
// ASCII takes in what atmkit shows ("Clé"), none for an ASCII key: its
// characters as %uXXXX escapes ("Cl%u00E9", as ASP.NET reads them in a
// query or form) and as lower-case UTF-8 escapes ("Cl%c3%a9"); as a form in
// ISO-8859-1 or windows-1252 writes it, raw and percent-encoded ("Cl%E9");
// as XML character references, decimal and hex
// ("Cl&#xE9;"); and JSON-escaped to ASCII ("Cl\u00e9").
func beyondASCII(key string) []string {
	ascii := true
	for i := 0; i < len(key); i++ {
		if key[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return nil
	}
	var forms []string
	each := func(ascii func(r rune) string, wide func(r rune) string) string {
		var b strings.Builder
		for _, r := range key {
			if r < utf8.RuneSelf {
				b.WriteString(ascii(r))
			} else {
				b.WriteString(wide(r))
			}
		}
		return b.String()
	}
	query := func(r rune) string { return url.QueryEscape(string(r)) }
	units := func(format string) func(r rune) string {
		return func(r rune) string {
			var b strings.Builder
			for _, u := range utf16.Encode([]rune{r}) {
				fmt.Fprintf(&b, format, u)
			}
			return b.String()
		}
	}
	forms = append(forms, each(query, units("%%u%04X")), each(query, units("%%u%04x")),
		lowerEscapes(url.QueryEscape(key)))
	for _, cm := range []*charmap.Charmap{charmap.ISO8859_1, charmap.Windows1252} {
		raw, ok := singleByte(cm, key)
		if !ok {
			continue
		}
		forms = append(forms, raw, url.QueryEscape(raw), lowerEscapes(url.QueryEscape(raw)))
	}
	text := func(r rune) string { return xmlText.Replace(string(r)) }
	forms = append(forms, each(text, func(r rune) string { return "&#" + strconv.Itoa(int(r)) + ";" }),
		each(text, func(r rune) string { return fmt.Sprintf("&#x%X;", r) }),
		each(text, func(r rune) string { return fmt.Sprintf("&#x%x;", r) }))
	if b, err := json.Marshal(key); err == nil {
		j := string(b[1 : len(b)-1])
		for _, format := range []string{`\u%04x`, `\u%04X`} {
			var out strings.Builder
			for _, r := range j {
				if r < utf8.RuneSelf {
					out.WriteRune(r)
					continue
				}
				out.WriteString(units(format)(r))
			}
			forms = append(forms, out.String())
		}
	}
	return forms
}

// lowerEscapes is s, percent-encoded, with the hex digits of its escapes
// in lower case.
func lowerEscapes(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			b[i+1], b[i+2] = lowerHex(b[i+1]), lowerHex(b[i+2])
			i += 2
		}
	}
	return string(b)
}

func lowerHex(c byte) byte {
	if c >= 'A' && c <= 'F' {
		return c + 'a' - 'A'
	}
	return c
}

// singleByte encodes s in the single-byte charset cm; ok is false when a
// character of s has no byte in it.
func singleByte(cm *charmap.Charmap, s string) (string, bool) {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		c, ok := cm.EncodeRune(r)
		if !ok {
			return "", false
		}
		b = append(b, c)
	}
	return string(b), true
}

// Readings returns v, text percent-decoded from a query or form whose
// bytes are not UTF-8, as read in ISO-8859-1 and in windows-1252: the key a
// form sent in either charset holds ("Cl\xe9" is "Clé"). It returns none
// for UTF-8 text.
func Readings(v string) []string {
	if utf8.ValidString(v) {
		return nil
	}
	var out []string
	for _, cm := range []*charmap.Charmap{charmap.ISO8859_1, charmap.Windows1252} {
		if t, err := cm.NewDecoder().String(v); err == nil {
			out = append(out, t)
		}
	}
	return out
}

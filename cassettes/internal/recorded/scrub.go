package recorded

import (
	"encoding/xml"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/internal/wire"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Placeholder replaces the service key and credential headers in cassettes.
const Placeholder = redact.Placeholder

// RejectedPlaceholder replaces the service key of a recorded call whose key
// the deployment refused: the mark of a key rejection in a cassette (see
// KeyRejected). Like Placeholder, it tells nothing of the key. A Recorder
// marks an error answer (status other than 200) to a call whose key has had
// no 200 answer in the recording while another key has, and keeps the
// marks up to date as the recording goes on.
const RejectedPlaceholder = "REDACTED-REJECTED"

// placeholders are every value atmkit writes in place of a key: a value
// that is one of them is already redacted, and is kept as it is by Scrub
// (only MarkKey turns one into another). The longest comes first.
var placeholders = []string{RejectedPlaceholder, Placeholder}

// IsPlaceholder reports whether v is one of atmkit's placeholders
// (Placeholder, RejectedPlaceholder): an already redacted value.
func IsPlaceholder(v string) bool { return isPlaceholder(v) }

// isPlaceholder is IsPlaceholder.
func isPlaceholder(v string) bool {
	for _, ph := range placeholders {
		if v == ph {
			return true
		}
	}
	return false
}

// inPlaceholder reports whether v is part of one of atmkit's placeholders.
func inPlaceholder(v string) bool {
	for _, ph := range placeholders {
		if strings.Contains(ph, v) {
			return true
		}
	}
	return false
}

// minSweepLen is the shortest key value that is also replaced wherever else
// it appears literally (other headers, response bodies, …). Shorter values
// would match ordinary text; they are still replaced where they are the key.
const minSweepLen = 4

var (
	// xmlKeyRE matches a strAtmServiceKey element with any prefix and
	// attributes, and its content up to the matching end tag (CDATA and
	// entities included). The name is spelled as ASMX reads it
	// (redact.NamePattern: ſ for s, ı for i).
	xmlKeyRE = regexp.MustCompile(`(?is)(<(?:[^\s<>/:="']+:)?` + redact.NamePattern + `(?:\s(?:[^>"']|"[^"]*"|'[^']*')*)?>)(.*?)(</(?:[^\s<>/:="']+:)?` + redact.NamePattern + `\s*>)`)
	// xmlOpenKeyRE matches a start tag whose end tag is missing (a torn or
	// malformed body): its text up to the next tag.
	xmlOpenKeyRE = regexp.MustCompile(`(?is)(<(?:[^\s<>/:="']+:)?` + redact.NamePattern + `(?:\s(?:[^>"']|"[^"]*"|'[^']*')*)?>)([^<]*)`)
	// htmlKeyRE matches strAtmServiceKey= in a link or the text of a
	// page or an answer (the name in any case): where a value starts
	// (pageValue tells where it ends).
	htmlKeyRE = regexp.MustCompile(`(?i)` + redact.NamePattern + `=`)
)

// scrubber collects the key values it replaces, so that their other literal
// occurrences can be swept afterwards.
type scrubber struct {
	ph    string
	n     int
	found map[string]bool
	// mark: the scrubber turns one placeholder into another (MarkKey), so
	// only ph counts as done; otherwise every placeholder does.
	mark bool
	// answer: the body scrubbed is a response's, whose text is looked
	// through for strAtmServiceKey=value in any format (pageKeys); a
	// request's body is, in an HTML one only.
	answer bool
	// nameless: the request's query or form held the rest of a key as
	// values without a name (continuation), which an answer's request
	// validation error quotes without a name.
	nameless bool
}

// done reports whether v, a key's value or a credential header's, needs no
// replacing: it is a placeholder already (ph itself, when marking).
func (s *scrubber) done(v string) bool {
	if s.mark {
		return v == s.ph
	}
	return isPlaceholder(v)
}

// note notes v as a key value found, and, when its bytes are not UTF-8 (a
// form's in ISO-8859-1 or windows-1252, percent-decoded), the text they
// read as in either charset, which an answer may echo.
func (s *scrubber) note(v string) {
	if v == "" || isPlaceholder(v) {
		return
	}
	if s.found == nil {
		s.found = map[string]bool{}
	}
	s.found[v] = true
	for _, r := range redact.Readings(v) {
		s.found[r] = true
	}
}

// Scrub replaces the service key and the credential headers of one
// interaction by ph (Placeholder, or RejectedPlaceholder for a key
// rejection), in place, sweeps every other literal occurrence of the key
// values it found, and returns how many values it replaced. A value that is
// one of atmkit's placeholders already is kept, whichever ph is: Scrub
// never undoes a key rejection's mark (MarkKey changes marks). It is
// idempotent.
func Scrub(i *cassette.Interaction, ph string) int {
	n, _ := ScrubFound(i, ph)
	return n
}

// ScrubFound is Scrub, and also returns the key values it found, those
// its sweep replaces (minSweepLen bytes or more), sorted: the keys of one
// interaction that a cassette's others may hold where they carry no call
// (SweepInteraction).
func ScrubFound(i *cassette.Interaction, ph string) (int, []string) {
	s := &scrubber{ph: ph}
	rq, rs := &i.Request, &i.Response
	oldBody := rq.Body
	s.request(rq)
	rq.Headers = s.headers(rq.Headers)
	rs.Headers = s.headers(rs.Headers)
	rq.Trailer = s.headers(rq.Trailer)
	rs.Trailer = s.headers(rs.Trailer)
	oldResp := rs.Body
	s.answer = true // the patterns of an answer's text (pageKeys) run on the response's
	// The request's keys are swept from the answer before its patterns
	// run: a pattern ends a value at a character the key may hold (the &
	// of a query, or of the entity a page writes for ' or "), and would
	// leave the key's rest where no sweep finds it.
	rs.Body = s.sweepAll(rs.Body, HeaderValue(rs.Headers, "Content-Type"))
	rs.Body = s.body(rs.Body, HeaderValue(rs.Headers, "Content-Type"))
	s.sweepInteraction(i, oldBody, oldResp)
	var found []string
	for v := range s.found {
		if len(v) >= minSweepLen && !isPlaceholder(v) {
			found = append(found, v)
		}
	}
	slices.Sort(found)
	return s.n, found
}

// request replaces the key where a request sends it: in its URL (and
// RequestURI), its form and its body.
func (s *scrubber) request(rq *cassette.Request) {
	rq.URL = s.url(rq.URL)
	rq.RequestURI = s.url(rq.RequestURI)
	// A client that put the parameter in the path
	// (.../ReturnProvinces/strAtmServiceKey=K, its = escaped or not), or
	// a query value that is a URL holding a key (next=%2Fs%3FstrAtm...):
	// its value is noted, and swept with the other keys found.
	s.noteEncoded(rq.URL)
	s.noteEncoded(rq.RequestURI)
	// So too a URL in the body (a SOAP header's WS-Addressing To or
	// Action, .../service.asmx?strAtmServiceKey=K), in its own encoding.
	ct := HeaderValue(rq.Headers, "Content-Type")
	inText(rq.Body, ct, func(b string) string { s.noteBodyURLs(b); return b })
	rq.Body = s.body(rq.Body, ct)
	if len(rq.Form) > 0 { // after the body, whose continuation (the rest of a key) the form holds as names
		rq.Form = s.values(rq.Form)
	}
}

// fixLength keeps a recorded length consistent with a body that changed size.
func fixLength(n *int64, h http.Header, size int) {
	if *n >= 0 {
		*n = int64(size)
	}
	for k := range h {
		if strings.EqualFold(k, "Content-Length") {
			h[k] = []string{strconv.Itoa(size)}
		}
	}
}

// sweepAll sweeps every form of the values found (forms) from body b, in
// UTF-16 or UTF-32 text too (inText).
func (s *scrubber) sweepAll(b, contentType string) string {
	for _, form := range s.forms() {
		b = inText(b, contentType, func(b string) string { return s.sweep(b, form) })
	}
	return b
}

// sweep replaces every occurrence of v in text. If a replacement forms v
// again around the placeholder, later rounds remove it outright, so v never
// survives. A v that is part of a placeholder is replaced only outside the
// placeholders in text, which stay as they are.
func (s *scrubber) sweep(text, v string) string {
	if inPlaceholder(v) {
		return s.sweepAround(text, v)
	}
	for round := 0; strings.Contains(text, v); round++ {
		s.n += strings.Count(text, v)
		repl := s.ph
		if round > 2 {
			repl = ""
		}
		text = strings.ReplaceAll(text, v, repl)
	}
	return text
}

// sweepAround replaces every occurrence of v in text outside atmkit's
// placeholders. v is part of a placeholder, so no replacement forms v
// again outside one.
func (s *scrubber) sweepAround(text, v string) string {
	if !strings.Contains(text, v) {
		return text
	}
	var b strings.Builder
next:
	for len(text) > 0 {
		for _, ph := range placeholders {
			if strings.HasPrefix(text, ph) {
				b.WriteString(ph)
				text = text[len(ph):]
				continue next
			}
		}
		if strings.HasPrefix(text, v) {
			b.WriteString(s.ph)
			s.n++
			text = text[len(v):]
			continue
		}
		b.WriteByte(text[0])
		text = text[1:]
	}
	return b.String()
}

// url scrubs the query string of a URL or request URI, keeping its raw form.
func (s *scrubber) url(u string) string {
	q := strings.IndexByte(u, '?')
	if q < 0 {
		return u
	}
	end := len(u)
	if h := strings.IndexByte(u[q:], '#'); h >= 0 {
		end = q + h
	}
	return u[:q+1] + s.query(u[q+1:end]) + u[end:]
}

// query scrubs name=value pairs joined by & (a query string or a form
// body), matching the key's name ignoring case and URL encoding.
func (s *scrubber) query(raw string) string {
	if raw == "" {
		return raw
	}
	parts := strings.Split(raw, "&")
	changed := false
	for j, p := range parts {
		name, val, ok := strings.Cut(p, "=")
		if !ok || !IsKeyName(name) || val == "" { // an empty key is no secret: kept
			continue
		}
		s.note(val)
		if dv, err := url.QueryUnescape(val); err == nil {
			s.note(dv)
		}
		if dv := wire.URLDecode(val); !strings.Contains(dv, "\uFFFD") {
			s.note(dv) // %uXXXX escapes, which QueryUnescape refuses
		}
		if !s.done(val) {
			parts[j] = name + "=" + s.ph
			s.n++
			changed = true
		}
		if s.continuation(parts[j+1:]) {
			changed = true
		}
	}
	if !changed {
		return raw
	}
	return strings.Join(parts, "&")
}

// continuation replaces the pairs without '=' that follow a key's pair
// (parts), up to the next pair with one: the rest of a key holding '&'
// that a client sent unencoded (strAtmServiceKey=Le&ak-Key), which ASP.NET
// reads as a value without a name (and quotes in its request validation
// error), and which is the key's all the same. A value asking for the
// WSDL or the discovery document (?strAtmServiceKey=K&wsdl) is kept. It
// reports whether it replaced any.
func (s *scrubber) continuation(parts []string) bool {
	if s.mark {
		return false // the key's own pair carries a key rejection's mark
	}
	changed := false
	for j, p := range parts {
		if p == "" || strings.Contains(p, "=") {
			break
		}
		if k, _, _ := asmx.ParseDocsQuery(p); k == asmx.DocsWSDL || k == asmx.DocsDisco {
			break
		}
		s.note(p)
		if dv, err := url.QueryUnescape(p); err == nil {
			s.note(dv)
		}
		if dv := wire.URLDecode(p); !strings.Contains(dv, "\uFFFD") {
			s.note(dv)
		}
		s.nameless = true
		if !s.done(p) {
			parts[j] = s.ph
			s.n++
			changed = true
		}
	}
	return changed
}

// noteForm notes the key values of form body b as ASMX reads them in the
// charset its content type names (asmx.FormText): "Cl%E9" in ISO-8859-1
// is "Clé", "%BA%DB%EE%E7" in ISO-8859-5 "Ключ", which an answer echoes.
func (s *scrubber) noteForm(b, contentType string) {
	t := asmx.FormText(contentType, b)
	if t == b {
		return
	}
	for name, vs := range asmx.ParseQuery(t) {
		if redact.IsParamName(strings.TrimSpace(name)) {
			for _, v := range vs {
				s.note(v)
			}
		}
	}
}

// IsKeyName reports whether a raw (possibly URL-encoded) parameter name is
// strAtmServiceKey, ignoring case as ASP.NET does (redact.IsParamName: an
// s written ſ, an i written ı); a name net/url cannot
// unescape (%uXXXX escapes: "strAtm%u0053erviceKey") is read as ASP.NET
// reads it (wire.URLDecode).
func IsKeyName(raw string) bool {
	name := raw
	if dn, err := url.QueryUnescape(raw); err == nil {
		name = dn
	} else {
		name = wire.URLDecode(raw)
	}
	return redact.IsParamName(strings.TrimSpace(name))
}

func (s *scrubber) values(v url.Values) url.Values {
	out := make(url.Values, len(v))
	for k, vs := range v {
		vs = append([]string(nil), vs...)
		if IsKeyName(k) {
			s.replace(vs, true)
		}
		if s.nameless && s.found[k] && !slices.ContainsFunc(vs, func(v string) bool { return v != "" }) {
			// The rest of a key (continuation), which a parsed form
			// holds as a name without a value.
			out[s.ph] = append(out[s.ph], vs...)
			s.n++
			continue
		}
		out[k] = append(out[k], vs...)
	}
	return out
}

// replace puts the placeholder in place of each of vs not scrubbed
// already; with note, each is noted as a key value first.
func (s *scrubber) replace(vs []string, note bool) {
	for j := range vs {
		if note {
			if vs[j] == "" { // an empty key is no secret: kept
				continue
			}
			s.note(vs[j])
		}
		if !s.done(vs[j]) {
			vs[j] = s.ph
			s.n++
		}
	}
}

// headers returns a copy of h with the credential headers replaced.
func (s *scrubber) headers(h http.Header) http.Header {
	if h == nil {
		return nil
	}
	out := make(http.Header, len(h))
	for k, vs := range h {
		vs = append([]string(nil), vs...)
		if redact.IsCredentialHeader(k) { // replaced whatever they hold
			s.replace(vs, false)
		}
		if IsKeyName(k) { // a header named like the parameter
			s.replace(vs, true)
		}
		for j, v := range vs {
			// A URL holding the key (a Referer, a Location), its =
			// raw or percent-encoded: replaced, or noted and swept.
			if mayNameKey(v) {
				vs[j] = s.pageKeys(v, pageText)
			}
			s.noteEncoded(v)
		}
		out[k] = vs
	}
	return out
}

// body scrubs a request or response body: key elements of any XML, the
// key of a form body, and "strAtmServiceKey" members of JSON; in UTF-16 or
// UTF-32 text too (inText).
func (s *scrubber) body(b, contentType string) string {
	if b == "" {
		return b
	}
	return inText(b, contentType, func(b string) string { return s.textBody(b, contentType) })
}

// textBody is body for text in UTF-8 or an ASCII-compatible encoding.
func (s *scrubber) textBody(b, contentType string) string {
	excerpt := func(v string) string {
		if s.done(v) {
			return v
		}
		s.n++
		return s.ph
	}
	if s.nameless { // the request sent a key's rest as values without a name (continuation)
		b = redact.NamelessExcerpts(b, excerpt)
	}
	if mayNameKey(b) && strings.HasPrefix(strings.ToLower(strings.TrimSpace(contentType)), "multipart/form-data") {
		b = s.multipartForm(b, contentType)
	}
	if !mayNameKey(b) && !redact.HasLetterEscape(b) { // no pattern below can match: most answers
		mt := strings.ToLower(strings.TrimSpace(strings.SplitN(contentType, ";", 2)[0]))
		if !strings.Contains(mt, "html") && !strings.Contains(mt, "xml") && strings.Contains(b, "=") {
			s.noteForm(b, contentType)
			b = s.query(b)
		}
		return b
	}
	// An error of ASP.NET's request validation quotes a cut part of a
	// key ("(strAtmServiceKey=&quot;&lt;bLeak-Key-12...&quot;)"), which
	// no sweep of the key finds.
	b = redact.Excerpts(b, excerpt)
	if strings.Contains(b, "<") {
		if !utf8.ValidString(b) {
			// A body in a single-byte charset (ISO-8859-1): its keys
			// are replaced in its bytes, and noted as text, as ASMX
			// reads it, which an answer echoes.
			t, _ := asmx.SOAPText(contentType, []byte(b))
			for _, sub := range xmlOpenKeyRE.FindAllStringSubmatch(string(t), -1) {
				if strings.TrimSpace(sub[2]) != "" {
					s.noteXML(sub[2])
				}
			}
		}
		b = s.xml(b)
	}
	mt := strings.ToLower(strings.TrimSpace(strings.SplitN(contentType, ";", 2)[0]))
	if f := formatOf(mt); f == pageHTML || s.answer {
		// A page's links and texts; an answer's too, whatever its
		// format: a string result naming a URL, an error's text.
		b = s.pageKeys(b, f)
	}
	switch {
	case strings.Contains(mt, "html"):
	case !strings.Contains(mt, "xml") && strings.Contains(b, "="):
		s.noteForm(b, contentType)
		b = s.query(b)
	}
	// A JSON member, quoted as ASP.NET AJAX's JavaScriptSerializer reads
	// it: {'strAtmServiceKey':'K'}, a bare name, \u escapes in the name.
	b = redact.JSONKeys(b, func(v string, q byte) string {
		s.note(v)
		if d, ok := redact.JSONString(v, q); ok {
			s.note(d)
		}
		if v == "" || s.done(v) {
			return v
		}
		s.n++
		return s.ph
	})
	return b
}

func (s *scrubber) xml(b string) string {
	b = xmlKeyRE.ReplaceAllStringFunc(b, func(m string) string {
		sub := xmlKeyRE.FindStringSubmatch(m)
		if sub[2] == "" { // an empty key is no secret: kept
			return m
		}
		s.noteXML(sub[2])
		if s.done(sub[2]) {
			return m
		}
		s.n++
		return sub[1] + s.ph + sub[3]
	})
	return xmlOpenKeyRE.ReplaceAllStringFunc(b, func(m string) string {
		sub := xmlOpenKeyRE.FindStringSubmatch(m)
		if s.done(sub[2]) || strings.TrimSpace(sub[2]) == "" {
			return m
		}
		s.noteXML(sub[2])
		s.n++
		return sub[1] + s.ph
	})
}

// noteXML notes an element's raw content and its text once unescaped: as
// encoding/xml reads it, and as redact.XMLText does, which reads the
// references of control characters (&#x1;) encoding/xml refuses, as
// .NET's XmlTextReader reads a request's (a key holding them, which an
// answer echoes as &#x1;).
func (s *scrubber) noteXML(raw string) {
	s.note(raw)
	s.note(strings.TrimSpace(raw))
	if t := redact.XMLText(raw); t != raw {
		s.note(t)
		s.note(strings.TrimSpace(t))
	}
	d := xml.NewDecoder(strings.NewReader("<x>" + raw + "</x>"))
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err != nil {
			break
		}
		if cd, ok := tok.(xml.CharData); ok {
			text.Write(cd)
		}
	}
	s.note(text.String())
	s.note(strings.TrimSpace(text.String()))
}

// HeaderValue is h.Get with the name matched ignoring case, for headers
// read from YAML that may not be in canonical form.
func HeaderValue(h http.Header, name string) string {
	if v := h.Get(name); v != "" {
		return v
	}
	for k, vs := range h {
		if strings.EqualFold(k, name) && len(vs) > 0 {
			return vs[0]
		}
	}
	return ""
}

// DropTiming removes what changes every time a question is asked and
// tells nothing about the answer: the response's Date header and the
// request's duration. A cassette recorded again (or rewritten by verify
// --update) then differs where the deployment's answers do, not on every
// interaction; replay serves neither (the mock writes its own Date and
// answers at once).
func DropTiming(i *cassette.Interaction) {
	i.Response.Headers.Del("Date")
	i.Response.Duration = 0
}

// mayNameKey reports whether b may hold the key's parameter name as the
// patterns (xmlKeyRE, htmlKeyRE, redact's JSON member) match it, case-insensitively:
// whether it holds "trAtm" in any case. Of the name's letters only s and k
// fold to letters beyond ASCII (ſ, the Kelvin sign), and "trAtm" has
// neither, so a body without it holds no match; searching for it costs a
// fraction of running the patterns over a long answer.
func mayNameKey(b string) bool {
	for i := 0; i+5 <= len(b); i++ {
		j := strings.IndexAny(b[i:len(b)-4], "tT")
		if j < 0 {
			return false
		}
		i += j
		if b[i+1]|0x20 == 'r' && b[i+2]|0x20 == 'a' && b[i+3]|0x20 == 't' && b[i+4]|0x20 == 'm' {
			return true
		}
	}
	return false
}

package recorded

import (
	"bytes"
	"mime"
	"net/http"
	"strings"

	"github.com/atmkit/atmkit/internal/redact"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Keys a request carries where the service does not read them: a header's
// URL, the path, a multipart form. Each is the client's secret all the
// same, and never reaches the cassette.

// noteEncoded notes the strAtmServiceKey values that v holds outside a
// query (a header's URL, a path), its = raw or percent-encoded once or
// more (redact.EncodedValues): the sweep replaces them.
func (s *scrubber) noteEncoded(v string) {
	if !mayNameKey(v) && !strings.Contains(v, "%") {
		return
	}
	for _, x := range redact.EncodedValues(v) {
		s.note(x)
	}
}

// noteBodyURLs notes the strAtmServiceKey values of the URLs a body holds
// (noteEncoded), a value holding markup or a space left out: the body's
// own key element (<strAtmServiceKey a=">">K</...>) is scrubbed as ASMX
// reads it, and what redact.Values reads after such a name there is no
// URL's.
func (s *scrubber) noteBodyURLs(b string) {
	if !mayNameKey(b) && !strings.Contains(b, "%") {
		return
	}
	for _, x := range redact.EncodedValues(b) {
		if !strings.ContainsAny(x, "<>\"' \t\r\n") {
			s.note(x)
		}
	}
}

// multipartForm replaces the value of every field named strAtmServiceKey
// (any case) of a multipart/form-data body b: ASMX refuses such a form
// ("Request format is invalid"), which does not make the key the client
// sent any less a secret.
func (s *scrubber) multipartForm(b, contentType string) string {
	_, params, err := mime.ParseMediaType(contentType)
	if err != nil || params["boundary"] == "" {
		return b
	}
	delim := "--" + params["boundary"]
	parts := strings.Split(b, delim)
	changed := false
	for j := 1; j < len(parts); j++ {
		p := parts[j]
		// The header ends at the first blank line, CR LF's or LF's.
		sep := "\r\n\r\n"
		i := strings.Index(p, sep)
		if k := strings.Index(p, "\n\n"); k >= 0 && (i < 0 || k < i) {
			sep, i = "\n\n", k
		}
		if i < 0 {
			continue
		}
		if !multipartKeyField(p[:i]) {
			continue
		}
		value := p[i+len(sep):]
		v := strings.TrimSuffix(strings.TrimSuffix(value, "\n"), "\r")
		if v == "" { // an empty key is no secret: kept
			continue
		}
		s.note(v)
		s.note(strings.TrimSpace(v))
		if s.done(v) {
			continue
		}
		s.n++
		parts[j] = p[:i+len(sep)] + s.ph + value[len(v):]
		changed = true
	}
	if !changed {
		return b
	}
	return strings.Join(parts, delim)
}

// multipartKeyField reports whether the header of a multipart part names
// the field strAtmServiceKey (Content-Disposition: form-data;
// name="strAtmServiceKey", any case).
func multipartKeyField(head string) bool {
	for _, line := range strings.Split(head, "\n") {
		name, value, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || !strings.EqualFold(strings.TrimSpace(name), "Content-Disposition") {
			continue
		}
		if _, params, err := mime.ParseMediaType(strings.TrimSpace(value)); err == nil && IsKeyName(params["name"]) {
			return true
		}
	}
	return false
}

// SweepInteraction replaces every literal occurrence of values (keys
// another interaction of the cassette carries, ScrubFound's), in any of
// their forms, in i's request and answer by ph, and returns how many it
// replaced.
func SweepInteraction(i *cassette.Interaction, ph string, values ...string) int {
	s := &scrubber{ph: ph}
	for _, v := range values {
		s.note(v)
	}
	if len(s.found) == 0 {
		return 0
	}
	s.sweepInteraction(i, i.Request.Body, i.Response.Body)
	return s.n
}

// Sweeper returns a function that replaces every literal occurrence of
// values, in any of their forms (as SweepInteraction finds them), in a
// text by ph: for what a listing shows of an interaction (its request
// line, its parameters), the forms found once for all of them.
func Sweeper(ph string, values ...string) func(text string) string {
	s := &scrubber{ph: ph}
	for _, v := range values {
		s.note(v)
	}
	forms := s.forms()
	return func(text string) string {
		for _, f := range forms {
			text = s.sweep(text, f)
		}
		return s.sweepEscaped(text)
	}
}

// sweepEscaped replaces the found values of minSweepLen bytes or more
// that text holds written with escapes other than their literal forms':
// percent escapes (redact.ReplaceEscaped), JSON string escapes
// (redact.ReplaceJSONEscaped: a gateway's JSON writer's \/ or \u002B) and
// XML references (redact.ReplaceXMLEscaped: Python's &#x27;, &#x6B;).
func (s *scrubber) sweepEscaped(text string) string {
	if strings.IndexByte(text, '%') < 0 && strings.IndexByte(text, '\\') < 0 && strings.IndexByte(text, '&') < 0 {
		return text
	}
	var keys []string
	for v := range s.found {
		if len(v) >= minSweepLen && !isPlaceholder(v) {
			keys = append(keys, v)
		}
	}
	// And the residues (formsOf): a run that holds one value's rest,
	// another swept from it, written with escapes (s3cr3t%2dREDACTED);
	// only a text holding ph, which a sweep writes as it is, may hold
	// one. The runs of all of them are replaced in one pass, those that
	// overlap as one.
	if strings.Contains(text, s.ph) {
		keys = append(keys, s.residues(minSweepLen)...)
	}
	out, n := redact.ReplaceEscaped(text, s.ph, keys...)
	s.n += n
	out, n = redact.ReplaceJSONEscaped(out, s.ph, keys...)
	s.n += n
	out, n = redact.ReplaceXMLEscaped(out, s.ph, keys...)
	s.n += n
	return out
}

// ItemFilter returns a test of whether an encoded interaction
// (EncodeItem's) may hold one of values in a form SweepInteraction
// replaces, which reads the item's bytes only: a Recorder sweeps the
// interactions it spooled before a key came of it, and decodes those
// alone. yaml.v3 writes a text as it is but for escapes (in double
// quotes: a control or non-printable character, a double quote and a
// backslash; in single quotes, a doubled apostrophe), line breaks at
// spaces, the indentation of a block's lines, and a text that is not
// UTF-8 as base64 (!!binary). So each form is looked for by its longest
// run of printable ASCII other than those (and that run as a body in
// UTF-16 or UTF-32 writes it), and an item holding a !!binary text
// passes; a form without such a run (a key of characters beyond
// ASCII alone) makes every item pass.
func ItemFilter(values ...string) func(item []byte) bool {
	return ItemFilterWith(nil, values...)
}

// ItemFilterWith is ItemFilter for keys swept together with secrets,
// which the items were swept of as they joined: an item passes if it may
// hold a form of one of keys, or what sweeping a secret left of a key
// holding or overlapping it (residuesOf: s3cr3t-REDACTED, its key's
// runs beside the placeholder). The secrets' own forms, gone from the
// items, do not make one pass.
func ItemFilterWith(secrets []string, keys ...string) func(item []byte) bool {
	s := &scrubber{ph: Placeholder}
	for _, v := range keys {
		s.note(v)
	}
	forms := s.forms()
	// The residues, and their runs outside the placeholder (which most
	// items hold), for the escaped forms.
	var residues []string
	for k := range s.found {
		for _, b := range secrets {
			if len(k) < minSweepLen || len(b) < minSweepLen || k == b {
				continue
			}
			for _, r := range residuesOf(k, b, Placeholder) {
				residues = append(residues, strings.ReplaceAll(r, Placeholder, " "))
				forms = append(forms, formsOfValue(r)...)
			}
		}
	}
	var runs [][]byte
	for _, f := range forms {
		if len(f) < minSweepLen {
			continue
		}
		run := longestPlainRun(strings.ReplaceAll(f, Placeholder, " "))
		if run == "" {
			run = longestPlainRun(f)
		}
		if run == "" {
			return func([]byte) bool { return true }
		}
		// And as a body in UTF-16 or UTF-32 (inText) holds it, which
		// yaml.v3 writes in double quotes, each NUL byte as \0: the run's
		// characters two or four bytes apart, in either byte order.
		chars := strings.Split(run, "")
		runs = append(runs, []byte(run), []byte(strings.Join(chars, `\0`)), []byte(strings.Join(chars, `\0\0\0`)))
	}
	// A value written with other escapes (sweepEscaped: percent or JSON
	// escapes, XML references) keeps its runs of letters and digits as
	// they are, but those a writer escaped too: an item holding a '%', a
	// backslash or a &# passes if it holds one of its runs of minSweepLen or more, or the
	// value has none.
	var escRuns [][]byte
	anyEscape := false
	for v := range s.found {
		if len(v) >= minSweepLen {
			residues = append(residues, v)
		}
	}
	for _, v := range residues {
		alnum := alnumRuns(v)
		for _, run := range alnum {
			escRuns = append(escRuns, []byte(run))
		}
		if len(alnum) == 0 {
			anyEscape = true
		}
	}
	return func(item []byte) bool {
		if bytes.Contains(item, binaryTag) {
			return true
		}
		if bytes.IndexByte(item, '%') >= 0 || bytes.IndexByte(item, '\\') >= 0 || bytes.Contains(item, charRefStart) {
			if anyEscape {
				return true
			}
			for _, r := range escRuns {
				if bytes.Contains(item, r) {
					return true
				}
			}
		}
		for _, r := range runs {
			if bytes.Contains(item, r) {
				return true
			}
		}
		return false
	}
}

// charRefStart starts an XML character reference: an item holding one
// may hold a key written with references other than its forms' (a
// predefined entity for each character that needs one is a form).
var charRefStart = []byte("&#")

// binaryTag is the tag of a text yaml.v3 writes as base64.
var binaryTag = []byte("!!binary")

// alnumRuns returns the runs of ASCII letters and digits of v that are
// minSweepLen bytes or longer.
func alnumRuns(v string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(v); i++ {
		if i < len(v) && (v[i] >= '0' && v[i] <= '9' || v[i]|0x20 >= 'a' && v[i]|0x20 <= 'z') {
			continue
		}
		if i-start >= minSweepLen {
			out = append(out, v[start:i])
		}
		start = i + 1
	}
	return out
}

// longestPlainRun is the longest run of f's bytes that yaml.v3 writes as
// they are in every style: printable ASCII but the space, the double
// quote, the apostrophe and the backslash.
func longestPlainRun(f string) string {
	best, start := "", 0
	for i := 0; i <= len(f); i++ {
		if i < len(f) && f[i] > ' ' && f[i] < 0x7f && f[i] != '"' && f[i] != '\'' && f[i] != '\\' {
			continue
		}
		if i-start > len(best) {
			best = f[start:i]
		}
		start = i + 1
	}
	return best
}

// sweepInteraction sweeps every literal occurrence of the values found
// from i, and fixes the recorded lengths of the bodies that changed since
// they were oldBody and oldResp.
func (s *scrubber) sweepInteraction(i *cassette.Interaction, oldBody, oldResp string) {
	rq, rs := &i.Request, &i.Response
	for _, form := range s.forms() {
		rq.URL = s.sweep(rq.URL, form)
		rq.RequestURI = s.sweep(rq.RequestURI, form)
		rq.Body = inText(rq.Body, HeaderValue(rq.Headers, "Content-Type"), func(b string) string { return s.sweep(b, form) })
		rq.Host = s.sweep(rq.Host, form)
		rs.Status = s.sweep(rs.Status, form) // a gateway's reason phrase may quote what it refused
		for _, vs := range rq.Form {
			for j := range vs {
				vs[j] = s.sweep(vs[j], form)
			}
		}
		for _, h := range []http.Header{rq.Headers, rs.Headers, rq.Trailer, rs.Trailer} {
			for _, vs := range h {
				for j := range vs {
					vs[j] = s.sweep(vs[j], form)
				}
			}
		}
	}
	rs.Body = s.sweepAll(rs.Body, HeaderValue(rs.Headers, "Content-Type"))
	// And written with other escapes than the literal forms' (%2f, a
	// '/' left as it is): decoded, where a text holds an escape.
	rq.URL = s.sweepEscaped(rq.URL)
	rq.RequestURI = s.sweepEscaped(rq.RequestURI)
	rs.Status = s.sweepEscaped(rs.Status)
	rq.Body = inText(rq.Body, HeaderValue(rq.Headers, "Content-Type"), s.sweepEscaped)
	for _, h := range []http.Header{rq.Headers, rs.Headers, rq.Trailer, rs.Trailer} {
		for _, vs := range h {
			for j := range vs {
				vs[j] = s.sweepEscaped(vs[j])
			}
		}
	}
	rs.Body = inText(rs.Body, HeaderValue(rs.Headers, "Content-Type"), s.sweepEscaped)
	if rq.Body != oldBody {
		fixLength(&rq.ContentLength, rq.Headers, len(rq.Body))
	}
	if rs.Body != oldResp {
		fixLength(&rs.ContentLength, rs.Headers, len(rs.Body))
	}
}

package mockserver

import (
	"bytes"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/redact"
)

// An entry's request and answer are masked when the entry is first read in
// full (journal.list), outside the journal's lock, and the result replaces
// what was kept, so the keys leave the journal's memory then. The masking
// is atmkit's one rule (internal/redact): every strAtmServiceKey value of a
// query, form, XML or JSON text is masked, and every literal occurrence,
// raw or escaped, of the configured keys, of the call's key and of every
// strAtmServiceKey value the request holds (in its path, query, header
// fields and body), and of the keys the journal's other calls carried
// (journal_cross.go); the credential headers read REDACTED, as cassettes
// write them. A body is decoded to text first (UTF-16 and the content
// type's charset as the mock reads a SOAP request), masked whole as kept,
// and only then cut to what the journal shows; a body kept cut that ends
// with the start of a key loses that start too.

// shownCall is a call's request and answer once masked and cut, as every
// later read of the entry shows them.
type shownCall struct {
	path, query string
	req, resp   JournalMessage
	// cross are the keys of the journal's calls it was masked with
	// (journal_cross.go): those gathered since are masked in it when it
	// is next read.
	cross []string
}

// held is what sh holds, in the bytes the journal's bound counts.
func (sh *shownCall) held() int {
	return len(sh.path) + len(sh.query) + headerBytes(sh.req.Header) + len(sh.req.Body) +
		headerBytes(sh.resp.Header) + len(sh.resp.Body)
}

// clone returns m with a header of its own.
func (m JournalMessage) clone() JournalMessage {
	m.Header = m.Header.Clone()
	return m
}

// show masks and cuts the request and answer kept in r; cross are the
// keys of the journal's calls (journal_cross.go), masked too where r
// holds them.
func (j *journal) show(r *journalRecord, cross []crossKey) *shownCall {
	k := &r.kept
	if k.reqHead == nil { // nothing kept
		return &shownCall{path: redact.Text(r.Path, append(r.callKeys(j.keys), crossIn(cross, textField{s: r.Path})...)...)}
	}
	reqText, reqCharset := bodyText(k.reqBody, k.reqHead.Get("Content-Type"), k.reqSize)
	var respHead http.Header
	var respBody []byte
	var respText, respCharset string
	if k.answered {
		respHead, respBody = k.respHead.header(), k.respBody
		if k.fromSet && r.call != nil && j.encode != nil {
			// No more than was written: a client may have gone away.
			respBody = j.encode(r.call, int(min(int64(bodyRoom(j.bodyMax, headerBytes(respHead))), k.respSize)))
		}
		respText, respCharset = bodyText(respBody, respHead.Get("Content-Type"), k.respSize)
	}
	keys := j.keys
	if len(cross) > 0 {
		fields := []textField{{s: r.Path, encoded: true, cut: k.headCut&cutPath != 0},
			{s: k.query, encoded: true, cut: k.headCut&cutQuery != 0}, {s: k.host, cut: k.headCut&cutHost != 0},
			{s: reqText, cut: int64(len(k.reqBody)) < k.reqSize}, {s: respText, cut: int64(len(respBody)) < k.respSize}}
		for _, h := range []http.Header{k.reqHead, respHead} {
			for name, vs := range h {
				fields = append(fields, textField{s: name})
				for _, v := range vs {
					fields = append(fields, textField{s: v, encoded: true})
				}
			}
		}
		keys = append(slices.Clip(keys), crossIn(cross, fields...)...)
	}
	keys = callValues(r, reqText, keys, j.reqEncoding)

	half := j.bodyMax / 2
	sh := &shownCall{path: showHead(r.Path, keys, k.headCut&cutPath != 0), query: showHead(k.query, keys, k.headCut&cutQuery != 0)}
	host := showHead(k.host, keys, k.headCut&cutHost != 0)
	sh.req = JournalMessage{Header: showHeader(k.reqHead, host, keys), Size: k.reqSize, HeaderCut: k.headCut != 0, Charset: reqCharset}
	if head := len(sh.path) + len(sh.query) + headerBytes(sh.req.Header); head > half {
		// Masks may be longer than what they replace: cut again.
		if len(sh.path) > half {
			sh.path = showHead(cutText(sh.path, half), keys, true)
		}
		if room := half - len(sh.path); len(sh.query) > room {
			sh.query = showHead(cutText(sh.query, room), keys, true)
		}
		sh.req.Header, _ = fitHeader(sh.req.Header, half-len(sh.path)-len(sh.query))
		sh.req.HeaderCut = true
	}
	head := len(sh.path) + len(sh.query) + headerBytes(sh.req.Header)
	sh.req.Body, sh.req.Cut = showBody(reqText, keys, int64(len(k.reqBody)) < k.reqSize, bodyRoom(j.bodyMax, head))

	if !k.answered {
		return sh
	}
	sh.resp = JournalMessage{Header: showHeader(respHead, "", keys), Size: k.respSize, HeaderCut: k.respCut, Charset: respCharset}
	if headerBytes(sh.resp.Header) > half {
		sh.resp.Header, _ = fitHeader(sh.resp.Header, half)
		sh.resp.HeaderCut = true
	}
	sh.resp.Body, sh.resp.Cut = showBody(respText, keys, int64(len(respBody)) < k.respSize,
		bodyRoom(j.bodyMax, headerBytes(sh.resp.Header)))
	return sh
}

// showHead masks keys in s, a path, query or host; cut: s was cut short,
// so an end that starts a key is masked too (maskTail), in the same room.
func showHead(s string, keys []string, cut bool) string {
	m := redact.Encoded(s, keys...) // a query's value may be a URL holding a key, percent-encoded
	if !cut {
		return m
	}
	if limit := len(s) - maskRoom(keys); len(m) > limit {
		m = cutText(m, limit)
	}
	return maskTail(m, keys)
}

// cutText is s cut to at most n bytes, not inside a character.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n = max(n, 0)
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// callValues are the values masked in r's request and answer: keys (the
// configured ones), the call's key, and every strAtmServiceKey value of the
// request's path, query, header fields and body text (a query's and a
// form's also as read in the deployment's requestEncoding or the form's
// charset), each once.
func callValues(r *journalRecord, body string, keys []string, enc asmx.RequestEncoding) []string {
	k := &r.kept
	out := slices.Clone(r.callKeys(keys))
	out = append(out, redact.Values(r.Path)...)
	out = append(out, redact.EncodedValues(k.query)...)
	ct := k.reqHead.Get("Content-Type")
	for _, withBody := range []bool{false, true} {
		// Read in requestEncoding (or, for a GET with a body, which the
		// journal does not keep, in its charset): the key "Cl%E9" of a
		// deployment whose requestEncoding is ISO-8859-1 is "Clé", which
		// an answer echoes.
		if q := enc.Query(ct, withBody, k.query); q != k.query {
			out = append(out, redact.Values(q)...)
		}
	}
	out = append(out, redact.Values(body)...)
	if isForm(ct) {
		// A form is read in the charset its content type names, else in
		// requestEncoding (asmx.RequestEncoding.Form): its key "Cl%E9" in
		// ISO-8859-1 is "Clé", which an answer echoes.
		out = append(out, redact.Values(enc.Form(ct, string(k.reqBody)))...)
	}
	for name, vs := range k.reqHead {
		for _, v := range vs {
			if strings.EqualFold(name, asmx.ParamKey) {
				out = append(out, v, strings.TrimSpace(v))
			}
			// A header may hold a key percent-encoded, name and all
			// (a Referer's URL in a query, "strAtmServiceKey%3DKey").
			out = append(out, redact.EncodedValues(v)...)
		}
	}
	out = slices.DeleteFunc(out, func(v string) bool { return v == "" })
	slices.Sort(out)
	return slices.Compact(out)
}

// isForm reports whether ct is a form's content type.
func isForm(ct string) bool {
	base, _, _ := strings.Cut(ct, ";")
	return strings.EqualFold(strings.TrimSpace(base), asmx.ContentTypeForm)
}

// showHeader returns h (and host, as a Host field) with the credential
// fields replaced by redact.Placeholder, a field named like the key by
// its mask, and keys masked in the other names and values, percent-encoded
// too (redact.Encoded).
func showHeader(h http.Header, host string, keys []string) http.Header {
	out := make(http.Header, len(h)+1)
	if host != "" {
		out["Host"] = []string{redact.Text(host, keys...)}
	}
	for name, vs := range h {
		shown := make([]string, len(vs))
		for i, v := range vs {
			switch {
			case redact.IsCredentialHeader(name):
				shown[i] = redact.Placeholder
			case strings.EqualFold(name, asmx.ParamKey):
				shown[i] = redact.Key(v)
			default:
				shown[i] = redact.Encoded(v, keys...)
			}
		}
		n := redact.Text(name, keys...)
		out[n] = append(out[n], shown...)
	}
	return out
}

// bodyText returns a body's first bytes b as UTF-8 text, and the encoding
// it was decoded from: UTF-8 as it is; otherwise as the mock reads a SOAP
// request of content type ct (a charset, a byte order mark, UTF-16 or
// UTF-32 told by the first bytes), or as UTF-16 when every other byte is
// zero; bytes that decode to nothing become U+FFFD. size is the body's
// whole length: a body kept cut loses a character cut in two.
func bodyText(b []byte, ct string, size int64) (string, string) {
	if int64(len(b)) < size && !utf8.Valid(b) {
		for n := 1; n < utf8.UTFMax && n <= len(b); n++ {
			if utf8.Valid(b[:len(b)-n]) {
				b = b[:len(b)-n]
				break
			}
		}
	}
	if utf8.Valid(b) && bytes.IndexByte(b, 0) < 0 {
		return string(b), ""
	}
	text, from := asmx.SOAPText(ct, b)
	if bytes.IndexByte(text, 0) >= 0 {
		if t, name, ok := guessUTF16(b); ok {
			text, from = t, name
		}
	}
	return strings.ToValidUTF8(string(text), "\uFFFD"), from
}

// guessUTF16 decodes b as UTF-16 when its zero bytes all sit at odd
// offsets (little-endian) or all at even ones (big-endian), and make up a
// quarter of it at least: text mostly ASCII in UTF-16 without a byte order
// mark or a charset.
func guessUTF16(b []byte) ([]byte, string, bool) {
	var even, odd int
	for i, c := range b {
		if c == 0 {
			if i%2 == 0 {
				even++
			} else {
				odd++
			}
		}
	}
	order, name := unicode.LittleEndian, "utf-16le"
	switch {
	case odd*4 >= len(b) && even == 0:
	case even*4 >= len(b) && odd == 0:
		order, name = unicode.BigEndian, "utf-16be"
	default:
		return nil, "", false
	}
	t, err := unicode.UTF16(order, unicode.IgnoreBOM).NewDecoder().Bytes(b)
	if err != nil {
		return nil, "", false
	}
	return t, name, true
}

// showBody masks text, the body's first bytes as kept (keptCut: not the
// whole body), and cuts the result to room bytes; cut reports the body is
// shown cut. A text cut (as kept, or here) that ends with the start of a
// key ends with the key's mask instead, in room still.
func showBody(text string, keys []string, keptCut bool, room int) (string, bool) {
	m := redact.Text(text, keys...)
	if !keptCut && len(m) <= room {
		return m, false
	}
	return maskTail(cutText(m, room-maskRoom(keys)), keys), true
}

// maskRoom is the length of the longest mask of keys.
func maskRoom(keys []string) int {
	n := 0
	for _, k := range keys {
		n = max(n, len(redact.Key(k)))
	}
	return n
}

// maskTail masks the end of a text cut short when it is the start of a
// key in one of the forms redact masks: the rest was cut off, so the key
// could not be found whole. The longest such start is replaced by the
// key's mask.
func maskTail(s string, keys []string) string {
	best, mask := 0, ""
	for _, k := range keys {
		// The forms' first len(s) bytes are those of the forms of the
		// key's first len(s) bytes (and a character cut at their end):
		// a key of megabytes is not escaped whole for each text.
		for _, f := range redact.Forms(cutText(k, len(s)+utf8.UTFMax)) {
			for n := min(len(f)-1, len(s)); n > best; n-- {
				if s[len(s)-n:] == f[:n] {
					best, mask = n, redact.Key(k)
					break
				}
			}
		}
	}
	if best == 0 {
		return s
	}
	return s[:len(s)-best] + mask
}

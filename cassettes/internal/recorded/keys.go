package recorded

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/redact"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// MarkKey sets the key placeholder of a scrubbed interaction's request to
// ph (Placeholder or RejectedPlaceholder), wherever the key is sent.
func MarkKey(i *cassette.Interaction, ph string) {
	s := &scrubber{ph: ph, mark: true}
	rq := &i.Request
	old := rq.Body
	s.request(rq)
	if rq.Body != old {
		rq.Headers = rq.Headers.Clone() // the map may be shared with the copy replaced
		fixLength(&rq.ContentLength, rq.Headers, len(rq.Body))
	}
}

// Sweep replaces every literal occurrence of values (in each encoding they
// may appear in, and written with other escapes: sweepEscaped) in an
// answer's body, headers, trailers and status line by ph, whatever the
// answer echoes, and the credential headers. The values are swept
// together, the longest first, then what one leaves of another that holds
// or overlaps it (formsOf): a secret holding the key is swept whole.
func Sweep(r *cassette.Response, ph string, values ...string) {
	s := &scrubber{ph: ph}
	for _, v := range values {
		if v != "" {
			s.note(v)
		}
	}
	if len(s.found) > 0 {
		ct := HeaderValue(r.Headers, "Content-Type")
		for _, form := range s.forms() {
			r.Body = inText(r.Body, ct, func(b string) string { return s.sweep(b, form) })
			r.Status = s.sweep(r.Status, form) // a gateway's reason phrase may quote what it refused
			for _, h := range []http.Header{r.Headers, r.Trailer} {
				for _, vs := range h {
					for j := range vs {
						vs[j] = s.sweep(vs[j], form)
					}
				}
			}
		}
		r.Body = inText(r.Body, ct, s.sweepEscaped)
		r.Status = s.sweepEscaped(r.Status)
		for _, h := range []http.Header{r.Headers, r.Trailer} {
			for _, vs := range h {
				for j := range vs {
					vs[j] = s.sweepEscaped(vs[j])
				}
			}
		}
	}
	r.Headers = s.headers(r.Headers)
}

// PutKeyURL puts key in place of ph as the value of strAtmServiceKey in
// the query of a URL.
func PutKeyURL(u, ph, key string) string {
	q := strings.IndexByte(u, '?')
	if q < 0 {
		return u
	}
	return u[:q+1] + putKeyQuery(u[q+1:], ph, key)
}

// putKeyQuery puts key in place of ph as the value of strAtmServiceKey in
// a query string or form body, keeping everything else as it is.
func putKeyQuery(raw, ph, key string) string {
	parts := strings.Split(raw, "&")
	for n, p := range parts {
		name, val, ok := strings.Cut(p, "=")
		if !ok || !IsKeyName(name) {
			continue
		}
		if dv, err := url.QueryUnescape(val); err == nil && dv == ph {
			parts[n] = name + "=" + url.QueryEscape(key)
		}
	}
	return strings.Join(parts, "&")
}

// PutKeyBody puts key in place of ph as the service key of a recorded
// request body: a strAtmServiceKey element of XML, the key of a form
// body, a "strAtmServiceKey" member of JSON.
func PutKeyBody(b, contentType, ph, key string) string {
	if b == "" {
		return b
	}
	return inText(b, contentType, func(b string) string { return putKeyText(b, contentType, ph, key) })
}

// putKeyText is PutKeyBody for text in UTF-8 or an ASCII-compatible encoding.
func putKeyText(b, contentType, ph, key string) string {
	if !strings.Contains(b, ph) {
		return b
	}
	if strings.Contains(b, "<") {
		b = xmlKeyRE.ReplaceAllStringFunc(b, func(m string) string {
			sub := xmlKeyRE.FindStringSubmatch(m)
			if strings.TrimSpace(sub[2]) != ph {
				return m
			}
			return sub[1] + string(asmx.AppendEscaped(nil, key)) + sub[3]
		})
	}
	mt := strings.ToLower(strings.TrimSpace(strings.SplitN(contentType, ";", 2)[0]))
	if !strings.Contains(mt, "xml") && strings.Contains(b, "=") {
		b = putKeyQuery(b, ph, key)
	}
	return redact.JSONKeys(b, func(v string, q byte) string {
		if v != ph {
			return v
		}
		j, _ := json.Marshal(key)
		inner := string(j[1 : len(j)-1])
		if q == '\'' { // a single-quoted string: " as it is, ' escaped
			inner = strings.ReplaceAll(strings.ReplaceAll(inner, `\"`, `"`), "'", `\'`)
		}
		return inner
	})
}

package mockserver

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// The service keys of the masking tests: a plain one, one that every
// encoding writes differently, and one the mock is not configured with.
const (
	plainKey  = "Leak-Key-4711"
	escapeKey = `Leak&Key<4711 "x"/+`
	otherKey  = "Other-Key-0815"
)

// keyForms are the ways a text can hold k literally: as it is,
// percent-encoded, XML-escaped, JSON-escaped, and as ASP.NET's HtmlEncode
// writes it; a key beyond ASCII also as %u escapes and, in ISO-8859-1,
// percent-encoded.
func keyForms(k string) []string {
	j, _ := json.Marshal(k)
	forms := []string{k, url.QueryEscape(k), url.PathEscape(k), html.EscapeString(k),
		strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(k), string(j[1 : len(j)-1]), asmx.HTMLEncode(k)}
	if u := mocktest.PercentU(k); u != url.QueryEscape(k) {
		forms = append(forms, u)
	}
	if l, err := charmap.ISO8859_1.NewEncoder().String(k); err == nil && l != k {
		forms = append(forms, url.QueryEscape(l))
	}
	return forms
}

// leaks returns the forms of keys that s holds.
func leaks(s string, keys ...string) []string {
	var out []string
	for _, k := range keys {
		for _, f := range keyForms(k) {
			if strings.Contains(s, f) {
				out = append(out, f)
			}
		}
	}
	return out
}

// utf16LE encodes s as UTF-16, little-endian.
func utf16LE(s string) string {
	var b []byte
	for _, u := range utf16.Encode([]rune(s)) {
		b = append(b, byte(u), byte(u>>8))
	}
	return string(b)
}

// xmlEscaped writes v as the text of an element.
func xmlEscaped(v string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(v)
}

// provincesRequest is a SOAP request of ReturnProvinces with the key
// written in body as the caller wrote it.
func provincesRequest(t *testing.T, base, ctype, body string) *http.Request {
	t.Helper()
	req := mustRequest(t, "POST", base+asmx.ServicePath, body)
	req.Header.Set("Content-Type", ctype)
	req.Header.Set("SOAPAction", `"`+testNS+`/ReturnProvinces"`)
	return req
}

func provincesEnvelope(key string, extra string) string {
	return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + asmx.NamespaceSOAP11 +
		`"><soap:Body><ReturnProvinces xmlns="` + testNS + `"><strAtmServiceKey>` + key +
		`</strAtmServiceKey>` + extra + `</ReturnProvinces></soap:Body></soap:Envelope>`
}

// adminGet reads an admin endpoint's body.
func adminGet(t *testing.T, url string) string {
	t.Helper()
	status, _, b := mocktest.Get(t, url)
	if status != http.StatusOK {
		t.Fatalf("GET %s: got %d, want 200: %s", url, status, b)
	}
	return string(b)
}

// newestShown is ts's newest journal entry and what the admin API shows
// of it: the entry alone (one) and the list of the newest (all).
func newestShown(t *testing.T, ts *TestServer) (e JournalEntry, one, all string) {
	t.Helper()
	es := ts.Journal(RequestFilter{Limit: 1})
	if len(es) != 1 {
		t.Fatalf("journal: got %d entries, want 1", len(es))
	}
	return es[0], adminGet(t, ts.URL+"/__admin/requests/"+strconv.FormatUint(es[0].Seq, 10)), adminGet(t, ts.URL+"/__admin/requests?limit=1")
}

// holdsNone fails the test for each of texts (the journal's, the log's)
// that holds one of the key's forms.
func holdsNone(t *testing.T, texts, forms []string) {
	t.Helper()
	for _, text := range texts {
		for _, f := range forms {
			if strings.Contains(text, f) {
				t.Errorf("journal or log holds the key as %q: %s", f, text)
			}
		}
	}
}

// jsonStrings returns every string of a JSON text, keys of objects included.
func jsonStrings(t *testing.T, text string) []string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatalf("admin API answer is not JSON: %v: %s", err, text)
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for k, x := range v {
				out = append(out, k)
				walk(x)
			}
		}
	}
	walk(v)
	return out
}

// TestJournalMasksKeysInEveryForm sends the key in every form a request
// can carry it, over loopback, and reads each call back through the admin
// API: no form of any key appears in its answer, while the rest of the
// request does.
func TestJournalMasksKeysInEveryForm(t *testing.T) {
	t.Parallel()
	logged := &recordingHandler{}
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys(plainKey, escapeKey), WithLogger(slog.New(logged)))
	provinces := paramsFor(asmx.OpReturnProvinces, plainKey)
	escaped := paramsFor(asmx.OpReturnProvinces, escapeKey)
	address := paramsFor(asmx.OpReturnAtmSearchByAddress, escapeKey)
	tests := []struct {
		name string
		req  func() *http.Request
		// shown is a text the journal shows of the request: it is there,
		// only the key is not.
		shown string
	}{
		{"GET query", func() *http.Request { return callRequest(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, escaped) }, "strAtmServiceKey=Le****"},
		{"GET query, every byte percent-encoded", func() *http.Request {
			var q strings.Builder
			for _, c := range []byte(plainKey) {
				fmt.Fprintf(&q, "%%%02X", c)
			}
			return mustRequest(t, "GET", ts.URL+asmx.ServicePath+"/ReturnProvinces?strAtmServiceKey="+q.String(), "")
		}, "strAtmServiceKey=Le****"},
		{"GET query, the name percent-encoded", func() *http.Request {
			return mustRequest(t, "GET", ts.URL+asmx.ServicePath+"/ReturnProvinces?%73trAtmServiceKey="+url.QueryEscape(escapeKey), "")
		}, "%73trAtmServiceKey=Le****"},
		{"JSON path query", func() *http.Request {
			return callRequest(t, ts.URL, asmx.JSON, asmx.OpReturnAtmSearchByAddress, address)
		}, "strCity=Halifax"},
		{"POST form", func() *http.Request { return callRequest(t, ts.URL, asmx.HTTPPost, asmx.OpReturnProvinces, escaped) }, "strAtmServiceKey=Le****"},
		{"SOAP 1.1", func() *http.Request { return callRequest(t, ts.URL, asmx.SOAP11, asmx.OpReturnProvinces, provinces) }, "<strAtmServiceKey>Le****</strAtmServiceKey>"},
		{"SOAP 1.2", func() *http.Request { return callRequest(t, ts.URL, asmx.SOAP12, asmx.OpReturnProvinces, provinces) }, "<ReturnProvinces"},
		{"SOAP, XML-escaped key", func() *http.Request {
			return provincesRequest(t, ts.URL, asmx.ContentTypeSOAP11, provincesEnvelope(xmlEscaped(escapeKey), ""))
		}, "<strAtmServiceKey>Le****</strAtmServiceKey>"},
		{"SOAP, key as character references", func() *http.Request {
			return provincesRequest(t, ts.URL, asmx.ContentTypeSOAP11, provincesEnvelope("&#76;eak-Key-4711", "<!-- "+plainKey+" -->"))
		}, "<!-- Le**** -->"},
		{"SOAP in UTF-16, charset", func() *http.Request {
			return provincesRequest(t, ts.URL, "text/xml; charset=utf-16", utf16LE(strings.Replace(provincesEnvelope(xmlEscaped(escapeKey), ""), "utf-8", "utf-16", 1)))
		}, "<strAtmServiceKey>Le****</strAtmServiceKey>"},
		{"SOAP in UTF-16, byte order mark", func() *http.Request {
			return provincesRequest(t, ts.URL, "text/xml", "\xff\xfe"+utf16LE(provincesEnvelope(plainKey, "")))
		}, "<soap:Body>"},
		{"SOAP 1.2 in UTF-16, detected", func() *http.Request {
			req := provincesRequest(t, ts.URL, "application/soap+xml", utf16LE(strings.Replace(strings.Replace(provincesEnvelope(plainKey, ""),
				`<?xml version="1.0" encoding="utf-8"?>`, "", 1), asmx.NamespaceSOAP11, asmx.NamespaceSOAP12, 1)))
			req.Header.Del("SOAPAction")
			return req
		}, "<ReturnProvinces"},
		{"form in UTF-16, no charset", func() *http.Request {
			req := mustRequest(t, "POST", ts.URL+asmx.ServicePath+"/ReturnProvinces", utf16LE("strAtmServiceKey="+plainKey))
			req.Header.Set("Content-Type", asmx.ContentTypeForm)
			return req
		}, "strAtmServiceKey=Le****"},
		{"key elsewhere in the body", func() *http.Request {
			return provincesRequest(t, ts.URL, asmx.ContentTypeSOAP11, provincesEnvelope(plainKey, "<note>"+plainKey+" "+url.QueryEscape(escapeKey)+"</note>"))
		}, "<note>Le**** Le****</note>"},
		{"a key the mock does not accept", func() *http.Request {
			return callRequest(t, ts.URL, asmx.SOAP11, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, otherKey))
		}, "<strAtmServiceKey>Ot****</strAtmServiceKey>"},
		{"a key in CDATA, a body that does not decode", func() *http.Request {
			return provincesRequest(t, ts.URL, asmx.ContentTypeSOAP11, provincesEnvelope("<![CDATA["+otherKey+"]]>", "<x>"))
		}, "<strAtmServiceKey>Ot****</strAtmServiceKey><x>"},
		{"a key split by a comment, a body that does not decode", func() *http.Request {
			return provincesRequest(t, ts.URL, asmx.ContentTypeSOAP11, provincesEnvelope("Other<!-- c -->-Key-0815", "<x>"))
		}, "<strAtmServiceKey>Ot****</strAtmServiceKey><x>"},
		{"a second key element, its value elsewhere", func() *http.Request {
			return provincesRequest(t, ts.URL, asmx.ContentTypeSOAP11, provincesEnvelope(plainKey, "<strAtmServiceKey>"+otherKey+"</strAtmServiceKey><note>"+otherKey+"</note>"))
		}, "<note>Ot****</note>"},
		{"key in the path", func() *http.Request {
			return mustRequest(t, "GET", ts.URL+asmx.ServicePath+"/"+url.PathEscape(escapeKey)+"?strAtmServiceKey="+otherKey, "")
		}, ""},
		{"the parameter in the path, echoed by the error", func() *http.Request {
			return mustRequest(t, "GET", ts.URL+asmx.ServicePath+"/ReturnProvinces/strAtmServiceKey="+otherKey, "")
		}, "/ReturnProvinces/strAtmServiceKey=Ot****"},
		{"credential and key headers", func() *http.Request {
			req := callRequest(t, ts.URL, asmx.SOAP11, asmx.OpReturnProvinces, provinces)
			req.Header.Set("Authorization", "Bearer "+otherKey)
			req.Header.Set("Cookie", "session=s3cr3t-cookie")
			req.Header.Set("X-Api-Key", plainKey)
			req.Header.Set("strAtmServiceKey", otherKey)
			req.Header.Set("Referer", "http://app.example/?strAtmServiceKey="+otherKey)
			return req
		}, "REDACTED"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			do(t, tt.req())
			// The newest entry is this call's: the subtests run one by one.
			e, one, all := newestShown(t, ts)
			for _, text := range []string{one, all} {
				if got := leaks(text, plainKey, escapeKey, otherKey, "s3cr3t-cookie"); got != nil {
					t.Errorf("admin API answer holds %q: %s", got, text)
				}
				for _, s := range jsonStrings(t, text) {
					if got := leaks(s, plainKey, escapeKey, otherKey, "s3cr3t-cookie"); got != nil {
						t.Errorf("admin API string %q holds %q", s, got)
					}
				}
			}
			if e.Request.Header == nil || e.Response.Header == nil {
				t.Fatalf("entry: got request %+v, response %+v, want both kept", e.Request, e.Response)
			}
			shown := e.Path + "?" + e.Query + "\n" + e.Request.Body + fmt.Sprint(e.Request.Header)
			if !strings.Contains(shown, tt.shown) {
				t.Errorf("journal: got %q, want it to show %q", shown, tt.shown)
			}
			// The request log says what the journal says: no key either.
			for _, v := range logged.take() {
				if got := leaks(v, plainKey, escapeKey, otherKey); got != nil {
					t.Errorf("the request log holds %q: %s", got, v)
				}
			}
		})
	}
}

// recordingHandler is a slog.Handler that keeps the text of every record's
// message and attribute values as logged, unquoted.
type recordingHandler struct {
	mu     sync.Mutex
	values []string
}

func (h *recordingHandler) Enabled(context.Context, slog.Level) bool { return true }

func (h *recordingHandler) Handle(_ context.Context, r slog.Record) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.values = append(h.values, r.Message)
	r.Attrs(func(a slog.Attr) bool {
		h.values = append(h.values, a.Key+"="+a.Value.String())
		return true
	})
	return nil
}

func (h *recordingHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *recordingHandler) WithGroup(string) slog.Handler      { return h }

// take returns the values logged since the last take.
func (h *recordingHandler) take() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := h.values
	h.values = nil
	return out
}

// TestJournalHeaders checks the credential headers read as cassettes write
// them, and the rest as sent.
func TestJournalHeaders(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	req := callRequest(t, ts.URL, asmx.SOAP11, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, plainKey))
	req.Header.Set("Authorization", "Basic dXNlcjpwYXNz")
	req.Header.Set("Proxy-Authorization", "Basic cHJveHk6cGFzcw==")
	req.Header.Add("Cookie", "a=1")
	req.Header.Add("Cookie", "b=2")
	req.Header.Set("X-Trace", "t-1")
	do(t, req)
	e := ts.Journal(RequestFilter{})[0]
	h := e.Request.Header
	for name, want := range map[string][]string{
		"Authorization": {"REDACTED"}, "Proxy-Authorization": {"REDACTED"}, "Cookie": {"REDACTED", "REDACTED"},
		"X-Trace": {"t-1"}, "Soapaction": {`"` + testNS + `/ReturnProvinces"`}, "Content-Type": {asmx.ContentTypeSOAP11},
		"Host": {strings.TrimPrefix(ts.URL, "http://")},
	} {
		if fmt.Sprint(h[name]) != fmt.Sprint(want) {
			t.Errorf("request header %s: got %q, want %q", name, h[name], want)
		}
	}
	if got := e.Response.Header.Get("Content-Type"); got != asmx.ContentTypeSOAP11 {
		t.Errorf("answer's Content-Type: got %q, want %q", got, asmx.ContentTypeSOAP11)
	}
}

// FuzzJournalMask sends whatever body (or query) with a configured key
// written into it in any form, in UTF-16 or not, through the handler with
// a journal keeping few bytes, and reads the call back: the key is in none
// of the journal's texts, in none of its forms, and a body shown cut does
// not end with the start of one.
func FuzzJournalMask(f *testing.F) {
	f.Add(provincesEnvelope("{k}", "<note>{q} {x} {j}</note>"), "Leak-Key-4711", uint8(0), uint16(300))
	f.Add(provincesEnvelope("{x}", ""), `Leak&Key<4711 "x"`, uint8(1), uint16(64))
	f.Add("strAtmServiceKey={q}&strCity={k}", "form-key-99", uint8(2), uint16(40))
	f.Add("strAtmServiceKey={q}&x={k}{k}", "query/key?1", uint8(3), uint16(1000))
	f.Add(provincesEnvelope("{k}", ""), "utf16-key-1", uint8(4), uint16(200))
	f.Add(`{"strAtmServiceKey":"{j}"}`, `json"key\1`, uint8(5), uint16(30))
	f.Add("strAtmServiceKey={l}&strCity={u}", "Clé-秘密-1", uint8(6), uint16(300))
	f.Add("strAtmServiceKey={l}%3Cb", "Fálsé-key", uint8(6), uint16(2000))
	f.Add("strAtmServiceKey={u}%3Cb&x={k}", "Ключ-1234", uint8(3), uint16(2000))
	f.Fuzz(func(t *testing.T, tmpl, key string, mode uint8, max uint16) {
		if utf8.RuneCountInString(key) < 6 || len(key) > 64 || !utf8.ValidString(key) || strings.ContainsAny(key, "*") || strings.ContainsFunc(key, func(r rune) bool {
			return r < 0x20 || r >= 0x7f && r < 0xa0 || r == utf8.RuneError || unicode.IsSpace(r)
		}) {
			return // a key of printable characters, masked wherever it appears (redact.MinLiteral)
		}
		s, err := New(WithDataset(smallDataset()), WithKeys(key), WithJournalBodyMax(int(max%2048)+16))
		if err != nil {
			t.Fatal(err)
		}
		j, _ := json.Marshal(key)
		latin1, err := charmap.ISO8859_1.NewEncoder().String(key)
		if err != nil {
			latin1 = key // "{l}" is then the key's UTF-8 escapes
		}
		body := strings.NewReplacer("{k}", key, "{q}", url.QueryEscape(key), "{x}", xmlEscaped(key),
			"{j}", string(j[1:len(j)-1]), "{u}", mocktest.PercentU(key), "{l}", url.QueryEscape(latin1)).Replace(tmpl)
		req, err := http.NewRequest("POST", "http://mock"+asmx.ServicePath, nil)
		if err != nil {
			t.Fatal(err)
		}
		switch mode % 7 {
		case 0:
			req.Header.Set("Content-Type", asmx.ContentTypeSOAP11)
			req.Header.Set("SOAPAction", `"`+testNS+`/ReturnProvinces"`)
		case 1:
			req.Header.Set("Content-Type", asmx.ContentTypeSOAP12)
		case 2:
			req.URL.Path += "/ReturnProvinces"
			req.Header.Set("Content-Type", asmx.ContentTypeForm)
		case 3:
			req.Method, req.URL.Path, req.URL.RawQuery = "GET", asmx.ServicePath+"/ReturnProvinces", body
			body = ""
		case 4:
			req.Header.Set("Content-Type", "text/xml; charset=utf-16")
			body = utf16LE(body)
		case 5:
			req.Header.Set("Content-Type", "application/json")
		case 6:
			req.URL.Path += "/ReturnProvinces"
			req.Header.Set("Content-Type", asmx.ContentTypeForm+"; charset=iso-8859-1")
		}
		req.Body, req.ContentLength = io.NopCloser(strings.NewReader(body)), int64(len(body))
		s.ServeHTTP(discardResponse{h: http.Header{}}, req)
		es := s.Journal(RequestFilter{})
		if len(es) != 1 {
			t.Fatalf("journal: got %d entries, want 1", len(es))
		}
		e := es[0]
		texts := []string{e.Path, e.Query, e.Request.Body, e.Response.Body}
		for _, v := range e.Params {
			texts = append(texts, v)
		}
		for _, h := range []http.Header{e.Request.Header, e.Response.Header} {
			for k, vs := range h {
				texts = append(texts, k)
				texts = append(texts, vs...)
			}
		}
		for _, text := range texts {
			if got := leaks(text, key); got != nil {
				t.Fatalf("journal text %q holds %q", text, got)
			}
		}
		for _, m := range []JournalMessage{e.Request, e.Response} {
			if !m.Cut {
				continue
			}
			for _, f := range keyForms(key) {
				for n := 1; n < len(f); n++ {
					if strings.HasSuffix(m.Body, f[:n]) {
						t.Fatalf("body shown cut ends with %q, the start of %q: %q", f[:n], f, m.Body)
					}
				}
			}
		}
	})
}

// discardResponse is a ResponseWriter that keeps nothing.
type discardResponse struct{ h http.Header }

func (w discardResponse) Header() http.Header         { return w.h }
func (w discardResponse) WriteHeader(int)             {}
func (w discardResponse) Write(p []byte) (int, error) { return len(p), nil }

// TestJournalMasksKeysBeyondASCII sends keys beyond ASCII over loopback
// in the forms a form's charset, %u escapes and ASP.NET's error texts give
// them, a wrong one too (a refused key is still a secret), and reads each
// call back through the admin API and the request log: no form of the key
// is there. A value with '<' fails request validation, whose error text
// echoes the value (HTML-encoded: "F&#225;ls&#233;&lt;b").
func TestJournalMasksKeysBeyondASCII(t *testing.T) {
	t.Parallel()
	logged := &recordingHandler{}
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("Clé-秘密", "Clé"), WithLogger(slog.New(logged)))
	form := func(charset, body string) func() *http.Request {
		return func() *http.Request {
			req := mustRequest(t, "POST", ts.URL+asmx.ServicePath+"/ReturnProvinces", body)
			req.Header.Set("Content-Type", asmx.ContentTypeForm+"; charset="+charset)
			return req
		}
	}
	get := func(query string) func() *http.Request {
		return func() *http.Request {
			return mustRequest(t, "GET", ts.URL+asmx.ServicePath+"/ReturnProvinces?"+query, "")
		}
	}
	tests := []struct {
		name string
		req  func() *http.Request
		// forms are the key as the request or its answer may write it.
		forms []string
	}{
		{"form in ISO-8859-1, a wrong key", form("iso-8859-1", "strAtmServiceKey=F%E1ls%E9-%3Cb"),
			[]string{"Fálsé-", "F&#225;ls&#233;-", "F%E1ls%E9-", "F\xe1ls\xe9-"}},
		{"form in windows-1252, a wrong key", form("windows-1252", "strAtmServiceKey=%80uro%E9-%3Cb"),
			[]string{"€uroé-", "€uro&#233;-", "%80uro%E9-", "\x80uro\xe9-"}},
		{"form in ISO-8859-5, a wrong key", form("iso-8859-5", "strAtmServiceKey=%BA%DB%EE%E7-%3Cb"),
			[]string{"Ключ-", "%BA%DB%EE%E7-", "\xba\xdb\xee\xe7-"}},
		{"form in ISO-8859-1, raw bytes", form("iso-8859-1", "strAtmServiceKey=F\xe1ls\xe9-<b"),
			[]string{"Fálsé-", "F&#225;ls&#233;-", "F\xe1ls\xe9-"}},
		{"form, %u escapes", form("iso-8859-1", "strAtmServiceKey=F%u00E1ls%u00E9-%3Cb"),
			[]string{"Fálsé-", "F&#225;ls&#233;-", "F%u00E1ls%u00E9-"}},
		{"GET query, %u escapes", get("strAtmServiceKey=F%u00e1ls%u00e9-%u5bc6%3Cb"),
			[]string{"Fálsé-密", "F&#225;ls&#233;-密", "F%u00e1ls%u00e9-%u5bc6"}},
		{"a wrong key holding both keys, echoed", get("strAtmServiceKey=Cl%C3%A9-%E7%A7%98%E5%AF%86%3Cb"),
			[]string{"秘密", "%E7%A7%98%E5%AF%86"}},
		{"the key elsewhere, as character references", func() *http.Request {
			return provincesRequest(t, ts.URL, asmx.ContentTypeSOAP11, provincesEnvelope("Clé-秘密", "<note>Cl&#233;-&#31192;&#23494; Cl&#xE9;-&#x79D8;&#x5BC6;</note>"))
		}, []string{"Clé-秘密", "Cl&#233;-&#31192;&#23494;", "Cl&#xE9;-&#x79D8;&#x5BC6;"}},
		{"the key elsewhere, %u escapes", get("strAtmServiceKey=Cl%C3%A9-%E7%A7%98%E5%AF%86&x=Cl%u00E9-%u79D8%u5BC6"),
			[]string{"Clé-秘密", "Cl%C3%A9-%E7%A7%98%E5%AF%86", "Cl%u00E9-%u79D8%u5BC6"}},
		{"SOAP in ISO-8859-1", func() *http.Request {
			return provincesRequest(t, ts.URL, "text/xml; charset=iso-8859-1", strings.Replace(provincesEnvelope("Cl\xe9", "<note>Cl\xe9 x</note>"), "utf-8", "iso-8859-1", 1))
		}, []string{"<strAtmServiceKey>Clé", "Clé x", "Cl\xe9"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			do(t, tt.req())
			_, one, all := newestShown(t, ts)
			texts := append([]string{one, all}, jsonStrings(t, one)...)
			holdsNone(t, append(texts, logged.take()...), tt.forms)
		})
	}
}

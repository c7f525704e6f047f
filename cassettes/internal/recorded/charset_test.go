package recorded

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// TestScrubWideBodies: a SOAP request in UTF-16 or UTF-32 (which ASMX
// reads, and the proxy forwards) has its key replaced in its text, written
// back in its own encoding and byte order mark; an answer in UTF-16 that
// echoes the key has it swept; PutKeyBody puts the key back.
func TestScrubWideBodies(t *testing.T) {
	t.Parallel()
	const key = "Wide-Key-4321"
	envelope := `<?xml version="1.0" encoding="utf-16"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
		`<ReturnProvinces xmlns="http://tempuri.org/atmService"><strAtmServiceKey>%s</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`
	le16 := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	be16 := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	le32 := utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM)
	tests := []struct {
		name, ct, bom string
		enc           encoding.Encoding
	}{
		{"utf-16le with a byte order mark", "text/xml; charset=utf-16", "\xff\xfe", le16},
		{"utf-16le named by the charset only", "text/xml; charset=utf-16", "", le16},
		{"utf-16be with a byte order mark", "text/xml; charset=utf-16", "\xfe\xff", be16},
		{"utf-16le told by its first bytes (soap 1.2)", "application/soap+xml", "", le16},
		{"utf-32le with a byte order mark (soap 1.2)", "application/soap+xml", "\xff\xfe\x00\x00", le32},
	}
	for _, tt := range tests {
		encode := func(s string) string {
			out, err := tt.enc.NewEncoder().String(s)
			if err != nil {
				t.Fatal(err)
			}
			return tt.bom + out
		}
		decode := func(s string) string {
			out, err := tt.enc.NewDecoder().String(strings.TrimPrefix(s, tt.bom))
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		body := encode(strings.Replace(envelope, "%s", key, 1))
		i := &cassette.Interaction{
			Request: cassette.Request{Method: "POST", URL: "http://h/service/service.asmx", Body: body, ContentLength: int64(len(body)),
				Headers: http.Header{"Content-Type": {tt.ct}, "Content-Length": {"1"}, "Soapaction": {`"http://tempuri.org/atmService/ReturnProvinces"`}}},
			Response: cassette.Response{Code: 500, Body: encode("<r>the key " + key + " is not valid</r>"), Headers: http.Header{"Content-Type": {"text/xml; charset=utf-16"}}},
		}
		sent, decodes := CallOf(i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body)
		if n := Scrub(i, Placeholder); n == 0 {
			t.Errorf("%s: Scrub replaced nothing", tt.name)
		}
		for what, b := range map[string]string{"request": i.Request.Body, "response": i.Response.Body} {
			if strings.Contains(b, encode(key)[len(tt.bom):]) || strings.Contains(decode(b), key) {
				t.Errorf("%s: the %s body keeps the key: %q", tt.name, what, decode(b))
			}
			if !strings.HasPrefix(b, tt.bom) {
				t.Errorf("%s: the %s body lost its byte order mark: %q", tt.name, what, b)
			}
		}
		if got, want := decode(i.Request.Body), strings.Replace(envelope, "%s", Placeholder, 1); got != want {
			t.Errorf("%s: request body reads\n%s\nwant\n%s", tt.name, got, want)
		}
		if got, want := decode(i.Response.Body), "<r>the key "+Placeholder+" is not valid</r>"; got != want {
			t.Errorf("%s: answer reads %q, want %q", tt.name, got, want)
		}
		if i.Request.ContentLength != int64(len(i.Request.Body)) || i.Request.Headers.Get("Content-Length") != strconv.Itoa(len(i.Request.Body)) {
			t.Errorf("%s: lengths %d, %q; body %d bytes", tt.name, i.Request.ContentLength, i.Request.Headers.Get("Content-Length"), len(i.Request.Body))
		}
		// As the mock decodes it (replay matches by it): the same call, the
		// placeholder its key.
		if c, ok := CallOf(i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body); ok != decodes || ok && (c.Key != Placeholder || c.Op != sent.Op) {
			t.Errorf("%s: the scrubbed request decodes to %+v, %v; sent, %+v, %v", tt.name, c, ok, sent, decodes)
		}
		back := PutKeyBody(i.Request.Body, tt.ct, Placeholder, key)
		if back != body {
			t.Errorf("%s: PutKeyBody gave %q, want the request as sent", tt.name, decode(back))
		}
	}
}

// TestScrubKeysBeyondASCII: a key beyond ASCII sent in a form's charset,
// as %u escapes or as character references, and echoed by the answer as
// ASP.NET writes it (HtmlEncode: "Cl&#233;"; XML; JSON), leaves no form of
// itself in the interaction; a wrong key likewise.
func TestScrubKeysBeyondASCII(t *testing.T) {
	t.Parallel()
	const form = "application/x-www-form-urlencoded"
	tests := []struct {
		name, url, ct, body, answer string
		// forms are the key as the request or its answer may write it.
		forms []string
	}{
		{"form in ISO-8859-1, echoed HTML-encoded", "/service/service.asmx/ReturnProvinces", form + "; charset=iso-8859-1", "strAtmServiceKey=Cl%E9-%3Cb",
			"(strAtmServiceKey=&quot;Cl&#233;-&lt;b&quot;).", []string{"Clé-", "Cl&#233;-", "Cl%E9-", "Cl\xe9-"}},
		{"form in windows-1252, raw bytes, echoed as text", "/service/service.asmx/ReturnProvinces", form + "; charset=windows-1252", "strAtmServiceKey=\x80uro\xe9-<b",
			`{"Message":"(strAtmServiceKey=\"€uroé-\u003cb\")"}`, []string{"€uroé-", "\x80uro\xe9-"}},
		{"form in ISO-8859-5", "/service/service.asmx/ReturnProvinces", form + "; charset=iso-8859-5", "strAtmServiceKey=%BA%DB%EE%E7-%3Cb",
			"(strAtmServiceKey=&quot;Ключ-&lt;b&quot;).", []string{"Ключ-", "%BA%DB%EE%E7-"}},
		{"form, %u escapes", "/service/service.asmx/ReturnProvinces", form, "strAtmServiceKey=Cl%u00E9-%u79D8%u5BC6",
			"the key Cl&#233;-秘密 and Cl\\u00e9-\\u79d8\\u5bc6", []string{"Clé-秘密", "Cl&#233;-秘密", "Cl%u00E9-%u79D8%u5BC6", `Cl\u00e9-\u79d8\u5bc6`}},
		{"query, %u escapes", "/service/service.asmx/ReturnProvinces?strAtmServiceKey=Cl%u00e9-%u79d8%u5bc6", "", "",
			"the key Cl&#xE9;-&#x79D8;&#x5BC6; and Clé-秘密", []string{"Clé-秘密", "Cl&#xE9;-&#x79D8;&#x5BC6;", "Cl%u00e9-%u79d8%u5bc6"}},
		{"SOAP, character references", "/service/service.asmx", "text/xml; charset=utf-8",
			`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ReturnProvinces xmlns="http://tempuri.org/atmService"><strAtmServiceKey>Cl&#233;-&#31192;&#23494;</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`,
			"<r>Clé-秘密 Cl%C3%A9-%E7%A7%98%E5%AF%86 Cl%u00E9-%u79D8%u5BC6</r>", []string{"Clé-秘密", "Cl&#233;-&#31192;&#23494;", "Cl%C3%A9-%E7%A7%98%E5%AF%86", "Cl%u00E9-%u79D8%u5BC6"}},
		{"SOAP in ISO-8859-1", "/service/service.asmx", "text/xml; charset=iso-8859-1",
			`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ReturnProvinces xmlns="http://tempuri.org/atmService"><strAtmServiceKey>Cl` + "\xe9" + `-key</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`,
			"<r>Clé-key Cl&#233;-key</r>", []string{"Clé-key", "Cl\xe9-key", "Cl&#233;-key"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := http.Header{}
			if tt.ct != "" {
				h.Set("Content-Type", tt.ct)
			}
			method := "GET"
			if tt.body != "" {
				method = "POST"
			}
			i := &cassette.Interaction{
				Request:  cassette.Request{Method: method, URL: "http://h" + tt.url, Body: tt.body, ContentLength: int64(len(tt.body)), Headers: h},
				Response: cassette.Response{Code: 500, Body: tt.answer, Headers: http.Header{"Content-Type": {"text/plain; charset=utf-8"}}},
			}
			Scrub(i, Placeholder)
			for what, text := range map[string]string{"url": i.Request.URL, "request": i.Request.Body, "answer": i.Response.Body} {
				for _, f := range tt.forms {
					if strings.Contains(text, f) {
						t.Errorf("the %s keeps the key as %q: %q", what, f, text)
					}
				}
			}
			// Idempotent: a scrubbed interaction scrubs to itself.
			before := *i
			if n := Scrub(i, Placeholder); n != 0 || i.Request.Body != before.Request.Body || i.Response.Body != before.Response.Body {
				t.Errorf("scrubbed again: %d values replaced; request %q, answer %q", n, i.Request.Body, i.Response.Body)
			}
		})
	}
}

// TestScrubLongerValueFirst: of two key values, one holding the other, the
// longer is swept first, whatever order they were found in: the shorter
// swept first left the longer one's rest ("REDACTED-secret-tail").
func TestScrubLongerValueFirst(t *testing.T) {
	t.Parallel()
	for range 20 { // the values are found in a map, in any order
		body := "strAtmServiceKey=abcd&strAtmServiceKey=abcd-secret-tail"
		i := &cassette.Interaction{
			Request: cassette.Request{Method: "POST", URL: "http://h/service/service.asmx/ReturnProvinces", Body: body, ContentLength: int64(len(body)),
				Headers: http.Header{"Content-Type": {"application/x-www-form-urlencoded"}}},
			Response: cassette.Response{Code: 500, Body: "keys abcd and abcd-secret-tail", Headers: http.Header{"Content-Type": {"text/plain"}}},
		}
		Scrub(i, Placeholder)
		if strings.Contains(i.Response.Body, "secret-tail") {
			t.Fatalf("the answer keeps a key's rest: %q", i.Response.Body)
		}
	}
}

// FuzzScrubKeyForms sends a key in one of the forms a client may write it
// beyond UTF-8 (%u escapes, a form in ISO-8859-1 or windows-1252, escaped
// or raw, lower-case escapes, XML character references, a SOAP body in
// ISO-8859-1, JSON \u escapes) with an answer echoing it as ASP.NET or a
// serializer writes it, and checks that no form of the key survives
// Scrub, and that scrubbing again changes nothing.
func FuzzScrubKeyForms(f *testing.F) {
	f.Add("Clé-秘密", uint8(0), uint8(0))
	f.Add("Fálsé-key", uint8(1), uint8(1))
	f.Add("€uro-kéy", uint8(2), uint8(2))
	f.Add("Ключ-1234", uint8(6), uint8(3))
	f.Add("Clé<b>&x", uint8(4), uint8(0))
	f.Add("Fálsé\"'k", uint8(5), uint8(1))
	f.Add("ñandú-🔑", uint8(6), uint8(2))
	f.Fuzz(func(t *testing.T, key string, form, echo uint8) {
		if len(key) < 4 || !utf8.ValidString(key) || strings.TrimSpace(key) != key || strings.Contains(RejectedPlaceholder, key) ||
			strings.ContainsFunc(key, func(r rune) bool { return r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r == utf8.RuneError }) {
			t.Skip()
		}
		latin1, inLatin1 := encodeIn(charmap.ISO8859_1, key)
		cp1252, in1252 := encodeIn(charmap.Windows1252, key)
		const soap = `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ReturnProvinces xmlns="http://tempuri.org/atmService"><strAtmServiceKey>%s</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`
		rq := cassette.Request{Method: "POST", URL: "http://h/service/service.asmx/ReturnProvinces", Headers: http.Header{}}
		switch form % 7 {
		case 0:
			rq.Method, rq.URL = "GET", rq.URL+"?strAtmServiceKey="+mocktest.PercentU(key)
		case 1:
			if !inLatin1 {
				t.Skip()
			}
			rq.Headers.Set("Content-Type", "application/x-www-form-urlencoded; charset=iso-8859-1")
			rq.Body = "strAtmServiceKey=" + url.QueryEscape(latin1)
		case 2:
			if !in1252 {
				t.Skip()
			}
			rq.Headers.Set("Content-Type", "application/x-www-form-urlencoded; charset=windows-1252")
			rq.Body = "strAtmServiceKey=" + rawBeyondASCII(cp1252)
		case 3:
			rq.Headers.Set("Content-Type", "application/x-www-form-urlencoded")
			rq.Body = "strAtmServiceKey=" + strings.ToLower(url.QueryEscape(key)) // letters too: %-escapes and all
		case 4:
			rq.URL = "http://h/service/service.asmx"
			rq.Headers.Set("Content-Type", "text/xml; charset=utf-8")
			rq.Body = strings.Replace(soap, "%s", charRefs(key), 1)
		case 5:
			if !inLatin1 {
				t.Skip()
			}
			rq.URL = "http://h/service/service.asmx"
			rq.Headers.Set("Content-Type", "text/xml; charset=iso-8859-1")
			rq.Body = strings.Replace(soap, "%s", html.EscapeString(latin1), 1)
		case 6:
			rq.URL = "http://h/service-v2.asmx/ReturnProvinces"
			rq.Headers.Set("Content-Type", "application/json")
			rq.Body = `{"strAtmServiceKey":"` + jsonU(key) + `"}`
		}
		if form%7 == 3 && strings.ToLower(key) != key {
			t.Skip() // lower-casing the escapes changed the key's own letters
		}
		echoed := []string{asmx.HTMLEncode(key), html.EscapeString(key), key, jsonText(key)}[echo%4]
		i := &cassette.Interaction{Request: rq,
			Response: cassette.Response{Code: 500, Body: "(strAtmServiceKey=&quot;" + echoed + "&quot;)", Headers: http.Header{"Content-Type": {"text/plain; charset=utf-8"}}}}
		Scrub(i, Placeholder)
		forms := []string{key, url.QueryEscape(key), mocktest.PercentU(key), asmx.HTMLEncode(key), charRefs(key), jsonU(key), html.EscapeString(key)}
		if inLatin1 {
			forms = append(forms, url.QueryEscape(latin1))
		}
		if in1252 {
			forms = append(forms, url.QueryEscape(cp1252))
		}
		for what, text := range map[string]string{"url": i.Request.URL, "request": i.Request.Body, "answer": i.Response.Body} {
			for _, f := range forms {
				if len(f) >= minSweepLen && strings.Contains(text, f) {
					t.Fatalf("the %s keeps the key %q as %q: %q", what, key, f, text)
				}
			}
		}
		again := *i
		if n := Scrub(&again, Placeholder); n != 0 || again.Request.Body != i.Request.Body || again.Response.Body != i.Response.Body || again.Request.URL != i.Request.URL {
			t.Fatalf("scrubbed again: %d values replaced", n)
		}
	})
}

// encodeIn encodes s in the single-byte charset cm, if every character of
// s has a byte there.
func encodeIn(cm *charmap.Charmap, s string) (string, bool) {
	out, err := cm.NewEncoder().String(s)
	return out, err == nil
}

// rawBeyondASCII escapes the ASCII bytes of s as a query writes them and
// leaves the others raw.
func rawBeyondASCII(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= utf8.RuneSelf {
			b.WriteByte(c)
		} else {
			b.WriteString(url.QueryEscape(string(c)))
		}
	}
	return b.String()
}

// charRefs writes s as XML text with every character beyond ASCII a
// decimal character reference.
func charRefs(s string) string {
	var b strings.Builder
	for _, c := range s {
		if c < utf8.RuneSelf {
			b.WriteString(html.EscapeString(string(c)))
		} else {
			fmt.Fprintf(&b, "&#%d;", c)
		}
	}
	return b.String()
}

// jsonU writes s as a JSON string's content in ASCII, with \u escapes.
func jsonU(s string) string {
	var b strings.Builder
	for _, c := range jsonText(s) {
		if c < utf8.RuneSelf {
			b.WriteRune(c)
			continue
		}
		for _, u := range utf16.Encode([]rune{c}) {
			fmt.Fprintf(&b, `\u%04x`, u)
		}
	}
	return b.String()
}

// jsonText is s as the content of a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

package recorded

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/internal/wire"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// keyPatterns are the patterns mayNameKey stands in front of.
var keyPatterns = []interface{ MatchString(string) bool }{xmlKeyRE, xmlOpenKeyRE, htmlKeyRE}

func TestMayNameKey(t *testing.T) {
	for _, c := range []struct {
		b    string
		want bool
	}{
		{"", false},
		{"trAtm", true},
		{"<strAtmServiceKey>k</strAtmServiceKey>", true},
		{"<STRATMSERVICEKEY>k</STRATMSERVICEKEY>", true},
		{"<ſtrAtmServiceKey>k</ſtrAtmServiceKey>", true}, // a long s: the patterns fold it
		{"<strAtmServiceKey>k</strAtmServiceKey>", true}, // a Kelvin sign
		{`{"strAtmServiceKey":"k"}`, true},
		{"<ATMs><Name>Montréal</Name></ATMs>", false},
		{"trAt", false},
		{"xxxxtratm", true},
		{"TRATMT", true},
		{strings.Repeat("tratx", 1000), false},
	} {
		if got := mayNameKey(c.b); got != c.want {
			t.Errorf("mayNameKey(%q) = %v, want %v", c.b, got, c.want)
		}
	}
}

// FuzzMayNameKey: a body any key pattern matches is never skipped.
func FuzzMayNameKey(f *testing.F) {
	for _, s := range []string{"<strAtmServiceKey>k</strAtmServiceKey>", "strAtmServiceKey=k", `"strAtmServiceKey":"k"`, "<STRATMSERVICEKEY x='1'>k", "tratm"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b string) {
		if mayNameKey(b) {
			return
		}
		for _, re := range keyPatterns {
			if re.MatchString(b) {
				t.Fatalf("mayNameKey(%q) = false, but %v matches it", b, re)
			}
		}
	})
}

// FuzzPageKey: a key an answer holds after strAtmServiceKey= and the
// request never carried is replaced whole, however the answer's format
// writes its characters (HTML text and links, XML text, JSON, plain
// text), and the pair after it is kept; unless the key holds white space
// or an = (a key holding "&name=" cannot be told from the next pair), or
// starts with a quote (a value in quotes is taken for the excerpt
// ASP.NET's request validation quotes, and masked to its closing quote).
func FuzzPageKey(f *testing.F) {
	for _, k := range []string{"s3cr3t", `Pg&amp9&Tail9'apos9"quot9<lt9>gt9`, `a\"b\u0026c`, "k&#39;x", "ключ&ключ", "k#1;x"} {
		f.Add(k)
	}
	f.Fuzz(func(t *testing.T, key string) {
		if key == "" || !utf8.ValidString(key) || strings.ContainsAny(key, " \t\n\r\f=") || isPlaceholder(key) || mayNameKey(key) {
			t.Skip()
		}
		jsonText := func(s string) string {
			b, _ := json.Marshal(s) // & < > as \u escapes, as .NET writes them
			return string(b)
		}
		xmlText := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace
		for _, a := range []struct{ ct, pre, value, post string }{
			{"text/html", "<p>Sample: service.asmx?strAtmServiceKey=", html.EscapeString(key), "&amp;strCity=H</p>"},
			{"text/html", "<p>Sample: service.asmx?strAtmServiceKey=", wire.HTMLEncode(key), "&amp;strCity=H</p>"},
			{"text/html", `<a href="service.asmx?strAtmServiceKey=`, html.EscapeString(url.QueryEscape(key)), `&amp;strCity=H">x</a>`},
			{"text/xml", "<string>service.asmx?strAtmServiceKey=", xmlText(key), "&amp;strCity=H</string>"},
			{"application/json", `{"d":` + strings.TrimSuffix(jsonText("service.asmx?strAtmServiceKey="), `"`), jsonText(key)[1 : len(jsonText(key))-1], strings.TrimPrefix(jsonText("&strCity=H"), `"`) + "}"},
			{"text/plain", "Sample: service.asmx?strAtmServiceKey=", key, "&strCity=H\r\n"},
		} {
			sw := &scrubber{}
			sw.note(key)
			sw.note(a.value)
			if slices.ContainsFunc(sw.forms(), func(f string) bool { return strings.Contains(a.pre+a.post, f) }) {
				continue // swept from the text around too
			}
			body := a.pre + a.value + a.post
			if redact.Excerpts(body, func(string) string { return "" }) != body {
				continue // a value in quotes: taken for the excerpt ASP.NET's request validation quotes
			}
			i := &cassette.Interaction{
				Request:  cassette.Request{Method: "GET", URL: "http://h/service/service.asmx", Headers: http.Header{}},
				Response: cassette.Response{Code: 200, Body: a.pre + a.value + a.post, Headers: http.Header{"Content-Type": {a.ct}}},
			}
			Scrub(i, Placeholder)
			if want := a.pre + Placeholder + a.post; i.Response.Body != want {
				t.Errorf("%s: got %q, want %q", a.ct, i.Response.Body, want)
			}
		}
	})
}

// TestPageKeysLeaveExcerpts: the quote of a key's excerpt in ASP.NET's
// request validation error, in every format, is replaced within its
// quotes, and the message's end stays: the pattern of a key in an
// answer's text (pageKeys) took the quotes and the end for the key's.
func TestPageKeysLeaveExcerpts(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ ct, body, want string }{
		{"text/html; charset=utf-8", `<p>... detected from the client (strAtmServiceKey=&quot;&lt;bKey&quot;).</p>`, `<p>... detected from the client (strAtmServiceKey=&quot;REDACTED&quot;).</p>`},
		{"application/json; charset=utf-8", `{"Message":"... detected from the client (strAtmServiceKey=\"\u003cbKey\").","StackTrace":""}`, `{"Message":"... detected from the client (strAtmServiceKey=\"REDACTED\").","StackTrace":""}`},
		{"text/xml; charset=utf-8", `<faultstring>... detected from the client (strAtmServiceKey="&lt;bKey").</faultstring>`, `<faultstring>... detected from the client (strAtmServiceKey="REDACTED").</faultstring>`},
		{"text/plain; charset=utf-8", `... detected from the client (strAtmServiceKey="<bKey").`, `... detected from the client (strAtmServiceKey="REDACTED").`},
	} {
		i := &cassette.Interaction{Request: cassette.Request{Method: "GET", URL: "http://h/service/service.asmx/ReturnProvinces?x=1", Headers: http.Header{}},
			Response: cassette.Response{Code: 500, Body: c.body, Headers: http.Header{"Content-Type": {c.ct}}}}
		Scrub(i, Placeholder)
		if i.Response.Body != c.want {
			t.Errorf("%s: got %q, want %q", c.ct, i.Response.Body, c.want)
		}
	}
}

// TestScrubKeyWithControlCharacters: a key holding control characters
// that a request sends as character references (any case, decimal too,
// as .NET's XmlTextReader reads them) is swept from an answer that echoes
// it as the mock and .NET write them (&#x1F;, upper-case hex): Go's XML
// decoder refuses such references, so the key's text was never noted.
func TestScrubKeyWithControlCharacters(t *testing.T) {
	t.Parallel()
	envelope := func(key string) string {
		return `<soap:Envelope><soap:Body><ReturnProvinces><strAtmServiceKey>` + key + `</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`
	}
	for _, c := range []struct{ name, url, ct, body, echo string }{
		{"SOAP, lower-case hex", "http://h/s.asmx", "text/xml", envelope("Ctl&#x1f;KeyValue"), "Ctl&#x1F;KeyValue"},
		{"SOAP, decimal", "http://h/s.asmx", "text/xml", envelope("Ctl&#1;Key&#11;Value"), "Ctl&#x1;Key&#xB;Value"},
		{"SOAP, in CDATA and text", "http://h/s.asmx", "text/xml", envelope("Ctl&#x2;<![CDATA[Key]]>Value"), "Ctl&#x2;KeyValue"},
		{"query", "http://h/s.asmx/ReturnProvinces?strAtmServiceKey=Ctl%1FKeyValue", "", "", "Ctl&#x1F;KeyValue"},
		{"JSON", "http://h/s.asmx/ReturnProvinces", "application/json", `{"strAtmServiceKey":"Ctl\u001fKeyValue"}`, "Ctl&#x1F;KeyValue"},
	} {
		i := &cassette.Interaction{
			Request: cassette.Request{Method: "POST", URL: c.url, Body: c.body, Headers: http.Header{"Content-Type": {c.ct}}},
			Response: cassette.Response{Code: 500, Headers: http.Header{"Content-Type": {"text/xml; charset=utf-8"}},
				Body: `<faultstring>Invalid key ` + c.echo + ` given</faultstring>`},
		}
		Scrub(i, Placeholder)
		if want := `<faultstring>Invalid key REDACTED given</faultstring>`; i.Response.Body != want {
			t.Errorf("%s: answer: got %q, want %q", c.name, i.Response.Body, want)
		}
		if strings.Contains(i.Request.Body, "Value") {
			t.Errorf("%s: request body: got %q, want the key replaced", c.name, i.Request.Body)
		}
	}
}

// TestScrubKeysBesideTheCall: a key a request carries where the service
// does not read it is scrubbed all the same, and swept from the rest of
// the interaction: in a header's URL (a Referer, once or twice
// percent-encoded, a key of two characters too), in a multipart form's
// field (ASMX refuses the form, the cassette kept the key), and in the
// path (a client that put the parameter there, its = escaped or not).
// What holds no key stays.
func TestScrubKeysBesideTheCall(t *testing.T) {
	t.Parallel()
	const boundary = "----atmkit"
	multipart := "--" + boundary + "\r\nContent-Disposition: form-data; name=\"STRATMSERVICEKEY\"\r\n\r\nMulti-Key-6161\r\n--" + boundary +
		"\r\nContent-Disposition: form-data; name=\"strCity\"\r\n\r\nHalifax\r\n--" + boundary + "--\r\n"
	for _, c := range []struct {
		name, url, header, ct, body string
		secrets                     []string // must be gone from the whole interaction
		kept                        []string // must stay
	}{
		{name: "Referer", url: "http://h/s.asmx/ReturnProvinces?strAtmServiceKey=Own-Key-1", header: "http://app/?a=1&strAtmServiceKey=Ref-Key-5151&b=2",
			secrets: []string{"Ref-Key-5151", "Own-Key-1"}, kept: []string{"http://app/?a=1&strAtmServiceKey=REDACTED&b=2"}},
		{name: "Referer, a short key", url: "http://h/s.asmx/ReturnProvinces", header: "http://app/?STRATMSERVICEKEY=ab",
			kept: []string{"http://app/?STRATMSERVICEKEY=REDACTED"}},
		{name: "Referer, percent-encoded", url: "http://h/s.asmx/ReturnProvinces", header: "http://app/?next=%2Fs%3FstrAtmServiceKey%3DEnc-Key-5252",
			secrets: []string{"Enc-Key-5252"}},
		{name: "Referer, twice percent-encoded", url: "http://h/s.asmx/ReturnProvinces", header: "http://app/?next=%252Fs%253FstrAtmServiceKey%253DEnc-Key-5353",
			secrets: []string{"Enc-Key-5353"}},
		{name: "multipart", url: "http://h/s.asmx/ReturnProvinces", ct: "multipart/form-data; boundary=" + boundary, body: multipart,
			secrets: []string{"Multi-Key-6161"}, kept: []string{"name=\"strCity\"\r\n\r\nHalifax\r\n", "name=\"STRATMSERVICEKEY\"\r\n\r\nREDACTED\r\n"}},
		{name: "a query value holding a URL", url: "http://h/s.asmx/ReturnProvinces?strAtmServiceKey=Own-Key-2&next=%2Fs%3FstrAtmServiceKey%3DNext-Key-4545",
			secrets: []string{"Next-Key-4545", "Own-Key-2"}, kept: []string{"?strAtmServiceKey=REDACTED&next=%2Fs%3FstrAtmServiceKey%3DREDACTED"}},
		{name: "path", url: "http://h/s.asmx/ReturnProvinces/strAtmServiceKey=PathKey-1212", secrets: []string{"PathKey-1212"}},
		{name: "path, = escaped", url: "http://h/nothere/strAtmServiceKey%3DPathEnc-Key-9191", secrets: []string{"PathEnc-Key-9191"}},
		{name: "no key", url: "http://h/s.asmx/ReturnProvinces", header: "http://app/?next=%2Fs%3Fa%3D1", kept: []string{"http://app/?next=%2Fs%3Fa%3D1"}},
	} {
		h := http.Header{"Content-Type": {c.ct}}
		if c.header != "" {
			h.Set("Referer", c.header)
		}
		echo := strings.Join(c.secrets, " ")
		i := &cassette.Interaction{
			Request:  cassette.Request{Method: "POST", URL: c.url, Body: c.body, Headers: h},
			Response: cassette.Response{Code: 500, Headers: http.Header{"Content-Type": {"text/plain; charset=utf-8"}}, Body: "echo: " + echo},
		}
		Scrub(i, Placeholder)
		all := fmt.Sprint(i.Request.URL, i.Request.Body, i.Request.Headers, i.Response.Body, i.Response.Headers)
		for _, k := range c.secrets {
			if strings.Contains(all, k) {
				t.Errorf("%s: the interaction still holds %q: %s", c.name, k, all)
			}
		}
		for _, k := range c.kept {
			if !strings.Contains(all, k) {
				t.Errorf("%s: got %s, want it to hold %q", c.name, all, k)
			}
		}
	}
}

// TestScrubScriptServiceJSON: a script service's request body as ASP.NET
// AJAX's JavaScriptSerializer reads it ({'strAtmServiceKey':'K'}, a bare
// name, \u escapes in the name) has its key replaced, and swept from the
// answer; PutKeyBody puts a key back, escaped for its quotes. The cassette
// kept such a key: only "strAtmServiceKey":"K" was looked for.
func TestScrubScriptServiceJSON(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ body, want, key string }{
		{`{'strAtmServiceKey':'Single-Quoted-1'}`, `{'strAtmServiceKey':'REDACTED'}`, "Single-Quoted-1"},
		{`{strAtmServiceKey:"Bare-Name-1",strCity:'Halifax'}`, `{strAtmServiceKey:"REDACTED",strCity:'Halifax'}`, "Bare-Name-1"},
		{`{"strAtm\u0053erviceKey":"Esc-Name-Key-1"}`, `{"strAtm\u0053erviceKey":"REDACTED"}`, "Esc-Name-Key-1"},
		{`{'strAtmServiceKey':'It\'s-"Key"-1'}`, `{'strAtmServiceKey':'REDACTED'}`, `It's-"Key"-1`},
	} {
		i := &cassette.Interaction{
			Request: cassette.Request{Method: "POST", URL: "http://h/service/service.asmx/js/ReturnProvinces", Body: c.body,
				Headers: http.Header{"Content-Type": {"application/json; charset=utf-8"}}},
			Response: cassette.Response{Code: 500, Headers: http.Header{"Content-Type": {"application/json; charset=utf-8"}},
				Body: `{"Message":"Invalid key ` + strings.ReplaceAll(c.key, `"`, `\"`) + `"}`},
		}
		Scrub(i, Placeholder)
		if i.Request.Body != c.want {
			t.Errorf("%s: request body: got %s, want %s", c.body, i.Request.Body, c.want)
		}
		if strings.Contains(i.Response.Body, "-1") {
			t.Errorf("%s: answer: got %s, want the key swept", c.body, i.Response.Body)
		}
		back := PutKeyBody(i.Request.Body, "application/json", Placeholder, c.key)
		if vs := redact.Values(back); !slices.Contains(vs, c.key) {
			t.Errorf("PutKeyBody(%s): got %s, whose key reads %q, want %q", i.Request.Body, back, vs, c.key)
		}
	}
}

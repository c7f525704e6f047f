package cassettes_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// interaction records one request as go-vcr would.
func interaction(method, u, ct, body string) *cassette.Interaction {
	h := http.Header{"Authorization": {"Basic " + testKey}, "X-Api-Key": {"gw-secret-77"}, "Ocp-Apim-Subscription-Key": {"apim-secret-88"}}
	if ct != "" {
		h.Set("Content-Type", ct)
	}
	form := url.Values{}
	if ct == asmx.ContentTypeForm {
		form, _ = url.ParseQuery(body)
	}
	return &cassette.Interaction{
		Request:  cassette.Request{Method: method, URL: u, Body: body, Headers: h, Form: form, ContentLength: int64(len(body))},
		Response: cassette.Response{Code: 500, Body: "The key " + testKey + " is not valid.", Headers: http.Header{"Set-Cookie": {"a=b"}}},
	}
}

// leaks returns where the key survives in i, in any encoding.
func leaks(i *cassette.Interaction, key string) []string {
	forms := []string{key, url.QueryEscape(key), string(asmx.AppendEscaped(nil, key))}
	if j, err := json.Marshal(key); err == nil {
		forms = append(forms, string(j[1:len(j)-1]))
	}
	fields := map[string]string{"url": i.Request.URL, "uri": i.Request.RequestURI, "body": i.Request.Body, "response": i.Response.Body}
	for k, vs := range i.Request.Headers {
		fields["header "+k] = strings.Join(vs, ",")
	}
	for k, vs := range i.Response.Headers {
		fields["response header "+k] = strings.Join(vs, ",")
	}
	for k, vs := range i.Request.Form {
		fields["form "+k] = strings.Join(vs, ",")
	}
	var out []string
	for name, v := range fields {
		for _, f := range forms {
			if f != "" && strings.Contains(v, f) {
				out = append(out, name)
			}
		}
	}
	return out
}

func TestScrub(t *testing.T) {
	t.Parallel()
	enc := url.QueryEscape(testKey)
	tests := []struct {
		name string
		i    *cassette.Interaction
	}{
		{"soap11", interaction("POST", "http://h/service/service.asmx", asmx.ContentTypeSOAP11,
			`<soap:Envelope xmlns:soap="`+asmx.NamespaceSOAP11+`"><soap:Body><ReturnProvinces xmlns="ns"><strAtmServiceKey>`+testKey+`</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`)},
		{"soap12 prefixed, attributes, whitespace", interaction("POST", "http://h/service/service.asmx", asmx.ContentTypeSOAP12,
			`<e:Envelope xmlns:e="`+asmx.NamespaceSOAP12+`"><e:Body><t:ReturnProvinces xmlns:t="ns"><t:strAtmServiceKey a=">" >  `+testKey+"\n</t:strAtmServiceKey ></t:ReturnProvinces></e:Body></e:Envelope>")},
		{"soap cdata", interaction("POST", "http://h/service/service.asmx", asmx.ContentTypeSOAP11,
			`<Envelope><Body><Op><strAtmServiceKey><![CDATA[`+testKey+`]]></strAtmServiceKey></Op></Body></Envelope>`)},
		{"soap torn", interaction("POST", "http://h/service/service.asmx", asmx.ContentTypeSOAP11,
			`<Envelope><Body><Op><strAtmServiceKey>`+testKey)},
		{"get", interaction("GET", "http://h/service/service.asmx/ReturnProvinces?strAtmServiceKey="+enc, "", "")},
		{"get encoded name, other case", interaction("GET", "http://h/service/service.asmx/ReturnProvinces?x=1&STRATM%53erviceKey="+enc+"#f", "", "")},
		{"post form", interaction("POST", "http://h/service/service.asmx/ReturnProvinces", asmx.ContentTypeForm, "strAtmServiceKey="+enc+"&a=b")},
		{"json path", interaction("GET", "http://h/service-v2.asmx/ReturnAtmSearchByCoordinates?dblLatitude=1&strAtmServiceKey="+testKey, "", "")},
		{"json body", interaction("POST", "http://h/service-v2.asmx/ReturnAtmSearchByCoordinates", "application/json", `{"strAtmServiceKey" : "`+testKey+`"}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := cassettes.Scrub(tt.i)
			if n == 0 {
				t.Fatal("nothing replaced")
			}
			if l := leaks(tt.i, testKey); len(l) > 0 {
				t.Fatalf("the key survives in %v", l)
			}
			if got := tt.i.Request.Headers.Get("Authorization"); got != cassettes.Placeholder {
				t.Errorf("Authorization: got %q, want %q", got, cassettes.Placeholder)
			}
			for _, h := range []string{"X-Api-Key", "Ocp-Apim-Subscription-Key"} { // an API gateway's keys
				if got := tt.i.Request.Headers.Get(h); got != cassettes.Placeholder {
					t.Errorf("%s: got %q, want %q", h, got, cassettes.Placeholder)
				}
			}
			if got := tt.i.Response.Headers.Get("Set-Cookie"); got != cassettes.Placeholder {
				t.Errorf("Set-Cookie: got %q, want %q", got, cassettes.Placeholder)
			}
			if n := cassettes.Scrub(tt.i); n != 0 {
				t.Errorf("second Scrub replaced %d values; want 0 (idempotent)", n)
			}
		})
	}
}

// TestScrubKeyPartOfAPlaceholder: a key that is part of a placeholder is
// swept from the rest of the interaction, and the placeholders already
// there stay whole.
func TestScrubKeyPartOfAPlaceholder(t *testing.T) {
	t.Parallel()
	i := interaction("GET", "http://h/service/service.asmx/ReturnProvinces?strAtmServiceKey=JECT", "", "")
	i.Response.Body = "The key JECT is not valid (REDACTED-REJECTED, REDACTED, JECT)."
	if n := cassettes.Scrub(i); n == 0 {
		t.Fatal("nothing replaced")
	}
	if got, want := i.Request.URL, "http://h/service/service.asmx/ReturnProvinces?strAtmServiceKey="+cassettes.Placeholder; got != want {
		t.Errorf("URL: got %q, want %q", got, want)
	}
	if got, want := i.Response.Body, "The key REDACTED is not valid (REDACTED-REJECTED, REDACTED, REDACTED)."; got != want {
		t.Errorf("answer: got %q, want %q", got, want)
	}
}

// TestScrubHTMLPage: a help page that links to the query it was asked
// with keeps everything but the key, even a key too short to be swept
// elsewhere (an HTML page is no form).
func TestScrubHTMLPage(t *testing.T) {
	t.Parallel()
	for _, key := range []string{testKey, "k1"} {
		i := interaction("GET", "http://h/service/service.asmx?op=ReturnProvinces&strAtmServiceKey="+key, "", "")
		i.Response.Headers.Set("Content-Type", "text/html; charset=utf-8")
		i.Response.Body = `<a href="service.asmx?op=ReturnProvinces&amp;strAtmServiceKey=` + key + `">this page</a> <a href='service.asmx?STRATMSERVICEKEY=` + key + `&op=x'>x</a>`
		cassettes.Scrub(i)
		want := `<a href="service.asmx?op=ReturnProvinces&amp;strAtmServiceKey=REDACTED">this page</a> <a href='service.asmx?STRATMSERVICEKEY=REDACTED&op=x'>x</a>`
		if got := i.Response.Body; got != want {
			t.Errorf("key %q: got %q, want %q", key, got, want)
		}
	}
}

// FuzzScrub builds a request carrying a key in one of the five bindings,
// with fuzzed other parameters and trailing body text, and checks that the
// key never survives the scrubbing, in any encoding.
func FuzzScrub(f *testing.F) {
	f.Add("s3cr3t-KEY-4242", "Halifax", uint8(0), "tns", "")
	f.Add("a&b<c>\"d'e", "x", uint8(1), "", "<strAtmServiceKey>")
	f.Add("key with spaces", "", uint8(2), "", "")
	f.Add("%41%42CD", "y", uint8(3), "", "&strAtmServiceKey=")
	f.Add("ünïcødé-kéy", "Montréal", uint8(4), "", "")
	f.Fuzz(func(t *testing.T, key, city string, binding uint8, prefix, trailer string) {
		// A key that is part of a placeholder (RejectedPlaceholder holds
		// Placeholder) would be found in the placeholder itself.
		if len(key) < 4 || strings.TrimSpace(key) != key || strings.Contains(cassettes.RejectedPlaceholder, key) ||
			!utf8.ValidString(key) || strings.ContainsAny(key, "\x00\r") {
			t.Skip()
		}
		for _, r := range prefix {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				t.Skip()
			}
		}
		b := asmx.Bindings[int(binding)%len(asmx.Bindings)]
		if b.IsSOAP() && !xmlChars(key) {
			// XML cannot carry the key: the envelope holds U+FFFD in its
			// place, and the key as typed is in the interaction nowhere
			// else the scrubber could learn it from.
			t.Skip()
		}
		q := query{Op: asmx.OpReturnAtmSearchByAddress, Params: [][2]string{{"strAddress", ""}, {"strCity", city}, {"strProvince", "NS"}, {"strPostalCode", ""}, {"bytRadius", "5"}}}
		req := request(t, "http://h", b, q, key, prefix != "")
		var body string
		if req.Body != nil {
			raw, _ := readAll(req)
			body = string(raw)
			if b == asmx.HTTPPost && trailer != "" {
				body += "&" // trailing text is a pair of its own, not part of the key
			}
			body += trailer
		}
		i := interaction(req.Method, req.URL.String(), req.Header.Get("Content-Type"), body)
		i.Request.Headers = req.Header.Clone()
		i.Request.RequestURI = req.URL.RequestURI()
		cassettes.Scrub(i)
		if l := leaks(i, key); len(l) > 0 {
			t.Fatalf("key %q survives in %v\nurl %s\nbody %s", key, l, i.Request.URL, i.Request.Body)
		}
	})
}

// xmlChars reports whether every character of s is one XML 1.0 allows
// (its Char production).
func xmlChars(s string) bool {
	for _, r := range s {
		if !(r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF) {
			return false
		}
	}
	return true
}

func readAll(req *http.Request) ([]byte, error) {
	defer req.Body.Close()
	var sb strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := req.Body.Read(buf)
		sb.Write(buf[:n])
		if err != nil {
			return []byte(sb.String()), nil
		}
	}
}

func TestKeyRejected(t *testing.T) {
	t.Parallel()
	get := func(key string, status int) *cassette.Interaction {
		i := &cassette.Interaction{}
		i.Request.Method = "GET"
		i.Request.URL = "http://h/service/service.asmx/ReturnProvinces?strAtmServiceKey=" + key
		i.Response.Code = status
		return i
	}
	// An empty key is recorded empty (no secret), so its error is a key
	// rejection without the mark; its 200 (a deployment with no key
	// check) is an answer.
	for _, c := range []struct {
		key    string
		status int
		want   bool
	}{{cassettes.RejectedPlaceholder, 500, true}, {cassettes.Placeholder, 500, false}, {"", 500, true}, {"", 200, false}} {
		if got := cassettes.KeyRejected(get(c.key, c.status)); got != c.want {
			t.Errorf("KeyRejected(key %q, status %d): got %v, want %v", c.key, c.status, got, c.want)
		}
	}
}

// TestScrubListSweepsKeysAcrossInteractions: a cassette made elsewhere
// holding a key where no call carries it (a request to
// .../service.asmx/KEY, its SOAPAction, the answer's echo) is scrubbed of
// it when another interaction carries the key: Scrub sees one interaction
// at a time, and left it in the file, in cassette scrub's output and
// verify's report. A value that is no key stays.
func TestScrubListSweepsKeysAcrossInteractions(t *testing.T) {
	t.Parallel()
	call := interaction("GET", "http://h"+asmx.ServicePath+"/ReturnProvinces?strAtmServiceKey="+url.QueryEscape(testKey), "", "")
	call.Response = cassette.Response{Code: 200, Body: "<ArrayOfProvince/>", Headers: http.Header{}}
	beside := interaction("GET", "http://h"+asmx.ServicePath+"/"+url.PathEscape(testKey), "", "")
	beside.Request.Headers.Set("SOAPAction", `"http://tempuri.org/atmService/`+testKey+`"`)
	beside.Request.Headers.Set("X-Trace", "trace-42")
	beside.Response = cassette.Response{Code: 500, Body: testKey + " Web Service method name is not valid.", Headers: http.Header{}}
	list := []*cassette.Interaction{beside, call} // the key's call after: swept all the same
	replaced, interactions, _ := cassettes.ScrubList(list)
	if interactions != 2 || replaced < 4 {
		t.Errorf("ScrubList: %d values in %d interactions, want 4 or more in 2", replaced, interactions)
	}
	for _, i := range list {
		all := i.Request.URL + i.Request.Body + i.Response.Body + fmtHeader(i.Request.Headers) + fmtHeader(i.Response.Headers)
		for _, f := range []string{testKey, url.QueryEscape(testKey), url.PathEscape(testKey)} {
			if strings.Contains(all, f) {
				t.Errorf("interaction %s still holds the key as %q: %s", i.Request.URL, f, all)
			}
		}
	}
	if got := beside.Request.Headers.Get("X-Trace"); got != "trace-42" {
		t.Errorf("X-Trace: got %q, want it kept", got)
	}
	if got, want := beside.Response.Body, cassettes.Placeholder+" Web Service method name is not valid."; got != want {
		t.Errorf("echo: got %q, want %q", got, want)
	}
}

func fmtHeader(h http.Header) string {
	var b strings.Builder
	for k, vs := range h {
		b.WriteString(k + ": " + strings.Join(vs, ", ") + "\n")
	}
	return b.String()
}

package cassettes_test

import (
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/wire"
)

// TestRecordedPageEchoingKeyWithEntities: a deployment's HTML page (a help
// page, an error page) that echoes the key it was asked with, its ', &, ",
// < or > written as an entity or raw, reaches the cassette without any
// part of the key: the key's parameter in the page is replaced whole, not
// up to the first & or ' of an entity. Keys of four characters or more
// are also swept wherever else they stand; shorter ones only where the
// page names the parameter.
func TestRecordedPageEchoingKeyWithEntities(t *testing.T) {
	t.Parallel()
	// Each key's parts after a character a page escapes are named (tails):
	// none may reach the cassette.
	keys := []struct {
		key   string
		tails []string
	}{
		{`k3y'apos9&amp9"quot9<lt9>gt9`, []string{"apos9", "amp9", "quot9", "lt9", "gt9"}},
		{`q'zz`, []string{"'zz", "#39;zz", "apos;zz"}},
		{`q'z`, []string{"'z<", "#39;z<", "apos;z<"}},
	}
	// How a page may write the key: ASP.NET's HtmlEncode (&quot; &#39;),
	// Go's (&#34; &#39;), every XML escape (&apos;), and, for a key
	// without " & < >, raw (.NET 2.0's HtmlEncode leaves ' alone).
	page := func(key string) string {
		var b strings.Builder
		b.WriteString("<html><body>")
		forms := []string{wire.HTMLEncode(key), html.EscapeString(key),
			strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;").Replace(key)}
		if !strings.ContainsAny(key, `"&<>`) {
			forms = append(forms, key)
		}
		for _, f := range forms {
			b.WriteString("<p>Requested: service.asmx?op=ReturnProvinces&amp;strAtmServiceKey=" + f + "</p>")
		}
		b.WriteString("</body></html>")
		return b.String()
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, page(r.URL.Query().Get(asmx.ParamKey)))
	}))
	defer up.Close()
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		for j, k := range keys { // asked of a page each: scrubbed, the short keys' would be one
			got := getPage(t, proxy.Client(), proxy.URL+asmx.ServicePath+"?op="+asmx.Operations()[j].Name+"&"+asmx.ParamKey+"="+url.QueryEscape(k.key))
			if got.body != page(k.key) {
				t.Fatalf("recording: got %q", got.body)
			}
		}
	})
	b, err := os.ReadFile(path + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		for _, tail := range k.tails {
			if strings.Contains(string(b), tail) {
				t.Errorf("key %q: the cassette holds its part %q:\n%s", k.key, tail, b)
			}
		}
	}
	if n := strings.Count(string(b), "strAtmServiceKey=REDACTED</p>"); n != 11 {
		t.Errorf("%d keys replaced whole in the pages, want 11:\n%s", n, b)
	}
}

// TestRecordedPageKeyNotInTheRequest: a key that a recorded answer holds
// after "strAtmServiceKey=" and that the request never carried (a help
// page's sample link, a string result naming a URL, an error text) is
// scrubbed whole, though it holds & ' " < > written as the answer's
// format writes them (&amp; and &#39; in HTML and XML, \u0026 and \" in
// JSON, raw in plain text): the value ran to the first & or ', which a
// page writes for the key's characters too, and the key's rest reached
// the cassette. The pair after the key (&amp;strCity=Halifax) is kept.
func TestRecordedPageKeyNotInTheRequest(t *testing.T) {
	t.Parallel()
	const key = `Pg&amp9&Tail9'apos9"quot9<lt9>gt9`
	tails := []string{"amp9", "Tail9", "apos9", "quot9", "lt9", "gt9"}
	xmlEsc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&apos;")
	textEsc := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	// As .NET's JavaScriptSerializer writes a string: & ' < > as \u escapes, " as \".
	jsonEsc := strings.NewReplacer("&", `\u0026`, "'", `\u0027`, "<", `\u003c`, ">", `\u003e`, `"`, `\"`)
	answers := map[string]struct{ ct, body string }{
		"/help": {"text/html; charset=utf-8", "<html><body>" +
			"<p>Sample: service.asmx/ReturnProvinces?strAtmServiceKey=" + wire.HTMLEncode(key) + "&amp;strCity=Halifax</p>" +
			"<p>Sample: service.asmx/ReturnProvinces?strAtmServiceKey=" + html.EscapeString(key) + "&amp;strCity=Halifax</p>" +
			"<p>Sample: service.asmx/ReturnProvinces?strAtmServiceKey=" + xmlEsc.Replace(key) + "&amp;strCity=Halifax</p>" +
			"</body></html>"},
		"/xml": {asmx.ContentTypeXML, `<?xml version="1.0" encoding="utf-8"?>` + "\n" + `<ArrayOfString xmlns="http://tempuri.org/">` +
			`<string>https://atm.example.org/service.asmx/ReturnProvinces?strAtmServiceKey=` + xmlEsc.Replace(key) + `&amp;strCity=Halifax</string>` +
			// as .NET's XML writers write text: ' and " raw
			`<string>https://atm.example.org/service.asmx/ReturnProvinces?strAtmServiceKey=` + textEsc.Replace(key) + `&amp;strCity=Halifax</string>` +
			`</ArrayOfString>`},
		"/json": {"application/json; charset=utf-8", `{"d":"https://atm.example.org/service.asmx/ReturnProvinces?strAtmServiceKey=` + jsonEsc.Replace(key) + `\u0026strCity=Halifax"}`},
		"/text": {"text/plain; charset=utf-8", "Sample: service.asmx/ReturnProvinces?strAtmServiceKey=" + key + "&strCity=Halifax\r\n"},
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, ok := answers[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", a.ct)
		_, _ = io.WriteString(w, a.body)
	}))
	defer up.Close()
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		for p, a := range answers { // the client gets the answer as it came
			if got := getPage(t, proxy.Client(), proxy.URL+p); got.body != a.body {
				t.Fatalf("%s: got %q, want %q", p, got.body, a.body)
			}
		}
	})
	list := readCassette(t, path+".yaml")
	if len(list) != len(answers) {
		t.Fatalf("%d interactions, want %d", len(list), len(answers))
	}
	for _, i := range list {
		for _, tail := range tails {
			if strings.Contains(i.Response.Body, tail) {
				t.Errorf("%s: the cassette holds the key's part %q: %s", i.Request.URL, tail, i.Response.Body)
			}
		}
		u, err := url.Parse(i.Request.URL)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Count(answers[u.Path].body, "strAtmServiceKey=")
		if n := strings.Count(i.Response.Body, "strAtmServiceKey=REDACTED"); n != want {
			t.Errorf("%s: %d keys replaced, want %d: %s", u.Path, n, want, i.Response.Body)
		}
		if n := strings.Count(i.Response.Body, "strCity=Halifax"); n != want {
			t.Errorf("%s: %d of the %d pairs after the key kept: %s", u.Path, n, want, i.Response.Body)
		}
	}
}

// TestKeySentWithARawAmpersand: a key holding & that a client sent
// unencoded (strAtmServiceKey=Le&ak'Key-Tail9), which ASP.NET reads as the
// key "Le" and a value without a name (and quotes in its request
// validation error), reaches the cassette without its rest: the pairs
// without '=' after the key's are the key's too, in a query and in a
// form, and the answer's quote of them (cut, joined with commas) is
// replaced. The same calls replay; a WSDL asked for with a key
// (?strAtmServiceKey=K&wsdl) keeps its wsdl.
func TestKeySentWithARawAmpersand(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	const key = `Le&ak'Key-Tail9&<x>Tail8`
	tails := []string{"ak'Key", "Key-Tail9", "Tail9", "Tail8", "ak&#39;Key", "&lt;x&gt;"}
	get := up.URL + asmx.ServicePath + "/" + asmx.OpReturnProvinces + "?" + asmx.ParamKey + "=" + key
	wsdl := up.URL + asmx.ServicePath + "?" + asmx.ParamKey + "=" + url.QueryEscape(testKey) + "&wsdl"
	var answers []docPage
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		for _, u := range []string{get, wsdl} {
			answers = append(answers, getPage(t, proxy.Client(), strings.Replace(u, up.URL, proxy.URL, 1)))
		}
		resp, err := proxy.Client().Post(proxy.URL+asmx.ServicePath+"/"+asmx.OpReturnInstitutions, asmx.ContentTypeForm, strings.NewReader(asmx.ParamKey+"="+key))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	})
	if !strings.Contains(answers[0].body, "Key-Tail9") || !strings.Contains(answers[1].body, "wsdl:definitions") {
		t.Fatalf("the stand-in's answers: no quote of the key's rest, or no WSDL: %.300s\n%.300s", answers[0].body, answers[1].body)
	}
	b, err := os.ReadFile(path + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tail := range tails {
		if strings.Contains(string(b), tail) {
			t.Errorf("the cassette holds the key's part %q:\n%s", tail, b)
		}
	}
	list := readCassette(t, path+".yaml")
	if len(list) != 3 || !strings.HasSuffix(list[1].Request.URL, "?strAtmServiceKey=REDACTED&wsdl") {
		t.Fatalf("%d interactions; want 3, the second's URL ending ?strAtmServiceKey=REDACTED&wsdl: %v", len(list), list[1].Request.URL)
	}
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeReplayOnly))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Stop()
	for j, u := range []string{get, wsdl} { // getPage fails the test on a miss
		if got := getPage(t, rec.Client(), u); got.status != answers[j].status || got.ct != answers[j].ct {
			t.Errorf("replaying %s: status %d %q, want %d %q", u, got.status, got.ct, answers[j].status, answers[j].ct)
		}
	}
}

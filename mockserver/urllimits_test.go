package mockserver

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// Texts of ASP.NET's URL checks, as the detailed error page shows them
// (HTML-encoded).
const (
	urlTooLong   = "The length of the URL for this request exceeds the configured maxUrlLength value."
	queryTooLong = "The length of the query string for this request exceeds the configured maxQueryStringLength value."
)

func dangerousPath(c string) string {
	return "A potentially dangerous Request.Path value was detected from the client (" + c + ")."
}

// urlRefused checks ASP.NET's 400 error page in the detailed form, showing
// the HttpException msg (HTML-encoded) thrown by the pipeline's first step.
func urlRefused(msg string) check {
	return func(r response) error {
		enc := strings.NewReplacer("<", "&lt;", ">", "&gt;", "&", "&amp;").Replace(msg)
		switch {
		case r.status != http.StatusBadRequest:
			return fmt.Errorf("status: got %d, want 400 (body %.300q)", r.status, r.body)
		case r.ctype != asmx.ContentTypeHTML:
			return fmt.Errorf("content type: got %q, want %q", r.ctype, asmx.ContentTypeHTML)
		case !strings.Contains(r.body, "<title>"+enc+"</title>"),
			!strings.Contains(r.body, "System.Web.HttpException (0x80004005): "+enc+"\r\n   at System.Web.HttpRequest.ValidateInputIfRequiredByConfig()\r\n   at System.Web.HttpApplication.PipelineStepManager.ValidateHelper(HttpContext context)"):
			return fmt.Errorf("body: got %.1500q, want ASP.NET's page for %q", r.body, msg)
		}
		return nil
	}
}

// pathOf is a path of n characters below the service's .asmx: the
// operation's, then a path info of x's.
func pathOf(op string, n int) string {
	p := "/service/service.asmx/" + op + "/"
	return p + strings.Repeat("x", n-len(p))
}

// queryOf is a query string of n characters holding the service key.
func queryOf(n int) string {
	q := "strAtmServiceKey=good&x="
	return q + strings.Repeat("a", n-len(q))
}

// TestURLLimits: ASP.NET 4.x refuses a path over maxUrlLength (260), a
// query string over maxQueryStringLength (2048) and a path holding one of
// requestPathInvalidCharacters with HTTP 400 and its error page, before
// any ASMX protocol reads the request: in every binding, the JSON path,
// the documentation, and in every requestValidationMode.
func TestURLLimits(t *testing.T) {
	t.Parallel()
	detailed := newTestServer(t, WithKeys("good"), WithDetailedErrors(true))
	remote := newTestServer(t, WithKeys("good"))
	off := newTestServer(t, WithKeys("good"), WithDetailedErrors(true), WithRequestValidation(asmx.ValidationOff))
	granular := newTestServer(t, WithKeys("good"), WithDetailedErrors(true), WithRequestValidation(asmx.Validation45))
	provinces := "/service/service.asmx/ReturnProvinces"
	soapPost := func(query string) rawRequest {
		r := s11(`"`+testNS+`/ReturnAtmSearchByCoordinates"`, env("1.1", coordsBody))
		r.path += query
		return r
	}
	tests := []struct {
		name   string
		base   string
		req    rawRequest
		checks []check
	}{
		// maxQueryStringLength: the query as sent, without "?"
		{"get, a query of 2048", detailed.URL, get(provinces + "?" + queryOf(2048)), []check{hasStatus(200)}},
		{"get, a query of 2049", detailed.URL, get(provinces + "?" + queryOf(2049)), []check{urlRefused(queryTooLong)}},
		{"get, a query of 2049 escaped characters is counted as sent", detailed.URL, get(provinces + "?strAtmServiceKey=good&x=" + strings.Repeat("%41", (2049-24)/3) + "aa"), []check{urlRefused(queryTooLong)}},
		{"soap, a query of 2049", detailed.URL, soapPost("?" + queryOf(2049)), []check{urlRefused(queryTooLong)}},
		{"soap, a query of 2048", detailed.URL, soapPost("?" + queryOf(2048)), []check{hasStatus(200)}},
		{"post, a query of 2049", detailed.URL, postForm(provinces+"?"+queryOf(2049), asmx.ContentTypeForm, "strAtmServiceKey=good"), []check{urlRefused(queryTooLong)}},
		{"json, a query of 2049", detailed.URL, get("/service-v2.asmx/ReturnAtmSearchByCoordinates?" + queryOf(2049)), []check{urlRefused(queryTooLong)}},
		{"?WSDL, a query of 2049", detailed.URL, get("/service/service.asmx?WSDL&" + queryOf(2044)), []check{urlRefused(queryTooLong)}},
		{"help page, a query of 2049", detailed.URL, get("/service/service.asmx?op=ReturnProvinces&" + queryOf(2033)), []check{urlRefused(queryTooLong)}},
		{"json path's help page, a query of 2049", detailed.URL, get("/service-v2.asmx?" + queryOf(2049)), []check{urlRefused(queryTooLong)}},
		// maxUrlLength: the decoded path, path info included
		{"a path of 260", detailed.URL, get(pathOf("ReturnProvinces", 260) + "?strAtmServiceKey=good"), []check{hasStatus(500), plainText("ReturnProvinces/")}},
		{"a path of 261", detailed.URL, get(pathOf("ReturnProvinces", 261) + "?strAtmServiceKey=good"), []check{urlRefused(urlTooLong)}},
		{"a path of 261, soap", detailed.URL, rawRequest{"POST", pathOf("ReturnProvinces", 261), map[string]string{"Content-Type": "text/xml"}, ""}, []check{urlRefused(urlTooLong)}},
		{"a path of 261 below the json path", detailed.URL, get("/service-v2.asmx/" + strings.Repeat("x", 261-17)), []check{urlRefused(urlTooLong)}},
		{"a path of 260 characters in more bytes", detailed.URL, get(pathOf("ReturnProvinces", 250) + strings.Repeat("%C3%A9", 10)), []check{hasStatus(500), plainText("Web Service method name is not valid.")}},
		{"a character beyond U+FFFF is two", detailed.URL, get(pathOf("ReturnProvinces", 259) + "%F0%9F%98%80"), []check{urlRefused(urlTooLong)}},
		{"the path's length is checked before the query's", detailed.URL, get(pathOf("ReturnProvinces", 261) + "?" + queryOf(2049)), []check{urlRefused(urlTooLong)}},
		{"a path of 261 outside the service", detailed.URL, get("/" + strings.Repeat("x", 260)), []check{urlRefused(urlTooLong)}},
		// requestPathInvalidCharacters, in the decoded path
		{"< in the path", detailed.URL, get(provinces + "%3C?strAtmServiceKey=good"), []check{urlRefused(dangerousPath("<"))}},
		{"> in the path", detailed.URL, get(provinces + "%3E?strAtmServiceKey=good"), []check{urlRefused(dangerousPath(">"))}},
		{"* in the path", detailed.URL, get(provinces + "*?strAtmServiceKey=good"), []check{urlRefused(dangerousPath("*"))}},
		{"% in the path (%25)", detailed.URL, get(provinces + "%25?strAtmServiceKey=good"), []check{urlRefused(dangerousPath("%"))}},
		{"& in the path: a URL built with & for ?", detailed.URL, get(provinces + "&strAtmServiceKey=good"), []check{urlRefused(dangerousPath("&"))}},
		{": in the path", detailed.URL, get(provinces + ":1?strAtmServiceKey=good"), []check{urlRefused(dangerousPath(":"))}},
		{"\\ in the path (%5C)", detailed.URL, get(provinces + "%5C?strAtmServiceKey=good"), []check{urlRefused(dangerousPath("\\"))}},
		{"? in the path (%3F)", detailed.URL, get(provinces + "%3F?strAtmServiceKey=good"), []check{urlRefused(dangerousPath("?"))}},
		{"the first one counts", detailed.URL, get(provinces + "%3E%3C"), []check{urlRefused(dangerousPath(">"))}},
		{"soap, < after the .asmx", detailed.URL, rawRequest{"POST", "/service/service.asmx%3C", map[string]string{"Content-Type": "text/xml"}, ""}, []check{urlRefused(dangerousPath("<"))}},
		{"json, & in the path", detailed.URL, get("/service-v2.asmx/ReturnAtmSearchByCoordinates&" + coordsQuery), []check{urlRefused(dangerousPath("&"))}},
		{"outside the service: ASP.NET's 400, not a 404", detailed.URL, get("/nope%3C.aspx"), []check{urlRefused(dangerousPath("<"))}},
		{"the query may hold them", detailed.URL, get(provinces + "?strAtmServiceKey=good&x=*:%25%5C%3F"), []check{hasStatus(200)}},
		{"the path's length is checked before its characters", detailed.URL, get(pathOf("ReturnProvinces", 258) + "%3C%3C%3C"), []check{urlRefused(urlTooLong)}},
		// Every requestValidationMode: the checks do not depend on it.
		{"validation 2.0, a query of 2049", off.URL, get(provinces + "?" + queryOf(2049)), []check{urlRefused(queryTooLong)}},
		{"validation 2.0, < in the path", off.URL, get(provinces + "%3C"), []check{urlRefused(dangerousPath("<"))}},
		{"validation 4.5, a path of 261", granular.URL, get(pathOf("ReturnProvinces", 261)), []check{urlRefused(urlTooLong)}},
		// The remote form: ASP.NET's generic page, with the status.
		{"remote, a query of 2049", remote.URL, get(provinces + "?" + queryOf(2049)), []check{hasStatus(400), errorPage(), notContains(queryTooLong)}},
		{"remote, < in the path", remote.URL, get(provinces + "%3C"), []check{hasStatus(400), errorPage(), notContains("Request.Path")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runChecks(t, sendRaw(t, tt.base, tt.req), tt.checks...) })
	}
}

func notContains(s string) check {
	return func(r response) error {
		if strings.Contains(r.body, s) {
			return fmt.Errorf("body: got %.400q, want no %q", r.body, s)
		}
		return nil
	}
}

// TestURLLimitsSettings: the deployment's own <httpRuntime> values.
func TestURLLimitsSettings(t *testing.T) {
	t.Parallel()
	wider := newTestServer(t, WithKeys("good"), WithDetailedErrors(true), WithMaxURLLength(300), WithMaxQueryStringLength(4096))
	narrower := newTestServer(t, WithKeys("good"), WithDetailedErrors(true), WithMaxURLLength(40), WithMaxQueryStringLength(30))
	noChars := newTestServer(t, WithKeys("good"), WithDetailedErrors(true), WithRequestPathInvalidChars(""))
	ownChars := newTestServer(t, WithKeys("good"), WithDetailedErrors(true), WithRequestPathInvalidChars("!, %2C ,%u0436"))
	provinces := "/service/service.asmx/ReturnProvinces"
	tests := []struct {
		name   string
		base   string
		req    rawRequest
		checks []check
	}{
		{"maxUrlLength 300: a path of 300", wider.URL, get(pathOf("ReturnProvinces", 300)), []check{hasStatus(500), plainText("Web Service method name is not valid.")}},
		{"maxUrlLength 300: a path of 301", wider.URL, get(pathOf("ReturnProvinces", 301)), []check{urlRefused(urlTooLong)}},
		{"maxQueryStringLength 4096: a query of 4096", wider.URL, get(provinces + "?" + queryOf(4096)), []check{hasStatus(200)}},
		{"maxQueryStringLength 4096: a query of 4097", wider.URL, get(provinces + "?" + queryOf(4097)), []check{urlRefused(queryTooLong)}},
		{"maxUrlLength 40: the operation's path of 37", narrower.URL, get(provinces + "?strAtmServiceKey=good"), []check{hasStatus(200)}},
		{"maxUrlLength 40: a path of 41", narrower.URL, get(pathOf("ReturnProvinces", 41)), []check{urlRefused(urlTooLong)}},
		{"maxQueryStringLength 30: a query of 31", narrower.URL, get(provinces + "?" + queryOf(31)), []check{urlRefused(queryTooLong)}},
		{"no invalid characters: & reaches ASMX", noChars.URL, get(provinces + "&strAtmServiceKey=good"), []check{hasStatus(500), plainText("ReturnProvinces&amp;strAtmServiceKey=good Web Service method name is not valid.")}},
		{"no invalid characters: the lengths still count", noChars.URL, get(provinces + "?" + queryOf(2049)), []check{urlRefused(queryTooLong)}},
		{"own characters: !", ownChars.URL, get(provinces + "!"), []check{urlRefused(dangerousPath("!"))}},
		{"own characters: a comma, URL-encoded in the setting", ownChars.URL, get(provinces + ","), []check{urlRefused(dangerousPath(","))}},
		{"own characters: ж, %u-encoded in the setting", ownChars.URL, get(provinces + "%D0%B6"), []check{urlRefused(dangerousPath("ж"))}},
		{"own characters: < is not one", ownChars.URL, get(provinces + "%3C?strAtmServiceKey=good"), []check{hasStatus(500), plainText("Web Service method name is not valid.")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runChecks(t, sendRaw(t, tt.base, tt.req), tt.checks...) })
	}
	for _, bad := range []Option{WithMaxURLLength(0), WithMaxURLLength(asmx.MaxURLLimit + 1), WithMaxQueryStringLength(-1),
		WithRequestPathInvalidChars("<>"), WithRequestPathInvalidChars("<,,>"), WithRequestPathInvalidChars("\U0001F600")} {
		if _, err := New(bad); err == nil {
			t.Errorf("New accepted a wrong URL limit")
		}
	}
}

// TestURLLimitsJournal: a refused URL is journaled with its kind, and a
// "#" in the query string counts as ASP.NET writes it, "%23" (three
// characters): a raw request, as Go's client never sends one.
func TestURLLimitsJournal(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("good"), WithMaxQueryStringLength(30))
	for _, tc := range []struct {
		target string
		status int
		kind   string
	}{
		{"/service/service.asmx/ReturnProvinces?strAtmServiceKey=good&x=12345#", 400, asmx.KindQueryStringTooLong},
		{"/service/service.asmx/ReturnProvinces?strAtmServiceKey=good&x=1234", 200, ""},
		{"/service/service.asmx/ReturnProvinces%3C", 400, asmx.KindDangerousPath},
		{"/service/service.asmx/ReturnProvinces/" + strings.Repeat("x", 230), 400, asmx.KindURLTooLong},
	} {
		status := rawStatus(t, ts.URL, tc.target)
		if status != tc.status {
			t.Errorf("GET %s: got status %d, want %d", tc.target, status, tc.status)
		}
		entries := ts.Journal(RequestFilter{})
		if len(entries) == 0 {
			t.Fatalf("GET %s: not journaled", tc.target)
		}
		if e := entries[len(entries)-1]; e.Status != tc.status || e.Error != tc.kind {
			t.Errorf("GET %s: journaled status %d error %q, want %d %q", tc.target, e.Status, e.Error, tc.status, tc.kind)
		}
	}
}

// rawStatus sends GET target on a connection of its own, as written, and
// returns the status answered.
func rawStatus(t *testing.T, base, target string) int {
	t.Helper()
	host := strings.TrimPrefix(base, "http://")
	c, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", target, host); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

package mockserver

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/adminwarn"
	"github.com/atmkit/atmkit/internal/serve"
)

// TestPageFiles: the page and its files are served without the token,
// with a strict Content-Security-Policy; /__admin sends to the page; the
// rest of the admin API still wants the token.
func TestPageFiles(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t, WithAdminToken("page-token"))
	for _, c := range []struct {
		path, ctype, contains string
	}{
		{"/__admin/", "text/html; charset=utf-8", `<script src="page.js" defer></script>`},
		{"/__admin/page.js", "text/javascript; charset=utf-8", "'use strict';"},
		{"/__admin/page.css", "text/css; charset=utf-8", ":root"},
		{"/__admin/favicon.svg", "image/svg+xml", "<svg"},
	} {
		r := admin(t, http.MethodGet, srv.URL+c.path, "", "")
		adminChecks(t, r, hasStatus(http.StatusOK), hasContentType(c.ctype), bodyContains(c.contains))
		wantHeader(t, r, "Content-Security-Policy", pageCSP)
		wantHeader(t, r, "X-Content-Type-Options", "nosniff")
		wantHeader(t, r, "Referrer-Policy", "no-referrer")
		if etag := r.header.Get("ETag"); etag == "" {
			t.Errorf("%s: no ETag", c.path)
		} else {
			req := mustRequest(t, http.MethodGet, srv.URL+c.path, "")
			req.Header.Set("If-None-Match", etag)
			if again := doAdmin(t, req); again.status != http.StatusNotModified {
				t.Errorf("%s with If-None-Match: got %d, want 304", c.path, again.status)
			}
		}
	}
	if !strings.Contains(pageCSP, "default-src 'self'") || strings.Contains(pageCSP, "unsafe") {
		t.Errorf("CSP %q: want default-src 'self' and nothing unsafe", pageCSP)
	}

	req := mustRequest(t, http.MethodGet, srv.URL+"/__admin", "")
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != "/__admin/" {
		t.Errorf("GET /__admin: got %d to %q, want 302 to /__admin/", resp.StatusCode, resp.Header.Get("Location"))
	}
	adminChecks(t, admin(t, http.MethodPost, srv.URL+"/__admin/", "", "{}"), hasAdminError(http.StatusMethodNotAllowed, adminMethodNotAllowed))
	adminChecks(t, admin(t, http.MethodGet, srv.URL+"/__admin/info", "", ""), hasAdminError(http.StatusUnauthorized, adminUnauthorized))
	adminChecks(t, admin(t, http.MethodGet, srv.URL+"/__admin/page.html", "", ""), hasAdminError(http.StatusUnauthorized, adminUnauthorized))
	adminChecks(t, admin(t, http.MethodGet, srv.URL+"/__admin/page.html", "page-token", ""), hasAdminError(http.StatusNotFound, adminNotFound))
	if n := len(srvJournal(t, srv.URL, "page-token")); n != 0 {
		t.Errorf("the page's files were journaled: %d entries", n)
	}
}

// serveAt serves h on addr as atmkit serve does, shutting down within
// grace, until the test ends. base is its URL on 127.0.0.1 (for an
// address on every interface too).
func serveAt(t *testing.T, addr string, h http.Handler, grace time.Duration) (srv *serve.Server, base string) {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	srv = serve.Start(ln, h, serve.Options{Grace: grace})
	t.Cleanup(func() { _ = srv.Close() })
	return srv, "http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
}

// srvJournal reads the journal's summaries through the admin API.
func srvJournal(t *testing.T, base, token string) []any {
	t.Helper()
	r := admin(t, http.MethodGet, base+"/__admin/requests?summary=true", token, "")
	adminChecks(t, r, hasStatus(http.StatusOK))
	reqs, _ := jsonBody(t, r)["requests"].([]any)
	return reqs
}

// pageFileText is one of the page's embedded files.
func pageFileText(t *testing.T, name string) string {
	t.Helper()
	b, err := fs.ReadFile(pageFS, "page/"+name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPageLoadsNothingFromElsewhere: the page's HTML, script and style
// name no other host, have nothing inline a strict CSP would block, and
// the script puts nothing it reads into the page as HTML.
func TestPageLoadsNothingFromElsewhere(t *testing.T) {
	t.Parallel()
	entries, err := fs.ReadDir(pageFS, "page")
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for _, f := range pageFiles() {
		served[f.name] = true
	}
	for _, e := range entries {
		if !served[e.Name()] {
			t.Errorf("page/%s is embedded but not served", e.Name())
		}
	}

	html := pageFileText(t, "index.html")
	for _, m := range regexp.MustCompile(`(?i)\b(src|href|action|formaction|srcset|poster|data)\s*=\s*"([^"]*)"`).FindAllStringSubmatch(html, -1) {
		if v := m[2]; strings.Contains(v, ":") || strings.HasPrefix(v, "//") || strings.HasPrefix(v, "/") && !strings.HasPrefix(v, "/__admin/") {
			t.Errorf("index.html: %s=%q: want a path relative to the page", m[1], v)
		}
	}
	for _, bad := range []*regexp.Regexp{
		regexp.MustCompile(`(?i)\son[a-z]+\s*=`),                  // inline handlers
		regexp.MustCompile(`(?i)\sstyle\s*=`),                     // inline style
		regexp.MustCompile(`(?i)<style`),                          // style elements
		regexp.MustCompile(`(?i)<script(\s[^>]*)?>[^<]+`),         // inline script
		regexp.MustCompile(`(?i)<script(?:\s(?:[^s>]|s[^r])*)?>`), // a script without src
		regexp.MustCompile(`(?i)javascript:`),
		regexp.MustCompile(`://`),
	} {
		if m := bad.FindString(html); m != "" {
			t.Errorf("index.html holds %q (%s)", m, bad)
		}
	}

	js := pageFileText(t, "page.js")
	for _, bad := range []string{"://", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function",
		"localStorage", "javascript:", "import(", "importScripts", "XMLHttpRequest", "EventSource", "WebSocket"} {
		if strings.Contains(js, bad) {
			t.Errorf("page.js holds %q", bad)
		}
	}
	// Every fetch goes to the admin API, by a path.
	if !strings.Contains(js, "fetch(api + path") || strings.Count(js, "fetch(") != 1 {
		t.Errorf("page.js: want one fetch, of api + path")
	}
	if !strings.Contains(js, "const api = '/__admin/';") {
		t.Errorf("page.js: the API's base is not /__admin/")
	}
	css := pageFileText(t, "page.css")
	for _, bad := range []string{"://", "@import", "url(", "@font-face"} {
		if strings.Contains(css, bad) {
			t.Errorf("page.css holds %q", bad)
		}
	}
	svg := pageFileText(t, "favicon.svg")
	if got := strings.ReplaceAll(svg, `xmlns="http://www.w3.org/2000/svg"`, ""); strings.Contains(got, "://") || strings.Contains(got, "href") {
		t.Errorf("favicon.svg refers to something: %q", svg)
	}
}

// TestPageFormNamesEveryFaultField: the fault form has an input for every
// field of the admin API's fault object, named as --fault names it
// (nested fields with dots), and each input has a label.
func TestPageFormNamesEveryFaultField(t *testing.T) {
	t.Parallel()
	html := pageFileText(t, "index.html")
	start, end := strings.Index(html, `<form id="fault-form"`), strings.Index(html, `Add fault</button>`)
	if start < 0 || end < start {
		t.Fatal("index.html: no fault form ending in a button Add fault")
	}
	form := html[start:end]
	names := map[string]bool{}
	for _, m := range regexp.MustCompile(`<(?:input|select)[^>]*\sid="([^"]+)"[^>]*\sname="([^"]+)"`).FindAllStringSubmatch(form, -1) {
		names[m[2]] = true
		if !strings.Contains(form, `<label for="`+m[1]+`">`) {
			t.Errorf("fault form: %s (#%s) has no label", m[2], m[1])
		}
	}
	// The JSON form's fields: a full fault lists every one of them.
	p := 0.5
	full := Fault{ID: "mine", Operation: "ReturnProvinces", Delay: 1, Jitter: 1, Status: 503, SOAPFault: &SOAPFault{Code: "Client", Text: "x"},
		Drop: true, Malformed: true, Dribble: &Dribble{Chunks: 2, Duration: 1}, Reset: &Reset{AfterBytes: 1}, Garbage: true,
		Probability: p, Seed: 2, Skip: 1, Times: 1}
	want := faultPaths(t, full)
	full.DelayDistribution = &DelayDistribution{Type: distLogNormal, Median: 1, Sigma: 1}
	want = append(want, faultPaths(t, Fault{DelayDistribution: full.DelayDistribution})...)
	want = append(want, faultPaths(t, Fault{DelayDistribution: &DelayDistribution{Type: distUniform, Lower: 1, Upper: 2}})...)
	want = append(want, "binding", "reset")
	for _, n := range want {
		if !names[n] {
			t.Errorf("fault form: no input named %q", n)
		}
	}
	for n := range names {
		if n != "reset" && !slices.Contains(want, n) {
			t.Errorf("fault form: input %q is no field of the admin API's fault", n)
		}
	}
}

// faultPaths are the dotted paths of the members f's JSON form writes.
func faultPaths(t *testing.T, f Fault) []string {
	t.Helper()
	b, err := f.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := json.Unmarshal(b, &obj); err != nil {
		t.Fatal(err)
	}
	var out []string
	var walk func(prefix string, o map[string]any)
	walk = func(prefix string, o map[string]any) {
		for k, v := range o {
			if inner, ok := v.(map[string]any); ok {
				walk(prefix+k+".", inner)
				continue
			}
			out = append(out, prefix+k)
		}
	}
	walk("", obj)
	return out
}

// TestAdminInfo: GET /__admin/info says what the page shows of the mock,
// and warns as atmkit serve does when the admin API is open to other
// hosts: no token, on an address beyond this host.
func TestAdminInfo(t *testing.T) {
	t.Parallel()
	start := func(t *testing.T, addr string, opts ...Option) string {
		t.Helper()
		s, err := New(append([]Option{WithDataset(smallDataset())}, opts...)...)
		if err != nil {
			t.Fatal(err)
		}
		_, base := serveAt(t, addr, s, time.Second)
		return base
	}
	info := func(t *testing.T, base, token string) map[string]any {
		t.Helper()
		r := admin(t, http.MethodGet, base+"/__admin/info", token, "")
		adminChecks(t, r, hasStatus(http.StatusOK), isJSON())
		return jsonBody(t, r)
	}

	ds := smallDataset()
	got := info(t, start(t, "127.0.0.1:0", WithJournalSize(50), WithJournalBodyMax(1000)), "")
	for k, want := range map[string]any{
		"adminToken": false, "namespace": testNS, "journalSize": 50.0, "journalBodyMax": 1000.0, "warning": nil, "replay": nil,
		"operations": fmt.Sprint(opNames()), "bindings": "[soap11 soap12 get post json]",
		"dataset": fmt.Sprint(map[string]any{"atms": float64(len(ds.ATMs)), "institutions": float64(len(ds.Institutions)),
			"cities": float64(len(ds.Cities)), "provinces": float64(len(ds.Provinces))}),
	} {
		v := got[k]
		if s, ok := want.(string); ok && k != "namespace" {
			v = fmt.Sprint(v)
			want = s
		}
		if v != want {
			t.Errorf("info %s: got %v, want %v", k, v, want)
		}
	}

	// instance: the same in the info and the listing of one mock, another
	// in another's (the page reads a mock started anew at its address so).
	base := start(t, "127.0.0.1:0")
	one, other := info(t, base, "")["instance"], info(t, start(t, "127.0.0.1:0"), "")["instance"]
	listed := admin(t, http.MethodGet, base+"/__admin/requests?summary=true", "", "")
	adminChecks(t, listed, hasStatus(http.StatusOK))
	if s, _ := one.(string); len(s) < 16 || jsonBody(t, listed)["instance"] != one || other == one {
		t.Errorf("instance: info %v, listing %v, another mock's %v; want the first two equal, 16 characters or more, the third another", one, jsonBody(t, listed)["instance"], other)
	}

	open := info(t, start(t, ":0"), "")
	if w, _ := open["warning"].(string); !strings.Contains(w, "reachable from other hosts, with no admin token") {
		t.Errorf("info warning on every interface without a token: got %q", w)
	}
	if w, _ := open["warning"].(string); !strings.Contains(w, "or listen on 127.0.0.1") {
		t.Errorf("info warning outside a container: got %q, want the advice to listen on 127.0.0.1", w)
	}
	// In a container the page says what serve's banner says there: the
	// container's 127.0.0.1 reaches neither the host nor other containers.
	boxed := info(t, start(t, ":0", WithInContainer(true)), "")
	_, advice, _ := strings.Cut(adminwarn.ContainerText(&net.TCPAddr{IP: net.IPv4zero, Port: 8080}, ""), "(/__admin). ")
	if w, _ := boxed["warning"].(string); !strings.Contains(w, "reachable from other hosts, with no admin token") ||
		!strings.HasSuffix(w, advice) || strings.Contains(w, "or listen on 127.0.0.1") {
		t.Errorf("info warning in a container: got %q, want it to end %q", w, advice)
	}
	closed := info(t, start(t, ":0", WithAdminToken("tok")), "tok")
	if w, ok := closed["warning"]; ok || closed["adminToken"] != true {
		t.Errorf("info on every interface with a token: got warning %v, adminToken %v; want none, true", w, closed["adminToken"])
	}
}

func opNames() []string {
	var out []string
	for _, op := range asmx.Operations() {
		out = append(out, op.Name)
	}
	return out
}

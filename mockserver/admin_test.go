package mockserver

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unsafe"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/serve"
)

// adminResult is an admin API answer with its headers.
type adminResult struct {
	response
	header http.Header
}

// admin sends an admin API request with an optional bearer token.
func admin(t *testing.T, method, url, token, body string) adminResult {
	t.Helper()
	req := mustRequest(t, method, url, body)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return doAdmin(t, req)
}

func doAdmin(t *testing.T, req *http.Request) adminResult {
	t.Helper()
	status, header, body := mocktest.Do(t, req)
	return adminResult{response{status, header.Get("Content-Type"), string(body)}, header}
}

// adminChecks runs checks on an admin answer.
func adminChecks(t *testing.T, r adminResult, checks ...check) {
	t.Helper()
	runChecks(t, r.response, checks...)
}

func wantHeader(t *testing.T, r adminResult, key, want string) {
	t.Helper()
	if got := r.header.Get(key); got != want {
		t.Errorf("header %s: got %q, want %q", key, got, want)
	}
}

// jsonBody decodes an admin answer's body into a generic value.
func jsonBody(t *testing.T, r adminResult) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(r.body), &v); err != nil {
		t.Fatalf("body is not a JSON object: %v: %q", err, r.body)
	}
	return v
}

func isJSON() check { return hasContentType("application/json; charset=utf-8") }

func hasAdminError(status int, code string) check {
	return func(r response) error {
		if r.status != status {
			return fmt.Errorf("status: got %d, want %d (body %q)", r.status, status, r.body)
		}
		var e adminError
		if err := json.Unmarshal([]byte(r.body), &e); err != nil || e.Error.Code != code || e.Error.Status != status || e.Error.Message == "" {
			return fmt.Errorf("body: got %q, want a JSON error with code %q", r.body, code)
		}
		return nil
	}
}

func TestAdminAPI(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	a := ts.URL + "/__admin"

	adminChecks(t, admin(t, "GET", a+"/health", "", ""), hasStatus(200), isJSON(), bodyContains(`{"status":"ok"}`))

	// Faults: add (both examples of the issue), list, remove one, clear.
	r := admin(t, "POST", a+"/faults", "", `{"operation":"ReturnProvinces","binding":"soap12","delay":"400ms"}`)
	adminChecks(t, r, hasStatus(201), isJSON(), bodyContains(`{"id":"f1","operation":"ReturnProvinces","binding":"soap12","delay":"400ms"}`))
	r = admin(t, "POST", a+"/faults/", "", `{"operation":"ReturnInstitutions","status":503,"id":"mine"}`)
	adminChecks(t, r, hasStatus(201), bodyContains(`{"id":"mine","operation":"ReturnInstitutions","status":503}`)) // kept, as WireMock keeps a stub's
	r = admin(t, "GET", a+"/faults", "", "")
	adminChecks(t, r, hasStatus(200), isJSON())
	if got := jsonBody(t, r)["faults"].([]any); len(got) != 2 {
		t.Errorf("faults: got %v, want 2", got)
	}

	// The faults act on the service.
	start := time.Now()
	runChecks(t, call(t, ts.URL, asmx.SOAP12, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))
	if d := time.Since(start); d < 400*time.Millisecond {
		t.Errorf("soap12 ReturnProvinces answered after %s, want at least 400ms", d)
	}
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnInstitutions, paramsFor(asmx.OpReturnInstitutions, "k")), hasStatus(503))
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))

	adminChecks(t, admin(t, "DELETE", a+"/faults/f1", "", ""), hasStatus(204))
	adminChecks(t, admin(t, "DELETE", a+"/faults/f1", "", ""), hasAdminError(404, adminNotFound))
	adminChecks(t, admin(t, "DELETE", a+"/faults", "", ""), hasStatus(204))
	adminChecks(t, admin(t, "GET", a+"/faults", "", ""), bodyContains(`{"faults":[]}`))

	// The journal, filtered; admin requests are not in it.
	r = admin(t, "GET", a+"/requests", "", "")
	adminChecks(t, r, hasStatus(200), isJSON())
	if got := jsonBody(t, r)["requests"].([]any); len(got) != 3 {
		t.Fatalf("requests: got %d, want 3: %s", len(got), r.body)
	}
	r = admin(t, "GET", a+"/requests?operation=returnprovinces&binding=soap12", "", "")
	reqs := jsonBody(t, r)["requests"].([]any)
	if len(reqs) != 1 {
		t.Fatalf("filtered requests: got %s, want 1", r.body)
	}
	e := reqs[0].(map[string]any)
	if e["operation"] != "ReturnProvinces" || e["binding"] != "soap12" || e["status"] != 200.0 || e["fault"] != "f1" ||
		e["params"].(map[string]any)["strAtmServiceKey"] != "******" || e["durationMs"].(float64) < 400 {
		t.Errorf("entry: got %v", e)
	}
	r = admin(t, "GET", a+"/requests?binding=get", "", "")
	if got := jsonBody(t, r)["requests"].([]any); len(got) != 2 {
		t.Errorf("binding=get: got %d requests, want 2", len(got))
	}
	adminChecks(t, admin(t, "DELETE", a+"/requests", "", ""), hasStatus(204))
	adminChecks(t, admin(t, "GET", a+"/requests", "", ""), bodyContains(`{"requests":[],"matched":0,"lastSeq":3,"held":[],"instance":"`))

	// Reference lists.
	r = admin(t, "GET", a+"/cities", "", "")
	adminChecks(t, r, hasStatus(200), isJSON(), bodyContains(`{"id":10,"name":"Halifax","province":"NS","latitude":44.6488,"longitude":-63.5752}`))
	if got := jsonBody(t, r)["cities"].([]any); len(got) != 3 {
		t.Errorf("cities: got %d, want 3", len(got))
	}
	r = admin(t, "GET", a+"/institutions", "", "")
	adminChecks(t, r, hasStatus(200), isJSON(), bodyContains(`"name":"Coastal Credit Union"`))
	if got := jsonBody(t, r)["institutions"].([]any); len(got) != 2 {
		t.Errorf("institutions: got %d, want 2", len(got))
	}
}

func TestAdminBadInput(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	a := ts.URL + "/__admin"
	tests := []struct {
		name, method, path, body string
		checks                   []check
	}{
		{"empty body", "POST", "/faults", "", []check{hasAdminError(400, adminBadRequest), bodyContains("empty")}},
		{"not JSON", "POST", "/faults", "delay=1s", []check{hasAdminError(400, adminBadRequest)}},
		{"truncated", "POST", "/faults", `{"delay":"1s"`, []check{hasAdminError(400, adminBadRequest)}},
		{"array", "POST", "/faults", `[{"delay":"1s"}]`, []check{hasAdminError(400, adminBadRequest)}},
		{"two values", "POST", "/faults", `{"delay":"1s"} {"delay":"2s"}`, []check{hasAdminError(400, adminBadRequest), bodyContains("more than one")}},
		{"unknown field", "POST", "/faults", `{"opration":"ReturnProvinces","delay":"1s"}`, []check{hasAdminError(400, adminBadRequest), bodyContains("opration")}},
		{"unknown operation", "POST", "/faults", `{"operation":"ReturnMoney","status":500}`, []check{hasAdminError(400, adminBadRequest), bodyContains("ReturnMoney"),
			bodyContains("want one of ReturnAllAtms, ReturnAtmSearchByAddress, "), bodyContains(", ReturnProvinces, or WSDL for the service description")}},
		{"unknown binding", "POST", "/faults", `{"binding":"soap13","status":500}`, []check{hasAdminError(400, adminBadRequest), bodyContains("soap13")}},
		{"delay not a duration", "POST", "/faults", `{"delay":"soon"}`, []check{hasAdminError(400, adminBadRequest), bodyContains("Go duration")}},
		{"delay a number", "POST", "/faults", `{"delay":400}`, []check{hasAdminError(400, adminBadRequest)}},
		{"no effect", "POST", "/faults", `{"operation":"ReturnProvinces"}`, []check{hasAdminError(400, adminBadRequest), bodyContains("at least one")}},
		{"conflict", "POST", "/faults", `{"drop":true,"status":500}`, []check{hasAdminError(400, adminBadRequest)}},
		{"bad status", "POST", "/faults", `{"status":42}`, []check{hasAdminError(400, adminBadRequest)}},
		{"bad code", "POST", "/faults", `{"soapFault":{"code":"Nobody"}}`, []check{hasAdminError(400, adminBadRequest)}},
		{"too large", "POST", "/faults", `{"soapFault":{"text":"` + strings.Repeat("x", maxAdminBody) + `"}}`, []check{hasAdminError(413, adminTooLarge), bodyContains("larger than 65536 bytes")}},
		{"requests bad operation", "GET", "/requests?operation=Nope", "", []check{hasAdminError(400, adminBadRequest), bodyContains(`unknown operation \"Nope\": want one of ReturnAllAtms, `)}},
		{"requests bad binding", "GET", "/requests?binding=smtp", "", []check{hasAdminError(400, adminBadRequest)}},
		{"requests bad status", "GET", "/requests?status=2xx", "", []check{hasAdminError(400, adminBadRequest), bodyContains("status")}},
		{"requests status out of range", "GET", "/requests?status=42", "", []check{hasAdminError(400, adminBadRequest)}},
		{"requests bad since", "GET", "/requests?since=-1", "", []check{hasAdminError(400, adminBadRequest), bodyContains("since")}},
		{"requests bad limit", "GET", "/requests?limit=0", "", []check{hasAdminError(400, adminBadRequest), bodyContains("limit")}},
		// Numbers as the journal writes them, as a fault's are: +200 and
		// 0200 are no status the journal holds, nor 05 a limit.
		{"requests status with a plus", "GET", "/requests?status=%2B200", "", []check{hasAdminError(400, adminBadRequest), bodyContains(`status \"+200\"`), bodyContains("decimal digits")}},
		{"requests status with a leading zero", "GET", "/requests?status=0200", "", []check{hasAdminError(400, adminBadRequest), bodyContains(`status \"0200\"`)}},
		{"requests status 00", "GET", "/requests?status=00", "", []check{hasAdminError(400, adminBadRequest), bodyContains(`status \"00\"`)}},
		{"requests since with a leading zero", "GET", "/requests?since=01", "", []check{hasAdminError(400, adminBadRequest), bodyContains(`since \"01\"`)}},
		{"requests limit with a plus", "GET", "/requests?limit=%2B5", "", []check{hasAdminError(400, adminBadRequest), bodyContains(`limit \"+5\"`)}},
		{"requests limit with a leading zero", "GET", "/requests?limit=05", "", []check{hasAdminError(400, adminBadRequest), bodyContains(`limit \"05\"`)}},
		{"requests limit in hex", "GET", "/requests?limit=0x10", "", []check{hasAdminError(400, adminBadRequest)}},
		// An empty value is no filter given: read as none, ?fault=$ID with
		// ID unset listed every call, not the calls of no fault.
		{"requests empty fault", "GET", "/requests?fault=", "", []check{hasAdminError(400, adminBadRequest), bodyContains("fault is empty")}},
		{"requests empty status", "GET", "/requests?status=&limit=5", "", []check{hasAdminError(400, adminBadRequest), bodyContains("status is empty")}},
		{"requests bare operation", "GET", "/requests?operation", "", []check{hasAdminError(400, adminBadRequest), bodyContains("operation is empty")}},
		{"entry with a leading zero", "GET", "/requests/01", "", []check{hasAdminError(404, adminNotFound), bodyContains(`\"01\"`)}},
		// Read as no filter, or as the first value, they listed calls not asked for.
		{"text after the fault", "POST", "/faults", `{"status":503}]`, []check{hasAdminError(400, adminBadRequest), bodyContains("text after the fault object")}},
		{"two faults", "POST", "/faults", `{"status":503} {"drop":true}`, []check{hasAdminError(400, adminBadRequest), bodyContains("more than one JSON value")}},
		{"requests unknown parameter", "GET", "/requests?op=ReturnProvinces", "", []check{hasAdminError(400, adminBadRequest), bodyContains(`unknown parameter \"op\"`)}},
		{"requests repeated parameter", "GET", "/requests?operation=ReturnProvinces&operation=ReturnInstitutions", "", []check{hasAdminError(400, adminBadRequest), bodyContains("operation given 2 times")}},
		{"requests bad summary", "GET", "/requests?summary=maybe", "", []check{hasAdminError(400, adminBadRequest), bodyContains("summary")}},
		// Read as a filter, the query would have made a fault of every
		// operation: the fault is the body, whole.
		{"add a fault with a query", "POST", "/faults?operation=ReturnProvinces", `{"status":503}`, []check{hasAdminError(400, adminBadRequest), bodyContains("takes no query"), bodyContains(`(\"operation=ReturnProvinces\")`)}},
		// Lists that filter nothing: a query meant as a filter listed all.
		{"faults with a filter", "GET", "/faults?operation=ReturnProvinces", "", []check{hasAdminError(400, adminBadRequest), bodyContains("takes no query"), bodyContains("every active fault")}},
		{"cities with a filter", "GET", "/cities?province=NB", "", []check{hasAdminError(400, adminBadRequest), bodyContains("takes no query")}},
		{"institutions with a filter", "GET", "/institutions?kind=bank", "", []check{hasAdminError(400, adminBadRequest), bodyContains("takes no query")}},
		// Reads of one thing: a query was ignored, as the lists' was.
		{"info with a query", "GET", "/info?verbose=1", "", []check{hasAdminError(400, adminBadRequest), bodyContains("takes no query"), bodyContains(`(\"verbose=1\")`)}},
		{"entry with a query", "GET", "/requests/1?summary=true", "", []check{hasAdminError(400, adminBadRequest), bodyContains("takes no query"), bodyContains("one call")}},
		{"fault with a query", "GET", "/faults/f1?operation=ReturnProvinces", "", []check{hasAdminError(400, adminBadRequest), bodyContains("takes no query")}},
		{"no such entry", "GET", "/requests/99", "", []check{hasAdminError(404, adminNotFound)}},
		{"entry not a number", "GET", "/requests/latest", "", []check{hasAdminError(404, adminNotFound)}},
		{"delete one entry", "DELETE", "/requests/1", "", []check{hasAdminError(405, adminMethodNotAllowed)}},
		// DELETE /__admin/requests/$SEQ with SEQ unset: refused, as for
		// faults, saying how to empty the journal.
		{"delete requests with a slash", "DELETE", "/requests/", "", []check{hasAdminError(405, adminMethodNotAllowed),
			bodyContains("DELETE /__admin/requests, without the slash, empties the journal")}},
		{"unknown endpoint", "GET", "/stubs", "", []check{hasAdminError(404, adminNotFound)}},
		{"admin root: sent to the page", "GET", "", "", []check{hasStatus(200), hasContentType("text/html; charset=utf-8")}},
		{"post admin root", "POST", "", "", []check{hasAdminError(404, adminNotFound)}},
		{"no such fault", "DELETE", "/faults/f99", "", []check{hasAdminError(404, adminNotFound)}},
		{"put faults", "PUT", "/faults", `{}`, []check{hasAdminError(405, adminMethodNotAllowed)}},
		{"post requests", "POST", "/requests", `{}`, []check{hasAdminError(405, adminMethodNotAllowed)}},
		{"get no such fault", "GET", "/faults/f1", "", []check{hasAdminError(404, adminNotFound)}},
		{"post one fault", "POST", "/faults/f1", `{}`, []check{hasAdminError(405, adminMethodNotAllowed)}},
		{"delete cities", "DELETE", "/cities", "", []check{hasAdminError(405, adminMethodNotAllowed)}},
		{"post health", "POST", "/health", "", []check{hasAdminError(405, adminMethodNotAllowed)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			adminChecks(t, admin(t, tt.method, a+tt.path, "", tt.body), tt.checks...)
		})
	}
	wantHeader(t, admin(t, "PUT", a+"/faults", "", `{}`), "Allow", "GET, HEAD, POST, DELETE")
	// A file saved with a byte order mark is read as the JSON it holds.
	adminChecks(t, admin(t, "POST", a+"/faults", "", "\ufeff"+`{"status":503}`), hasStatus(201))
	ts.ClearFaults()
	if f := ts.Faults(); len(f) != 0 {
		t.Errorf("bad input added faults: %+v", f)
	}
}

func TestAdminToken(t *testing.T) {
	t.Parallel()
	const token = "s3cret-token"
	ts := NewTestServer(t, WithDataset(smallDataset()), WithAdminToken(token))
	a := ts.URL + "/__admin"
	adminChecks(t, admin(t, "GET", a+"/health", "", ""), hasStatus(200))
	for _, path := range []string{"/requests", "/faults", "/cities", "/institutions", "/nope"} {
		r := admin(t, "GET", a+path, "", "")
		adminChecks(t, r, hasAdminError(401, adminUnauthorized))
		wantHeader(t, r, "WWW-Authenticate", `Bearer realm="atmkit admin"`)
		adminChecks(t, admin(t, "GET", a+path, "wrong", ""), hasAdminError(401, adminUnauthorized))
		adminChecks(t, admin(t, "GET", a+path, token+"x", ""), hasAdminError(401, adminUnauthorized))
	}
	adminChecks(t, admin(t, "POST", a+"/faults", "", `{"status":503}`), hasAdminError(401, adminUnauthorized))
	adminChecks(t, admin(t, "DELETE", a+"/requests", "", ""), hasAdminError(401, adminUnauthorized))
	if f := ts.Faults(); len(f) != 0 {
		t.Errorf("an unauthorized POST added faults: %+v", f)
	}

	basic := mustRequest(t, "GET", a+"/faults", "")
	basic.SetBasicAuth("admin", token)
	adminChecks(t, doAdmin(t, basic), hasAdminError(401, adminUnauthorized), bodyContains("bearer token"), bodyContains("not the Basic scheme"))

	// The refusal says what is wrong: the header missing, or the token.
	adminChecks(t, admin(t, "GET", a+"/faults", "", ""), bodyContains("needs the header Authorization: Bearer <token>"))
	r := admin(t, "GET", a+"/faults", "wrong", "")
	adminChecks(t, r, bodyContains("is not the mock's admin token"))
	wantHeader(t, r, "WWW-Authenticate", `Bearer realm="atmkit admin", error="invalid_token"`)
	if strings.Contains(r.body, "needs the header") || strings.Contains(r.body, token) {
		t.Errorf("a wrong token: got %s, want a refusal of the token, not of a missing header, and no token", r.body)
	}
	bare := mustRequest(t, "GET", a+"/faults", "")
	bare.Header.Set("Authorization", token)
	r = doAdmin(t, bare)
	adminChecks(t, r, hasAdminError(401, adminUnauthorized), bodyContains("not the given scheme"))
	if strings.Contains(r.body, token) {
		t.Errorf("a token sent without a scheme is repeated in the refusal: %s", r.body)
	}

	adminChecks(t, admin(t, "GET", a+"/requests", token, ""), hasStatus(200))
	adminChecks(t, admin(t, "POST", a+"/faults", token, `{"status":503}`), hasStatus(201))
	lower := mustRequest(t, "GET", a+"/faults", "")
	lower.Header.Set("Authorization", "bearer "+token)
	adminChecks(t, doAdmin(t, lower), hasStatus(200), bodyContains(`"status":503`))
}

// TestAdminRefusesCrossSiteChanges: a page of another site open in the
// user's browser cannot change a mock without a token (a form or a no-cors
// fetch POSTs without a preflight): the admin API refuses a browser's
// cross-origin POST and DELETE with 403, and takes the same-origin ones of
// its own page, those of clients that are no browser, and reads.
func TestAdminRefusesCrossSiteChanges(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	a := ts.URL + "/__admin"
	send := func(method, path, body string, header map[string]string) adminResult {
		req := mustRequest(t, method, a+path, body)
		req.Header.Set("Content-Type", "text/plain;charset=UTF-8") // what a form or a no-cors fetch can send
		for k, v := range header {
			req.Header.Set(k, v)
		}
		return doAdmin(t, req)
	}
	crossSite := []map[string]string{
		{"Sec-Fetch-Site": "cross-site", "Origin": "https://attacker.example"},
		{"Origin": "https://attacker.example"}, // an older browser: no Sec-Fetch-Site
		{"Sec-Fetch-Site": "same-site", "Origin": "http://other.localhost:8080"},
	}
	for _, h := range crossSite {
		adminChecks(t, send("POST", "/faults", `{"drop":true}`, h), hasAdminError(403, adminForbidden), bodyContains("another site"))
		adminChecks(t, send("DELETE", "/requests", "", h), hasAdminError(403, adminForbidden))
		adminChecks(t, send("DELETE", "/faults", "", h), hasAdminError(403, adminForbidden))
		adminChecks(t, send("GET", "/faults", "", h), hasStatus(200))
	}
	if f := ts.Faults(); len(f) != 0 {
		t.Fatalf("a cross-site POST added faults: %+v", f)
	}
	adminChecks(t, send("POST", "/faults", `{"status":503}`, map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": ts.URL}), hasStatus(201))
	adminChecks(t, send("POST", "/faults", `{"status":504}`, nil), hasStatus(201))                                // curl, a test
	adminChecks(t, send("DELETE", "/faults/f1", "", map[string]string{"Sec-Fetch-Site": "none"}), hasStatus(204)) // typed in the address bar
	if f := ts.Faults(); len(f) != 1 || f[0].Status != 504 {
		t.Errorf("faults: got %+v, want f2 alone", f)
	}
}

// TestAdminRefusesForeignHosts: on loopback with no token, the admin API
// answers only requests naming this host (an IP address, localhost, a name
// under .localhost, the machine's host name, or one given with
// WithAdminHosts): a web page that points a DNS name of its own at
// 127.0.0.1 (DNS rebinding) gets 403 for its reads and its changes alike.
// Health, the service's calls and requests with the token are not checked.
func TestAdminRefusesForeignHosts(t *testing.T) {
	t.Parallel()
	send := func(url, host, token string) adminResult {
		req := mustRequest(t, "GET", url, "")
		req.Host = host
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		return doAdmin(t, req)
	}
	ts := NewTestServer(t, WithDataset(smallDataset()), WithAdminHosts("Mock.Test:8080", "ci-mock."))
	port := strings.TrimPrefix(ts.URL[strings.LastIndex(ts.URL, ":"):], ":")
	for _, host := range []string{"", "127.0.0.1:" + port, "127.0.0.1", "[::1]:" + port, "localhost:" + port, "LOCALHOST.",
		"app.localhost:" + port, "mock.test", "MOCK.TEST:" + port, "ci-mock:" + port} {
		adminChecks(t, send(ts.URL+"/__admin/faults", host, ""), hasStatus(200))
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		adminChecks(t, send(ts.URL+"/__admin/faults", h+":"+port, ""), hasStatus(200))
	}
	for _, host := range []string{"attacker.example:" + port, "attacker.example", "localhost.attacker.example", "mock.test.attacker.example"} {
		for _, path := range []string{"/faults", "/requests", "/requests/1", "/info", "/", "/nope"} {
			r := send(ts.URL+"/__admin"+path, host, "")
			adminChecks(t, r, hasAdminError(403, adminForbidden), bodyContains("DNS rebinding"), bodyContains("--admin-host"))
		}
		req := mustRequest(t, "POST", ts.URL+"/__admin/faults", `{"drop":true}`)
		req.Host = host
		adminChecks(t, doAdmin(t, req), hasAdminError(403, adminForbidden))
		adminChecks(t, send(ts.URL+"/__admin/health", host, ""), hasStatus(200))
		adminChecks(t, send(ts.URL+asmx.ServicePath+"/ReturnProvinces?strAtmServiceKey=k", host, ""), hasStatus(200))
	}
	if f := ts.Faults(); len(f) != 0 {
		t.Fatalf("a foreign host added faults: %+v", f)
	}

	// With a token, or with any host allowed, names are not checked.
	withToken := NewTestServer(t, WithDataset(smallDataset()), WithAdminToken("tok"))
	adminChecks(t, send(withToken.URL+"/__admin/faults", "attacker.example", "tok"), hasStatus(200))
	adminChecks(t, send(withToken.URL+"/__admin/faults", "attacker.example", ""), hasAdminError(401, adminUnauthorized))
	anyHost := NewTestServer(t, WithDataset(smallDataset()), WithAdminHosts("*"))
	adminChecks(t, send(anyHost.URL+"/__admin/faults", "attacker.example", ""), hasStatus(200))

	for _, bad := range []string{"", " ", "a b", "http://mock.test/", "user@mock.test"} {
		if _, err := New(WithAdminHosts(bad)); err == nil || !strings.Contains(err.Error(), "admin host") {
			t.Errorf("WithAdminHosts(%q): got %v, want an error naming the admin host", bad, err)
		}
	}
}

// TestAdminJSONKeepsMarkup: the admin API writes <, > and & as they are, as
// its documented samples show them ("body":"<?xml ..."), not as \u003c: a
// journal read with curl shows the XML that was sent and answered, and a
// fault's text reads as ASMX words it (---> Injected fault.).
func TestAdminJSONKeepsMarkup(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	a := ts.URL + "/__admin"
	r := admin(t, "POST", a+"/faults", "", `{"operation":"ReturnInstitutions","soapFault":{}}`)
	adminChecks(t, r, hasStatus(201), bodyContains(`"text":"Server was unable to process request. ---> Injected fault."`))
	adminChecks(t, admin(t, "GET", a+"/faults", "", ""), bodyContains(`---> Injected fault.`))
	runChecks(t, call(t, ts.URL, asmx.SOAP11, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))
	for _, path := range []string{"/requests", "/requests/1"} {
		r = admin(t, "GET", a+path, "", "")
		adminChecks(t, r, hasStatus(200), bodyContains(`"body":"<?xml version=\"1.0\" encoding=\"utf-8\"?>`), bodyContains(`<soap:Envelope`))
		if strings.Contains(r.body, `\u003c`) || strings.Contains(r.body, `\u003e`) || strings.Contains(r.body, `\u0026`) {
			t.Errorf("GET %s escapes markup: %.300s", path, r.body)
		}
		// Markup as it is, so never sniffed nor run as a page.
		wantHeader(t, r, "X-Content-Type-Options", "nosniff")
		wantHeader(t, r, "Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
	}
	// Marshalled by an encoder that escapes, the entry is still escaped.
	b, err := json.Marshal(ts.Journal(RequestFilter{}))
	if err != nil || strings.Contains(string(b), "<soap:") || !strings.Contains(string(b), `\u003csoap:`) {
		t.Errorf("json.Marshal of the journal: %v, %.200s", err, b)
	}
}

// TestAdminRequestsLastSeq: GET /__admin/requests says the seq of the
// newest call journaled, filters, since and limit aside, and after the
// journal is emptied: a reader polling with since can tell a mock started
// anew (lastSeq below its since) from one with nothing new.
func TestAdminRequestsLastSeq(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithJournalSize(2))
	a := ts.URL + "/__admin"
	last := func(query string) float64 {
		t.Helper()
		r := admin(t, "GET", a+"/requests"+query, "", "")
		adminChecks(t, r, hasStatus(200))
		n, ok := jsonBody(t, r)["lastSeq"].(float64)
		if !ok {
			t.Fatalf("GET /requests%s: no lastSeq: %s", query, r.body)
		}
		return n
	}
	if n := last(""); n != 0 {
		t.Errorf("lastSeq before any call: got %v, want 0", n)
	}
	for range 3 {
		runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))
	}
	for _, q := range []string{"", "?since=3", "?since=9", "?limit=1&summary=true", "?operation=ReturnInstitutions"} {
		if n := last(q); n != 3 {
			t.Errorf("lastSeq of /requests%s: got %v, want 3 (the journal keeps 2)", q, n)
		}
	}
	adminChecks(t, admin(t, "DELETE", a+"/requests", "", ""), hasStatus(204))
	if n := last(""); n != 3 {
		t.Errorf("lastSeq after the journal was emptied: got %v, want 3 still", n)
	}
}

// TestAdminRequestsMatched: GET /__admin/requests counts the entries its
// filters (since included) match before limit keeps the newest, so that a
// reader polling with since and limit knows how many calls it did not
// get.
func TestAdminRequestsMatched(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	for _, op := range []string{asmx.OpReturnProvinces, asmx.OpReturnInstitutions, asmx.OpReturnProvinces, asmx.OpReturnProvinces, asmx.OpReturnInstitutions} {
		runChecks(t, call(t, ts.URL, asmx.HTTPGet, op, paramsFor(op, "k")), hasStatus(200))
	}
	for _, c := range []struct {
		query   string
		matched int
		seqs    []uint64
	}{
		{"", 5, []uint64{1, 2, 3, 4, 5}},
		{"?limit=2&summary=true", 5, []uint64{4, 5}},
		{"?since=1&limit=3", 4, []uint64{3, 4, 5}},
		{"?operation=ReturnProvinces&limit=1", 3, []uint64{4}},
		{"?operation=ReturnProvinces&since=3", 1, []uint64{4}},
		{"?since=5", 0, nil},
	} {
		r := admin(t, "GET", ts.URL+"/__admin/requests"+c.query, "", "")
		adminChecks(t, r, hasStatus(200))
		var got adminRequests
		if err := json.Unmarshal([]byte(r.body), &got); err != nil {
			t.Fatalf("GET /requests%s: %v", c.query, err)
		}
		var seqs []uint64
		for _, e := range got.Requests {
			seqs = append(seqs, e.Seq)
		}
		if got.Matched != c.matched || !slices.Equal(seqs, c.seqs) {
			t.Errorf("GET /requests%s: got matched %d, seqs %v; want %d, %v", c.query, got.Matched, seqs, c.matched, c.seqs)
		}
	}
}

// TestAdminDeleteWithEmptyID: DELETE /__admin/faults/$ID with $ID empty
// (an unset variable) removes nothing, where the same path without its
// slash would remove every fault; DELETE /__admin/requests/ empties nothing.
func TestAdminDeleteWithEmptyID(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	a := ts.URL + "/__admin"
	for range 2 {
		adminChecks(t, admin(t, "POST", a+"/faults", "", `{"operation":"ReturnInstitutions","status":503}`), hasStatus(201))
	}
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))
	adminChecks(t, admin(t, "DELETE", a+"/faults/", "", ""), hasAdminError(404, adminNotFound), bodyContains("no fault id after /__admin/faults/"))
	adminChecks(t, admin(t, "DELETE", a+"/requests/", "", ""), hasAdminError(405, adminMethodNotAllowed))
	if n := len(ts.Faults()); n != 2 {
		t.Errorf("faults after DELETE /faults/: got %d, want 2", n)
	}
	if n := len(ts.Journal(RequestFilter{})); n != 1 {
		t.Errorf("journal after DELETE /requests/: got %d entries, want 1", n)
	}
	adminChecks(t, admin(t, "DELETE", a+"/faults/f2", "", ""), hasStatus(204))
	adminChecks(t, admin(t, "DELETE", a+"/faults", "", ""), hasStatus(204))
	if n := len(ts.Faults()); n != 0 {
		t.Errorf("faults after DELETE /faults: got %d, want 0", n)
	}
}

// TestAdminDeleteFaultWithSlash: DELETE /__admin/faults/f1/ removes f1, as
// GET /__admin/faults/f1/ reads it; it was answered 404 "no fault with id
// f1/" and the fault kept failing calls, while a caller read the 404 as
// "gone already".
// TestAdminFaultsCapped: a mock holds at most maxFaults faults; one more is
// refused with the admin API's error, until one is removed. Each POST is
// at most 64 KB, but a loop of them grew the mock's memory, and the work
// of every call (each fault counts the calls it matches), without bound.
func TestAdminFaultsCapped(t *testing.T) {
	t.Parallel()
	const max = maxFaults
	ts := NewTestServer(t, WithDataset(smallDataset()))
	a := ts.URL + "/__admin"
	for range max - 1 {
		if _, err := ts.AddFault(Fault{Operation: asmx.OpReturnProvinces, Status: 503}); err != nil {
			t.Fatal(err)
		}
	}
	fault := `{"operation":"ReturnProvinces","status":503}`
	adminChecks(t, admin(t, "POST", a+"/faults", "", fault), hasStatus(201), bodyContains(fmt.Sprintf(`"id":"f%d"`, max)))
	adminChecks(t, admin(t, "POST", a+"/faults", "", fault), hasAdminError(400, adminBadRequest),
		bodyContains("fault: the mock holds 10000 faults, the most it takes: remove one first"))
	if _, err := ts.AddFault(Fault{Status: 503}); err == nil {
		t.Error("AddFault beyond the cap: got no error")
	}
	adminChecks(t, admin(t, "DELETE", a+"/faults/f1", "", ""), hasStatus(204))
	adminChecks(t, admin(t, "POST", a+"/faults", "", fault), hasStatus(201))
	if n := len(ts.Faults()); n != max {
		t.Errorf("faults: got %d, want %d", n, max)
	}
}

func TestAdminDeleteFaultWithSlash(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	a := ts.URL + "/__admin"
	adminChecks(t, admin(t, "POST", a+"/faults", "", `{"operation":"ReturnProvinces","status":503}`), hasStatus(201))
	adminChecks(t, admin(t, "GET", a+"/faults/f1/", "", ""), hasStatus(200), bodyContains(`"id":"f1"`))
	adminChecks(t, admin(t, "DELETE", a+"/faults/f1/", "", ""), hasStatus(204))
	if fs := ts.Faults(); len(fs) != 0 {
		t.Errorf("faults after DELETE /faults/f1/: got %v, want none", fs)
	}
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))
	adminChecks(t, admin(t, "DELETE", a+"/faults/f1/", "", ""), hasAdminError(404, adminNotFound), bodyContains(`no fault with id \"f1\" (removed`))
}

// TestAdminReset: POST /__admin/reset, as WireMock's between two tests,
// removes every fault and empties the journal at once (seq numbers keep
// counting); it is a change like the others: the token is needed, a
// cross-site POST is refused and changes nothing, GET is not allowed.
func TestAdminReset(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithAdminToken("tok"))
	a := ts.URL + "/__admin"
	for _, f := range []string{`{"operation":"ReturnProvinces","status":503}`, `{"drop":true,"operation":"ReturnInstitutions"}`} {
		adminChecks(t, admin(t, "POST", a+"/faults", "tok", f), hasStatus(201))
	}
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(503))

	adminChecks(t, admin(t, "POST", a+"/reset", "", ""), hasAdminError(401, adminUnauthorized))
	req := mustRequest(t, "POST", a+"/reset", "")
	req.Header.Set("Authorization", "Bearer tok")
	req.Header.Set("Sec-Fetch-Site", "cross-site")
	req.Header.Set("Origin", "https://attacker.example")
	adminChecks(t, doAdmin(t, req), hasAdminError(403, adminForbidden))
	r := admin(t, "GET", a+"/reset", "tok", "")
	adminChecks(t, r, hasAdminError(405, adminMethodNotAllowed))
	wantHeader(t, r, "Allow", "POST")
	if n, j := len(ts.Faults()), len(ts.Journal(RequestFilter{})); n != 2 || j != 1 {
		t.Fatalf("before the reset: %d faults and %d calls, want 2 and 1", n, j)
	}

	adminChecks(t, admin(t, "POST", a+"/reset", "tok", ""), hasStatus(204))
	adminChecks(t, admin(t, "GET", a+"/faults", "tok", ""), bodyContains(`{"faults":[]}`))
	adminChecks(t, admin(t, "GET", a+"/requests", "tok", ""), bodyContains(`{"requests":[],"matched":0,"lastSeq":1,"held":[],"instance":"`))
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnInstitutions, paramsFor(asmx.OpReturnInstitutions, "k")), hasStatus(200))
	if es := ts.Journal(RequestFilter{}); len(es) != 2 || es[0].Seq != 2 || es[0].Fault != "" || es[1].Fault != "" {
		t.Errorf("the calls after the reset: got %+v, want seq 2 and 3, no fault", es)
	}
}

// TestAdminChangesLogged: each change the admin API makes is said in the
// log, a fault added with its id and what it answers (the request's own
// line said only "POST /__admin/faults 201": a call failing later in a CI
// log could not be traced to the fault), with the configured key masked
// where the fault's text quotes it.
func TestAdminChangesLogged(t *testing.T) {
	t.Parallel()
	const key = "Log-Key-90210"
	var buf mocktest.SyncBuffer
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys(key), WithLogger(slog.New(slog.NewTextHandler(&buf, nil))))
	a := ts.URL + "/__admin"
	adminChecks(t, admin(t, "POST", a+"/faults", "", `{"operation":"ReturnProvinces","binding":"soap12","status":503}`), hasStatus(201))
	adminChecks(t, admin(t, "POST", a+"/faults", "", `{"operation":"ReturnInstitutions","soapFault":{"text":"key `+key+` refused"}}`), hasStatus(201))
	adminChecks(t, admin(t, "DELETE", a+"/faults/f1", "", ""), hasStatus(204))
	adminChecks(t, admin(t, "DELETE", a+"/faults", "", ""), hasStatus(204))
	adminChecks(t, admin(t, "DELETE", a+"/requests", "", ""), hasStatus(204))
	adminChecks(t, admin(t, "POST", a+"/reset", "", ""), hasStatus(204))
	log := buf.String()
	for _, want := range []string{
		`msg="admin: fault added" id=f1 fault="{\"id\":\"f1\",\"operation\":\"ReturnProvinces\",\"binding\":\"soap12\",\"status\":503}"`,
		`msg="admin: fault added" id=f2`,
		`msg="admin: fault removed" id=f1`,
		`msg="admin: every fault removed"`,
		`msg="admin: journal emptied"`,
		`msg="admin: every fault removed and the journal emptied (reset)"`,
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the log lacks %s:\n%s", want, log)
		}
	}
	if strings.Contains(log, key) {
		t.Errorf("the log holds the key:\n%s", log)
	}
	if !strings.Contains(log, MaskKey(key)) {
		t.Errorf("the log does not show the fault's text with the key masked (%s):\n%s", MaskKey(key), log)
	}
}

// TestAdminReadsLogAtDebug: the request log keeps the service's calls and
// the admin API's changes and refusals at info, and the admin API's and
// page's reads at debug only: an open page, which polls every second, and a
// health loop do not fill the log.
func TestAdminReadsLogAtDebug(t *testing.T) {
	t.Parallel()
	for _, level := range []slog.Level{slog.LevelInfo, slog.LevelDebug} {
		var buf mocktest.SyncBuffer
		ts := NewTestServer(t, WithDataset(smallDataset()), WithAdminToken("tok"),
			WithLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: level}))))
		a := ts.URL + "/__admin"
		runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))
		adminChecks(t, admin(t, "GET", a+"/requests?summary=true", "tok", ""), hasStatus(200))
		adminChecks(t, admin(t, "GET", a+"/health", "", ""), hasStatus(200))
		adminChecks(t, admin(t, "GET", a+"/", "", ""), hasStatus(200))
		adminChecks(t, admin(t, "POST", a+"/faults", "tok", `{"status":503,"times":1}`), hasStatus(201))
		adminChecks(t, admin(t, "GET", a+"/faults", "wrong", ""), hasStatus(401))
		log := buf.String()
		always := []string{"path=/service/service.asmx/ReturnProvinces status=200", "method=POST path=/__admin/faults status=201",
			"method=GET path=/__admin/faults status=401"}
		reads := []string{"path=/__admin/requests status=200", "path=/__admin/health status=200", "path=/__admin/ status=200"}
		for _, want := range always {
			if !strings.Contains(log, want) {
				t.Errorf("log at %s: no %q in\n%s", level, want, log)
			}
		}
		for _, read := range reads {
			if got := strings.Contains(log, read); got != (level == slog.LevelDebug) {
				t.Errorf("log at %s: %q logged: %v, want %v\n%s", level, read, got, level == slog.LevelDebug, log)
			}
		}
	}
}

// TestLogMasksAKeyInThePath: a call whose URL was built with & for ? (the
// key in the path) logs the path and the error that repeats it with the
// key masked, as the journal shows them, also with no --key to know it by.
// ASP.NET refuses a path holding "&" before ASMX sees it (an error that
// does not repeat the path), unless requestPathInvalidCharacters leaves
// "&" out, as here: then ASMX's error repeats the path.
func TestLogMasksAKeyInThePath(t *testing.T) {
	t.Parallel()
	const key = "leaky-key-4242"
	var buf mocktest.SyncBuffer
	ts := NewTestServer(t, WithDataset(smallDataset()), WithLogger(slog.New(slog.NewTextHandler(&buf, nil))), WithRequestPathInvalidChars(""))
	for _, path := range []string{"/service/service.asmx/ReturnProvinces&strAtmServiceKey=" + key,
		"/service-v2.asmx/ReturnAtmSearchByCoordinates;STRATMSERVICEKEY=" + key + "&dblLatitude=44"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	log := buf.String()
	if strings.Contains(log, key) || strings.Count(log, MaskKey(key)) != 4 {
		t.Errorf("the log shows the key, or not its mask in each path and error:\n%s", log)
	}
	for _, e := range ts.Journal(RequestFilter{}) {
		if strings.Contains(e.Path, key) {
			t.Errorf("journal path %q", e.Path)
		}
	}
}

// TestSummaryMasksAsTheEntry: the summary list (the page's list) masks a
// path as the entry in full does: a key the query sends that the path
// repeats is masked in both, before and after the entry is first read.
func TestSummaryMasksAsTheEntry(t *testing.T) {
	t.Parallel()
	const key = "path-key-98765"
	ts := NewTestServer(t, WithDataset(smallDataset()))
	a := ts.URL + "/__admin"
	resp, err := http.Get(ts.URL + "/service/service.asmx/Nope/" + key + "?strAtmServiceKey=" + key)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, path := range []string{"/requests?summary=true", "/requests/1", "/requests?summary=true"} {
		r := admin(t, "GET", a+path, "", "")
		adminChecks(t, r, hasStatus(200), bodyContains(`"path":"/service/service.asmx/Nope/`+MaskKey(key)+`"`))
		if strings.Contains(r.body, key) {
			t.Errorf("GET %s shows the key: %s", path, r.body)
		}
	}
}

// TestAdminGetOneFault: the Location a POST of a fault answers with reads
// the fault back, with its times left, until it is gone.
func TestAdminGetOneFault(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	a := ts.URL + "/__admin"
	r := admin(t, "POST", a+"/faults", "", `{"operation":"ReturnProvinces","status":503,"times":2}`)
	adminChecks(t, r, hasStatus(201))
	loc := r.header.Get("Location")
	if loc != "/__admin/faults/f1" {
		t.Fatalf("Location: got %q", loc)
	}
	adminChecks(t, admin(t, "GET", ts.URL+loc, "", ""), hasStatus(200), isJSON(),
		bodyContains(`{"id":"f1","operation":"ReturnProvinces","status":503,"times":2}`))
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(503))
	adminChecks(t, admin(t, "GET", ts.URL+loc, "", ""), bodyContains(`"times":1}`))
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(503))
	adminChecks(t, admin(t, "GET", ts.URL+loc, "", ""), hasAdminError(404, adminNotFound), bodyContains("times ran out"))
	wantHeader(t, admin(t, "PUT", ts.URL+loc, "", `{}`), "Allow", "GET, HEAD, DELETE")
}

// TestAdminJournalOff: with the journal off, an entry asked for is refused
// saying so, not as if it had been dropped.
func TestAdminJournalOff(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithJournalSize(0))
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))
	adminChecks(t, admin(t, "GET", ts.URL+"/__admin/requests/1", "", ""), hasAdminError(404, adminNotFound),
		bodyContains("the journal is off (--journal-size 0)"))
	adminChecks(t, admin(t, "GET", ts.URL+"/__admin/requests", "", ""), bodyContains(`{"requests":[],"matched":0,"lastSeq":0,"held":[],"instance":"`))
}

// TestAdminRequestsStatusZero: status=0 lists the calls answered with no
// response (a drop, garbage), which the journal shows with status 0; no
// other status matches them.
func TestAdminRequestsStatusZero(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	if _, err := ts.AddFault(Fault{Operation: asmx.OpReturnProvinces, Drop: true, Times: 1}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		resp, err := http.Get(ts.URL + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=k")
		if err == nil {
			resp.Body.Close()
		}
	}
	r := admin(t, "GET", ts.URL+"/__admin/requests?status=0&summary=true", "", "")
	adminChecks(t, r, hasStatus(200))
	reqs := jsonBody(t, r)["requests"].([]any)
	if len(reqs) != 1 || reqs[0].(map[string]any)["error"] != "Dropped" || reqs[0].(map[string]any)["status"] != 0.0 {
		t.Errorf("status=0: got %s, want the dropped call alone", r.body)
	}
	adminChecks(t, admin(t, "GET", ts.URL+"/__admin/requests?status=00", "", ""), hasAdminError(400, adminBadRequest), bodyContains("or 0 for the calls answered with no response"))
}

// TestAdminListToAStalledReader: clients that ask for the whole journal
// and never read the answer do not each make the mock hold a copy of it
// (not parallel: it measures the heap). The answer was made whole before
// it was written, and held until the write timeout: 20 such clients took
// a mock with a full journal from 130 MB to 1.1 GB.
func TestAdminListToAStalledReader(t *testing.T) {
	// The heap is the process's: in runs of the whole package it grew by
	// 2-22 MB (and once past the bound), alone by 2 MB in ten runs, so
	// what other tests leave running counted.
	if !mocktest.RunAlone(t, 2*time.Minute) {
		return
	}
	const entries, readers, bodyMax = 100, 10, 64 << 10
	ts := NewTestServer(t, WithDataset(smallDataset()), WithJournalSize(entries), WithJournalBodyMax(bodyMax))
	note := "<!--" + strings.Repeat("x", bodyMax) + "-->"
	for range entries {
		do(t, provincesRequest(t, ts.URL, asmx.ContentTypeSOAP11, provincesEnvelope("k", note)))
	}
	size := len(adminGet(t, ts.URL+"/__admin/requests"))
	var before, now runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	addr := strings.TrimPrefix(ts.URL, "http://")
	for range readers {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.(*net.TCPConn).SetReadBuffer(4096)
		if _, err := io.WriteString(c, "GET /__admin/requests HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
	}
	// The answers are made as the readers wait; the heap is watched a
	// while (it grew at once when each answer was made whole, and stayed
	// so while the readers stalled). What counts is the least it grew
	// by: what the mock holds for a stalled reader is in every sample,
	// while the garbage of entries still being written (the readers'
	// goroutines run between the collection and the reading of the
	// heap's size) comes and goes: on a loaded host it was 20-39 MB of
	// some samples, and 2 MB on a quiet one.
	most, least := int64(0), int64(math.MaxInt64)
	for range 30 {
		time.Sleep(100 * time.Millisecond)
		runtime.GC()
		runtime.ReadMemStats(&now)
		grew := int64(now.HeapAlloc) - int64(before.HeapAlloc)
		most, least = max(most, grew), min(least, grew)
	}
	t.Logf("%d stalled readers of a %d-byte list: the heap grew by %d to %d bytes", readers, size, least, most)
	if mocktest.Race {
		// Under the race detector the heap grows by 17-40 MB here (2 MB
		// without it): the bound is checked by the run without it.
		return
	}
	if least > int64(readers*size/2) {
		t.Errorf("%d readers that do not read a %d-byte list: the heap grew by %d bytes at least, want well under their %d", readers, size, least, readers*size)
	}
}

// TestAdminPollsLeftByTheirClients: a GET /__admin/requests waiting its
// turn to read the journal ends when its client goes away, and its
// connection closes then, not once the journal is free. Under load polls
// queued for the journal's lock, and each whose client had given up (a
// timeout) held its connection half-closed (CLOSE-WAIT) until its turn:
// thousands in a race-detector stress of the admin API. The test holds
// the journal's lock, as a long read of a busy journal does, and counts
// the server's open connections.
func TestAdminPollsLeftByTheirClients(t *testing.T) {
	t.Parallel()
	s, err := New(WithDataset(smallDataset()))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var open, active atomic.Int64
	srv := serve.Start(ln, s, serve.Options{Grace: time.Second, ConnState: func(_ net.Conn, st http.ConnState) {
		switch st {
		case http.StateNew:
			open.Add(1)
		case http.StateActive:
			active.Add(1)
		case http.StateClosed, http.StateHijacked:
			open.Add(-1)
		}
	}})
	t.Cleanup(func() { _ = srv.Close() })
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		for end := time.Now().Add(30 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
			if time.Now().After(end) {
				t.Fatalf("%s: not within 30 s (%d connections open)", what, open.Load())
			}
		}
	}

	const polls = journalReadsAtOnce + 8
	s.journal.mu.Lock()
	locked := true
	defer func() {
		if locked {
			s.journal.mu.Unlock()
		}
	}()
	var conns []net.Conn
	for range polls {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		if _, err := io.WriteString(c, "GET /__admin/requests?limit=5 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
	}
	waitFor("the polls served", func() bool { return active.Load() == polls })
	for _, c := range conns {
		c.Close() // the clients give up
	}
	// The polls reading the journal wait for its lock; the others leave
	// with their clients.
	waitFor("the polls without a slot gone", func() bool { return open.Load() <= journalReadsAtOnce })
	s.journal.mu.Unlock()
	locked = false
	waitFor("every connection closed", func() bool { return open.Load() == 0 })
	// The journal is read as before.
	r := admin(t, "GET", srv.URL+"/__admin/requests", "", "")
	adminChecks(t, r, hasStatus(200), bodyContains(`"matched":0`))
}

// TestAdminPollOfTheNewestCopiesFew: a poll for the newest entries of a
// full journal (limit) copies those, not the whole journal, while it holds
// the journal's lock (not parallel: it measures allocations). Every poll
// copied all 1,000 entries, then kept the newest.
func TestAdminPollOfTheNewestCopiesFew(t *testing.T) {
	const entries, polls = 1000, 20
	ts := NewTestServer(t, WithDataset(smallDataset()), WithJournalSize(entries))
	for range entries + 1 {
		call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	}
	all := func(*journalRecord) bool { return true }
	got := ts.journal.read(all, 3, false)
	if len(got) != 3 || got[0].Seq != entries-1 || got[2].Seq != entries+1 {
		t.Fatalf("the newest 3: got seqs %v", seqsOf(got))
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range polls {
		ts.journal.read(all, 1, false)
	}
	runtime.ReadMemStats(&after)
	whole := uint64(entries) * uint64(unsafe.Sizeof(journalRecord{}))
	if per := (after.TotalAlloc - before.TotalAlloc) / polls; per > whole/10 {
		t.Errorf("a read of the newest entry of %d allocates %d bytes, want well under the %d of a copy of them all", entries, per, whole)
	}
}

func seqsOf(es []JournalEntry) []uint64 {
	out := make([]uint64, len(es))
	for i, e := range es {
		out[i] = e.Seq
	}
	return out
}

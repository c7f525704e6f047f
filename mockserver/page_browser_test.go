package mockserver

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"maps"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/atomicfile"
)

// pageWait is how long the page test waits for a condition: generous, as
// the machines running it are shared; nothing is asserted of how long a
// step took.
const pageWait = 90 * time.Second

// watchProblems makes every document of the tab note its script errors
// and the Content-Security-Policy violations in window.__problems (the
// tool's script is not subject to the page's policy).
func watchProblems(t *testing.T, ctx context.Context) {
	t.Helper()
	const script = `window.__problems = [];
addEventListener('securitypolicyviolation', (e) => window.__problems.push('CSP ' + e.violatedDirective + ' ' + e.blockedURI));
addEventListener('error', (e) => window.__problems.push('error ' + e.message));
addEventListener('unhandledrejection', (e) => window.__problems.push('rejection ' + e.reason));`
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: script}); err != nil {
		t.Fatalf("watch the page: %v", err)
	}
}

// openAdminPage opens the admin page of the mock at base in a new
// headless Chromium (exe) that watches for problems, and waits for the
// page to show (#app), then for what steps wait for.
func openAdminPage(t *testing.T, exe, base string, steps ...chromedp.Action[chromedp.Void]) context.Context {
	t.Helper()
	ctx := newBrowser(t, exe)
	watchProblems(t, ctx)
	browse(t, ctx, "open the page", append([]chromedp.Action[chromedp.Void]{chromedp.Navigate(base + "/__admin/"), chromedp.WaitVisible(`#app`)}, steps...)...)
	return ctx
}

// noProblems fails the test with the script errors and CSP violations the
// page had.
func noProblems(t *testing.T, ctx context.Context) {
	t.Helper()
	if p := browserValue(t, ctx, "read the problems", chromedp.Evaluate[[]string](`window.__problems || []`)); len(p) > 0 {
		t.Errorf("the page had problems: %q", p)
	}
}

// waitUntil waits for a JavaScript condition to hold on the page.
func waitUntil(t *testing.T, ctx context.Context, what, condition string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](condition, chromedp.WithPollingTimeout(pageWait),
		chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		state, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById('state') ? document.getElementById('state').textContent : ''`))
		t.Fatalf("%s: %v (the page's state: %q)", what, err, state)
	}
}

// js quotes s as a JavaScript string.
func js(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// pageText is everything the page holds: its HTML, the values of its
// inputs, its storage but the tab's token, and the text it shows.
const pageText = `document.documentElement.outerHTML + '\n' +
	[...document.querySelectorAll('input, select, textarea')].map((e) => e.name + '=' + e.value).join('\n') + '\n' +
	document.body.innerText + '\n' + JSON.stringify(localStorage)`

// TestAdminPageInChromium drives the admin page in headless Chromium: it
// asks for the token and keeps it for the tab; calls appear without a
// reload, newest first, with the test hooks; a call opened shows its
// request and answer pretty-printed, the key masked in the whole page; a
// fault added with the form answers the next call, which the list marks,
// and is removed with its button; what the journal holds is shown as
// text (a request with <script> runs nothing); the server shuts down with
// the page open. With -update it writes docs/admin-page.png.
func TestAdminPageInChromium(t *testing.T) {
	t.Parallel()
	exe := requireChromium(t)
	const (
		token = "page-admin-token-7f3a"
		key   = "page-service-key-5521"
	)
	s, err := New(WithAdminToken(token), WithKeys(key))
	if err != nil {
		t.Fatal(err)
	}
	srv, base := serveAt(t, "127.0.0.1:0", s, time.Minute)
	ctx := newBrowser(t, exe)
	watchProblems(t, ctx)

	// Opening: the page asks for the token, then keeps it for this tab.
	browse(t, ctx, "open the page", chromedp.Navigate(base+"/__admin/"), chromedp.WaitVisible(`#login input[name="token"]`))
	if open := browserValue(t, ctx, "read the button", chromedp.Text(`#login button[type="submit"]`)); open != "Open" {
		t.Errorf("the token form's button: got %q, want Open", open)
	}
	browse(t, ctx, "give a wrong token", chromedp.SendKeys(`#login input[name="token"]`, "not-the-token"), chromedp.Click(`#login button[type="submit"]`))
	waitUntil(t, ctx, "the wrong token refused", `document.getElementById('login-error').textContent === 'The mock refused that token.'`)
	browse(t, ctx, "give the token", chromedp.SendKeys(`#login input[name="token"]`, token), chromedp.Click(`#login button[type="submit"]`),
		chromedp.WaitVisible(`#app`))
	waitUntil(t, ctx, "the page goes live", `document.getElementById('state').textContent.startsWith('Live')`)
	if got := browserValue(t, ctx, "read the storage", chromedp.Evaluate[[]string](
		`[sessionStorage.getItem('atmkit.adminToken') || '', String(localStorage.length)]`)); got[0] != token || got[1] != "0" {
		t.Errorf("the token: got sessionStorage %q and %s localStorage items, want it in sessionStorage only", got[0], got[1])
	}
	waitUntil(t, ctx, "the data set", `document.querySelectorAll('#cities tr').length > 0 && document.querySelectorAll('#institutions tr').length > 0`)
	ds := s.Dataset()
	if n := browserValue(t, ctx, "count cities", chromedp.Evaluate[int](`document.querySelectorAll('#cities tr').length`)); n != len(ds.Cities) {
		t.Errorf("cities listed: got %d, want %d", n, len(ds.Cities))
	}
	c := ds.Cities[0]
	if row := browserValue(t, ctx, "read a city", chromedp.Text(`#cities tr`)); !strings.Contains(row, strconv.Itoa(c.ID)) || !strings.Contains(row, c.Name) {
		t.Errorf("first city row: got %q, want its id %d and name %q", row, c.ID, c.Name)
	}

	// Three calls appear without a reload, newest first.
	send := func(b asmx.Binding, op string) int {
		t.Helper()
		return call(t, base, b, op, paramsFor(op, key)).status
	}
	calls := []struct {
		b  asmx.Binding
		op string
	}{{asmx.SOAP11, asmx.OpReturnProvinces}, {asmx.HTTPGet, asmx.OpReturnInstitutions}, {asmx.JSON, asmx.OpReturnAtmSearchByCoordinates}}
	for _, c := range calls {
		if st := send(c.b, c.op); st != http.StatusOK {
			t.Fatalf("%s over %s: got %d, want 200", c.op, c.b, st)
		}
	}
	waitUntil(t, ctx, "three calls listed", `document.querySelectorAll('#call-rows tr').length === 3`)
	rows := browserValue(t, ctx, "read the rows", chromedp.Evaluate[[]map[string]string](
		`[...document.querySelectorAll('#call-rows tr')].map((r) => Object.assign({}, r.dataset))`))
	for i, r := range rows {
		want := calls[len(calls)-1-i]
		if r["operation"] != want.op || r["binding"] != want.b.String() || r["status"] != "200" || r["fault"] != "" {
			t.Errorf("row %d: got %v, want operation %s, binding %s, status 200, no fault", i, r, want.op, want.b)
		}
	}

	// A filter: only the calls of one operation.
	setFilter := func(id, v string) {
		t.Helper()
		browserValue(t, ctx, "set a filter", chromedp.Evaluate[bool](fmt.Sprintf(
			`(() => { const e = document.getElementById(%s); e.value = %s; e.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`, js(id), js(v))))
	}
	setFilter("filter-operation", asmx.OpReturnInstitutions)
	waitUntil(t, ctx, "the filtered list", `(() => { const r = document.querySelectorAll('#call-rows tr'); return r.length === 1 && r[0].dataset.operation === 'ReturnInstitutions'; })()`)
	setFilter("filter-operation", "")
	waitUntil(t, ctx, "the list unfiltered", `document.querySelectorAll('#call-rows tr').length === 3`)

	// Open the SOAP call from the keyboard: its request and answer, XML
	// indented, headers included; the key masked in the whole page.
	browse(t, ctx, "open the SOAP call", chromedp.Focus(`#call-rows tr[data-binding="soap11"] button`), chromedp.KeyEvent("\r"))
	waitUntil(t, ctx, "the SOAP call opened", `document.querySelectorAll('#call-request pre.body, #call-answer pre.body').length === 2`)
	req := browserValue(t, ctx, "read the request", chromedp.Text(`#call-request`))
	ans := browserValue(t, ctx, "read the answer", chromedp.Text(`#call-answer`))
	for _, want := range []string{"POST /service/service.asmx", "Content-Type: text/xml; charset=utf-8", "Soapaction: ",
		"\n  <soap:Body>\n    <ReturnProvinces", "<strAtmServiceKey>" + MaskKey(key) + "</strAtmServiceKey>"} {
		if !strings.Contains(req, want) {
			t.Errorf("the request shown lacks %q:\n%s", want, req)
		}
	}
	for _, want := range []string{"HTTP 200", "Content-Type: text/xml; charset=utf-8", "\n  <soap:Body>\n    <ReturnProvincesResponse"} {
		if !strings.Contains(ans, want) {
			t.Errorf("the answer shown lacks %q:\n%s", want, ans)
		}
	}
	if got := browserValue(t, ctx, "read the focus", chromedp.Evaluate[string](`document.activeElement.id`)); got != "call-title" {
		t.Errorf("focus after opening a call: got #%s, want #call-title", got)
	}
	// The JSON call: its answer formatted.
	browse(t, ctx, "open the JSON call", chromedp.Click(`#call-rows tr[data-binding="json"] button`))
	waitUntil(t, ctx, "the JSON call opened", `document.getElementById('call-title').textContent.includes('over json') && document.querySelector('#call-answer pre.body') !== null`)
	if body := browserValue(t, ctx, "read the JSON answer", chromedp.Text(`#call-answer pre.body`)); !strings.HasPrefix(body, "{\n  \"") {
		t.Errorf("the JSON answer is not formatted: %.200q", body)
	}
	browse(t, ctx, "reopen the SOAP call", chromedp.Click(`#call-rows tr[data-binding="soap11"] button`))
	waitUntil(t, ctx, "the SOAP call reopened", `document.getElementById('call-title').textContent.includes('over soap11') && document.querySelector('#call-answer pre.body') !== null`)
	whole := browserValue(t, ctx, "read the whole page", chromedp.Evaluate[string](pageText))
	for _, secret := range []string{key, token, url.QueryEscape(key)} {
		if strings.Contains(whole, secret) {
			t.Errorf("the page shows %q", secret)
		}
	}
	if !strings.Contains(whole, MaskKey(key)) {
		t.Errorf("the page does not show the key's mask %q", MaskKey(key))
	}

	// Add a fault with the form; the next call gets it and the list marks it.
	browse(t, ctx, "fill the fault form",
		chromedp.Click(`#fault-details summary`),
		chromedp.WaitVisible(`#fault-form select[name="operation"]`),
		chromedp.SetValue(`#fault-form select[name="operation"]`, asmx.OpReturnProvinces),
		chromedp.SendKeys(`#fault-form input[name="status"]`, "503"),
		chromedp.SendKeys(`#fault-form input[name="times"]`, "2"),
		chromedp.SendKeys(`#fault-form input[name="delay"]`, "1ms"))
	if b := browserValue(t, ctx, "read the submit button", chromedp.Text(`#fault-form button[type="submit"]`)); b != "Add fault" {
		t.Errorf("the fault form's button: got %q, want Add fault", b)
	}
	browse(t, ctx, "add the fault", chromedp.Click(`#fault-form button[type="submit"]`))
	waitUntil(t, ctx, "the fault listed", `document.querySelectorAll('#faults li').length === 1`)
	faults := s.Faults()
	if len(faults) != 1 || faults[0].Operation != asmx.OpReturnProvinces || faults[0].Status != 503 || faults[0].Times != 2 || faults[0].Delay != time.Millisecond {
		t.Fatalf("faults after the form: got %+v, want one on ReturnProvinces, status 503, times 2, delay 1ms", faults)
	}
	id := faults[0].ID
	if got := browserValue(t, ctx, "read the form after adding", chromedp.Evaluate[string](
		`document.getElementById('fault-error').textContent + '|' + document.querySelector('#fault-form input[name="status"]').value + '|' + document.getElementById('faults-status').textContent`)); got != "||Added "+id+": operation=ReturnProvinces, delay=1ms, status=503." {
		t.Errorf("after Add fault: got error|status input|message %q, want no error, the form emptied and the fault named", got)
	}
	if st := send(asmx.SOAP11, asmx.OpReturnProvinces); st != http.StatusServiceUnavailable {
		t.Errorf("the call after the fault: got %d, want 503", st)
	}
	waitUntil(t, ctx, "the faulted call marked", fmt.Sprintf(`(() => { const r = document.querySelector('#call-rows tr'); return r !== null && r.dataset.fault === %s && r.dataset.status === '503'; })()`, js(id)))
	waitUntil(t, ctx, "the fault's remaining times", `document.querySelector('#faults li').textContent.includes('1 call left')`)
	screenshotPage(t, ctx)

	// Remove it with its button; the next call is answered normally.
	if b := browserValue(t, ctx, "read the remove button", chromedp.Text(`#faults li button`)); b != "Remove" {
		t.Errorf("the fault's button: got %q, want Remove", b)
	}
	browse(t, ctx, "remove the fault", chromedp.Click(`#faults li button`))
	waitUntil(t, ctx, "the fault gone", `document.querySelectorAll('#faults li').length === 0`)
	waitUntil(t, ctx, "the focus kept", `document.activeElement === document.querySelector('#fault-details summary')`)
	if n := len(s.Faults()); n != 0 {
		t.Errorf("faults after Remove: got %d, want 0", n)
	}
	if st := send(asmx.SOAP11, asmx.OpReturnProvinces); st != http.StatusOK {
		t.Errorf("the call after Remove: got %d, want 200", st)
	}
	waitUntil(t, ctx, "the call after Remove", `(() => { const r = document.querySelector('#call-rows tr'); return r.dataset.status === '200' && !('fault' in r.dataset); })()`)

	// What the journal holds is shown as text: markup in a path and a body
	// runs nothing and makes no element.
	const xss = `<script>window.__xss = 1</script><img src=x onerror="window.__xss = 2"><b>bold</b>`
	markup := mustRequest(t, http.MethodPost, base+"/service/service.asmx", xss)
	markup.Header.Set("Content-Type", "text/xml; charset=utf-8")
	do(t, markup)
	do(t, mustRequest(t, http.MethodGet, base+"/"+url.PathEscape(`<img src=x onerror="window.__xss=3">`), ""))
	waitUntil(t, ctx, "the markup calls listed", `document.querySelectorAll('#call-rows tr').length === 7`)
	browse(t, ctx, "open the markup body", chromedp.Click(`#call-rows tr:nth-child(2) button`))
	waitUntil(t, ctx, "the markup call opened", `document.querySelector('#call-request pre.body') !== null`)
	if body := browserValue(t, ctx, "read the markup body", chromedp.Text(`#call-request pre.body`)); !strings.Contains(body, "<script>window.__xss = 1</script>") {
		t.Errorf("the body with markup is not shown as text: %q", body)
	}
	list := browserValue(t, ctx, "read the list", chromedp.Text(`#call-rows`))
	if !strings.Contains(list, `/<img src=x onerror="window.__xss=3">`) {
		t.Errorf("the path with markup is not shown as text:\n%s", list)
	}
	if got := browserValue(t, ctx, "look for injected markup", chromedp.Evaluate[string](
		`[typeof window.__xss, document.images.length, document.scripts.length, document.querySelectorAll('main b').length].join(' ')`)); got != "undefined 0 1 0" {
		t.Errorf("markup from the journal: got window.__xss, images, scripts, <b> = %q, want \"undefined 0 1 0\"", got)
	}
	noProblems(t, ctx)

	// Clear calls empties the journal; a call made after it is listed.
	browse(t, ctx, "clear the calls", chromedp.Click(`#clear-calls`))
	waitUntil(t, ctx, "the list emptied", `document.querySelectorAll('#call-rows tr').length === 0 && document.getElementById('calls-status').textContent.startsWith('Cleared')`)
	if n := len(s.Journal(RequestFilter{})); n != 0 {
		t.Errorf("journal after Clear calls: got %d entries, want 0", n)
	}
	if st := send(asmx.HTTPGet, asmx.OpReturnProvinces); st != http.StatusOK {
		t.Errorf("the call after Clear calls: got %d, want 200", st)
	}
	waitUntil(t, ctx, "the call after Clear calls", `(() => { const rs = document.querySelectorAll('#call-rows tr'); return rs.length === 1 && rs[0].dataset.binding === 'get'; })()`)

	// Another tab has no token: it asks again.
	tab, cancelTab := chromedp.NewContext(ctx)
	defer cancelTab()
	browse(t, tab, "open a second tab", chromedp.Navigate(base+"/__admin/"), chromedp.WaitVisible(`#login input[name="token"]`))

	// The server stops with the page open: no request of the page holds
	// the shutdown up, and the page says the mock does not answer.
	if err := srv.Shutdown(); err != nil {
		t.Errorf("shut down with the page open: %v", err)
	}
	waitUntil(t, ctx, "the page notices", `document.getElementById('state').textContent.includes('does not answer')`)
}

// TestAdminPageWarnsInChromium: a mock on every interface without an
// admin token opens the page at once and shows the warning serve prints.
func TestAdminPageWarnsInChromium(t *testing.T) {
	t.Parallel()
	exe := requireChromium(t)
	s, err := New(WithDataset(smallDataset()))
	if err != nil {
		t.Fatal(err)
	}
	_, base := serveAt(t, ":0", s, time.Second)
	ctx := openAdminPage(t, exe, base, chromedp.WaitVisible(`#warning`))
	w := browserValue(t, ctx, "read the warning", chromedp.Text(`#warning`))
	if !strings.Contains(w, "reachable from other hosts, with no admin token") || !strings.Contains(w, "--admin-token") {
		t.Errorf("the warning: got %q", w)
	}
	if v := browserValue(t, ctx, "look for the token form", chromedp.Evaluate[bool](`document.getElementById('login').hidden`)); !v {
		t.Error("a mock without a token: the page asks for one")
	}
	noProblems(t, ctx)
}

// TestAdminPageSeesARestartInChromium: a mock started anew at the same
// address between two polls of the page (the page sees no outage) is read
// anew: the list shows the new mock's calls, though they count from 1
// again, below the last call listed, and its faults.
func TestAdminPageSeesARestartInChromium(t *testing.T) {
	t.Parallel()
	exe := requireChromium(t)
	current, base, ctx := pageOnASwappableMock(t, exe, 3)

	second, err := New(WithDataset(smallDataset()), WithFault(Fault{Operation: asmx.OpReturnInstitutions, Status: 503}))
	if err != nil {
		t.Fatal(err)
	}
	current.Store(second)
	if st := call(t, base, asmx.HTTPGet, asmx.OpReturnInstitutions, paramsFor(asmx.OpReturnInstitutions, "k")).status; st != http.StatusServiceUnavailable {
		t.Fatalf("a call to the second mock: got %d, want its fault's 503", st)
	}
	waitUntil(t, ctx, "the second mock's call listed alone", `(() => { const r = document.querySelectorAll('#call-rows tr');
		return r.length === 1 && r[0].dataset.seq === '1' && r[0].dataset.operation === 'ReturnInstitutions' && r[0].dataset.fault === 'f1'; })()`)
	waitUntil(t, ctx, "the second mock's fault listed", `document.querySelectorAll('#faults li[data-fault-id="f1"]').length === 1`)
	if got := browserValue(t, ctx, "read the status", chromedp.Text(`#calls-status`)); !strings.Contains(got, "started anew") {
		t.Errorf("the calls' status: got %q, want it to say the mock started anew", got)
	}
	noProblems(t, ctx)
}

// TestAdminPageFaultTextInChromium: the page lists each fault in the
// --fault form, a value with a comma, a semicolon or a quote in double
// quotes, so that it can be pasted to --fault as it is; a seed beyond
// JavaScript's exact integers as the API wrote it.
func TestAdminPageFaultTextInChromium(t *testing.T) {
	t.Parallel()
	exe := requireChromium(t)
	ts := NewTestServer(t, WithDataset(smallDataset()))
	for _, f := range []Fault{
		{Operation: asmx.OpReturnAllAtms, SOAPFault: &SOAPFault{Code: "Client", Text: `Bad request, try "again"; or not \ ok`}},
		{Operation: asmx.OpReturnProvinces, SOAPFault: &SOAPFault{Code: "Client", Text: " padded "}},
		{Operation: asmx.OpReturnInstitutions, SOAPFault: &SOAPFault{Code: "Client", Text: `plain \ text`}, Times: 2},
		{Status: 503, Probability: 0.5, Seed: 9007199254740993}, // 2^53+1: not a JavaScript number
	} {
		if _, err := ts.AddFault(f); err != nil {
			t.Fatal(err)
		}
	}
	ctx := openAdminPage(t, exe, ts.URL)
	waitUntil(t, ctx, "the faults listed", `document.querySelectorAll('#faults li').length === 4`)
	got := browserValue(t, ctx, "read the faults", chromedp.Evaluate[[]string](
		`[...document.querySelectorAll('#faults li .fault-text')].map((e) => e.textContent)`))
	want := []string{
		`f1 operation=ReturnAllAtms, soapFault.code=Client, soapFault.text="Bad request, try \"again\"; or not \\ ok"`,
		`f2 operation=ReturnProvinces, soapFault.code=Client, soapFault.text=" padded "`,
		`f3 operation=ReturnInstitutions, soapFault.code=Client, soapFault.text=plain \ text`,
		`f4 status=503, probability=0.5, seed=9007199254740993`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("the faults listed:\n got %q\nwant %q", got, want)
	}
	noProblems(t, ctx)
}

// TestAdminPageFiltersWSDLInChromium: the calls' operation filter offers
// WSDL, as the fault form and the API's operation filter do, and lists
// the fetches of the service description alone (which show no operation
// of their own), so the calls a WSDL fault took can be picked out.
func TestAdminPageFiltersWSDLInChromium(t *testing.T) {
	t.Parallel()
	exe := requireChromium(t)
	ts := NewTestServer(t, WithDataset(smallDataset()))
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))
	resp, err := http.Get(ts.URL + "/service/service.asmx?WSDL")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ctx := openAdminPage(t, exe, ts.URL)
	waitUntil(t, ctx, "both calls listed", `document.querySelectorAll('#call-rows tr').length === 2`)
	browserValue(t, ctx, "filter by WSDL", chromedp.Evaluate[bool](
		`(() => { const e = document.getElementById('filter-operation'); e.value = 'WSDL'; e.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`))
	waitUntil(t, ctx, "the WSDL fetch alone", `document.getElementById('filter-operation').value === 'WSDL' &&
		[...document.querySelectorAll('#call-rows tr')].map((r) => r.dataset.seq).join() === '2'`)
	noProblems(t, ctx)
}

// TestAdminPageFaultSeedInChromium: the fault form sends an integer as
// the digits typed, so a seed above 2^53 (not a JavaScript number) reaches
// the mock as typed, and refuses, with a message and no request, an
// integer out of the API's range (int64), a number that is no integer, or
// an integer JSON does not write (0012, as --fault and the config file
// refuse it).
func TestAdminPageFaultSeedInChromium(t *testing.T) {
	t.Parallel()
	exe := requireChromium(t)
	ts := NewTestServer(t, WithDataset(smallDataset()))
	ctx := openAdminPage(t, exe, ts.URL, chromedp.Click(`#fault-details summary`), chromedp.WaitVisible(`#fault-form input[name="seed"]`))
	submit := func(status, seed, times string) {
		t.Helper()
		browse(t, ctx, "fill the fault form",
			chromedp.SetValue(`#fault-form input[name="status"]`, ""), chromedp.SendKeys(`#fault-form input[name="status"]`, status),
			chromedp.SetValue(`#fault-form input[name="seed"]`, ""), chromedp.SendKeys(`#fault-form input[name="seed"]`, seed),
			chromedp.SetValue(`#fault-form input[name="times"]`, ""), chromedp.SendKeys(`#fault-form input[name="times"]`, times),
			chromedp.SetValue(`#fault-form input[name="probability"]`, ""), chromedp.SendKeys(`#fault-form input[name="probability"]`, "0.5"))
		browserValue(t, ctx, "mark the form's error", chromedp.Evaluate[bool](`(document.getElementById('fault-error').textContent = 'pending') !== ''`))
		browse(t, ctx, "add the fault", chromedp.Click(`#fault-form button[type="submit"]`))
	}
	// Exact: 2^53+1 and int64's ends, with a times beyond 2^53 too.
	for i, tt := range []struct {
		seed, times string
		want        int64
	}{
		{"9007199254740993", "1", 9007199254740993},
		{"9223372036854775807", "9007199254740993", 9223372036854775807},
		{"-9223372036854775808", "", -9223372036854775808},
		{"0", "", 0},
	} {
		submit("503", tt.seed, tt.times)
		waitUntil(t, ctx, "the fault added", fmt.Sprintf(`document.querySelectorAll('#faults li').length === %d`, i+1))
		if e := browserValue(t, ctx, "read the form's error", chromedp.Text(`#fault-error`)); e != "" {
			t.Errorf("seed %s: the form says %q", tt.seed, e)
		}
		fs := ts.Faults()
		if got := fs[len(fs)-1]; got.Seed != tt.want || got.Status != 503 || got.Probability != 0.5 {
			t.Errorf("seed %s typed: the mock got %+v, want seed %d, status 503, probability 0.5", tt.seed, got, tt.want)
		}
		if tt.times == "9007199254740993" && fs[len(fs)-1].Times != 9007199254740993 {
			t.Errorf("times %s typed: the mock got %d", tt.times, fs[len(fs)-1].Times)
		}
	}
	// Refused on the page, naming the field; the mock gets no request.
	for _, tt := range []struct{ seed, want string }{
		{"9223372036854775808", "seed 9223372036854775808: out of range; want an integer from -9223372036854775808 to 9223372036854775807"},
		{"-9223372036854775809", "seed -9223372036854775809: out of range"},
		{"1.5", "seed 1.5: not an integer as JSON writes one, which the admin API refuses; want plain decimal digits, with a minus at most, such as 42"},
		{"1e3", "seed 1e3: not an integer"},
		// Spelled as JSON spells it, the rule of every place a fault is
		// given (--fault, the config file, the admin API): 0012 was sent as 12.
		{"0012", "seed 0012: not an integer as JSON writes one"},
		{"-07", "seed -07: not an integer as JSON writes one"},
	} {
		submit("503", tt.seed, "")
		waitUntil(t, ctx, "the form's answer", `document.getElementById('fault-error').textContent !== 'pending'`)
		if e := browserValue(t, ctx, "read the form's error", chromedp.Text(`#fault-error`)); !strings.HasPrefix(e, tt.want) {
			t.Errorf("seed %s: the form says %q, want %q", tt.seed, e, tt.want)
		}
	}
	if n := len(ts.Faults()); n != 4 {
		t.Errorf("faults: got %d, want the 4 with a seed in range", n)
	}
	noProblems(t, ctx)
}

// screenshotPage writes the page as docs/admin-page.png with -update.
func screenshotPage(t *testing.T, ctx context.Context) {
	t.Helper()
	screenshot(t, ctx, "admin-page")
	if !*update {
		return
	}
	// From the top, the fault form folded, so the data set shows too.
	browserValue(t, ctx, "arrange the page", chromedp.Evaluate[bool](
		`document.getElementById('fault-details').open = false; document.activeElement.blur(); window.scrollTo(0, 0); true`))
	shot := browserValue(t, ctx, "take the screenshot", chromedp.CaptureScreenshot())
	small, err := smallPNG(shot)
	if err != nil {
		t.Fatalf("the screenshot: %v", err)
	}
	path := filepath.Join("..", "docs", "admin-page.png")
	if err := atomicfile.Write(path, small, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes; %d as taken)", path, len(small), len(shot))
}

// smallPNG re-encodes a screenshot in the 256 colours it uses most, which
// a page of flat colours and text loses nothing visible to, at about a
// third of the size.
func smallPNG(shot []byte) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		return nil, err
	}
	b := img.Bounds()
	rgba := func(x, y int) color.RGBA {
		r, g, bl, _ := img.At(x, y).RGBA()
		return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bl >> 8), 0xff}
	}
	counts := map[color.RGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			counts[rgba(x, y)]++
		}
	}
	colors := slices.Collect(maps.Keys(counts))
	key := func(c color.RGBA) int { return int(c.R)<<16 | int(c.G)<<8 | int(c.B) }
	slices.SortFunc(colors, func(a, c color.RGBA) int { return cmp.Or(counts[c]-counts[a], key(a)-key(c)) })
	var palette color.Palette
	for _, c := range colors[:min(256, len(colors))] {
		palette = append(palette, c)
	}
	out := image.NewPaletted(b, palette)
	index := map[color.RGBA]uint8{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := rgba(x, y)
			i, ok := index[c]
			if !ok {
				i = uint8(palette.Index(c))
				index[c] = i
			}
			out.SetColorIndex(x, y, i)
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, out); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// TestHeldCallsShownInChromium: a call a fault holds back (a delay of a
// minute) is listed by GET /__admin/requests under held, with its
// operation and fault, and the page says so while it waits; once the
// client gives up, neither shows it any more.
func TestHeldCallsShownInChromium(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("held-key-123"),
		WithFault(Fault{Operation: asmx.OpReturnProvinces, Delay: time.Minute}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	gone := make(chan struct{})
	go func() {
		defer close(gone)
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/service/service.asmx/ReturnProvinces?strAtmServiceKey=held-key-123", nil)
		if resp, err := http.DefaultClient.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	held := func() []HeldCall { return readAdminRequests(t, ts.URL+"/__admin/requests").Held }
	deadline := time.Now().Add(10 * time.Second)
	var got []HeldCall
	for got = held(); len(got) == 0 && time.Now().Before(deadline); got = held() {
		time.Sleep(20 * time.Millisecond)
	}
	if len(got) != 1 || got[0].Operation != asmx.OpReturnProvinces || got[0].Binding != "get" || got[0].Fault != "f1" ||
		got[0].FaultKind != kindDelay || strings.Contains(got[0].Path, "held-key-123") {
		t.Fatalf("held calls: got %+v, want the delayed ReturnProvinces over get, fault f1 (delay)", got)
	}
	// The page's part needs Chromium (a failure without it under CI=true).
	if exe, missing := chromiumPath(); missing == "" || os.Getenv("CI") == "true" {
		requireClient(t, missing)
		bctx := openAdminPage(t, exe, ts.URL)
		waitUntil(t, bctx, "the held call shown", `document.getElementById('calls-held').textContent.startsWith('1 call held by a fault now: ReturnProvinces over get (f1, delay, ')`)
		cancel()
		<-gone
		waitUntil(t, bctx, "the held call gone", `document.getElementById('calls-held').textContent === ''`)
		noProblems(t, bctx)
	} else {
		cancel()
		<-gone
	}
	deadline = time.Now().Add(10 * time.Second)
	for got = held(); len(got) != 0 && time.Now().Before(deadline); got = held() {
		time.Sleep(20 * time.Millisecond)
	}
	if len(got) != 0 {
		t.Errorf("held calls after the client gave up: got %+v, want none", got)
	}
}

// TestAdminPageCountsCallsNotListedInChromium: more calls than a poll
// reads (500) between two polls are not lost silently: the list shows the
// newest and says how many came faster than the page reads, without
// filters and with one. The test holds the page's journal reads back at
// the server while it makes a burst of calls, so that the burst comes
// between two polls. A list read anew that finds more calls than it
// reads at first says it shows the newest, and counts none as missed.
func TestAdminPageCountsCallsNotListedInChromium(t *testing.T) {
	t.Parallel()
	exe := requireChromium(t)
	s, err := New(WithDataset(smallDataset()))
	if err != nil {
		t.Fatal(err)
	}
	// gate holds the journal reads of the admin API back while a burst is
	// made: a read ends before the burst or starts after it.
	var gate sync.RWMutex
	_, base := serveAt(t, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/__admin/requests") {
			gate.RLock()
			defer gate.RUnlock()
		}
		s.ServeHTTP(w, r)
	}), time.Second)
	burst := func(n int, op func(i int) string) {
		t.Helper()
		gate.Lock()
		defer gate.Unlock()
		for i := range n {
			o := op(i)
			if st := call(t, base, asmx.HTTPGet, o, paramsFor(o, "k")).status; st != http.StatusOK {
				t.Fatalf("call %d of a burst (%s): got %d, want 200", i, o, st)
			}
		}
	}
	provinces := func(int) string { return asmx.OpReturnProvinces }

	// 250 calls before the page opens: it lists the newest 200 (seq 51 to
	// 250) and misses none.
	burst(250, provinces)
	ctx := openAdminPage(t, exe, base)
	// list is the rows listed, the seqs of the first and last, the count
	// by the title and the note of the calls not listed.
	list := func(what string) string {
		t.Helper()
		return browserValue(t, ctx, what, chromedp.Evaluate[string](`(() => {
			const rows = document.querySelectorAll('#call-rows tr');
			const seq = (r) => r ? r.dataset.seq : '';
			return [rows.length, seq(rows[0]), seq(rows[rows.length - 1]), document.getElementById('calls-count').textContent,
				document.getElementById('calls-skipped').textContent].join('|'); })()`))
	}
	waitUntil(t, ctx, "the first calls listed", `document.querySelectorAll('#call-rows tr').length === 200`)
	if got, want := list("read the list"), "200|250|51|(200, the newest)|"; got != want {
		t.Errorf("the list opened after 250 calls: got %q, want %q", got, want)
	}

	// 700 calls between two polls (seq 251 to 950): the poll reads the
	// newest 500, and the page says 200 were not listed.
	burst(700, provinces)
	waitUntil(t, ctx, "the burst listed", `(() => { const r = document.querySelector('#call-rows tr'); return r !== null && r.dataset.seq === '950'; })()`)
	if got, want := list("read the list"), "500|950|451|(500, the newest)|200 calls came faster than the page reads and are not listed; the calls after them are."; got != want {
		t.Errorf("the list after a burst of 700:\n got %q\nwant %q", got, want)
	}
	screenshot(t, ctx, "calls-not-listed")

	// Filtered: the calls of one operation. The note starts anew with the
	// list; the calls of other operations are not counted as missed.
	if st := call(t, base, asmx.HTTPGet, asmx.OpReturnInstitutions, paramsFor(asmx.OpReturnInstitutions, "k")).status; st != http.StatusOK {
		t.Fatalf("ReturnInstitutions: got %d", st)
	}
	browserValue(t, ctx, "filter by operation", chromedp.Evaluate[bool](`(() => { const e = document.getElementById('filter-operation');
		e.value = 'ReturnInstitutions'; e.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`))
	waitUntil(t, ctx, "the filtered list", `(() => { const r = document.querySelectorAll('#call-rows tr'); return r.length === 1 && r[0].dataset.seq === '951'; })()`)
	if got, want := list("read the list"), "1|951|951|(1)|"; got != want {
		t.Errorf("the filtered list: got %q, want %q", got, want)
	}
	// 700 calls (seq 952 to 1651): 600 ReturnInstitutions, 100 others.
	burst(700, func(i int) string {
		if i%7 == 0 {
			return asmx.OpReturnProvinces
		}
		return asmx.OpReturnInstitutions
	})
	waitUntil(t, ctx, "the filtered burst listed", `(() => { const r = document.querySelector('#call-rows tr'); return r !== null && r.dataset.seq === '1651'; })()`)
	got := list("read the list")
	if !strings.HasSuffix(got, "|(500, the newest)|100 calls came faster than the page reads and are not listed; the calls after them are.") || !strings.HasPrefix(got, "500|1651|") {
		t.Errorf("the filtered list after a burst of 600 of its calls: got %q, want 500 rows from seq 1651, 100 calls not listed", got)
	}
	if ops := browserValue(t, ctx, "read the operations", chromedp.Evaluate[[]string](
		`[...new Set([...document.querySelectorAll('#call-rows tr')].map((r) => r.dataset.operation))]`)); !slices.Equal(ops, []string{asmx.OpReturnInstitutions}) {
		t.Errorf("the filtered list's operations: got %q", ops)
	}
	noProblems(t, ctx)
}

// pageOnASwappableMock serves a first mock at an address whose handler
// the test can swap for another mock at once (current), as a process
// restarted faster than the page polls, opens the admin page there, makes
// calls calls to the first mock and waits until the page lists them.
func pageOnASwappableMock(t *testing.T, exe string, calls int) (current *atomic.Pointer[Server], base string, ctx context.Context) {
	t.Helper()
	first, err := New(WithDataset(smallDataset()))
	if err != nil {
		t.Fatal(err)
	}
	current = new(atomic.Pointer[Server])
	current.Store(first)
	_, base = serveAt(t, "127.0.0.1:0", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { current.Load().ServeHTTP(w, r) }), time.Second)
	ctx = openAdminPage(t, exe, base)
	waitUntil(t, ctx, "the page goes live", `document.getElementById('state').textContent.startsWith('Live')`)
	for range calls {
		if st := call(t, base, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")).status; st != http.StatusOK {
			t.Fatalf("a call to the first mock: got %d", st)
		}
	}
	waitUntil(t, ctx, "the first mock's calls", fmt.Sprintf(`document.querySelectorAll('#call-rows tr').length === %d`, calls))
	return current, base, ctx
}

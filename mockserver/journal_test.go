package mockserver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
)

func TestJournalEntries(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("secret-key"))
	op := asmx.OpReturnAtmSearchByAddress
	call(t, ts.URL, asmx.SOAP11, op, paramsFor(op, "secret-key"))
	call(t, ts.URL, asmx.JSON, op, paramsFor(op, "wrong"))
	// A 415: no operation; the binding is the SOAP version ASMX assumed.
	req := mustRequest(t, "POST", ts.URL+"/service/service.asmx", `<s:Envelope xmlns:s="`+asmx.NamespaceSOAP12+`"><s:Body><ReturnProvinces xmlns="`+asmx.DefaultNamespace+`"/></s:Body></s:Envelope>`)
	req.Header.Set("Content-Type", "application/json")
	do(t, req)
	// Admin requests are not journaled.
	do(t, mustRequest(t, "GET", ts.URL+"/__admin/requests", ""))

	got := ts.Journal(RequestFilter{})
	if len(got) != 3 {
		t.Fatalf("journal: got %d entries, want 3: %+v", len(got), got)
	}
	e := got[0]
	wantParams := map[string]string{"strAtmServiceKey": "se****", "strAddress": "", "strCity": "Halifax",
		"strProvince": "NS", "strPostalCode": "", "bytRadius": "15"}
	if e.Seq != 1 || e.Method != "POST" || e.Path != "/service/service.asmx" || e.Binding != asmx.SOAP11 ||
		e.Operation != op || e.Status != 200 || e.Error != "" || e.Time.IsZero() || e.Duration <= 0 {
		t.Errorf("entry 1: got %+v", e)
	}
	for k, v := range wantParams {
		if e.Params[k] != v {
			t.Errorf("entry 1: param %s: got %q, want %q", k, e.Params[k], v)
		}
	}
	if len(e.Params) != len(wantParams) {
		t.Errorf("entry 1: params: got %v, want %v", e.Params, wantParams)
	}
	if e := got[1]; e.Binding != asmx.JSON || e.Status != 500 || e.Error != asmx.KindInvalidServiceKey || e.Params[asmx.ParamKey] != "******" {
		t.Errorf("entry 2: got %+v, want json, 500, %s, key masked", e, asmx.KindInvalidServiceKey)
	}
	if e := got[2]; e.Binding != asmx.SOAP12 || e.Operation != "" || e.Params != nil || e.Status != 415 || e.Error != asmx.KindUnsupportedMediaType {
		t.Errorf("entry 3: got %+v, want soap12, no operation, 415", e)
	}

	// Filters.
	if n := len(ts.Journal(RequestFilter{Binding: asmx.JSON})); n != 1 {
		t.Errorf("binding json: got %d entries, want 1", n)
	}
	if n := len(ts.Journal(RequestFilter{Operation: strings.ToLower(op), Binding: asmx.SOAP11})); n != 1 {
		t.Errorf("operation and soap11: got %d entries, want 1", n)
	}
	if n := len(ts.Journal(RequestFilter{Operation: asmx.OpReturnProvinces})); n != 0 {
		t.Errorf("ReturnProvinces: got %d entries, want 0", n)
	}

	// Copies: changing what Journal returned changes nothing inside.
	got[0].Params["strCity"] = "changed"
	got[0].Status = 999
	if again := ts.Journal(RequestFilter{}); again[0].Params["strCity"] != "Halifax" || again[0].Status != 200 {
		t.Errorf("the journal changed through a returned entry: %+v", again[0])
	}

	ts.ResetJournal()
	if n := len(ts.Journal(RequestFilter{})); n != 0 {
		t.Errorf("after ResetJournal: %d entries, want 0", n)
	}
	call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "secret-key"))
	if got := ts.Journal(RequestFilter{}); len(got) != 1 || got[0].Seq != 4 {
		t.Errorf("after reset: got %+v, want one entry with seq 4 (numbers keep counting)", got)
	}
}

func mustRequest(t *testing.T, method, url, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func TestJournalRing(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithJournalSize(3))
	for range 5 {
		call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	}
	got := ts.Journal(RequestFilter{})
	if len(got) != 3 {
		t.Fatalf("got %d entries, want the journal's size 3", len(got))
	}
	for i, e := range got {
		if want := uint64(i + 3); e.Seq != want {
			t.Errorf("entry %d: seq got %d, want %d (the oldest dropped first)", i, e.Seq, want)
		}
	}

	// Emptied, it fills and drops its oldest again.
	ts.ResetJournal()
	for range 4 {
		call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	}
	if got := ts.Journal(RequestFilter{}); len(got) != 3 || got[0].Seq != 7 || got[2].Seq != 9 {
		t.Errorf("after a reset and 4 calls: got %d entries from %v, want seq 7 to 9", len(got), got)
	}

	off := NewTestServer(t, WithDataset(smallDataset()), WithJournalSize(0))
	call(t, off.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	if got := off.Journal(RequestFilter{}); len(got) != 0 {
		t.Errorf("journal size 0: got %d entries, want none", len(got))
	}
}

func TestJournalEntryJSON(t *testing.T) {
	t.Parallel()
	e := JournalEntry{Seq: 7, Method: "GET", Path: "/p", Binding: asmx.HTTPGet, Operation: "ReturnProvinces",
		Params: map[string]string{"strAtmServiceKey": "ab****"}, Status: 200, Duration: 1500000, Fault: "f2"}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"seq":7`, `"binding":"get"`, `"operation":"ReturnProvinces"`, `"duration":"1.5ms"`,
		`"durationMs":1.5`, `"fault":"f2"`, `"params":{"strAtmServiceKey":"ab****"}`, `"status":200`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON: got %s, want it to contain %s", b, want)
		}
	}
}

// adminRequests is GET /__admin/requests's answer as Go code reads it.
type adminRequests struct {
	Requests []JournalEntry `json:"requests"`
	Matched  int            `json:"matched"`
	LastSeq  uint64         `json:"lastSeq"`
	Held     []HeldCall     `json:"held"`
	Cleared  uint64         `json:"cleared"`
}

// readAdminRequests reads the admin API's journal answer at u.
func readAdminRequests(t *testing.T, u string) adminRequests {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got adminRequests
	if err := json.NewDecoder(resp.Body).Decode(&got); err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
	return got
}

// TestJournalEntryFromAdminAPI: the admin API's journal, read into
// []JournalEntry with encoding/json (as Go code reading a mock in a
// container does), holds what Journal returns.
func TestJournalEntryFromAdminAPI(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("secret-key-1"))
	for _, b := range []asmx.Binding{asmx.HTTPGet, asmx.SOAP12} {
		call(t, ts.URL, b, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "secret-key-1"))
	}
	got := readAdminRequests(t, ts.URL+"/__admin/requests")
	want := ts.Journal(RequestFilter{})
	if len(got.Requests) != len(want) || len(want) != 2 {
		t.Fatalf("got %d entries from the admin API, %d from Journal; want 2 each", len(got.Requests), len(want))
	}
	for k := range want {
		g, w := got.Requests[k], want[k]
		if !g.Time.Equal(w.Time) {
			t.Errorf("entry %d: time %v, want %v", k, g.Time, w.Time)
		}
		g.Time, w.Time = time.Time{}, time.Time{}
		w.Duration = w.Duration.Round(0)
		if !reflect.DeepEqual(g, w) {
			t.Errorf("entry %d from the admin API:\n%+v\nwant\n%+v", k, g, w)
		}
	}
}

// TestJournalHeadHasNoBody: a HEAD request's answer is journaled with the
// header the client got and no body (net/http sends none), where a GET of
// the same page has its body.
func TestJournalHeadHasNoBody(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	for _, method := range []string{http.MethodHead, http.MethodGet} {
		ts.ResetJournal()
		req, _ := http.NewRequest(method, ts.URL+"/service/service.asmx", nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got := ts.Journal(RequestFilter{})
		if len(got) != 1 || got[0].Response.Header == nil {
			t.Fatalf("%s: journal %+v, want one entry with its answer", method, got)
		}
		if r := got[0].Response; r.Size != int64(len(body)) || len(r.Body) != min(len(body), len(r.Body)) || (len(body) == 0) != (r.Body == "") {
			t.Errorf("%s: journaled answer of size %d with %d bytes kept; the client got %d bytes", method, r.Size, len(r.Body), len(body))
		}
	}
}

func TestMaskKey(t *testing.T) {
	t.Parallel()
	for k, want := range map[string]string{"": "", "a": "******", "abcd": "******", "abcdefg": "******", "abcdefgh": "ab****", "a-very-long-key": "a-****"} {
		if got := MaskKey(k); got != want {
			t.Errorf("MaskKey(%q): got %q, want %q", k, got, want)
		}
	}
}

// TestJournalKeepsWhatWasSent reads back the request and the answer of
// calls of every kind of answer: the answer's first bytes are those the
// client got, its length theirs, and a body longer than the limit is cut
// and marked.
func TestJournalKeepsWhatWasSent(t *testing.T) {
	t.Parallel()
	const max = 4096
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("secret-key"), WithJournalBodyMax(max),
		WithFault(Fault{Operation: asmx.OpReturnInstitutions, Status: 503}),
		WithFault(Fault{Operation: asmx.OpReturnAtmSearchByCity, Malformed: true}))
	padded := provincesEnvelope("secret-key", "<!--"+strings.Repeat("padding ", 1500)+"-->")
	tests := []struct {
		name string
		req  *http.Request
		// sent is the request body as the journal shows it whole.
		sent string
	}{
		{"fixed answer", callRequest(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "secret-key")), ""},
		{"streamed answer", callRequest(t, ts.URL, asmx.SOAP11, asmx.OpReturnAllAtms, paramsFor(asmx.OpReturnAllAtms, "secret-key")),
			soapEnvelope(asmx.SOAP11, asmx.OpReturnAllAtms, paramsFor(asmx.OpReturnAllAtms, "se****"))},
		{"search", callRequest(t, ts.URL, asmx.JSON, asmx.OpReturnAtmSearchByAddress, paramsFor(asmx.OpReturnAtmSearchByAddress, "secret-key")), ""},
		{"error", callRequest(t, ts.URL, asmx.SOAP12, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "")),
			soapEnvelope(asmx.SOAP12, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, ""))},
		{"status fault", callRequest(t, ts.URL, asmx.HTTPPost, asmx.OpReturnInstitutions, paramsFor(asmx.OpReturnInstitutions, "secret-key")),
			"strAtmServiceKey=se****"},
		{"malformed fault", callRequest(t, ts.URL, asmx.SOAP11, asmx.OpReturnAtmSearchByCity, paramsFor(asmx.OpReturnAtmSearchByCity, "secret-key")), ""},
		{"request over the limit", provincesRequest(t, ts.URL, asmx.ContentTypeSOAP11, padded), strings.Replace(padded, "secret-key", "se****", 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var body []byte
			if tt.req.Body != nil {
				body, _ = io.ReadAll(tt.req.Body)
				tt.req.Body = io.NopCloser(strings.NewReader(string(body)))
			}
			r := do(t, tt.req)
			status, got := r.status, r.body
			e := ts.Journal(RequestFilter{Limit: 1})[0]
			if e.Status != status {
				t.Errorf("status: got %d, want %d", e.Status, status)
			}
			resp := e.Response
			if resp.Size != int64(len(got)) || !strings.HasPrefix(got, resp.Body) || resp.Cut != (len(resp.Body) < len(got)) {
				t.Errorf("answer: got %d bytes of %d, cut %v, want the first bytes of the %d the client got", len(resp.Body), resp.Size, resp.Cut, len(got))
			}
			if resp.Cut && (len(resp.Body) < max/2 || len(resp.Body)+headerBytes(resp.Header) > max) {
				t.Errorf("answer cut at %d bytes (head %d), want it within %d and above %d", len(resp.Body), headerBytes(resp.Header), max, max/2)
			}
			if resp.Header.Get("Content-Length") != strconv.Itoa(len(got)) {
				t.Errorf("answer's Content-Length: got %q, want %d", resp.Header.Get("Content-Length"), len(got))
			}
			req := e.Request
			if req.Size != int64(len(body)) && !(len(body) == 0 && req.Size == 0) {
				t.Errorf("request size: got %d, want %d", req.Size, len(body))
			}
			if tt.sent != "" && (!strings.HasPrefix(tt.sent, req.Body) || req.Cut != (len(req.Body) < len(tt.sent))) {
				t.Errorf("request body: got %q (cut %v), want the start of %.200q", req.Body, req.Cut, tt.sent)
			}
		})
	}
	if e := ts.Journal(RequestFilter{Limit: 1})[0]; !e.Request.Cut || e.Request.Size != int64(len(padded)) {
		t.Errorf("request over the limit: got cut %v, size %d, want cut, %d", e.Request.Cut, e.Request.Size, len(padded))
	}
}

// TestJournalCutKeepsNoStartOfAKey cuts a body at every byte of a key
// that straddles the limit: no start of the key survives the cut.
func TestJournalCutKeepsNoStartOfAKey(t *testing.T) {
	t.Parallel()
	const key, limit = "Zq-Leak-Key-4711", 1024
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys(key), WithJournalBodyMax(limit))
	// The room for the body: what the journal keeps of one with no key.
	do(t, provincesRequest(t, ts.URL, asmx.ContentTypeSOAP11, strings.Repeat("x", 2*limit)))
	room := len(ts.Journal(RequestFilter{Limit: 1})[0].Request.Body)
	raw := provincesEnvelope(key, "<note>")
	prefix := strings.Index(raw, "<note>") + len("<note>") // before the key in the note
	cuts := 0
	for pad := room - prefix - len(key) - 4; pad < room-prefix+4; pad++ {
		note := strings.Repeat("x", max(pad, 0)) + key + "</note>" + strings.Repeat(" ", limit)
		do(t, provincesRequest(t, ts.URL, asmx.ContentTypeSOAP11, provincesEnvelope(key, "<note>"+note)))
		e := ts.Journal(RequestFilter{Limit: 1})[0]
		if !e.Request.Cut {
			t.Fatalf("pad %d: body of %d bytes not cut at %d", pad, e.Request.Size, limit)
		}
		b := e.Request.Body
		if strings.Contains(b, key) {
			t.Errorf("pad %d: the key survives: %q", pad, b[max(0, len(b)-60):])
		}
		for n := 1; n < len(key); n++ {
			if strings.HasSuffix(b, key[:n]) {
				t.Errorf("pad %d: the body ends with %q, the start of the key", pad, key[:n])
			}
		}
		if strings.HasSuffix(b, "Zq****") {
			cuts++
		}
	}
	if cuts == 0 {
		t.Error("no cut fell inside the key: the test missed its point")
	}
}

// TestJournalWithoutBodiesCutsPaths: a journal keeping no bodies kept
// each request's path whole, up to the 64 KB of a request's head, which
// held does not count: it keeps 1 KB of it, marked as a parameter's value
// is, without the start of a key cut there.
func TestJournalWithoutBodiesCutsPaths(t *testing.T) {
	t.Parallel()
	const key = "Path-Key-12345678"
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys(key), WithJournalBodyMax(0))
	long := asmx.ServicePath + "/ReturnProvinces/" + strings.Repeat("y", 60<<10)
	atCut := asmx.ServicePath + "/ReturnProvinces/" + strings.Repeat("y", journalParamMax-len(asmx.ServicePath)-len("/ReturnProvinces/")-8) + key + strings.Repeat("z", 100)
	for _, path := range []string{long, atCut} {
		do(t, mustRequest(t, "GET", ts.URL+path, ""))
	}
	ts.journal.mu.Lock()
	for i, r := range ts.journal.entries {
		if len(r.Path) > journalParamMax+len("… (cut: 99999 bytes)") {
			t.Errorf("entry %d: the journal holds %d bytes of its path, want at most about %d", i+1, len(r.Path), journalParamMax)
		}
	}
	ts.journal.mu.Unlock()
	es := ts.Journal(RequestFilter{})
	if len(es) != 2 {
		t.Fatalf("got %d entries, want 2", len(es))
	}
	if want := fmt.Sprintf("… (cut: %d bytes)", len(long)); !strings.HasPrefix(es[0].Path, asmx.ServicePath+"/ReturnProvinces/yyy") || !strings.HasSuffix(es[0].Path, want) {
		t.Errorf("path: got %.60q…%q, want its start and %q", es[0].Path, es[0].Path[max(0, len(es[0].Path)-30):], want)
	}
	if p := es[1].Path; strings.Contains(p, key[:4]) || !strings.Contains(p, "Pa****") {
		t.Errorf("path: got …%q, want the key cut there masked", p[max(0, len(p)-40):])
	}
}

// TestJournalMemoryIsBounded fills a journal with calls whose bodies and
// headers are all larger than the limit: what it holds of requests and
// answers stays within its size times twice the limit, before and after
// the entries are read.
func TestJournalMemoryIsBounded(t *testing.T) {
	t.Parallel()
	const size, max = 20, 2048
	ts := NewTestServer(t, WithDataset(smallDataset()), WithJournalSize(size), WithJournalBodyMax(max),
		WithFault(Fault{Operation: asmx.OpReturnProvinces, Binding: asmx.SOAP12, Malformed: true}))
	big := strings.Repeat("y", 3*max)
	for i := range 3 * size {
		var req *http.Request
		switch i % 4 {
		case 0: // a large request and a large answer, copied
			req = provincesRequest(t, ts.URL, asmx.ContentTypeSOAP11, provincesEnvelope("k", "<!--"+big+"-->"))
		case 1: // a large answer encoded again when read
			req = callRequest(t, ts.URL, asmx.HTTPGet, asmx.OpReturnAllAtms, paramsFor(asmx.OpReturnAllAtms, "k"))
		case 2: // a large head: path, query and header fields
			req = mustRequest(t, "GET", ts.URL+asmx.ServicePath+"/ReturnProvinces/"+big+"?strAtmServiceKey=k&x="+big, "")
			req.Header.Set("X-Big", big)
			req.Header.Set("X-Other", big[:max/3])
		case 3: // a large form body, answered in pieces by a fault (malformed)
			req = callRequest(t, ts.URL, asmx.SOAP12, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
		}
		do(t, req)
	}
	bound := size * 2 * max
	held := ts.journal.held()
	if held > bound || held < bound/4 {
		t.Errorf("kept: the journal holds %d bytes, want at most %d (and more than a quarter of it, or the test filled nothing)", held, bound)
	}
	es := ts.Journal(RequestFilter{})
	if len(es) != size {
		t.Fatalf("got %d entries, want %d", len(es), size)
	}
	if held := ts.journal.held(); held > bound || held < bound/4 {
		t.Errorf("shown: the journal holds %d bytes, want at most %d", held, bound)
	}
	var cut, headCut int
	for _, e := range es {
		if e.Request.Cut || e.Response.Cut {
			cut++
		}
		if e.Request.HeaderCut {
			headCut++
		}
	}
	if cut == 0 || headCut == 0 {
		t.Errorf("got %d entries with a body cut and %d with a head cut, want some of each", cut, headCut)
	}
}

func TestJournalWithoutBodies(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithJournalBodyMax(0))
	call(t, ts.URL, asmx.SOAP11, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	e := ts.Journal(RequestFilter{})[0]
	if e.Request.Header != nil || e.Response.Header != nil || e.Query != "" || e.Operation != asmx.OpReturnProvinces {
		t.Errorf("got %+v, want the call without its request and answer", e)
	}
	if b, _ := json.Marshal(e); strings.Contains(string(b), `"request"`) {
		t.Errorf("JSON: got %s, want no request", b)
	}
	if ts.journal.held() != 0 {
		t.Errorf("held: got %d bytes, want 0", ts.journal.held())
	}
	if _, err := New(WithJournalBodyMax(-1)); err == nil {
		t.Error("WithJournalBodyMax(-1): got no error")
	}
}

// TestJournalAdminReads reads the journal through the admin API as a page
// does: filtered, what is new since a seq, the newest few, summaries, and
// one entry in full.
func TestJournalAdminReads(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("good-key"))
	call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "good-key"))
	call(t, ts.URL, asmx.SOAP11, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "bad-key"))
	call(t, ts.URL, asmx.SOAP12, asmx.OpReturnInstitutions, paramsFor(asmx.OpReturnInstitutions, "good-key"))
	call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnInstitutions, paramsFor(asmx.OpReturnInstitutions, "good-key"))
	read := func(query string) []map[string]any {
		t.Helper()
		var got struct {
			Requests []map[string]any `json:"requests"`
		}
		if err := json.Unmarshal([]byte(adminGet(t, ts.URL+"/__admin/requests"+query)), &got); err != nil {
			t.Fatal(err)
		}
		return got.Requests
	}
	seqs := func(es []map[string]any) string {
		var out []string
		for _, e := range es {
			out = append(out, fmt.Sprint(e["seq"]))
		}
		return strings.Join(out, ",")
	}
	for query, want := range map[string]string{
		"":                                   "1,2,3,4",
		"?status=500":                        "2",
		"?status=200&binding=get":            "1,4",
		"?operation=returninstitutions":      "3,4",
		"?since=2":                           "3,4",
		"?limit=2":                           "3,4",
		"?since=1&limit=1&status=200":        "4",
		"?since=4":                           "",
		"?operation=ReturnProvinces&limit=1": "2",
	} {
		if got := seqs(read(query)); got != want {
			t.Errorf("requests%s: got seqs %q, want %q", query, got, want)
		}
	}
	for _, e := range read("?summary=true") {
		if _, ok := e["request"]; ok {
			t.Errorf("summary: got %v, want no request", e)
		}
	}
	for _, e := range read("") {
		if _, ok := e["response"].(map[string]any)["body"]; !ok {
			t.Errorf("in full: got %v, want the response's body", e)
		}
	}
	var one map[string]any
	if err := json.Unmarshal([]byte(adminGet(t, ts.URL+"/__admin/requests/2")), &one); err != nil {
		t.Fatal(err)
	}
	req, _ := one["request"].(map[string]any)
	if one["seq"] != float64(2) || one["status"] != float64(500) || !strings.Contains(fmt.Sprint(req["body"]), "<strAtmServiceKey>******</strAtmServiceKey>") {
		t.Errorf("entry 2: got %v, want the SOAP call with its key masked", one)
	}
}

// TestJournalCutQueryKeepsNoStartOfAKey cuts a long query at every byte
// of a key in it: no start of the key survives.
func TestJournalCutQueryKeepsNoStartOfAKey(t *testing.T) {
	t.Parallel()
	const key = "Zq-Leak-Key-4711"
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys(key), WithJournalBodyMax(256))
	masked := 0
	for pad := range 128 {
		do(t, mustRequest(t, "GET", ts.URL+asmx.ServicePath+"/ReturnProvinces?x="+strings.Repeat("x", pad)+"&y="+key+"&z="+strings.Repeat("z", 200), ""))
		e := ts.Journal(RequestFilter{Limit: 1})[0]
		if !e.Request.HeaderCut {
			t.Fatalf("pad %d: query of %d bytes not cut", pad, len(e.Query))
		}
		for n := 1; n <= len(key); n++ {
			if strings.HasSuffix(e.Query, key[:n]) || strings.Contains(e.Query, key) {
				t.Errorf("pad %d: the query keeps %q of the key: %q", pad, key[:n], e.Query)
			}
		}
		if strings.HasSuffix(e.Query, "Zq****") {
			masked++
		}
	}
	if masked == 0 {
		t.Error("no cut fell inside the key: the test missed its point")
	}
}

// TestJournalReadWhileServing reads the journal in full while calls come
// in and push entries out (run it with -race): every entry read is whole
// and masked.
func TestJournalReadWhileServing(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("race-key-1"), WithJournalSize(8), WithJournalBodyMax(512))
	stop := readJournal(ts, 3, func(e JournalEntry) bool {
		if e.Request.Header == nil || strings.Contains(e.Request.Body+e.Query, "race-key-1") {
			t.Errorf("entry %d: got %+v, want it whole and masked", e.Seq, e)
			return false
		}
		return true
	})
	for i := range 60 {
		b := asmx.Bindings[i%len(asmx.Bindings)]
		op := asmx.OpReturnAtmSearchByAddress
		call(t, ts.URL, b, op, paramsFor(op, "race-key-1"))
	}
	stop()
}

// readJournal starts n readers that read ts's journal in full, again and
// again, handing every entry to check, until stop is called (it waits for
// them); a reader stops early when check returns false.
func readJournal(ts *TestServer, n int, check func(JournalEntry) bool) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				for _, e := range ts.Journal(RequestFilter{}) {
					if !check(e) {
						return
					}
				}
			}
		})
	}
	return func() {
		close(done)
		wg.Wait()
	}
}

// TestJournalHugeSize: a journal as large as an int allows starts (it
// grows as calls come; it made room for all of them at start, and a size
// beyond memory panicked serve), keeps every call and empties.
func TestJournalHugeSize(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithJournalSize(1<<62))
	for range 3 {
		call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	}
	if got := ts.Journal(RequestFilter{}); len(got) != 3 {
		t.Fatalf("got %d entries, want 3", len(got))
	}
	ts.ResetJournal()
	call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	if got := ts.Journal(RequestFilter{}); len(got) != 1 || got[0].Seq != 4 {
		t.Errorf("after a reset: got %v, want seq 4 alone", got)
	}
}

// TestJournalLargeParamsAreBounded sends calls whose parameters are
// hundreds of kilobytes (a search address, the key itself): the journal
// keeps and shows the first journalParamMax bytes of each value, masked
// and marked cut, with no start of a key at the cut, and what it holds
// stays within its bound. It kept each call's values whole until the entry
// left the journal (a thousand calls of a 3 MB address held 3 GB) and
// listed them whole, summaries included.
func TestJournalLargeParamsAreBounded(t *testing.T) {
	t.Parallel()
	const key, size, bodyMax = "Zq-Leak-Key-4711", 40, 2048
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys(key), WithJournalSize(size), WithJournalBodyMax(bodyMax))
	tail := strings.Repeat("y", 300<<10)
	room := journalParamMax - len(MaskKey(key))
	cuts := 0
	for pad := room - len(key) - 2; pad <= room+1; pad++ {
		params := paramsFor(asmx.OpReturnAtmSearchByAddress, key)
		params[1][1] = strings.Repeat("x", pad) + key + tail // strAddress
		do(t, callRequest(t, ts.URL, asmx.HTTPPost, asmx.OpReturnAtmSearchByAddress, params))
		e := ts.Journal(RequestFilter{Limit: 1})[0]
		v := e.Params["strAddress"]
		before, ok := strings.CutSuffix(v, fmt.Sprintf(paramCutMark, len(params[1][1])))
		if !ok || len(before) > journalParamMax {
			t.Fatalf("pad %d: strAddress of %d bytes shown as %d bytes ending %q, want at most %d and the cut mark",
				pad, len(params[1][1]), len(v), v[max(0, len(v)-40):], journalParamMax)
		}
		for n := 1; n <= len(key); n++ {
			if strings.HasSuffix(before, key[:n]) {
				t.Errorf("pad %d: strAddress ends with %q, the start of the key", pad, key[:n])
			}
		}
		if strings.HasSuffix(before, MaskKey(key)) {
			cuts++
		}
	}
	if cuts == 0 {
		t.Error("no cut fell inside the key: the test missed its point")
	}
	// A key of 200 KB: shown by its mask, nowhere in part.
	long := strings.Repeat("Qk9", 70000)
	params := paramsFor(asmx.OpReturnAtmSearchByAddress, long)
	params[1][1] = "1 Main St"
	do(t, callRequest(t, ts.URL, asmx.HTTPPost, asmx.OpReturnAtmSearchByAddress, params))
	for _, q := range []string{"?summary=true", "?limit=1", "/" + strconv.FormatUint(ts.Journal(RequestFilter{Limit: 1})[0].Seq, 10)} {
		if got := adminGet(t, ts.URL+"/__admin/requests"+q); strings.Contains(got, "Qk9Qk9") {
			t.Errorf("GET /__admin/requests%s: part of the long key in %.300q", q, got[strings.Index(got, "Qk9Qk9")-100:])
		}
	}
	if got := ts.Journal(RequestFilter{Limit: 1})[0].Params[asmx.ParamKey]; got != MaskKey(long) {
		t.Errorf("the long key shown as %.100q, want %q", got, MaskKey(long))
	}
	// Each parameter is bounded; so is what the journal holds in all.
	bound := size * (2*bodyMax + 6*(journalParamMax+len(paramCutMark)+20))
	if held := ts.journal.held(); held > bound {
		t.Errorf("the journal holds %d bytes, want at most %d", held, bound)
	}
	if n := len(adminGet(t, ts.URL+"/__admin/requests?summary=true")); n > bound {
		t.Errorf("GET /__admin/requests?summary=true: %d bytes, want at most %d", n, bound)
	}
}

// TestJournalDoesNotHoldLargeRequests journals calls of large requests,
// in forms and in SOAP, and measures the heap they leave (not parallel,
// so that no other test allocates meanwhile): the journal keeps its
// bounded part of each, not the request. A call decoded from a form held
// its values as parts of the whole body (and a long value or key was
// kept whole), so each call held its megabyte until it left the journal.
func TestJournalDoesNotHoldLargeRequests(t *testing.T) {
	const calls, size = 20, 1 << 20
	big := strings.Repeat("A", size)
	for _, tt := range []struct {
		name    string
		b       asmx.Binding
		address string
		key     string
		extra   [][2]string
	}{
		{"form, a long address", asmx.HTTPPost, big, "k", nil},
		{"form, a long field besides", asmx.HTTPPost, "1 Main St", "k", [][2]string{{"junk", big}}},
		{"SOAP, a long address", asmx.SOAP11, big, "k", nil},
		{"SOAP, a long key", asmx.SOAP12, "1 Main St", big, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ts := NewTestServer(t, WithDataset(smallDataset()))
			params := paramsFor(asmx.OpReturnAtmSearchByAddress, tt.key)
			params[1][1] = tt.address
			params = append(params, tt.extra...)
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for range calls {
				do(t, callRequest(t, ts.URL, tt.b, asmx.OpReturnAtmSearchByAddress, params))
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			if len(ts.Journal(RequestFilter{})) != calls {
				t.Fatalf("the journal holds %d calls, want %d", len(ts.Journal(RequestFilter{})), calls)
			}
			if grown := int64(after.HeapAlloc) - int64(before.HeapAlloc); grown > calls*size/4 {
				t.Errorf("%d calls of %d bytes left the heap %d bytes larger, want well under their %d bytes", calls, size, grown, calls*size)
			}
			runtime.KeepAlive(ts)
		})
	}
}

// TestJournalReusesNothingInUse: a full journal reuses the bytes and the
// call of the entry it drops for the next (journal.add); with calls coming
// from several clients and readers reading every entry in full meanwhile,
// each entry still shows its own request: the city its parameters name is
// the one its body sent, in the entries read while calls came and in
// those left. (Run with -race: a reuse under a reader is also a race.)
func TestJournalReusesNothingInUse(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithJournalSize(4))
	op := asmx.OpReturnAtmSearchByAddress
	check := func(e JournalEntry) {
		t.Helper()
		city := e.Params[asmx.ParamCity]
		if !strings.HasPrefix(city, "City") || !strings.Contains(e.Request.Body, ">"+city+"<") && !strings.Contains(e.Request.Body, "="+city+"&") {
			t.Errorf("entry %d: city %q, body %q: want the body that sent that city", e.Seq, city, e.Request.Body)
		}
	}
	stopReaders := readJournal(ts, 2, func(e JournalEntry) bool { check(e); return true })
	var clients sync.WaitGroup
	for c := range 3 {
		clients.Go(func() {
			for i := range 40 {
				params := paramsFor(op, "k")
				for j := range params {
					if params[j][0] == asmx.ParamCity {
						params[j][1] = fmt.Sprintf("City%d%s", c*1000+i, strings.Repeat("x", i%5))
					}
				}
				b := []asmx.Binding{asmx.SOAP11, asmx.SOAP12, asmx.HTTPPost}[i%3]
				if r := call(t, ts.URL, b, op, params); r.status != http.StatusOK {
					t.Errorf("call %d of client %d: status %d", i, c, r.status)
				}
			}
		})
	}
	clients.Wait()
	stopReaders()
	got := ts.Journal(RequestFilter{})
	if len(got) != 4 {
		t.Fatalf("got %d entries, want 4", len(got))
	}
	for _, e := range got {
		check(e)
	}
}

// keepingReplayer is a Replayer that has no recordings and keeps every
// call it is given, with the city the call asked for then.
type keepingReplayer struct {
	mu    sync.Mutex
	calls []*asmx.Call
	city  []string
}

func (k *keepingReplayer) Replay(_ context.Context, c *asmx.Call) (ReplayAnswer, bool, string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.calls, k.city = append(k.calls, c), append(k.city, c.City)
	return ReplayAnswer{}, false, ""
}

// TestJournalRecyclesNoCallAReplayerHolds: a full journal gives the calls
// of the entries it drops back for reuse (asmx.Call.Recycle), but not
// with a Replayer, which is handed every call and may keep it: the calls
// a replayer kept still ask what they asked.
func TestJournalRecyclesNoCallAReplayerHolds(t *testing.T) {
	t.Parallel()
	rp := &keepingReplayer{}
	ts := NewTestServer(t, WithDataset(smallDataset()), WithJournalSize(2), WithReplay(rp, MissFixtures))
	op := asmx.OpReturnAtmSearchByAddress
	for i := range 20 {
		params := paramsFor(op, "k")
		for j := range params {
			if params[j][0] == asmx.ParamCity {
				params[j][1] = fmt.Sprintf("City%d", i)
			}
		}
		if r := call(t, ts.URL, asmx.SOAP11, op, params); r.status != http.StatusOK {
			t.Fatalf("call %d: status %d", i, r.status)
		}
	}
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if len(rp.calls) != 20 {
		t.Fatalf("the replayer was given %d calls, want 20", len(rp.calls))
	}
	for i, c := range rp.calls {
		if c.City != rp.city[i] || c.Op == nil {
			t.Errorf("call %d: city now %q (op %v), want %q as given", i, c.City, c.Op, rp.city[i])
		}
	}
}

// TestUnknownPathNoted: a request to a path that is not the service's (an
// app pointed at its deployment's own path) gets net/http's 404, the
// journal's error kind NotFound, and a request log line naming the paths
// the service answers at; the service's paths in another case are served.
func TestUnknownPathNoted(t *testing.T) {
	t.Parallel()
	var buf mocktest.SyncBuffer
	ts := NewTestServer(t, WithDataset(smallDataset()), WithLogger(slog.New(slog.NewTextHandler(&buf, nil))))
	for _, path := range []string{"/AtmService.asmx?WSDL", "/service/service.asmxx", "/service-v2.asmx.bak", "/SERVICE/Service.asmx/ReturnProvinces?strAtmServiceKey=k"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		want := http.StatusNotFound
		if strings.HasPrefix(path, "/SERVICE") {
			want = http.StatusOK
		}
		if resp.StatusCode != want {
			t.Errorf("%s: got %d %q, want %d", path, resp.StatusCode, body, want)
		}
	}
	got := ts.Journal(RequestFilter{})
	if len(got) != 4 {
		t.Fatalf("journal: got %d entries, want 4", len(got))
	}
	for i, e := range got[:3] {
		if e.Status != 404 || e.Error != noteNotFound {
			t.Errorf("entry %d (%s): got status %d, error %q, want 404 %s", i+1, e.Path, e.Status, e.Error, noteNotFound)
		}
	}
	if got[3].Error != "" {
		t.Errorf("entry 4: got error %q, want none", got[3].Error)
	}
	log := buf.String()
	if n := strings.Count(log, `hint="not a path of the service: it answers at /service/service.asmx and /service-v2.asmx (any case)"`); n != 3 {
		t.Errorf("the log names the service's paths on %d lines, want 3:\n%s", n, log)
	}
}

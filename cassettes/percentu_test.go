package cassettes_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
)

// wideKey is a key beyond ASCII, which a client using JavaScript's
// escape() sends as %u escapes.
const wideKey = "s3cr3t-Clé-秘密-77"

// percentUCall is a GET or POST call of ReturnAtmSearchByAddress written
// as a client may for ASP.NET, so that net/http cannot parse it.
type percentUCall struct {
	name   string
	method string
	raw    string // the query or form, as sent
	utf8   string // the same parameters with UTF-8 escapes, the key plain
}

// percentUCalls are calls net/http refuses and ASMX reads: %u escapes in
// the key, the key's name and a value, a lone '%', a ';' within a value, a
// bad escape in a parameter ASMX ignores. city is written with %u escapes.
func percentUCalls(city string) []percentUCall {
	rest := func(city, addr string) string {
		return "&strAddress=" + addr + "&strCity=" + city + "&strProvince=&strPostalCode=&bytRadius=10"
	}
	plainCity := url.QueryEscape(city)
	return []percentUCall{
		{"GET, key and city as %u escapes", http.MethodGet, "strAtmServiceKey=" + mocktest.PercentU(wideKey) + rest(mocktest.PercentUAll(city), ""),
			"strAtmServiceKey=x" + rest(plainCity, "")},
		{"POST, key and city as %u escapes", http.MethodPost, "strAtmServiceKey=" + mocktest.PercentUAll(testKey) + rest(mocktest.PercentUAll(city), ""),
			"strAtmServiceKey=x" + rest(plainCity, "")},
		{"GET, the key's name as %u escapes, a lone %", http.MethodGet, "strAtm%u0053erviceKey=" + url.QueryEscape(testKey) + rest(mocktest.PercentUAll(city), "100%") + "&x=%zz",
			"strAtmServiceKey=x" + rest(plainCity, "100%25")},
		{"POST, the key's name as %u escapes, a ;", http.MethodPost, "%u0073trAtmServiceKey=" + mocktest.PercentU(wideKey) + rest(mocktest.PercentUAll(city), "a;b"),
			"strAtmServiceKey=x" + rest(plainCity, "a%3Bb")},
	}
}

// send sends c's raw query or form to the service at base, or its UTF-8
// form when utf8 is set.
func (c percentUCall) send(t *testing.T, client *http.Client, base string, utf8 bool) (int, string) {
	t.Helper()
	q := c.raw
	if utf8 {
		q = c.utf8
	}
	return do(t, client, addressSearch(t, base, c.method, asmx.ContentTypeForm, q))
}

// addressSearch is a request of ReturnAtmSearchByAddress to the service at
// base with the parameters q as written: in the query of a GET, or as the
// form body of a POST of content type ct.
func addressSearch(t *testing.T, base, method, ct, q string) *http.Request {
	t.Helper()
	target := base + asmx.ServicePath + "/" + asmx.OpReturnAtmSearchByAddress
	var req *http.Request
	var err error
	if method == http.MethodGet {
		req, err = http.NewRequest(http.MethodGet, target+"?"+q, nil)
	} else {
		req, err = http.NewRequest(http.MethodPost, target, strings.NewReader(q))
		if err == nil {
			req.Header.Set("Content-Type", ct)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// TestRecordPercentUCalls: GET and POST calls whose query or form net/http
// cannot parse but ASMX reads (percentUCalls) go through the recording
// proxy to a live stand-in and are recorded: the cassette holds no key,
// sent as %u escapes or under a name written with them, lists them as the
// calls ASMX reads, its POST forms read as ASMX reads them, needs no more
// scrubbing, and a mock replaying it answers the same requests, and the
// same parameters written with UTF-8 escapes, with the recorded answers.
// They used to be forwarded unrecorded.
func TestRecordPercentUCalls(t *testing.T) {
	t.Parallel()
	ds, _, up := smallStandIn(t, mockserver.WithKeys(testKey, wideKey))
	city := ds.ATMs[0].Address.City
	calls := percentUCalls(city)
	path := filepath.Join(t.TempDir(), "percent-u.yaml")
	rec, proxy := recordingProxy(t, up.URL, path)
	answers := make([]string, len(calls))
	for n, c := range calls {
		status, want := c.send(t, up.Client(), up.URL, false)
		if status != http.StatusOK || !strings.Contains(want, "<count>") || strings.Contains(want, "<count>0</count>") {
			t.Fatalf("%s: the stand-in answers %d, want ATMs of %s: %.300s", c.name, status, city, want)
		}
		if status, got := c.send(t, proxy.Client(), proxy.URL, false); status != http.StatusOK || got != want {
			t.Fatalf("%s through the proxy: %d %.300q, want the stand-in's %.300q", c.name, status, got, want)
		}
		answers[n] = want
	}
	proxy.Close()
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}

	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	assertNoKey(t, path)
	for _, key := range []string{testKey, wideKey} {
		for _, form := range []string{key, url.QueryEscape(key), mocktest.PercentU(key), strings.ToLower(mocktest.PercentU(key)), mocktest.PercentUAll(key)} {
			if strings.Contains(string(raw), form) {
				t.Errorf("the cassette holds the key as %q:\n%s", form, raw)
			}
		}
	}
	entries, err := cassettes.List(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(calls) {
		t.Fatalf("the cassette holds %d interactions, want the %d calls:\n%s", len(entries), len(calls), raw)
	}
	list := readCassette(t, path)
	for n, c := range calls {
		e := entries[n]
		wantBinding := map[string]string{http.MethodGet: "get", http.MethodPost: "post"}[c.method]
		if e.Binding != wantBinding || e.Operation != asmx.OpReturnAtmSearchByAddress || !slices.Contains(e.Params, [2]string{asmx.ParamCity, city}) || e.KeyRejection {
			t.Errorf("%s: listed as %+v, want a %s call of %s in %s", c.name, e, wantBinding, asmx.OpReturnAtmSearchByAddress, city)
		}
		rq := list[n].Request
		if c.method == http.MethodPost {
			if rq.Body == c.raw || !strings.Contains(rq.Body, mocktest.PercentUAll(city)) {
				t.Errorf("%s: the body recorded is %q, want the form as sent, the key scrubbed", c.name, rq.Body)
			}
			// The form as ASMX reads it: the %u escapes decoded, the
			// key under its name as ASMX reads it, scrubbed.
			if !slices.Equal(rq.Form[asmx.ParamCity], []string{city}) || len(rq.Form[asmx.ParamKey]) != 1 || rq.Form[asmx.ParamKey][0] != cassettes.Placeholder {
				t.Errorf("%s: the form recorded is %v", c.name, rq.Form)
			}
		} else if !strings.Contains(rq.URL, "?") || !strings.HasSuffix(rq.URL, strings.SplitN(c.raw, "&", 2)[1]) || len(rq.Form) != 0 {
			t.Errorf("%s: recorded the URL %q and the form %v, want the query as sent, the key scrubbed, and no form", c.name, rq.URL, rq.Form)
		}
	}
	if res, err := cassettes.ScrubCassette(path, true); err != nil || res.Replaced != 0 {
		t.Errorf("scrub --check: %+v, %v; want nothing to replace", res, err)
	}

	up.Close() // from here on, answers can only come from the cassette
	replay := replayServer(t, []string{path}, nil)
	for n, c := range calls {
		for _, utf8 := range []bool{false, true} {
			if status, got := c.send(t, replay.Client(), replay.URL, utf8); status != http.StatusOK || got != answers[n] {
				t.Errorf("%s (UTF-8 escapes: %v) replayed: %d %.300q, want the recorded %.300q", c.name, utf8, status, got, answers[n])
			}
		}
	}
}

// TestRecordNewReplaysPercentUCalls: in ModeRecordNew, where go-vcr's
// recorder records and cannot record what net/http cannot parse, the calls
// of percentUCalls a cassette holds are replayed from it, not sent to the
// upstream; a new one is forwarded unrecorded, with a warning. A call the
// cassette held used to be forwarded too.
func TestRecordNewReplaysPercentUCalls(t *testing.T) {
	t.Parallel()
	ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 7, ATMs: 50})
	if err != nil {
		t.Fatal(err)
	}
	h, err := mockserver.New(mockserver.WithDataset(ds), mockserver.WithKeys(testKey, wideKey))
	if err != nil {
		t.Fatal(err)
	}
	var hits atomic.Int64
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		h.ServeHTTP(w, r)
	}))
	defer up.Close()
	path := filepath.Join(t.TempDir(), "percent-u.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	calls := percentUCalls(ds.ATMs[0].Address.City)
	answers := make([]string, len(calls))
	for n, c := range calls {
		var status int
		if status, answers[n] = c.send(t, rec.Client(), up.URL, false); status != http.StatusOK {
			t.Fatalf("%s: %d %.300s", c.name, status, answers[n])
		}
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	rec, err = cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordNew), cassettes.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Stop()
	before := hits.Load()
	for n, c := range calls {
		if status, got := c.send(t, rec.Client(), up.URL, false); status != http.StatusOK || got != answers[n] {
			t.Errorf("%s: %d %.300q, want the recorded %.300q", c.name, status, got, answers[n])
		}
	}
	if n := hits.Load() - before; n != 0 {
		t.Errorf("the upstream got %d of the calls the cassette holds, want none", n)
	}
	// A call the cassette does not hold is recorded (it was forwarded
	// unrecorded, with a warning, every time it came), then replayed.
	other := percentUCalls(ds.ATMs[len(ds.ATMs)-1].Address.City + "x")[0]
	status, first := other.send(t, rec.Client(), up.URL, false)
	if status != http.StatusOK || hits.Load() != before+1 {
		t.Errorf("a new call: %d, the upstream got %d requests, want it forwarded", status, hits.Load()-before)
	}
	if status, again := other.send(t, rec.Client(), up.URL, false); status != http.StatusOK || again != first || hits.Load() != before+1 {
		t.Errorf("the new call again: %d %.300q, the upstream got %d requests; want the first answer replayed, the upstream not asked again", status, again, hits.Load()-before)
	}
	if n := rec.Len(); n != len(calls)+1 {
		t.Errorf("the cassette holds %d interactions, want the %d recorded before and the new one", n, len(calls))
	}
	if strings.Contains(logs.String(), "forwarded without recording") {
		t.Errorf("a call forwarded unrecorded: %q", logs.String())
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), testKey) {
		t.Error("the cassette holds the service key")
	}
	replay, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeReplayOnly))
	if err != nil {
		t.Fatal(err)
	}
	defer replay.Stop()
	if status, got := other.send(t, replay.Client(), up.URL, false); status != http.StatusOK || got != first || hits.Load() != before+1 {
		t.Errorf("the new call replayed from the file: %d %.300q, want the recorded answer", status, got)
	}
}

// TestRecorderErrorHidesAKeyUnderAPercentUName: when the upstream cannot
// be reached, neither the proxy's 502 answer nor its log shows a key sent
// under a name written with %u escapes, in a call or in another request.
// The request was described by its URL, scrubbed where the name was
// written plainly only: the key was shown whole.
func TestRecorderErrorHidesAKeyUnderAPercentUName(t *testing.T) {
	t.Parallel()
	dead, err := url.Parse(mocktest.ClosedPort(t))
	if err != nil {
		t.Fatal(err)
	}
	var logs strings.Builder
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	rec, err := cassettes.New(filepath.Join(t.TempDir(), "dead.yaml"), cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithLogger(logger))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Stop()
	proxy := httptest.NewServer(cassettes.NewProxy(dead, rec, logger))
	defer proxy.Close()
	for _, target := range []string{
		"ReturnProvinces?strAtm%u0053erviceKey=" + testKey,
		"ReturnProvinces?strAtm%u0053erviceKey=" + mocktest.PercentUAll(testKey),
		"ReturnAtmSearchByCity?%u0073trAtmServiceKey=" + testKey, // a parameter missing: no call
		"Nope?strAtm%u0053erviceKey=" + testKey + ";x=1",
	} {
		status, body := do(t, proxy.Client(), mustGet(t, proxy.URL+asmx.ServicePath+"/"+target))
		if status != http.StatusBadGateway {
			t.Errorf("%s: %d, want 502", target, status)
		}
		for what, text := range map[string]string{"answer": body, "log": logs.String()} {
			for _, form := range []string{testKey, mocktest.PercentUAll(testKey), "s3cr3t"} {
				if strings.Contains(text, form) {
					t.Errorf("%s: the %s holds the key as %q: %s", target, what, form, text)
				}
			}
		}
	}
}

package cassettes_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/mockserver"
)

// TestRecordReplayEndToEnd records a live stand-in through the recording
// proxy in every binding, shuts the stand-in down, and replays the cassette
// through a mock server in every binding.
func TestRecordReplayEndToEnd(t *testing.T) {
	t.Parallel()
	up, ds := standIn(t)
	path := filepath.Join(t.TempDir(), "atm")
	rec, proxy := recordingProxy(t, up.URL, path)
	client := proxy.Client()

	xmlQs, jsonQs := queries(ds)
	direct := map[string][]string{} // query and binding → values straight from the stand-in
	rawJSON := map[string]string{}
	// Each XML question is recorded in one binding only (round robin), and
	// asked later in all four.
	for i, q := range xmlQs {
		b := asmx.XMLBindings[i%4]
		status, want := do(t, up.Client(), request(t, up.URL, b, q, testKey, false))
		if status != 200 {
			t.Fatalf("stand-in %s %s: status %d: %s", b, q, status, want)
		}
		status, got := do(t, client, request(t, proxy.URL, b, q, testKey, false))
		if status != 200 || got != want {
			t.Fatalf("proxy %s %s: status %d; the answer must come back unchanged\ngot  %q\nwant %q", b, q, status, got, want)
		}
		direct[q.String()] = values(t, b, want)
	}
	for _, q := range jsonQs {
		status, body := do(t, client, request(t, proxy.URL, asmx.JSON, q, testKey, false))
		if status != 200 {
			t.Fatalf("proxy json %s: status %d: %s", q, status, body)
		}
		rawJSON[q.String()] = body
	}
	// A WSDL, a help page and an error go through and are recorded too.
	for _, p := range []string{asmx.ServicePath + "?WSDL", asmx.ServicePath} {
		if status, _ := do(t, client, mustGet(t, proxy.URL+p)); status != 200 {
			t.Fatalf("GET %s through the proxy: status %d", p, status)
		}
	}
	if status, _ := do(t, client, mustGet(t, proxy.URL+cassettes.HealthPath)); status != 200 {
		t.Fatalf("health: status %d", status)
	}
	proxy.Close()
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	up.Close() // from here on, answers can only come from the cassette
	if dump := os.Getenv("CASSETTES_DUMP"); dump != "" {
		b, _ := os.ReadFile(path + ".yaml")
		_ = os.WriteFile(dump, b, 0o644)
	}

	assertNoKey(t, path+".yaml")
	entries, err := cassettes.List(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(entries), len(xmlQs)+len(jsonQs)+2; got != want {
		t.Fatalf("cassette holds %d interactions, want %d", got, want)
	}

	idx, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	h, err := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault))
	if err != nil {
		t.Fatal(err)
	}
	replay := httptest.NewServer(h)
	defer replay.Close()
	def, err := mockserver.New() // the default data set, to prove the answers differ from it
	if err != nil {
		t.Fatal(err)
	}
	defSrv := httptest.NewServer(def)
	defer defSrv.Close()

	for _, q := range xmlQs {
		for _, b := range asmx.XMLBindings {
			for _, variant := range []bool{false, true} {
				status, body := do(t, replay.Client(), request(t, replay.URL, b, q, "any-other-key", variant))
				if status != 200 {
					t.Fatalf("replay %s %s (variant %v): status %d: %s", b, q, variant, status, body)
				}
				if got, want := values(t, b, body), direct[q.String()]; !slices.Equal(got, want) {
					t.Errorf("replay %s %s: values differ from the recording\ngot  %q\nwant %q", b, q, got, want)
				}
			}
			if ct := contentType(t, replay, request(t, replay.URL, b, q, "k", false)); ct != asmx.ContentType(b) {
				t.Errorf("replay %s: content type %q, want %q", b, ct, asmx.ContentType(b))
			}
		}
		_, fromDefault := do(t, defSrv.Client(), request(t, defSrv.URL, asmx.HTTPGet, q, "k", false))
		if q.Op != asmx.OpReturnProvinces && q.Op != asmx.OpReturnInstitutions && slices.Equal(values(t, asmx.HTTPGet, fromDefault), direct[q.String()]) {
			t.Errorf("%s: the default data set gives the same answer; the test proves nothing", q)
		}
	}
	for _, q := range jsonQs {
		status, body := do(t, replay.Client(), request(t, replay.URL, asmx.JSON, q, "k", true))
		if status != 200 || body != rawJSON[q.String()] {
			t.Errorf("replay json %s: status %d\ngot  %s\nwant %s", q, status, body, rawJSON[q.String()])
		}
	}

	// A question never recorded: a fault naming it and the nearest recording.
	miss := query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "99999"}}}
	status, body := do(t, replay.Client(), request(t, replay.URL, asmx.SOAP11, miss, "k", false))
	if status != 500 || !strings.Contains(body, "No recorded interaction matches ReturnAtmSearchByCity") ||
		!strings.Contains(body, `intCityID="99999"`) || !strings.Contains(body, "nearest recording: ReturnAtmSearchByCity(intCityID=") {
		t.Errorf("miss: status %d, body %s", status, body)
	}
	// With --on-miss fixtures the data set answers instead.
	h2, _ := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFixtures))
	rr := httptest.NewRecorder()
	h2.ServeHTTP(rr, request(t, "http://x", asmx.HTTPGet, miss, "k", false))
	if rr.Code != 200 {
		t.Errorf("miss with fixtures: status %d: %s", rr.Code, rr.Body)
	}
}

func contentType(t testing.TB, srv *httptest.Server, req *http.Request) string {
	t.Helper()
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.Header.Get("Content-Type")
}

// TestReplayRecordedErrors: requests the mock cannot read as a call (a
// parameter missing or not converting, an unknown operation, an unreadable
// SOAP body) replay the deployment's own answers, recorded, byte for byte;
// one not recorded gets the mock's own error. The stand-in writes its
// errors in the detailed form, which the replaying mock does not.
func TestReplayRecordedErrors(t *testing.T) {
	t.Parallel()
	ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 7, ATMs: 50})
	if err != nil {
		t.Fatal(err)
	}
	h, err := mockserver.New(mockserver.WithDataset(ds), mockserver.WithKeys(testKey), mockserver.WithDetailedErrors(true))
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(h)
	defer up.Close()
	svc := asmx.ServicePath + "/"
	soap := `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + asmx.NamespaceSOAP11 + `"><soap:Body><ReturnAtmSearchByCity xmlns="` + asmx.DefaultNamespace +
		`"><strAtmServiceKey>` + testKey + `</strAtmServiceKey><intCityID>abc</intCityID></ReturnAtmSearchByCity></soap:Body></soap:Envelope>`
	requests := []func(base string) *http.Request{
		func(base string) *http.Request {
			return mustGet(t, base+svc+"ReturnAtmSearchByCity?strAtmServiceKey="+testKey+"&intCityID=abc")
		},
		func(base string) *http.Request {
			return mustGet(t, base+svc+"ReturnAtmSearchByCity?strAtmServiceKey="+testKey)
		},
		func(base string) *http.Request { return mustGet(t, base+svc+"Nope?strAtmServiceKey="+testKey) },
		func(base string) *http.Request {
			r, _ := http.NewRequest(http.MethodPost, base+svc+"ReturnAtmSearchByCity", strings.NewReader("strAtmServiceKey="+testKey+"&intCityID=300000000000"))
			r.Header.Set("Content-Type", asmx.ContentTypeForm)
			return r
		},
		func(base string) *http.Request {
			r, _ := http.NewRequest(http.MethodPost, base+asmx.ServicePath, strings.NewReader(soap))
			r.Header.Set("Content-Type", asmx.ContentTypeSOAP11)
			r.Header.Set("SOAPAction", `"`+asmx.DefaultNamespace+`/ReturnAtmSearchByCity"`)
			return r
		},
	}
	recordedAnswers := make([]string, len(requests))
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		for i, req := range requests {
			status, body := do(t, proxy.Client(), req(proxy.URL))
			if status != 500 || !strings.Contains(body, "   at ") {
				t.Fatalf("request %d: recorded %d %q, want the stand-in's detailed error", i, status, body)
			}
			recordedAnswers[i] = body
		}
	})
	assertNoKey(t, path+".yaml")
	replay := replayServer(t, []string{path}, nil, mockserver.WithKeys("another-key-1"))
	for i, req := range requests {
		if status, body := do(t, replay.Client(), req(replay.URL)); status != 500 || body != recordedAnswers[i] {
			t.Errorf("request %d replayed: %d %q\nwant the recorded 500 %q", i, status, body, recordedAnswers[i])
		}
	}
	status, body := do(t, replay.Client(), mustGet(t, replay.URL+svc+"ReturnAtmSearchByCity?strAtmServiceKey="+testKey+"&intCityID=xyz"))
	if status != 500 || strings.Contains(body, "   at ") || !strings.Contains(body, "Cannot convert xyz to System.Int32.") {
		t.Errorf("a request not recorded: %d %q, want the mock's own error", status, body)
	}
}

// TestIndexNamespaceWithoutSOAP: cassettes without a SOAP call still name
// the deployment's namespace, from the WSDL they hold, else from a
// discovery document, else from a typed GET answer's root; a node root
// names none.
func TestIndexNamespaceWithoutSOAP(t *testing.T) {
	t.Parallel()
	const ns = "urn:moved:atm"
	h, err := mockserver.New(mockserver.WithNamespace(ns), mockserver.WithKeys(testKey))
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(h)
	defer up.Close()
	record := func(paths ...string) cassettes.IndexStats {
		t.Helper()
		path := recordVia(t, up.URL, func(proxy *httptest.Server) {
			for _, p := range paths {
				if status, body := do(t, proxy.Client(), mustGet(t, proxy.URL+p)); status != 200 {
					t.Fatalf("GET %s: %d %s", p, status, body)
				}
			}
		})
		idx, err := cassettes.LoadIndex([]string{path})
		if err != nil {
			t.Fatal(err)
		}
		return idx.Stats()
	}
	get := asmx.ServicePath + "/ReturnProvinces?strAtmServiceKey=" + testKey
	if st := record(get, asmx.ServicePath+"?WSDL"); !slices.Equal(st.Namespaces, []string{ns}) {
		t.Errorf("GET and the WSDL: namespaces %q, want [%s]", st.Namespaces, ns)
	}
	if st := record(get, asmx.ServicePath+"?disco"); !slices.Equal(st.Namespaces, []string{ns}) {
		t.Errorf("GET and the discovery document: namespaces %q, want [%s]", st.Namespaces, ns)
	}
	if st := record(get); len(st.Namespaces) != 0 {
		t.Errorf("GET of a node result alone: namespaces %q, want none", st.Namespaces)
	}
}

// TestReplayServesRecordedWSDL: a replaying mock serves the deployment's
// own WSDL, recorded, with every port's address its own; a mock serving
// another namespace writes its own WSDL.
func TestReplayServesRecordedWSDL(t *testing.T) {
	t.Parallel()
	const ns = "urn:recorded:atm"
	wsdl := `<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" targetNamespace="` + ns + `">
  <wsdl:documentation>the deployment's own</wsdl:documentation>
  <wsdl:service name="AtmService">
    <wsdl:port name="AtmServiceSoap" binding="tns:AtmServiceSoap"><soap:address location="http://atm.example.org/app/service/service.asmx" /></wsdl:port>
    <wsdl:port name="AtmServiceSoap12" binding="tns:AtmServiceSoap12"><soap12:address location='http://atm.example.org/app/service/service.asmx'/></wsdl:port>
  </wsdl:service>
</wsdl:definitions>`
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", asmx.ContentTypeXML)
		_, _ = w.Write([]byte(wsdl))
	}))
	defer up.Close()
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		if status, _ := do(t, proxy.Client(), mustGet(t, proxy.URL+asmx.ServicePath+"?WSDL")); status != 200 {
			t.Fatalf("recording the WSDL: status %d", status)
		}
	})
	idx, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ns       string
		recorded bool
	}{{ns, true}, {"urn:another", false}} {
		h, err := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault), mockserver.WithNamespace(tc.ns))
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(h)
		status, body := do(t, srv.Client(), mustGet(t, srv.URL+asmx.ServicePath+"?wsdl"))
		own := srv.URL + asmx.ServicePath
		want := strings.ReplaceAll(wsdl, "http://atm.example.org/app/service/service.asmx", own)
		switch {
		case status != 200:
			t.Errorf("%s: status %d", tc.ns, status)
		case tc.recorded && body != want:
			t.Errorf("%s: got\n%s\nwant the recorded WSDL at the mock's address\n%s", tc.ns, body, want)
		case !tc.recorded && (strings.Contains(body, "the deployment's own") || !strings.Contains(body, `targetNamespace="urn:another"`)):
			t.Errorf("%s: got\n%s\nwant the mock's own WSDL", tc.ns, body)
		}
		srv.Close()
	}
}

// TestMissNamesTheRecordingThatCouldAnswer: a miss names the nearest
// recording of the call's own family, in the call's own binding where
// there is one, not the first recording of the operation.
func TestMissNamesTheRecordingThatCouldAnswer(t *testing.T) {
	t.Parallel()
	up, ds := standIn(t)
	city := query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", strconv.Itoa(ds.Cities[0].ID)}}}
	coords := query{Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "44.6"}, {"dblLongitude", "-63.5"}, {"bytRadius", "5"}}}
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		for _, r := range []struct {
			b asmx.Binding
			q query
		}{{asmx.SOAP11, city}, {asmx.HTTPGet, city}, {asmx.SOAP11, coords}, {asmx.JSON, coords}} {
			if status, body := do(t, proxy.Client(), request(t, proxy.URL, r.b, r.q, testKey, false)); status != 200 {
				t.Fatalf("record %s %s: %d %s", r.b, r.q, status, body)
			}
		}
	})
	idx, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		b     asmx.Binding
		op    string
		query string
		want  string
	}{
		{asmx.HTTPGet, asmx.OpReturnAtmSearchByCity, "strAtmServiceKey=k&intCityID=99999", "#1 (get), which differs in intCityID"},
		{asmx.JSON, asmx.OpReturnAtmSearchByCoordinates, "strAtmServiceKey=k&strPostalCode=&dblLatitude=44.6&dblLongitude=-63.5&bytRadius=9", "#3 (json), which differs in bytRadius"},
		{asmx.HTTPGet, asmx.OpReturnProvinces, "strAtmServiceKey=k", "none of ReturnProvinces (the cassettes hold 3 distinct calls of 2 operations)"},
	} {
		op, _ := asmx.LookupOperation(tc.op)
		c, e := asmx.DecodeQuery(op, tc.b, tc.query)
		if e != nil {
			t.Fatal(e)
		}
		if _, ok, nearest := idx.Replay(context.Background(), c); ok || !strings.Contains(nearest, tc.want) {
			t.Errorf("%s miss: ok %v, nearest %q; want it to hold %q", tc.b, ok, nearest, tc.want)
		}
	}
}

// TestRecordWarnsOfAChangedAnswer: a question that gets another answer than
// the one recorded before (re-recording into a cassette) is kept, and the
// log says replay serves both in recorded order; the same answer again is
// neither kept nor warned of.
func TestRecordWarnsOfAChangedAnswer(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", asmx.ContentTypeXML)
		fmt.Fprintf(w, "<provinces><count>%d</count></provinces>", min(n.Add(1), 2))
	}))
	defer up.Close()
	var logs bytes.Buffer
	q := query{Op: asmx.OpReturnProvinces}
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		for range 3 {
			if status, body := do(t, proxy.Client(), request(t, proxy.URL, asmx.HTTPGet, q, testKey, false)); status != 200 {
				t.Fatalf("%d %s", status, body)
			}
		}
	}, cassettes.WithLogger(slog.New(slog.NewTextHandler(&logs, nil))))
	if got := strings.Count(logs.String(), "got another answer"); got != 1 || !strings.Contains(logs.String(), "answers=2") || strings.Contains(logs.String(), testKey) {
		t.Errorf("log:\n%s\nwant one warning of a changed answer (answers=2), no key", logs.String())
	}
	if entries, err := cassettes.List(path); err != nil || len(entries) != 2 {
		t.Errorf("cassette: %d interactions (%v), want 2", len(entries), err)
	}
}

// recordVia records what calls sends through a recording proxy in front of
// upstream into a new cassette (ModeRecordAll, with opts), and returns its
// path once the recorder has stopped.
func recordVia(t *testing.T, upstream string, calls func(proxy *httptest.Server), opts ...cassettes.Option) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cassette")
	rec, proxy := recordingProxy(t, upstream, path, opts...)
	calls(proxy)
	proxy.Close()
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestScrubHeadersNamed: a header named with WithScrubHeaders (any case),
// whose name holds none of the credential words, reaches the cassette as
// REDACTED; Scrub and ScrubFile take the same names, idempotently.
func TestScrubHeadersNamed(t *testing.T) {
	t.Parallel()
	up, _ := standIn(t)
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		req := request(t, proxy.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)
		req.Header.Set("X-Partner-Id", "partner-secret-42")
		if status, body := do(t, proxy.Client(), req); status != 200 {
			t.Fatalf("%d %s", status, body)
		}
	}, cassettes.WithScrubHeaders("x-partner-id"))
	text, err := os.ReadFile(path + ".yaml")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(text), "partner-secret-42") || !strings.Contains(string(text), "X-Partner-Id:") {
		t.Errorf("the cassette holds the header's value, or lost the header:\n%s", text)
	}

	// A cassette made elsewhere: ScrubFile with the name redacts it.
	list := readCassette(t, path)
	list[0].Request.Headers.Set("X-Partner-Id", "partner-secret-42")
	writeCassette(t, path+".yaml", list)
	if n, _, err := cassettes.ScrubFile(path); err != nil || n != 0 {
		t.Errorf("ScrubFile without the name: %d replaced (%v), want 0: the name holds no credential word", n, err)
	}
	if n, inter, err := cassettes.ScrubFile(path, "X-PARTNER-ID"); err != nil || n != 1 || inter != 1 {
		t.Errorf("ScrubFile with the name: %d values in %d interactions (%v), want 1 in 1", n, inter, err)
	}
	if n, _, _ := cassettes.ScrubFile(path, "X-PARTNER-ID"); n != 0 {
		t.Errorf("ScrubFile again: %d replaced, want 0", n)
	}
}

// TestJournalNamesTheRecording: a replaying server's journal says where
// each answer came from: the recording that answered (the cassette's file
// name and the interaction's id, as cassette list numbers it), the
// recording a call in another binding was re-wrapped from, and "fixtures"
// for a miss the data set answered.
func TestJournalNamesTheRecording(t *testing.T) {
	t.Parallel()
	up, ds := standIn(t)
	city := query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", strconv.Itoa(ds.Cities[0].ID)}}}
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		for _, b := range []asmx.Binding{asmx.HTTPGet, asmx.SOAP11} {
			if status, body := do(t, proxy.Client(), request(t, proxy.URL, b, query{Op: asmx.OpReturnProvinces}, testKey, false)); status != 200 {
				t.Fatalf("record %s: %d %s", b, status, body)
			}
		}
		if status, body := do(t, proxy.Client(), request(t, proxy.URL, asmx.SOAP11, city, testKey, false)); status != 200 {
			t.Fatalf("record city: %d %s", status, body)
		}
	})
	idx, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	ts := mockserver.NewTestServer(t, mockserver.WithReplay(idx, mockserver.MissFixtures), mockserver.WithDataset(ds))
	name := filepath.Base(path) + ".yaml" // the recorder writes path.yaml
	for _, tc := range []struct {
		b    asmx.Binding
		q    query
		want string
	}{
		{asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, name + "#0"},
		{asmx.SOAP11, query{Op: asmx.OpReturnProvinces}, name + "#1"},
		{asmx.HTTPPost, city, name + "#2"}, // re-wrapped from the SOAP recording
		{asmx.HTTPGet, query{Op: asmx.OpReturnInstitutions}, mockserver.SourceFixtures},
	} {
		ts.ResetJournal()
		if status, body := do(t, ts.Client(), request(t, ts.URL, tc.b, tc.q, testKey, false)); status != 200 {
			t.Fatalf("%s %s: %d %s", tc.b, tc.q, status, body)
		}
		if got := ts.Journal(mockserver.RequestFilter{}); len(got) != 1 || got[0].Source != tc.want {
			t.Errorf("%s %s: journal %+v, want one entry with source %q", tc.b, tc.q, got, tc.want)
		}
	}
}

package cassettes_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// docPage is a documentation page as a client got it.
type docPage struct {
	status int
	ct     string
	body   string
}

// getPage fetches u.
func getPage(t testing.TB, c *http.Client, u string) docPage {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return docPage{resp.StatusCode, resp.Header.Get("Content-Type"), string(b)}
}

// customDescription stands for what a deployment's own help page says and
// the mock's does not ([WebService(Description = …)]).
const customDescription = "<p class=\"intro\">The Example Bank's ATM locator.</p>"

// describedDeployment is the stand-in deployment of the pages tests: a mock
// in namespace ns answering typed results as sh says, below the base path
// /app, whose help page of the operation list carries customDescription.
func describedDeployment(t *testing.T, ns string, sh *shape.Shape) *httptest.Server {
	t.Helper()
	h, err := mockserver.New(mockserver.WithNamespace(ns), mockserver.WithKeys(testKey), mockserver.WithShape(sh))
	if err != nil {
		t.Fatal(err)
	}
	inner := http.StripPrefix("/app", h)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.RawQuery != "" {
			inner.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		inner.ServeHTTP(rec, r)
		body := bytes.Replace(rec.Body.Bytes(), []byte("<ul id=\"operations\">"), []byte(customDescription+"\n<ul id=\"operations\">"), 1)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	}))
	t.Cleanup(up.Close)
	return up
}

// TestReplayServesRecordedPages: a replaying mock serves the deployment's
// own help pages and discovery document, recorded, byte for byte but for
// the recorded host, which is the mock's; a page not recorded, or a mock
// in another namespace, gets the mock's own page.
func TestReplayServesRecordedPages(t *testing.T) {
	t.Parallel()
	const ns = "urn:recorded:pages"
	sh, err := shape.Load(filepath.Join("..", "shape", "learn", "testdata", "reference-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	up := describedDeployment(t, ns, sh)
	recordedPaths := []string{"", "?op=" + asmx.OpReturnProvinces, "?disco"}
	path := recordVia(t, up.URL+"/app", func(proxy *httptest.Server) {
		if status, body := do(t, proxy.Client(), requestNS(t, proxy.URL, ns, asmx.SOAP11, query{Op: asmx.OpReturnProvinces}, testKey, false)); status != 200 {
			t.Fatalf("recording a call: %d %s", status, body)
		}
		for _, p := range recordedPaths {
			if got := getPage(t, proxy.Client(), proxy.URL+asmx.ServicePath+p); got.status != 200 {
				t.Fatalf("recording %q: status %d", p, got.status)
			}
		}
	})
	idx, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	if st := idx.Stats(); st.Pages != len(recordedPaths) {
		t.Errorf("Stats().Pages: got %d, want %d", st.Pages, len(recordedPaths))
	}
	upHost := strings.TrimPrefix(up.URL, "http://")

	replay := mockserver.NewTestServer(t, mockserver.WithReplay(idx, mockserver.MissFault), mockserver.WithNamespace(ns))
	own := mockserver.NewTestServer(t, mockserver.WithNamespace(ns))
	host := strings.TrimPrefix(replay.URL, "http://")
	for _, p := range recordedPaths {
		direct := getPage(t, up.Client(), up.URL+"/app"+asmx.ServicePath+p)
		want := strings.ReplaceAll(direct.body, upHost, host)
		got := getPage(t, replay.Client(), replay.ServiceURL()+p)
		if got.status != direct.status || got.ct != direct.ct || got.body != want {
			t.Errorf("%q: got %d %q\n%s\nwant the deployment's %d %q at the mock's address\n%s", p, got.status, got.ct, got.body, direct.status, direct.ct, want)
		}
		if p == "?disco" {
			continue // the same document as the mock's own
		}
		if mine := getPage(t, own.Client(), own.ServiceURL()+p); strings.ReplaceAll(mine.body, strings.TrimPrefix(own.URL, "http://"), host) == got.body {
			t.Errorf("%q: the mock's own page is the deployment's: the test shows nothing", p)
		}
	}
	j := replay.Journal(mockserver.RequestFilter{})
	if len(j) != len(recordedPaths) {
		t.Fatalf("journal: got %d entries, want %d", len(j), len(recordedPaths))
	}
	for k, e := range j {
		if !strings.HasPrefix(e.Source, filepath.Base(path)+".yaml#") {
			t.Errorf("journal of %q: Source %q, want the cassette's interaction", recordedPaths[k], e.Source)
		}
	}

	// Not recorded: the mock's own page, at its own address.
	notRecorded := "?op=" + asmx.OpReturnInstitutions
	got := getPage(t, replay.Client(), replay.ServiceURL()+notRecorded)
	mine := getPage(t, own.Client(), own.ServiceURL()+notRecorded)
	if want := strings.ReplaceAll(mine.body, strings.TrimPrefix(own.URL, "http://"), host); got.status != 200 || got.body != want {
		t.Errorf("%q not recorded: got %d\n%s\nwant the mock's own page\n%s", notRecorded, got.status, got.body, want)
	}
	// In another namespace: the mock's own pages.
	other := mockserver.NewTestServer(t, mockserver.WithReplay(idx, mockserver.MissFault), mockserver.WithNamespace("urn:another"))
	if got := getPage(t, other.Client(), other.ServiceURL()); strings.Contains(got.body, customDescription) {
		t.Errorf("a mock in another namespace served the deployment's page:\n%s", got.body)
	}
}

// TestReplayedPagesHoldNoKey: a key a documentation request carried is
// scrubbed from the recorded page, even where the page echoed it, and a
// page in a cassette written unscrubbed elsewhere is served with the key
// replaced.
func TestReplayedPagesHoldNoKey(t *testing.T) {
	t.Parallel()
	const ns = "urn:recorded:pages"
	echo := func(q string) string {
		return "<html><body><a href=\"service.asmx?" + q + "\">this page</a></body></html>"
	}
	h, err := mockserver.New(mockserver.WithNamespace(ns), mockserver.WithKeys(testKey))
	if err != nil {
		t.Fatal(err)
	}
	// A deployment whose help pages link to the query they were asked with.
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != asmx.ServicePath {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, echo(r.URL.RawQuery))
	}))
	defer up.Close()
	q := "op=" + asmx.OpReturnProvinces + "&strAtmServiceKey=" + testKey
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		if status, body := do(t, proxy.Client(), requestNS(t, proxy.URL, ns, asmx.SOAP11, query{Op: asmx.OpReturnProvinces}, testKey, false)); status != 200 {
			t.Fatalf("recording a call: %d %s", status, body)
		}
		if got := getPage(t, proxy.Client(), proxy.URL+asmx.ServicePath+"?"+q); got.body != echo(q) {
			t.Fatalf("recording: got %q", got.body)
		}
	})
	assertNoKey(t, path+".yaml")

	// The same call and page, the page written by hand with the key in it.
	list := readCassette(t, path)
	raw := filepath.Join(t.TempDir(), "raw.yaml")
	err = cassettes.WriteFile(raw, []*cassette.Interaction{list[0], {
		Request:  cassette.Request{Method: http.MethodGet, URL: "http://atm.example.org" + asmx.ServicePath + "?" + q},
		Response: cassette.Response{Code: 200, Headers: http.Header{"Content-Type": {"text/html"}}, Body: echo(q)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(raw); err != nil || !strings.Contains(string(b), testKey) {
		t.Fatalf("the hand-written cassette should hold the key (%v)", err)
	}
	want := echo("op=" + asmx.OpReturnProvinces + "&strAtmServiceKey=" + cassettes.Placeholder)
	for _, p := range []string{path, raw} {
		idx, err := cassettes.LoadIndex([]string{p})
		if err != nil {
			t.Fatal(err)
		}
		replay := mockserver.NewTestServer(t, mockserver.WithReplay(idx, mockserver.MissFault), mockserver.WithNamespace(ns))
		for _, asked := range []string{q, "op=" + asmx.OpReturnProvinces} {
			got := getPage(t, replay.Client(), replay.ServiceURL()+"?"+asked)
			if got.body != want || strings.Contains(got.body, testKey) {
				t.Errorf("%s, ?%s: got %q, want the recorded page with the key scrubbed %q", filepath.Base(p), asked, got.body, want)
			}
		}
	}
}

// TestReferencePages records the help pages and discovery documents of
// both .asmx files of two sites of the reference deployment (Mono; one in
// a virtual directory) and replays them: byte for byte, but for the
// recorded scheme, host and base path, which are the mock's.
func TestReferencePages(t *testing.T) {
	t.Parallel()
	d := refdeploy.Shared(t)
	for _, site := range []refdeploy.Site{refdeploy.Typed, refdeploy.Legacy} {
		t.Run(site.Name, func(t *testing.T) {
			base := d.SiteURL(site.Name)
			bnd := "AtmServiceSoap"
			if site.Name == refdeploy.Legacy.Name {
				bnd = "LegacyServiceSoap"
			}
			pages := []string{
				asmx.ServicePath,
				asmx.ServicePath + "?op=" + asmx.OpReturnProvinces, // Mono: 500 without &bnd=
				asmx.ServicePath + "?page=op&tab=msg&op=" + asmx.OpReturnProvinces + "&bnd=" + bnd,
				asmx.ServicePath + "?disco",
				asmx.JSONPath,
				asmx.JSONPath + "?DISCO",
			}
			path := recordVia(t, base, func(proxy *httptest.Server) {
				if status, body := do(t, proxy.Client(), requestNS(t, proxy.URL, site.Namespace, asmx.SOAP11, query{Op: asmx.OpReturnProvinces}, site.Key, false)); status != 200 {
					t.Fatalf("recording a call: %d %s", status, body)
				}
				for _, p := range pages {
					getPage(t, proxy.Client(), proxy.URL+p)
				}
			})
			idx, err := cassettes.LoadIndex([]string{path})
			if err != nil {
				t.Fatal(err)
			}
			replay := mockserver.NewTestServer(t, mockserver.WithReplay(idx, mockserver.MissFault), mockserver.WithNamespace(site.Namespace))
			prefix := strings.TrimPrefix(base, d.URL) // "" or /legacy
			for _, p := range pages {
				direct := getPage(t, http.DefaultClient, base+p)
				want := strings.ReplaceAll(direct.body, base+"/", replay.URL+"/")
				if prefix != "" {
					want = strings.ReplaceAll(want, prefix+asmx.ServicePath, asmx.ServicePath)
					want = strings.ReplaceAll(want, prefix+asmx.JSONPath, asmx.JSONPath)
				}
				got := getPage(t, replay.Client(), replay.URL+p)
				if got.status != direct.status || got.ct != direct.ct || got.body != want {
					t.Errorf("%s: got %d %q\n%s\nwant the deployment's %d %q at the mock's address\n%s", p, got.status, got.ct, got.body, direct.status, direct.ct, want)
				}
				if strings.Contains(got.body, d.URL) || prefix != "" && strings.Contains(got.body, prefix+"/service") {
					t.Errorf("%s: the replayed page names the deployment's address", p)
				}
			}
			// Not recorded: the mock's own page.
			got := getPage(t, replay.Client(), replay.ServiceURL()+"?op="+asmx.OpReturnInstitutions)
			if got.status != 200 || !strings.Contains(got.body, `<h2 id="operation">`+asmx.OpReturnInstitutions+`</h2>`) {
				t.Errorf("a page not recorded: got %d\n%s\nwant the mock's own", got.status, got.body)
			}
		})
	}
}

// TestReplayServesRecordedSchemas: a typed DataSet's schema, which the
// deployment's WSDL imports (service.asmx?schema=ID) and a client's proxy
// generator fetches, is replayed as recorded for the same id, any case of
// the key; another id gets the mock's own answer (its shape has no typed
// DataSet: ASMX's "not found").
func TestReplayServesRecordedSchemas(t *testing.T) {
	t.Parallel()
	const ns = "urn:recorded:schemas"
	const schema = `<?xml version="1.0" encoding="utf-8"?>` + "\n" +
		`<xs:schema id="Lenders" targetNamespace="urn:lenders" xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="Lenders"/></xs:schema>`
	h, err := mockserver.New(mockserver.WithNamespace(ns), mockserver.WithKeys(testKey))
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == asmx.ServicePath && r.URL.RawQuery == "schema=Lenders" {
			w.Header().Set("Content-Type", "text/xml; charset=utf-8")
			_, _ = io.WriteString(w, schema)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer up.Close()
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		if status, body := do(t, proxy.Client(), requestNS(t, proxy.URL, ns, asmx.SOAP11, query{Op: asmx.OpReturnProvinces}, testKey, false)); status != 200 {
			t.Fatalf("recording a call: %d %s", status, body)
		}
		if got := getPage(t, proxy.Client(), proxy.URL+asmx.ServicePath+"?schema=Lenders"); got.body != schema {
			t.Fatalf("recording: got %q", got.body)
		}
	})
	idx, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	replay := mockserver.NewTestServer(t, mockserver.WithReplay(idx, mockserver.MissFault), mockserver.WithNamespace(ns))
	for _, q := range []string{"schema=Lenders", "SCHEMA=Lenders"} {
		got := getPage(t, replay.Client(), replay.ServiceURL()+"?"+q)
		if got.status != 200 || got.body != schema || got.ct != "text/xml; charset=utf-8" {
			t.Errorf("?%s: got %d %s %q, want the recorded schema", q, got.status, got.ct, got.body)
		}
	}
	other := getPage(t, replay.Client(), replay.ServiceURL()+"?schema=Other")
	if other.status != 500 || strings.Contains(other.body, "Lenders") {
		t.Errorf("?schema=Other: got %d %q, want the mock's own 500", other.status, other.body)
	}
}

// TestReplayServesRecordedImportedWSDLs: a service spanning namespaces
// has .NET's WSDL import its other documents from service.asmx?wsdl=wsdl1
// (DiscoveryServerType: "wsdl" + i), which a client's proxy generator
// fetches; a replaying mock serves each recorded one as ASMX reads the
// query: the name wsdl in any case, the id compared exactly (the
// documents are a Hashtable keyed by id: ?wsdl=WSDL1 is not wsdl1 and
// gets ASMX's "not found"), its addresses moved to the mock's, and moves
// the main WSDL's import to the mock. The recorded ?wsdl=wsdl1 was not
// served, and, recorded before ?WSDL, was taken for the service's WSDL.
func TestReplayServesRecordedImportedWSDLs(t *testing.T) {
	t.Parallel()
	const ns = "urn:recorded:main"
	h, err := mockserver.New(mockserver.WithNamespace(ns), mockserver.WithKeys(testKey))
	if err != nil {
		t.Fatal(err)
	}
	imported := func(origin string) string {
		return `<?xml version="1.0" encoding="utf-8"?>` + "\n" +
			`<wsdl:definitions targetNamespace="urn:other" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">` +
			`<wsdl:import namespace="urn:third" location="` + origin + asmx.ServicePath + `?wsdl=wsdl2" /></wsdl:definitions>`
	}
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := "http://" + r.Host
		switch {
		case r.Method == http.MethodGet && r.URL.Path == asmx.ServicePath && r.URL.RawQuery == "wsdl=wsdl1":
			w.Header().Set("Content-Type", "text/xml; charset=utf-8")
			_, _ = io.WriteString(w, imported(origin))
		case r.Method == http.MethodGet && r.URL.Path == asmx.ServicePath && r.URL.RawQuery == "WSDL":
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, r)
			body := strings.Replace(rec.Body.String(), "<wsdl:types>",
				`<wsdl:import namespace="urn:other" location="`+origin+asmx.ServicePath+`?wsdl=wsdl1" /><wsdl:types>`, 1)
			w.Header().Set("Content-Type", rec.Header().Get("Content-Type"))
			_, _ = io.WriteString(w, body)
		default:
			h.ServeHTTP(w, r)
		}
	}))
	defer up.Close()
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		if status, body := do(t, proxy.Client(), requestNS(t, proxy.URL, ns, asmx.SOAP11, query{Op: asmx.OpReturnProvinces}, testKey, false)); status != 200 {
			t.Fatalf("recording a call: %d %s", status, body)
		}
		for _, q := range []string{"wsdl=wsdl1", "WSDL"} { // the imported one first
			if got := getPage(t, proxy.Client(), proxy.URL+asmx.ServicePath+"?"+q); got.status != 200 {
				t.Fatalf("recording ?%s: got %d %q", q, got.status, got.body)
			}
		}
	})
	idx, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	replay := mockserver.NewTestServer(t, mockserver.WithReplay(idx, mockserver.MissFault), mockserver.WithNamespace(ns))
	own := strings.TrimSuffix(replay.ServiceURL(), asmx.ServicePath)
	for _, q := range []string{"wsdl=wsdl1", "WSDL=wsdl1", "Wsdl=wsdl1&x=1"} {
		got := getPage(t, replay.Client(), replay.ServiceURL()+"?"+q)
		if got.status != 200 || got.body != imported(own) || got.ct != "text/xml; charset=utf-8" {
			t.Errorf("?%s: got %d %s %q, want the recorded document at the mock's address, %q", q, got.status, got.ct, got.body, imported(own))
		}
	}
	for _, q := range []string{"wsdl=WSDL1", "wsdl=wsdl2", "wsdl=wsdl1&wsdl=wsdl1", "wsdl="} {
		if got := getPage(t, replay.Client(), replay.ServiceURL()+"?"+q); got.status != 500 || strings.Contains(got.body, "urn:other") {
			t.Errorf("?%s: got %d %q, want ASMX's 500: no document has that id", q, got.status, got.body)
		}
	}
	main := getPage(t, replay.Client(), replay.ServiceURL()+"?WSDL")
	wantImport := `<wsdl:import namespace="urn:other" location="` + own + asmx.ServicePath + `?wsdl=wsdl1" />`
	if main.status != 200 || !strings.Contains(main.body, wantImport) || !strings.Contains(main.body, `targetNamespace="`+ns+`"`) {
		t.Errorf("?WSDL: got %d %q, want the recorded WSDL of %s with %s", main.status, main.body, ns, wantImport)
	}
}

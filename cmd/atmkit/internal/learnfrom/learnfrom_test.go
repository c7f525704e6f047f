package learnfrom

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape/learn"
)

// TestWSDLErrors: a WSDL that cannot be fetched is told with what to check:
// nothing listening, no answer within the timeout, an answer that is not
// the WSDL (a wrong path), a refusal for want of credentials, a redirect (not followed); the URL's credentials and query never appear.
func TestWSDLErrors(t *testing.T) {
	t.Parallel()
	notFound := httptest.NewServer(http.NotFoundHandler())
	defer notFound.Close()
	locked := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "Unauthorized", http.StatusUnauthorized)
	}))
	defer locked.Close()
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	defer hang.Close()
	elsewhere := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("the redirect was followed: %s %s", r.Method, r.URL)
	}))
	defer elsewhere.Close()
	moved := httptest.NewServer(http.RedirectHandler(elsewhere.URL+"/service/service.asmx?WSDL", http.StatusMovedPermanently))
	defer moved.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + ln.Addr().String()
	ln.Close()
	for _, tc := range []struct {
		url, want string
	}{
		{notFound.URL + "/atm/service.asmx", "the WSDL at " + notFound.URL + "/atm/service.asmx: HTTP 404 (text: 404 page not found), not the WSDL: give --wsdl the service's address"},
		{locked.URL + "/service/service.asmx", "the WSDL at " + locked.URL + "/service/service.asmx: HTTP 401: the deployment, or a gateway in front of it, wants credentials: give them with --header (e.g. 'X-Api-Key: …') or --client-cert and --client-key"},
		{moved.URL + "/service/service.asmx", "the WSDL at " + moved.URL + "/service/service.asmx: HTTP 301, a redirect to " + elsewhere.URL + "/service/service.asmx?WSDL (not followed)"},
		{refused + "/service/service.asmx", "connection refused: nothing listens at that address and port. Is the deployment running, and are --wsdl's host and port right?"},
		{strings.Replace(hang.URL, "http://", "http://me:Secret-Pass-1@", 1) + "/service/service.asmx?WSDL&k=Secret-Key-2", "fetch the WSDL at " + hang.URL + "/service/service.asmx: no answer within --timeout (200ms)"},
	} {
		_, _, err := WSDL(context.Background(), tc.url, 200*time.Millisecond, nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.url, err, tc.want)
		}
		if err != nil && (strings.Contains(err.Error(), "Secret-") || strings.Contains(err.Error(), "me:")) {
			t.Errorf("%s: the error shows the URL's credentials or query: %v", tc.url, err)
		}
	}
}

// TestLearnEnded: Learn with an ended context (Ctrl-C) learns nothing and
// returns the context's error.
func TestLearnEnded(t *testing.T) {
	t.Parallel()
	in := learn.Input{Samples: []learn.Sample{mockSample(t, asmx.OpReturnProvinces, "t#0")}}
	if sh, _, err := Learn(context.Background(), in); err != nil || sh == nil {
		t.Fatalf("Learn: %v; want a shape", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if sh, _, err := Learn(ctx, in); !errors.Is(err, context.Canceled) || sh != nil {
		t.Errorf("Learn with an ended context: got %v (a shape: %t), want context.Canceled and none", err, sh != nil)
	}
}

// TestWSDLQuery: a service address with a query of its own (a gateway's
// pair, the help page's ?op=, ?disco, ?wsdl in another case) fetches the
// WSDL from the mock, as ASMX reads the query: the user's other pairs kept,
// WSDL added once; a query that asks for the WSDL already is sent as given.
func TestWSDLQuery(t *testing.T) {
	t.Parallel()
	ts := mockserver.NewTestServer(t)
	base := ts.URL + "/service/service.asmx"
	for _, q := range []string{"", "?WSDL", "?wsdl", "?Wsdl", "?foo=1", "?foo=1&wsdl", "?op=ReturnAllAtms",
		"?disco", "?foo=1&DISCO&bar=x%26y", "?wsdl=1", "?schema=AtmFinder&foo=1", "?wsdl&wsdl",
		"?x&k=2", "?%u0077sdl=1", "?ſchema=AtmFinder"} {
		data, from, err := WSDL(context.Background(), base+q, 5*time.Second, nil)
		if err != nil {
			t.Errorf("%s: %v", q, err)
			continue
		}
		if from != base || !strings.Contains(string(data), "<wsdl:definitions") {
			t.Errorf("%s: from %s, %.80q", q, from, data)
		}
	}
	for raw, want := range map[string]string{
		"":                         "WSDL",
		"wsdl":                     "wsdl",
		"foo=1&Wsdl":               "foo=1&Wsdl",
		"foo=1":                    "foo=1&WSDL",
		"op=ReturnAllAtms":         "WSDL",
		"foo=1&DISCO&bar=x%26y":    "foo=1&bar=x%26y&WSDL",
		"WsDl=1&k=2":               "k=2&WSDL",
		"%77sdl&k=2&&":             "k=2&WSDL",
		"schema=AtmFinder&foo=%20": "foo=%20&WSDL",
		// A pair without '=' is a value ASMX joins with the others
		// (Request.QueryString[null]): kept, "x&WSDL" read as "x,WSDL"
		// asked for the help page. Keys are compared as ASMX compares
		// them, OrdinalIgnoreCase ("ſchema" is schema) after its
		// decoding (%u0077 is w).
		"x":                "WSDL",
		"a=1&b&c=":         "a=1&c=&WSDL",
		"w%zzsdl&k=2":      "k=2&WSDL",
		"ſchema=x&k=2":     "k=2&WSDL",
		"%u0077sdl=1&k=2":  "k=2&WSDL",
		"OP=ReturnAllAtms": "WSDL",
		"k=2&%6Fp":         "k=2&WSDL",
	} {
		if got := wsdlQuery(raw); got != want {
			t.Errorf("wsdlQuery(%q) = %q, want %q", raw, got, want)
		}
	}
}

// TestLearnStopsLearner: Learn whose context ends while it learns returns
// the context's error once the learner has stopped, leaving no goroutine
// behind. It returned at once and left learn.Learn running (a minute and
// more for this input) for the process's exit. Not parallel: another
// test's learner would be counted.
func TestLearnStopsLearner(t *testing.T) {
	srv, err := mockserver.New()
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, asmx.ServicePath+"/"+asmx.OpReturnAllAtms+"?strAtmServiceKey=k", nil))
	var in learn.Input
	for i := range 40 { // 2 MB each: seconds to read, a minute to learn
		in.Samples = append(in.Samples, learn.Sample{Binding: learn.HTTPGet, Op: asmx.OpReturnAllAtms, Status: rec.Code, Body: rec.Body.Bytes(), Where: "t#" + strconv.Itoa(i)})
	}
	ctx, cancel := context.WithCancel(context.Background())
	stop := time.AfterFunc(100*time.Millisecond, cancel)
	defer stop.Stop()
	sh, _, err := Learn(ctx, in)
	if !errors.Is(err, context.Canceled) || sh != nil {
		t.Fatalf("Learn interrupted: got %v (a shape: %t), want context.Canceled and none", err, sh != nil)
	}
	buf := make([]byte, 1<<20)
	for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
		if strings.Contains(g, "atmkit/shape/learn.") {
			t.Errorf("a learner still runs after Learn returned:\n%s", g)
		}
	}
}

// TestCassettesSkipTheJSONEndpointsWSDL: a recording whose app fetched the
// JSON endpoint's WSDL (service-v2.asmx?WSDL, which declares its two
// searches void) before the service's gives the learner the service's
// WSDL. The first WSDL recorded was taken, and the learner learned
// nothing from it.
func TestCassettesSkipTheJSONEndpointsWSDL(t *testing.T) {
	read := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	jsonWSDL := read(filepath.Join("..", "..", "..", "..", "shape", "learn", "testdata", "variants", "jsonendpoint-wsdl.xml"))
	serviceWSDL := read(filepath.Join("..", "..", "..", "..", "shape", "learn", "testdata", "reference", "wsdl.xml"))
	interaction := func(id int, path, body string) string {
		indented := "            " + strings.ReplaceAll(strings.TrimRight(body, "\n"), "\n", "\n            ")
		return fmt.Sprintf(`    - id: %d
      request:
        request_uri: %s?WSDL
        url: http://upstream.example%s?WSDL
        method: GET
      response:
        body: |
%s
        headers:
            Content-Type:
                - text/xml; charset=utf-8
        status: 200 OK
        code: 200
`, id, path, path, indented)
	}
	file := filepath.Join(t.TempDir(), "rec.yaml")
	cassette := "---\nversion: 2\ninteractions:\n" + interaction(0, asmx.JSONPath, jsonWSDL) + interaction(1, asmx.ServicePath, serviceWSDL)
	if err := os.WriteFile(file, []byte(cassette), 0o644); err != nil {
		t.Fatal(err)
	}
	var in learn.Input
	_, at, _, err := Cassettes(context.Background(), &in, []string{file}, asmx.RequestEncodingUTF8)
	if err != nil {
		t.Fatal(err)
	}
	if at != "rec.yaml#1" || strings.TrimRight(string(in.WSDL), "\n") != strings.TrimRight(serviceWSDL, "\n") {
		t.Fatalf("took the WSDL recorded at %q (%d bytes), want the service's, rec.yaml#1", at, len(in.WSDL))
	}
	if _, _, err := Learn(context.Background(), in); err != nil {
		t.Errorf("learning from the service's recorded WSDL: %v", err)
	}
}

// TestCassettesInRequestEncoding: two calls recorded from a legacy
// deployment (requestEncoding iso-8859-1) for Montr%E9al and Montr%E8al
// are read, in iso-8859-1, as the two calls that deployment answered,
// which the learner pairs with other bindings' answers by their
// parameters; read in UTF-8, both are Montr\uFFFDal, one call twice, and
// Cassettes names them. Cassettes read every query in UTF-8.
func TestCassettesInRequestEncoding(t *testing.T) {
	interaction := func(id int, city string) string {
		return fmt.Sprintf(`    - id: %d
      request:
        url: http://upstream.example/service/service.asmx/ReturnAtmSearchByAddress?strAtmServiceKey=REDACTED&strAddress=x&strCity=%s&strProvince=QC&strPostalCode=&bytRadius=5
        method: GET
      response:
        body: '<?xml version="1.0" encoding="utf-8"?><atmLocations><count>0</count></atmLocations>'
        headers:
            Content-Type:
                - text/xml; charset=utf-8
        status: 200 OK
        code: 200
`, id, city)
	}
	file := filepath.Join(t.TempDir(), "legacy.yaml")
	if err := os.WriteFile(file, []byte("---\nversion: 2\ninteractions:\n"+interaction(0, "Montr%E9al")+interaction(1, "Montr%E8al")), 0o644); err != nil {
		t.Fatal(err)
	}
	latin1, err := asmx.ParseRequestEncoding("iso-8859-1")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		enc     asmx.RequestEncoding
		cities  []string
		notUTF8 []string
	}{
		{asmx.RequestEncodingUTF8, []string{"Montr\uFFFDal", "Montr\uFFFDal"}, []string{"legacy.yaml#0", "legacy.yaml#1"}},
		{latin1, []string{"Montréal", "Montrèal"}, nil},
	} {
		var in learn.Input
		n, _, notUTF8, err := Cassettes(context.Background(), &in, []string{file}, c.enc)
		if err != nil || n != 2 || len(in.Samples) != 2 {
			t.Fatalf("%s: %d answers, %d samples, %v; want 2", c.enc.Name(), n, len(in.Samples), err)
		}
		for k, s := range in.Samples {
			if want := "strCity " + c.cities[k] + "]"; !strings.Contains(s.Query, want) {
				t.Errorf("%s: %s: the query %q lacks %q", c.enc.Name(), s.Where, s.Query, want)
			}
		}
		if !slices.Equal(notUTF8, c.notUTF8) {
			t.Errorf("%s: the calls read with U+FFFD: got %q, want %q", c.enc.Name(), notUTF8, c.notUTF8)
		}
	}
}

// mockSample is the mock's answer to a GET of op (the embedded data set),
// as a recorded sample at where.
func mockSample(t *testing.T, op, where string) learn.Sample {
	t.Helper()
	srv, err := mockserver.New()
	if err != nil {
		t.Fatal(err)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, asmx.ServicePath+"/"+op+"?strAtmServiceKey=k", nil))
	return learn.Sample{Binding: learn.HTTPGet, Op: op, Status: rec.Code, Body: rec.Body.Bytes(), Where: where}
}

package cassettes_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Cassettes are handed over by other teams and hold what deployments
// answered: atmkit reads them (ReadFile, List, Recordings), indexes them
// for replay (LoadIndex) and serves them, re-wrapped for other bindings,
// with the recorded documentation pages. These targets read any bytes
// as a cassette, and any request and answer as a recorded interaction.

// referenceCassettes are the committed cassettes, the targets' seeds.
func referenceCassettes(f *testing.F) []string {
	paths, err := filepath.Glob("testdata/*.yaml")
	if err != nil || len(paths) == 0 {
		f.Fatalf("no cassettes in testdata: %v", err)
	}
	return paths
}

// FuzzReadFile reads any bytes as a cassette file: ReadFile returns the
// interactions or one of its documented errors, never a panic; what it
// reads lists (List, Recordings), indexes (LoadIndex) and, written back
// (WriteFile), reads again the same.
func FuzzReadFile(f *testing.F) {
	for _, p := range referenceCassettes(f) {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("version: 2\ninteractions:\n  - null\n"))
	f.Add([]byte("version: 2\ninteractions:\n  - id: 0\n    request: {method: GET, url: '%zz'}\n    response: {code: 200, body: x}\n"))
	f.Add([]byte("version: 1\n"))
	f.Add([]byte("a: &a [*a, *a]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "c.yaml")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		list, err := cassettes.ReadFile(path)
		if err != nil {
			if !errors.Is(err, cassettes.ErrInvalidCassette) && !errors.Is(err, cassettes.ErrUnsupportedFormat) {
				t.Fatalf("ReadFile: an error of no documented kind: %v", err)
			}
			if _, lerr := cassettes.LoadIndex([]string{path}); lerr == nil {
				t.Fatalf("ReadFile refuses the cassette (%v), LoadIndex takes it", err)
			}
			return
		}
		entries, err := cassettes.List(path)
		if err != nil || len(entries) != len(list) {
			t.Fatalf("List: %d entries, %v; ReadFile read %d", len(entries), err, len(list))
		}
		if _, err := cassettes.Recordings(path); err != nil {
			t.Fatalf("Recordings: %v", err)
		}
		ix, err := cassettes.LoadIndex([]string{path})
		if slices.ContainsFunc(list, func(i *cassette.Interaction) bool { return i.Response.Code < 200 || i.Response.Code > 599 }) {
			if !errors.Is(err, cassettes.ErrInvalidCassette) {
				t.Fatalf("LoadIndex of a cassette with a response code no answer has: %v, want ErrInvalidCassette", err)
			}
			return
		}
		if err != nil {
			t.Fatalf("LoadIndex of a cassette ReadFile reads: %v", err)
		}
		if st := ix.Stats(); st.Interactions != len(list) {
			t.Fatalf("LoadIndex counts %d interactions, ReadFile read %d", st.Interactions, len(list))
		}
		again := filepath.Join(dir, "again.yaml")
		if err := cassettes.WriteFile(again, list); err != nil {
			t.Fatalf("WriteFile of what ReadFile read: %v", err)
		}
		back, err := cassettes.ReadFile(again)
		if err != nil {
			t.Fatalf("a cassette WriteFile wrote does not read: %v", err)
		}
		if len(back) != len(list) {
			t.Fatalf("written back, %d interactions read as %d", len(list), len(back))
		}
		for j := range list {
			if a, b := list[j], back[j]; a.Request.URL != b.Request.URL || a.Request.Body != b.Request.Body ||
				a.Response.Code != b.Response.Code || a.Response.Body != b.Response.Body {
				t.Fatalf("interaction %d changed when written back: %q %q %d %q, now %q %q %d %q", j,
					a.Request.URL, a.Request.Body, a.Response.Code, a.Response.Body, b.Request.URL, b.Request.Body, b.Response.Code, b.Response.Body)
			}
		}
	})
}

// FuzzReplay records any request with any answer, as go-vcr would, and
// replays the cassette through a mock server: the recorded request itself,
// the same question in every binding (re-wrapping the answer), and the
// documentation requests (the recorded WSDL, help pages and discovery
// documents, moved to the mock's address). No request may panic (a
// recovered panic answers "internal error"), each gets a status the mock
// documents, and the recorded request of a recorded call answered 200 gets
// the recorded body byte for byte.
func FuzzReplay(f *testing.F) {
	// Each kind of recording (a binding's call of an operation answered
	// with a status, a key's rejection, a documentation request) once, its
	// smallest: 17 seeds of 137, 50 kB of 640 kB. Every run of the target is a seed's cost, and the fuzzer
	// minimizes what it finds, each step a run: small seeds keep it fuzzing.
	smallest := map[string]*cassette.Interaction{}
	var kinds []string
	size := func(i *cassette.Interaction) int {
		return len(i.Request.URL) + len(i.Request.Body) + len(i.Response.Body)
	}
	for _, p := range referenceCassettes(f) {
		list, err := cassettes.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, i := range list {
			e := cassettes.EntryOf(i)
			kind := fmt.Sprint(e.Binding, " ", e.Operation, " ", e.KeyRejection, " ", i.Response.Code)
			if e.Binding == "" {
				if u, err := url.Parse(i.Request.URL); err == nil {
					kind = strings.ToLower(u.RawQuery)
				}
			}
			if s, ok := smallest[kind]; !ok || size(i) < size(s) {
				if !ok {
					kinds = append(kinds, kind)
				}
				smallest[kind] = i
			}
		}
	}
	for _, k := range kinds {
		i := smallest[k]
		f.Add(i.Request.Method, i.Request.URL, i.Request.Headers.Get("Content-Type"), i.Request.Headers.Get("SOAPAction"), i.Request.Body,
			i.Response.Code, i.Response.Headers.Get("Content-Type"), i.Response.Body)
	}
	// Calls net/url cannot parse, which ASMX reads (%u escapes, a lone '%', a ';').
	addr := "http://upstream.example/service/service.asmx/ReturnAtmSearchByAddress"
	params := "strAtmServiceKey=REDACTED&strAddress=100%&strCity=Montr%u00e9al&strProvince=a;b&strPostalCode=&bytRadius=5"
	f.Add(http.MethodGet, addr+"?"+params, "", "", "", 200, "text/xml; charset=utf-8", `<?xml version="1.0" encoding="utf-8"?><r>1</r>`)
	f.Add(http.MethodPost, addr, "application/x-www-form-urlencoded", "", params, 200, "text/xml; charset=utf-8", `<?xml version="1.0" encoding="utf-8"?><r>1</r>`)
	// The mock answers a call it has no recording of with a fault
	// (MissFault): its data set answers nothing, and the small one is
	// loaded once, not the embedded one checked against the shape in each
	// run (4 of the 5 ms mockserver.New took).
	ds := smallDataset(f)
	f.Fuzz(func(t *testing.T, method, rawURL, reqType, action, reqBody string, code int, respType, respBody string) {
		if code < 200 || code > 599 {
			return // no answer's status: ReadFile refuses it
		}
		h := http.Header{}
		if reqType != "" {
			h.Set("Content-Type", reqType)
		}
		if action != "" {
			h.Set("SOAPAction", action)
		}
		rh := http.Header{}
		if respType != "" {
			rh.Set("Content-Type", respType)
		}
		i := &cassette.Interaction{
			Request:  cassette.Request{Method: method, URL: rawURL, Headers: h, Body: reqBody, ContentLength: int64(len(reqBody))},
			Response: cassette.Response{Code: code, Headers: rh, Body: respBody, ContentLength: int64(len(respBody))},
		}
		cassettes.Scrub(i)
		path := filepath.Join(t.TempDir(), "c.yaml")
		if err := cassettes.WriteFile(path, []*cassette.Interaction{i}); err != nil {
			t.Fatalf("WriteFile: %v", err)
		}
		ix, err := cassettes.LoadIndex([]string{path})
		if err != nil {
			t.Fatalf("LoadIndex of a cassette WriteFile wrote: %v", err)
		}
		st := ix.Stats()
		ns := asmx.DefaultNamespace
		if len(st.Namespaces) == 1 && st.Namespaces[0] != "" {
			ns = st.Namespaces[0]
		}
		srv, err := mockserver.New(mockserver.WithReplay(ix, mockserver.MissFault), mockserver.WithNamespace(ns), mockserver.WithDataset(ds))
		if err != nil {
			return // a namespace the mock refuses (cassettes.go's callers report it)
		}
		serve := func(req *http.Request) *httptest.ResponseRecorder {
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			if strings.Contains(rec.Body.String(), "internal error:") {
				t.Fatalf("recovered panic for %s %s: %s", req.Method, req.URL, rec.Body.String())
			}
			if c := rec.Code; c < 100 || c > 599 {
				t.Fatalf("status %d for %s %s", c, req.Method, req.URL)
			}
			return rec
		}
		e := cassettes.EntryOf(i)
		// The recorded request itself.
		if req, err := http.NewRequest(method, rawURL, strings.NewReader(reqBody)); err == nil && req.URL.Host != "" && validMethod(method) {
			req.Header = h.Clone()
			req.Host = "mock.invalid"
			rec := serve(req)
			if e.Binding != "" && !e.KeyRejection && code == http.StatusOK && rec.Code == http.StatusOK && !bytes.Equal(rec.Body.Bytes(), []byte(i.Response.Body)) {
				t.Fatalf("%s %s, recorded with 200 %q, replayed as %q", method, rawURL, i.Response.Body, rec.Body.String())
			}
		}
		// The same question in every binding.
		if e.Binding != "" {
			for _, b := range asmx.Bindings {
				req := requestNS(t, "http://mock.invalid", ns, b, query{Op: e.Operation, Params: e.Params}, testKey, false)
				serve(req)
			}
		}
		// The documentation requests.
		for _, target := range []string{"/service/service.asmx?WSDL", "/service/service.asmx?disco", "/service/service.asmx",
			"/service/service.asmx?op=ReturnProvinces", "/service-v2.asmx", "/service-v2.asmx?disco", "/service/service.asmx?schema=x"} {
			serve(httptest.NewRequest(http.MethodGet, "http://mock.invalid"+target, nil))
		}
	})
}

// smallDataset loads the small data set (six ATMs) of the mock's tests.
func smallDataset(tb testing.TB) *fixtures.Dataset {
	tb.Helper()
	ds, err := fixtures.LoadFS(mocktest.SmallDataset())
	if err != nil {
		tb.Fatal(err)
	}
	return ds
}

// validMethod reports whether m is a method net/http passes to a handler.
func validMethod(m string) bool {
	if m == "" {
		return false
	}
	for _, c := range []byte(m) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`()<>@,;:\"/[]?={}`, c) >= 0 {
			return false
		}
	}
	return true
}

// FuzzRecord records any answer of a deployment through the recording
// proxy, to a call whose query or form (GET, POST, JSON) has more pairs
// written as the app wrote them, net/http's syntax or not (%uXXXX escapes,
// a lone '%', a ';', which ASP.NET reads): the deployment gets the call as
// sent; the app gets the answer as the deployment wrote it; the call is
// recorded; the cassette holds no key, in any form, even where the answer
// echoes it; it reads back; and an answer that holds no key is recorded
// byte for byte.
func FuzzRecord(f *testing.F) {
	for _, p := range referenceCassettes(f) {
		list, err := cassettes.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, i := range list {
			for b, name := range asmx.Bindings {
				if name.String() == cassettes.EntryOf(i).Binding {
					f.Add(uint8(b), i.Response.Code, i.Response.Headers.Get("Content-Type"), i.Response.Body, strings.Contains(i.Response.Body, "key"), "")
				}
			}
		}
	}
	var answer struct {
		code     int
		ctype    string
		body     string
		received []string // the request URIs and bodies the deployment got
	}
	upstream := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		answer.received = append(answer.received, r.URL.RequestURI()+" "+string(body))
		if answer.ctype != "" {
			w.Header().Set("Content-Type", answer.ctype)
		}
		w.WriteHeader(answer.code)
		_, _ = io.WriteString(w, answer.body)
	}))
	f.Cleanup(upstream.Close)
	upURL, err := url.Parse(upstream.URL)
	if err != nil {
		f.Fatal(err)
	}
	for _, extra := range []string{"strCity=Montr%u00e9al", "x=%zz", "a;b=1", "x=100%", "strAtm%u0053erviceKey=%u0073%u0033cr%u0033t"} {
		for _, b := range []asmx.Binding{asmx.HTTPGet, asmx.HTTPPost, asmx.JSON} {
			f.Add(uint8(slices.Index(asmx.Bindings, b)), 200, asmx.ContentTypeXML, "<int>1</int>", false, extra)
		}
	}
	const otherKey = "other-KEY-7777"
	f.Fuzz(func(t *testing.T, binding uint8, code int, ctype, body string, echo bool, extra string) {
		if code < 200 || code > 599 || code == http.StatusNoContent || code == http.StatusNotModified || !printableASCII(ctype) {
			return
		}
		if !printableASCII(extra) || strings.ContainsAny(extra, " #") {
			return // what no client sends in a request line, nor the transport
		}
		for _, k := range []string{testKey, otherKey} {
			for _, form := range []string{k, url.QueryEscape(k), string(asmx.AppendEscaped(nil, k))} {
				if strings.Contains(body, form) {
					return // the answer holds the key by chance: the echo below tests that
				}
			}
		}
		b := asmx.Bindings[int(binding)%len(asmx.Bindings)]
		path := filepath.Join(t.TempDir(), "c.yaml")
		rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll), cassettes.WithSaveInterval(0))
		if err != nil {
			t.Fatal(err)
		}
		proxy := cassettes.NewProxy(upURL, rec, nil)
		answer.code, answer.ctype, answer.received = code, ctype, nil
		q := query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "202"}}}
		for _, key := range []string{testKey, otherKey, testKey} {
			answer.body = body
			if echo {
				answer.body = "The key " + key + " is not valid. " + body
			}
			req := request(t, "http://proxy.invalid", b, q, key, false)
			if extra != "" {
				switch b {
				case asmx.HTTPPost:
					form := readBody(t, req) + "&" + extra
					req.Body, req.ContentLength = io.NopCloser(strings.NewReader(form)), int64(len(form))
				case asmx.HTTPGet, asmx.JSON:
					req.URL.RawQuery += "&" + extra
				}
			}
			w := httptest.NewRecorder()
			proxy.ServeHTTP(w, req)
			if w.Code != code || w.Body.String() != answer.body {
				t.Fatalf("%s: the deployment answered %d %q; the app got %d %q", b, code, answer.body, w.Code, w.Body.String())
			}
		}
		if len(answer.received) != 3 {
			t.Fatalf("the deployment got %d requests, want 3", len(answer.received))
		}
		if b != asmx.SOAP11 && b != asmx.SOAP12 {
			for _, got := range answer.received {
				if !strings.Contains(got, "&"+extra) {
					t.Fatalf("%s: the deployment got %q, without %q as the app sent it", b, got, extra)
				}
			}
		}
		if err := rec.Stop(); err != nil {
			t.Fatalf("Stop: %v", err)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{testKey, otherKey} {
			for _, form := range []string{k, url.QueryEscape(k), string(asmx.AppendEscaped(nil, k))} {
				if bytes.Contains(raw, []byte(form)) {
					t.Fatalf("%s: the cassette holds the key %q:\n%s", b, form, raw)
				}
			}
		}
		list, err := cassettes.ReadFile(path)
		if err != nil {
			t.Fatalf("the recorded cassette does not read: %v", err)
		}
		if len(list) == 0 {
			t.Fatal("nothing recorded")
		}
		if !echo && list[0].Response.Body != body {
			t.Fatalf("%s: the deployment answered %q, the cassette holds %q", b, body, list[0].Response.Body)
		}
		if list[0].Response.Code != code {
			t.Fatalf("%s: the deployment answered %d, the cassette holds %d", b, code, list[0].Response.Code)
		}
	})
}

// printableASCII reports whether s is printable ASCII text (a header
// value net/http writes as it is).
func printableASCII(s string) bool {
	for _, c := range []byte(s) {
		if c < ' ' || c > '~' {
			return false
		}
	}
	return true
}

// readBody reads the body of req.
func readBody(t *testing.T, req *http.Request) string {
	t.Helper()
	b, err := io.ReadAll(req.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

package conformance

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
)

// The fuzz targets of the suite's answer readers: whatever a target
// answers, reading it never panics, and what a failure quotes of it is
// printable. Their seeds are the mock's answers, in every binding, and
// hostile ones.

// fuzzBindings are the bindings a fuzzed answer is read as, by index.
var fuzzBindings = []Binding{SOAP11, SOAP12, HTTPGet, HTTPPost, JSON}

// fuzzKey is the key of the fuzzed exchanges.
const fuzzKey = "Fuzz-Key-5678"

// mockAnswers returns the mock's answers to calls of ReturnAllAtms,
// ReturnProvinces and a coordinate search in every binding, with the
// right key and a refused one: the seeds of the fuzz targets.
func mockAnswers(f *testing.F) []fuzzAnswer {
	f.Helper()
	// The small data set (six ATMs): the fuzzer minimizes what it finds,
	// each step a run of the target, so small seeds keep it fuzzing.
	ds, err := fixtures.LoadFS(mocktest.SmallDataset())
	if err != nil {
		f.Fatal(err)
	}
	h, err := mockserver.New(mockserver.WithDataset(ds), mockserver.WithKeys(mockKey))
	if err != nil {
		f.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	var out []fuzzAnswer
	for _, op := range []string{opAllAtms, opProvinces, opByCoords} {
		for _, key := range []string{mockKey, "a refused key"} {
			for i, b := range fuzzBindings {
				if b == JSON && op != opByCoords {
					continue
				}
				status, ct, body := mocktest.Send(f, srv.URL, asmx.DefaultNamespace, string(b), op, mocktest.ParamsFor(op, key))
				out = append(out, fuzzAnswer{uint8(i), op, status, ct, body})
			}
		}
	}
	return out
}

// opIndex is the index of an operation in Operations.
func opIndex(name string) uint8 {
	for i, op := range Operations {
		if op.Name == name {
			return uint8(i)
		}
	}
	panic("no operation " + name)
}

type fuzzAnswer struct {
	binding uint8
	op      string
	status  int
	ct      string
	body    []byte
}

// hostileBodies are answers no ASMX gives.
var hostileBodies = []string{
	"",
	"\x00\x01\x1b[31mred\xff\xfe garbage <<<",
	`<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><lolz>&lol2;</lolz>`,
	`<?xml version="1.0"?><!DOCTYPE soap:Envelope SYSTEM "http://example.com/x.dtd"><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body/></soap:Envelope>`,
	"\xef\xbb\xbf<?xml version=\"1.0\" encoding=\"utf-8\"?><ArrayOfString xmlns=\"http://tempuri.org/\"/>",
	strings.Repeat("<a>", 2000),
	`<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>v1.1 in 1.2</faultstring></soap:Fault></soap:Body></soap:Envelope>`,
	`<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>`,
	`{"Message":"x","StackTrace":"","ExceptionType":"System.Exception"}`,
	`{"count":1,"coordinates":{"latitude":1,"longitude":2},"locations":[{"index":0,"id":1}]}`,
	`{"count":`,
	`<a>x</a><b/>`,
}

// isPrintable reports whether s is valid UTF-8 without control characters
// but the newline and the tab.
func isPrintable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) && r != '\n' && r != '\t' {
			return false
		}
	}
	return true
}

// checkFailureText fails t when err's text quotes the answer unprintably
// or holds the key.
func checkFailureText(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var f *Failure
	if !errors.As(err, &f) {
		t.Fatalf("an answer read gave %T, want a *Failure: %v", err, err)
	}
	if !isPrintable(f.Got) || !isPrintable(f.Expected) || !isPrintable(f.What) {
		t.Fatalf("the failure quotes the answer unprintably: %q / %q", f.What, f.Got)
	}
	if strings.Contains(err.Error(), fuzzKey) {
		t.Fatalf("the failure holds the key: %s", err)
	}
}

// FuzzXMLAnswer reads any answer as each XML binding's result and fault:
// no panic, every failure a *Failure quoting the answer printably, and a
// result read walks (values, groups, comparisons) without a panic, equal
// to itself.
func FuzzXMLAnswer(f *testing.F) {
	for _, a := range mockAnswers(f) {
		if a.binding != 4 {
			f.Add(a.binding, opIndex(a.op), a.status, a.ct, a.body)
		}
	}
	for _, b := range hostileBodies {
		for i := range 4 {
			f.Add(uint8(i), opIndex(opAllAtms), 200, "text/xml; charset=utf-8", []byte(b))
			f.Add(uint8(i), opIndex(opProvinces), 500, "application/soap+xml; charset=utf-8", []byte(b))
		}
	}
	f.Add(uint8(2), opIndex(opAllAtms), 307, "text/html", []byte("moved"))
	f.Fuzz(func(t *testing.T, bi, oi uint8, status int, ct string, body []byte) {
		b := fuzzBindings[int(bi)%4]
		op := Operations[int(oi)%len(Operations)].Name // the suite's, not the target's
		x := &Exchange{
			Request: Request{Binding: b, Op: op}, Status: status, key: fuzzKey,
			RespHeader: http.Header{"Content-Type": {ct}, "Location": {"http://elsewhere.example/?strAtmServiceKey=" + fuzzKey}},
			RespBody:   body,
		}
		root, err := resultIn(x, b, asmx.DefaultNamespace)
		checkFailureText(t, err)
		checkFailureText(t, checkFaultIn(x, b, "fuzz"))
		checkFailureText(t, checkServiceFault(x, "fuzz"))
		for _, s := range []string{answerText(x), answered(x), snippet(body, fuzzKey)} {
			if !isPrintable(s) || strings.Contains(s, fuzzKey) {
				t.Fatalf("an answer's text is unprintable or holds the key: %q", s)
			}
		}
		if err != nil {
			return
		}
		if d := diffElements(root, root); d != "" {
			t.Fatalf("a result differs from itself: %s", d)
		}
		if d := diffContent(root, root); d != "" {
			t.Fatalf("a result's content differs from itself: %s", d)
		}
		q, _ := largestGroup(root)
		rel := relatedRows(root)
		for _, e := range findAll(root, q) {
			_ = leafText(e)
			_ = locationLeaves(e, rel)
		}
		_ = describeContent(root)
		_, _ = compareWithDocument(root, root)
		_ = outermost(root)
	})
}

// FuzzJSONAnswer reads any body as a JSON result, checks it as the JSON
// specs do, and finds its locations in any XML result: no panic, and the
// failures quote the answer printably.
func FuzzJSONAnswer(f *testing.F) {
	answers := mockAnswers(f) // a mock server and 26 calls: once
	var xmlSeed []byte
	for _, a := range answers {
		if a.op == opByCoords && a.binding == 2 && a.status == 200 {
			xmlSeed = a.body
		}
	}
	for _, a := range answers {
		if a.binding == 4 {
			f.Add(a.status, a.body, xmlSeed)
		}
	}
	for _, b := range hostileBodies {
		f.Add(200, []byte(b), xmlSeed)
		f.Add(500, []byte(b), []byte(b))
	}
	// Locations grouped by institution, typed and in a DataSet (the
	// reference deployment's grouped and groupsets sites, on Mono, and
	// its groupsetsflat site's below).
	for _, site := range []string{"grouped", "groupsets"} {
		dir := filepath.Join("..", "shape", "learn", "testdata", site)
		j, err := os.ReadFile(filepath.Join(dir, "coords1-json.json"))
		if err != nil {
			f.Fatal(err)
		}
		x, err := os.ReadFile(filepath.Join(dir, "coords1-get.xml"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(200, j, x)
	}
	// The groupsetsflat site's: the Atm rows after the Bank rows, bank by
	// bank, each naming its bank by its key (a relation not nested).
	j, err := os.ReadFile(filepath.Join("testdata", "groupsetsflat", "coords-json.json"))
	if err != nil {
		f.Fatal(err)
	}
	x, err := os.ReadFile(filepath.Join("testdata", "groupsetsflat", "coords-get.xml"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(200, j, x)
	f.Fuzz(func(t *testing.T, status int, body, xmlBody []byte) {
		x := &Exchange{
			Request: Request{Binding: JSON, Op: opByCoords}, Status: status, key: fuzzKey,
			RespHeader: http.Header{"Content-Type": {"application/json; charset=utf-8"}, "Jsonerror": {"true"}},
			RespBody:   body,
		}
		checkFailureText(t, checkServiceFault(x, "fuzz"))
		m, err := decodeJSON(body)
		if err != nil {
			return
		}
		_ = shapeError(m, map[string]any{"count": "int", "coordinates": map[string]any{"latitude": "number", "longitude": "number"}}, "result", []string{fuzzKey})
		jl, err := jsonLocations(m)
		if err != nil {
			return
		}
		for _, l := range jl {
			_ = shapeError(l, jsonShape, "location", []string{fuzzKey})
			_ = jsonLeaves(l, "", nil)
			_, _, _, _, _ = jsonCoordinates(l)
		}
		doc, err := parseXML(xmlBody)
		if err != nil || len(jl) == 0 {
			return
		}
		q, err := locationNode(doc.Root(), jl)
		if err != nil {
			return
		}
		xl := findAll(doc.Root(), q)
		if len(xl) != len(jl) {
			t.Fatalf("locationNode found %s, %d times for %d JSON locations", q, len(xl), len(jl))
		}
		rel := relatedRows(doc.Root())
		if _, _, err := learnFields(jl, xl, rel); err != nil {
			t.Fatalf("locationNode found %s, whose fields learnFields does not find: %v", q, err)
		}
		_ = coverage(xl[0], jl[0])
		xv := make([][]leaf, len(xl))
		for i, e := range xl {
			xv[i] = locationLeaves(e, rel)
		}
		perm, seen := alignByID(jl, xv), map[int]bool{}
		for _, j := range perm {
			if j < 0 || j >= len(xl) || seen[j] {
				t.Fatalf("alignByID gave %v for %d locations: not a permutation", perm, len(xl))
			}
			seen[j] = true
		}
		if f := groupOrder(opByCoords, jl, xl, xv, rel); f != nil {
			checkFailureText(t, f)
		}
	})
}

// FuzzWSDL serves any body as the target's WSDL and runs the WSDL specs on
// it: no panic, and each failure is a *Failure or a skip, quoting the
// document printably.
func FuzzWSDL(f *testing.F) {
	ds, err := fixtures.LoadFS(mocktest.SmallDataset())
	if err != nil {
		f.Fatal(err)
	}
	mock, err := mockserver.New(mockserver.WithDataset(ds), mockserver.WithKeys(mockKey))
	if err != nil {
		f.Fatal(err)
	}
	rec := httptest.NewRecorder()
	mock.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, servicePath+"?WSDL", nil))
	f.Add(rec.Body.Bytes())
	for _, b := range hostileBodies {
		f.Add([]byte(b))
	}
	var body atomic.Pointer[[]byte] // the input being run: one at a time per worker
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		_, _ = w.Write(*body.Load())
	}))
	defer srv.Close()
	var wsdl []Check
	for _, c := range Checks() {
		if strings.HasPrefix(c.Name, "wsdl/") {
			wsdl = append(wsdl, c)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		body.Store(&b)
		s, err := NewSession(Config{Target: srv.URL, Key: fuzzKey, Namespace: asmx.DefaultNamespace})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range RunChecks(s, wsdl) {
			if o.Err != nil && !IsSkip(o.Err) {
				checkFailureText(t, o.Err)
			}
		}
	})
}

// FuzzEncodingEcho: whatever a target answers the request encoding probe,
// reading it never panics, and the summary line is printable, holds no key,
// and names an encoding only from one of the readings it knows.
func FuzzEncodingEcho(f *testing.F) {
	for _, body := range []string{
		"Cannot convert x\ufffd to System.Byte.\r\nParameter name: type ---> Input string was not in a correct format.\r\n",
		"Cannot convert x&#164;&#233;\u0080 to System.Byte.\r\nParameter name: type",
		"Cannot convert x\u20ac&#233;\u0080 to System.Byte.\r\nParameter name: type",
		"System.ArgumentException: Cannot convert x&#164;&#233;\u20ac to System.Byte.",
		"Cannot convert x??? to System.Byte.",
		"Cannot convert x\u0404\u0449\u0080 to System.Byte.",
		"Cannot convert {0} to {1}.\nParameter name: type ---> Input string was not in a correct format.\n",
		"Cannot convert x" + fuzzKey + " to System.Byte.",
		"Cannot convert x&#1114112;&#x110000;&#99999999999; to System.",
	} {
		f.Add(500, []byte(body))
	}
	for _, b := range hostileBodies {
		f.Add(500, []byte(b))
	}
	f.Fuzz(func(t *testing.T, status int, body []byte) {
		x := &Exchange{Request: Request{Binding: HTTPGet, Op: opByCoords}, Status: status, key: fuzzKey,
			RespHeader: http.Header{"Content-Type": {"text/plain; charset=utf-8"}}, RespBody: body}
		e := readEncodingEcho("probe", x)
		s := e.Summary()
		if !isPrintable(s) || strings.Contains(s, fuzzKey) {
			t.Fatalf("the request encoding line is unprintable or holds the key: %q", s)
		}
		if e.Name != "" && !strings.Contains(string(body), "Cannot convert x") {
			t.Fatalf("an encoding (%s) named from an answer that repeats no value: %q", e.Name, body)
		}
	})
}

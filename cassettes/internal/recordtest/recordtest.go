// Package recordtest holds what the tests of package cassettes and of
// cassettes/verify share to record a deployment: a live stand-in for the
// service (plain or gzipping), the questions asked of it, the requests that
// ask them in each binding, the recording proxy in front of it, and the
// reading, writing and key check of the cassette recorded. Only tests
// import it.
package recordtest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/mockserver"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Key is the service key the tests send; no cassette may contain it.
const Key = "s3cr3t-KEY-4242"

// StandIn starts a live stand-in for the real service: a mock server with
// a generated data set that differs from the embedded default one, which
// accepts Key only. It stops when the test ends.
func StandIn(tb testing.TB) (*httptest.Server, *fixtures.Dataset) {
	tb.Helper()
	ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 7, ATMs: 50})
	if err != nil {
		tb.Fatal(err)
	}
	h, err := mockserver.New(mockserver.WithDataset(ds), mockserver.WithKeys(Key))
	if err != nil {
		tb.Fatal(err)
	}
	srv := httptest.NewServer(h)
	tb.Cleanup(srv.Close)
	return srv, ds
}

// RecordingProxy starts a recording proxy in front of upstream: a Recorder
// of the cassette at path (ModeRecordAll, then opts) and the proxy serving
// through it, closed when the test ends. The caller stops the Recorder.
func RecordingProxy(tb testing.TB, upstream, path string, opts ...cassettes.Option) (*cassettes.Recorder, *httptest.Server) {
	tb.Helper()
	rec, err := cassettes.New(path, append([]cassettes.Option{cassettes.WithMode(cassettes.ModeRecordAll)}, opts...)...)
	if err != nil {
		tb.Fatal(err)
	}
	u, err := url.Parse(upstream)
	if err != nil {
		tb.Fatal(err)
	}
	proxy := httptest.NewServer(cassettes.NewProxy(u, rec, nil))
	tb.Cleanup(proxy.Close)
	return rec, proxy
}

// Query is one question asked of the service: an operation and its
// parameters but the key, in the document's order.
type Query struct {
	Op     string
	Params [][2]string
}

// String is the query as a test names it: the operation and its parameters.
func (q Query) String() string { return fmt.Sprint(q.Op, q.Params) }

// Queries are questions about the first ATM of ds: every XML operation
// but the list of all ATMs, and the two JSON ones.
func Queries(ds *fixtures.Dataset) (xml, json []Query) {
	a := ds.ATMs[0]
	lat := asmx.FormatDouble(a.Coordinates.Latitude)
	lon := asmx.FormatDouble(a.Coordinates.Longitude)
	coords := Query{asmx.OpReturnAtmSearchByCoordinates, [][2]string{
		{"strPostalCode", ""}, {"dblLatitude", lat}, {"dblLongitude", lon}, {"bytRadius", "25"}}}
	addr := Query{asmx.OpReturnAtmSearchByAddress, [][2]string{
		{"strAddress", ""}, {"strCity", a.Address.City}, {"strProvince", a.Address.Province}, {"strPostalCode", ""}, {"bytRadius", "10"}}}
	xml = []Query{
		{asmx.OpReturnProvinces, nil},
		{asmx.OpReturnInstitutions, nil},
		{asmx.OpReturnAtmSearchByCity, [][2]string{{"intCityID", strconv.Itoa(a.CityID)}}},
		{asmx.OpReturnAtmSearchByInstitution, [][2]string{{"intInstitutionID", strconv.Itoa(a.InstitutionID)}}},
		coords, addr,
	}
	return xml, []Query{coords, addr}
}

// Request writes q as a request of binding b to base, a service whose
// namespace is ns, with key, and Key in credential headers too (an
// Authorization bearer and a session cookie, for the scrubbing to find).
// variant alters the form without changing the question: prefixed SOAP
// elements, reversed parameter order, padded numbers.
func Request(tb testing.TB, base, ns string, b asmx.Binding, q Query, key string, variant bool) *http.Request {
	tb.Helper()
	params := append([][2]string{{asmx.ParamKey, key}}, q.Params...)
	if variant {
		rev := make([][2]string, len(params))
		for i, p := range params {
			rev[len(params)-1-i] = p
		}
		params = rev
	}
	var req *http.Request
	var err error
	switch b {
	case asmx.SOAP11, asmx.SOAP12:
		env, ct := asmx.NamespaceSOAP11, asmx.ContentTypeSOAP11
		if b == asmx.SOAP12 {
			env, ct = asmx.NamespaceSOAP12, asmx.ContentTypeSOAP12
		}
		var body bytes.Buffer
		fmt.Fprintf(&body, `<?xml version="1.0" encoding="utf-8"?><s:Envelope xmlns:s=%q><s:Body>`, env)
		pre := ""
		if variant {
			pre = "tns:"
			fmt.Fprintf(&body, `<tns:%s xmlns:tns=%q>`, q.Op, ns)
		} else {
			fmt.Fprintf(&body, `<%s xmlns=%q>`, q.Op, ns)
		}
		for _, p := range params {
			v := string(asmx.AppendEscaped(nil, p[1]))
			if variant {
				v = "\n   " + v + "  "
			}
			fmt.Fprintf(&body, "<%s%s>%s</%s%s>", pre, p[0], v, pre, p[0])
		}
		fmt.Fprintf(&body, "</%s%s></s:Body></s:Envelope>", pre, q.Op)
		req, err = http.NewRequest(http.MethodPost, base+asmx.ServicePath, &body)
		if err == nil {
			req.Header.Set("Content-Type", ct)
			if b == asmx.SOAP11 {
				req.Header.Set("SOAPAction", `"`+asmx.SOAPAction(ns, q.Op)+`"`)
			}
		}
	default:
		var pairs []string
		for _, p := range params {
			pairs = append(pairs, url.QueryEscape(p[0])+"="+url.QueryEscape(p[1]))
		}
		enc := strings.Join(pairs, "&")
		switch b {
		case asmx.HTTPPost:
			req, err = http.NewRequest(http.MethodPost, base+asmx.ServicePath+"/"+q.Op, strings.NewReader(enc))
			if err == nil {
				req.Header.Set("Content-Type", asmx.ContentTypeForm)
			}
		case asmx.JSON:
			req, err = http.NewRequest(http.MethodGet, base+asmx.JSONPath+"/"+q.Op+"?"+enc, nil)
		default:
			req, err = http.NewRequest(http.MethodGet, base+asmx.ServicePath+"/"+q.Op+"?"+enc, nil)
		}
	}
	if err != nil {
		tb.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+Key)
	req.Header.Set("Cookie", "session="+Key)
	return req
}

// MustGet writes a GET of u, failing the test on an error.
func MustGet(tb testing.TB, u string) *http.Request {
	tb.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return req
}

// Do sends req with c and returns the status and body.
func Do(tb testing.TB, c *http.Client, req *http.Request) (int, string) {
	tb.Helper()
	resp, err := c.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// AssertNoKey fails the test unless the cassette at path holds the
// placeholder and no form of Key.
func AssertNoKey(tb testing.TB, path string) {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	for _, form := range []string{Key, url.QueryEscape(Key), "s3cr3t"} {
		if strings.Contains(string(b), form) {
			tb.Fatalf("%s holds the service key (%q)", path, form)
		}
	}
	if !strings.Contains(string(b), cassettes.Placeholder) {
		tb.Fatalf("%s holds no placeholder: was anything scrubbed?", path)
	}
}

// ReadCassette reads the cassette at path (cassettes.ReadFile), failing
// the test on an error.
func ReadCassette(tb testing.TB, path string) []*cassette.Interaction {
	tb.Helper()
	list, err := cassettes.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return list
}

// WriteCassette writes list as the cassette at path (cassettes.WriteFile),
// failing the test on an error.
func WriteCassette(tb testing.TB, path string, list []*cassette.Interaction) {
	tb.Helper()
	if err := cassettes.WriteFile(path, list); err != nil {
		tb.Fatal(err)
	}
}

// GzipStandIn starts a stand-in (StandIn) and, in front of it, a
// deployment that gzips its answers (Gzipping). Both stop when the test
// ends.
func GzipStandIn(tb testing.TB) (deployment, standIn *httptest.Server, ds *fixtures.Dataset) {
	tb.Helper()
	standIn, ds = StandIn(tb)
	deployment = httptest.NewServer(Gzipping(standIn.Config.Handler))
	tb.Cleanup(deployment.Close)
	return deployment, standIn, ds
}

// Gzipping serves h, its answers gzip-compressed to a client that accepts
// gzip (Content-Encoding: gzip), as IIS with dynamic compression does.
func Gzipping(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.Header().Set("Content-Encoding", "gzip")
		w.Header().Set("Vary", "Accept-Encoding")
		w.WriteHeader(rec.Code)
		zw := gzip.NewWriter(w)
		_, _ = zw.Write(rec.Body.Bytes())
		_ = zw.Close()
	})
}

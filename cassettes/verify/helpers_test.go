package verify_test

import (
	"bytes"
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
)

// The helpers of package cassettes' tests that recording a deployment
// needs, for a cassette to verify.

// testKey is the service key the tests send; no cassette may contain it.
const testKey = "s3cr3t-KEY-4242"

// standIn starts a live stand-in for the real service: a mock server with a
// generated data set that differs from the embedded default one.
func standIn(t testing.TB) (*httptest.Server, *fixtures.Dataset) {
	t.Helper()
	ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 7, ATMs: 50})
	if err != nil {
		t.Fatal(err)
	}
	h, err := mockserver.New(mockserver.WithDataset(ds), mockserver.WithKeys(testKey))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, ds
}

// query is one question asked of the service: an operation and its
// parameters but the key, in the document's order.
type query struct {
	op     string
	params [][2]string
}

// queries are questions about the first ATM of ds: every XML operation
// but the list of all ATMs, and the two JSON ones.
func queries(ds *fixtures.Dataset) (xml, json []query) {
	a := ds.ATMs[0]
	lat := asmx.FormatDouble(a.Coordinates.Latitude)
	lon := asmx.FormatDouble(a.Coordinates.Longitude)
	coords := query{asmx.OpReturnAtmSearchByCoordinates, [][2]string{
		{"strPostalCode", ""}, {"dblLatitude", lat}, {"dblLongitude", lon}, {"bytRadius", "25"}}}
	addr := query{asmx.OpReturnAtmSearchByAddress, [][2]string{
		{"strAddress", ""}, {"strCity", a.Address.City}, {"strProvince", a.Address.Province}, {"strPostalCode", ""}, {"bytRadius", "10"}}}
	xml = []query{
		{asmx.OpReturnProvinces, nil},
		{asmx.OpReturnInstitutions, nil},
		{asmx.OpReturnAtmSearchByCity, [][2]string{{"intCityID", strconv.Itoa(a.CityID)}}},
		{asmx.OpReturnAtmSearchByInstitution, [][2]string{{"intInstitutionID", strconv.Itoa(a.InstitutionID)}}},
		coords, addr,
	}
	return xml, []query{coords, addr}
}

// request writes q as a request of binding b to base, with key, and the
// key in credential headers too.
func request(t testing.TB, base string, b asmx.Binding, q query, key string) *http.Request {
	t.Helper()
	ns := asmx.DefaultNamespace
	params := append([][2]string{{asmx.ParamKey, key}}, q.params...)
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
		fmt.Fprintf(&body, `<%s xmlns=%q>`, q.op, ns)
		for _, p := range params {
			fmt.Fprintf(&body, "<%s>%s</%s>", p[0], asmx.AppendEscaped(nil, p[1]), p[0])
		}
		fmt.Fprintf(&body, "</%s></s:Body></s:Envelope>", q.op)
		req, err = http.NewRequest(http.MethodPost, base+asmx.ServicePath, &body)
		if err == nil {
			req.Header.Set("Content-Type", ct)
			if b == asmx.SOAP11 {
				req.Header.Set("SOAPAction", `"`+asmx.SOAPAction(ns, q.op)+`"`)
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
			req, err = http.NewRequest(http.MethodPost, base+asmx.ServicePath+"/"+q.op, strings.NewReader(enc))
			if err == nil {
				req.Header.Set("Content-Type", asmx.ContentTypeForm)
			}
		case asmx.JSON:
			req, err = http.NewRequest(http.MethodGet, base+asmx.JSONPath+"/"+q.op+"?"+enc, nil)
		default:
			req, err = http.NewRequest(http.MethodGet, base+asmx.ServicePath+"/"+q.op+"?"+enc, nil)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+testKey)
	req.Header.Set("Cookie", "session="+testKey)
	return req
}

func mustGet(t testing.TB, u string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// do sends req and returns the status and body.
func do(t testing.TB, c *http.Client, req *http.Request) (int, string) {
	t.Helper()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", req.Method, req.URL.Path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// assertNoKey fails unless the cassette at path holds the placeholder and
// no form of testKey.
func assertNoKey(t testing.TB, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, form := range []string{testKey, url.QueryEscape(testKey), "s3cr3t"} {
		if strings.Contains(string(b), form) {
			t.Fatalf("%s holds the service key (%q)", path, form)
		}
	}
	if !strings.Contains(string(b), cassettes.Placeholder) {
		t.Fatalf("%s holds no placeholder: was anything scrubbed?", path)
	}
}

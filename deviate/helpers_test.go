package deviate

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// The test client's side: requests to the mock, with and without
// deviations, and checks of what came back.

const testNS = asmx.DefaultNamespace

// response is what a test client got.
type response struct {
	status int
	ctype  string
	body   string
}

// smallDataset is a hand-made data set whose distances are easy to reason
// about (mocktest.SmallDataset), read with fixtures' own loader: a fresh
// copy each call.
func smallDataset() *fixtures.Dataset {
	ds, err := fixtures.LoadFS(mocktest.SmallDataset())
	if err != nil {
		panic(fmt.Sprintf("the small data set: %v", err))
	}
	return ds
}

// newTestServer serves the mock on the small data set, without deviations.
func newTestServer(t *testing.T, opts ...mockserver.Option) *httptest.Server {
	t.Helper()
	h, err := mockserver.New(append([]mockserver.Option{mockserver.WithDataset(smallDataset())}, opts...)...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func paramsFor(op, key string) [][2]string { return mocktest.ParamsFor(op, key) }

func do(t *testing.T, req *http.Request) response {
	t.Helper()
	status, header, body := mocktest.Do(t, req)
	return response{status, header.Get("Content-Type"), string(body)}
}

// call sends op with params in binding b.
func call(t *testing.T, base string, b asmx.Binding, op string, params [][2]string) response {
	t.Helper()
	req, err := mocktest.NewRequest(base, testNS, b.String(), op, params)
	if err != nil {
		t.Fatal(err)
	}
	return do(t, req)
}

// rawRequest is one hand-made request.
type rawRequest struct {
	method, path string
	header       map[string]string
	body         string
}

const coordsBody = `<ReturnAtmSearchByCoordinates xmlns="` + testNS + `"><strAtmServiceKey>good</strAtmServiceKey><strPostalCode></strPostalCode><dblLatitude>44.6488</dblLatitude><dblLongitude>-63.5752</dblLongitude><bytRadius>5</bytRadius></ReturnAtmSearchByCoordinates>`

func env(version, inner string) string {
	ns := asmx.NamespaceSOAP11
	if version == "1.2" {
		ns = asmx.NamespaceSOAP12
	}
	return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + ns + `"><soap:Body>` + inner + `</soap:Body></soap:Envelope>`
}

func get(pathAndQuery string) rawRequest { return rawRequest{"GET", pathAndQuery, nil, ""} }

func sendRaw(t *testing.T, base string, rr rawRequest) response {
	t.Helper()
	req, err := http.NewRequest(rr.method, base+rr.path, strings.NewReader(rr.body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range rr.header {
		req.Header.Set(k, v)
	}
	return do(t, req)
}

// check is one assertion on a response.
type check func(response) error

func hasStatus(want int) check {
	return func(r response) error {
		if r.status != want {
			return fmt.Errorf("status: got %d, want %d (body %.300q)", r.status, want, r.body)
		}
		return nil
	}
}

func hasContentType(want string) check {
	return func(r response) error {
		if r.ctype != want {
			return fmt.Errorf("content type: got %q, want %q", r.ctype, want)
		}
		return nil
	}
}

func bodyContains(want string) check {
	return func(r response) error {
		if !strings.Contains(r.body, want) {
			return fmt.Errorf("body: got %.400q, want it to contain %q", r.body, want)
		}
		return nil
	}
}

func bodyLacks(bad string) check {
	return func(r response) error {
		if strings.Contains(r.body, bad) {
			return fmt.Errorf("body: got %.400q, want it not to contain %q", r.body, bad)
		}
		return nil
	}
}

func runChecks(t *testing.T, r response, checks ...check) {
	t.Helper()
	for _, c := range checks {
		if err := c(r); err != nil {
			t.Error(err)
		}
	}
}

// resultNode extracts the XML result node from an answer of binding b:
// the root of a GET or POST answer, the node inside <OpResult> of a SOAP one.
func resultNode(t *testing.T, b asmx.Binding, op, body string) *etree.Element {
	t.Helper()
	doc := etree.NewDocument()
	if err := doc.ReadFromString(body); err != nil {
		t.Fatalf("%s %s: parse: %v\n%s", b, op, err, body)
	}
	root := doc.Root()
	if !b.IsSOAP() {
		return root
	}
	res := root.FindElement("./Body/" + op + "Response/" + op + "Result")
	if res == nil || len(res.ChildElements()) != 1 {
		t.Fatalf("%s %s: no %sResult with one node in %.300s", b, op, op, body)
	}
	return res.ChildElements()[0]
}

// jsonIDs returns the ids of the locations of a JSON answer, checking its
// indexes and count.
func jsonIDs(t *testing.T, op string, r response) []int {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("json %s: status %d: %s", op, r.status, r.body)
	}
	var res struct {
		Count     int `json:"count"`
		Locations []struct {
			Index int `json:"index"`
			ID    int `json:"id"`
		} `json:"locations"`
	}
	if err := json.Unmarshal([]byte(r.body), &res); err != nil {
		t.Fatal(err)
	}
	out := []int{}
	for i, l := range res.Locations {
		if l.Index != i {
			t.Errorf("index %d at position %d", l.Index, i)
		}
		out = append(out, l.ID)
	}
	if res.Count != len(out) {
		t.Errorf("count: got %d, want %d", res.Count, len(out))
	}
	return out
}

// membersShape is the shape learned from the reference members site
// (members declared object, nillable members), its enums' values strings:
// the small data set may hold provinces its enum lacks.
func membersShape(t *testing.T) *shape.Shape {
	t.Helper()
	sh, err := shape.Load(filepath.Join("..", "shape", "learn", "testdata", "members-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var clear func(fs []*shape.Field)
	clear = func(fs []*shape.Field) {
		for _, f := range fs {
			f.Enum, f.EnumValues = "", nil
			clear(f.Fields)
			if f.Item != nil {
				clear([]*shape.Field{f.Item})
			}
		}
	}
	for _, r := range sh.Results {
		clear(r.Fields)
	}
	return sh
}

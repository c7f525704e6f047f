package mockserver

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/beevik/etree"
)

const testNS = "http://tempuri.org/atmService"

// response is what a test client got.
type response struct {
	status int
	ctype  string
	body   string
}

func newTestServer(t *testing.T, opts ...Option) *httptest.Server {
	t.Helper()
	h, err := New(append([]Option{WithDataset(smallDataset())}, opts...)...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// soapEnvelope builds a SOAP request body by hand, parameters in the given order.
func soapEnvelope(b asmx.Binding, op string, params [][2]string) string {
	return mocktest.SOAPEnvelope(testNS, b.String(), op, params)
}

func do(t *testing.T, req *http.Request) response {
	t.Helper()
	status, header, body := mocktest.Do(t, req)
	return response{status, header.Get("Content-Type"), string(body)}
}

// call sends op with params in binding b.
func call(t *testing.T, base string, b asmx.Binding, op string, params [][2]string) response {
	t.Helper()
	return do(t, callRequest(t, base, b, op, params))
}

// callRequest is the request of op with params in binding b.
func callRequest(t *testing.T, base string, b asmx.Binding, op string, params [][2]string) *http.Request {
	t.Helper()
	req, err := mocktest.NewRequest(base, testNS, b.String(), op, params)
	if err != nil {
		t.Fatal(err)
	}
	return req
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

func notStatus(bad int) check {
	return func(r response) error {
		if r.status == bad {
			return fmt.Errorf("status: got %d, want anything else (body %.300q)", r.status, r.body)
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

// paramsFor gives valid parameters for every operation, key first.
func paramsFor(op, key string) [][2]string { return mocktest.ParamsFor(op, key) }

// resultNode extracts the XML result node from a response of binding b.
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
	env := asmx.NamespaceSOAP11
	if b == asmx.SOAP12 {
		env = asmx.NamespaceSOAP12
	}
	if root.Tag != "Envelope" || root.NamespaceURI() != env {
		t.Fatalf("%s %s: root {%s}%s, want {%s}Envelope", b, op, root.NamespaceURI(), root.Tag, env)
	}
	bodyEl := root.SelectElement("Body")
	if bodyEl == nil || bodyEl.NamespaceURI() != env {
		t.Fatalf("%s %s: no Body in %s", b, op, env)
	}
	kids := bodyEl.ChildElements()
	if len(kids) != 1 || kids[0].Tag != op+"Response" || kids[0].NamespaceURI() != testNS {
		t.Fatalf("%s %s: Body children %v, want one {%s}%sResponse", b, op, kids, testNS, op)
	}
	res := kids[0].ChildElements()
	if len(res) != 1 || res[0].Tag != op+"Result" || res[0].NamespaceURI() != testNS {
		t.Fatalf("%s %s: Response children %v, want one %sResult", b, op, res, op)
	}
	nodes := res[0].ChildElements()
	if len(nodes) != 1 {
		t.Fatalf("%s %s: Result has %d child elements, want 1", b, op, len(nodes))
	}
	if nodes[0].NamespaceURI() != "" {
		t.Errorf("%s %s: result node in namespace %q, want none", b, op, nodes[0].NamespaceURI())
	}
	return nodes[0]
}

// canonical writes an element tree without namespace declarations or whitespace.
func canonical(e *etree.Element) string {
	var sb strings.Builder
	var walk func(e *etree.Element)
	walk = func(e *etree.Element) {
		sb.WriteString("<" + e.Tag + ">")
		for _, c := range e.ChildElements() {
			walk(c)
		}
		sb.WriteString(strings.TrimSpace(e.Text()))
		sb.WriteString("</" + e.Tag + ">")
	}
	walk(e)
	return sb.String()
}

func TestEveryOperationEveryBinding(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	for _, op := range asmx.Operations() {
		var want string
		for _, b := range asmx.Bindings {
			if b == asmx.JSON && !op.JSON {
				continue
			}
			t.Run(op.Name+"/"+b.String(), func(t *testing.T) {
				r := call(t, srv.URL, b, op.Name, paramsFor(op.Name, "any-key"))
				runChecks(t, r, hasStatus(200), hasContentType(asmx.ContentType(b)))
				if b == asmx.JSON {
					var v map[string]any
					if err := json.Unmarshal([]byte(r.body), &v); err != nil {
						t.Fatalf("JSON: %v\n%s", err, r.body)
					}
					return
				}
				if !strings.HasPrefix(r.body, `<?xml version="1.0" encoding="utf-8"?>`) {
					t.Errorf("body does not start with the XML declaration: %.80q", r.body)
				}
				got := canonical(resultNode(t, b, op.Name, r.body))
				if want == "" {
					want = got
				} else if got != want {
					t.Errorf("result differs from SOAP 1.1's:\ngot  %.500s\nwant %.500s", got, want)
				}
			})
		}
	}
}

func TestSOAP12NeverUsesSOAP11Namespace(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	r := call(t, srv.URL, asmx.SOAP12, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	if strings.Contains(r.body, asmx.NamespaceSOAP11) {
		t.Errorf("SOAP 1.2 answer mentions the SOAP 1.1 namespace:\n%s", r.body)
	}
	r = call(t, srv.URL, asmx.SOAP11, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	if strings.Contains(r.body, asmx.NamespaceSOAP12) {
		t.Errorf("SOAP 1.1 answer mentions the SOAP 1.2 namespace:\n%s", r.body)
	}
}

// jsonResult is the JSON binding's result object.
type jsonResult struct {
	Count       int `json:"count"`
	Coordinates struct {
		Latitude  float64 `json:"latitude"`
		Longitude float64 `json:"longitude"`
	} `json:"coordinates"`
	Locations []struct {
		Index int `json:"index"`
		ID    int `json:"id"`
	} `json:"locations"`
}

func ids(t *testing.T, b asmx.Binding, op string, r response) []int {
	t.Helper()
	if r.status != 200 {
		t.Fatalf("%s %s: status %d: %s", b, op, r.status, r.body)
	}
	if b == asmx.JSON {
		var res jsonResult
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
	node := resultNode(t, b, op, r.body)
	out := []int{}
	for _, l := range node.FindElements("./locations/location") {
		id, err := strconv.Atoi(l.SelectElement("id").Text())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, id)
	}
	if c := node.SelectElement("count"); c == nil || c.Text() != strconv.Itoa(len(out)) {
		t.Errorf("count element: got %v, want %d", c, len(out))
	}
	return out
}

func TestSearchSemantics(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	k := [2]string{"strAtmServiceKey", "k"}
	coords := func(lat, lon, radius string) [][2]string {
		return [][2]string{k, {"strPostalCode", ""}, {"dblLatitude", lat}, {"dblLongitude", lon}, {"bytRadius", radius}}
	}
	addr := func(street, city, prov, postal, radius string) [][2]string {
		return [][2]string{k, {"strAddress", street}, {"strCity", city}, {"strProvince", prov}, {"strPostalCode", postal}, {"bytRadius", radius}}
	}
	tests := []struct {
		name   string
		op     string
		params [][2]string
		want   []int
	}{
		{"radius 0 finds the exact point", asmx.OpReturnAtmSearchByCoordinates, coords("44.6488", "-63.5752", "0"), []int{1}},
		{"ties by id, then by distance", asmx.OpReturnAtmSearchByCoordinates, coords("44.6488", "-63.5752", "2"), []int{1, 2, 3}},
		{"radius in km: 10 km reaches ATM 4 at 10.0 km", asmx.OpReturnAtmSearchByCoordinates, coords("44.6488", "-63.5752", "11"), []int{1, 2, 3, 4}},
		{"nothing near", asmx.OpReturnAtmSearchByCoordinates, coords("0", "0", "255"), []int{}},
		{"postal code first", asmx.OpReturnAtmSearchByAddress, addr("", "Halifax", "NS", "e1c 5e5", "5"), []int{5}},
		{"street and city", asmx.OpReturnAtmSearchByAddress, addr("4 bedford hwy", "HALIFAX", "", "", "1"), []int{4}},
		{"city in province", asmx.OpReturnAtmSearchByAddress, addr("", "Moncton", "New Brunswick", "", "1"), []int{5}},
		{"province alone", asmx.OpReturnAtmSearchByAddress, addr("", "", "PE", "", "1"), []int{6}},
		{"unknown address is empty", asmx.OpReturnAtmSearchByAddress, addr("x", "Atlantis", "ZZ", "Q0Q 0Q0", "255"), []int{}},
		{"maximum is the head", asmx.OpReturnAtmSearchByAddressWithMaximum, append(addr("", "Halifax", "NS", "", "20"), [2]string{"intMaximumAtms", "3"}), []int{1, 2, 3}},
		{"institution by id", asmx.OpReturnAtmSearchByInstitution, [][2]string{k, {"intInstitutionID", "2"}}, []int{2, 4, 6}},
		{"city by id", asmx.OpReturnAtmSearchByCity, [][2]string{k, {"intCityID", "10"}}, []int{1, 2, 3, 4}},
		{"unknown city", asmx.OpReturnAtmSearchByCity, [][2]string{k, {"intCityID", "999"}}, []int{}},
		{"all ATMs by id", asmx.OpReturnAllAtms, [][2]string{k}, []int{1, 2, 3, 4, 5, 6}},
	}
	for _, tt := range tests {
		for _, b := range asmx.Bindings {
			op, _ := asmx.LookupOperation(tt.op)
			if b == asmx.JSON && !op.JSON {
				continue
			}
			t.Run(tt.name+"/"+b.String(), func(t *testing.T) {
				got := ids(t, b, tt.op, call(t, srv.URL, b, tt.op, tt.params))
				if fmt.Sprint(got) != fmt.Sprint(tt.want) {
					t.Errorf("ids: got %v, want %v", got, tt.want)
				}
			})
		}
	}
}

func TestJSONCarriesSearchPointAndAllFields(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	r := call(t, srv.URL, asmx.JSON, asmx.OpReturnAtmSearchByAddress,
		[][2]string{{"strAtmServiceKey", "k"}, {"strAddress", ""}, {"strCity", "Moncton"}, {"strProvince", ""}, {"strPostalCode", ""}, {"bytRadius", "1"}})
	runChecks(t, r, hasStatus(200), hasContentType("text/xml; charset=utf-8"))
	want := `{"count":1,"coordinates":{"latitude":46.0878,"longitude":-64.7782},"locations":[{"index":0,"id":5,"atmIdentifier":"ATM-F","institution":{"id":1,"name":"Bank of Halifax","url":"https://bank.example","isAtlanticCreditUnion":0},"coordinates":{"latitude":46.0878,"longitude":-64.7782},"address":{"streetAddress":"5 Main St","city":"Moncton","province":"NB","postalCode":"E1C 5E5","landmark":"Near \u003cthe\u003e \u0026 \"park\""},"features":{"deposits":1,"hours":2,"driveThru":0,"pinChange":1,"voiceGuidance":0},"creditCards":{"visa":1,"plus":0,"mastercard":1,"cirrus":0},"languages":["fr","en"]}]}`
	if r.body != want {
		t.Errorf("JSON:\ngot  %s\nwant %s", r.body, want)
	}
}

func TestSOAPParametersByNameInAnyOrder(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP12} {
		// Reversed order, an unknown child, and bytRadius missing (so 0).
		params := [][2]string{{"dblLongitude", "-63.5752"}, {"unknownThing", "x"}, {"dblLatitude", " 44.6488 "}, {"strAtmServiceKey", "k"}}
		got := ids(t, b, asmx.OpReturnAtmSearchByCoordinates, call(t, srv.URL, b, asmx.OpReturnAtmSearchByCoordinates, params))
		if fmt.Sprint(got) != "[1]" {
			t.Errorf("%s: ids got %v, want [1] (radius 0 when missing)", b, got)
		}
	}
}

func TestKeys(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t, WithKeys("alpha", "beta"))
	open := newTestServer(t)
	for _, b := range asmx.Bindings {
		op := asmx.OpReturnAtmSearchByCoordinates
		t.Run(b.String(), func(t *testing.T) {
			runChecks(t, call(t, srv.URL, b, op, paramsFor(op, "beta")), hasStatus(200))
			runChecks(t, call(t, srv.URL, b, op, paramsFor(op, "gamma")), notStatus(200), bodyContains("strAtmServiceKey"))
			runChecks(t, call(t, srv.URL, b, op, paramsFor(op, "alph")), notStatus(200))
			runChecks(t, call(t, srv.URL, b, op, paramsFor(op, "")), notStatus(200), bodyContains("strAtmServiceKey"))
			runChecks(t, call(t, open.URL, b, op, paramsFor(op, "whatever")), hasStatus(200))
			runChecks(t, call(t, open.URL, b, op, paramsFor(op, "  ")), notStatus(200))
		})
	}
}

func TestFixedAnswersAreStable(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	for _, op := range []string{asmx.OpReturnAllAtms, asmx.OpReturnInstitutions, asmx.OpReturnProvinces} {
		a := call(t, srv.URL, asmx.SOAP12, op, paramsFor(op, "k"))
		b := call(t, srv.URL, asmx.SOAP12, op, paramsFor(op, "k2"))
		if a.body != b.body || a.status != 200 {
			t.Errorf("%s: two answers differ or failed (%d)", op, a.status)
		}
	}
	r := call(t, srv.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	runChecks(t, r, bodyContains("<province>\r\n    <code>NS</code>\r\n    <name>Nova Scotia</name>"))
}

func TestHealth(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	req, _ := http.NewRequest("GET", srv.URL+"/__admin/health", nil)
	r := do(t, req)
	runChecks(t, r, hasStatus(200), bodyContains(`"ok"`))
}

func TestSOAP12UnknownActionFallsBackToTheBodyElement(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	req, err := http.NewRequest("POST", srv.URL+"/service/service.asmx",
		strings.NewReader(soapEnvelope(asmx.SOAP12, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", `application/soap+xml; charset=utf-8; action="`+testNS+`/Wrong"`)
	r := do(t, req)
	runChecks(t, r, hasStatus(200), hasContentType(asmx.ContentTypeSOAP12), bodyContains("<ReturnProvincesResult>"))
}

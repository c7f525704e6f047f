package deviate

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
)

// newDeviatingServer serves the small data set with the named deviations.
func newDeviatingServer(t *testing.T, names []string, opts ...mockserver.Option) *httptest.Server {
	t.Helper()
	s, err := mockserver.New(append([]mockserver.Option{mockserver.WithDataset(smallDataset())}, opts...)...)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	h, err := Wrap(s, names...)
	if err != nil {
		t.Fatalf("Wrap(%q): %v", names, err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// jsonCount checks a JSON answer's count against the number of its locations.
func jsonCount(offBy int) check {
	return func(r response) error {
		var v struct {
			Count     int               `json:"count"`
			Locations []json.RawMessage `json:"locations"`
		}
		if err := json.Unmarshal([]byte(r.body), &v); err != nil {
			return fmt.Errorf("JSON: %v", err)
		}
		if want := len(v.Locations) + offBy; v.Count != want || len(v.Locations) == 0 {
			return fmt.Errorf("count: got %d, want %d (%d locations)", v.Count, want, len(v.Locations))
		}
		return nil
	}
}

// bodyMatches checks the body against a regular expression.
func bodyMatches(re string) check {
	rx := regexp.MustCompile(re)
	return func(r response) error {
		if !rx.MatchString(r.body) {
			return fmt.Errorf("body: got %.400q, want it to match %q", r.body, re)
		}
		return nil
	}
}

func TestDeviationsChangeTheWire(t *testing.T) {
	coords := paramsFor(asmx.OpReturnAtmSearchByCoordinates, "k")
	type row struct {
		name    string
		deviate string
		opts    []mockserver.Option
		b       asmx.Binding
		op      string
		params  [][2]string
		raw     *rawRequest // sent instead of the call when set
		checks  []check
	}
	rows := []row{
		{name: "envelope 1.1", deviate: "soap11-envelope-ns", b: asmx.SOAP11, op: asmx.OpReturnProvinces, params: paramsFor(asmx.OpReturnProvinces, "k"),
			checks: []check{hasStatus(200), bodyContains(`xmlns:soap="` + asmx.NamespaceSOAP12 + `"`), bodyLacks(asmx.NamespaceSOAP11)}},
		{name: "envelope 1.2", deviate: "soap12-envelope-ns", b: asmx.SOAP12, op: asmx.OpReturnProvinces, params: paramsFor(asmx.OpReturnProvinces, "k"),
			checks: []check{hasStatus(200), bodyContains(asmx.NamespaceSOAP11), bodyLacks(asmx.NamespaceSOAP12)}},
		{name: "content type 1.1", deviate: "soap11-content-type", b: asmx.SOAP11, op: asmx.OpReturnInstitutions, params: paramsFor(asmx.OpReturnInstitutions, "k"),
			checks: []check{hasStatus(200), hasContentType(asmx.ContentTypeSOAP12)}},
		{name: "content type JSON", deviate: "json-content-type", b: asmx.JSON, op: asmx.OpReturnAtmSearchByCoordinates, params: coords,
			checks: []check{hasStatus(200), hasContentType("application/json; charset=utf-8"), jsonCount(0)}},
		{name: "renamed response", deviate: "renamed-response", b: asmx.SOAP12, op: asmx.OpReturnProvinces, params: paramsFor(asmx.OpReturnProvinces, "k"),
			checks: []check{hasStatus(200), bodyContains("<ReturnProvincesReply "), bodyContains("</ReturnProvincesReply>"), bodyContains("<ReturnProvincesResult>")}},
		{name: "renamed result", deviate: "renamed-result", b: asmx.SOAP11, op: asmx.OpReturnProvinces, params: paramsFor(asmx.OpReturnProvinces, "k"),
			checks: []check{hasStatus(200), bodyContains("<ReturnProvincesReturn>"), bodyLacks("ReturnProvincesResult")}},
		{name: "service namespace", deviate: "wrong-service-namespace", b: asmx.SOAP11, op: asmx.OpReturnProvinces, params: paramsFor(asmx.OpReturnProvinces, "k"),
			checks: []check{hasStatus(200), bodyContains(`<ReturnProvincesResponse xmlns="http://example.invalid/atmService">`)}},
		{name: "GET with envelope", deviate: "get-with-envelope", b: asmx.HTTPGet, op: asmx.OpReturnProvinces, params: paramsFor(asmx.OpReturnProvinces, "k"),
			checks: []check{hasStatus(200), hasContentType(asmx.ContentTypeXML), bodyMatches(`^<\?xml[^>]*\?><soap:Envelope [^>]*><soap:Body><provinces>`)}},
		{name: "JSON count", deviate: "json-count-off", b: asmx.JSON, op: asmx.OpReturnAtmSearchByCoordinates, params: coords,
			checks: []check{hasStatus(200), hasContentType(asmx.ContentTypeXML), jsonCount(1)}},
		{name: "JSON index", deviate: "json-index-from-1", b: asmx.JSON, op: asmx.OpReturnAtmSearchByCoordinates, params: coords,
			checks: []check{hasStatus(200), bodyContains(`{"index":1,`), bodyLacks(`"index":0,`), jsonCount(0)}},
		{name: "JSON value", deviate: "json-value-differs", b: asmx.JSON, op: asmx.OpReturnAtmSearchByCoordinates, params: coords,
			checks: []check{hasStatus(200), bodyContains(`"atmIdentifier":"ATM-B-X"`)}},
		{name: "fault status", deviate: "faults-with-status-200", opts: []mockserver.Option{mockserver.WithKeys("secret")},
			b: asmx.SOAP11, op: asmx.OpReturnProvinces, params: paramsFor(asmx.OpReturnProvinces, "wrong"),
			checks: []check{hasStatus(200), hasContentType(asmx.ContentTypeSOAP11), bodyContains("<soap:Fault>")}},
		{name: "fault status unchanged for GET", deviate: "faults-with-status-200", opts: []mockserver.Option{mockserver.WithKeys("secret")},
			b: asmx.HTTPGet, op: asmx.OpReturnProvinces, params: paramsFor(asmx.OpReturnProvinces, "wrong"),
			checks: []check{hasStatus(500)}},
		{name: "any key", deviate: "any-key-accepted", opts: []mockserver.Option{mockserver.WithKeys("secret")},
			b: asmx.SOAP12, op: asmx.OpReturnProvinces, params: paramsFor(asmx.OpReturnProvinces, ""),
			checks: []check{hasStatus(200), bodyContains("<province>")}},
		{name: "any key over POST", deviate: "any-key-accepted", opts: []mockserver.Option{mockserver.WithKeys("secret")},
			b: asmx.HTTPPost, op: asmx.OpReturnProvinces, params: paramsFor(asmx.OpReturnProvinces, "wrong"),
			checks: []check{hasStatus(200)}},
		{name: "SOAPAction", deviate: "soapaction-ignored",
			raw:    &rawRequest{"POST", asmx.ServicePath, map[string]string{"Content-Type": asmx.ContentTypeSOAP11, "SOAPAction": `"` + testNS + `/ReturnProvinces"`}, env("1.1", coordsBody)},
			checks: []check{hasStatus(200), bodyContains("<ReturnAtmSearchByCoordinatesResult>")}},
		{name: "WSDL", deviate: "wsdl-parameters-out-of-order", raw: &rawRequest{"GET", asmx.ServicePath + "?WSDL", nil, ""},
			checks: []check{hasStatus(200), bodyMatches(`<s:element name="ReturnAtmSearchByAddress">\s*<s:complexType>\s*<s:sequence>\s*<s:element [^>]*name="strAtmServiceKey"[^>]*/>\s*<s:element [^>]*name="strCity"[^>]*/>\s*<s:element [^>]*name="strAddress"`)}},
		{name: "institution over SOAP", deviate: "institution-ignored", b: asmx.SOAP11, op: asmx.OpReturnAtmSearchByInstitution, params: paramsFor(asmx.OpReturnAtmSearchByInstitution, "k"),
			checks: []check{hasStatus(200), bodyContains("<ReturnAtmSearchByInstitutionResult>"), bodyContains("<count>6</count>")}},
		{name: "institution over GET", deviate: "institution-ignored", b: asmx.HTTPGet, op: asmx.OpReturnAtmSearchByInstitution, params: paramsFor(asmx.OpReturnAtmSearchByInstitution, "k"),
			checks: []check{hasStatus(200), bodyContains("<count>6</count>")}},
		{name: "search node over SOAP 1.2", deviate: "search-node-differs", b: asmx.SOAP12, op: asmx.OpReturnAtmSearchByInstitution, params: paramsFor(asmx.OpReturnAtmSearchByInstitution, "k"),
			checks: []check{hasStatus(200), bodyMatches(`<landmark>[^<]+ \(X\)</landmark>`)}},
		{name: "search node leaves ReturnAllAtms", deviate: "search-node-differs", b: asmx.HTTPGet, op: asmx.OpReturnAllAtms, params: paramsFor(asmx.OpReturnAllAtms, "k"),
			checks: []check{hasStatus(200), bodyContains("<landmark>"), bodyLacks(" (X)")}},
		{name: "typed GET root in no namespace", deviate: "typed-get-root-no-namespace", b: asmx.HTTPGet, op: asmx.OpReturnProvinces, params: paramsFor(asmx.OpReturnProvinces, "k"),
			checks: []check{hasStatus(200), hasContentType(asmx.ContentTypeXML), bodyMatches(`^<\?xml[^>]*\?>\s*<Provinces xmlns:xsd="[^"]+" xmlns:xsi="[^"]+"><province>\s*<code>`), bodyLacks(`xmlns="`)}},
		{name: "typed SOAP content in the service namespace", deviate: "typed-get-root-no-namespace", b: asmx.SOAP11, op: asmx.OpReturnProvinces, params: paramsFor(asmx.OpReturnProvinces, "k"),
			checks: []check{hasStatus(200), bodyMatches(`<ReturnProvincesResult><province xmlns="` + testNS + `">\s*<code>`), bodyLacks("<provinces")}},
		{name: "typed SOAP 1.2 content in another namespace", deviate: "typed-soap12-content-namespace", b: asmx.SOAP12, op: asmx.OpReturnAtmSearchByCity, params: paramsFor(asmx.OpReturnAtmSearchByCity, "k"),
			checks: []check{hasStatus(200), bodyMatches(`<ReturnAtmSearchByCityResult><count xmlns="http://example.invalid/atmData">`), bodyLacks("<atmLocations")}},
		{name: "typed GET root in the service namespace", deviate: "typed-soap12-content-namespace", b: asmx.HTTPPost, op: asmx.OpReturnAtmSearchByCity, params: paramsFor(asmx.OpReturnAtmSearchByCity, "k"),
			checks: []check{hasStatus(200), bodyMatches(`<AtmLocations xmlns:xsd="[^"]+" xmlns:xsi="[^"]+" xmlns="` + testNS + `"><count>`)}},
		{name: "typed faults untouched", deviate: "typed-soap12-content-namespace", opts: []mockserver.Option{mockserver.WithKeys("secret")},
			b: asmx.SOAP12, op: asmx.OpReturnProvinces, params: paramsFor(asmx.OpReturnProvinces, "wrong"),
			checks: []check{hasStatus(500), bodyContains("<soap:Fault>"), bodyLacks("example.invalid")}},
		{name: "no province", deviate: "provinces-empty", b: asmx.HTTPGet, op: asmx.OpReturnProvinces, params: paramsFor(asmx.OpReturnProvinces, "k"),
			checks: []check{hasStatus(200), bodyMatches(`<provinces\b`), bodyLacks("<province>")}},
		{name: "no province over SOAP 1.2", deviate: "provinces-empty", b: asmx.SOAP12, op: asmx.OpReturnProvinces, params: paramsFor(asmx.OpReturnProvinces, "k"),
			checks: []check{hasStatus(200), bodyContains("<ReturnProvincesResult>"), bodyLacks("<province>")}},
		{name: "provinces only", deviate: "provinces-empty", b: asmx.HTTPGet, op: asmx.OpReturnInstitutions, params: paramsFor(asmx.OpReturnInstitutions, "k"),
			checks: []check{hasStatus(200), bodyContains("<institution>")}},
		{name: "xsi:type int", deviate: "xsi-type-changed", opts: []mockserver.Option{mockserver.WithShape(membersShape(t))},
			b: asmx.SOAP11, op: asmx.OpReturnAtmSearchByCity, params: paramsFor(asmx.OpReturnAtmSearchByCity, "k"),
			checks: []check{hasStatus(200), bodyContains(`<Hours xsi:type="xsd:int">`), bodyLacks(`xsi:type="xsd:short"`), bodyContains(`xsi:type="xsd:string"`)}},
		{name: "nils left out", deviate: "nil-dropped", opts: []mockserver.Option{mockserver.WithShape(membersShape(t))},
			b: asmx.HTTPGet, op: asmx.OpReturnAllAtms, params: paramsFor(asmx.OpReturnAllAtms, "k"),
			checks: []check{hasStatus(200), bodyLacks("xsi:nil"), bodyLacks("<Centre"), bodyContains("<Tellers>")}},
		{name: "two at once", deviate: "soap11-envelope-ns,soap11-content-type", b: asmx.SOAP11, op: asmx.OpReturnProvinces, params: paramsFor(asmx.OpReturnProvinces, "k"),
			checks: []check{hasStatus(200), hasContentType(asmx.ContentTypeSOAP12), bodyLacks(asmx.NamespaceSOAP11)}},
	}
	for _, r := range rows {
		t.Run(r.deviate+"/"+r.name, func(t *testing.T) {
			srv := newDeviatingServer(t, strings.Split(r.deviate, ","), r.opts...)
			var got response
			if r.raw != nil {
				got = sendRaw(t, srv.URL, *r.raw)
			} else {
				got = call(t, srv.URL, r.b, r.op, r.params)
			}
			runChecks(t, got, r.checks...)
		})
	}
}

func TestDeviationsChangeLocationLists(t *testing.T) {
	plain := newTestServer(t)
	for _, tc := range []struct {
		deviate string
		b       asmx.Binding
		op      string
		want    func(plain []int) []int
	}{
		{"post-drops-a-location", asmx.HTTPPost, asmx.OpReturnAllAtms, func(p []int) []int { return p[:len(p)-1] }},
		{"soap12-reorders-locations", asmx.SOAP12, asmx.OpReturnAtmSearchByCity, func(p []int) []int {
			q := slices.Clone(p)
			slices.Reverse(q)
			return q
		}},
		// The next three answer as the plain server does to a wider search.
		{"radius-ignored", asmx.JSON, asmx.OpReturnAtmSearchByCoordinates, nil},
		{"address-radius-ignored", asmx.JSON, asmx.OpReturnAtmSearchByAddress, nil},
		{"maximum-ignored", asmx.HTTPGet, asmx.OpReturnAtmSearchByAddressWithMaximum, nil},
	} {
		t.Run(tc.deviate, func(t *testing.T) {
			params, wider, widerParams := paramsFor(tc.op, "k"), tc.op, [][2]string(nil)
			switch tc.deviate {
			case "radius-ignored":
				coords := [][2]string{{"strAtmServiceKey", "k"}, {"strPostalCode", ""}, {"dblLatitude", "44.6488"}, {"dblLongitude", "-63.5752"}, {"bytRadius", "0"}}
				params, widerParams = coords, slices.Clone(coords)
				widerParams[4][1] = "255"
			case "address-radius-ignored":
				params = paramsFor(tc.op, "k")
				params[len(params)-1][1] = "1"
				widerParams = slices.Clone(params)
				widerParams[len(widerParams)-1][1] = "255"
			case "maximum-ignored":
				wider, widerParams = asmx.OpReturnAtmSearchByAddress, paramsFor(asmx.OpReturnAtmSearchByAddress, "k")
			}
			srv := newDeviatingServer(t, []string{tc.deviate})
			p := locationIDs(t, tc.b, tc.op, call(t, plain.URL, tc.b, tc.op, params))
			got := locationIDs(t, tc.b, tc.op, call(t, srv.URL, tc.b, tc.op, params))
			var want []int
			if tc.want != nil {
				want = tc.want(p)
			} else {
				want = locationIDs(t, tc.b, wider, call(t, plain.URL, tc.b, wider, widerParams))
			}
			if !slices.Equal(got, want) {
				t.Errorf("location ids: got %v, want %v (plain %v)", got, want, p)
			}
			if slices.Equal(got, p) {
				t.Errorf("location ids: got %v, the same as without the deviation", got)
			}
		})
	}
}

// locationIDs returns the ids of the locations in an answer, in order. Unlike
// ids it reads XML location nodes without checking their count.
func locationIDs(t *testing.T, b asmx.Binding, op string, r response) []int {
	t.Helper()
	if b == asmx.JSON {
		return jsonIDs(t, op, r)
	}
	if r.status != 200 {
		t.Fatalf("%s %s: status %d: %s", b, op, r.status, r.body)
	}
	out := []int{}
	for _, l := range resultNode(t, b, op, r.body).FindElements(".//location") {
		id, err := strconv.Atoi(l.SelectElement("id").Text())
		if err != nil {
			t.Fatalf("%s %s: location id: %v", b, op, err)
		}
		out = append(out, id)
	}
	return out
}

// TestNoDeviationIsIdentical checks that Wrap with no names is the server
// itself, and that requests a deviation does not touch get the same bytes.
func TestNoDeviationIsIdentical(t *testing.T) {
	h, err := mockserver.New(mockserver.WithDataset(smallDataset()))
	if err != nil {
		t.Fatal(err)
	}
	same, err := Wrap(h)
	if err != nil || same != http.Handler(h) {
		t.Fatalf("Wrap(h): got %v, %v, want h itself", same, err)
	}
	if same, err = Wrap(h, "", " "); err != nil || same != http.Handler(h) {
		t.Fatalf("Wrap(h, blank names): got %v, %v, want h itself", same, err)
	}
	plain := newTestServer(t)
	for _, names := range [][]string{{"json-count-off"}, {"get-content-type"}, {"soap11-envelope-ns", "wsdl-parameters-out-of-order"}} {
		srv := newDeviatingServer(t, names)
		for _, b := range []asmx.Binding{asmx.SOAP12, asmx.HTTPPost} {
			for _, op := range []string{asmx.OpReturnProvinces, asmx.OpReturnAtmSearchByCity} {
				want := call(t, plain.URL, b, op, paramsFor(op, "k"))
				got := call(t, srv.URL, b, op, paramsFor(op, "k"))
				if got != want {
					t.Errorf("%v %s %s: got %d %q %.200q, want the plain %d %q %.200q", names, b, op, got.status, got.ctype, got.body, want.status, want.ctype, want.body)
				}
			}
		}
	}
	// A deviation that touches the binding but has nothing to change
	// (content types of errors) leaves the bytes alone too.
	srv := newDeviatingServer(t, []string{"soap11-content-type"}, mockserver.WithKeys("secret"))
	plainKeyed := newTestServer(t, mockserver.WithKeys("secret"))
	want := call(t, plainKeyed.URL, asmx.SOAP11, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "wrong"))
	if got := call(t, srv.URL, asmx.SOAP11, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "wrong")); got != want {
		t.Errorf("fault: got %d %q %.200q, want %d %q %.200q", got.status, got.ctype, got.body, want.status, want.ctype, want.body)
	}
}

func TestWrapRefusesUnknownNames(t *testing.T) {
	h, err := mockserver.New(mockserver.WithDataset(smallDataset()))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Wrap(h, "soap11-envelope-ns", "soap13-envelope-ns")
	if !errors.Is(err, ErrUnknown) {
		t.Fatalf("got %v, want ErrUnknown", err)
	}
	for _, want := range []string{`"soap13-envelope-ns"`, "valid: soap11-envelope-ns, ", "any-key-accepted"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error: got %q, want it to contain %q", err, want)
		}
	}
}

// TestWrapRefusesNoHandler: a nil handler, or a nil *mockserver.Server
// (from a New whose error went unchecked), is an error, with names or
// without, instead of a handler that panics on every request.
func TestWrapRefusesNoHandler(t *testing.T) {
	var none *mockserver.Server
	for _, c := range []struct {
		h    http.Handler
		want string
	}{{nil, "Wrap(nil)"}, {none, "nil *mockserver.Server"}} {
		for _, names := range [][]string{nil, {"json-count-off"}} {
			h, err := Wrap(c.h, names...)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Wrap(%#v, %q): got %v, %v; want an error containing %q", c.h, names, h, err, c.want)
			}
		}
	}
}

func TestDeviationsAreListed(t *testing.T) {
	ds := List()
	if len(ds) < 12 {
		t.Fatalf("got %d deviations, want at least 12", len(ds))
	}
	seen := map[string]bool{}
	h := http.NotFoundHandler()
	for _, d := range ds {
		if seen[d.Name] || d.Description == "" || strings.ContainsAny(d.Name, " ,") || strings.Contains(d.Description, "\n") {
			t.Errorf("deviation %q (%q): want a unique name without spaces or commas and a one-line description", d.Name, d.Description)
		}
		seen[d.Name] = true
		if _, err := Wrap(h, d.Name); err != nil {
			t.Errorf("Wrap(%q): %v", d.Name, err)
		}
	}
}

// TestWrapKeepsAdminAndHelpPages checks that requests outside the
// bindings pass through, whatever is deviated.
func TestWrapKeepsAdminAndHelpPages(t *testing.T) {
	all := make([]string, 0, len(List()))
	for _, d := range List() {
		all = append(all, d.Name)
	}
	srv := newDeviatingServer(t, all)
	runChecks(t, sendRaw(t, srv.URL, get("/__admin/health")), hasStatus(200), bodyContains(`"status":"ok"`))
	runChecks(t, sendRaw(t, srv.URL, get(asmx.ServicePath)), hasStatus(200), bodyContains("ReturnAtmSearchByAddress"))
}

// TestWSDLDeviationTouchesTheWSDLOnly: the WSDL deviation changes the
// answer to a GET ASMX reads as the WSDL (asmx.ParseDocsQuery), in any
// case, and passes every other documentation GET through byte for byte,
// though its query has a key wsdl: ?wsdl&disco is the help page, a
// ?schema= wins over ?wsdl, ?wsdl=ID asks for an imported description.
func TestWSDLDeviationTouchesTheWSDLOnly(t *testing.T) {
	plain := newTestServer(t)
	srv := newDeviatingServer(t, []string{"wsdl-parameters-out-of-order"})
	for _, q := range []string{"?WSDL", "?wsdl", "?=x&wsdl"} {
		if got, want := sendRaw(t, srv.URL, get(asmx.ServicePath+q)), sendRaw(t, plain.URL, get(asmx.ServicePath+q)); got.body == want.body {
			t.Errorf("%s: the deviation left the WSDL as it was", q)
		}
	}
	same := func(plain, srv *httptest.Server, q string) {
		t.Helper()
		want := sendRaw(t, plain.URL, get(asmx.ServicePath+q))
		want.body = strings.ReplaceAll(want.body, plain.URL, srv.URL)
		if got := sendRaw(t, srv.URL, get(asmx.ServicePath+q)); got != want {
			t.Errorf("%s: got %d %q %.300q, want the plain %d %q %.300q", q, got.status, got.ctype, got.body, want.status, want.ctype, want.body)
		}
	}
	for _, q := range []string{"?wsdl&disco", "?disco&wsdl", "?wsdl&wsdl", "?wsdl&op=ReturnProvinces&disco", "?schema=schema1&wsdl", "?wsdl=wsdl1", "?WSDL=", "?disco"} {
		same(plain, srv, q)
	}
	// A typed DataSet's schema, which ?schema= asks for before ?wsdl.
	sh, err := shape.Load(filepath.Join("..", "shape", "learn", "testdata", "typedds-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const ns = "http://typedds.atmref.example.org/atmService"
	plain = newTestServer(t, mockserver.WithShape(sh), mockserver.WithNamespace(ns))
	srv = newDeviatingServer(t, []string{"wsdl-parameters-out-of-order"}, mockserver.WithShape(sh), mockserver.WithNamespace(ns))
	for _, q := range []string{"?schema=RegionSet", "?schema=RegionSet&wsdl", "?wsdl&schema=RegionSet"} {
		same(plain, srv, q)
	}
}

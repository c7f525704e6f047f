package mockserver_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/deviate"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

const typedNS = "http://example.org/typed/atmService"

func typedShape(t *testing.T) *shape.Shape {
	t.Helper()
	sh, err := shape.Load("testdata/shapes/typed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

// typedServer serves the typed shape over HTTP, wrapped as wrap says.
func typedServer(t *testing.T, wrap func(h http.Handler) http.Handler, opts ...mockserver.Option) *httptest.Server {
	t.Helper()
	var h http.Handler
	h, err := mockserver.New(append([]mockserver.Option{mockserver.WithShape(typedShape(t)), mockserver.WithNamespace(typedNS)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// send calls op in binding b with params (name=value pairs, key first).
func send(t *testing.T, base string, b asmx.Binding, op string, params ...string) (int, string) {
	t.Helper()
	var pairs [][2]string
	for i := 0; i+1 < len(params); i += 2 {
		pairs = append(pairs, [2]string{params[i], params[i+1]})
	}
	status, body := mocktest.Call(t, base, typedNS, b.String(), op, pairs)
	return status, string(body)
}

var searchParams = []string{asmx.ParamKey, "k", asmx.ParamPostalCode, "", asmx.ParamLatitude, "44.648834",
	asmx.ParamLongitude, "-63.575815", asmx.ParamRadius, "1"}

// resultContent returns <OpResult> of a SOAP answer, or the root of a GET/POST one.
func resultContent(t *testing.T, b asmx.Binding, op, body string) *etree.Element {
	t.Helper()
	doc := etree.NewDocument()
	if err := doc.ReadFromString(body); err != nil {
		t.Fatalf("%s over %s: %v in %.300s", op, b, err, body)
	}
	if !b.IsSOAP() {
		return doc.Root()
	}
	r := doc.FindElement("//" + op + "Result")
	if r == nil {
		t.Fatalf("%s over %s: no <%sResult> in %.300s", op, b, op, body)
	}
	return r
}

// TestTypedShapeAnswers: with a typed shape the result is the object in
// every XML binding: <OpResult> holds the fields in SOAP, the GET/POST
// root is named by the type in the service namespace, flags are booleans,
// the index an attribute, a field atmkit has no data for is generated.
func TestTypedShapeAnswers(t *testing.T) {
	t.Parallel()
	srv := typedServer(t, nil)
	for _, b := range asmx.XMLBindings {
		code, body := send(t, srv.URL, b, asmx.OpReturnAtmSearchByCoordinates, searchParams...)
		if code != 200 {
			t.Fatalf("%s: status %d: %s", b, code, body)
		}
		res := resultContent(t, b, asmx.OpReturnAtmSearchByCoordinates, body)
		rows := []struct {
			what, got, want string
		}{
			{"first field", res.ChildElements()[0].Tag, "Count"},
			{"fields' namespace", res.ChildElements()[0].NamespaceURI(), typedNS},
			{"first ATM's index", res.FindElement("Atms/Atm[1]").SelectAttrValue("Index", "?"), "0"},
			{"second ATM's index", res.FindElement("Atms/Atm[2]").SelectAttrValue("Index", "?"), "1"},
			{"a flag", res.FindElement("Atms/Atm[1]/Bank/IsAtlanticCreditUnion").Text(), "false"},
			{"a language", res.FindElement("Atms/Atm[1]/Languages/Code").Text(), "fr"},
			{"the search point", res.FindElement("SearchPoint/Latitude").Text(), "44.648834"},
		}
		if !b.IsSOAP() {
			rows = append(rows, struct{ what, got, want string }{"GET/POST root", res.Tag + " " + res.NamespaceURI(), "AtmResult " + typedNS})
		}
		for _, r := range rows {
			if r.got != r.want {
				t.Errorf("%s, %s: got %q, want %q", b, r.what, r.got, r.want)
			}
		}
		_, body = send(t, srv.URL, b, asmx.OpReturnProvinces, asmx.ParamKey, "k")
		res = resultContent(t, b, asmx.OpReturnProvinces, body)
		if got := res.FindElement("Province[2]/ProvinceId"); got == nil || got.Text() != "2" {
			t.Errorf("%s, generated ProvinceId of the second province: got %v, want 2", b, got)
		}
		_, body = send(t, srv.URL, b, asmx.OpReturnAllAtms, asmx.ParamKey, "k")
		res = resultContent(t, b, asmx.OpReturnAllAtms, body)
		if res.SelectElement("SearchPoint") != nil {
			t.Errorf("%s, ReturnAllAtms: got a SearchPoint, want none (it has no search point)", b)
		}
	}
	// GET ReturnProvinces is the document XmlSerializer writes.
	_, body := send(t, srv.URL, asmx.HTTPGet, asmx.OpReturnProvinces, asmx.ParamKey, "k")
	want := `<?xml version="1.0" encoding="utf-8"?>
<ArrayOfProvince xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="` + typedNS + `">
  <Province>
    <ProvinceId>1</ProvinceId>
    <Code>NB</Code>
    <Name>New Brunswick</Name>
  </Province>`
	want = mocktest.AsDotNetLines(want)
	if !strings.HasPrefix(body, want) {
		t.Errorf("GET ReturnProvinces: got\n%.400s\nwant it to start with\n%s", body, want)
	}
	// The JSON binding is the document's, whatever the shape.
	_, body = send(t, srv.URL, asmx.JSON, asmx.OpReturnAtmSearchByCoordinates, searchParams...)
	if !strings.HasPrefix(body, `{"count":`) {
		t.Errorf("JSON: got %.100q, want the document's JSON object", body)
	}
}

// TestTypedShapeWSDL: the WSDL describes the typed results with
// complexTypes, as ASMX does, so proxies generated from it are typed.
func TestTypedShapeWSDL(t *testing.T) {
	t.Parallel()
	srv := typedServer(t, nil)
	wsdl := string(refdeploy.WSDL(t, srv.URL))
	for _, want := range []string{
		`<s:element minOccurs="0" maxOccurs="1" name="ReturnAllAtmsResult" type="tns:AtmResult" />`,
		`<s:complexType name="ArrayOfProvince">`,
		`<s:element minOccurs="0" maxOccurs="unbounded" name="Province" nillable="true" type="tns:Province" />`,
		`<s:element minOccurs="1" maxOccurs="1" name="ProvinceId" type="s:int" />`,
		`<s:attribute name="Index" type="s:int" use="required" />`,
		`<s:element minOccurs="0" maxOccurs="unbounded" name="Code" nillable="true" type="s:string" />`,
		`<s:element name="AtmResult" nillable="true" type="tns:AtmResult" />`,
		`<wsdl:part name="Body" element="tns:ArrayOfProvince" />`,
	} {
		if !strings.Contains(wsdl, want) {
			t.Errorf("the WSDL lacks %s", want)
		}
	}
	if strings.Count(wsdl, `<s:complexType name="GeoPoint">`) != 1 {
		t.Errorf("GeoPoint: got %d complexTypes, want one", strings.Count(wsdl, `<s:complexType name="GeoPoint">`))
	}
	if strings.Contains(wsdl, "<s:any") {
		t.Errorf("the WSDL of a typed shape has an xs:any result")
	}
}

// TestTypedShapeHelpPage: the help page's samples show the typed fields.
func TestTypedShapeHelpPage(t *testing.T) {
	t.Parallel()
	srv := typedServer(t, nil)
	_, _, body := mocktest.Get(t, srv.URL+asmx.ServicePath+"?op=ReturnAtmSearchByCoordinates")
	page := string(body)
	for _, want := range []string{
		`&lt;ReturnAtmSearchByCoordinatesResult&gt;` + "\n" + `        &lt;Count&gt;<span class="value">int</span>&lt;/Count&gt;`,
		`&lt;Atm Index=&#34;<span class="value">int</span>&#34;&gt;`,
		`&lt;AtmResult xmlns=&#34;` + typedNS + `&#34;&gt;`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the help page lacks %s", want)
		}
	}
}

// TestTypedShapeDeviate: --deviate works on a typed shape: the dropped
// location is an <Atm>.
func TestTypedShapeDeviate(t *testing.T) {
	t.Parallel()
	srv := typedServer(t, func(h http.Handler) http.Handler {
		d, err := deviate.Wrap(h, "post-drops-a-location")
		if err != nil {
			t.Fatal(err)
		}
		return d
	})
	count := func(b asmx.Binding) int {
		_, body := send(t, srv.URL, b, asmx.OpReturnAtmSearchByCoordinates, searchParams...)
		return len(resultContent(t, b, asmx.OpReturnAtmSearchByCoordinates, body).FindElements("Atms/Atm"))
	}
	get, post := count(asmx.HTTPGet), count(asmx.HTTPPost)
	if get < 2 || post != get-1 {
		t.Errorf("got %d ATMs over POST and %d over GET, want one fewer over POST", post, get)
	}
}

// TestTypedShapeOnMissFixtures: a replaying server answers what it has no
// recording of from the data set, in the shape.
func TestTypedShapeOnMissFixtures(t *testing.T) {
	t.Parallel()
	ix, err := cassettes.LoadIndex([]string{"../cassettes/testdata/golden.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ix.Close() })
	srv := typedServer(t, nil, mockserver.WithReplay(ix, mockserver.MissFixtures))
	code, body := send(t, srv.URL, asmx.HTTPGet, asmx.OpReturnAtmSearchByCity, asmx.ParamKey, "k", asmx.ParamCityID, "12345")
	if code != 200 || !strings.Contains(body, "<AtmResult ") {
		t.Errorf("an unrecorded call: got %d %.200q, want 200 with an <AtmResult>", code, body)
	}
}

// TestTypedShapeLongAnswers: answers long enough to be written in pieces
// (with their length computed first) are whole and well-formed in a typed
// shape too.
func TestTypedShapeLongAnswers(t *testing.T) {
	t.Parallel()
	srv := typedServer(t, nil)
	calls := []refdeploy.Call{
		{Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{asmx.ParamPostalCode, ""}, {asmx.ParamLatitude, "44.648834"},
			{asmx.ParamLongitude, "-63.575815"}, {asmx.ParamRadius, "100"}}},
		{Op: asmx.OpReturnAllAtms},
	}
	for _, a := range refdeploy.Collect(t, srv.URL, typedNS, "k", calls, "soap11", "soap12", "get", "post") {
		c := a.Call
		b, err := asmx.ParseBinding(a.Binding)
		if err != nil {
			t.Fatal(err)
		}
		res := resultContent(t, b, c.Op, string(a.Body))
		atms := res.FindElements("Atms/Atm")
		if len(atms) < 300 || res.SelectElement("Count").Text() != fmt.Sprint(len(atms)) {
			t.Errorf("%s over %s: %d ATMs, Count %s: want a long list, counted", c.Op, b, len(atms), res.SelectElement("Count").Text())
		}
		if last := atms[len(atms)-1].SelectAttrValue("Index", ""); last != fmt.Sprint(len(atms)-1) {
			t.Errorf("%s over %s: the last index is %s, want %d", c.Op, b, last, len(atms)-1)
		}
	}
}

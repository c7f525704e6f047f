package mockserver_test

import (
	"bytes"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/learn"
)

// TestStructSearchPoint learns a deployment whose search point is a
// struct (testdata/structpoint: the members site with its Spot a struct,
// its Centre always set, captured from Mono), which it writes in every
// answer, 0 and 0 in a search by city, and serves it over the site's data
// (refstore): the mock's answers are the deployment's byte for byte, the
// search by city's <Centre> included; its ?wsdl's types are the
// deployment's byte for byte: the struct's elements minOccurs 1
// (XmlSchemaExporter: a value type not nullable), as are the decimals',
// beside the site's enum and members declared object. The mock left the
// search point out of the results that have none, and declared the
// struct's elements minOccurs 0, as a class's.
func TestStructSearchPoint(t *testing.T) {
	t.Parallel()
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", "structpoint", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	coords := [][2]string{{"strPostalCode", ""}, {"dblLatitude", "46.0878"}, {"dblLongitude", "-64.7782"}, {"bytRadius", "5"}}
	city := [][2]string{{"intCityID", "21"}}
	in := learn.Input{WSDL: read("wsdl.xml"), Samples: []learn.Sample{
		{Binding: "get", Op: "ReturnAtmSearchByCity", Query: "city", Status: 200, Body: read("city-get.xml"), Where: "city-get.xml"},
		{Binding: "get", Op: "ReturnAtmSearchByCoordinates", Query: "coords", Status: 200, Body: read("coords-get.xml"), Where: "coords-get.xml"},
		{Binding: "json", Op: "ReturnAtmSearchByCoordinates", Query: "coords", Status: 200, Body: read("coords-json.json"), Where: "coords-json.json"},
	}}
	sh, _, err := learn.Learn(in)
	if err != nil {
		t.Fatal(err)
	}
	if y := string(shape.Marshal(sh, "")); !strings.Contains(y, "element: Centre\n        type: Spot\n        struct: true\n        always: true\n") {
		t.Fatalf("the learned shape's Centre is not always written:\n%s", y)
	}
	site := refdeploy.Members
	h, err := mockserver.New(mockserver.WithShape(sh), mockserver.WithNamespace(site.Namespace), mockserver.WithKeys(site.Key), mockserver.WithFixturesDir(refStore))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	for _, c := range []struct {
		op     string
		params [][2]string
		want   string
	}{
		{"ReturnAtmSearchByCity", city, "city-get.xml"},
		{"ReturnAtmSearchByCoordinates", coords, "coords-get.xml"},
	} {
		_, _, got := mocktest.Send(t, srv.URL, site.Namespace, "get", c.op, append([][2]string{{"strAtmServiceKey", site.Key}}, c.params...))
		if want := mocktest.AsDotNetIndentBytes(read(c.want)); !bytes.Equal(got, want) {
			t.Errorf("%s: the mock's answer differs from the deployment's (%s) %s", c.op, c.want, firstDifference(got, want))
		}
	}
	wsdl := wsdlTypesOf(t, refdeploy.WSDL(t, srv.URL))
	if want := wsdlTypesOf(t, mocktest.AsDotNetLinesBytes(read("wsdl.xml"))); wsdl != want {
		t.Errorf("the mock's WSDL types differ from the deployment's %s", firstDifference([]byte(wsdl), []byte(want)))
	}
}

// wsdlTypesOf returns the <wsdl:types> element of a WSDL document.
func wsdlTypesOf(t *testing.T, doc []byte) string {
	t.Helper()
	i, j := bytes.Index(doc, []byte("<wsdl:types>")), bytes.Index(doc, []byte("</wsdl:types>"))
	if i < 0 || j < i {
		t.Fatalf("no <wsdl:types> in %.300s", doc)
	}
	return string(doc[i:j])
}

package mockserver

import (
	"flag"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

var update = flag.Bool("update", false, "rewrite the golden files of the default shape's answers, and docs/admin-page.png (TestAdminPageInChromium)")

// goldenCalls are the calls whose answers over the embedded data set are
// kept in testdata/default-shape: what atmkit served before results were
// shapes (the hand-written encoder wrote them), which the default shape
// must go on serving byte for byte.
var goldenCalls = []struct {
	name   string
	op     string
	params [][2]string
}{
	{"provinces", asmx.OpReturnProvinces, [][2]string{{asmx.ParamKey, "k"}}},
	{"institutions", asmx.OpReturnInstitutions, [][2]string{{asmx.ParamKey, "k"}}},
	{"search", asmx.OpReturnAtmSearchByCoordinates, [][2]string{{asmx.ParamKey, "k"}, {asmx.ParamPostalCode, ""},
		{asmx.ParamLatitude, "44.648834"}, {asmx.ParamLongitude, "-63.575815"}, {asmx.ParamRadius, "1"}}},
	{"empty-city", asmx.OpReturnAtmSearchByCity, [][2]string{{asmx.ParamKey, "k"}, {asmx.ParamCityID, "999999"}}},
	{"address-not-found", asmx.OpReturnAtmSearchByAddress, [][2]string{{asmx.ParamKey, "k"}, {asmx.ParamAddress, "nowhere"},
		{asmx.ParamCity, "Atlantis"}, {asmx.ParamProvince, ""}, {asmx.ParamPostalCode, ""}, {asmx.ParamRadius, "5"}}},
}

// TestDefaultShapeGolden serves the golden calls over real HTTP with the
// default shape and compares every XML binding's body with the golden file.
// The golden files were written by the hand-written encoder atmkit had
// before results were shapes; the shaped encoder was compared with it for
// every operation and binding before it was retired; the SOAP ones were
// rewritten when SOAP answers lost their indentation (SoapServerProtocol's
// XmlTextWriter does not indent), only white space between tags changing.
// Do not -update them unless the default shape is meant to change.
func TestDefaultShapeGolden(t *testing.T) {
	t.Parallel()
	h, err := New(WithNamespace(testNS))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	for _, g := range goldenCalls {
		for _, b := range asmx.XMLBindings {
			path := filepath.Join("testdata", "default-shape", g.name+"-"+b.String()+".xml")
			got := call(t, srv.URL, b, g.op, g.params)
			if got.status != 200 {
				t.Fatalf("%s over %s: status %d: %s", g.op, b, got.status, got.body)
			}
			if *update {
				if err := os.WriteFile(path, []byte(got.body), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -run TestDefaultShapeGolden -update)", err)
			}
			if got.body != string(want) {
				t.Errorf("%s over %s: got\n%s\nwant (%s)\n%s", g.op, b, got.body, path, want)
			}
		}
	}
}

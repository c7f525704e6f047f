package mockserver_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/shape"
)

// layoutQueries are the mock's calls standing for each answer recorded
// from the reference deployment's dataset and attrs sites (in
// shape/learn/testdata/SITE, NAME-BINDING.xml): the same operation, with
// values that find locations (or none, for the ...none answers) in the
// mock's embedded data set.
var layoutQueries = map[string]refdeploy.Call{
	"address": {Op: asmx.OpReturnAtmSearchByAddress, Params: [][2]string{{asmx.ParamAddress, ""}, {asmx.ParamCity, "Moncton"},
		{asmx.ParamProvince, "NB"}, {asmx.ParamPostalCode, ""}, {asmx.ParamRadius, "5"}}},
	"coords1": {Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{asmx.ParamPostalCode, ""}, {asmx.ParamLatitude, "44.648834"},
		{asmx.ParamLongitude, "-63.575815"}, {asmx.ParamRadius, "1"}}},
	"coords2": {Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{asmx.ParamPostalCode, ""}, {asmx.ParamLatitude, "46.0878"},
		{asmx.ParamLongitude, "-64.7782"}, {asmx.ParamRadius, "5"}}},
	"coordsnone": {Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{asmx.ParamPostalCode, ""}, {asmx.ParamLatitude, "10"},
		{asmx.ParamLongitude, "10"}, {asmx.ParamRadius, "1"}}},
	"maximum": {Op: asmx.OpReturnAtmSearchByAddressWithMaximum, Params: [][2]string{{asmx.ParamAddress, ""}, {asmx.ParamCity, "Moncton"},
		{asmx.ParamProvince, "NB"}, {asmx.ParamPostalCode, ""}, {asmx.ParamRadius, "10"}, {asmx.ParamMaximumAtms, "3"}}},
	"institution":     {Op: asmx.OpReturnAtmSearchByInstitution, Params: [][2]string{{asmx.ParamInstitutionID, "1"}}},
	"institutionnone": {Op: asmx.OpReturnAtmSearchByInstitution, Params: [][2]string{{asmx.ParamInstitutionID, "9999"}}},
	"city":            {Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{asmx.ParamCityID, "101"}}},
	"institutions":    {Op: asmx.OpReturnInstitutions},
	"provinces":       {Op: asmx.OpReturnProvinces},
}

// TestLayoutsOfTheReferenceSites serves the shapes of the reference
// deployment's DataSet site and attribute-valued site (shape/testdata)
// and compares the structure of every answer (every element and attribute
// by namespace and name; a DataSet's inline schema whole) with what the
// deployment answered to the same operation, in the four XML bindings
// (its SOAP 1.2 and POST answers hold what its SOAP 1.1 and GET ones do),
// and the WSDL's types with the deployment's.
func TestLayoutsOfTheReferenceSites(t *testing.T) {
	for _, site := range []string{"dataset", "attrs"} {
		t.Run(site, func(t *testing.T) {
			sh, err := shape.Load(filepath.Join("..", "shape", "testdata", site+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			ns := "http://" + site + ".atmref.example.org/atmService"
			srv := serveShape(t, sh, ns)
			dir := filepath.Join("..", "shape", "learn", "testdata", site)
			files, err := filepath.Glob(filepath.Join(dir, "*-*.xml"))
			if err != nil || len(files) < 20 {
				t.Fatalf("recorded answers: %v, %d files", err, len(files))
			}
			for _, f := range files {
				name, binding, _ := strings.Cut(strings.TrimSuffix(filepath.Base(f), ".xml"), "-")
				q, ok := layoutQueries[name]
				if !ok {
					t.Fatalf("no query stands for %s", f)
				}
				recorded, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				want, err := mocktest.Structure(recorded)
				if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				also := map[string]string{"soap11": "soap12", "get": "post"}[binding]
				for _, b := range []string{binding, also} {
					status, body := mocktest.Call(t, srv.URL, ns, b, q.Op, append([][2]string{{asmx.ParamKey, "k"}}, q.Params...))
					if status != 200 {
						t.Fatalf("%s over %s: %d %.300s", q.Op, b, status, body)
					}
					got, err := mocktest.Structure(body)
					if err != nil {
						t.Fatalf("%s over %s: %v in %.300s", q.Op, b, err, body)
					}
					if b == "soap12" { // the one difference: the envelope's namespace
						got = strings.ReplaceAll(got, asmx.NamespaceSOAP12, asmx.NamespaceSOAP11)
					}
					if got != want {
						t.Errorf("%s over %s, as %s: the structure differs from the deployment's:\n%s\nwant\n%s", q.Op, b, f, got, want)
					}
				}
			}
			recorded, err := os.ReadFile(filepath.Join(dir, "wsdl.xml"))
			if err != nil {
				t.Fatal(err)
			}
			want, err := mocktest.WSDLTypes(recorded)
			if err != nil {
				t.Fatal(err)
			}
			got, err := mocktest.WSDLTypes(refdeploy.WSDL(t, srv.URL))
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("the WSDL's types differ from the deployment's:\n%s\nwant\n%s", got, want)
			}
		})
	}
}

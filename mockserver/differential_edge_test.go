package mockserver_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/refdeploy"
)

// edgeStore is refStore with values at the edges of what a service's
// data holds: XML's special characters (& < > " ' and ]]>), characters
// beyond the BMP, a combining accent, U+2028 and U+2029, leading,
// trailing and repeated spaces, a tab, CR and LF in values, a value of
// 10,000 characters, control characters, U+FFFE and U+FFFF (in element
// text, and in the attrs site's attributes: its provinces' labels), a
// latitude of 17 significant digits, and the largest 32-bit ids (an
// ATM's, an institution's).
const edgeStore = "testdata/edgestore"

// edgeCalls are refdeploy.Calls and searches by coordinates whose point
// the JSON answer repeats at the edges of a double's forms (-0, 1E-07,
// the poles and the antimeridian, 0.1+0.2), and around the ATMs of the
// edge values (the JSON binding answers only searches).
var edgeCalls = append(append([]refdeploy.Call(nil), refdeploy.Calls...),
	refdeploy.Call{Op: "ReturnAtmSearchByCoordinates", Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "-0"}, {"dblLongitude", "1E-07"}, {"bytRadius", "0"}}},
	refdeploy.Call{Op: "ReturnAtmSearchByCoordinates", Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "90"}, {"dblLongitude", "-180"}, {"bytRadius", "1"}}},
	refdeploy.Call{Op: "ReturnAtmSearchByCoordinates", Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "-90"}, {"dblLongitude", "180"}, {"bytRadius", "0"}}},
	refdeploy.Call{Op: "ReturnAtmSearchByCoordinates", Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "0.30000000000000004"}, {"dblLongitude", "0"}, {"bytRadius", "0"}}},
	refdeploy.Call{Op: "ReturnAtmSearchByCoordinates", Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "44.300000000000004"}, {"dblLongitude", "-63.592648"}, {"bytRadius", "1"}}},
	refdeploy.Call{Op: "ReturnAtmSearchByCoordinates", Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "44.6488"}, {"dblLongitude", "-63.5752"}, {"bytRadius", "10"}}},
)

// TestDifferentialEdgeValues serves edgeStore from a reference
// deployment of its own (its shared store's data replaced by edgeStore's,
// as C# literals: storeFrom) and from the mock, and compares the answers
// of the sites of edgeSites to edgeCalls in every binding
// byte for byte, as TestDifferentialLearnedSites compares refStore's:
// the mock serves the shape learned from the shared deployment's answers
// over refStore (edge values are no evidence of which field a value is),
// JSON answers are compared by value (learnedSite.jsonValues), and
// Mono's negative zero in a DataSet is .NET's (negativeZero).
func TestDifferentialEdgeValues(t *testing.T) {
	t.Parallel()
	refdeploy.Require(t)
	ds, err := fixtures.Load(edgeStore)
	if err != nil {
		t.Fatal(err)
	}
	learned := refdeploy.Shared(t)
	d := refdeploy.Start(t, storeFrom(ds))
	for _, site := range edgeSites {
		t.Run(site.Name, func(t *testing.T) {
			t.Parallel()
			learned.Warm(site)
			d.Warm(site)
			ls := learnedSite{site: site, store: edgeStore, calls: edgeCalls, learnFrom: learned.SiteURL(site.Name), jsonValues: true, monoFix: negativeZero}
			if n := compareLearned(t, d.SiteURL(site.Name), ls); n != 69 {
				t.Errorf("%d answers compared; want 69", n)
			}
		})
	}
}

// negativeZero is a DataSet site's answer to the search at latitude -0
// over SOAP as .NET writes it: XmlConvert.ToDouble reads a SOAP "-0" as
// negative zero, and a DataSet writes a double column's value with
// XmlConvert.ToString (DoubleStorage.ConvertObjectToXml), which writes
// it as -0 (IsNegativeZero); Mono's writes 0 (the searched latitude: the
// dataset site's SearchLat element, the sets site's Lat attribute). GET
// and POST read "-0" with Double.Parse, zero on .NET Framework, written
// 0 by both.
func negativeZero(what string, body []byte) []byte {
	if !strings.Contains(what, "[dblLatitude -0]") || !strings.Contains(what, " over soap") || !bytes.Contains(body, []byte("<diffgr:diffgram")) {
		return body
	}
	return searchedLatZero.ReplaceAll(body, []byte("$1-0$2"))
}

// searchedLatZero is a DataSet's searched latitude of 0: the element
// SearchLat or the attribute Lat.
var searchedLatZero = regexp.MustCompile(`(<SearchLat>|\sLat=")0(</SearchLat>|")`)

// edgeSites are the sites TestDifferentialEdgeValues compares: those
// that share the store but the spaces site, whose generated values
// (generatedValues) name the institutions by refStore's names.
var edgeSites = []refdeploy.Site{refdeploy.Typed, refdeploy.DataSets, refdeploy.Attrs, refdeploy.Layered, refdeploy.Nodes, refdeploy.Sets}

// storeFrom replaces the data of the shared store (the Store.cs of each
// site that compiles it) with ds's provinces, institutions and ATMs.
func storeFrom(ds *fixtures.Dataset) refdeploy.Option {
	var provinces, institutions, atms strings.Builder
	for i, p := range ds.Provinces {
		fmt.Fprintf(&provinces, "            new Province { ProvinceId = %d, Code = %s, Name = %s },\n", i+1, csString(p.Code), csString(p.Name))
	}
	for _, in := range ds.Institutions {
		fmt.Fprintf(&institutions, "            new Institution { InstitutionId = %d, Name = %s, Url = %s, IsAtlanticCreditUnion = %t },\n",
			in.ID, csString(in.Name), csString(in.URL), in.IsAtlanticCreditUnion == 1)
	}
	for _, a := range ds.ATMs {
		langs := make([]string, len(a.Languages))
		for i, l := range a.Languages {
			langs[i] = csString(l)
		}
		ad, f, cc := a.Address, a.Features, a.CreditCards
		fmt.Fprintf(&atms, "            A(%d, %s, %d, %d, %s, %s, %s, %s, %s, %s, %s, %t, %d, %t, %t, %t, %t, %t, %t, %t, new[] {%s}),\n",
			a.ID, csString(a.ATMIdentifier), a.InstitutionID, a.CityID, csDouble(a.Coordinates.Latitude), csDouble(a.Coordinates.Longitude),
			csString(ad.StreetAddress), csString(ad.City), csString(ad.Province), csString(ad.PostalCode), csString(ad.Landmark),
			f.Deposits == 1, f.Hours, f.DriveThru == 1, f.PinChange == 1, f.VoiceGuidance == 1,
			cc.Visa == 1, cc.Plus == 1, cc.Mastercard == 1, cc.Cirrus == 1, strings.Join(langs, ", "))
	}
	blocks := [][2]string{
		{"public static readonly Province[] Provinces = {\n", provinces.String()},
		{"public static readonly Institution[] Institutions = {\n", institutions.String()},
		{"public static readonly Record[] Atms = {\n", atms.String()},
	}
	return func(sitesDir string) error {
		for _, site := range edgeSites {
			file := filepath.Join(sitesDir, site.Name, "App_Code", "Store.cs")
			data, err := os.ReadFile(file)
			if err != nil {
				return fmt.Errorf("edge store: %w", err)
			}
			src := string(data)
			for _, b := range blocks {
				from := strings.Index(src, b[0])
				to := strings.Index(src[from+1:], "        };\n") + from + 1
				if from < 0 || to <= from {
					return fmt.Errorf("edge store: no %q in %s", b[0], file)
				}
				src = src[:from+len(b[0])] + b[1] + src[to:]
			}
			if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
				return fmt.Errorf("edge store: %w", err)
			}
		}
		return nil
	}
}

// csString is s as a C# string literal: printable ASCII as it is, every
// other UTF-16 code unit as \uXXXX.
func csString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, u := range utf16.Encode([]rune(s)) {
		switch {
		case u == '"' || u == '\\':
			b.WriteByte('\\')
			b.WriteByte(byte(u))
		case u >= 0x20 && u < 0x7f:
			b.WriteByte(byte(u))
		default:
			fmt.Fprintf(&b, `\u%04x`, u)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// csDouble is f as a C# double literal that reads back as f.
func csDouble(f float64) string { return strconv.FormatFloat(f, 'e', -1, 64) }

// sameJSON fails t unless got and want, JSON answers, hold the same
// values.
func sameJSON(t *testing.T, what string, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Errorf("%s: the mock's answer: %v", what, err)
		return
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Errorf("%s: the deployment's answer: %v", what, err)
		return
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s: the mock's answer's values differ from the deployment's %s", what, firstDifference(got, want))
	}
}

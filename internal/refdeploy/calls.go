package refdeploy

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/mocktest"
)

// keyParam is the document's name of the service key parameter.
const keyParam = "strAtmServiceKey"

// Call is one question to the service: an operation and its parameters but
// the key, in the document's order.
type Call struct {
	Op     string
	Params [][2]string
}

// String names the call in a test's messages: the operation and its
// parameters.
func (c Call) String() string { return fmt.Sprint(c.Op, c.Params) }

// Calls ask the typed site (Root) every operation with values its data
// answers with locations (two searches by coordinates, one of them around
// a city with few ATMs).
var Calls = []Call{
	{"ReturnAllAtms", nil},
	{"ReturnAtmSearchByAddress", [][2]string{{"strAddress", ""}, {"strCity", "Halifax"}, {"strProvince", "NS"}, {"strPostalCode", ""}, {"bytRadius", "5"}}},
	{"ReturnAtmSearchByCoordinates", [][2]string{{"strPostalCode", ""}, {"dblLatitude", "44.6488"}, {"dblLongitude", "-63.5752"}, {"bytRadius", "3"}}},
	{"ReturnAtmSearchByCoordinates", [][2]string{{"strPostalCode", ""}, {"dblLatitude", "46.0878"}, {"dblLongitude", "-64.7782"}, {"bytRadius", "5"}}},
	{"ReturnAtmSearchByAddressWithMaximum", [][2]string{{"strAddress", ""}, {"strCity", "Moncton"}, {"strProvince", "NB"}, {"strPostalCode", ""}, {"bytRadius", "10"}, {"intMaximumAtms", "3"}}},
	{"ReturnAtmSearchByInstitution", [][2]string{{"intInstitutionID", "300"}}},
	{"ReturnAtmSearchByCity", [][2]string{{"intCityID", "21"}}},
	{"ReturnInstitutions", nil},
	{"ReturnProvinces", nil},
}

// LegacyCalls ask the legacy site, whose data is its own
// (testdata/legacy/App_Code/Store.cs), what Calls ask the others: every
// operation, with values its data answers with locations.
var LegacyCalls = []Call{
	{"ReturnAllAtms", nil},
	{"ReturnAtmSearchByAddress", [][2]string{{"strAddress", ""}, {"strCity", "Saint John"}, {"strProvince", "NB"}, {"strPostalCode", ""}, {"bytRadius", "5"}}},
	{"ReturnAtmSearchByCoordinates", [][2]string{{"strPostalCode", ""}, {"dblLatitude", "45.309129"}, {"dblLongitude", "-66.071714"}, {"bytRadius", "3"}}},
	{"ReturnAtmSearchByCoordinates", [][2]string{{"strPostalCode", ""}, {"dblLatitude", "46.143036"}, {"dblLongitude", "-60.179701"}, {"bytRadius", "5"}}},
	{"ReturnAtmSearchByAddressWithMaximum", [][2]string{{"strAddress", ""}, {"strCity", "Saint John"}, {"strProvince", "NB"}, {"strPostalCode", ""}, {"bytRadius", "10"}, {"intMaximumAtms", "3"}}},
	{"ReturnAtmSearchByInstitution", [][2]string{{"intInstitutionID", "9"}}},
	{"ReturnAtmSearchByCity", [][2]string{{"intCityID", "3"}}},
	{"ReturnInstitutions", nil},
	{"ReturnProvinces", nil},
}

// Answer is what a service answered to a call in one binding.
type Answer struct {
	Call Call
	// Binding is the binding's name: soap11, soap12, get, post or json.
	Binding     string
	Status      int
	ContentType string
	Body        []byte
}

// Collect sends each of calls with key to the service at base in namespace
// ns (a reference deployment, the mock, or a recording proxy in front of
// either), in every binding the document offers its operation in
// (mocktest.BindingsOf), or in those of them named in bindings if any are
// given, one call after another, as a client generated from the WSDL sends
// them. It returns the answers in that order, and fails tb when a call gets
// no answer or one other than 200.
func Collect(tb testing.TB, base, ns, key string, calls []Call, bindings ...string) []Answer {
	tb.Helper()
	var out []Answer
	for _, c := range calls {
		for _, b := range mocktest.BindingsOf(c.Op) {
			if len(bindings) > 0 && !slices.Contains(bindings, b) {
				continue
			}
			status, ct, body := mocktest.Send(tb, base, ns, b, c.Op, append([][2]string{{keyParam, key}}, c.Params...))
			if status != http.StatusOK {
				tb.Fatalf("%s over %s: status %d: %.600s", c, b, status, PageText(string(body)))
			}
			out = append(out, Answer{Call: c, Binding: b, Status: status, ContentType: ct, Body: body})
		}
	}
	return out
}

// WSDL returns the WSDL the service at base serves (base + ServicePath +
// "?WSDL"), failing tb unless it answers 200.
func WSDL(tb testing.TB, base string) []byte {
	tb.Helper()
	resp, err := http.Get(base + ServicePath + "?WSDL")
	if err != nil {
		tb.Fatalf("the WSDL: %v", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("the WSDL: %v", err)
	}
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("the WSDL: status %d: %.300s", resp.StatusCode, body)
	}
	return body
}

// PageText is body as text when it is an HTML page (ASP.NET's error page:
// its style block and markup dropped, white space collapsed, so that the
// exception it names shows within a line of a test's failure), else body.
func PageText(body string) string {
	if !strings.Contains(body, "<html") {
		return body
	}
	t := styleBlock.ReplaceAllString(body, " ")
	t = markup.ReplaceAllString(t, " ")
	return strings.Join(strings.Fields(html.UnescapeString(t)), " ")
}

var (
	styleBlock = regexp.MustCompile(`(?is)<style[^>]*>.*?</style>`)
	markup     = regexp.MustCompile(`(?s)<[^>]*>`)
)

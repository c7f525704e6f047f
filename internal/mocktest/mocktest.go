// Package mocktest holds what atmkit's tests share to talk to a service
// (the mock, the handlers that wrap it, a reference deployment, a proxy):
// a small hand-made data set and the calls a client sends in each binding.
// It is for tests only.
package mocktest

import (
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
)

// SmallDataset is a hand-made data set whose distances are easy to reason
// about: ATMs 1-4 around Halifax, 5 in Moncton, 6 in Charlottetown.
func SmallDataset() *fixtures.Dataset {
	atm := func(id, inst, city int, lat, lon float64, street, cityName, prov, postal string, langs ...string) fixtures.ATM {
		return fixtures.ATM{
			ID: id, ATMIdentifier: "ATM-" + string(rune('A'+id)), InstitutionID: inst, CityID: city,
			Coordinates: fixtures.Coordinates{Latitude: lat, Longitude: lon},
			Address:     fixtures.Address{StreetAddress: street, City: cityName, Province: prov, PostalCode: postal, Landmark: "Near <the> & \"park\""},
			Features:    fixtures.Features{Deposits: 1, Hours: 2, DriveThru: 0, PinChange: 1, VoiceGuidance: 0},
			CreditCards: fixtures.CreditCards{Visa: 1, Plus: 0, Mastercard: 1, Cirrus: 0},
			Languages:   langs,
		}
	}
	return &fixtures.Dataset{
		Provinces: []fixtures.Province{
			{Code: "NB", Name: "New Brunswick", PostalPrefixes: "E", Atlantic: true},
			{Code: "NS", Name: "Nova Scotia", PostalPrefixes: "B", Atlantic: true},
			{Code: "PE", Name: "Prince Edward Island", PostalPrefixes: "C", Atlantic: true},
			{Code: "NL", Name: "Newfoundland and Labrador", PostalPrefixes: "A", Atlantic: true},
			{Code: "ON", Name: "Ontario", PostalPrefixes: "KLMNP"},
		},
		Institutions: []fixtures.Institution{
			{ID: 1, Name: "Bank of Halifax", URL: "https://bank.example", Kind: "bank", HomeProvince: "ON"},
			{ID: 2, Name: "Coastal Credit Union", URL: "", IsAtlanticCreditUnion: 1, Kind: "creditUnion", HomeProvince: "NS"},
		},
		Cities: []fixtures.City{
			{ID: 10, Name: "Halifax", Province: "NS", Latitude: 44.6488, Longitude: -63.5752},
			{ID: 20, Name: "Moncton", Province: "NB", Latitude: 46.0878, Longitude: -64.7782},
			{ID: 30, Name: "Charlottetown", Province: "PE", Latitude: 46.2382, Longitude: -63.1311},
		},
		ATMs: []fixtures.ATM{
			atm(1, 1, 10, 44.6488, -63.5752, "1 Barrington St", "Halifax", "NS", "B3J 1A1", "en"),
			atm(2, 2, 10, 44.6578, -63.5752, "2 Spring Garden Rd", "Halifax", "NS", "B3J 2B2", "en", "fr"),
			atm(3, 1, 10, 44.6578, -63.5752, "3 South Park St", "Halifax", "NS", "B3H 3C3", "en"),
			atm(4, 2, 10, 44.7388, -63.5752, "4 Bedford Hwy", "Halifax", "NS", "B4A 4E4", "en"),
			atm(5, 1, 20, 46.0878, -64.7782, "5 Main St", "Moncton", "NB", "E1C 5E5", "fr", "en"),
			atm(6, 2, 30, 46.2382, -63.1311, "6 Queen St", "Charlottetown", "PE", "C1A 6G6", "en"),
		},
	}
}

// ParamsFor gives parameters for every operation that find locations in
// SmallDataset, the key first.
func ParamsFor(op, key string) [][2]string {
	k := [2]string{asmx.ParamKey, key}
	switch op {
	case asmx.OpReturnAtmSearchByAddress:
		return [][2]string{k, {"strAddress", ""}, {"strCity", "Halifax"}, {"strProvince", "NS"}, {"strPostalCode", ""}, {"bytRadius", "15"}}
	case asmx.OpReturnAtmSearchByCoordinates:
		return [][2]string{k, {"strPostalCode", ""}, {"dblLatitude", "44.6488"}, {"dblLongitude", "-63.5752"}, {"bytRadius", "15"}}
	case asmx.OpReturnAtmSearchByAddressWithMaximum:
		return [][2]string{k, {"strAddress", ""}, {"strCity", "Halifax"}, {"strProvince", "NS"}, {"strPostalCode", ""}, {"bytRadius", "15"}, {"intMaximumAtms", "2"}}
	case asmx.OpReturnAtmSearchByInstitution:
		return [][2]string{k, {"intInstitutionID", "2"}}
	case asmx.OpReturnAtmSearchByCity:
		return [][2]string{k, {"intCityID", "10"}}
	}
	return [][2]string{k}
}

// SOAPEnvelope builds a SOAP request body by hand, the operation in
// namespace ns, the parameters in the given order, their values as given
// (not escaped).
func SOAPEnvelope(b asmx.Binding, ns, op string, params [][2]string) string {
	env := asmx.NamespaceSOAP11
	if b == asmx.SOAP12 {
		env = asmx.NamespaceSOAP12
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="%s"><soap:Body><%s xmlns="%s">`, env, op, ns)
	for _, p := range params {
		fmt.Fprintf(&sb, "<%s>%s</%s>", p[0], p[1], p[0])
	}
	fmt.Fprintf(&sb, "</%s></soap:Body></soap:Envelope>", op)
	return sb.String()
}

// NewRequest is the request of op with params in binding b, to the service
// at base in namespace ns, as a client generated from the WSDL sends it.
func NewRequest(base string, b asmx.Binding, ns, op string, params [][2]string) (*http.Request, error) {
	form := url.Values{}
	for _, p := range params {
		form.Add(p[0], p[1])
	}
	switch b {
	case asmx.SOAP11, asmx.SOAP12:
		req, err := http.NewRequest("POST", base+asmx.ServicePath, strings.NewReader(SOAPEnvelope(b, ns, op, params)))
		if err != nil {
			return nil, err
		}
		if b == asmx.SOAP11 {
			req.Header.Set("Content-Type", asmx.ContentTypeSOAP11)
			req.Header.Set("SOAPAction", `"`+ns+"/"+op+`"`)
		} else {
			req.Header.Set("Content-Type", asmx.ContentTypeSOAP12)
		}
		return req, nil
	case asmx.HTTPGet:
		return http.NewRequest("GET", base+asmx.ServicePath+"/"+op+"?"+form.Encode(), nil)
	case asmx.HTTPPost:
		req, err := http.NewRequest("POST", base+asmx.ServicePath+"/"+op, strings.NewReader(form.Encode()))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", asmx.ContentTypeForm)
		return req, nil
	case asmx.JSON:
		return http.NewRequest("GET", base+asmx.JSONPath+"/"+op+"?"+form.Encode(), nil)
	}
	return nil, fmt.Errorf("binding %v: unknown", b)
}

// Call sends op with params in binding b to the service at base (the mock,
// a reference deployment or a proxy in front of either) in namespace ns,
// as NewRequest builds it, and returns the answer's status and body.
func Call(tb testing.TB, base, ns string, b asmx.Binding, op string, params [][2]string) (int, []byte) {
	tb.Helper()
	status, _, body := Send(tb, base, ns, b, op, params)
	return status, body
}

// Send is Call that returns the answer's content type too.
func Send(tb testing.TB, base, ns string, b asmx.Binding, op string, params [][2]string) (status int, contentType string, body []byte) {
	tb.Helper()
	req, err := NewRequest(base, b, ns, op, params)
	if err != nil {
		tb.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("%s over %s: %v", op, b, err)
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("%s over %s: read the answer: %v", op, b, err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type"), body
}

// ClosedPort returns the base URL (http://127.0.0.1:PORT) of a loopback
// port that refuses connections until tb ends. A socket bound to the port,
// but not listening, holds it: a port closed after listening may be handed
// to another server of the test binary (tests run in parallel), which
// would then answer.
func ClosedPort(tb testing.TB) string {
	tb.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		tb.Fatalf("closed port: %v", err)
	}
	tb.Cleanup(func() { _ = syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		tb.Fatalf("closed port: bind: %v", err)
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		tb.Fatalf("closed port: %v", err)
	}
	return fmt.Sprintf("http://127.0.0.1:%d", sa.(*syscall.SockaddrInet4).Port)
}

// MoreParallel lets up to perCPU parallel tests per CPU run at once, unless
// the command line gives -parallel (whose default is one per CPU): for a
// test binary whose tests wait much of the time, on child processes,
// servers shutting down or clients giving up. TestMain calls it before
// m.Run.
func MoreParallel(perCPU int) {
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(perCPU*runtime.GOMAXPROCS(0)))
	}
}

// LoadWindow is d, or five times d under the race detector: how long a
// test's load run measures, long enough to count requests however slowly
// a loaded machine answers.
func LoadWindow(d time.Duration) time.Duration {
	if Race {
		return 5 * d
	}
	return d
}

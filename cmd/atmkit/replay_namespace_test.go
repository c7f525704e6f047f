package main

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/mocktest"
)

// A cassette recorded from a deployment in a namespace of its own replays
// its SOAP calls without --namespace: serve takes the namespace the calls
// were recorded in, so the deployment's SOAPActions are the mock's. A
// --namespace given wins.
func TestServeReplayTakesTheCassettesNamespace(t *testing.T) {
	t.Parallel()
	const ns = "http://atmref.example.org/atmService"
	cassette := filepath.Join("..", "..", "cassettes", "testdata", "reference-typed.yaml")
	params := mocktest.ParamsFor("ReturnProvinces", "any-key")

	base, _, _ := startServe(t, nil, "--replay", cassette)
	status, body := mocktest.Call(t, base, ns, "soap11", "ReturnProvinces", params)
	if status != http.StatusOK || !strings.Contains(string(body), "<Code>NB</Code>") {
		t.Errorf("SOAP 1.1 call in the cassette's namespace: got %d %.300q, want 200 and the recorded provinces", status, body)
	}
	if status, wsdl := get(t, base+"/service/service.asmx?WSDL", ""); status != http.StatusOK || !strings.Contains(wsdl, `targetNamespace="`+ns+`"`) {
		t.Errorf("WSDL: got %d, want 200 with targetNamespace %q", status, ns)
	}

	base, _, _ = startServe(t, nil, "--replay", cassette, "--namespace", "http://tempuri.org/")
	if status, body := mocktest.Call(t, base, ns, "soap11", "ReturnProvinces", params); status != http.StatusInternalServerError || !strings.Contains(string(body), "SOAPAction") {
		t.Errorf("with --namespace http://tempuri.org/: got %d %.300q, want 500 naming the SOAPAction it does not recognize", status, body)
	}
}

// A mock told another namespace than the cassettes were recorded in
// (--namespace) is a deployment in that namespace throughout: its WSDL,
// its routing and the answers it replays. A client of that namespace
// reads the recorded results, in every XML binding, not an answer in the
// recorded namespace its XmlSerializer would skip.
func TestServeReplayAnswersInTheGivenNamespace(t *testing.T) {
	t.Parallel()
	const recordedNS, ns = "http://atmref.example.org/atmService", "http://tempuri.org/other"
	cassette := filepath.Join("..", "..", "cassettes", "testdata", "reference-typed.yaml")
	base, _, stderr := startServe(t, nil, "--replay", cassette, "--namespace", ns)
	if want := "recorded in " + recordedNS + "; their answers are served in " + ns; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr: got %q, want it to say %q", stderr.String(), want)
	}

	if status, wsdl := get(t, base+"/service/service.asmx?WSDL", ""); status != http.StatusOK || !strings.Contains(wsdl, `targetNamespace="`+ns+`"`) {
		t.Errorf("WSDL: got %d, want 200 with targetNamespace %q", status, ns)
	}
	provinces := mocktest.ParamsFor("ReturnProvinces", "any-key")
	search := [][2]string{{"strAtmServiceKey", "any-key"}, {"strPostalCode", ""}, {"dblLatitude", "44.6488"}, {"dblLongitude", "-63.5752"}, {"bytRadius", "3"}}
	for _, tc := range []struct {
		binding, op string
		params      [][2]string
		want        string // the result's start, in ns
	}{
		{"soap11", "ReturnProvinces", provinces, `<ReturnProvincesResponse xmlns="` + ns + `"><ReturnProvincesResult><Province>`},
		{"soap12", "ReturnProvinces", provinces, `<ReturnProvincesResponse xmlns="` + ns + `"><ReturnProvincesResult><Province>`},
		{"soap11", "ReturnAtmSearchByCoordinates", search, `<ReturnAtmSearchByCoordinatesResponse xmlns="` + ns + `"><ReturnAtmSearchByCoordinatesResult><Count>3</Count>`},
		{"get", "ReturnAtmSearchByCoordinates", search, `xmlns="` + ns + `">`},
		{"post", "ReturnAtmSearchByCoordinates", search, `xmlns="` + ns + `">`},
		{"get", "ReturnProvinces", provinces, `<ArrayOfProvince xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="` + ns + `">`},
	} {
		status, body := mocktest.Call(t, base, ns, tc.binding, tc.op, tc.params)
		switch {
		case status != http.StatusOK:
			t.Errorf("%s %s: got %d %.300q, want 200", tc.binding, tc.op, status, body)
		case !strings.Contains(string(body), tc.want):
			t.Errorf("%s %s: got %.400q, want it to hold %q", tc.binding, tc.op, body, tc.want)
		case strings.Contains(string(body), recordedNS):
			t.Errorf("%s %s: got %.400q, want no trace of the recorded namespace %s", tc.binding, tc.op, body, recordedNS)
		}
	}
}

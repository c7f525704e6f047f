package mockserver_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
)

// What the tests of this package share: a mock serving a shape, a GET of
// one of its paths, and the YAML around a test's own result.

// serveShape serves a mock answering in sh, in namespace ns, set up
// further by opts, until the test ends.
func serveShape(t *testing.T, sh *shape.Shape, ns string, opts ...mockserver.Option) *httptest.Server {
	t.Helper()
	h, err := mockserver.New(append([]mockserver.Option{mockserver.WithShape(sh), mockserver.WithNamespace(ns)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// serveShapeYAML is serveShape of the shape whose YAML is src.
func serveShapeYAML(t *testing.T, src, ns string) *httptest.Server {
	t.Helper()
	sh, err := shape.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return serveShape(t, sh, ns)
}

// getOK is the body of a GET of url, which must be answered 200 OK.
func getOK(t *testing.T, url string) []byte {
	t.Helper()
	status, _, body := mocktest.Get(t, url)
	if status != http.StatusOK {
		t.Fatalf("GET %s: %d %.300s", url, status, body)
	}
	return body
}

// findingHead starts the YAML of a shape whose first result, Finding, is
// typed, in the service namespace, with root element Finding: its fields
// follow.
const findingHead = `version: 1
results:
  Finding:
    layout: typed
    namespace: service
    root: Finding
    fields:
`

// banks is a typed result Banks (YAML, under results:) for
// ReturnInstitutions.
const banks = `  Banks:
    layout: typed
    namespace: service
    root: Banks
    fields:
      - list: institutions
        item: {element: Bank, fields: [{element: Id, type: int, value: id}]}
`

// banksAreas are banks and a typed result Areas for ReturnProvinces.
const banksAreas = banks + `  Areas:
    layout: typed
    namespace: service
    root: Areas
    fields:
      - list: provinces
        item: {element: Area, fields: [{element: Code, type: string, value: code}]}
`

// findingBanksAreas ends a shape's results (YAML, under results:) that
// define a Finding result: banksAreas, and the operations, Finding
// answering every search and ReturnAllAtms.
var findingBanksAreas = banksAreas + operationsOf("Finding", "Banks", "Areas")

// operationsOf maps every operation to a result, for a shape's YAML:
// locations' to the one named locations, ReturnInstitutions to
// institutions, ReturnProvinces to provinces.
func operationsOf(locations, institutions, provinces string) string {
	return "operations:\n" +
		"  ReturnAllAtms: " + locations + "\n" +
		"  ReturnAtmSearchByAddress: " + locations + "\n" +
		"  ReturnAtmSearchByCoordinates: " + locations + "\n" +
		"  ReturnAtmSearchByAddressWithMaximum: " + locations + "\n" +
		"  ReturnAtmSearchByInstitution: " + locations + "\n" +
		"  ReturnAtmSearchByCity: " + locations + "\n" +
		"  ReturnInstitutions: " + institutions + "\n" +
		"  ReturnProvinces: " + provinces + "\n"
}

package mockserver

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/shape"
)

// twoResultsShape gives ReturnAllAtms and the searches results of their
// own, whose location items differ only in their element's name, written
// alike everywhere else (same depth, namespaces and prefixes).
const twoResultsShape = `version: 1
results:
  AllAtms:
    layout: typed
    namespace: service
    root: AllAtms
    fields:
      - element: Atms
        list: locations
        item:
          element: Atm
          type: Atm
          fields:
            - {element: Id, type: int, value: id}
  Found:
    layout: typed
    namespace: service
    root: Found
    fields:
      - element: Atms
        list: locations
        item:
          element: Spot
          type: Spot
          fields:
            - {element: Id, type: int, value: id}
  Banks:
    layout: typed
    namespace: service
    root: Banks
    fields:
      - list: institutions
        item:
          element: Bank
          fields:
            - {element: Id, type: int, value: id}
  Areas:
    layout: typed
    namespace: service
    root: Areas
    fields:
      - list: provinces
        item:
          element: Area
          fields:
            - {element: Code, type: string, value: code}
operations:
  ReturnAllAtms: AllAtms
  ReturnAtmSearchByAddress: Found
  ReturnAtmSearchByCoordinates: Found
  ReturnAtmSearchByAddressWithMaximum: Found
  ReturnAtmSearchByInstitution: Found
  ReturnAtmSearchByCity: Found
  ReturnInstitutions: Banks
  ReturnProvinces: Areas
`

// TestResultsKeepTheirOwnItems asks ReturnAllAtms, then a search, of a
// shape whose two results write their location items under different
// names: each answer holds its own result's items, whichever was asked
// first (the cache of encoded items is kept per way an item is written).
func TestResultsKeepTheirOwnItems(t *testing.T) {
	t.Parallel()
	sh, err := shape.Parse([]byte(twoResultsShape))
	if err != nil {
		t.Fatal(err)
	}
	h, err := New(WithNamespace(testNS), WithShape(sh))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	search := [][2]string{{asmx.ParamKey, "k"}, {asmx.ParamPostalCode, ""},
		{asmx.ParamLatitude, "44.648834"}, {asmx.ParamLongitude, "-63.575815"}, {asmx.ParamRadius, "1"}}
	for _, b := range asmx.XMLBindings {
		all := call(t, srv.URL, b, asmx.OpReturnAllAtms, [][2]string{{asmx.ParamKey, "k"}})
		found := call(t, srv.URL, b, asmx.OpReturnAtmSearchByCoordinates, search)
		for _, c := range []struct {
			name, body, want, not string
		}{
			{asmx.OpReturnAllAtms, all.body, "<Atm>", "<Spot>"},
			{asmx.OpReturnAtmSearchByCoordinates, found.body, "<Spot>", "<Atm>"},
		} {
			if !strings.Contains(c.body, c.want) || strings.Contains(c.body, c.not) {
				t.Errorf("%s over %s: got %.300q, want items %s and no %s", c.name, b, c.body, c.want, c.not)
			}
		}
	}
}

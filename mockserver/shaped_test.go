package mockserver

import (
	"bytes"
	"flag"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

var update = flag.Bool("update", false, "rewrite the golden files of the default shape's answers")

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
// default shape and compares every XML binding's body with the golden file
// (written by the hand-written encoder atmkit had before shapes, and kept
// as it was).
func TestDefaultShapeGolden(t *testing.T) {
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
				// Written by the hand-written encoder, the reference.
				values := map[string]string{}
				for _, p := range g.params {
					values[p[0]] = p[1]
				}
				op, _ := asmx.LookupOperation(g.op)
				c, e := asmx.NewCall(op, b, values)
				if e != nil {
					t.Fatal(e.Fault)
				}
				if err := os.WriteFile(path, legacyResponse(h.(*Server), c), 0o644); err != nil {
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

// TestDefaultShapeMatchesHandWritten compares the default shape's compiled
// encoder with the hand-written one it replaces, over the embedded data
// set and the small one (whose strings need escaping), for every operation
// and XML binding, whole answers and streamed ones.
func TestDefaultShapeMatchesHandWritten(t *testing.T) {
	for _, small := range []bool{false, true} {
		opts := []Option{WithNamespace(testNS)}
		if small {
			opts = append(opts, WithDataset(smallDataset()))
		}
		s, err := NewServer(opts...)
		if err != nil {
			t.Fatal(err)
		}
		for _, op := range asmx.Operations() {
			for _, b := range asmx.XMLBindings {
				values := map[string]string{asmx.ParamKey: "k", asmx.ParamRadius: "20", asmx.ParamLatitude: "44.6488",
					asmx.ParamLongitude: "-63.5752", asmx.ParamCity: "Halifax", asmx.ParamMaximumAtms: "3",
					asmx.ParamInstitutionID: "2", asmx.ParamCityID: "10"}
				c, e := asmx.NewCall(op, b, values)
				if e != nil {
					t.Fatal(e.Fault)
				}
				want := legacyResponse(s, c)
				if got := s.encodeResponse(nil, c); !bytes.Equal(got, want) {
					t.Fatalf("small %v, %s over %s: got\n%s\nwant\n%s", small, op.Name, b, got, want)
				}
				var streamed []byte
				if err := s.encodeChunked(c, func(p []byte) error { streamed = append(streamed, p...); return nil }); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(streamed, want) {
					t.Fatalf("small %v, %s over %s streamed: got %d bytes, want %d", small, op.Name, b, len(streamed), len(want))
				}
			}
		}
	}
}

// legacyResponse is the whole response the hand-written encoder wrote.
func legacyResponse(s *Server, c *asmx.Call) []byte {
	d := s.data
	soap := c.Binding.IsSOAP()
	var dst []byte
	if soap {
		dst = asmx.AppendSOAPResponseHead(nil, c.Binding, s.cfg.namespace, c.Op.Name)
	} else {
		dst = asmx.AppendXMLDeclaration(nil)
	}
	switch c.Op.Name {
	case asmx.OpReturnInstitutions:
		dst = d.legacyInstitutionsNode(dst, soap)
	case asmx.OpReturnProvinces:
		dst = d.legacyProvincesNode(dst, soap)
	default:
		dst = d.legacyLocationsNode(dst, d.locations(c), soap)
	}
	if soap {
		dst = asmx.AppendSOAPResponseTail(dst, c.Op.Name)
	}
	return dst
}

package mockserver

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
)

// Tests that the search index and the encoding cache, both there for speed,
// answer exactly what the plain definitions do.

func generated(t testing.TB, n int) *fixtures.Dataset {
	t.Helper()
	ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 7, ATMs: n})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// nearBruteForce is the search's definition: every ATM within radiusKm,
// by distance then id.
func nearBruteForce(ds *fixtures.Dataset, p fixtures.Coordinates, radiusKm float64) []int {
	type hit struct {
		id   int
		dist float64
	}
	var hits []hit
	for _, a := range ds.ATMs {
		if d := haversine(p, a.Coordinates); d <= radiusKm {
			hits = append(hits, hit{a.ID, d})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		switch {
		case a.dist < b.dist:
			return -1
		case a.dist > b.dist:
			return 1
		}
		return a.id - b.id
	})
	ids := make([]int, len(hits))
	for i, h := range hits {
		ids[i] = h.id
	}
	return ids
}

func TestNearMatchesBruteForce(t *testing.T) {
	ds := generated(t, 10_000)
	d := newData(ds)
	rng := rand.New(rand.NewPCG(1, 2))
	var points []fixtures.Coordinates
	for _, c := range ds.Cities {
		points = append(points, fixtures.Coordinates{Latitude: c.Latitude, Longitude: c.Longitude})
	}
	for range 100 {
		points = append(points, fixtures.Coordinates{Latitude: 43 + rng.Float64()*10, Longitude: -70 + rng.Float64()*18})
	}
	// Points that are ATMs themselves (radius 0 finds them), the poles and
	// the antimeridian.
	for i := 0; i < len(ds.ATMs); i += 997 {
		points = append(points, ds.ATMs[i].Coordinates)
	}
	points = append(points, fixtures.Coordinates{Latitude: 90}, fixtures.Coordinates{Latitude: -90},
		fixtures.Coordinates{Latitude: 50, Longitude: 180}, fixtures.Coordinates{Latitude: 50, Longitude: -179.99})
	found := 0
	for _, p := range points {
		for _, r := range []float64{0, 1, 5, 10, 25, 100, 255} {
			got := d.near(p, r)
			ids := make([]int, len(got))
			for i, k := range got {
				ids[i] = ds.ATMs[k].ID
			}
			want := nearBruteForce(ds, p, r)
			if !slices.Equal(ids, want) {
				t.Fatalf("near(%v, %v): got %d ids %v, want %d %v", p, r, len(ids), head(ids), len(want), head(want))
			}
			found += len(ids)
		}
	}
	if found == 0 {
		t.Fatal("no search found anything: the test tests nothing")
	}
}

func head(ids []int) []int { return ids[:min(len(ids), 8)] }

// encodeComposed is the response body composed the plain way: the result
// node on its own (the GET document without its declaration), then wrapped.
func encodeComposed(s *Server, c *asmx.Call) []byte {
	d := s.data
	if c.Binding == asmx.JSON {
		return d.appendLocationsJSON(nil, d.locations(c))
	}
	get := *c
	get.Binding = asmx.HTTPGet
	node := bytes.TrimPrefix(s.encodeResponse(nil, &get), asmx.AppendXMLDeclaration(nil))
	if c.Binding.IsSOAP() {
		return asmx.AppendSOAPResponse(nil, c.Binding, s.cfg.namespace, c.Op.Name, node)
	}
	return asmx.AppendXMLDocument(nil, node)
}

func TestEncodeResponseMatchesComposition(t *testing.T) {
	ds := smallDataset()
	ds.ATMs[0].Address.Landmark = "café <&> \"quoted\" \u2028 \x01"
	first := map[string][]byte{} // by binding and operation, from the first budget
	for _, budget := range []int64{0, fragmentBudget, 900} {
		s, err := NewServer(WithDataset(ds), WithNamespace(testNS))
		if err != nil {
			t.Fatal(err)
		}
		s.data.frags.left.Store(budget)
		for _, op := range asmx.Operations() {
			for _, b := range asmx.Bindings {
				if b == asmx.JSON && !op.JSON {
					continue
				}
				values := map[string]string{asmx.ParamKey: "k", asmx.ParamRadius: "50", asmx.ParamLatitude: "44.6488",
					asmx.ParamLongitude: "-63.5752", asmx.ParamCity: "Halifax", asmx.ParamMaximumAtms: "3",
					asmx.ParamInstitutionID: "2", asmx.ParamCityID: "10"}
				c, e := asmx.NewCall(op, b, values)
				if e != nil {
					t.Fatal(e.Fault)
				}
				// Twice: the second time from the cache, as far as it goes.
				for range 2 {
					got, want := s.encodeResponse([]byte("prefix"), c), append([]byte("prefix"), encodeComposed(s, c)...)
					if !bytes.Equal(got, want) {
						t.Fatalf("budget %d, %s %s: got\n%s\nwant\n%s", budget, b, op.Name, got, want)
					}
					k := b.String() + " " + op.Name
					if f, ok := first[k]; !ok {
						first[k] = got
					} else if !bytes.Equal(got, f) {
						t.Fatalf("budget %d, %s: got\n%s\nwant what budget 0 wrote\n%s", budget, k, got, f)
					}
				}
			}
		}
		if budget == 0 && (s.data.frags.get(1, 0) != nil || s.data.frags.get(jsonVariant, 0) != nil) {
			t.Errorf("budget 0: a fragment was cached")
		}
	}
}

func TestNorm(t *testing.T) {
	for _, s := range []string{"", "  ", "Main St", "  1234   Barrington\tSt \n", "ÉCOLE  Rue", "a\u00a0b", "MiXeD\vCase\f"} {
		want := strings.ToLower(strings.Join(strings.Fields(s), " "))
		if got := norm(s); got != want {
			t.Errorf("norm(%q): got %q, want %q", s, got, want)
		}
		if got := string(appendNorm([]byte("x"), s)); got != "x"+want {
			t.Errorf("appendNorm(%q): got %q, want %q", s, got, "x"+want)
		}
	}
	if got := normPostal(" b3j-1a1 "); got != "B3J1A1" {
		t.Errorf("normPostal: got %q, want B3J1A1", got)
	}
}

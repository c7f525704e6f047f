package mockserver

import (
	"bytes"
	"context"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
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

// near returns the ATMs within radiusKm of p, by distance then id, in a
// slice of its own.
func (d *data) near(p fixtures.Coordinates, radiusKm float64) []int32 {
	var sc scratch
	return d.search(p, radiusKm, -1, &sc)
}

// bruteForce is the search's definition: every ATM within radiusKm by
// haversine (the distance of each ATM worked out from scratch), by
// distance then id.
type bruteForce struct {
	ids    []int
	points []point // newPoint of each ATM, as haversine makes it
}

func newBruteForce(ds *fixtures.Dataset) *bruteForce {
	bf := &bruteForce{}
	for _, a := range ds.ATMs {
		bf.ids = append(bf.ids, a.ID)
		bf.points = append(bf.points, newPoint(a.Coordinates, 0, 0))
	}
	return bf
}

// near returns the ids of the ATMs within radiusKm of p, by distance then id.
func (bf *bruteForce) near(p fixtures.Coordinates, radiusKm float64) []int {
	type hit struct {
		id   int
		dist float64
	}
	from := newPoint(p, 0, 0)
	var hits []hit
	for k := range bf.points {
		if d := havKm(from.hav(&bf.points[k])); d <= radiusKm { // haversine(p, a)
			hits = append(hits, hit{bf.ids[k], d})
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
	t.Parallel()
	ds := generated(t, 10_000)
	d := newData(ds)
	bf := newBruteForce(ds)
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
	found, long := 0, 0
	for _, p := range points {
		for _, r := range []float64{0, 1, 5, 10, 25, 100, 255} {
			got := d.near(p, r)
			if len(got) > bucketSortMax {
				long++ // gathered in a slot, once those gathered in the scratch were too many
			}
			ids := make([]int, len(got))
			for i, k := range got {
				ids[i] = ds.ATMs[k].ID
			}
			want := bf.near(p, r)
			if !slices.Equal(ids, want) {
				t.Fatalf("near(%v, %v): got %d ids %v, want %d %v", p, r, len(ids), head(ids), len(want), head(want))
			}
			found += len(ids)
		}
	}
	if found == 0 || long == 0 {
		t.Fatalf("found %d, %d searches of over %d: the test tests too little", found, long, bucketSortMax)
	}
}

func head(ids []int) []int { return ids[:min(len(ids), 8)] }

// worldDataset is a data set of n ATMs all over the globe, most of them in
// clusters around the poles, on both sides of the antimeridian (where
// longitudes 180 and -180 are the same place) and at random places, some
// of them sharing a position exactly (ties broken by id); ids go up in
// steps of 3, so ranks and ids differ.
func worldDataset(rng *rand.Rand, n int) *fixtures.Dataset {
	randomPoint := func() fixtures.Coordinates {
		return fixtures.Coordinates{Latitude: math.Asin(2*rng.Float64()-1) / rad, Longitude: 360*rng.Float64() - 180}
	}
	centres := []fixtures.Coordinates{
		{Latitude: 90}, {Latitude: -90}, {Latitude: 89.95, Longitude: 179.9}, {Latitude: -89.99, Longitude: -45},
		{Latitude: 10, Longitude: 180}, {Latitude: -45, Longitude: -179.999}, {Latitude: 60, Longitude: 179.99},
		{Latitude: 0, Longitude: 0}, {Latitude: 44.6488, Longitude: -63.5752},
	}
	for range 6 {
		centres = append(centres, randomPoint())
	}
	ds := &fixtures.Dataset{}
	var shared fixtures.Coordinates
	for i := range n {
		var c fixtures.Coordinates
		switch {
		case i%10 == 0:
			c = randomPoint()
		case i%50 == 1:
			c = shared // a run of ATMs at the same place
		default:
			// Within about 50 km of a centre, longitudes wrapped to ±180.
			ctr := centres[rng.IntN(len(centres))]
			c.Latitude = max(-90, min(90, ctr.Latitude+(rng.Float64()-0.5)*0.9))
			c.Longitude = ctr.Longitude + (rng.Float64()-0.5)*0.9/math.Max(0.01, math.Cos(c.Latitude*rad))
			c.Longitude = math.Mod(c.Longitude+540, 360) - 180
			if rng.IntN(20) == 0 {
				c.Longitude = float64(180 - 360*rng.IntN(2)) // exactly on the antimeridian
			}
		}
		if i%200 == 0 {
			shared = c
		}
		ds.ATMs = append(ds.ATMs, fixtures.ATM{ID: 3*i + 1, Coordinates: c})
	}
	return ds
}

// TestSearchMatchesBruteForce is the property test of the index: on random
// points, radii and maxima, all over the globe, the search finds the same
// ATMs in the same order (distance, then id) as the brute-force definition.
func TestSearchMatchesBruteForce(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	ds := worldDataset(rng, 6000)
	d := newData(ds)
	bf := newBruteForce(ds)
	queries := []fixtures.Coordinates{{Latitude: 90}, {Latitude: -90}, {Latitude: 89.99, Longitude: 12},
		{Latitude: 10, Longitude: 180}, {Latitude: 10, Longitude: -180}, {Latitude: -45, Longitude: 179.99},
		{Latitude: 60, Longitude: -179.995}, {Latitude: 0, Longitude: 0}}
	for range 150 {
		// Near an ATM (so searches find something), or anywhere.
		a := ds.ATMs[rng.IntN(len(ds.ATMs))].Coordinates
		queries = append(queries, fixtures.Coordinates{Latitude: max(-90, min(90, a.Latitude+rng.NormFloat64()*0.1)),
			Longitude: math.Mod(a.Longitude+rng.NormFloat64()*0.1+540, 360) - 180})
		queries = append(queries, fixtures.Coordinates{Latitude: 180*rng.Float64() - 90, Longitude: 360*rng.Float64() - 180})
	}
	for i := 0; i < len(ds.ATMs); i += 301 {
		queries = append(queries, ds.ATMs[i].Coordinates) // radius 0 finds those there
	}
	sc := new(scratch)
	found, cut := 0, 0
	for _, p := range queries {
		for _, r := range []float64{0, float64(rng.IntN(10)), float64(rng.IntN(256)), 255, rng.Float64() * 60} {
			want := bf.near(p, r)
			for _, k := range []int{-1, 0, 1, 2, 10, rng.IntN(60), nearestMaxK, nearestMaxK + 1 + rng.IntN(500)} {
				got := d.search(p, r, k, sc)
				ids := make([]int, len(got))
				for i, a := range got {
					ids[i] = ds.ATMs[a].ID
				}
				w := want
				if k >= 0 && len(w) > k {
					w, cut = w[:k], cut+1
				}
				if !slices.Equal(ids, w) {
					for i := range min(len(ids), len(w)) {
						if ids[i] != w[i] {
							a, b := ds.ATMs[(ids[i]-1)/3].Coordinates, ds.ATMs[(w[i]-1)/3].Coordinates
							t.Logf("at %d: got %d %v %.17g, want %d %v %.17g", i, ids[i], a, haversine(p, a), w[i], b, haversine(p, b))
							break
						}
					}
					t.Fatalf("search(%v, %v km, max %d): got %d ids %v, want %d %v", p, r, k, len(ids), head(ids), len(w), head(w))
				}
				found += len(ids)
			}
		}
	}
	if found == 0 || cut == 0 {
		t.Fatalf("found %d, cut short %d times: the test tests too little", found, cut)
	}
}

// TestSearchVisitsOnlyNearbyNodes checks that a search across the
// antimeridian or around a pole reads the points near it, not every point.
func TestSearchVisitsOnlyNearbyNodes(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	ds := worldDataset(rng, 20_000)
	d := newData(ds)
	for _, p := range []fixtures.Coordinates{{Latitude: 10, Longitude: 180}, {Latitude: 60, Longitude: -179.995}, {Latitude: 90}} {
		from := newPoint(p, 0, 0)
		v := from.vec()
		maxHav := newRadius(25).outer
		leaves := 0
		var walk func(node, lo, hi int)
		walk = func(node, lo, hi int) {
			if d.tree.lowerBound(node, &v) > maxHav {
				return
			}
			if hi-lo <= leafSize {
				leaves++
				return
			}
			mid := lo + (hi-lo)/2
			walk(2*node+1, lo, mid)
			walk(2*node+2, mid, hi)
		}
		walk(0, 0, len(d.tree.points))
		hits := d.tree.within(&from, 25, nil)
		if visited := leaves * leafSize; visited > max(4*len(hits), 40*leafSize) {
			t.Errorf("search around %v: visits %d leaves (%d points) for %d hits among %d ATMs", p, leaves, visited, len(hits), len(ds.ATMs))
		}
		if len(hits) == 0 {
			t.Errorf("search around %v: found nothing; the test tests nothing", p)
		}
	}
}

// TestRadiusZeroFindsTheATMsAtThePoint searches around each ATM's own
// coordinates with a radius of 0 km: the ATM is found, at distance 0, as
// the document's point lies exactly on it. The haversine of a point with
// itself must be exactly 0 on every architecture: where the compiler fuses
// a multiplication into a subtraction (arm64's FMSUB), q.s*p.c - q.c*p.s of
// equal points is the second product's rounding error, not 0.
func TestRadiusZeroFindsTheATMsAtThePoint(t *testing.T) {
	t.Parallel()
	ds := generated(t, 2000)
	d := newData(ds)
	sc := new(scratch)
	for i, a := range ds.ATMs {
		if got := d.search(a.Coordinates, 0, -1, sc); !slices.Contains(got, int32(i)) {
			t.Fatalf("search(%v, 0 km): got %v, want ATM %d among them", a.Coordinates, got, a.ID)
		}
		// The nearest one is there too (ATM i, or one before it by id).
		if got := d.search(a.Coordinates, 0, 1, sc); len(got) != 1 || ds.ATMs[got[0]].Coordinates != a.Coordinates {
			t.Fatalf("search(%v, 0 km, max 1): got %v, want an ATM at the point", a.Coordinates, got)
		}
		if dist := haversine(a.Coordinates, a.Coordinates); dist != 0 {
			t.Fatalf("haversine of ATM %d's point %v with itself: got %g km, want 0", a.ID, a.Coordinates, dist)
		}
	}
}

// encodeComposed is the response body composed the plain way: the result
// node on its own (the GET document without its declaration), then wrapped;
// in SOAP without the GET document's indentation (a line break and spaces
// between tags), as SoapServerProtocol's XmlTextWriter does not indent.
func encodeComposed(s *Server, c *asmx.Call) []byte {
	if c.Binding == asmx.JSON {
		a := s.answerOf(c, new(scratch))
		w := jsonWriter{d: s.data}
		return w.tail(w.items(w.head(nil, a), a, 0, a.n), a)
	}
	get := *c
	get.Binding = asmx.HTTPGet
	node := bytes.TrimPrefix(s.appendResponse(nil, &get), asmx.AppendXMLDeclaration(nil))
	if c.Binding.IsSOAP() {
		node = indentation.ReplaceAll(node, []byte("><"))
		return asmx.AppendSOAPResponse(nil, c.Binding, s.cfg.namespace, c.Op.Name, node)
	}
	return asmx.AppendXMLDocument(nil, node)
}

// indentation is what an indenting XmlTextWriter writes between tags.
var indentation = regexp.MustCompile(`>\r\n *<`)

func TestEncodeResponseMatchesComposition(t *testing.T) {
	t.Parallel()
	ds := smallDataset()
	ds.ATMs[0].Address.Landmark = "café <&> \"quoted\" \u2028 \x01"
	first := map[string][]byte{} // by binding and operation, from the first budget
	for _, budget := range []int64{0, fragmentBudget, 900} {
		s, err := New(WithDataset(ds), WithNamespace(testNS))
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
					got, want := s.appendResponse([]byte("prefix"), c), append([]byte("prefix"), encodeComposed(s, c)...)
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
	t.Parallel()
	for _, s := range []string{"", "  ", "Main St", "  1234   Barrington\tSt \n", "ÉCOLE  Rue", "a\u00a0b", "MiXeD\vCase\f"} {
		want := strings.ToLower(strings.Join(strings.Fields(s), " "))
		if got := norm(s); got != want {
			t.Errorf("norm(%q): got %q, want %q", s, got, want)
		}
		if got := string(appendNorm([]byte("x"), s)); got != "x"+want {
			t.Errorf("appendNorm(%q): got %q, want %q", s, got, "x"+want)
		}
	}
	if got := string(appendNormPostal(nil, " b3j-1a1 ")); got != "B3J1A1" {
		t.Errorf("appendNormPostal: got %q, want B3J1A1", got)
	}
}

// TestKeyIndexFindsFirstOfEachKey checks the geocoding tables' index with
// a good hash and with one that makes every key of a length collide: each
// key finds its first ATM, an unknown key nothing.
func TestKeyIndexFindsFirstOfEachKey(t *testing.T) {
	t.Parallel()
	keys := []string{"b", "a", "", "bb", "a", "ab", "b", "ba", "ab", "c"} // by position in ds.ATMs
	byID := []int32{9, 0, 1, 2, 3, 4, 5, 6, 7, 8}                         // ids: position 9 comes first
	appendKey := func(dst []byte, i int32) []byte { return append(dst, keys[i]...) }
	want := map[string]int32{"c": 9, "b": 0, "a": 1, "bb": 3, "ab": 5, "ba": 7}
	for _, x := range []*keyIndex{
		newKeyIndex(context.Background(), byID, appendKey),
		newKeyIndexHash(context.Background(), byID, appendKey, func(b []byte) uint64 { return uint64(len(b)) }),
	} {
		for k, w := range want {
			if got, ok := x.find([]byte(k)); !ok || got != w {
				t.Errorf("find(%q): got %d, %v, want %d, true", k, got, ok, w)
			}
		}
		for _, k := range []string{"", "d", "abc"} {
			if got, ok := x.find([]byte(k)); ok {
				t.Errorf("find(%q): got %d, want none", k, got)
			}
		}
		if got := len(x.hashes); got != len(want) {
			t.Errorf("entries: got %d, want %d, one per distinct key", got, len(want))
		}
	}
}

// TestLongAnswersAreStreamedWithTheirLength checks the answers long enough
// to be written in pieces, over HTTP: each carries a Content-Length equal
// to its length and is the very body composed whole, whether the
// fragments' lengths are known or not yet, cached or not.
func TestLongAnswersAreStreamedWithTheirLength(t *testing.T) {
	t.Parallel()
	ds := generated(t, 10_000)
	halifax := [][2]string{{asmx.ParamLatitude, "44.6488"}, {asmx.ParamLongitude, "-63.5752"}, {asmx.ParamRadius, "10"},
		{asmx.ParamCity, "Halifax"}, {asmx.ParamProvince, "NS"}, {asmx.ParamMaximumAtms, "2000"}, {asmx.ParamCityID, "201"}}
	ops := []string{asmx.OpReturnAtmSearchByCoordinates, asmx.OpReturnAtmSearchByAddressWithMaximum,
		asmx.OpReturnAtmSearchByCity}
	for _, budget := range []int64{fragmentBudget, 0, 100_000} {
		s, err := New(WithDataset(ds), WithNamespace(testNS))
		if err != nil {
			t.Fatal(err)
		}
		s.data.frags.left.Store(budget)
		srv := httptest.NewServer(s)
		for _, name := range ops {
			op, _ := asmx.LookupOperation(name)
			values := map[string]string{asmx.ParamKey: "k"}
			var params [][2]string
			for _, p := range op.Params {
				v := values[p.Name]
				for _, h := range halifax {
					if h[0] == p.Name {
						v = h[1]
					}
				}
				values[p.Name] = v
				params = append(params, [2]string{p.Name, v})
			}
			for _, b := range asmx.Bindings {
				if b == asmx.JSON && !op.JSON {
					continue
				}
				c, e := asmx.NewCall(op, b, values)
				if e != nil {
					t.Fatal(e.Fault)
				}
				if a := s.answerOf(c, new(scratch)); !a.streams() {
					t.Fatalf("%s %s: %d locations are not streamed; the test tests nothing", b, name, a.n)
				}
				want := encodeComposed(s, c)
				for range 2 { // the second time, every fragment's length is known
					resp, err := http.DefaultClient.Do(callRequest(t, srv.URL, b, name, params))
					if err != nil {
						t.Fatal(err)
					}
					body, err := io.ReadAll(resp.Body)
					resp.Body.Close()
					if err != nil {
						t.Fatalf("budget %d, %s %s: %v", budget, b, name, err)
					}
					if resp.ContentLength != int64(len(body)) || len(resp.TransferEncoding) > 0 {
						t.Errorf("budget %d, %s %s: got Content-Length %d (transfer encoding %q) for %d bytes, want the length",
							budget, b, name, resp.ContentLength, resp.TransferEncoding, len(body))
					}
					if !bytes.Equal(body, want) {
						t.Fatalf("budget %d, %s %s: got %d bytes, want the %d composed whole", budget, b, name, len(body), len(want))
					}
				}
			}
		}
		srv.Close()
	}
}

// TestSortByHavSortsAsSortFunc checks the search's own sort against the
// library's, on lists of every length up to a few hundred, with repeated
// haversines, in random, sorted and reversed order, and with no depth
// left (heapsort).
func TestSortByHavSortsAsSortFunc(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	byHavRank := func(a, b hit) int {
		if c := cmpFloat(a.hav, b.hav); c != 0 {
			return c
		}
		return int(a.rank - b.rank)
	}
	for n := 0; n < 300; n += 1 + n/10 {
		for _, order := range []string{"random", "sorted", "reversed", "heap"} {
			hits := make([]hit, n)
			for i, r := range rng.Perm(n) {
				hits[i] = hit{hav: float64(rng.IntN(n/3+1)) / 7, rank: int32(r), atm: int32(r)}
			}
			switch order {
			case "sorted":
				slices.SortFunc(hits, byHavRank)
			case "reversed":
				slices.SortFunc(hits, byHavRank)
				slices.Reverse(hits)
			}
			want := slices.Clone(hits)
			slices.SortFunc(want, byHavRank)
			depth := 2 * 64
			if order == "heap" {
				depth = 0
			}
			sortByHav(hits, depth)
			if !slices.Equal(hits, want) {
				t.Fatalf("%d hits, %s: got %v, want %v", n, order, hits, want)
			}
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestAppendIndexWritesAsStrconv: the positions written from the table of
// digit pairs are strconv's digits.
func TestAppendIndexWritesAsStrconv(t *testing.T) {
	for _, k := range append([]int{-1, 99999, 1 << 40}, func() []int {
		var ks []int
		for k := range 12000 {
			ks = append(ks, k)
		}
		return ks
	}()...) {
		if got, want := string(appendIndex([]byte("x"), k)), "x"+strconv.Itoa(k); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
}

// TestSortWithinSortsAsSortHits: sorting by buckets gives sortHits's
// order, with haversines spread evenly, crowded in one bucket, equal, a
// few units of the last place apart, and at the radius itself.
func TestSortWithinSortsAsSortHits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	sc := &scratch{}
	const maxHav = 4e-6
	for _, n := range []int{0, 1, 12, 13, 69, 100, 1000, bucketSortMax, bucketSortMax + 1} {
		for _, spread := range []string{"even", "crowded", "ties", "edge"} {
			hits := make([]hit, n)
			for i, r := range rng.Perm(n) {
				h := rng.Float64() * maxHav
				switch spread {
				case "crowded":
					h = maxHav/2 + rng.Float64()*1e-12
				case "ties":
					h = float64(rng.IntN(5)) * maxHav / 4
					for range rng.IntN(3) * rng.IntN(20) {
						h = math.Nextafter(h, 1)
					}
				case "edge":
					if rng.IntN(2) == 0 {
						h = maxHav
					}
				}
				hits[i] = hit{hav: min(h, maxHav), rank: int32(r), atm: int32(i)}
			}
			want := slices.Clone(hits)
			sortHits(want)
			if got := sortWithin(hits, maxHav, sc); !slices.Equal(got, want) {
				t.Fatalf("%d hits, %s: got %v, want %v", n, spread, got, want)
			}
		}
	}
}

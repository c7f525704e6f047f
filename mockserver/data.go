package mockserver

import (
	"context"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
)

// earthRadiusKm is the mean Earth radius used for great-circle distances.
const earthRadiusKm = 6371.0088

// data is a data set with the indexes the operations need. It is immutable
// after newData (but for the encoding cache, which is safe for concurrent
// use), so it is shared by every request without locking.
//
// ATMs are referred to by their position in ds.ATMs (int32, four bytes and
// no pointer for the garbage collector to follow), which also keys the
// encoding cache.
type data struct {
	ds *fixtures.Dataset

	institutions  map[int]*fixtures.Institution
	byID          []int32         // every ATM, ordered by id
	byInstitution map[int][]int32 // ordered by id
	byCity        map[int][]int32 // ordered by id
	tree          *kdTree         // the searches' index (kdtree.go)
	slots         chan []hit      // the searches within a radius running at once, and their hits

	// Geocoding tables of the address searches, keys normalised by norm.
	postal      *keyIndex                       // by postal code (appendNormPostal)
	street      *keyIndex                       // by street|city
	cities      map[string][]*fixtures.City     // city name → cities
	provinces   map[string]string               // code or name → code
	provCentres map[string]fixtures.Coordinates // code → mean of its cities

	frags *fragmentCache
}

// newData indexes ds. ds must have passed fixtures validation.
func newData(ds *fixtures.Dataset) *data {
	d, _ := newDataContext(context.Background(), ds) // no error without an end
	return d
}

// newDataContext is newData that stops early when ctx is done, returning
// ctx's error: its loops look at ctx every fixtures.checkEvery ATMs or so.
func newDataContext(ctx context.Context, ds *fixtures.Dataset) (*data, error) {
	d := &data{
		ds:            ds,
		institutions:  make(map[int]*fixtures.Institution, len(ds.Institutions)),
		byInstitution: map[int][]int32{},
		byCity:        map[int][]int32{},
		cities:        map[string][]*fixtures.City{},
		provinces:     map[string]string{},
		provCentres:   map[string]fixtures.Coordinates{},
	}
	for i := range ds.Institutions {
		d.institutions[ds.Institutions[i].ID] = &ds.Institutions[i]
	}
	d.byID = make([]int32, len(ds.ATMs))
	for i := range d.byID {
		d.byID[i] = int32(i)
	}
	// Data sets come in id order; the sort only guards the rest.
	byID := func(a, b int32) int { return ds.ATMs[a].ID - ds.ATMs[b].ID }
	if !slices.IsSortedFunc(d.byID, byID) {
		slices.SortStableFunc(d.byID, byID)
	}
	// The tree is built on the side: on two cores that halves the time a
	// million-ATM set takes to index.
	treeDone := make(chan *kdTree, 1)
	go func() { treeDone <- newKDTree(ctx, ds.ATMs, d.byID) }()
	for k, i := range d.byID {
		if k%checkEvery == 0 && ctx.Err() != nil {
			break
		}
		a := &ds.ATMs[i]
		d.byInstitution[a.InstitutionID] = append(d.byInstitution[a.InstitutionID], i)
		d.byCity[a.CityID] = append(d.byCity[a.CityID], i)
	}
	d.postal = newKeyIndex(ctx, d.byID, func(dst []byte, i int32) []byte {
		return appendNormPostal(dst, ds.ATMs[i].Address.PostalCode)
	})
	d.street = newKeyIndex(ctx, d.byID, func(dst []byte, i int32) []byte {
		a := &ds.ATMs[i]
		if a.Address.StreetAddress == "" {
			return dst
		}
		return appendStreetKey(dst, a.Address.StreetAddress, a.Address.City)
	})
	d.tree = <-treeDone // the tree's goroutine is over before any return
	if err := ctx.Err(); err != nil {
		return nil, err // the indexes are partial
	}
	d.slots = make(chan []hit, runtime.GOMAXPROCS(0))
	for range cap(d.slots) {
		d.slots <- nil
	}
	d.frags = newFragmentCache(len(ds.ATMs))
	sums := map[string][3]float64{}
	for i := range ds.Cities {
		c := &ds.Cities[i]
		d.cities[norm(c.Name)] = append(d.cities[norm(c.Name)], c)
		s := sums[c.Province]
		sums[c.Province] = [3]float64{s[0] + c.Latitude, s[1] + c.Longitude, s[2] + 1}
	}
	for _, p := range ds.Provinces {
		d.provinces[norm(p.Code)] = p.Code
		d.provinces[norm(p.Name)] = p.Code
		if s := sums[p.Code]; s[2] > 0 {
			d.provCentres[p.Code] = fixtures.Coordinates{Latitude: s[0] / s[2], Longitude: s[1] / s[2]}
		}
	}
	return d, nil
}

// checkEvery is how many ATMs the indexing loops go between looks at their
// context: a few milliseconds of work.
const checkEvery = 1 << 14

// institution returns the institution of an ATM (validated to exist).
func (d *data) institution(id int) *fixtures.Institution {
	if in, ok := d.institutions[id]; ok {
		return in
	}
	return &fixtures.Institution{ID: id}
}

// norm folds case and inner whitespace for matching names and addresses.
func norm(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.ToLower(strings.Join(strings.Fields(s), " "))
		}
	}
	return string(appendNorm(nil, s))
}

// appendNorm appends norm(s) to dst (allocating nothing for ASCII s).
func appendNorm(dst []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return append(dst, norm(s)...)
		}
	}
	start, space := len(dst), false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\n', '\v', '\f', '\r':
			space = len(dst) > start
			continue
		}
		if space {
			dst = append(dst, ' ')
			space = false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// appendStreetKey appends the key of the street geocoding table:
// norm(street) + "|" + norm(city).
func appendStreetKey(dst []byte, street, city string) []byte {
	dst = appendNorm(dst, street)
	dst = append(dst, '|')
	return appendNorm(dst, city)
}

// appendNormPostal appends s, a postal code, folded to upper case without
// spaces or dashes, to dst.
func appendNormPostal(dst []byte, s string) []byte {
	for _, r := range s {
		switch {
		case r == ' ' || r == '-' || r == '\t':
		case r >= 'a' && r <= 'z':
			dst = utf8.AppendRune(dst, r-'a'+'A')
		default:
			dst = utf8.AppendRune(dst, r)
		}
	}
	return dst
}

// rad converts degrees to radians.
const rad = math.Pi / 180

// haversine is the great-circle distance between two points in kilometres.
func haversine(a, b fixtures.Coordinates) float64 {
	pa, pb := newPoint(a, 0, 0), newPoint(b, 0, 0)
	return havKm(pa.hav(&pb))
}

// havKm turns a haversine into kilometres.
func havKm(h float64) float64 {
	return 2 * earthRadiusKm * math.Asin(math.Min(1, math.Sqrt(h)))
}

// maxHavOf is the haversine of radiusKm, sin²(radiusKm / 2R): the largest
// within radiusKm, but for rounding.
func maxHavOf(radiusKm float64) float64 {
	h := math.Sin(math.Min(radiusKm/(2*earthRadiusKm), math.Pi/2))
	return h * h
}

// nearestMaxK is the largest maximum the k-nearest search takes; a larger
// one is the search within the radius, cut short, which is as fast then.
const nearestMaxK = 1024

// search returns the ATMs within radiusKm of p (inclusive), by distance then
// id, as positions in ds.ATMs; with maximum ≥ 0, only the first maximum of
// them. The slice is sc's: valid until sc is reused or released.
//
// A maximum up to nearestMaxK is the k-nearest search, in sc. Any other is
// the search within the radius, whose hits (16 bytes a location) are
// gathered in sc while they are up to bucketSortMax, as many as sc holds
// to sort them anyway. A search that finds more starts again in one of
// d.slots: no more such searches run at once than there are processors to
// run them (they are all computation), so however many requests are in
// flight, only that many long answers' hits are held.
func (d *data) search(p fixtures.Coordinates, radiusKm float64, maximum int, sc *scratch) []int32 {
	from := newPoint(p, 0, 0)
	if maximum >= 0 && maximum <= nearestMaxK {
		sc.hits = d.tree.nearest(&from, radiusKm, maximum, sc.hits)
		return sc.positions(sc.hits)
	}
	r := newRadius(radiusKm)
	// Up to bucketSortMax hits, as many as sortWithin copies into sc
	// anyway, are gathered in sc, without waiting for a slot.
	hits, ok := d.tree.withinRadius(&from, &r, sc.hits[:0], bucketSortMax)
	sc.hits = hits
	if ok {
		return sc.positions(cut(sortWithin(hits, r.outer, sc), maximum))
	}
	hits = <-d.slots
	hits, _ = d.tree.withinRadius(&from, &r, hits[:0], -1)
	atms := sc.positions(cut(sortWithin(hits, r.outer, sc), maximum))
	if cap(hits) > maxSlotHits {
		hits = nil // a rare huge answer's are not kept
	}
	d.slots <- hits[:0]
	return atms
}

// cut returns the first maximum of hits; all of them when maximum < 0.
func cut(hits []hit, maximum int) []hit {
	if maximum >= 0 && len(hits) > maximum {
		return hits[:maximum]
	}
	return hits
}

// maxSlotHits bounds the hits a slot keeps for the next search: 8 MiB, a
// search of about 500,000 results.
const maxSlotHits = 1 << 19

// scratch is what one request's search works in, recycled through
// scratchPool: the hits of a k-nearest search, and the positions of the
// ATMs found (4 bytes a location, against the 1.1 KB each location's XML
// takes, which is written in pieces).
type scratch struct {
	hits []hit
	atms []int32

	// sortWithin's buckets: where each ends and starts, each hit's
	// bucket, and the hits sorted.
	ends, starts, bucketOf []int32
	sorted                 []hit

	// ds carries a DataSet answer's numbering from one batch of its
	// items to the next (answer_dataset.go).
	ds dsCursor
	// grouped holds a grouped list's locations in the order of their
	// groups (shape_groups.go).
	grouped []int32
	// A DataSet's locations nested in their groups' rows
	// (dataset_groups.go): the search's order, each location's place in
	// it, and the language rows before each place.
	dsOrig, dsPos []int32
	dsLangs       []int64
}

// positions sets sc.atms to the positions of the hits' ATMs, and returns it.
func (sc *scratch) positions(hits []hit) []int32 {
	atms := slices.Grow(sc.atms[:0], len(hits))[:len(hits)]
	for k, h := range hits {
		atms[k] = h.atm
	}
	sc.atms = atms
	return atms
}

// maxPooledHits bounds the scratch kept for reuse, 64 Ki hits and as many
// positions (1.25 MiB): that of a longer answer is left to the garbage
// collector, so that the pool holds little more than the requests in flight
// need.
const maxPooledHits = 1 << 16

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func getScratch() *scratch { return scratchPool.Get().(*scratch) }

// release returns sc to the pool; its slices must no longer be used. A
// nil scratch has nothing to return.
func (sc *scratch) release() {
	if sc == nil {
		return
	}
	if cap(sc.hits) > maxPooledHits {
		sc.hits = nil
	}
	if cap(sc.atms) > maxPooledHits {
		sc.atms = nil
	}
	if cap(sc.grouped) > maxPooledHits {
		sc.grouped = nil
	}
	if cap(sc.dsPos) > maxPooledHits {
		sc.dsPos, sc.dsLangs = nil, nil
	}
	sc.dsOrig, sc.dsPos = nil, sc.dsPos[:0]
	sc.hits, sc.atms = sc.hits[:0], sc.atms[:0]
	scratchPool.Put(sc)
}

// geocode finds the point an address search searches around: a known postal
// code first, then the street address with the city, then the city (in the
// province, if one is given), then the province. ok is false when nothing is
// known.
func (d *data) geocode(address, city, province, postal string) (fixtures.Coordinates, bool) {
	if strings.TrimSpace(postal) != "" {
		if i, ok := d.postal.find(appendNormPostal(nil, postal)); ok {
			return d.ds.ATMs[i].Coordinates, true
		}
	}
	if address != "" && city != "" {
		if i, ok := d.street.find(appendStreetKey(nil, address, city)); ok {
			return d.ds.ATMs[i].Coordinates, true
		}
	}
	code := d.provinces[norm(province)]
	if cs := d.cities[norm(city)]; len(cs) > 0 && city != "" {
		for _, c := range cs {
			if code == "" || c.Province == code {
				return fixtures.Coordinates{Latitude: c.Latitude, Longitude: c.Longitude}, true
			}
		}
		if code == "" {
			c := cs[0]
			return fixtures.Coordinates{Latitude: c.Latitude, Longitude: c.Longitude}, true
		}
	}
	if p, ok := d.provCentres[code]; ok && code != "" {
		return p, true
	}
	return fixtures.Coordinates{}, false
}

// locationList is the result of ReturnAllAtms and the searches.
type locationList struct {
	atms []int32 // positions in ds.ATMs
	// point is the search point, written only when hasPoint.
	point    fixtures.Coordinates
	hasPoint bool
}

// locations answers a location-list operation, searching in sc.
func (d *data) locations(c *asmx.Call, sc *scratch) locationList {
	switch c.Op.Name {
	case asmx.OpReturnAllAtms:
		return locationList{atms: d.byID}
	case asmx.OpReturnAtmSearchByInstitution:
		return locationList{atms: d.byInstitution[c.InstitutionID]}
	case asmx.OpReturnAtmSearchByCity:
		return locationList{atms: d.byCity[c.CityID]}
	case asmx.OpReturnAtmSearchByCoordinates:
		p := fixtures.Coordinates{Latitude: c.Latitude, Longitude: c.Longitude}
		if !onEarth(p.Latitude, p.Longitude) {
			// A point that is no place on Earth (a latitude beyond ±90, a
			// longitude beyond ±180, or not a finite number, all of which
			// ASMX reads) finds nothing; the answer shows it as given.
			return locationList{point: p, hasPoint: true}
		}
		return locationList{atms: d.search(p, float64(c.Radius), -1, sc), point: p, hasPoint: true}
	case asmx.OpReturnAtmSearchByAddress, asmx.OpReturnAtmSearchByAddressWithMaximum:
		p, ok := d.geocode(c.Address, c.City, c.Province, c.Postal)
		l := locationList{point: p, hasPoint: true}
		maximum := -1
		if c.Op.Name == asmx.OpReturnAtmSearchByAddressWithMaximum {
			maximum = max(c.MaximumAtms, 0)
		}
		if ok {
			l.atms = d.search(p, float64(c.Radius), maximum, sc)
		}
		return l
	}
	return locationList{}
}

// onEarth reports whether a latitude and longitude name a point on Earth.
// The comparisons are false for NaN.
func onEarth(lat, lon float64) bool {
	return lat >= -90 && lat <= 90 && lon >= -180 && lon <= 180
}

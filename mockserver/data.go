package mockserver

import (
	"math"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
)

// earthRadiusKm is the mean Earth radius used for great-circle distances.
const earthRadiusKm = 6371.0088

// cellDegrees is the side of a search grid cell in degrees of latitude.
const cellDegrees = 0.05

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
	grid          grid

	// Geocoding tables of the address searches, keys normalised by norm.
	postal      map[string]fixtures.Coordinates // postal code → first ATM's point
	street      map[string]fixtures.Coordinates // street|city → first ATM's point
	cities      map[string][]*fixtures.City     // city name → cities
	provinces   map[string]string               // code or name → code
	provCentres map[string]fixtures.Coordinates // code → mean of its cities

	frags *fragmentCache
}

type cell struct{ lat, lon int32 }

func cellOf(c fixtures.Coordinates) cell {
	return cell{int32(math.Floor(c.Latitude / cellDegrees)), int32(math.Floor(c.Longitude / cellDegrees))}
}

// grid is the search index: the ATMs sorted by cell (row of latitude, then
// column of longitude, then id), each with the sines and cosines the
// distance needs, so a search reads memory in order and calls no
// trigonometric function per ATM. rows holds each row's run, indexed by
// row - minRow (latitudes span at most 3,601 rows of 0.05°); lonCell holds
// each ATM's column, for finding a row's columns by binary search.
type grid struct {
	rows    []span
	lonCell []int32
	points  []point
}

// point is a position prepared for distances, and the ATM standing there.
type point struct {
	lat              float64 // degrees
	sinHLat, cosHLat float64 // of half the latitude
	sinHLon, cosHLon float64 // of half the longitude
	cosLat           float64
	atm              int32 // position in ds.ATMs
}

func newPoint(c fixtures.Coordinates, atm int32) point {
	sLat, cLat := math.Sincos(c.Latitude * rad / 2)
	sLon, cLon := math.Sincos(c.Longitude * rad / 2)
	return point{lat: c.Latitude, sinHLat: sLat, cosHLat: cLat, sinHLon: sLon, cosHLon: cLon,
		cosLat: math.Cos(c.Latitude * rad), atm: atm}
}

// hav is the haversine of the central angle between p and q: sin²(Δφ/2) +
// cos φp cos φq sin²(Δλ/2), the half-angle sines taken by the difference
// formula from the sines and cosines each point carries. Equal points give
// exactly 0; it grows with the distance, so searches compare and sort by it.
func (p *point) hav(q *point) float64 {
	sdLat := q.sinHLat*p.cosHLat - q.cosHLat*p.sinHLat
	sdLon := q.sinHLon*p.cosHLon - q.cosHLon*p.sinHLon
	return sdLat*sdLat + p.cosLat*q.cosLat*sdLon*sdLon
}

// havKm turns a haversine into kilometres.
func havKm(h float64) float64 {
	return 2 * earthRadiusKm * math.Asin(math.Min(1, math.Sqrt(h)))
}

type span struct{ start, end int32 }

const minRow = -1800 // row of latitude -90

// newData indexes ds. ds must have passed fixtures validation.
func newData(ds *fixtures.Dataset) *data {
	d := &data{
		ds:            ds,
		institutions:  make(map[int]*fixtures.Institution, len(ds.Institutions)),
		byInstitution: map[int][]int32{},
		byCity:        map[int][]int32{},
		postal:        map[string]fixtures.Coordinates{},
		street:        map[string]fixtures.Coordinates{},
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
	// The grid is built on the side: on two cores that halves the time a
	// million-ATM set takes to index.
	gridDone := make(chan grid, 1)
	go func() { gridDone <- newGrid(ds.ATMs, d.byID) }()
	var key []byte
	cityNorm := map[string]string{}
	for _, i := range d.byID {
		a := &ds.ATMs[i]
		d.byInstitution[a.InstitutionID] = append(d.byInstitution[a.InstitutionID], i)
		d.byCity[a.CityID] = append(d.byCity[a.CityID], i)
		key = appendNormPostal(key[:0], a.Address.PostalCode)
		if len(key) > 0 {
			if _, ok := d.postal[string(key)]; !ok {
				d.postal[string(key)] = a.Coordinates
			}
		}
		if a.Address.StreetAddress != "" {
			cn, ok := cityNorm[a.Address.City]
			if !ok {
				cn = norm(a.Address.City)
				cityNorm[a.Address.City] = cn
			}
			key = appendNorm(key[:0], a.Address.StreetAddress)
			key = append(key, '|')
			key = append(key, cn...)
			if _, ok := d.street[string(key)]; !ok {
				d.street[string(key)] = a.Coordinates
			}
		}
	}
	d.grid = <-gridDone
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
	return d
}

// newGrid builds the search index of atms, taken in the order of byID.
func newGrid(atms []fixtures.ATM, byID []int32) grid {
	type entry struct {
		c cell
		i int32
	}
	es := make([]entry, len(byID))
	for k, i := range byID {
		es[k] = entry{cellOf(atms[i].Coordinates), i}
	}
	// Stable: within a cell the ATMs stay in id order.
	slices.SortStableFunc(es, func(a, b entry) int {
		if a.c.lat != b.c.lat {
			return int(a.c.lat) - int(b.c.lat)
		}
		return int(a.c.lon) - int(b.c.lon)
	})
	g := grid{
		rows:    make([]span, -2*minRow+1),
		lonCell: make([]int32, len(es)),
		points:  make([]point, len(es)),
	}
	start := 0
	for k, e := range es {
		g.lonCell[k], g.points[k] = e.c.lon, newPoint(atms[e.i].Coordinates, e.i)
		if k+1 == len(es) || es[k+1].c.lat != e.c.lat {
			g.rows[e.c.lat-minRow] = span{int32(start), int32(k + 1)}
			start = k + 1
		}
	}
	return g
}

// row returns the run of a row; empty outside the latitudes.
func (g *grid) row(lat int32) span {
	if i := lat - minRow; i >= 0 && int(i) < len(g.rows) {
		return g.rows[i]
	}
	return span{}
}

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

// normPostal folds a postal code to upper case without spaces or dashes.
func normPostal(s string) string { return string(appendNormPostal(nil, s)) }

// appendNormPostal appends normPostal(s) to dst.
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
	pa, pb := newPoint(a, 0), newPoint(b, 0)
	return havKm(pa.hav(&pb))
}

type hit struct {
	atm int32 // position in ds.ATMs
	id  int
	hav float64
}

// near returns the ATMs within radiusKm of p (inclusive), by distance then
// id, as positions in ds.ATMs. It measures the distance to every ATM in the
// grid cells that the circle's bounding box touches (those of its rows are
// found by binary search), but skips at once those whose latitude alone puts
// them out of reach. Distances are compared as haversines, which order
// points as the distances in kilometres do.
func (d *data) near(p fixtures.Coordinates, radiusKm float64) []int32 {
	dLat := radiusKm / (earthRadiusKm * math.Pi / 180)
	latLo, latHi := p.Latitude-dLat, p.Latitude+dLat
	var lonLo, lonHi float64
	cosLat := math.Min(math.Cos(latLo*math.Pi/180), math.Cos(latHi*math.Pi/180))
	if latLo <= -90 || latHi >= 90 || cosLat <= 1e-6 {
		lonLo, lonHi = -180, 180
	} else {
		dLon := dLat / cosLat
		lonLo, lonHi = p.Longitude-dLon, p.Longitude+dLon
		if dLon >= 180 {
			lonLo, lonHi = -180, 180
		}
	}
	g := &d.grid
	from := newPoint(p, 0)
	// Within radiusKm ⇔ hav ≤ sin²(radiusKm / 2R).
	maxHav := math.Sin(radiusKm / (2 * earthRadiusKm))
	maxHav *= maxHav
	// Two points are at least as far apart as their latitudes; the margin
	// keeps borderline cases for the exact test.
	maxDLat := dLat*(1+1e-9) + 1e-9
	hp := hitPool.Get().(*[]hit)
	defer func() {
		if cap(*hp) <= 1<<16 {
			hitPool.Put(hp)
		}
	}()
	hits := (*hp)[:0]
	visit := func(start, end int32) {
		for k := start; k < end; k++ {
			q := &g.points[k]
			if math.Abs(q.lat-p.Latitude) > maxDLat {
				continue
			}
			if h := from.hav(q); h <= maxHav {
				hits = append(hits, hit{q.atm, d.ds.ATMs[q.atm].ID, h})
			}
		}
	}
	if lonLo < -180 || lonHi > 180 {
		// Longitudes wrapping the antimeridian: measure every ATM.
		visit(0, int32(len(g.points)))
	} else {
		lo := cellOf(fixtures.Coordinates{Latitude: latLo, Longitude: lonLo})
		hi := cellOf(fixtures.Coordinates{Latitude: latHi, Longitude: lonHi})
		for la := lo.lat; la <= hi.lat; la++ {
			r := g.row(la)
			cols := g.lonCell[r.start:r.end]
			from, _ := slices.BinarySearch(cols, lo.lon)
			to, _ := slices.BinarySearch(cols, hi.lon+1)
			visit(r.start+int32(from), r.start+int32(to))
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		switch {
		case a.hav < b.hav:
			return -1
		case a.hav > b.hav:
			return 1
		}
		return a.id - b.id
	})
	out := make([]int32, len(hits))
	for k, h := range hits {
		out[k] = h.atm
	}
	*hp = hits[:0]
	return out
}

// hitPool recycles the scratch slices of near.
var hitPool = sync.Pool{New: func() any { h := make([]hit, 0, 256); return &h }}

// geocode finds the point an address search searches around: a known postal
// code first, then the street address with the city, then the city (in the
// province, if one is given), then the province. ok is false when nothing is
// known.
func (d *data) geocode(address, city, province, postal string) (fixtures.Coordinates, bool) {
	if p, ok := d.postal[normPostal(postal)]; ok && strings.TrimSpace(postal) != "" {
		return p, true
	}
	if address != "" && city != "" {
		if p, ok := d.street[norm(address)+"|"+norm(city)]; ok {
			return p, true
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

// locations answers a location-list operation.
func (d *data) locations(c *asmx.Call) locationList {
	switch c.Op.Name {
	case asmx.OpReturnAllAtms:
		return locationList{atms: d.byID}
	case asmx.OpReturnAtmSearchByInstitution:
		return locationList{atms: d.byInstitution[c.InstitutionID]}
	case asmx.OpReturnAtmSearchByCity:
		return locationList{atms: d.byCity[c.CityID]}
	case asmx.OpReturnAtmSearchByCoordinates:
		p := fixtures.Coordinates{Latitude: c.Latitude, Longitude: c.Longitude}
		return locationList{atms: d.near(p, float64(c.Radius)), point: p, hasPoint: true}
	case asmx.OpReturnAtmSearchByAddress, asmx.OpReturnAtmSearchByAddressWithMaximum:
		p, ok := d.geocode(c.Address, c.City, c.Province, c.Postal)
		l := locationList{point: p, hasPoint: true}
		if ok {
			l.atms = d.near(p, float64(c.Radius))
		}
		if c.Op.Name == asmx.OpReturnAtmSearchByAddressWithMaximum {
			max := c.MaximumAtms
			if max < 0 {
				max = 0
			}
			if len(l.atms) > max {
				l.atms = l.atms[:max]
			}
		}
		return l
	}
	return locationList{}
}

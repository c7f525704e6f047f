package mockserver

import (
	"math"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
)

// earthRadiusKm is the mean Earth radius used for great-circle distances.
const earthRadiusKm = 6371.0088

// cellDegrees is the side of a search grid cell in degrees of latitude.
const cellDegrees = 0.05

// data is a data set with the indexes the operations need. It is immutable
// after newData, so it is shared by every request without locking.
type data struct {
	ds *fixtures.Dataset

	institutions  map[int]*fixtures.Institution
	byInstitution map[int][]*fixtures.ATM // ordered by id
	byCity        map[int][]*fixtures.ATM // ordered by id
	grid          map[cell][]*fixtures.ATM

	// Geocoding tables of the address searches, keys normalised by norm.
	postal      map[string]fixtures.Coordinates // postal code → first ATM's point
	street      map[string]fixtures.Coordinates // street|city → first ATM's point
	cities      map[string][]*fixtures.City     // city name → cities
	provinces   map[string]string               // code or name → code
	provCentres map[string]fixtures.Coordinates // code → mean of its cities
}

type cell struct{ lat, lon int32 }

func cellOf(c fixtures.Coordinates) cell {
	return cell{int32(math.Floor(c.Latitude / cellDegrees)), int32(math.Floor(c.Longitude / cellDegrees))}
}

// newData indexes ds. ds must have passed fixtures validation.
func newData(ds *fixtures.Dataset) *data {
	d := &data{
		ds:            ds,
		institutions:  make(map[int]*fixtures.Institution, len(ds.Institutions)),
		byInstitution: map[int][]*fixtures.ATM{},
		byCity:        map[int][]*fixtures.ATM{},
		grid:          map[cell][]*fixtures.ATM{},
		postal:        map[string]fixtures.Coordinates{},
		street:        map[string]fixtures.Coordinates{},
		cities:        map[string][]*fixtures.City{},
		provinces:     map[string]string{},
		provCentres:   map[string]fixtures.Coordinates{},
	}
	for i := range ds.Institutions {
		d.institutions[ds.Institutions[i].ID] = &ds.Institutions[i]
	}
	atms := make([]*fixtures.ATM, len(ds.ATMs))
	for i := range ds.ATMs {
		atms[i] = &ds.ATMs[i]
	}
	slices.SortStableFunc(atms, func(a, b *fixtures.ATM) int { return a.ID - b.ID })
	for _, a := range atms {
		d.byInstitution[a.InstitutionID] = append(d.byInstitution[a.InstitutionID], a)
		d.byCity[a.CityID] = append(d.byCity[a.CityID], a)
		c := cellOf(a.Coordinates)
		d.grid[c] = append(d.grid[c], a)
		if pc := normPostal(a.Address.PostalCode); pc != "" {
			if _, ok := d.postal[pc]; !ok {
				d.postal[pc] = a.Coordinates
			}
		}
		if a.Address.StreetAddress != "" {
			k := norm(a.Address.StreetAddress) + "|" + norm(a.Address.City)
			if _, ok := d.street[k]; !ok {
				d.street[k] = a.Coordinates
			}
		}
	}
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

// institution returns the institution of an ATM (validated to exist).
func (d *data) institution(id int) *fixtures.Institution {
	if in, ok := d.institutions[id]; ok {
		return in
	}
	return &fixtures.Institution{ID: id}
}

// norm folds case and inner whitespace for matching names and addresses.
func norm(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// normPostal folds a postal code to upper case without spaces or dashes.
func normPostal(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == ' ' || r == '-' || r == '\t':
		case r >= 'a' && r <= 'z':
			b.WriteRune(r - 'a' + 'A')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// haversine is the great-circle distance between two points in kilometres.
func haversine(a, b fixtures.Coordinates) float64 {
	const rad = math.Pi / 180
	dLat := (b.Latitude - a.Latitude) * rad
	dLon := (b.Longitude - a.Longitude) * rad
	s := math.Sin(dLat/2)*math.Sin(dLat/2) +
		math.Cos(a.Latitude*rad)*math.Cos(b.Latitude*rad)*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthRadiusKm * math.Asin(math.Min(1, math.Sqrt(s)))
}

type hit struct {
	atm  *fixtures.ATM
	dist float64
}

// near returns the ATMs within radiusKm of p (inclusive), by distance then id.
func (d *data) near(p fixtures.Coordinates, radiusKm float64) []*fixtures.ATM {
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
	lo := cellOf(fixtures.Coordinates{Latitude: latLo, Longitude: lonLo})
	hi := cellOf(fixtures.Coordinates{Latitude: latHi, Longitude: lonHi})
	var hits []hit
	visit := func(c cell) {
		for _, a := range d.grid[c] {
			if dist := haversine(p, a.Coordinates); dist <= radiusKm {
				hits = append(hits, hit{a, dist})
			}
		}
	}
	nLat, nLon := int64(hi.lat-lo.lat+1), int64(hi.lon-lo.lon+1)
	if nLat*nLon > int64(len(d.grid)) {
		// A box wider than the data: visit the occupied cells instead.
		for c := range d.grid {
			if c.lat >= lo.lat && c.lat <= hi.lat && inLonRange(c.lon, lo.lon, hi.lon) {
				visit(c)
			}
		}
	} else {
		for la := lo.lat; la <= hi.lat; la++ {
			for lon := lo.lon; lon <= hi.lon; lon++ {
				visit(cell{la, lon})
			}
		}
	}
	// Longitudes wrapping the antimeridian.
	if lonLo < -180 || lonHi > 180 {
		hits = hits[:0]
		for _, a := range d.ds.ATMs {
			if dist := haversine(p, a.Coordinates); dist <= radiusKm {
				hits = append(hits, hit{atmPtr(d, a.ID), dist})
			}
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		switch {
		case a.dist < b.dist:
			return -1
		case a.dist > b.dist:
			return 1
		}
		return a.atm.ID - b.atm.ID
	})
	out := make([]*fixtures.ATM, len(hits))
	for i, h := range hits {
		out[i] = h.atm
	}
	return out
}

func inLonRange(v, lo, hi int32) bool { return v >= lo && v <= hi }

func atmPtr(d *data, id int) *fixtures.ATM {
	i, ok := slices.BinarySearchFunc(d.ds.ATMs, id, func(a fixtures.ATM, id int) int { return a.ID - id })
	if ok {
		return &d.ds.ATMs[i]
	}
	return nil
}

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
		atms := make([]*fixtures.ATM, len(d.ds.ATMs))
		for i := range d.ds.ATMs {
			atms[i] = &d.ds.ATMs[i]
		}
		return locationList{atms: atms}
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

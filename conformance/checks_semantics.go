package conformance

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/beevik/etree"
)

// distanceKm is the great-circle (haversine) distance in kilometres.
func distanceKm(lat1, lon1, lat2, lon2 float64) float64 {
	const r = 6371.0088
	rad := math.Pi / 180
	dlat, dlon := (lat2-lat1)*rad, (lon2-lon1)*rad
	a := math.Sin(dlat/2)*math.Sin(dlat/2) + math.Cos(lat1*rad)*math.Cos(lat2*rad)*math.Sin(dlon/2)*math.Sin(dlon/2)
	return 2 * r * math.Asin(math.Min(1, math.Sqrt(a)))
}

func semanticChecks() []Check {
	return []Check{
		{
			Name:        "semantics/maximum",
			Group:       "search semantics",
			Description: "ReturnAtmSearchByAddressWithMaximum gives at most intMaximumAtms locations, the head of the same search without a maximum",
			Labels:      []string{"get", "semantics"},
			Run:         checkMaximum,
		},
		{
			Name:        "semantics/radius",
			Group:       "search semantics",
			Description: "ReturnAtmSearchByCoordinates gives locations within bytRadius of the point, the nearest ATM included when within it",
			Labels:      []string{"json", "semantics"},
			Run:         checkRadius,
		},
		{
			Name:        "semantics/address-radius",
			Group:       "search semantics",
			Description: "ReturnAtmSearchByAddress gives locations within bytRadius of its search point (the JSON result's coordinates)",
			Labels:      []string{"json", "semantics"},
			Run:         checkAddressRadius,
		},
		{
			Name:        "semantics/institution",
			Group:       "search semantics",
			Description: "ReturnAtmSearchByInstitution gives only, and some of, that institution's locations",
			Labels:      []string{"get", "semantics"},
			Run:         checkInstitution,
		},
		{
			Name:        "semantics/city",
			Group:       "search semantics",
			Description: "ReturnAtmSearchByCity gives locations of one city only",
			Labels:      []string{"get", "semantics"},
			Run:         checkCity,
		},
		{
			Name:        "semantics/institutions",
			Group:       "search semantics",
			Description: "ReturnInstitutions lists the institution of a location: its id and name in one entry, wherever the values sit",
			Labels:      []string{"get", "semantics"},
			Run:         checkInstitutionList,
		},
		{
			Name:        "semantics/provinces",
			Group:       "search semantics",
			Description: "ReturnProvinces lists the province of a location: its value in an entry, wherever it sits",
			Labels:      []string{"get", "semantics"},
			Run:         checkProvinceList,
		},
		{
			Name:        "semantics/all-atms",
			Group:       "search semantics",
			Description: "ReturnAllAtms lists each location once, and every location a search finds, the same location node (its position aside)",
			Labels:      []string{"get", "semantics"},
			Run:         checkAllAtms,
		},
	}
}

func checkMaximum(s *Session, note Notef) error {
	f, err := s.Facts()
	if err != nil {
		return err
	}
	lim, err := s.result(HTTPGet, opWithMaximum)
	if err != nil {
		return err
	}
	all, err := s.result(HTTPGet, opByAddress)
	if err != nil {
		return err
	}
	note("%s", f.Describe(pAddress, pCity, pProvince, pPostalCode, pRadius, pMaximum))
	ll, al := f.xmlLocations(lim.Root), f.xmlLocations(all.Root)
	want := min(f.Maximum, len(al))
	if len(al) <= f.Maximum {
		note("the search without a maximum found only %d locations; the maximum %d did not cut it", len(al), f.Maximum)
	}
	if len(ll) != want {
		return &Failure{What: "ReturnAtmSearchByAddressWithMaximum: number of locations", Expected: fmt.Sprintf("%d (intMaximumAtms %d, %d without a maximum)", want, f.Maximum, len(al)), Got: strconv.Itoa(len(ll)), Exchanges: []*Exchange{lim.X, all.X}}
	}
	rel := relatedRows(lim.Root)
	lv := make([][]leaf, len(ll))
	for i, e := range ll {
		lv[i] = locationLeaves(e, rel)
	}
	if grouped(lv) {
		return groupedMaximum(s, f, lim, all, ll, al, lv)
	}
	for i := range ll {
		if d := diffElements(al[i], ll[i]); d != "" {
			return &Failure{What: fmt.Sprintf("ReturnAtmSearchByAddressWithMaximum: location %d", i+1), Expected: "the same location node as the search without a maximum", Got: "they differ " + d, Exchanges: []*Exchange{lim.X, all.X}}
		}
	}
	return nil
}

// groupedMaximum is checkMaximum for a result whose locations are grouped
// (groupLeaves): grouping them (by institution) takes the search's order
// out of the XML, so the head is read from the JSON answer of the search
// without a maximum. The locations ll of the search with a maximum (their
// values lv) are its first ones, each the same location node as the one
// of its id in al, the search without a maximum, a DataSet row's
// numbering aside (diffRows): grouping moves a row, and the search with a
// maximum numbers fewer.
func groupedMaximum(s *Session, f *Facts, lim, all *resultNode, ll, al []*etree.Element, lv [][]leaf) error {
	jx, jl, err := s.jsonQuery(opByAddress, f.Values(opByAddress))
	if err != nil {
		return err
	}
	if len(jl) < len(ll) {
		return &Failure{What: "ReturnAtmSearchByAddressWithMaximum: number of locations", Expected: fmt.Sprintf("at most the %d of the JSON search without a maximum", len(jl)), Got: strconv.Itoa(len(ll)), Exchanges: []*Exchange{lim.X, jx}}
	}
	byID := map[string]*etree.Element{}
	for _, e := range al {
		if id, ok := xmlField(e, f.Fields["id"]); ok {
			byID[norm(id)] = e
		}
	}
	head := jl[:len(ll)]
	for i, j := range alignByID(head, lv) {
		want, _ := jsonField(head[i], "id")
		got, _ := leafField(lv[j], f.Fields["id"])
		if norm(got) != norm(want) {
			return &Failure{What: "ReturnAtmSearchByAddressWithMaximum: its locations", Expected: fmt.Sprintf("the first %d of the search without a maximum (over json), location id %s among them", len(ll), want), Got: "no location node of that id", Exchanges: []*Exchange{lim.X, jx}}
		}
		a := byID[norm(got)]
		if a == nil {
			return &Failure{What: "ReturnAtmSearchByAddressWithMaximum: location id " + got, Expected: "the same location node in the search without a maximum", Got: "no location node of that id there", Exchanges: []*Exchange{lim.X, all.X}}
		}
		if d := diffRows(a, ll[j]); d != "" {
			return &Failure{What: "ReturnAtmSearchByAddressWithMaximum: location id " + got, Expected: "the same location node as the search without a maximum", Got: "they differ " + d, Exchanges: []*Exchange{lim.X, all.X}}
		}
	}
	return nil
}

func checkRadius(s *Session, note Notef) error {
	f, err := s.Facts()
	if err != nil {
		return err
	}
	x, jl, err := s.jsonQuery(opByCoords, f.Values(opByCoords))
	if err != nil {
		return err
	}
	lat0, _ := numeric(f.Latitude)
	lon0, _ := numeric(f.Longitude)
	unit := s.cfg.RadiusUnit
	limit := float64(f.Radius)
	if unit == Miles {
		limit *= 1.609344
	}
	anchorID, _ := jsonField(f.Anchor, "id")
	// The nearest location must be found when it is clearly within the
	// radius (in km, the smaller unit, when the unit is unknown; with a
	// margin for another Earth radius): always when the point is its own.
	inside := limit
	if unit == UnknownUnit {
		inside = float64(f.Radius)
	}
	mustFind := f.AnchorKm < 1e-6 || f.AnchorKm < inside*0.999
	note("%s; the nearest location, %s, is %.3f km from the point", f.Describe(pLatitude, pLongitude, pRadius), anchorID, f.AnchorKm)
	found, far := false, 0.0
	for i, l := range jl {
		la, lo, lat, lon, ok := jsonCoordinates(l)
		if !ok {
			return fail(x, fmt.Sprintf("ReturnAtmSearchByCoordinates: locations[%d].coordinates", i), "numbers", "%q, %q", la, lo)
		}
		d := distanceKm(lat0, lon0, lat, lon)
		far = math.Max(far, d)
		if id, _ := jsonField(l, "id"); id == anchorID {
			found = true
		}
		if unit != UnknownUnit && d > limit*(1+1e-9)+1e-6 {
			return fail(x, fmt.Sprintf("ReturnAtmSearchByCoordinates: locations[%d] distance from %s,%s", i, f.Latitude, f.Longitude), fmt.Sprintf("at most bytRadius %d %s (%.3f km)", f.Radius, unit, limit), "%.3f km at %s,%s", d, la, lo)
		}
	}
	if unit == UnknownUnit {
		note("radius unit unknown: %d locations for bytRadius %d, the farthest %.3f km (%.3f mi) away", len(jl), f.Radius, far, far/1.609344)
	}
	if !found && mustFind {
		return fail(x, "ReturnAtmSearchByCoordinates: the nearest ATM to the search point", fmt.Sprintf("location id %s (%.3f km away) among the results", anchorID, f.AnchorKm), "%d locations without it", len(jl))
	}
	return nil
}

// checkAddressRadius checks that the address search finds only locations
// within bytRadius of its search point: the document's "near an address
// ... within a radius", the point being the one the JSON result gives
// (its coordinates: the address as the deployment located it).
func checkAddressRadius(s *Session, note Notef) error {
	f, err := s.Facts()
	if err != nil {
		return err
	}
	x, jl, err := s.jsonQuery(opByAddress, f.Values(opByAddress))
	if err != nil {
		return err
	}
	m, err := decodeJSON(x.RespBody)
	if err != nil {
		return fail(x, "ReturnAtmSearchByAddress over json: body", "a JSON result object", "%v", err)
	}
	la0, _ := jsonField(m, "coordinates.latitude")
	lo0, _ := jsonField(m, "coordinates.longitude")
	lat0, ok1 := numeric(la0)
	lon0, ok2 := numeric(lo0)
	if !ok1 || !ok2 {
		return fail(x, "ReturnAtmSearchByAddress: coordinates", "the search point's latitude and longitude, numbers", "%q, %q", la0, lo0)
	}
	unit := s.cfg.RadiusUnit
	limit := float64(f.Radius)
	if unit == Miles {
		limit *= 1.609344
	}
	far := 0.0
	for i, l := range jl {
		la, lo, lat, lon, ok := jsonCoordinates(l)
		if !ok {
			return fail(x, fmt.Sprintf("ReturnAtmSearchByAddress: locations[%d].coordinates", i), "numbers", "%q, %q", la, lo)
		}
		d := distanceKm(lat0, lon0, lat, lon)
		far = math.Max(far, d)
		if unit != UnknownUnit && d > limit*(1+1e-9)+1e-6 {
			return fail(x, fmt.Sprintf("ReturnAtmSearchByAddress: locations[%d] distance from the search point %s,%s", i, la0, lo0), fmt.Sprintf("at most bytRadius %d %s (%.3f km)", f.Radius, unit, limit), "%.3f km at %s,%s", d, la, lo)
		}
	}
	note("%s; %d locations around the search point %s,%s, the farthest %.3f km away", f.Describe(pAddress, pCity, pProvince, pPostalCode, pRadius), len(jl), la0, lo0, far)
	return nil
}

func checkInstitution(s *Session, note Notef) error {
	f, err := s.Facts()
	if err != nil {
		return err
	}
	if why := f.unheld("whose locations ReturnAtmSearchByInstitution gives", "institution.id"); why != "" {
		return skip("%s", why)
	}
	r, err := s.result(HTTPGet, opByInst)
	if err != nil {
		return err
	}
	note("%s", f.Describe(pInstitution))
	locs := f.xmlLocations(r.Root)
	related := relatedRows(r.Root)
	anchorID, _ := jsonField(f.Anchor, "id")
	// The anchor must be found when the institution is its own; another
	// (given) institution must have some locations.
	anchorInst, _ := jsonField(f.Anchor, "institution.id")
	own := norm(anchorInst) == norm(f.InstitutionID)
	found := false
	for i, loc := range locs {
		v, _ := leafField(locationLeaves(loc, related), f.Fields["institution.id"])
		if norm(v) != norm(f.InstitutionID) {
			return fail(r.X, fmt.Sprintf("ReturnAtmSearchByInstitution: location %d institution (%s)", i+1, f.Fields["institution.id"]), "intInstitutionID "+f.InstitutionID, "%q", v)
		}
		if id, _ := xmlField(loc, f.Fields["id"]); norm(id) == norm(anchorID) {
			found = true
		}
	}
	switch {
	case own && !found:
		return fail(r.X, "ReturnAtmSearchByInstitution: the institution's locations", "location id "+anchorID+" (of institution "+f.InstitutionID+") among the results", "%d locations without it", len(locs))
	case len(locs) == 0:
		return fail(r.X, "ReturnAtmSearchByInstitution: the institution's locations", "some locations of institution "+f.InstitutionID, "none")
	}
	return nil
}

func checkCity(s *Session, note Notef) error {
	f, err := s.Facts()
	if err != nil {
		return err
	}
	if len(f.CityIDs) == 0 {
		return skip("%s", f.CityNote)
	}
	if why := f.unheld("whether ReturnAtmSearchByCity's locations are of one city", "address.city"); why != "" {
		return skip("%s", why)
	}
	note("intCityID %v: %s", f.CityIDs, f.CityNote)
	for _, id := range f.CityIDs {
		x, err := s.Do(Request{Binding: HTTPGet, Op: opByCity, Values: map[string]string{pCityID: strconv.Itoa(id)}})
		if err != nil {
			return err
		}
		root, err := resultOf(x, "")
		if err != nil {
			return err
		}
		locs := f.xmlLocations(root)
		if len(locs) == 0 {
			return fail(x, fmt.Sprintf("ReturnAtmSearchByCity %d", id), "the city's locations", "none")
		}
		var city, prov string
		for i, loc := range locs {
			c, _ := xmlField(loc, f.Fields["address.city"])
			var p string
			if f.Fields["address.province"] != "" { // else not held: the city alone
				p, _ = xmlField(loc, f.Fields["address.province"])
			}
			if i == 0 {
				city, prov = c, p
				continue
			}
			if c != city || p != prov {
				return fail(x, fmt.Sprintf("ReturnAtmSearchByCity %d: location %d", id, i+1), fmt.Sprintf("city %q, %q like location 1", city, prov), "%q, %q", c, p)
			}
		}
	}
	return nil
}

func checkAllAtms(s *Session, _ Notef) error {
	f, err := s.Facts()
	if err != nil {
		return err
	}
	all, err := s.result(HTTPGet, opAllAtms)
	if err != nil {
		return err
	}
	ids, err := idSet(f, all)
	if err != nil {
		return err
	}
	if len(ids) == 0 {
		return skip("ReturnAllAtms lists no locations (a target may withhold the full list), so the searches' locations cannot be compared with it")
	}
	seen := map[string]bool{}
	for _, id := range ids {
		if seen[id] {
			return fail(all.X, "ReturnAllAtms: location ids", "each location once", "id %s twice", id[2:])
		}
		seen[id] = true
	}
	ops := []string{opByCoords, opByAddress, opWithMaximum, opByInst}
	if len(f.CityIDs) > 0 {
		ops = append(ops, opByCity)
	}
	allLocs := resultLocations(f, all)
	for _, op := range ops {
		r, err := s.result(HTTPGet, op)
		if err != nil {
			return err
		}
		sub, err := idSet(f, r)
		if err != nil {
			return err
		}
		for _, id := range sub {
			if !seen[id] {
				return &Failure{What: op + ": location id " + id[2:], Expected: "a location ReturnAllAtms lists", Got: "an id ReturnAllAtms does not list", Exchanges: []*Exchange{r.X, all.X}}
			}
		}
		if f := sameAsAllAtms(f, r, allLocs); f != nil {
			return f
		}
	}
	return nil
}

func checkInstitutionList(s *Session, note Notef) error {
	f, err := s.Facts()
	if err != nil {
		return err
	}
	r, err := s.result(HTTPGet, opInsts)
	if err != nil {
		return err
	}
	anchorID, _ := jsonField(f.Anchor, "id")
	id, _ := jsonField(f.Anchor, "institution.id")
	name, _ := jsonField(f.Anchor, "institution.name")
	want := []string{norm(id)}
	if strings.TrimSpace(name) != "" {
		want = append(want, norm(name))
	}
	// The innermost element whose values hold both: the list's entry, be it
	// an item, a DataSet row or a node with the values in attributes.
	entry := innermostHolding(r.Root, want)
	if entry == nil || !isEntry(entry, want) {
		return fail(r.X, "ReturnInstitutions: the institution of location "+anchorID, fmt.Sprintf("an entry with intInstitutionID %s and name %q (the location's institution over json)", id, name), "none among %s", clip(leafText(r.Root), 400, r.X.masks()...))
	}
	note("institution %s %q of location %s: entry %s", id, name, anchorID, nameOf(entry))
	return nil
}

// checkProvinceList checks that ReturnProvinces ("List of provinces in
// the service's database") lists the anchor location's province. The
// document does not say what a province entry holds, so the location's
// province value (its address.province over json) is looked for among the
// list's values wherever they sit: an element's text, an attribute, a
// DataSet row's column.
func checkProvinceList(s *Session, note Notef) error {
	f, err := s.Facts()
	if err != nil {
		return err
	}
	r, err := s.result(HTTPGet, opProvinces)
	if err != nil {
		return err
	}
	anchorID, _ := jsonField(f.Anchor, "id")
	prov, _ := jsonField(f.Anchor, "address.province")
	if strings.TrimSpace(prov) == "" {
		return skip("location %s has no province over json: there is no province to look for in ReturnProvinces", anchorID)
	}
	entry := innermostHolding(r.Root, []string{norm(prov)})
	if entry == nil {
		got := "none among " + clip(leafText(r.Root), 400, r.X.masks()...)
		if len(leaves(r.Root)) == 0 {
			got = "a list with no values at all"
		}
		return fail(r.X, "ReturnProvinces: the province of location "+anchorID, fmt.Sprintf("an entry holding %q (the location's address.province over json)", prov), "%s", got)
	}
	note("province %q of location %s: entry %s", prov, anchorID, nameOf(entry))
	return nil
}

// innermostHolding returns the innermost element under (and including)
// root whose values (leaves) hold every one of want, the last in document
// order where several do; nil when root's do not. One pass, bottom up, each
// element read once: an element's values are its attributes' and its
// children's, so a list nested deep costs its size, not its size times its
// depth (a few hundred levels of a hostile answer cost hundreds of MB).
func innermostHolding(root *etree.Element, want []string) *etree.Element {
	all := uint(1)<<len(want) - 1
	found := func(v string) uint {
		var m uint
		n := norm(v)
		for i, w := range want {
			if n == w {
				m |= 1 << i
			}
		}
		return m
	}
	// visit returns which of want e's values (leaves(e)) hold, which e
	// gives its parent's (its text too when it has no data children), and
	// the innermost element of e's that holds them all.
	var visit func(e *etree.Element) (own, given uint, inner *etree.Element)
	visit = func(e *etree.Element) (own, given uint, inner *etree.Element) {
		for _, a := range e.Attr {
			if !isMetaAttr(a) {
				own |= found(a.Value)
			}
		}
		kids := dataKids(e)
		for _, k := range kids {
			_, g, in := visit(k)
			own |= g
			if in != nil {
				inner = in
			}
		}
		given = own
		if len(kids) == 0 {
			given |= found(textOf(e))
		}
		if inner == nil && own == all {
			inner = e
		}
		return own, given, inner
	}
	_, _, inner := visit(root)
	return inner
}

// isEntry reports whether e, whose values hold every one of want, is one
// entry of a list rather than the list: no two of the children holding the
// values are repeated siblings of one name.
func isEntry(e *etree.Element, want []string) bool {
	byTag := map[string]*etree.Element{}
	for _, w := range want {
		for _, k := range dataKids(e) {
			held := false
			for _, l := range leaves(k) {
				if norm(l.Value) == w {
					held = true
					break
				}
			}
			if !held {
				continue
			}
			if other, ok := byTag[k.Tag]; ok && other != k {
				return false
			}
			byTag[k.Tag] = k
			break
		}
	}
	return true
}

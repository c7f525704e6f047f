package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/internal/redact"
	"github.com/beevik/etree"
)

// Facts are what the suite learned about the target from its own answers:
// where location nodes are, which XML leaf carries which JSON field, and the
// query values every operation is called with.
type Facts struct {
	// Location is the expanded name of the XML location node.
	Location qname
	// Fields maps JSON location fields (e.g. "institution.id") to the path of
	// the XML leaf that carries the same value inside a location node.
	Fields map[string]string
	// Unheld are the JSON location fields of keyFields that no XML leaf
	// holds in every location node (a deployment whose results carry no
	// city), each with its value in the first location, the key and the
	// secrets masked in it (a target may echo them): the checks that need
	// one skip, saying so.
	Unheld map[string]string
	// Anchor is one JSON location object; searches are made around it.
	Anchor map[string]any
	// AnchorKm is the anchor's distance from the search point in km: 0
	// unless the search point was given.
	AnchorKm float64
	// Latitude and Longitude are the search point of the coordinate
	// searches: given, else the anchor's coordinates as written in XML.
	Latitude, Longitude string
	// Address, City, Province and PostalCode are the address of the address
	// searches: each given, else the anchor's.
	Address, City, Province, PostalCode string
	// InstitutionID is the intInstitutionID searched: given, else the
	// anchor's institution id.
	InstitutionID string
	// Radius is the bytRadius of the searches: given, else the smallest tried
	// that finds at least five locations around the address.
	Radius int
	// Maximum is the intMaximumAtms of ReturnAtmSearchByAddressWithMaximum:
	// given, else 3.
	Maximum int
	// CityIDs are the intCityID values checked: given, or found by probing.
	CityIDs []int
	// CityNote says how CityIDs were found, or why there are none.
	CityNote string
	// Origin says where each query value came from, by parameter name
	// (dblLatitude, strAddress, bytRadius, intCityID, …): "given", or how
	// the suite found it.
	Origin map[string]string
}

// queryParams are the parameters whose values the suite finds or is given,
// in the order Describe and Summary list them.
var queryParams = []string{pLatitude, pLongitude, pAddress, pCity, pProvince, pPostalCode, pInstitution, pRadius, pMaximum, pCityID}

// value returns the value of a query parameter as a note shows it.
func (f *Facts) value(param string) string {
	switch param {
	case pLatitude:
		return f.Latitude
	case pLongitude:
		return f.Longitude
	case pAddress:
		return strconv.Quote(f.Address)
	case pCity:
		return strconv.Quote(f.City)
	case pProvince:
		return strconv.Quote(f.Province)
	case pPostalCode:
		return strconv.Quote(f.PostalCode)
	case pInstitution:
		return f.InstitutionID
	case pRadius:
		return strconv.Itoa(f.Radius)
	case pMaximum:
		return strconv.Itoa(f.Maximum)
	case pCityID:
		if len(f.CityIDs) == 0 {
			return "none"
		}
		return strings.Trim(fmt.Sprint(f.CityIDs), "[]")
	}
	return "?"
}

// Describe lists the values of params (parameter names) and where they came
// from, a run of values of the same origin naming it once, e.g.
// `dblLatitude 44.6488, dblLongitude -63.5752 (given); bytRadius 10 (the
// smallest of …)`.
func (f *Facts) Describe(params ...string) string {
	var b strings.Builder
	for i, p := range params {
		if i > 0 {
			if f.Origin[p] == f.Origin[params[i-1]] {
				b.WriteString(", ")
			} else {
				b.WriteString("; ")
			}
		}
		fmt.Fprintf(&b, "%s %s", p, f.value(p))
		if i == len(params)-1 || f.Origin[params[i+1]] != f.Origin[p] {
			fmt.Fprintf(&b, " (%s)", f.Origin[p])
		}
	}
	return b.String()
}

// Summary describes every query value and the anchor location.
func (f *Facts) Summary() string {
	id, _ := jsonField(f.Anchor, "id")
	return fmt.Sprintf("%s; anchor location %s, %.3f km from the search point", f.Describe(queryParams...), id, f.AnchorKm)
}

// Values returns the parameters (without the key) the suite calls op with.
func (f *Facts) Values(op string) map[string]string {
	r := strconv.Itoa(f.Radius)
	addr := map[string]string{pAddress: f.Address, pCity: f.City, pProvince: f.Province, pPostalCode: f.PostalCode, pRadius: r}
	switch op {
	case opByAddress:
		return addr
	case opWithMaximum:
		addr[pMaximum] = strconv.Itoa(f.Maximum)
		return addr
	case opByCoords:
		return map[string]string{pPostalCode: f.PostalCode, pLatitude: f.Latitude, pLongitude: f.Longitude, pRadius: r}
	case opByInst:
		return map[string]string{pInstitution: f.InstitutionID}
	case opByCity:
		if len(f.CityIDs) > 0 {
			return map[string]string{pCityID: strconv.Itoa(f.CityIDs[0])}
		}
		return map[string]string{pCityID: "1"}
	}
	return nil
}

// Facts discovers (once) the query values and the location node of the
// target, from ReturnAllAtms over HTTP GET and the JSON binding.
func (s *Session) Facts() (*Facts, error) {
	s.factsOnce.Do(func() {
		s.facts, s.factsErr = s.discover()
		if s.factsErr != nil {
			s.factsErr = fmt.Errorf("discovering query values from the target's answers: %w", s.factsErr)
		}
		s.factsDone.Store(true)
	})
	return s.facts, s.factsErr
}

// discovered returns the facts if a check has already asked for them, else
// nil: it never sends a request.
func (s *Session) discovered() *Facts {
	if !s.factsDone.Load() {
		return nil
	}
	return s.facts
}

// decodeJSON parses a JSON result object, numbers kept as json.Number.
func decodeJSON(b []byte) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, fmt.Errorf("decoding JSON: %w", err)
	}
	if len(bytes.TrimSpace(b[d.InputOffset():])) > 0 {
		return nil, fmt.Errorf("decoding JSON: data after the result object")
	}
	return m, nil
}

// jsonLocations returns the locations array of a JSON result.
func jsonLocations(m map[string]any) ([]map[string]any, error) {
	arr, ok := m["locations"].([]any)
	if !ok {
		return nil, fmt.Errorf("no locations array")
	}
	out := make([]map[string]any, len(arr))
	for i, v := range arr {
		if out[i], ok = v.(map[string]any); !ok {
			return nil, fmt.Errorf("locations[%d] is not an object", i)
		}
	}
	return out, nil
}

// jsonLeaves flattens a JSON value into path/value leaves: "address.city",
// "languages[]"; null gives no leaf.
func jsonLeaves(v any, path string, out []leaf) []leaf {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			out = jsonLeaves(t[k], p, out)
		}
	case []any:
		for _, e := range t {
			out = jsonLeaves(e, path+"[]", out)
		}
	case json.Number:
		out = append(out, leaf{path, t.String(), t.String()})
	case string:
		out = append(out, leaf{path, t, normalizeNewlines(t)})
	case bool:
		out = append(out, leaf{path, strconv.FormatBool(t), strconv.FormatBool(t)})
	}
	return out
}

// jsonCoordinates returns a JSON location's coordinates as written and as
// numbers; ok is false unless both are numbers.
func jsonCoordinates(l map[string]any) (la, lo string, lat, lon float64, ok bool) {
	la, _ = jsonField(l, "coordinates.latitude")
	lo, _ = jsonField(l, "coordinates.longitude")
	lat, ok1 := numeric(la)
	lon, ok2 := numeric(lo)
	return la, lo, lat, lon, ok1 && ok2
}

// jsonField returns the leaf value at a dotted path of a JSON object.
func jsonField(m map[string]any, path string) (string, bool) {
	var v any = m
	for _, p := range strings.Split(path, ".") {
		o, ok := v.(map[string]any)
		if !ok {
			return "", false
		}
		if v, ok = o[p]; !ok {
			return "", false
		}
	}
	switch t := v.(type) {
	case json.Number:
		return t.String(), true
	case string:
		return t, true
	case bool:
		return strconv.FormatBool(t), true
	}
	return "", false
}

// xmlField returns the value of the leaf at path inside a location node, if
// it occurs exactly once.
func xmlField(e *etree.Element, path string) (string, bool) {
	return leafField(leaves(e), path)
}

// leafField returns the value of the leaf at path among ls, if it occurs
// exactly once.
func leafField(ls []leaf, path string) (string, bool) {
	var v string
	n := 0
	for _, l := range ls {
		if l.Path == path {
			v = l.Value
			n++
		}
	}
	return v, n == 1
}

// xmlLocations parses an XML result and returns its location nodes.
func (f *Facts) xmlLocations(root *etree.Element) []*etree.Element {
	return findAll(root, f.Location)
}

func (s *Session) jsonQuery(op string, vals map[string]string) (*Exchange, []map[string]any, error) {
	x, err := s.Do(Request{Binding: JSON, Op: op, Values: vals})
	if err != nil {
		return nil, nil, err
	}
	if x.Status != 200 {
		return x, nil, fail(x, op+" over json: status", "200", "%s", answered(x))
	}
	m, err := decodeJSON(x.RespBody)
	if err != nil {
		return x, nil, fail(x, op+" over json: body", "a JSON result object", "%v in %s", err, snippet(x.RespBody, x.masks()...))
	}
	locs, err := jsonLocations(m)
	if err != nil {
		return x, nil, fail(x, op+" over json: body", "a locations array", "%v", err)
	}
	return x, locs, nil
}

// keyFields are the JSON fields the semantic checks need to find in XML.
// Only id must be found (locations are told apart by it); a deployment's
// results may carry none of the others (a typed result without a City),
// and the checks that need one then skip (Facts.Unheld).
var keyFields = []string{"id", "institution.id", "address.city", "address.province", "coordinates.latitude", "coordinates.longitude"}

// Origins of query values that were not discovered in the target's answers.
const (
	originGiven   = "given"
	originDefault = "the suite's default"
)

func (s *Session) discover() (*Facts, error) {
	cfg := s.cfg
	f := &Facts{Maximum: 3, Origin: map[string]string{}}
	if cfg.Latitude != nil && cfg.Longitude != nil {
		f.Latitude, f.Longitude = formatFloat(*cfg.Latitude), formatFloat(*cfg.Longitude)
		f.Origin[pLatitude], f.Origin[pLongitude] = originGiven, originGiven
		if err := s.anchorNear(f); err != nil {
			return nil, err
		}
	} else if err := s.anchorFromAllAtms(f); err != nil {
		return nil, err
	}
	anchorID, _ := jsonField(f.Anchor, "id")
	ofAnchor := "of location " + anchorID
	if f.Origin[pLatitude] == "" {
		f.Origin[pLatitude], f.Origin[pLongitude] = ofAnchor+" in ReturnAllAtms", ofAnchor+" in ReturnAllAtms"
	}
	pick := func(param string, given *string, field string) string {
		if given != nil {
			f.Origin[param] = originGiven
			return *given
		}
		f.Origin[param] = ofAnchor
		v, _ := jsonField(f.Anchor, field)
		return v
	}
	f.Address = pick(pAddress, cfg.Address, "address.streetAddress")
	f.City = pick(pCity, cfg.City, "address.city")
	f.Province = pick(pProvince, cfg.Province, "address.province")
	f.PostalCode = pick(pPostalCode, cfg.PostalCode, "address.postalCode")
	if cfg.InstitutionID != nil {
		f.InstitutionID, f.Origin[pInstitution] = strconv.Itoa(*cfg.InstitutionID), originGiven
	} else {
		f.InstitutionID = pick(pInstitution, nil, "institution.id")
	}
	f.Origin[pMaximum] = originDefault
	if cfg.Maximum != nil {
		f.Maximum, f.Origin[pMaximum] = *cfg.Maximum, originGiven
	}

	// The radius: given, or the smallest that finds at least five locations.
	if cfg.Radius != nil {
		f.Radius, f.Origin[pRadius] = *cfg.Radius, originGiven
	} else {
		f.Radius, f.Origin[pRadius] = 255, "none of 5, 10, 25, 50 and 100 found five locations around the address"
		for _, r := range []int{5, 10, 25, 50, 100} {
			vals := f.Values(opByAddress)
			vals[pRadius] = strconv.Itoa(r)
			if _, jl, err := s.jsonQuery(opByAddress, vals); err == nil && len(jl) >= 5 {
				f.Radius, f.Origin[pRadius] = r, "the smallest of 5, 10, 25, 50 and 100 that finds five locations around the address"
				break
			}
		}
	}

	// The field map, from a wide search in JSON and in XML.
	wide := map[string]string{pPostalCode: f.PostalCode, pLatitude: f.Latitude, pLongitude: f.Longitude, pRadius: "255"}
	jx, jl, err := s.jsonQuery(opByCoords, wide)
	if err != nil {
		return nil, err
	}
	gx, err := s.Do(Request{Binding: s.discoveryBinding(), Op: opByCoords, Values: wide})
	if err != nil {
		return nil, err
	}
	groot, err := s.readResult(gx)
	if err != nil {
		return nil, err
	}
	if f.Location == (qname{}) {
		// ReturnAllAtms was not read: the location node is the element of
		// this result that occurs once per JSON location and carries its values.
		if f.Location, err = locationNode(groot, jl); err != nil {
			return nil, &Failure{What: "ReturnAtmSearchByCoordinates over get: location nodes", Expected: fmt.Sprintf("an element once per JSON location (%d) with its id, institution, city, province and coordinates", len(jl)), Got: err.Error(), Exchanges: []*Exchange{jx, gx}}
		}
	}
	xl := f.xmlLocations(groot)
	if len(xl) != len(jl) {
		return nil, &Failure{What: "ReturnAtmSearchByCoordinates: JSON and XML location counts", Expected: fmt.Sprintf("%d XML %s nodes, as many as JSON locations", len(jl), f.Location), Got: strconv.Itoa(len(xl)), Exchanges: []*Exchange{jx, gx}}
	}
	if f.Fields, f.Unheld, err = learnFields(jl, xl, relatedRows(groot), jx.masks()...); err != nil {
		return nil, also(err, jx, gx)
	}

	// Cities: given, or the first id from 1 to 200 with locations.
	defer func() { f.Origin[pCityID] = f.CityNote }()
	if len(cfg.CityIDs) > 0 {
		f.CityIDs, f.CityNote = cfg.CityIDs, originGiven
		return f, nil
	}
	id, err := s.probeCity(f)
	if err != nil {
		return nil, err
	}
	if id > 0 {
		f.CityIDs = []int{id}
	}
	f.CityNote = cityNote(id)
	return f, nil
}

// formatFloat writes a coordinate as the shortest decimal that reads back
// as the same float64.
func formatFloat(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// maxCoordinateValues bounds the decimal values of a location that
// anchorFromAllAtms tries as its coordinates, a JSON call for each ordered
// pair: a location holds its latitude, its longitude and perhaps a few
// more decimals, and one holding hundreds would otherwise cost tens of
// thousands of calls.
const maxCoordinateValues = 12

// anchorFromAllAtms learns the location node from ReturnAllAtms and takes as
// anchor one of its first locations whose own coordinates, asked of the JSON
// binding, find it.
func (s *Session) anchorFromAllAtms(f *Facts) error {
	x, err := s.Do(Request{Binding: s.discoveryBinding(), Op: opAllAtms})
	if err != nil {
		return err
	}
	root, err := s.readResult(x)
	if err != nil {
		return err
	}
	var n int
	if f.Location, n = largestGroup(root); n < 2 {
		return fail(x, "ReturnAllAtms over get: location nodes", "a list of location nodes (repeated sibling elements)", "%d (to check a target that lists too few, give a search point with --latitude and --longitude)", n)
	}
	locs := f.xmlLocations(root)

	var tried []string
	for _, loc := range locs[:min(3, len(locs))] {
		var nums []string
		for _, l := range leaves(loc) {
			if v, ok := numeric(l.Value); ok && strings.Contains(l.Value, ".") && v >= -180 && v <= 180 && len(nums) < maxCoordinateValues {
				nums = append(nums, strings.TrimSpace(l.Value))
			}
		}
		for i := 0; i < len(nums); i++ {
			for j := 0; j < len(nums); j++ {
				if lat, _ := numeric(nums[i]); i == j || lat < -90 || lat > 90 {
					continue
				}
				tried = append(tried, nums[i]+","+nums[j])
				_, jl, err := s.jsonQuery(opByCoords, map[string]string{pPostalCode: "", pLatitude: nums[i], pLongitude: nums[j], pRadius: "1"})
				if err != nil {
					return err
				}
				for _, l := range jl {
					la, _ := jsonField(l, "coordinates.latitude")
					lo, _ := jsonField(l, "coordinates.longitude")
					if norm(la) == norm(nums[i]) && norm(lo) == norm(nums[j]) {
						f.Anchor, f.Latitude, f.Longitude = l, nums[i], nums[j]
						return nil
					}
				}
			}
		}
	}
	return fmt.Errorf("no ATM of ReturnAllAtms found by the JSON binding at its own coordinates (tried latitude,longitude %q); give a search point with --latitude and --longitude", tried)
}

// anchorRadii are the bytRadius values tried, in turn, to find the location
// nearest to a given search point.
var anchorRadii = []int{1, 2, 5, 10, 25, 50, 100, 255}

// anchorNear takes as anchor the location nearest to the given search point:
// the nearest of the first JSON coordinate search, with a growing radius,
// that finds any.
func (s *Session) anchorNear(f *Facts) error {
	lat0, lon0 := *s.cfg.Latitude, *s.cfg.Longitude
	for _, r := range anchorRadii {
		_, jl, err := s.jsonQuery(opByCoords, map[string]string{pPostalCode: "", pLatitude: f.Latitude, pLongitude: f.Longitude, pRadius: strconv.Itoa(r)})
		if err != nil {
			return err
		}
		best, bestKm := -1, 0.0
		for i, l := range jl {
			_, _, lat, lon, ok := jsonCoordinates(l)
			if !ok {
				continue
			}
			if d := distanceKm(lat0, lon0, lat, lon); best < 0 || d < bestKm {
				best, bestKm = i, d
			}
		}
		if best >= 0 {
			f.Anchor, f.AnchorKm = jl[best], bestKm
			return nil
		}
	}
	return fmt.Errorf("no location with coordinates within bytRadius %d of the given point %s,%s over the JSON binding (tried bytRadius %v); give a point near the target's ATMs", anchorRadii[len(anchorRadii)-1], f.Latitude, f.Longitude, anchorRadii)
}

// Bounds of locationNode's search, so that a hostile answer (a million
// distinct element names, a node with a million values) costs a bounded
// effort: a location result has a few dozen element names, and a location
// node a few dozen values.
const (
	maxNodeNames  = 1000 // element names tried as the location node
	maxNodeLeaves = 4096 // values of a location node
)

// locationNode finds the location node of an XML search result from the
// JSON locations of the same search: the repeated sibling element (as in
// ReturnAllAtms) when it occurs once per JSON location and carries the key
// fields, else, among the element names that do, the one whose values cover
// most of the first JSON location's, the innermost on a tie (a single
// location is not a group, and its wrappers also occur once).
func locationNode(root *etree.Element, jl []map[string]any) (qname, error) {
	if len(jl) == 0 {
		return qname{}, fmt.Errorf("no locations to find the XML location node by")
	}
	groups := outermost(root)
	rel := relatedRows(root)
	fits := func(q qname) bool {
		xl := groups[q]
		if len(xl) != len(jl) {
			return false
		}
		fields, _, err := learnFields(jl, xl, rel)
		return err == nil && len(fields) >= 2 // the id, and another key field
	}
	if q, n := largestGroup(root); n >= 2 && fits(q) {
		return q, nil
	}
	var best qname
	bestCover, bestDepth, tried := -1, -1, 0
	seen := map[qname]bool{}
	var walk func(e *etree.Element, depth int)
	walk = func(e *etree.Element, depth int) {
		q := nameOf(e)
		if !seen[q] && (len(e.ChildElements()) > 0 || len(attrs(e)) > 0) {
			seen[q] = true
			if tried++; tried <= maxNodeNames && fits(q) {
				if c := coverage(groups[q][0], jl[0]); c > bestCover || (c == bestCover && depth > bestDepth) {
					best, bestCover, bestDepth = q, c, depth
				}
			}
		}
		for _, k := range e.ChildElements() {
			walk(k, depth+1)
		}
	}
	walk(root, 0)
	if bestCover < 0 {
		if tried > maxNodeNames {
			return qname{}, fmt.Errorf("no such element among the first %d element names (of %d: no location result has so many)", maxNodeNames, tried)
		}
		return qname{}, fmt.Errorf("no such element")
	}
	return best, nil
}

// outermost returns, by name, what findAll returns for each name under
// root (the elements of that name with no ancestor of the same name), in
// one walk.
func outermost(root *etree.Element) map[qname][]*etree.Element {
	out := map[qname][]*etree.Element{}
	open := map[qname]int{} // names of the ancestors of the element walked
	var walk func(e *etree.Element)
	walk = func(e *etree.Element) {
		q := nameOf(e)
		if open[q] == 0 {
			out[q] = append(out[q], e)
		}
		open[q]++
		for _, k := range dataKids(e) {
			walk(k)
		}
		open[q]--
	}
	walk(root)
	return out
}

// coverage counts the values of a JSON location (but index and empty ones)
// that are among the values of an XML node, each XML value used once.
func coverage(e *etree.Element, loc map[string]any) int {
	return leafCoverage(leaves(e), loc)
}

// learnFields finds, for each key JSON field, the XML leaf path whose value
// equals the field's in every pair of JSON and XML locations. The values
// it keeps or quotes (unheld, a failure) have keys masked, before a %q
// verb escapes them.
//
// The XML locations' values are their own and their groups' (rel:
// locationLeaves; nil for their own alone), each compared with the JSON
// location of the same id (alignByID).
func learnFields(jl []map[string]any, xl []*etree.Element, rel *relations, keys ...string) (fields, unheld map[string]string, err error) {
	if len(jl) == 0 || len(xl) != len(jl) {
		return nil, nil, fmt.Errorf("no locations to learn XML field names from")
	}
	xv := make([][]leaf, len(xl))
	for i, e := range xl {
		if xv[i] = locationLeaves(e, rel); len(xv[i]) > maxNodeLeaves {
			return nil, nil, &Failure{What: "XML location nodes", Expected: fmt.Sprintf("at most %d values in a location node", maxNodeLeaves), Got: fmt.Sprintf("%d values in node %d", len(xv[i]), i+1)}
		}
	}
	perm := alignByID(jl, xv)
	// Each node's values once, by path: the values of paths that occur
	// exactly once (xmlField).
	type once struct {
		value string
		n     int
	}
	byPath := make([]map[string]once, len(xl))
	var cands []string
	for i := range jl {
		ls := xv[perm[i]]
		m := make(map[string]once, len(ls))
		for _, l := range ls {
			o, seen := m[l.Path]
			if i == 0 && !seen {
				cands = append(cands, l.Path)
			}
			m[l.Path] = once{l.Value, o.n + 1}
		}
		byPath[i] = m
	}
	fields, unheld = map[string]string{}, map[string]string{}
	for _, jf := range keyFields {
		last := jf[strings.LastIndex(jf, ".")+1:]
		var match []string
		for _, p := range cands {
			ok := true
			for i := range jl {
				jv, jok := jsonField(jl[i], jf)
				xv := byPath[i][p]
				if !jok || xv.n != 1 || norm(jv) != norm(xv.value) {
					ok = false
					break
				}
			}
			if ok {
				match = append(match, p)
			}
		}
		if len(match) == 0 {
			jv, _ := jsonField(jl[0], jf)
			if jf != "id" {
				unheld[jf] = redact.Text(jv, keys...)
				continue
			}
			return nil, nil, &Failure{What: "XML location nodes: field " + jf, Expected: printablef(keys, "an XML leaf with the value of JSON %s (%q in the first location) in every location node", jf, jv), Got: "no such leaf"}
		}
		best := match[0]
		for _, p := range match {
			seg := p[strings.LastIndex(p, "/")+1:]
			if strings.EqualFold(strings.TrimPrefix(seg, "@"), last) {
				best = p
				break
			}
		}
		fields[jf] = best
	}
	return fields, unheld, nil
}

// unheld says, for a check that needs the JSON location fields jfs in the
// XML results, why it cannot be made when the target's location nodes hold
// one of them nowhere; "" when they all are held.
func (f *Facts) unheld(check string, jfs ...string) string {
	for _, jf := range jfs {
		if v, ok := f.Unheld[jf]; ok {
			return fmt.Sprintf("the target's XML location nodes hold no %s: no leaf holds the JSON answers' value in every location (%q in the first), so %s cannot be told from its XML results", jf, v, check)
		}
	}
	return ""
}

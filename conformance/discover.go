package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

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
	// Anchor is one JSON location object; searches are made around it.
	Anchor map[string]any
	// Latitude and Longitude are the anchor's coordinates, as written in XML.
	Latitude, Longitude string
	// Address, City, Province and PostalCode are the anchor's address.
	Address, City, Province, PostalCode string
	// InstitutionID is the anchor's institution id.
	InstitutionID string
	// Radius is the bytRadius of the searches: the smallest tried that finds
	// at least five locations around the anchor's address.
	Radius int
	// Maximum is the intMaximumAtms of ReturnAtmSearchByAddressWithMaximum.
	Maximum int
	// CityIDs are the intCityID values checked: given, or found by probing.
	CityIDs []int
	// CityNote says how CityIDs were found, or why there are none.
	CityNote string
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
	})
	return s.facts, s.factsErr
}

// decodeJSON parses a JSON result object, numbers kept as json.Number.
func decodeJSON(b []byte) (map[string]any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		return nil, fmt.Errorf("decoding JSON: %w", err)
	}
	if d.More() {
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
		out = append(out, leaf{path, t.String()})
	case string:
		out = append(out, leaf{path, t})
	case bool:
		out = append(out, leaf{path, strconv.FormatBool(t)})
	}
	return out
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
	var v string
	n := 0
	for _, l := range leaves(e) {
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
		return x, nil, fail(x, op+" over json: status", "200", "%d with %s", x.Status, snippet(x.RespBody))
	}
	m, err := decodeJSON(x.RespBody)
	if err != nil {
		return x, nil, fail(x, op+" over json: body", "a JSON result object", "%v in %s", err, snippet(x.RespBody))
	}
	locs, err := jsonLocations(m)
	if err != nil {
		return x, nil, fail(x, op+" over json: body", "a locations array", "%v", err)
	}
	return x, locs, nil
}

// keyFields are the JSON fields the semantic checks need to find in XML.
var keyFields = []string{"id", "institution.id", "address.city", "address.province", "coordinates.latitude", "coordinates.longitude"}

func (s *Session) discover() (*Facts, error) {
	f := &Facts{Maximum: 3}
	x, err := s.Do(Request{Binding: HTTPGet, Op: opAllAtms})
	if err != nil {
		return nil, err
	}
	root, err := resultOf(x, "")
	if err != nil {
		return nil, err
	}
	var n int
	if f.Location, n = largestGroup(root); n < 2 {
		return nil, fail(x, "ReturnAllAtms over get: location nodes", "a list of location nodes (repeated sibling elements)", "%d", n)
	}
	locs := f.xmlLocations(root)

	// The anchor: an XML location whose coordinates, asked of the JSON
	// binding, find the same location.
	var tried []string
	for _, loc := range locs[:min(3, len(locs))] {
		var nums []string
		for _, l := range leaves(loc) {
			if v, ok := numeric(l.Value); ok && strings.Contains(l.Value, ".") && v >= -180 && v <= 180 {
				nums = append(nums, strings.TrimSpace(l.Value))
			}
		}
		for i := 0; i < len(nums) && f.Anchor == nil; i++ {
			for j := 0; j < len(nums) && f.Anchor == nil; j++ {
				if lat, _ := numeric(nums[i]); i == j || lat < -90 || lat > 90 {
					continue
				}
				tried = append(tried, nums[i]+","+nums[j])
				_, jl, err := s.jsonQuery(opByCoords, map[string]string{pPostalCode: "", pLatitude: nums[i], pLongitude: nums[j], pRadius: "1"})
				if err != nil {
					return nil, err
				}
				for _, l := range jl {
					la, _ := jsonField(l, "coordinates.latitude")
					lo, _ := jsonField(l, "coordinates.longitude")
					if norm(la) == norm(nums[i]) && norm(lo) == norm(nums[j]) {
						f.Anchor, f.Latitude, f.Longitude = l, nums[i], nums[j]
						break
					}
				}
			}
		}
		if f.Anchor != nil {
			break
		}
	}
	if f.Anchor == nil {
		return nil, fmt.Errorf("no ATM of ReturnAllAtms found by the JSON binding at its own coordinates (tried latitude,longitude %q)", tried)
	}
	f.Address, _ = jsonField(f.Anchor, "address.streetAddress")
	f.City, _ = jsonField(f.Anchor, "address.city")
	f.Province, _ = jsonField(f.Anchor, "address.province")
	f.PostalCode, _ = jsonField(f.Anchor, "address.postalCode")
	f.InstitutionID, _ = jsonField(f.Anchor, "institution.id")

	// The radius: the smallest that finds at least five locations.
	f.Radius = 255
	for _, r := range []int{5, 10, 25, 50, 100} {
		vals := f.Values(opByAddress)
		vals[pRadius] = strconv.Itoa(r)
		if _, jl, err := s.jsonQuery(opByAddress, vals); err == nil && len(jl) >= 5 {
			f.Radius = r
			break
		}
	}

	// The field map, from a wide search in JSON and in XML.
	wide := map[string]string{pPostalCode: f.PostalCode, pLatitude: f.Latitude, pLongitude: f.Longitude, pRadius: "255"}
	jx, jl, err := s.jsonQuery(opByCoords, wide)
	if err != nil {
		return nil, err
	}
	gx, err := s.Do(Request{Binding: HTTPGet, Op: opByCoords, Values: wide})
	if err != nil {
		return nil, err
	}
	groot, err := resultOf(gx, "")
	if err != nil {
		return nil, err
	}
	xl := f.xmlLocations(groot)
	if len(xl) != len(jl) {
		return nil, &Failure{What: "ReturnAtmSearchByCoordinates: JSON and XML location counts", Expected: fmt.Sprintf("%d XML %s nodes, as many as JSON locations", len(jl), f.Location), Got: strconv.Itoa(len(xl)), Exchanges: []*Exchange{jx, gx}}
	}
	if f.Fields, err = learnFields(jl, xl); err != nil {
		return nil, also(err, jx, gx)
	}

	// Cities: given, or the first id from 1 to 200 with locations.
	if len(s.cfg.CityIDs) > 0 {
		f.CityIDs, f.CityNote = s.cfg.CityIDs, "given"
		return f, nil
	}
	for id := 1; id <= 200; id++ {
		x, err := s.Do(Request{Binding: HTTPGet, Op: opByCity, Values: map[string]string{pCityID: strconv.Itoa(id)}})
		if err != nil {
			return nil, err
		}
		if root, err := resultOf(x, ""); err == nil && len(f.xmlLocations(root)) > 0 {
			f.CityIDs, f.CityNote = []int{id}, fmt.Sprintf("found by probing intCityID from 1 to %d", id)
			return f, nil
		}
	}
	f.CityNote = "no intCityID from 1 to 200 gave locations; give one with --city-id"
	return f, nil
}

// learnFields finds, for each key JSON field, the XML leaf path whose value
// equals the field's in every pair of JSON and XML locations.
func learnFields(jl []map[string]any, xl []*etree.Element) (map[string]string, error) {
	if len(jl) == 0 {
		return nil, fmt.Errorf("no locations to learn XML field names from")
	}
	fields := map[string]string{}
	for _, jf := range keyFields {
		last := jf[strings.LastIndex(jf, ".")+1:]
		var cands []string
		seen := map[string]bool{}
		for _, l := range leaves(xl[0]) {
			if !seen[l.Path] {
				seen[l.Path] = true
				cands = append(cands, l.Path)
			}
		}
		var match []string
		for _, p := range cands {
			ok := true
			for i := range jl {
				jv, jok := jsonField(jl[i], jf)
				xv, xok := xmlField(xl[i], p)
				if !jok || !xok || norm(jv) != norm(xv) {
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
			return nil, &Failure{What: "XML location nodes: field " + jf, Expected: fmt.Sprintf("an XML leaf with the value of JSON %s (%q in the first location) in every location node", jf, jv), Got: "no such leaf"}
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
	return fields, nil
}

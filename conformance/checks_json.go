package conformance

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/beevik/etree"
)

var integerRE = regexp.MustCompile(`^-?\d+$`)

// jsonShape describes the document's JSON location object: field → kind.
// Kinds: "int", "number", "string", "flag" (0 or 1), "hours" (0, 1 or 2),
// "strings" (array of strings), or a nested object.
var jsonShape = map[string]any{
	"index":         "int",
	"id":            "int",
	"atmIdentifier": "string",
	"institution":   map[string]any{"id": "int", "name": "string", "url": "string", "isAtlanticCreditUnion": "flag"},
	"coordinates":   map[string]any{"latitude": "number", "longitude": "number"},
	"address":       map[string]any{"streetAddress": "string", "city": "string", "province": "string", "postalCode": "string", "landmark": "string"},
	"features":      map[string]any{"deposits": "flag", "hours": "hours", "driveThru": "flag", "pinChange": "flag", "voiceGuidance": "flag"},
	"creditCards":   map[string]any{"visa": "flag", "plus": "flag", "mastercard": "flag", "cirrus": "flag"},
	"languages":     "strings",
}

// shapeError returns "" when v has the kind, else what is wrong, quoting
// v with keys (the call's, Exchange.masks) masked.
func shapeError(v any, kind any, path string, keys []string) string {
	if obj, ok := kind.(map[string]any); ok {
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: expected an object, got %s", path, jsonText(v, keys))
		}
		for _, k := range sortedKeys(obj) {
			fv, ok := m[k]
			if !ok {
				return fmt.Sprintf("%s.%s: expected a field, got none", path, k)
			}
			if e := shapeError(fv, obj[k], path+"."+k, keys); e != "" {
				return e
			}
		}
		return ""
	}
	switch kind {
	case "string":
		if _, ok := v.(string); !ok {
			return fmt.Sprintf("%s: expected a string, got %s", path, jsonText(v, keys))
		}
	case "strings":
		arr, ok := v.([]any)
		if !ok {
			return fmt.Sprintf("%s: expected an array of strings, got %s", path, jsonText(v, keys))
		}
		for i, e := range arr {
			if _, ok := e.(string); !ok {
				return fmt.Sprintf("%s[%d]: expected a string, got %s", path, i, jsonText(e, keys))
			}
		}
	case "number":
		if _, ok := v.(json.Number); !ok {
			return fmt.Sprintf("%s: expected a number, got %s", path, jsonText(v, keys))
		}
	case "int", "flag", "hours":
		n, ok := v.(json.Number)
		if !ok || !integerRE.MatchString(n.String()) {
			return fmt.Sprintf("%s: expected an integer, got %s", path, jsonText(v, keys))
		}
		allowed := map[string][]string{"flag": {"0", "1"}, "hours": {"0", "1", "2"}}[kind.(string)]
		if allowed != nil && !contains(allowed, n.String()) {
			return fmt.Sprintf("%s: expected one of %s, got %s", path, strings.Join(allowed, ", "), n)
		}
	}
	return ""
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return sortedCopy(keys)
}

func contains(s []string, v string) bool {
	for _, e := range s {
		if e == v {
			return true
		}
	}
	return false
}

// jsonText quotes a JSON value of an answer, cut at 120 bytes, keys (the
// call's, Exchange.masks) masked before the cut (clip).
func jsonText(v any, keys []string) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return clip(string(b), 120, keys...)
}

func jsonChecks() []Check {
	var cs []Check
	for _, op := range Operations {
		if !op.JSON {
			continue
		}
		cs = append(cs, Check{
			Name:        "json/" + op.Name + "/shape",
			Group:       "the JSON binding",
			Description: op.Name + " over json answers 200, declared text/xml, with count, coordinates and locations of the documented types",
			Labels:      []string{"json", "documented"},
			Run:         func(s *Session, _ Notef) error { return checkJSONShape(s, op.Name) },
		}, Check{
			Name:        "json/" + op.Name + "/matches-xml",
			Group:       "the JSON binding",
			Description: op.Name + " over json gives the same locations, values and order as the XML result",
			Labels:      []string{"json", "get", "documented", "equivalence"},
			Run:         func(s *Session, _ Notef) error { return checkJSONMatchesXML(s, op.Name) },
		})
	}
	return cs
}

func checkJSONShape(s *Session, op string) error {
	vals, err := s.values(op)
	if err != nil {
		return err
	}
	x, err := s.Do(Request{Binding: JSON, Op: op, Values: vals})
	if err != nil {
		return err
	}
	what := op + " over json"
	if x.Status != 200 {
		return fail(x, what+": status", "200", "%s", answered(x))
	}
	if err := checkContentType(x, what, ctTextXML); err != nil {
		return err
	}
	m, err := decodeJSON(x.RespBody)
	if err != nil {
		return fail(x, what+": body", "a JSON result object", "%v in %s", err, snippet(x.RespBody, x.masks()...))
	}
	top := map[string]any{"count": "int", "coordinates": map[string]any{"latitude": "number", "longitude": "number"}}
	if e := shapeError(m, top, "result", x.masks()); e != "" {
		return fail(x, what+": result object", "the documented fields and types", "%s", e)
	}
	arr, ok := m["locations"].([]any)
	if !ok {
		return fail(x, what+": result.locations", "an array of location objects", "%s", jsonText(m["locations"], x.masks()))
	}
	if c := m["count"].(json.Number).String(); c != fmt.Sprint(len(arr)) {
		return fail(x, what+": count", fmt.Sprintf("the number of entries in locations, %d", len(arr)), "%s", c)
	}
	for i, l := range arr {
		if e := shapeError(l, jsonShape, fmt.Sprintf("locations[%d]", i), x.masks()); e != "" {
			return fail(x, what+": location object", "the documented fields and types", "%s", e)
		}
		if idx := l.(map[string]any)["index"].(json.Number).String(); idx != fmt.Sprint(i) {
			return fail(x, what+fmt.Sprintf(": locations[%d].index", i), fmt.Sprintf("%d (position in the array, from 0)", i), "%s", idx)
		}
	}
	if op == opByCoords {
		la, _ := jsonField(m, "coordinates.latitude")
		lo, _ := jsonField(m, "coordinates.longitude")
		if norm(la) != norm(vals[pLatitude]) || norm(lo) != norm(vals[pLongitude]) {
			return fail(x, what+": coordinates", fmt.Sprintf("the search point %s,%s", vals[pLatitude], vals[pLongitude]), "%s,%s", la, lo)
		}
	}
	return nil
}

func checkJSONMatchesXML(s *Session, op string) error {
	f, err := s.Facts()
	if err != nil {
		return err
	}
	jx, jl, err := s.jsonQuery(op, f.Values(op))
	if err != nil {
		return err
	}
	r, err := s.result(HTTPGet, op)
	if err != nil {
		return err
	}
	xl := f.xmlLocations(r.Root)
	if len(xl) != len(jl) {
		return &Failure{What: op + ": JSON locations against XML location nodes", Expected: fmt.Sprintf("as many XML %s nodes as JSON locations (%d)", f.Location.Local, len(jl)), Got: fmt.Sprint(len(xl)), Exchanges: []*Exchange{jx, r.X}}
	}
	// A location's values, with those of the rows a DataSet relates to
	// its row without nesting them in it (its languages).
	related := relatedRows(r.Root)
	xv := make([][]leaf, len(xl))
	for i, e := range xl {
		xv[i] = locationLeaves(e, related)
	}
	if grouped(xv) {
		// Locations grouped (by institution): each group's in the JSON
		// answer's order, the groups one after another.
		if f := groupOrder(op, jl, xl, xv, related); f != nil {
			f.Exchanges = []*Exchange{jx, r.X}
			return f
		}
		perm := alignByID(jl, xv)
		aligned := make([][]leaf, len(xv))
		for i, j := range perm {
			aligned[i] = xv[j]
		}
		xv = aligned
	}
	for i := range jl {
		have := map[string]int{}
		for _, l := range xv[i] {
			have[norm(l.Value)]++
		}
		for _, l := range jsonLeaves(jl[i], "", nil) {
			if l.Path == "index" || strings.TrimSpace(l.Value) == "" {
				continue
			}
			k := norm(l.Value)
			if have[k] == 0 && k == "n:0" {
				// A number or flag of 0 the XML leaves out: XmlSerializer
				// leaves out a member equal to its DefaultValue(0, false)
				// or whose XxxSpecified is false, and a client reads it
				// as 0.
				continue
			}
			if have[k] == 0 {
				id, _ := jsonField(jl[i], "id")
				return &Failure{
					What:      fmt.Sprintf("%s: JSON locations[%d] (id %s) against XML location node %d", op, i, id, i+1),
					Expected:  printablef(r.X.masks(), "JSON %s = %q among the XML node's values", l.Path, l.Value),
					Got:       fmt.Sprintf("no such value in %s", clip(leavesText(xv[i]), 400, r.X.masks()...)),
					Exchanges: []*Exchange{jx, r.X},
				}
			}
			have[k]--
		}
	}
	if f := fieldMismatch(jl, xv, r.X.masks()...); f != nil {
		f.What = op + ": " + f.What
		f.Exchanges = []*Exchange{jx, r.X}
		return f
	}
	return nil
}

// fieldMismatch compares the JSON locations with the XML location nodes
// field by field: for each scalar JSON field (index and the languages'
// items aside), some leaf of the XML nodes (a path inside the node) must
// hold its value in every location, or be empty or absent where the JSON
// value is empty. Matching each location's values as a bag is not enough:
// a flag flipped in JSON finds its new value in another leaf of the node (a
// flag, an id, the XML's own index). On a mismatch it names the field, the
// location and the leaf that holds the field in most locations, keys
// masked in the values it quotes before a %q verb escapes them.
func fieldMismatch(jl []map[string]any, xl [][]leaf, keys ...string) *Failure {
	type vals struct{ raw, norm []string }
	// A JSON string must be the XML value as written (spaces are part of
	// it); other values compare as numbers and flags (norm).
	byPath := make([]map[string]*vals, len(xl))
	var paths []string
	seen := map[string]bool{}
	for i, ls := range xl {
		m := map[string]*vals{}
		for _, l := range ls {
			v := m[l.Path]
			if v == nil {
				v = &vals{}
				m[l.Path] = v
			}
			v.raw, v.norm = append(v.raw, l.Raw), append(v.norm, norm(l.Value))
			if !seen[l.Path] {
				seen[l.Path] = true
				paths = append(paths, l.Path)
			}
		}
		byPath[i] = m
	}
	var fields []string
	known := map[string]bool{}
	for _, l := range jl {
		for _, lf := range jsonLeaves(l, "", nil) {
			if lf.Path == "index" || strings.Contains(lf.Path, "[]") || known[lf.Path] {
				continue
			}
			known[lf.Path] = true
			fields = append(fields, lf.Path)
		}
	}
	// holds reports whether the leaf at path holds field in location i.
	holds := func(path, field string, i int) bool {
		jv, ok := jsonField(jl[i], field)
		if !ok {
			return true // no such value: the shape spec's business
		}
		v := byPath[i][path]
		if v == nil {
			v = &vals{}
		}
		if strings.TrimSpace(jv) == "" {
			for _, h := range v.raw {
				if h != "" {
					return false
				}
			}
			return true
		}
		if isString(jl[i], field) {
			return contains(v.raw, normalizeNewlines(jv))
		}
		if len(v.norm) == 0 && norm(jv) == "n:0" && seen[path] {
			// Left out where it is 0: a DefaultValue(0, false) or an
			// XxxSpecified member, read by a client as 0.
			return true
		}
		return contains(v.norm, norm(jv))
	}
	named := func(path, field string) bool {
		return strings.EqualFold(strings.TrimPrefix(path[strings.LastIndex(path, "/")+1:], "@"), field[strings.LastIndex(field, ".")+1:])
	}
	for _, field := range fields {
		best, bestN, fits := "", -1, false
		for _, p := range paths {
			n := 0
			for i := range jl {
				if holds(p, field, i) {
					n++
				}
			}
			if n == len(jl) {
				fits = true
				break
			}
			if n > bestN || n == bestN && named(p, field) && !named(best, field) {
				best, bestN = p, n
			}
		}
		if fits || best == "" || allZero(jl, field) {
			// Every location's value 0: left out everywhere (a
			// DefaultValue(0, false), an XxxSpecified member) is read
			// as 0 by a client.
			continue
		}
		for i := range jl {
			if holds(best, field, i) {
				continue
			}
			jv, _ := jsonField(jl[i], field)
			id, _ := jsonField(jl[i], "id")
			got := "none"
			if v := byPath[i][best]; v != nil {
				q := make([]string, len(v.raw))
				for j, r := range v.raw {
					q[j] = printablef(keys, "%q", r)
				}
				got = strings.Join(q, ", ")
			}
			return &Failure{
				What:     fmt.Sprintf("JSON locations[%d] (id %s) against XML location node %d, field %s", i, id, i+1, field),
				Expected: printablef(keys, "JSON %s = %q in the XML leaf %s, which holds it in %d of the %d locations", field, jv, best, bestN, len(jl)),
				Got:      printablef(keys, "%s = %s (no leaf of the XML nodes holds JSON %s in every location)", best, got, field),
			}
		}
	}
	return nil
}

// isString reports whether the JSON value at a dotted path is a string.
func isString(m map[string]any, path string) bool {
	var v any = m
	for _, p := range strings.Split(path, ".") {
		o, ok := v.(map[string]any)
		if !ok {
			return false
		}
		v = o[p]
	}
	_, ok := v.(string)
	return ok
}

// leafText lists a node's values as path=value pairs.
func leafText(e *etree.Element) string { return leavesText(leaves(e)) }

// leavesText writes values as leafText does.
func leavesText(ls []leaf) string {
	var parts []string
	for _, l := range ls {
		parts = append(parts, l.Path+"="+strconv.Quote(l.Value))
	}
	return strings.Join(parts, " ")
}

// allZero reports whether field is a number or flag of 0 in every
// location of jl that has it.
func allZero(jl []map[string]any, field string) bool {
	for i := range jl {
		if jv, ok := jsonField(jl[i], field); ok && (isString(jl[i], field) || norm(jv) != "n:0") {
			return false
		}
	}
	return true
}

// groupOrder checks that grouped XML locations xl (their values xv) list
// each group's locations in the order of the JSON answer jl: a deployment
// that groups its results keeps the search's order within a group. It
// returns nil or the first location out of order.
func groupOrder(op string, jl []map[string]any, xl []*etree.Element, xv [][]leaf, rel *relations) *Failure {
	perm := alignByID(jl, xv)
	at := make([]int, len(xl)) // the JSON position of each XML location
	for i, j := range perm {
		at[j] = i
	}
	last := map[string]int{}
	for j, e := range xl {
		g := groupOf(e, rel)
		if p, ok := last[g]; ok && at[j] < p {
			id, _ := jsonField(jl[at[j]], "id")
			return &Failure{
				What:     fmt.Sprintf("%s: XML location node %d (id %s) in its group", op, j+1, id),
				Expected: fmt.Sprintf("the locations of a group in the JSON answer's order (JSON locations[%d] after locations[%d])", at[j], p),
				Got:      fmt.Sprintf("JSON locations[%d] before it in the same group", p),
			}
		}
		last[g] = at[j]
	}
	return nil
}

// groupOf names the group of location node loc: its parent element (a
// bank holding its ATMs, a Bank row its nested Atm rows) and the rows a
// DataSet's relation that is not nested names as its parents (the Bank
// row an Atm row names by its BankId, all the ATM rows children of the
// DataSet's element), as groupLeaves reads the group's values.
func groupOf(loc *etree.Element, rel *relations) string {
	g := fmt.Sprintf("%p", loc.Parent())
	if rel != nil {
		for _, p := range rel.parents[loc] {
			g += fmt.Sprintf(" %p", p)
		}
	}
	return g
}

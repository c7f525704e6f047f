package learn

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/atmkit/atmkit/shape"
)

// record holds the texts of one object (a result, or one item of a list):
// per leaf of the skeleton, its texts in order (several for a list of
// values such as languages).
type record map[*node][]string

// pair is a record of an XML answer and the JSON values of the same object.
type pair struct {
	rec    record
	values map[string]string
	langs  []string
}

// candidate is a possible mapping of a leaf to a model value.
type candidate struct {
	leaf     *node
	at       string // the leaf's path, for reports
	value    string
	compared int // values compared with the JSON answers
	distinct int // distinct values among them
	name     int // name similarity score
	order    int // position of the leaf, for stable results
}

// sameValue compares an XML text with the JSON value of a model value of kind k.
func sameValue(k shape.Kind, xmlText, jsonText string) bool {
	x := strings.TrimSpace(xmlText)
	switch k {
	case shape.KindString:
		// An empty XmlElement node Mono writes indented holds the line
		// break and indentation of its end tag (<Site>, then </Site> on a
		// line of its own): an empty value.
		return xmlText == jsonText || jsonText == "" && isIndentation(xmlText)
	case shape.KindFlag:
		switch x {
		case "true":
			x = "1"
		case "false":
			x = "0"
		}
		fallthrough
	case shape.KindInt:
		a, err1 := strconv.ParseFloat(x, 64)
		b, err2 := strconv.ParseFloat(jsonText, 64)
		return err1 == nil && err2 == nil && a == b
	case shape.KindDouble:
		a, err1 := strconv.ParseFloat(x, 64)
		b, err2 := strconv.ParseFloat(jsonText, 64)
		if err1 != nil || err2 != nil {
			return false
		}
		if a == b {
			return true
		}
		// A fixed number of decimals rounds: within half its last digit.
		if d := decimals(x); d >= 0 {
			return math.Abs(a-b) <= 0.5*math.Pow(10, -float64(d))+1e-12
		}
	}
	return false
}

// isIndentation reports whether s is a line break and indentation only.
func isIndentation(s string) bool {
	return strings.Contains(s, "\n") && strings.Trim(s, " \t\r\n") == ""
}

// fits reports whether a leaf of XSD type t (as the WSDL says, or as
// inferred from texts) can hold a model value of kind k.
func fits(n *node, k shape.Kind) bool {
	t := n.typ
	if n.anyText && t == "string" {
		return true
	}
	ints := []string{"int", "long", "short", "byte", "unsignedByte", "unsignedShort", "unsignedInt", "unsignedLong", "integer"}
	nums := []string{"double", "decimal", "float"}
	strs := []string{"string", "anyURI", "token", "normalizedString"}
	switch k {
	case shape.KindString:
		return slices.Contains(strs, t) || !n.fromWSDL && t != "boolean"
	case shape.KindInt:
		return slices.Contains(ints, t) || slices.Contains(nums, t)
	case shape.KindFlag:
		return t == "boolean" || slices.Contains(ints, t) || slices.Contains(nums, t)
	case shape.KindDouble:
		return slices.Contains(nums, t) || !n.fromWSDL && t == "int"
	}
	return false
}

// scopeLeaves lists the leaves of a scope below n (not into nested lists),
// with their paths. A repeated leaf (a list of values) is listed too.
func scopeLeaves(n *node, at string) []leafAt {
	var out []leafAt
	for _, k := range n.kids {
		p := k.label()
		if at != "" {
			p = at + "/" + p
		}
		switch {
		case k.isLeaf():
			out = append(out, leafAt{k, p})
		case k.repeated:
			// A nested list of objects is another scope.
		default:
			if it := k.wrappedItem(); it != nil && it.isLeaf() {
				out = append(out, leafAt{it, p + "/" + it.label()})
				continue
			}
			out = append(out, scopeLeaves(k, p)...)
		}
	}
	return out
}

type leafAt struct {
	n  *node
	at string
}

// ancestors returns the names (and type names) of the containers between
// the scope's root and a leaf's path.
func ancestors(at string) []string {
	parts := strings.Split(at, "/")
	return parts[:len(parts)-1]
}

// matchScope maps the leaves of one scope not mapped yet on the values of
// scope not mapped yet: by value where pairs give evidence, else (when
// byName) by name. It records its reasons on the leaves.
func (l *learner) matchScope(leaves []leafAt, scope shape.Scope, pairs []pair, typeNames map[string]string, byName bool) {
	values := shape.Values(scope)
	var cands []candidate
	for i, lf := range leaves {
		if lf.n.repeated || lf.n.value != "" {
			continue // mapped already; lists of values are languages, below
		}
		for _, v := range values {
			if l.stopped() {
				return
			}
			if !fits(lf.n, v.Kind) {
				continue
			}
			c := candidate{leaf: lf.n, at: lf.at, value: v.Path, order: i}
			seen := map[string]bool{}
			ok := true
			for _, p := range pairs {
				texts := p.rec[lf.n]
				j, has := p.values[v.Path]
				if len(texts) == 0 || !has {
					continue
				}
				c.compared++
				seen[j] = true
				if !sameValue(v.Kind, texts[0], j) {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			c.distinct = len(seen)
			c.name = nameScore(lf.at, v.Path, typeNames)
			cands = append(cands, c)
		}
	}
	sort.SliceStable(cands, func(a, b int) bool {
		x, y := cands[a], cands[b]
		if (x.compared > 0) != (y.compared > 0) {
			return x.compared > 0
		}
		// Several distinct values agreeing is stronger than one.
		if min(x.distinct, 3) != min(y.distinct, 3) {
			return min(x.distinct, 3) > min(y.distinct, 3)
		}
		if x.name != y.name {
			return x.name > y.name
		}
		if x.compared != y.compared {
			return x.compared > y.compared
		}
		return x.order < y.order
	})
	usedValue := map[string]bool{}
	for _, lf := range leaves {
		if lf.n.value != "" {
			usedValue[lf.n.value] = true
		}
	}
	for _, c := range cands {
		if c.leaf.value != "" || usedValue[c.value] {
			continue
		}
		if c.compared == 0 && (c.name == 0 || !byName) {
			continue // neither values nor a name to go on
		}
		c.leaf.value = c.value
		usedValue[c.value] = true
		switch {
		case c.compared > 0 && c.distinct > 1:
			c.leaf.evidence = "equal to the JSON answers' in " + strconv.Itoa(c.compared) + " of " + strconv.Itoa(c.compared) + " compared, " + strconv.Itoa(c.distinct) + " distinct values"
		case c.compared > 0:
			c.leaf.evidence = "equal to the JSON answers' in " + strconv.Itoa(c.compared) + " compared, but always " + quoteOne(c, pairs) + " (as other values may be); the name decided"
			c.leaf.guessed = true
		default:
			c.leaf.evidence = "by its name; no JSON answer to the same call to compare with"
			c.leaf.guessed = true
		}
	}
	leftOut(leaves, scope, pairs)
	// A list of values in a location is its languages.
	if scope == shape.ScopeLocation {
		for _, lf := range leaves {
			if !lf.n.repeated || lf.n.list != "" {
				continue
			}
			compared, equal := 0, true
			for _, p := range pairs {
				if p.langs == nil {
					continue
				}
				compared++
				got := p.rec[lf.n]
				if !slices.Equal(got, p.langs) && !(len(got) == 0 && len(p.langs) == 0) {
					equal = false
				}
			}
			switch {
			case compared > 0 && equal:
				lf.n.list, lf.n.evidence = "languages", "equal to the JSON answers' language lists in "+strconv.Itoa(compared)+" of "+strconv.Itoa(compared)+" compared"
			case compared == 0 && byName && slices.ContainsFunc(strings.Split(lf.at, "/"), func(p string) bool { return nameMatch(p, "languages") > 0 }):
				lf.n.list, lf.n.evidence, lf.n.guessed = "languages", "by its name; no JSON answer to the same call to compare with", true
			}
		}
	}
}

// leftOut notes, for each number or flag of leaves that some instances of
// its parent left out (node.absent), the JSON value of the pairs whose
// XML left it out when it is always the same (node.omitWhen): the value
// written so is left out (an XxxSpecified member, a DefaultValue).
func leftOut(leaves []leafAt, scope shape.Scope, pairs []pair) {
	for _, lf := range leaves {
		k := lf.n
		if k.value == "" || k.absent == 0 || k.repeated {
			continue
		}
		v, ok := shape.LookupValue(scope, k.value)
		if !ok || v.Kind == shape.KindString {
			continue
		}
		seen := map[string]bool{}
		for _, p := range pairs {
			if j, has := p.values[k.value]; has && len(p.rec[k]) == 0 {
				seen[j] = true
			}
		}
		if len(seen) == 1 {
			for j := range seen {
				k.omitWhen = j
			}
		}
	}
}

func quoteOne(c candidate, pairs []pair) string {
	for _, p := range pairs {
		if v, ok := p.values[c.value]; ok {
			return strconv.Quote(v)
		}
	}
	return `""`
}

// Names the model's values go by in deployments, for telling apart values
// the answers cannot (a guess, reported as one).
var synonyms = map[string][]string{
	"id":                    {"id", "atmid", "locationid", "atmlocationid"},
	"atmIdentifier":         {"atmidentifier", "identifier", "terminalid", "atmcode", "atmnumber"},
	"institution":           {"institution", "bank", "financialinstitution", "fi", "owner"},
	"coordinates":           {"coordinates", "location", "geopoint", "point", "position", "geo", "searchpoint", "origin"},
	"latitude":              {"latitude", "lat"},
	"longitude":             {"longitude", "lon", "lng", "long"},
	"address":               {"address", "streetaddress", "postaladdress"},
	"streetAddress":         {"streetaddress", "street", "address1", "addressline1", "line1"},
	"city":                  {"city", "town", "municipality"},
	"province":              {"province", "prov", "state", "region"},
	"postalCode":            {"postalcode", "postcode", "zip", "zipcode"},
	"landmark":              {"landmark", "notes", "description"},
	"features":              {"features", "services", "options"},
	"deposits":              {"deposits", "deposit", "acceptsdeposits"},
	"hours":                 {"hours", "openhours", "hoursofoperation", "availability"},
	"driveThru":             {"drivethru", "drivethrough"},
	"pinChange":             {"pinchange"},
	"voiceGuidance":         {"voiceguidance", "audio"},
	"creditCards":           {"creditcards", "cards", "networks", "cardnetworks"},
	"visa":                  {"visa"},
	"plus":                  {"plus"},
	"mastercard":            {"mastercard", "mc"},
	"cirrus":                {"cirrus"},
	"languages":             {"languages", "language", "langs", "lang", "tongues"},
	"name":                  {"name", "title", "displayname"},
	"url":                   {"url", "website", "web", "uri", "link", "homepage"},
	"isAtlanticCreditUnion": {"isatlanticcreditunion", "atlanticcreditunion", "atlanticcu", "isatlantic"},
	"count":                 {"count", "total", "atmcount", "numberofatms", "results"},
	"index":                 {"index", "idx", "rank", "seq", "sequence", "position"},
	"code":                  {"code", "abbreviation", "abbr", "provincecode", "shortname"},
}

func fold(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// nameMatch scores how well an element name fits a model name.
func nameMatch(name, model string) int {
	n := fold(strings.TrimPrefix(name, "@"))
	if n == "" {
		return 0
	}
	if n == fold(model) {
		return 10
	}
	for _, s := range synonyms[model] {
		if n == s {
			return 8
		}
	}
	m := fold(model)
	if len(n) >= 3 && len(m) >= 3 && (strings.HasSuffix(n, m) || strings.HasPrefix(n, m)) {
		return 4
	}
	return 0
}

// nameScore scores a leaf's path against a model value's path: the leaf
// name against the value's last part, its containers against the value's
// object ("institution" for institution.name). typeNames gives the
// complexType name of containers, by path, as a second name.
func nameScore(at, value string, typeNames map[string]string) int {
	parts := strings.Split(at, "/")
	leaf := parts[len(parts)-1]
	obj, field, nested := strings.Cut(value, ".")
	if !nested {
		field, obj = obj, ""
	}
	score := nameMatch(leaf, field)
	// "InstitutionId" for institution.id, "BankName" for institution.name.
	if score == 0 && obj != "" {
		for _, o := range append([]string{obj}, synonyms[obj]...) {
			if l := fold(leaf); strings.HasPrefix(l, fold(o)) && nameMatch(strings.TrimPrefix(l, fold(o)), field) > 0 {
				score = 6
			}
		}
	}
	if score == 0 {
		return 0
	}
	conts := ancestors(at)
	switch {
	case obj == "" && len(conts) == 0:
		score += 2
	case obj != "":
		for i := range conts {
			p := strings.Join(parts[:i+1], "/")
			if nameMatch(conts[i], obj) > 0 || nameMatch(typeNames[p], obj) > 0 {
				score += 3
				break
			}
		}
	}
	// A container named for another object: institution's name is no address.
	if obj == "" && len(conts) > 0 {
		score -= 2
	}
	return max(score, 1)
}

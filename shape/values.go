package shape

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Kind is the kind of a model value.
type Kind int

// Kinds of model values.
const (
	KindInt    Kind = iota + 1 // an integer (ids, count, index, hours)
	KindDouble                 // a coordinate in degrees
	KindString                 // text
	KindFlag                   // 0 or 1 in the JSON form (a yes/no flag)
)

// String names the kind as messages do: integer, number, string or flag (0 or 1).
func (k Kind) String() string {
	switch k {
	case KindInt:
		return "integer"
	case KindDouble:
		return "number"
	case KindString:
		return "string"
	case KindFlag:
		return "flag (0 or 1)"
	}
	return "unknown"
}

// Scope is the object values are read from: a result or a list item.
type Scope string

// Scopes of values.
const (
	ScopeLocations    Scope = "locations result"    // the result of ReturnAllAtms and the searches
	ScopeLocation     Scope = "location"            // an item of the locations list
	ScopeInstitutions Scope = "institutions result" // the result of ReturnInstitutions
	ScopeInstitution  Scope = "institution"         // an item of the institutions list
	ScopeProvinces    Scope = "provinces result"    // the result of ReturnProvinces
	ScopeProvince     Scope = "province"            // an item of the provinces list
	ScopeLanguage     Scope = "language"            // an item of a location's languages: the code itself
	// ScopeGroup is an item of a locations list grouped by institution
	// (Field.Group): an institution holding the locations of it found.
	ScopeGroup Scope = "institution group"
)

// ValueInfo describes one value of atmkit's data model.
type ValueInfo struct {
	// Path is the value's name in a shape file: its path in the JSON form of
	// the scope's object, e.g. "institution.name".
	Path string
	Kind Kind
	// Optional values are not always there: the search point is written
	// only by the searches that have one (WritesSearchPoint).
	Optional bool
	// Derived values follow from the others (a list's count): a result
	// that writes none of them omits nothing.
	Derived bool
}

// Values lists the values of scope in the JSON order of the interface
// document. Lists are named by Lists. The list is the caller's own.
func Values(scope Scope) []ValueInfo { return slices.Clone(valueTable[scope]) }

// valueTable holds the values of every scope (values), made once: looking
// a value up (LookupValue) makes no list, as a check of every item of a
// million-ATM data set does it for each.
var valueTable = func() map[Scope][]ValueInfo {
	t := map[Scope][]ValueInfo{}
	for _, sc := range []Scope{ScopeLocations, ScopeLocation, ScopeInstitutions, ScopeInstitution, ScopeProvinces, ScopeProvince, ScopeLanguage, ScopeGroup} {
		t[sc] = values(sc)
	}
	return t
}()

// values lists the values of scope (Values).
func values(scope Scope) []ValueInfo {
	switch scope {
	case ScopeLocations:
		return []ValueInfo{{"count", KindInt, false, false}, {"coordinates.latitude", KindDouble, true, false}, {"coordinates.longitude", KindDouble, true, false}}
	case ScopeLocation:
		return []ValueInfo{
			{"index", KindInt, false, false}, {"id", KindInt, false, false}, {"atmIdentifier", KindString, false, false},
			{"institution.id", KindInt, false, false}, {"institution.name", KindString, false, false},
			{"institution.url", KindString, false, false}, {"institution.isAtlanticCreditUnion", KindFlag, false, false},
			{"coordinates.latitude", KindDouble, false, false}, {"coordinates.longitude", KindDouble, false, false},
			{"address.streetAddress", KindString, false, false}, {"address.city", KindString, false, false},
			{"address.province", KindString, false, false}, {"address.postalCode", KindString, false, false},
			{"address.landmark", KindString, false, false},
			{"features.deposits", KindFlag, false, false}, {"features.hours", KindInt, false, false},
			{"features.driveThru", KindFlag, false, false}, {"features.pinChange", KindFlag, false, false},
			{"features.voiceGuidance", KindFlag, false, false},
			{"creditCards.visa", KindFlag, false, false}, {"creditCards.plus", KindFlag, false, false},
			{"creditCards.mastercard", KindFlag, false, false}, {"creditCards.cirrus", KindFlag, false, false},
		}
	case ScopeInstitutions, ScopeProvinces:
		return []ValueInfo{{Path: "count", Kind: KindInt, Derived: true}}
	case ScopeLanguage:
		return []ValueInfo{{Path: "language", Kind: KindString}}
	case ScopeInstitution:
		return []ValueInfo{{"id", KindInt, false, false}, {"name", KindString, false, false}, {"url", KindString, false, false},
			{"isAtlanticCreditUnion", KindFlag, false, false}}
	case ScopeProvince:
		return []ValueInfo{{"code", KindString, false, false}, {"name", KindString, false, false}}
	case ScopeGroup:
		return []ValueInfo{{"institution.id", KindInt, false, false}, {"institution.name", KindString, false, false},
			{"institution.url", KindString, false, false}, {"institution.isAtlanticCreditUnion", KindFlag, false, false}}
	}
	return nil
}

// WritesSearchPoint reports whether op's result has a search point (the
// optional coordinates of a locations result): the searches by address
// and by coordinates.
func WritesSearchPoint(op string) bool {
	switch op {
	case OpReturnAtmSearchByAddress, OpReturnAtmSearchByCoordinates, OpReturnAtmSearchByAddressWithMaximum:
		return true
	}
	return false
}

// Lists names the lists of scope and the scope of their items.
func Lists(scope Scope) map[string]Scope {
	switch scope {
	case ScopeLocations:
		return map[string]Scope{string(Locations): ScopeLocation}
	case ScopeLocation:
		return map[string]Scope{"languages": ScopeLanguage}
	case ScopeInstitutions:
		return map[string]Scope{string(Institutions): ScopeInstitution}
	case ScopeProvinces:
		return map[string]Scope{string(Provinces): ScopeProvince}
	case ScopeGroup:
		return map[string]Scope{string(Locations): ScopeLocation}
	}
	return nil
}

// GroupInstitution is the one grouping a locations list may have
// (Field.Group): by the locations' institution.
const GroupInstitution = "institution"

// The orders of the groups of a grouped locations list (Field.GroupOrder)
// or table (Table.GroupOrder), as a deployment plausibly orders them.
const (
	// GroupByFirst orders the groups by each one's first location in the
	// search's order, as LINQ's GroupBy does: the default.
	GroupByFirst = "first"
	// GroupByID orders them by institution id, ascending (OrderBy(g =>
	// g.Key), ORDER BY the institution's id).
	GroupByID = "institution.id"
	// GroupByName orders them by institution name, ascending, compared
	// ordinally: by UTF-16 code unit, as String.CompareOrdinal and
	// OrderBy(g => g.Name, StringComparer.Ordinal) do; an institution
	// with no name first. .NET's default string comparison, a culture's
	// (OrderBy(g => g.Name) without a comparer), and a SQL collation's
	// are not modelled. Institutions of one name keep the order of their
	// first location (OrderBy is a stable sort).
	GroupByName = "institution.name"
)

// GroupOrders are the values of Field.GroupOrder and Table.GroupOrder.
var GroupOrders = []string{GroupByFirst, GroupByID, GroupByName}

// ItemScope is the scope of the items of list field f in scope, and
// whether scope holds f's list: a locations list grouped by institution
// (f.Group) holds groups (ScopeGroup), each holding a locations list.
func ItemScope(scope Scope, f *Field) (Scope, bool) {
	s, ok := Lists(scope)[f.List]
	if ok && f.Group != "" && s == ScopeLocation && scope == ScopeLocations {
		return ScopeGroup, true
	}
	return s, ok
}

// ScopeOf is the scope of a result holding content c.
func ScopeOf(c Content) Scope {
	switch c {
	case Institutions:
		return ScopeInstitutions
	case Provinces:
		return ScopeProvinces
	}
	return ScopeLocations
}

// LookupValue returns the description of value path in scope.
func LookupValue(scope Scope, path string) (ValueInfo, bool) {
	for _, v := range valueTable[scope] {
		if v.Path == path {
			return v, true
		}
	}
	return ValueInfo{}, false
}

func valueNames(scope Scope) string {
	var names []string
	for _, v := range valueTable[scope] {
		names = append(names, v.Path)
	}
	return strings.Join(names, ", ")
}

// The XSD types a shape may use for values.
var (
	intTypes     = []string{"int", "long", "short", "byte", "unsignedByte", "unsignedShort", "unsignedInt", "unsignedLong", "integer", "nonNegativeInteger"}
	decimalTypes = []string{"double", "float", "decimal"}
	stringTypes  = []string{"string", "anyURI", "token", "normalizedString"}
	otherTypes   = []string{"boolean", "dateTime", "date", "time"}
)

// knownType reports whether t is an XSD type a value may have.
func knownType(t string) bool {
	return slices.Contains(intTypes, t) || slices.Contains(decimalTypes, t) || slices.Contains(stringTypes, t) || slices.Contains(otherTypes, t)
}

// typeFits says whether values of kind k can be written as XSD type t.
func typeFits(k Kind, t string) bool {
	switch k {
	case KindInt:
		return slices.Contains(intTypes, t) || slices.Contains(decimalTypes, t) || slices.Contains(stringTypes, t)
	case KindFlag:
		return t == "boolean" || slices.Contains(intTypes, t) || slices.Contains(decimalTypes, t) || slices.Contains(stringTypes, t)
	case KindDouble:
		return slices.Contains(decimalTypes, t) || slices.Contains(stringTypes, t)
	case KindString:
		return slices.Contains(stringTypes, t)
	}
	return false
}

// defaultType is the XSD type a value of kind k gets when a shape names none.
func defaultType(k Kind) string {
	switch k {
	case KindDouble:
		return "double"
	case KindString:
		return "string"
	}
	return "int"
}

// IsValueType reports whether XSD type t is a .NET value type (never null:
// minOccurs 1 in the WSDL, a required attribute), as opposed to a string.
// XmlSerializer holds integer and nonNegativeInteger in a string too (its
// TypeScope maps the XSD types it has no CLR type for to System.String, a
// reference type), so they are no value types either.
func IsValueType(t string) bool {
	return !slices.Contains(stringTypes, t) && !slices.Contains(stringHeldTypes, t)
}

// stringHeldTypes are the XSD types of intTypes that XmlSerializer holds
// in a System.String (TypeScope's unsupportedTypes).
var stringHeldTypes = []string{"integer", "nonNegativeInteger"}

// Formats.
const (
	FormatTrueFalse = "true/false" // xs:boolean written true or false (XmlSerializer)
	FormatOneZero   = "1/0"        // xs:boolean written 1 or 0
	FormatShortest  = "shortest"   // a number as XmlConvert writes it (asmx.AppendXMLDouble)
	formatFixed     = "fixed:"     // fixed:N, N decimals
)

// checkFormat validates format for a value of XSD type t and returns the
// effective format ("" where formats do not apply).
func checkFormat(t, format string) (string, error) {
	switch {
	case t == "boolean":
		switch format {
		case "", FormatTrueFalse:
			return FormatTrueFalse, nil
		case FormatOneZero:
			return FormatOneZero, nil
		}
		return "", fmt.Errorf("format %q: a boolean is written %q or %q", format, FormatTrueFalse, FormatOneZero)
	case slices.Contains(decimalTypes, t):
		if format == "" || format == FormatShortest {
			return FormatShortest, nil
		}
		if n, ok := FixedDecimals(format); ok && n >= 0 && n <= 15 {
			return format, nil
		}
		return "", fmt.Errorf("format %q: a number is written %q or %q with N from 0 to 15", format, FormatShortest, "fixed:N")
	}
	if format != "" {
		return "", fmt.Errorf("format %q: only boolean and number types (double, float, decimal) take a format", format)
	}
	return "", nil
}

// FixedDecimals returns N of a "fixed:N" format.
func FixedDecimals(format string) (int, bool) {
	rest, ok := strings.CutPrefix(format, formatFixed)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil
}

// EffectiveFormat is the format f's value is written in: its Format, or the
// default of its type.
func (f *Field) EffectiveFormat() string {
	got, err := checkFormat(f.Type, f.Format)
	if err != nil {
		return ""
	}
	return got
}

// GeneratedValue is the deterministic value a Generated field of XSD type t
// gets for the item at ordinal n (1-based: the item's position in its data
// set list; 0 outside lists): n itself for integer types, name-n for
// strings, false for booleans, 0 for numbers, a fixed date for dates.
func GeneratedValue(t, name string, n int) string {
	switch {
	case slices.Contains(intTypes, t):
		return strconv.Itoa(n)
	case slices.Contains(decimalTypes, t):
		return "0"
	case slices.Contains(stringTypes, t):
		return name + "-" + strconv.Itoa(n)
	}
	switch t {
	case "boolean":
		return "false"
	case "dateTime":
		return "2000-01-01T00:00:00"
	case "date":
		return "2000-01-01"
	case "time":
		return "00:00:00"
	}
	return ""
}

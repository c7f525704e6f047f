package shape

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Data is what CheckData reads of a data set: how many items its lists
// hold and the integer values of each item.
type Data interface {
	// Len is the number of items of a list: "locations", "institutions",
	// "provinces", or "languages" (the languages of every location).
	Len(list string) int
	// Int returns the integer value path (a flag included) of the item at
	// position i of scope's list (ScopeLocation, ScopeInstitution or
	// ScopeProvince); ok is false when path is no integer value there.
	Int(scope Scope, i int, path string) (n int64, ok bool)
	// Label names the item at position i of scope for messages, e.g.
	// "ATM id 17".
	Label(scope Scope, i int) string
	// Text returns the string value path of the item at position i of
	// scope's list (ScopeLanguage: of every location's languages in
	// turn); ok is false when path is no string value there.
	Text(scope Scope, i int, path string) (s string, ok bool)
}

// FitError says which values of a data set the types of a shape cannot
// hold (CheckData): a .NET client refuses an answer holding one.
type FitError struct {
	// File is the shape file's name, if the shape was read from one.
	File     string
	Problems []Problem
}

// Error lists the fields and the first value of each that does not fit.
func (e *FitError) Error() string {
	var b strings.Builder
	b.WriteString("the shape")
	if e.File != "" {
		b.WriteString(" " + e.File)
	}
	b.WriteString(" cannot hold the data set's values")
	writeProblems(&b, "fields", e.Problems)
	if len(e.Problems) != 1 {
		b.WriteString("\n ")
	}
	b.WriteString(" (a .NET client throws on an answer holding such a value, an OverflowException (an enum's: an" +
		" InvalidOperationException; a DataSet's string longer than its column's MaxLength: a ConstraintException), and the deployment could not write one: give each field a type that holds its values, or serve a data set they fit)")
	return b.String()
}

// IntRange is the range of values XSD type t holds as .NET reads it
// (XmlSerializer's and DataSet's types: byte is System.SByte, short
// System.Int16, ...), for the integer types and boolean (0 and 1, the
// flags it holds). bounded is false for a type of no such range:
// xs:integer and xs:nonNegativeInteger (XmlSerializer reads them as
// strings, of any size and sign), non-integer types.
// unsignedLong's maximum is past int64's: hi is then math.MaxInt64, which
// every value of the data model fits.
func IntRange(t string) (lo, hi int64, bounded bool) {
	switch t {
	case "byte":
		return math.MinInt8, math.MaxInt8, true
	case "unsignedByte":
		return 0, math.MaxUint8, true
	case "short":
		return math.MinInt16, math.MaxInt16, true
	case "unsignedShort":
		return 0, math.MaxUint16, true
	case "int":
		return math.MinInt32, math.MaxInt32, true
	case "unsignedInt":
		return 0, math.MaxUint32, true
	case "long":
		return math.MinInt64, math.MaxInt64, true
	case "unsignedLong":
		return 0, math.MaxInt64, true
	case "boolean":
		return 0, 1, true
	}
	return 0, 0, false
}

// CheckData reports, as a *FitError, the fields of s whose XSD type cannot
// hold a value s would write from d: an id, an index or a count past an
// unsignedByte's 255, a short's 32767, an int's 2147483647, a negative
// value in an unsigned type; a generated integer (the item's position)
// or an auto-increment key past its type's maximum. A .NET client
// (XmlSerializer, DataSet) throws on such an answer (OverflowException)
// and the deployment could never write one, so a server must not serve
// it. nil when every value fits. Each field is reported once, with the
// first item whose value does not fit and how many more do not.
func (s *Shape) CheckData(d Data) error {
	k := &fitter{d: d}
	for _, r := range s.Results {
		if r == nil {
			continue
		}
		where := "results." + r.Name
		content := r.Content()
		if r.Layout == Dataset && r.DataSet != nil {
			k.dataSet(r.DataSet, content, where+".dataset")
			continue
		}
		k.fields(r.Fields, ScopeOf(content), content, where)
	}
	if len(k.problems) == 0 {
		return nil
	}
	return &FitError{File: s.file, Problems: k.problems}
}

// fitter collects the fields whose values do not fit.
type fitter struct {
	d        Data
	problems []Problem
}

// listOf is the list whose items scope's values are read from, "" for a
// result's own values.
func listOf(scope Scope) string {
	switch scope {
	case ScopeLocation:
		return string(Locations)
	case ScopeInstitution:
		return string(Institutions)
	case ScopeProvince:
		return string(Provinces)
	case ScopeLanguage:
		return "languages"
	}
	return ""
}

// groupAsInstitution returns a group's value (scope ScopeGroup) as its
// institution's, whose values a group holds (and whose position in the
// data set's list numbers its generated values); others as they are.
func groupAsInstitution(scope Scope, value string) (Scope, string) {
	if scope != ScopeGroup {
		return scope, value
	}
	return ScopeInstitution, strings.TrimPrefix(value, "institution.")
}

// items names n items of list for messages: 2000 ATMs.
func items(n int64, list string) string {
	if list == string(Locations) {
		list = "ATMs"
	}
	return strconv.FormatInt(n, 10) + " " + list
}

func (k *fitter) fields(fields []*Field, scope Scope, content Content, where string) {
	for _, f := range fields {
		if f == nil {
			continue
		}
		at := path(where, f.label())
		switch {
		case f.List != "" && f.Item != nil:
			itemScope, _ := ItemScope(scope, f)
			it := f.Item
			if itemScope == ScopeLanguage && len(it.Fields) == 0 {
				if it.Enum != "" { // the code, a value of an enum
					code := *it
					code.Value = "language"
					k.enum(&code, path(at, it.label()), ScopeLanguage)
				}
				continue // the code itself: a string
			}
			// A language item's generated values number the location.
			k.fields(it.Fields, itemScope, content, path(at, it.label()))
		case len(f.Fields) > 0:
			k.fields(f.Fields, scope, content, at)
		case f.Enum != "":
			k.enum(f, at, scope)
		default:
			k.leaf(f.lineOf("type"), at, f.Type, f.Value, f.Generated, scope, content)
		}
	}
}

func (k *fitter) dataSet(ds *DataSet, content Content, where string) {
	for _, t := range ds.Tables {
		if t == nil || t.Rows == RowsNone {
			continue
		}
		scope := ds.RowScope(t, content)
		for _, c := range t.Columns {
			if c == nil {
				continue
			}
			at := where + "." + t.Name + "." + c.Name
			if c.AutoIncrement {
				k.autoIncrement(c, at, scope)
				continue
			}
			if c.Value != "" || c.Generated {
				k.leaf(c.line, at, c.Type, c.Value, c.Generated, scope, content)
			}
			if c.MaxLength > 0 && c.Value != "" && !c.Generated {
				k.maxLength(c, at, scope)
			}
		}
	}
}

// autoIncrement checks the keys an auto-increment column numbers its
// table's rows with: seed, seed+step, ... for as many rows as an answer
// may hold.
func (k *fitter) autoIncrement(c *Column, at string, scope Scope) {
	lo, hi, ok := IntRange(c.Type)
	if !ok || c.Type == "boolean" {
		return
	}
	rows := int64(1)
	if l := listOf(scope); l != "" {
		rows = int64(k.d.Len(l))
	}
	if rows == 0 {
		return
	}
	last := c.Seed + c.StepOf()*(rows-1)
	for _, v := range []int64{c.Seed, last} {
		if v < lo || v > hi {
			k.addf(c.line, at, c.Type, lo, hi, "the auto-increment key numbering %d rows from %d by %d reaches %d", rows, c.Seed, c.StepOf(), v)
			return
		}
	}
}

// leaf checks one value of XSD type t: the model's value, or generated.
func (k *fitter) leaf(line int, at, t, value string, generated bool, scope Scope, content Content) {
	lo, hi, ok := IntRange(t)
	if !ok {
		return
	}
	scope, value = groupAsInstitution(scope, value)
	list := listOf(scope)
	if scope == ScopeLanguage {
		list = string(Locations) // a language's values are its location's
	}
	switch {
	case generated:
		if t == "boolean" {
			return // false
		}
		n := int64(0)
		if list != "" {
			n = int64(k.d.Len(list)) // the items are numbered 1 to n
		}
		if n > 0 && (1 < lo || n > hi) || n == 0 && (0 < lo || 0 > hi) {
			k.addf(line, at, t, lo, hi, "its generated values number the %s from 1 to %d", items(n, list), n)
		}
		return
	case value == "count":
		n := int64(k.d.Len(string(content)))
		if n > hi {
			k.addf(line, at, t, lo, hi, "an answer listing the data set's %s has count %d", items(n, string(content)), n)
		}
		return
	case value == "index":
		n := int64(k.d.Len(list))
		if n > 0 && n-1 > hi {
			k.addf(line, at, t, lo, hi, "an answer listing the data set's %s numbers them 0 to %d", items(n, list), n-1)
		}
		return
	}
	if scope != ScopeLocation && scope != ScopeInstitution && scope != ScopeProvince {
		return
	}
	first, more := -1, 0
	var firstN int64
	for i := range k.d.Len(list) {
		n, ok := k.d.Int(scope, i, value)
		if !ok {
			return // no integer value
		}
		if n < lo || n > hi {
			if first < 0 {
				first, firstN = i, n
			} else {
				more++
			}
		}
	}
	if first < 0 {
		return
	}
	msg := k.d.Label(scope, first) + " has " + value + " " + strconv.FormatInt(firstN, 10)
	if more > 0 {
		msg += fmt.Sprintf(" (and %s more do not fit)", items(int64(more), list))
	}
	k.addf(line, at, t, lo, hi, "%s", msg)
}

// enum checks the values of f, a value of an enum, which must be among
// its values (a generated one is its first).
func (k *fitter) enum(f *Field, at string, scope Scope) {
	scope, value := groupAsInstitution(scope, f.Value)
	list := listOf(scope)
	if f.Generated || value == "" || list == "" {
		return
	}
	first, more := -1, 0
	var firstV string
	for i := range k.d.Len(list) {
		v, ok := k.d.Text(scope, i, value)
		if !ok {
			return
		}
		if !slices.Contains(f.EnumValues, v) {
			if first < 0 {
				first, firstV = i, v
			} else {
				more++
			}
		}
	}
	if first < 0 {
		return
	}
	msg := fmt.Sprintf("enum %s holds %s, but %s has %s %q", f.Enum, strings.Join(f.EnumValues, ", "), k.d.Label(scope, first), value, firstV)
	if more > 0 {
		msg += fmt.Sprintf(" (and %s more are none of them)", items(int64(more), list))
	}
	k.problems = append(k.problems, Problem{Line: f.lineOf("enum"), Field: at, Msg: msg})
}

// maxLength checks the strings a column of a MaxLength holds: a DataSet
// reading a longer one refuses the answer (DataSet.EnableConstraints,
// IsMaxLengthViolated: a ConstraintException once the diffgram is read).
// A generated value is cut to fit when written.
func (k *fitter) maxLength(c *Column, at string, scope Scope) {
	list := listOf(scope)
	if list == "" {
		return
	}
	first, more, firstN := -1, 0, 0
	var firstV string
	for i := range k.d.Len(list) {
		v, ok := k.d.Text(scope, i, c.Value)
		if !ok {
			return
		}
		if n := Length(v); n > c.MaxLength {
			if first < 0 {
				first, firstV, firstN = i, v, n
			} else {
				more++
			}
		}
	}
	if first < 0 {
		return
	}
	msg := fmt.Sprintf("maxLength %d, but %s has %s %q (%d characters)", c.MaxLength, k.d.Label(scope, first), c.Value, firstV, firstN)
	if more > 0 {
		msg += fmt.Sprintf(" (and %s more are longer)", items(int64(more), list))
	}
	k.problems = append(k.problems, Problem{Line: c.line, Field: at, Msg: msg})
}

// Length is the length of s as .NET counts a string's: UTF-16 code units.
func Length(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// CutLength is s cut to at most n UTF-16 code units, at a character's
// end: a generated value of a column of MaxLength n.
func CutLength(s string, n int) string {
	used := 0
	for i, r := range s {
		if used += utf16.RuneLen(r); used > n {
			return s[:i]
		}
	}
	return s
}

// addf reports a field of type t (lo to hi) holding a value past its range.
func (k *fitter) addf(line int, at, t string, lo, hi int64, format string, args ...any) {
	rng := fmt.Sprintf("%d to %d", lo, hi)
	switch {
	case t == "boolean":
		rng = "false and true (0 and 1)"
	case t == "unsignedLong":
		rng = "0 to 18446744073709551615"
	}
	k.problems = append(k.problems, Problem{Line: line, Field: at, Msg: fmt.Sprintf(
		"type %s holds %s, but %s",
		t, rng, fmt.Sprintf(format, args...))})
}

// DecimalPoint reports whether op's result writes the latitude and the
// longitude of its search point (the coordinates of a search by
// coordinates or address) in a field or column of XSD type decimal: the
// service converts the searched double to a System.Decimal there, which
// throws past a decimal's range.
func (s *Shape) DecimalPoint(op string) (lat, lon bool) {
	r := s.Result(op)
	if r == nil || !WritesSearchPoint(op) {
		return false, false
	}
	note := func(value, t string) {
		if t == "decimal" {
			lat = lat || value == "coordinates.latitude"
			lon = lon || value == "coordinates.longitude"
		}
	}
	if r.Layout == Dataset && r.DataSet != nil {
		for _, t := range r.DataSet.Tables {
			if t == nil || r.DataSet.RowScope(t, r.Content()) != ScopeOf(r.Content()) {
				continue
			}
			for _, c := range t.Columns {
				if c != nil {
					note(c.Value, c.Type)
				}
			}
		}
		return lat, lon
	}
	walkFields(r.Fields, false, func(f *Field) bool { // the result's own values: lists not entered
		note(f.Value, f.Type)
		return true
	})
	return lat, lon
}

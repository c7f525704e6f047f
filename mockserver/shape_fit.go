package mockserver

import (
	"math"
	"strconv"

	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/shape"
)

// fitData is the data set as shape.CheckData reads it.
type fitData struct{ d *data }

// Len is the number of items of list.
func (f fitData) Len(list string) int {
	ds := f.d.ds
	switch list {
	case string(shape.Locations):
		return len(ds.ATMs)
	case string(shape.Institutions):
		return len(ds.Institutions)
	case string(shape.Provinces):
		return len(ds.Provinces)
	case "languages":
		n := 0
		for i := range ds.ATMs {
			n += len(ds.ATMs[i].Languages)
		}
		return n
	}
	return 0
}

// Int is the integer value path of item i of scope, as the server writes it.
func (f fitData) Int(scope shape.Scope, i int, path string) (int64, bool) {
	v, ok := shape.LookupValue(scope, path)
	if !ok || v.Kind != shape.KindInt && v.Kind != shape.KindFlag {
		return 0, false
	}
	ctx, ok := f.itemCtx(scope, i)
	if !ok || scope == shape.ScopeLanguage {
		return 0, false
	}
	l := leaf{id: valueIDs[scope][path]}
	n, _, _ := l.value(&ctx)
	return int64(n), true
}

// Text is the string value path of item i of scope, as the server writes
// it; a language's i counts the languages of every location in turn.
func (f fitData) Text(scope shape.Scope, i int, path string) (string, bool) {
	v, ok := shape.LookupValue(scope, path)
	if !ok || v.Kind != shape.KindString {
		return "", false
	}
	ctx, ok := f.itemCtx(scope, i)
	if !ok {
		return "", false
	}
	l := leaf{id: valueIDs[scope][path]}
	_, _, s := l.value(&ctx)
	return s, true
}

// itemCtx is the value context of item i of scope (a language's i counts
// the languages of every location in turn), or false for a scope with no
// items of its own.
func (f fitData) itemCtx(scope shape.Scope, i int) (valueCtx, bool) {
	ds := f.d.ds
	switch scope {
	case shape.ScopeLocation:
		a := &ds.ATMs[i]
		return valueCtx{atm: a, inst: f.d.institution(a.InstitutionID)}, true
	case shape.ScopeInstitution:
		return valueCtx{inst: &ds.Institutions[i]}, true
	case shape.ScopeProvince:
		return valueCtx{prov: &ds.Provinces[i]}, true
	case shape.ScopeLanguage:
		for j := range ds.ATMs {
			if i < len(ds.ATMs[j].Languages) {
				return valueCtx{lang: ds.ATMs[j].Languages[i]}, true
			}
			i -= len(ds.ATMs[j].Languages)
		}
		return valueCtx{}, true
	}
	return valueCtx{}, false
}

// Label names item i of scope.
func (f fitData) Label(scope shape.Scope, i int) string {
	ds := f.d.ds
	switch scope {
	case shape.ScopeLocation:
		return "ATM id " + strconv.Itoa(ds.ATMs[i].ID)
	case shape.ScopeInstitution:
		return "institution id " + strconv.Itoa(ds.Institutions[i].ID)
	case shape.ScopeProvince:
		return "province " + ds.Provinces[i].Code
	case shape.ScopeLanguage:
		for j := range ds.ATMs {
			if i < len(ds.ATMs[j].Languages) {
				return "ATM id " + strconv.Itoa(ds.ATMs[j].ID) + "'s language " + strconv.Itoa(i+1)
			}
			i -= len(ds.ATMs[j].Languages)
		}
	}
	return "item " + strconv.Itoa(i+1)
}

// decimalHolds reports whether .NET converts v to a System.Decimal without
// an OverflowException: finite and below 79228162514264337593543950335 in
// magnitude.
func decimalHolds(v float64) bool { return math.Abs(v) < 7.922816251426434e28 }

// CheckShapeData reports, as shape.CheckData does (a *shape.FitError), the
// fields of sh whose XSD types cannot hold a value the mock would write
// from ds: what New refuses for WithShape and WithDataset, found without
// building a server. nil when every value fits.
func CheckShapeData(sh *shape.Shape, ds *fixtures.Dataset) error {
	d := &data{ds: ds, institutions: make(map[int]*fixtures.Institution, len(ds.Institutions))}
	for i := range ds.Institutions {
		d.institutions[ds.Institutions[i].ID] = &ds.Institutions[i]
	}
	return sh.CheckData(fitData{d})
}

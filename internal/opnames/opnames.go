// Package opnames names the eight operations of the interface document, in
// its order, once for the packages that must agree on them and may not
// depend on each other: asmx (the wire protocol) and shape (the result
// model, which must not import asmx). Each re-exports the names as
// constants of its own. The conformance suite keeps a copy on purpose: it
// checks a deployment against the document, not against atmkit's code.
package opnames

// The eight operations, in the document's order.
const (
	ReturnAllAtms                       = "ReturnAllAtms"
	ReturnAtmSearchByAddress            = "ReturnAtmSearchByAddress"
	ReturnAtmSearchByCoordinates        = "ReturnAtmSearchByCoordinates"
	ReturnAtmSearchByAddressWithMaximum = "ReturnAtmSearchByAddressWithMaximum"
	ReturnAtmSearchByInstitution        = "ReturnAtmSearchByInstitution"
	ReturnAtmSearchByCity               = "ReturnAtmSearchByCity"
	ReturnInstitutions                  = "ReturnInstitutions"
	ReturnProvinces                     = "ReturnProvinces"
)

// All returns the eight names in the document's order, in a slice of the
// caller's own.
func All() []string {
	return []string{ReturnAllAtms, ReturnAtmSearchByAddress, ReturnAtmSearchByCoordinates,
		ReturnAtmSearchByAddressWithMaximum, ReturnAtmSearchByInstitution, ReturnAtmSearchByCity,
		ReturnInstitutions, ReturnProvinces}
}

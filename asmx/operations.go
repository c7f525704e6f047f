package asmx

import (
	"strings"

	"github.com/atmkit/atmkit/internal/opnames"
)

// ParamType is the SOAP type of a parameter.
type ParamType int

// Parameter types, as the interface document names them.
const (
	String       ParamType = iota // xs:string
	UnsignedByte                  // xs:unsignedByte, 0 to 255
	Double                        // xs:double
	Int                           // xs:int, 32 bits
)

// XSD is the type's name in XML Schema, e.g. "unsignedByte".
func (t ParamType) XSD() string {
	switch t {
	case UnsignedByte:
		return "unsignedByte"
	case Double:
		return "double"
	case Int:
		return "int"
	default:
		return "string"
	}
}

// dotNet is the .NET type name ASMX uses in its error texts, e.g. "System.Byte".
func (t ParamType) dotNet() string {
	switch t {
	case UnsignedByte:
		return "System.Byte"
	case Double:
		return "System.Double"
	case Int:
		return "System.Int32"
	default:
		return "System.String"
	}
}

// Parameter names of the interface document.
const (
	ParamKey           = "strAtmServiceKey"
	ParamAddress       = "strAddress"
	ParamCity          = "strCity"
	ParamProvince      = "strProvince"
	ParamPostalCode    = "strPostalCode"
	ParamRadius        = "bytRadius"
	ParamLatitude      = "dblLatitude"
	ParamLongitude     = "dblLongitude"
	ParamMaximumAtms   = "intMaximumAtms"
	ParamInstitutionID = "intInstitutionID"
	ParamCityID        = "intCityID"
)

// Param is one parameter of an operation.
type Param struct {
	Name string
	Type ParamType
}

// Operation is one of the service's eight operations.
type Operation struct {
	// Name is the operation name, e.g. "ReturnAllAtms".
	Name string
	// Params are the parameters in the document's order, key first.
	Params []Param
	// JSON is true for the two operations also offered on /service-v2.asmx.
	JSON bool
	// Summary is the document's one-line purpose.
	Summary string
}

// Operation names.
const (
	OpReturnAllAtms                       = opnames.ReturnAllAtms
	OpReturnAtmSearchByAddress            = opnames.ReturnAtmSearchByAddress
	OpReturnAtmSearchByCoordinates        = opnames.ReturnAtmSearchByCoordinates
	OpReturnAtmSearchByAddressWithMaximum = opnames.ReturnAtmSearchByAddressWithMaximum
	OpReturnAtmSearchByInstitution        = opnames.ReturnAtmSearchByInstitution
	OpReturnAtmSearchByCity               = opnames.ReturnAtmSearchByCity
	OpReturnInstitutions                  = opnames.ReturnInstitutions
	OpReturnProvinces                     = opnames.ReturnProvinces
)

var (
	pKey        = Param{ParamKey, String}
	pAddress    = Param{ParamAddress, String}
	pCity       = Param{ParamCity, String}
	pProvince   = Param{ParamProvince, String}
	pPostalCode = Param{ParamPostalCode, String}
	pRadius     = Param{ParamRadius, UnsignedByte}
)

// operations in the order of the document's purpose table.
var operations = []*Operation{
	{Name: OpReturnAllAtms, Params: []Param{pKey},
		Summary: "List of all ATM locations."},
	{Name: OpReturnAtmSearchByAddress, JSON: true,
		Params:  []Param{pKey, pAddress, pCity, pProvince, pPostalCode, pRadius},
		Summary: "ATM locations near an address (street address, city, province, postal code) within a radius."},
	{Name: OpReturnAtmSearchByCoordinates, JSON: true,
		Params:  []Param{pKey, pPostalCode, {ParamLatitude, Double}, {ParamLongitude, Double}, pRadius},
		Summary: "ATM locations near a latitude/longitude within a radius."},
	{Name: OpReturnAtmSearchByAddressWithMaximum,
		Params:  []Param{pKey, pAddress, pCity, pProvince, pPostalCode, pRadius, {ParamMaximumAtms, Int}},
		Summary: "Same search as by address, limited to a given number of ATM locations."},
	{Name: OpReturnAtmSearchByInstitution,
		Params:  []Param{pKey, {ParamInstitutionID, Int}},
		Summary: "ATM locations of one institution."},
	{Name: OpReturnAtmSearchByCity,
		Params:  []Param{pKey, {ParamCityID, Int}},
		Summary: "ATM locations in one city."},
	{Name: OpReturnInstitutions, Params: []Param{pKey},
		Summary: "List of institutions in the service's database."},
	{Name: OpReturnProvinces, Params: []Param{pKey},
		Summary: "List of provinces in the service's database."},
}

// Operations returns the eight operations in the document's order. The
// returned operations are shared: do not modify them.
func Operations() []*Operation {
	out := make([]*Operation, len(operations))
	copy(out, operations)
	return out
}

// LookupOperation finds an operation by its exact name.
func LookupOperation(name string) (*Operation, bool) {
	for _, op := range operations {
		if op.Name == name {
			return op, true
		}
	}
	return nil, false
}

// lookupOperationFold finds an operation ignoring case, as IIS paths do.
func lookupOperationFold(name string) (*Operation, bool) {
	for _, op := range operations {
		if strings.EqualFold(op.Name, name) {
			return op, true
		}
	}
	return nil, false
}

// Param returns the operation's parameter named name.
func (op *Operation) Param(name string) (Param, bool) {
	for _, p := range op.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

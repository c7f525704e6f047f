package conformance

// This file holds what the interface document states: the bindings, the
// operations, their parameters in order and their SOAP types.

// Binding is one of the ways the service is offered.
type Binding string

// The bindings of the interface document.
const (
	SOAP11   Binding = "soap11" // SOAP 1.1, POST /service/service.asmx
	SOAP12   Binding = "soap12" // SOAP 1.2, POST /service/service.asmx
	HTTPGet  Binding = "get"    // HTTP GET /service/service.asmx/<Op>
	HTTPPost Binding = "post"   // HTTP POST form /service/service.asmx/<Op>
	JSON     Binding = "json"   // HTTP JSON GET /service-v2.asmx/<Op>
)

// XMLBindings are the four bindings every operation is offered in.
var XMLBindings = []Binding{SOAP11, SOAP12, HTTPGet, HTTPPost}

// Namespaces and content types fixed by the document and the SOAP specs.
const (
	soap11EnvNS = "http://schemas.xmlsoap.org/soap/envelope/"
	soap12EnvNS = "http://www.w3.org/2003/05/soap-envelope"
	xsdNS       = "http://www.w3.org/2001/XMLSchema"
	wsdlNS      = "http://schemas.xmlsoap.org/wsdl/"
	wsdlSOAPNS  = "http://schemas.xmlsoap.org/wsdl/soap/"
	// wsdlSOAP12NS and wsdlHTTPNS are the WSDL 1.1 extensions of the SOAP
	// 1.2 and HTTP bindings.
	wsdlSOAP12NS = "http://schemas.xmlsoap.org/wsdl/soap12/"
	wsdlHTTPNS   = "http://schemas.xmlsoap.org/wsdl/http/"

	ctTextXML   = "text/xml; charset=utf-8"
	ctSOAP12    = "application/soap+xml; charset=utf-8"
	ctForm      = "application/x-www-form-urlencoded"
	ctJSONReq   = "application/json"
	ctTextPlain = "text/plain; charset=utf-8"

	servicePath   = "/service/service.asmx"
	serviceV2Path = "/service-v2.asmx"
)

// Parameter names of the document.
const (
	pKey         = "strAtmServiceKey"
	pAddress     = "strAddress"
	pCity        = "strCity"
	pProvince    = "strProvince"
	pPostalCode  = "strPostalCode"
	pRadius      = "bytRadius"
	pLatitude    = "dblLatitude"
	pLongitude   = "dblLongitude"
	pMaximum     = "intMaximumAtms"
	pInstitution = "intInstitutionID"
	pCityID      = "intCityID"
)

// paramTypes maps each parameter to its SOAP (XML Schema) type.
var paramTypes = map[string]string{
	pKey:         "string",
	pAddress:     "string",
	pCity:        "string",
	pProvince:    "string",
	pPostalCode:  "string",
	pRadius:      "unsignedByte",
	pLatitude:    "double",
	pLongitude:   "double",
	pMaximum:     "int",
	pInstitution: "int",
	pCityID:      "int",
}

// Operation is one operation of the service.
type Operation struct {
	// Name is the operation name, e.g. "ReturnAllAtms".
	Name string
	// Params lists the parameters in the document's order, key first.
	Params []string
	// JSON is true for the two operations also offered on /service-v2.asmx.
	JSON bool
	// Locations is true when the result is a list of ATM location nodes.
	Locations bool
}

// Operation names.
const (
	opByAddress   = "ReturnAtmSearchByAddress"
	opByCoords    = "ReturnAtmSearchByCoordinates"
	opWithMaximum = "ReturnAtmSearchByAddressWithMaximum"
	opByInst      = "ReturnAtmSearchByInstitution"
	opByCity      = "ReturnAtmSearchByCity"
	opInsts       = "ReturnInstitutions"
	opAllAtms     = "ReturnAllAtms"
	opProvinces   = "ReturnProvinces"
)

// Operations lists the eight operations in the order of the document's
// operation table.
var Operations = []Operation{
	{Name: opByAddress, Params: []string{pKey, pAddress, pCity, pProvince, pPostalCode, pRadius}, JSON: true, Locations: true},
	{Name: opByCoords, Params: []string{pKey, pPostalCode, pLatitude, pLongitude, pRadius}, JSON: true, Locations: true},
	{Name: opWithMaximum, Params: []string{pKey, pAddress, pCity, pProvince, pPostalCode, pRadius, pMaximum}, Locations: true},
	{Name: opByInst, Params: []string{pKey, pInstitution}, Locations: true},
	{Name: opByCity, Params: []string{pKey, pCityID}, Locations: true},
	{Name: opInsts, Params: []string{pKey}},
	{Name: opAllAtms, Params: []string{pKey}, Locations: true},
	{Name: opProvinces, Params: []string{pKey}},
}

// operation returns the named operation; an unknown name gives an operation
// that takes only the key, so the suite can ask for operations that do not exist.
func operation(name string) Operation {
	for _, op := range Operations {
		if op.Name == name {
			return op
		}
	}
	return Operation{Name: name, Params: []string{pKey}}
}

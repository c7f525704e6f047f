package mockserver

// XML element names of the results. The interface document does not show
// them; atmkit mirrors the JSON field names. They are all here, in one place,
// so a deployment that names them differently can be matched by changing
// this table. The README shows a sample of every result.
const (
	// Root of every location list (ReturnAllAtms and the five searches).
	xmlLocationsRoot = "atmLocations"
	// Number of locations, first child of the root (JSON "count").
	xmlCount = "count"
	// Search point of the address and coordinate searches (JSON "coordinates").
	xmlSearchPoint = "coordinates"
	// Container of the location nodes (JSON "locations").
	xmlLocationList = "locations"
	// One location node (an element of JSON "locations").
	xmlLocation = "location"

	// Fields of a location node, in the JSON order.
	xmlIndex         = "index"
	xmlID            = "id"
	xmlATMIdentifier = "atmIdentifier"
	xmlInstitution   = "institution"
	xmlName          = "name"
	xmlURL           = "url"
	xmlIsAtlanticCU  = "isAtlanticCreditUnion"
	xmlCoordinates   = "coordinates"
	xmlLatitude      = "latitude"
	xmlLongitude     = "longitude"
	xmlAddress       = "address"
	xmlStreetAddress = "streetAddress"
	xmlCity          = "city"
	xmlProvince      = "province"
	xmlPostalCode    = "postalCode"
	xmlLandmark      = "landmark"
	xmlFeatures      = "features"
	xmlDeposits      = "deposits"
	xmlHours         = "hours"
	xmlDriveThru     = "driveThru"
	xmlPinChange     = "pinChange"
	xmlVoiceGuidance = "voiceGuidance"
	xmlCreditCards   = "creditCards"
	xmlVisa          = "visa"
	xmlPlus          = "plus"
	xmlMastercard    = "mastercard"
	xmlCirrus        = "cirrus"
	xmlLanguages     = "languages"
	xmlLanguage      = "language"

	// ReturnInstitutions: root and one node per institution (id, name, url,
	// isAtlanticCreditUnion, as in the location's institution object).
	xmlInstitutionsRoot = "institutions"
	// ReturnProvinces: root, one node per province with its code and name.
	xmlProvincesRoot = "provinces"
	xmlProvinceCode  = "code"
)

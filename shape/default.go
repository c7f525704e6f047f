package shape

// Default returns the built-in shape: what atmkit serves when no shape is
// given. Every result is an XML node in no namespace whose element names
// mirror the JSON field names and nest as the JSON objects do; flags and
// numbers are written as in the JSON. Each call returns a new Shape.
func Default() *Shape {
	leaf := func(name, value, typ string) *Field { return &Field{Element: name, Value: value, Type: typ} }
	point := func(name, prefix string) *Field {
		return &Field{Element: name, Fields: []*Field{
			leaf("latitude", prefix+"latitude", "double"),
			leaf("longitude", prefix+"longitude", "double"),
		}}
	}
	institution := func(prefix string) []*Field {
		return []*Field{
			leaf("id", prefix+"id", "int"),
			leaf("name", prefix+"name", "string"),
			leaf("url", prefix+"url", "string"),
			leaf("isAtlanticCreditUnion", prefix+"isAtlanticCreditUnion", "int"),
		}
	}
	location := &Field{Element: "location", Fields: []*Field{
		leaf("index", "index", "int"),
		leaf("id", "id", "int"),
		leaf("atmIdentifier", "atmIdentifier", "string"),
		{Element: "institution", Fields: institution("institution.")},
		point("coordinates", "coordinates."),
		{Element: "address", Fields: []*Field{
			leaf("streetAddress", "address.streetAddress", "string"),
			leaf("city", "address.city", "string"),
			leaf("province", "address.province", "string"),
			leaf("postalCode", "address.postalCode", "string"),
			leaf("landmark", "address.landmark", "string"),
		}},
		{Element: "features", Fields: []*Field{
			leaf("deposits", "features.deposits", "int"),
			leaf("hours", "features.hours", "int"),
			leaf("driveThru", "features.driveThru", "int"),
			leaf("pinChange", "features.pinChange", "int"),
			leaf("voiceGuidance", "features.voiceGuidance", "int"),
		}},
		{Element: "creditCards", Fields: []*Field{
			leaf("visa", "creditCards.visa", "int"),
			leaf("plus", "creditCards.plus", "int"),
			leaf("mastercard", "creditCards.mastercard", "int"),
			leaf("cirrus", "creditCards.cirrus", "int"),
		}},
		{Element: "languages", List: "languages", Item: &Field{Element: "language", Type: "string"}},
	}}
	s := &Shape{
		Results: []*Result{
			{Name: "locations", Layout: Node, Namespace: NoNamespace, Root: "atmLocations", Fields: []*Field{
				leaf("count", "count", "int"),
				point("coordinates", "coordinates."),
				{Element: "locations", List: string(Locations), Item: location},
			}},
			{Name: "institutions", Layout: Node, Namespace: NoNamespace, Root: "institutions", Fields: []*Field{
				{List: string(Institutions), Item: &Field{Element: "institution", Fields: institution("")}},
			}},
			{Name: "provinces", Layout: Node, Namespace: NoNamespace, Root: "provinces", Fields: []*Field{
				{List: string(Provinces), Item: &Field{Element: "province", Fields: []*Field{
					leaf("code", "code", "string"),
					leaf("name", "name", "string"),
				}}},
			}},
		},
		Operations: map[string]string{},
	}
	for _, op := range Operations() {
		s.Operations[op] = string(ContentOf(op))
	}
	if err := s.Validate(); err != nil {
		panic("shape: the default shape is invalid: " + err.Error())
	}
	return s
}

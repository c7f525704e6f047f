package shape

// Default returns the built-in shape: what atmkit serves when no shape is
// given. Every result is an XML node in no namespace whose element names
// mirror the JSON field names and nest as the JSON objects do; flags and
// numbers are written as in the JSON. Each call returns a new Shape.
func Default() *Shape {
	leaf := func(name, value, typ string) *Field { return &Field{Element: name, Value: value, Type: typ} }
	// group is a JSON object's element: its members, of type typ, as
	// leaves named as they are and valued at name.member.
	group := func(name, typ string, members ...string) *Field {
		f := &Field{Element: name, Fields: make([]*Field, len(members))}
		for i, m := range members {
			f.Fields[i] = leaf(m, name+"."+m, typ)
		}
		return f
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
		group("coordinates", "double", "latitude", "longitude"),
		group("address", "string", "streetAddress", "city", "province", "postalCode", "landmark"),
		group("features", "int", "deposits", "hours", "driveThru", "pinChange", "voiceGuidance"),
		group("creditCards", "int", "visa", "plus", "mastercard", "cirrus"),
		{Element: "languages", List: "languages", Item: &Field{Element: "language", Type: "string"}},
	}}
	s := &Shape{
		Results: []*Result{
			{Name: "locations", Layout: Node, Namespace: NoNamespace, Root: "atmLocations", Fields: []*Field{
				leaf("count", "count", "int"),
				group("coordinates", "double", "latitude", "longitude"),
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

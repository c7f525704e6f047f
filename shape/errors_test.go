package shape

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHandWrittenMistakes feeds the DataSet and attribute-valued shapes of
// the reference sites with the mistakes a hand-written shape makes. Each
// error names the line of the mistake and what is wrong, and no other
// problem that follows from it.
func TestHandWrittenMistakes(t *testing.T) {
	rows := []struct {
		name, file, old, new string
		want                 []string // each must appear in the error
		problems             int      // how many problems it lists
	}{
		{"a relation's parent misspelt", "dataset.yaml", "parent: Machine,", "parent: Machines,",
			[]string{`line 52: results.AtmFinder.dataset.relations[0] (MachineTongues).parent: no table "Machines"`}, 2},
		// A table of one row per parent row whose relation names no
		// table: its values cannot be checked, and were checked as the
		// result's own, each reported as "not a value of a locations result".
		{"the parent of a table of one row per location misspelt", "../learn/testdata/variants/dataset-nested.yaml",
			"{name: location_address, parent: location,", "{name: location_address, parent: locaton,",
			[]string{`line 46: results.NewDataSet.dataset.relations[1] (location_address).parent: no table "locaton"`}, 1},
		{"a relation's parent column misspelt", "dataset.yaml", "parentColumns: [MachineKey]", "parentColumns: [MachineKy]",
			[]string{`line 52: `, `parentColumns: no column "MachineKy" in table Machine`}, 2},
		{"a unique constraint's column misspelt", "dataset.yaml", "{name: Constraint1, columns: [MachineKey]}", "{name: Constraint1, columns: [MachineKy]}",
			[]string{`line 45: results.AtmFinder.dataset.tables[1] (Machine).unique[0]: no column "MachineKy" in table Machine`}, 2},
		{"rows misspelt", "dataset.yaml", "rows: locations", "rows: location",
			[]string{`line 17: results.AtmFinder.dataset.tables[1] (Machine).rows: rows "location": want one, none, locations`}, 2},
		{"a layout misspelt", "dataset.yaml", "  BankList:\n    layout: dataset", "  BankList:\n    layout: datasets",
			[]string{`line 54: results.BankList.layout: layout "datasets": want node, typed or dataset`}, 1},
		{"a prefix with a colon", "dataset.yaml", "      name: BankList\n", "      name: BankList\n      prefix: \"b:l\"\n",
			[]string{`line 56: results.BankList.dataset.prefix: prefix "b:l" is not a namespace prefix`}, 1},
		{"a prefix without a namespace", "dataset.yaml", "      name: AtmFinder\n", "      name: AtmFinder\n      prefix: af\n",
			[]string{`results.AtmFinder.dataset.prefix: a prefix is for a DataSet in a namespace (namespace:)`}, 1},
		{"bad YAML", "dataset.yaml", "      name: AtmFinder", "      name: Atm: Finder",
			[]string{"invalid shape: line 8: mapping values are not allowed"}, 1},
		{"a group misspelt", "grouped.yaml", "group: institution", "group: institutions",
			[]string{`line 10: results.ArrayOfBank/(locations list).group: group "institutions": a locations list is grouped by institution only`}, 1},
		{"a group on the institutions list", "grouped.yaml", "      - list: institutions\n", "      - list: institutions\n        group: institution\n",
			[]string{`line 50: results.ArrayOfLender/(institutions list).group: only a locations result's own locations list is grouped, not a list in the institutions result`}, 1},
		{"a group's locations grouped again", "grouped.yaml", "              list: locations\n", "              list: locations\n              group: institution\n",
			[]string{`line 20: results.ArrayOfBank/(locations list)/Bank/Atms.group: only a locations result's own locations list is grouped, not a list in the institution group`}, 1},
		{"an index in a grouped location", "grouped.yaml", "{element: AtmId, type: int, value: id}", "{element: AtmId, type: int, value: index}",
			[]string{`line 23: results.ArrayOfBank/(locations list)/Bank: a grouped location has no index`}, 1},
		{"a group without its locations", "grouped.yaml", "            - element: Atms\n              list: locations\n", "            - element: Atms\n              list: languages\n",
			[]string{`results.ArrayOfBank/(locations list)/Bank: a group holds its institution's locations in one locations list, not 0`}, 2},
		{"a group on a value", "grouped.yaml", "{element: Name, type: string, value: institution.name}", "{element: Name, type: string, value: institution.name, group: institution}",
			[]string{`line 15: results.ArrayOfBank/(locations list)/Bank/Name.group: only a list is grouped`}, 1},
		{"a group order misspelt", "grouped.yaml", "group: institution\n", "group: institution\n        groupOrder: name\n",
			[]string{`line 11: results.ArrayOfBank/(locations list).groupOrder: groupOrder "name": want first, institution.id, institution.name (ascending; a name compared ordinally`}, 1},
		{"a group order on a list not grouped", "grouped.yaml", "              list: locations\n", "              list: locations\n              groupOrder: institution.id\n",
			[]string{`line 20: results.ArrayOfBank/(locations list)/Bank/Atms.groupOrder: only a grouped list (group: institution) has an order of groups`}, 1},
		{"a group order on a table of locations", "groupsets.yaml", "          rows: locations\n", "          rows: locations\n          groupOrder: institution.name\n",
			[]string{`results.Nearby.dataset.tables[1] (Atm).groupOrder: only a table of groups (rows: groups) has an order of groups`}, 1},
		{"a table's group order descending", "groupsets.yaml", "          rows: groups\n", "          rows: groups\n          groupOrder: institution.id desc\n",
			[]string{`results.Nearby.dataset.tables[0] (Bank).groupOrder: groupOrder "institution.id desc": want first, institution.id, institution.name`}, 1},
		{"a row order of locations nested in their groups", "groupsets.yaml", "          rows: locations\n", "          rows: locations\n          rowOrder: groups\n",
			[]string{`results.Nearby.dataset.tables[1] (Atm).rowOrder: rowOrder: groups orders the locations table's rows whose parent is the table of groups (rows: groups) in a relation not nested`}, 1},
		{"a row order misspelt", "groupsets.yaml", "          rows: locations\n", "          rows: locations\n          rowOrder: banks\n",
			[]string{`results.Nearby.dataset.tables[1] (Atm).rowOrder: rowOrder "banks": want groups (bank by bank), or leave it out for the search's order`}, 1},
		{"a group's key generated", "groupsets.yaml", "{column: Id, type: int, allowNull: false, value: institution.id}", "{column: Id, type: int, allowNull: false, generated: true}",
			[]string{`results.Nearby.dataset.tables[0] (Bank): column Id, the key the locations' rows hold (relation BankAtms), holds an institution's value`}, 1},
		{"a group's value of a location", "groupsets.yaml", "{column: Name, type: string, value: institution.name}", "{column: Name, type: string, value: address.city}",
			[]string{`results.Nearby.dataset.tables[0] (Bank).columns[1] (Name).value: "address.city" is not a value of a institution group`}, 1},
		{"a second table of groups", "groupsets.yaml", "rows: languages", "rows: groups",
			[]string{`results.Nearby.dataset.tables[2] (Lang).rows: a second table of groups (Bank has rows: groups)`}, 1},
		{"groups of institutions", "groupsets.yaml", "  Regions:\n", "        - table: Group\n          rows: groups\n          columns: [{column: Id, type: int, value: institution.id}]\n  Regions:\n",
			[]string{`results.Banks.dataset.tables[1] (Group).rows: rows: groups is the groups of the locations by institution: only in a DataSet of locations`}, 1},
		{"a namespace misspelt", "attrs.yaml", "namespace: http://attrs.atmref.example.org/machines", "namespace: servce",
			[]string{`line 16: results.Lookup/Machines.namespace: namespace "servce": want none, service or an absolute namespace URI`}, 1},
		{"a keyword capitalized", "attrs.yaml", "    namespace: service\n    root: Lookup", "    namespace: Service\n    root: Lookup",
			[]string{`line 4: results.Lookup.namespace: namespace "Service": write service in lower case`}, 1},
		{"an attribute named xmlns", "attrs.yaml", "{attribute: total,", "{attribute: xmlns,",
			[]string{"line 9: results.Lookup/@xmlns: an attribute named xmlns is a namespace declaration"}, 1},
		{"an attribute column named xmlns", "dataset.yaml", "{column: Seq, mapping: attribute,", "{column: xmlns, mapping: attribute,",
			[]string{"line 21: ", "(xmlns): an attribute named xmlns is a namespace declaration"}, 1},
		{"two elements of one name", "attrs.yaml", "      - element: Origin\n", "      - {element: Origin, type: string, generated: true}\n      - element: Origin\n",
			[]string{`line 12: results.Lookup/Origin: a second element "Origin" on the same level`}, 1},
		{"a MaxLength of an int column", "dataset.yaml", "{column: AtmNo, type: int, value: id}", "{column: AtmNo, type: int, value: id, maxLength: 4}",
			[]string{"line 22: results.AtmFinder.dataset.tables[1] (Machine).columns[2] (AtmNo).maxLength: maxLength is for a string column written as an element or an attribute, not one of type int, mapping element"}, 1},
		{"a MaxLength of 0", "dataset.yaml", "{column: AtmNo, type: int, value: id}", "{column: AtmNo, type: string, value: id, maxLength: 0}",
			[]string{"maxLength: a MaxLength is a positive int (no maxLength: none)"}, 1},
		{"a text column beside element columns and nested rows", "dataset.yaml", "{column: AtmNo, type: int, value: id}", "{column: AtmNo, mapping: simpleContent, type: int, value: id}",
			[]string{"line 22: results.AtmFinder.dataset.tables[1] (Machine): a table with a simpleContent column (AtmNo) has no element columns",
				"line 22: results.AtmFinder.dataset.tables[1] (Machine): a table with a simpleContent column (AtmNo) has no nested tables"}, 2},
		{"two text columns", "dataset.yaml", "{column: Code, type: string, value: language}\n            - {column: MachineKey, mapping: hidden, type: int}",
			"{column: Code, mapping: simpleContent, type: string, value: language}\n            - {column: MachineKey, mapping: simpleContent, type: int}",
			[]string{"line 50: results.AtmFinder.dataset.tables[2] (Tongue).columns: a second simpleContent column (MachineKey, after Code)"}, 1},
		{"a key as text", "dataset.yaml", "{column: Code, type: string, value: language}\n            - {column: MachineKey, mapping: hidden, type: int}",
			"{column: Code, mapping: attribute, type: string, value: language}\n            - {column: MachineKey, mapping: simpleContent, type: int}",
			[]string{"line 50: results.AtmFinder.dataset.tables[2] (Tongue): a simpleContent column (MachineKey) holds a value, not a key"}, 1},
		{"an operation given a result of another content", "typed.yaml", "  ReturnAllAtms: AtmResult", "  ReturnAllAtms: ArrayOfProvince",
			[]string{`line 92: operations.ReturnAllAtms: ReturnAllAtms returns locations, but result "ArrayOfProvince" holds provinces`}, 1},
		{"text beside elements", "attrs.yaml", "            - {element: Tag, type: string, value: atmIdentifier}", "            - {text: true, type: string, value: atmIdentifier}",
			[]string{"line 23: results.Lookup/Machines/Machine: an element with text (text: true) has one text field and attributes, no element children"}, 1},
		// Prefixes of a node's elements and attributes (the nodes site's
		// learned shape): an NCName, not one XML reserves, on a level in a
		// namespace, in a node result only, one namespace per prefix on
		// an element.
		{"an element's prefix XML reserves", "../learn/testdata/nodes-learned.yaml", "          element: province\n          prefix: n", "          element: province\n          prefix: xml",
			[]string{`line 96: results.provinces/(provinces list)/province.prefix: prefix "xml" is not a namespace prefix`}, 1},
		{"a prefix with a colon", "../learn/testdata/nodes-learned.yaml", "    prefix: n\n    root: provinces", "    prefix: \"n:v\"\n    root: provinces",
			[]string{`line 90: results.provinces.prefix: prefix "n:v" is not a namespace prefix`}, 1},
		{"a prefix on an attribute in no namespace", "../learn/testdata/nodes-learned.yaml", "{attribute: code, type: string, value: code}", "{attribute: code, prefix: c, type: string, value: code}",
			[]string{`line 98: results.provinces/(provinces list)/province/@code.prefix: a prefix is for an attribute in a namespace (namespace:)`}, 1},
		{"a prefix naming two namespaces on one element", "../learn/testdata/nodes-learned.yaml", "{attribute: count, type: int, value: count}", "{attribute: count, namespace: \"urn:other\", prefix: n, type: int, value: count}",
			[]string{`line 15: results.atmList/@count.prefix: prefix "n" names two namespaces on one element (urn:atmref:nodes:v3 and urn:other): give each its own`}, 1},
		{"a prefix on a typed result's element", "attrs.yaml", "      - element: Origin\n", "      - element: Origin\n        prefix: o\n",
			[]string{`line 12: results.Lookup/…/Origin.prefix: only a node result's elements and attributes have prefixes`}, 1},
		// fullEnd: a node result's value in an element, or its text.
		{"fullEnd on an attribute", "../learn/testdata/nodes-learned.yaml", "{attribute: code, type: string, value: code}", "{attribute: code, type: string, value: code, fullEnd: true}",
			[]string{`line 98: results.provinces/(provinces list)/province/@code.fullEnd: fullEnd is for a value written in an element or as its text, not an attribute, container or list`}, 1},
		{"fullEnd on a list item with fields", "../learn/testdata/nodes-learned.yaml", "          element: province\n          prefix: n", "          element: province\n          prefix: n\n          fullEnd: true",
			[]string{`line 97: results.provinces/(provinces list)/province.fullEnd: fullEnd is for a value written in an element or as its text`}, 1},
		{"fullEnd on a typed result's value", "typed.yaml", "{element: Count, type: int, value: count}", "{element: Count, type: int, value: count, fullEnd: true}",
			[]string{`line 9: results.AtmResult/Count.fullEnd: only a node result's values have fullEnd: XmlSerializer writes an empty string <Name />`}, 1},
		// nillable and omitEmpty: a typed result's null members.
		{"nillable on a node result's value", "../learn/testdata/nodes-learned.yaml", "{element: url, prefix: n, type: string, value: url, fullEnd: true}",
			"{element: url, prefix: n, type: string, value: url, nillable: true}",
			[]string{`line 86: results.banks/(institutions list)/bank/url.nillable: only a typed result's elements are nillable`}, 1},
		{"nillable on a list's item", "typed.yaml", "          element: Institution\n          type: Institution\n", "          element: Institution\n          type: Institution\n          nillable: true\n",
			[]string{`.nillable: nillable is for an element holding a value or fields, not an attribute, a text, a list or a list's item`}, 1},
		{"nillable and omitEmpty both", "typed.yaml", "{element: Name, type: string, value: institution.name}", "{element: Name, type: string, value: institution.name, nillable: true, omitEmpty: true}",
			[]string{`line 29: results.AtmResult/Atms/Atm/Bank/Name.omitEmpty: a nillable element is written xsi:nil when null, never left out`}, 1},
		{"omitEmpty on a number", "typed.yaml", "{element: Count, type: int, value: count}", "{element: Count, type: int, value: count, omitEmpty: true}",
			[]string{`line 9: results.AtmResult/Count.omitEmpty: omitEmpty is for a string value of the data model in an element or an attribute, not a text, a container, a list's item, a generated value or a value of type int`}, 1},
		{"xsiType on an attribute", "attrs.yaml", "{attribute: total, type: int, value: count}", "{attribute: total, type: int, value: count, xsiType: true}",
			[]string{`line 9: results.Lookup/@total.xsiType: xsiType is for a value in an element, not an attribute, a text, a container, a list or a list's item`}, 1},
		{"xsiType on a node result's value", "../learn/testdata/nodes-learned.yaml", "{element: url, prefix: n, type: string, value: url, fullEnd: true}",
			"{element: url, prefix: n, type: string, value: url, xsiType: true}",
			[]string{`line 86: results.banks/(institutions list)/bank/url.xsiType: only a typed result's values have xsiType`}, 1},
		{"default on a container", "typed.yaml", "      - element: SearchPoint\n        type: GeoPoint\n", "      - element: SearchPoint\n        type: GeoPoint\n        default: \"0\"\n",
			[]string{`.default: default and omitWhen are for a value in an element or an attribute, not a text, a container, a list or a list's item`}, 1},
		{"default and omitWhen both", "typed.yaml", "{element: Count, type: int, value: count}", "{element: Count, type: int, value: count, default: \"0\", omitWhen: \"0\"}",
			[]string{`line 9: results.AtmResult/Count.default: say one of default, omitWhen and omitEmpty, and none with nillable or xsiType`}, 1},
		{"always on a location's own value", "typed.yaml", "{element: AtmId, type: int, value: id}", "{element: AtmId, type: int, value: id, always: true}",
			[]string{`.always: always is for a field of a locations result holding the search point alone (its container or its values), not nillable`}, 1},
		// Names and namespaces no XML reader takes (XML 1.0's fourth
		// edition, as .NET's XmlReader and Go's encoding/xml read names).
		{"an element name with a character names cannot hold", "typed.yaml", "{element: Count,", "{element: \"Count×\",",
			[]string{`line 9: results.AtmResult/Count×: element "Count×" is not an XML element name`}, 1},
		{"an element name of full-width letters", "typed.yaml", "{element: Count,", "{element: \"Ｃｏｕｎｔ\",",
			[]string{`line 9: results.AtmResult/Ｃｏｕｎｔ: element "Ｃｏｕｎｔ" is not an XML element name`}, 1},
		{"an element name starting with a combining mark", "typed.yaml", "{element: Count,", "{element: \"\\u0300Count\",",
			[]string{`line 9: `, `is not an XML element name`}, 1},
		{"an element name with a zero-width space", "typed.yaml", "{element: Count,", "{element: \"Cou\\u200bnt\",",
			[]string{`line 9: `, `is not an XML element name`}, 1},
		{"an attribute name of a private-use character", "attrs.yaml", "{attribute: total,", "{attribute: \"\\ue000total\",",
			[]string{"line 9: ", `is not an XML attribute name`}, 1},
		// A DataSet writes its values as XmlConvert writes their
		// DataType (DataStorage.ConvertObjectToXml): no 1/0 boolean, no
		// padded double.
		{"a DataSet boolean column written 1/0", "dataset.yaml", "{column: CreditUnion, type: boolean, value: institution.isAtlanticCreditUnion}",
			"{column: CreditUnion, type: boolean, format: 1/0, value: institution.isAtlanticCreditUnion}",
			[]string{`line 27: results.AtmFinder.dataset.tables[1] (Machine).columns[7] (CreditUnion).format: format "1/0": a DataSet writes a boolean column as XmlConvert does (true or false)`}, 1},
		{"a DataSet double column written fixed:2", "dataset.yaml", "{column: Lat, type: double, value: coordinates.latitude}",
			"{column: Lat, type: double, format: \"fixed:2\", value: coordinates.latitude}",
			[]string{`(Lat).format: format "fixed:2": a DataSet writes a double column as XmlConvert does (its shortest round-trip form)`}, 1},
		// XmlSerializer writes a typed result's values with
		// XmlConvert.ToString of their type (WritePrimitiveValue): no 1/0
		// boolean, no padded double.
		{"a typed boolean written 1/0", "typed.yaml", "{element: IsAtlanticCreditUnion, type: boolean, value: institution.isAtlanticCreditUnion}",
			"{element: IsAtlanticCreditUnion, type: boolean, format: 1/0, value: institution.isAtlanticCreditUnion}",
			[]string{`line 31: results.AtmResult/Atms/Atm/Bank/IsAtlanticCreditUnion.format: format "1/0": XmlSerializer writes a typed result's boolean as XmlConvert does (true or false)`}, 1},
		{"a typed double attribute written fixed:6", "attrs.yaml", "{attribute: lat, type: double, value: coordinates.latitude}",
			"{attribute: lat, type: double, format: \"fixed:6\", value: coordinates.latitude}",
			[]string{`line 13: `, `lat.format: format "fixed:6": XmlSerializer writes a typed result's double as XmlConvert does (15 or 17 significant digits`}, 1},
		// .NET merges a typed DataSet's schema in the service namespace
		// into the service's schema, which leaves the WSDL (or, with the
		// GET/POST bindings, fails the merge): not modelled, refused.
		{"a typed DataSet in the service namespace", "dataset.yaml", "      namespace: http://dataset.atmref.example.org/banks\n      wsdl: lax-any", "      namespace: service\n      wsdl: typed",
			[]string{`line 56: results.BankList.dataset.namespace: a typed DataSet in the service namespace is not modelled: .NET merges its schema into the service's schema`, `"Cannot merge schemas"`}, 1},
		{"a namespace with a control character", "typed.yaml", "    namespace: service\n    root: AtmResult", "    namespace: \"http://x.example.org/\\x01\"\n    root: AtmResult",
			[]string{`line 4: results.AtmResult.namespace: namespace "http://x.example.org/\x01": a control character (or one XML forbids) in it`}, 1},
		// A value type's: a struct, never null; an enum's values.
		{"a struct search point not always written", "typed.yaml", "        type: GeoPoint\n        fields:", "        type: GeoPoint\n        struct: true\n        fields:",
			[]string{`line 12: results.AtmResult/SearchPoint.struct: a struct holding the search point is never null: it is written in every answer, 0 and 0 where there is no search point; say always: true`}, 1},
		{"a nillable struct", "typed.yaml", "            - element: Location\n              type: GeoPoint\n", "            - element: Location\n              type: GeoPoint\n              struct: true\n              nillable: true\n",
			[]string{`line 35: results.AtmResult/Atms/Atm/Location.nillable: a struct is never null: XmlSerializer refuses IsNullable on a value type`}, 1},
		{"a struct value", "typed.yaml", "{element: AtmId, type: int, value: id}", "{element: AtmId, type: int, value: id, struct: true}",
			[]string{`line 23: results.AtmResult/Atms/Atm/AtmId.struct: struct is for an element holding fields`}, 1},
		{"an enum without its values", "typed.yaml", "{element: Identifier, type: string, value: atmIdentifier}", "{element: Identifier, type: string, value: atmIdentifier, enum: Code}",
			[]string{`line 24: results.AtmResult/Atms/Atm/Identifier.enum: enum Code has no enumValues`}, 1},
		{"an enum's value twice", "typed.yaml", "{element: Identifier, type: string, value: atmIdentifier}", "{element: Identifier, type: string, value: atmIdentifier, enum: Code, enumValues: [A, B, A]}",
			[]string{`line 24: results.AtmResult/Atms/Atm/Identifier.enumValues: "A" twice`}, 1},
		{"an enum of numbers", "typed.yaml", "{element: AtmId, type: int, value: id}", "{element: AtmId, type: int, value: id, enum: Id, enumValues: [A]}",
			[]string{`line 23: results.AtmResult/Atms/Atm/AtmId.type: a value of an enum is written as its XmlEnum name: type string, not int`}, 1},
		{"an enum on an item holding fields", "typed.yaml", "          element: Atm\n          type: Atm\n", "          element: Atm\n          type: Atm\n          enum: Kind\n          enumValues: [A]\n",
			[]string{`line 21: results.AtmResult/Atms/Atm.enum: enum is for a value in an element, an attribute or a text, or a languages list's item (the code), not a container`}, 1},
		{"an enum of a languages item with no values", "typed.yaml", "item: {element: Code, type: string}", "item: {element: Code, type: string, enum: Tongue}",
			[]string{`line 63: results.AtmResult/Atms/Atm/Languages/Code.enum: enum Tongue has no enumValues`}, 1},
		{"enumValues without enum", "typed.yaml", "{element: Identifier, type: string, value: atmIdentifier}", "{element: Identifier, type: string, value: atmIdentifier, enumValues: [A]}",
			[]string{`line 24: results.AtmResult/Atms/Atm/Identifier.enumValues: enumValues without enum`}, 1},
	}
	for _, r := range rows {
		data, err := os.ReadFile("testdata/" + r.file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), r.old) {
			t.Fatalf("%s: testdata/%s has no %q", r.name, r.file, r.old)
		}
		_, err = Parse([]byte(strings.Replace(string(data), r.old, r.new, 1)))
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: got %v, want an *Error", r.name, err)
			continue
		}
		for _, w := range r.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: got\n%v\nwant it to mention %q", r.name, err, w)
			}
		}
		if len(e.Problems) != r.problems {
			t.Errorf("%s: got %d problems, want %d:\n%v", r.name, len(e.Problems), r.problems, err)
		}
	}
}

// TestNodeSiblingsOfOneName: a node result with two sibling elements of
// one name (a field copied and renamed by hand, or a YAML alias repeating
// a field) was accepted and served, and then no reader could tell the two
// apart: atmkit conform --shape failed the mock serving it. It is refused,
// naming the second one's line.
func TestNodeSiblingsOfOneName(t *testing.T) {
	base := string(Marshal(Default(), ""))
	rows := []struct{ name, old, new, want string }{
		{"two elements of one name", "{element: province, type: string, value: address.province}",
			"{element: city, type: string, value: address.province}",
			`results.locations/locations/location/address/city: a second element "city" on the same level`},
		{"a field repeated by a YAML alias", "            - element: coordinates\n              fields:\n                - {element: latitude, type: double, value: coordinates.latitude}\n                - {element: longitude, type: double, value: coordinates.longitude}\n",
			"            - &point\n              element: coordinates\n              fields:\n                - {element: latitude, type: double, value: coordinates.latitude}\n                - {element: longitude, type: double, value: coordinates.longitude}\n            - *point\n",
			`results.locations/locations/location/coordinates: a second element "coordinates" on the same level`},
	}
	for _, r := range rows {
		if !strings.Contains(base, r.old) {
			t.Fatalf("%s: the built-in shape has no %q", r.name, r.old)
		}
		_, err := Parse([]byte(strings.Replace(base, r.old, r.new, 1)))
		if err == nil || !strings.Contains(err.Error(), r.want) || !strings.Contains(err.Error(), "line ") {
			t.Errorf("%s: got %v, want an error with a line mentioning %q", r.name, err, r.want)
		}
	}
	// The same name in two namespaces is two elements.
	ok := strings.Replace(base, "{element: province, type: string, value: address.province}",
		"{element: city, namespace: \"urn:example:other\", type: string, value: address.province}", 1)
	if _, err := Parse([]byte(ok)); err != nil {
		t.Errorf("one name in two namespaces: %v", err)
	}
}

// TestResultNoOperationReturns: a result that no operation returns (added
// by hand beside the one the operations name, which the mock went on
// serving) was accepted and never written. It is refused, naming its line.
func TestResultNoOperationReturns(t *testing.T) {
	base := string(Marshal(Default(), ""))
	spare := "results:\n  spare:\n    layout: node\n    root: spare\n    fields:\n      - list: provinces\n        item:\n          element: p\n          fields:\n            - {element: code, type: string, value: code}\n"
	_, err := Parse([]byte(strings.Replace(base, "results:\n", spare, 1)))
	want := `line 3: results.spare: no operation returns it: name it under operations: (ReturnProvinces: spare)`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error mentioning %q", err, want)
	}
}

// TestTwoResultsOfOneContentWithoutOperations: two results holding
// provinces and no operations: naming one was refused as "no result for
// ReturnProvinces", with no line, though two results are there. The error
// names both and the line of the first.
func TestTwoResultsOfOneContentWithoutOperations(t *testing.T) {
	base := string(Marshal(Default(), ""))
	base = base[:strings.Index(base, "operations:")]
	spare := "results:\n  spare:\n    layout: node\n    root: spare\n    fields:\n      - list: provinces\n        item:\n          element: p\n          fields:\n            - {element: code, type: string, value: code}\n"
	_, err := Parse([]byte(strings.Replace(base, "results:\n", spare, 1)))
	want := `line 3: operations: ReturnProvinces: 2 results hold provinces (spare, provinces): name one under operations: (ReturnProvinces: spare)`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want an error mentioning %q", err, want)
	}
}

// TestHostileShapeFiles: a shape file nested thousands of levels deep, one
// whose YAML aliases of aliases would make billions of fields, and one of
// many megabytes are refused at once with an error naming the line (and
// the file), never read whole, hung on or served; nesting and size up to
// the limits are read.
func TestHostileShapeFiles(t *testing.T) {
	data, err := os.ReadFile("testdata/typed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const count = "      - {element: Count, type: int, value: count}\n"
	if !strings.Contains(string(data), count) {
		t.Fatalf("testdata/typed.yaml has no %q", count)
	}
	with := func(extra string) []byte {
		return []byte(strings.Replace(string(data), count, count+extra, 1))
	}
	nested := func(levels int) string { // levels of fields, the innermost a value
		var b strings.Builder
		b.WriteString("      - ")
		for i := range levels - 1 {
			fmt.Fprintf(&b, "{element: E%d, fields: [", i)
		}
		b.WriteString("{element: Z, type: string, generated: true}")
		b.WriteString(strings.Repeat("]}", levels-1))
		return b.String() + "\n"
	}
	bomb := "      - &l0 {element: L0, type: string, generated: true}\n"
	for i := 1; i <= 9; i++ {
		bomb += fmt.Sprintf("      - &l%d {element: L%d, fields: [%s]}\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*l%d, ", i-1), 10), ", "))
	}
	for _, tc := range []struct {
		name string
		file []byte
		want string // "" for a shape that is read
	}{
		{"nested to the limit", with(nested(MaxDepth)), ""},
		{"nested past the limit", with(nested(MaxDepth + 1)), "line 10: results.AtmResult.fields[1] (E0).fields[0] (E1)"},
		{"nested thousands of levels", with(nested(4000)), "fields nested more than 64 levels deep"},
		{"aliases of aliases", with(bomb), "line 11: results.AtmResult.fields[5] (L4).fields[7] (L3).fields[8] (L2).fields[8] (L1).fields[8]: more than 10000 fields (YAML aliases counted each time they are used)"},
		{"many megabytes", append(bytes.Repeat([]byte("# padding\n"), MaxFileSize/10+1), data...), "huge.yaml: more than 4 MB: a shape is a few KB"},
	} {
		path := filepath.Join(t.TempDir(), "huge.yaml")
		if err := os.WriteFile(path, tc.file, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		var e *Error
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want == "":
		case !errors.As(err, &e):
			t.Errorf("%s: got %v, want an *Error", tc.name, err)
		case !strings.Contains(err.Error(), tc.want) || len(e.Problems) != 1 || len(err.Error()) > 600:
			t.Errorf("%s: got %d problems:\n%.2000s\nwant one, short, saying %q", tc.name, len(e.Problems), err, tc.want)
		}
	}
	// A shape built in code is held to the same depth.
	sh := Default()
	var f *Field
	for _, x := range sh.Results[0].Fields {
		if len(x.Fields) > 0 {
			f = x
			break
		}
	}
	deep := &Field{Element: "Z", Type: "string", Generated: true}
	for i := range MaxDepth {
		deep = &Field{Element: fmt.Sprintf("E%d", i), Fields: []*Field{deep}}
	}
	f.Fields = append(f.Fields, deep)
	if err := sh.Validate(); err == nil || !strings.Contains(err.Error(), "fields nested more than 64 levels deep") {
		t.Errorf("a shape nested %d levels deep in code: got %v", MaxDepth+2, err)
	}
}

// A file of another kind named as a shape (a key's file, a token) is one
// YAML text at the top level: the refusal says what it holds and quotes
// none of it, as a key must reach no error text.
func TestTopLevelTextQuotesNothing(t *testing.T) {
	for _, file := range []string{"s3cr3t-KEY-4242\n", "s3cr3t-KEY-4242", "\"s3cr3t-KEY-4242\"\n", "s3cr3t-KEY-4242 # a comment\n"} {
		_, err := Parse([]byte(file))
		if err == nil {
			t.Fatalf("%q: read as a shape", file)
		}
		if strings.Contains(err.Error(), "s3cr3t") || !strings.Contains(err.Error(), "holds a text, not a shape") {
			t.Errorf("%q: got %v, want it to say it holds a text, quoting none of it", file, err)
		}
	}
	// Below the top level a wrong value is still quoted: it is the user's
	// own shape, and the quote shows which line is wrong.
	_, err := Parse([]byte("version: 1\nresults: oops\n"))
	if err == nil || !strings.Contains(err.Error(), `"oops"`) {
		t.Errorf("a scalar below the top level: got %v, want it quoted", err)
	}
}

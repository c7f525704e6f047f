package mockserver_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The WSDL's types as .NET Framework's XmlSchemaExporter writes them where
// Mono's exporter (whose output the other WSDL tests compare with) says
// nothing or differs; each test names the deciding lines of Microsoft's
// reference source.

// wsdlOf serves shape src (YAML) in namespace ns and returns its WSDL with
// the server's address replaced by ADDRESS.
func wsdlOf(t *testing.T, src, ns string) string {
	t.Helper()
	srv := serveShapeYAML(t, src, ns)
	return strings.ReplaceAll(string(getOK(t, srv.URL+"/service/service.asmx?WSDL")), srv.URL, "ADDRESS")
}

// wantInWSDL fails the test unless every line of want (joined with CR LF,
// as the WSDL breaks its lines) is in wsdl, in that order and together.
func wantInWSDL(t *testing.T, wsdl string, want ...string) {
	t.Helper()
	if s := strings.Join(want, "\r\n"); !strings.Contains(wsdl, s) {
		t.Errorf("the WSDL lacks\n%s\nits types:\n%s", s, typesOf(wsdl))
	}
}

// operationElements are the declarations of the operations' messages.
var operationElements = regexp.MustCompile(`(?s)\r\n      <s:element name="Return[A-Za-z]*">.*?\r\n      </s:element>`)

// typesOf is the types section of a WSDL without the operations' message
// elements, for messages.
func typesOf(wsdl string) string {
	i, j := strings.Index(wsdl, "<wsdl:types>"), strings.Index(wsdl, "</wsdl:types>")
	if i < 0 || j < i {
		return wsdl
	}
	return strings.ReplaceAll(operationElements.ReplaceAllString(wsdl[i:j], ""), "\r\n", "\n")
}

// arrayOfProvince is a typed result ArrayOfProvince (YAML, under
// results:) for ReturnProvinces.
const arrayOfProvince = `  ArrayOfProvince:
    layout: typed
    namespace: service
    root: ArrayOfProvince
    fields:
      - list: provinces
        item:
          element: Province
          fields:
            - {element: Code, type: string, value: code}
`

// TestWSDLIntegerIsAString: XmlSerializer maps the XSD types integer and
// nonNegativeInteger to System.String (TypeScope's unsupportedTypes, added
// with AddPrimitive(typeof(string), …, TypeFlags.Reference)), a reference
// type: XmlSchemaExporter.ExportElementAccessor gives it minOccurs 0
// (`!accessor.IsNullable && !accessor.Mapping.TypeDesc.IsValueType`), an
// array's item of it is nillable, and ExportAttributeAccessor sets no
// use="required" (only `accessor.Mapping.TypeDesc.IsValueType`). The mock
// declared them as value types: minOccurs 1, use="required".
func TestWSDLIntegerIsAString(t *testing.T) {
	const ns = "http://example.org/atm"
	wsdl := wsdlOf(t, findingHead+`      - {element: Count, type: integer, value: count}
      - {attribute: total, type: nonNegativeInteger, value: count}
      - element: Atms
        list: locations
        item:
          element: Atm
          fields:
            - {element: Id, type: int, value: id}
  ArrayOfInstitution:
    layout: typed
    namespace: service
    root: ArrayOfInstitution
    fields:
      - list: institutions
        item:
          element: Institution
          fields:
            - {attribute: id, type: integer, value: id}
            - {element: Name, type: string, value: name}
`+arrayOfProvince+operationsOf("Finding", "ArrayOfInstitution", "ArrayOfProvince"), ns)
	wantInWSDL(t, wsdl,
		`      <s:complexType name="Finding">`,
		`        <s:sequence>`,
		`          <s:element minOccurs="0" maxOccurs="1" name="Count" type="s:integer" />`,
		`          <s:element minOccurs="0" maxOccurs="1" name="Atms" type="tns:ArrayOfAtm" />`,
		`        </s:sequence>`,
		`        <s:attribute name="total" type="s:nonNegativeInteger" />`,
		`      </s:complexType>`)
	wantInWSDL(t, wsdl,
		`      <s:complexType name="Institution">`,
		`        <s:sequence>`,
		`          <s:element minOccurs="0" maxOccurs="1" name="Name" type="s:string" />`,
		`        </s:sequence>`,
		`        <s:attribute name="id" type="s:integer" />`,
		`      </s:complexType>`)
}

// TestWSDLArrayOfNames: an ArrayOfX type is named "ArrayOf" +
// CodeIdentifier.MakePascal(the item type's name)
// (XmlReflectionImporter.SetArrayMappingType): MakeValid keeps letters,
// digits, marks and connectors (a '-' or '.' goes), a name of two UTF-16
// units or less is upper-cased whole, a longer one starting with a lower
// case letter gets it upper-cased (char.ToUpper: the whole character).
// The mock upper-cased the first byte, which split a letter outside ASCII
// into bytes that are no UTF-8 (ArrayOf\xef\xbf\xbd\xa9t\xc3\xa9 for été).
func TestWSDLArrayOfNames(t *testing.T) {
	const ns = "http://example.org/atm"
	wsdl := wsdlOf(t, findingHead+`      - {element: Count, type: int, value: count}
      - element: Sites
        list: locations
        item:
          element: été
          fields:
            - {element: Ref, type: int, value: id}
            - element: Tongues
              list: languages
              item:
                element: Tongue
                type: lang-code
                fields:
                  - {text: true, type: string, value: language}
  Banks:
    layout: typed
    namespace: service
    root: Banks
    fields:
      - element: List
        list: institutions
        item: {element: Pt, fields: [{element: Id, type: int, value: id}]}
`+arrayOfProvince+operationsOf("Finding", "Banks", "ArrayOfProvince"), ns)
	wantInWSDL(t, wsdl, `          <s:element minOccurs="0" maxOccurs="1" name="Sites" type="tns:ArrayOfÉté" />`)
	wantInWSDL(t, wsdl, `      <s:complexType name="ArrayOfÉté">`)
	wantInWSDL(t, wsdl, `          <s:element minOccurs="0" maxOccurs="1" name="Tongues" type="tns:ArrayOfLangcode" />`)
	wantInWSDL(t, wsdl, `          <s:element minOccurs="0" maxOccurs="1" name="List" type="tns:ArrayOfPT" />`)
}

// TestWSDLArrayResultInItemsNamespace: a result that is an array (or a
// collection class) is declared in its items' namespace:
// SetArrayMappingType ends with `if (element != null) ns =
// element.Namespace;` (even after an XmlType's Namespace), so the items
// are local elements of the ArrayOfX type in their own schema, which the
// service schema imports. The mock declared the type in the result's
// namespace with a reference to a global item element.
func TestWSDLArrayResultInItemsNamespace(t *testing.T) {
	const ns, banks = "http://example.org/atm", "http://example.org/banks"
	wsdl := wsdlOf(t, findingHead+`      - {element: Count, type: int, value: count}
      - element: Atms
        list: locations
        item: {element: Atm, fields: [{element: Id, type: int, value: id}]}
  ArrayOfBank:
    layout: typed
    namespace: service
    root: ArrayOfBank
    fields:
      - list: institutions
        item: {element: Bank, namespace: "`+banks+`", fields: [{element: Id, type: int, value: id}]}
`+arrayOfProvince+operationsOf("Finding", "ArrayOfBank", "ArrayOfProvince"), ns)
	wantInWSDL(t, wsdl, `            <s:element minOccurs="0" maxOccurs="1" name="ReturnInstitutionsResult" type="s1:ArrayOfBank" />`)
	wantInWSDL(t, wsdl, `      <s:element name="ArrayOfBank" nillable="true" type="s1:ArrayOfBank" />`)
	wantInWSDL(t, wsdl,
		`    <s:schema elementFormDefault="qualified" targetNamespace="`+banks+`">`,
		`      <s:complexType name="ArrayOfBank">`,
		`        <s:sequence>`,
		`          <s:element minOccurs="0" maxOccurs="unbounded" name="Bank" nillable="true" type="s1:Bank" />`,
		`        </s:sequence>`,
		`      </s:complexType>`,
		`      <s:complexType name="Bank">`)
}

// TestWSDLQualifiedAttributeOfItsTypesNamespace: an attribute in the
// namespace its class is declared in (XmlAttribute with Form Qualified) is
// a local attribute, form="qualified", keeping its use:
// XmlReflectionImporter reconciles an attribute into a global one only
// when `attribute.Form == XmlSchemaForm.Qualified && attribute.Namespace
// != ns`, and XmlSchemaExporter.ExportAttributeAccessor declares one
// `if (accessor.Namespace == null || accessor.Namespace == ns)` locally,
// its Form written when it differs from the schema's
// attributeFormDefault (unqualified). The mock declared a global attribute
// and a reference to it.
func TestWSDLQualifiedAttributeOfItsTypesNamespace(t *testing.T) {
	const ns = "http://example.org/atm"
	wsdl := wsdlOf(t, findingHead+`      - {attribute: found, namespace: "`+ns+`", type: int, value: count}
      - {attribute: note, namespace: "`+ns+`", type: string, generated: true}
      - {element: Count, type: int, value: count}
      - element: Atms
        list: locations
        item: {element: Atm, fields: [{element: Id, type: int, value: id}]}
  ArrayOfInstitution:
    layout: typed
    namespace: service
    root: ArrayOfInstitution
    fields:
      - list: institutions
        item:
          element: Institution
          fields:
            - {element: Id, type: int, value: id}
`+arrayOfProvince+operationsOf("Finding", "ArrayOfInstitution", "ArrayOfProvince"), ns)
	wantInWSDL(t, wsdl,
		`        </s:sequence>`,
		`        <s:attribute form="qualified" name="found" type="s:int" use="required" />`,
		`        <s:attribute form="qualified" name="note" type="s:string" />`,
		`      </s:complexType>`)
	if strings.Contains(wsdl, `<s:attribute name="found"`) || strings.Contains(wsdl, `ref="tns:found"`) {
		t.Errorf("the WSDL declares found globally:\n%s", typesOf(wsdl))
	}
}

// TestWSDLTypedDataSetImportsLast: a typed DataSet (a class xsd.exe
// generated, [XmlSchemaProvider("GetTypedDataSetSchema")]) is exported by
// XmlSchemaExporter.ExportSpecialMapping's XsiType/XsdType branch, which
// imports its namespace (`AddSchemaImport(schema.TargetNamespace, ns)`)
// where the operation is exported, among the imports of other namespaces;
// DiscoveryServerProtocol's AddSchemaImports adds the import with
// schemaLocation="…?schema=Id" to the first schema after the reflection,
// after every other import. The mock wrote both first, before the import
// of a typed result's namespace exported earlier.
func TestWSDLTypedDataSetImportsLast(t *testing.T) {
	const ns, banks = "http://example.org/atm", "http://example.org/banks"
	src, err := os.ReadFile(filepath.Join("..", "shape", "learn", "testdata", "typedds-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	i, j := strings.Index(s, "  institutions:\n    layout: node"), strings.Index(s, "operations:")
	if i < 0 || j < i {
		t.Fatalf("typedds-learned.yaml has changed:\n%s", s)
	}
	s = s[:i] + `  Banks:
    layout: typed
    namespace: service
    root: Banks
    fields:
      - element: List
        namespace: "` + banks + `"
        list: institutions
        item: {element: Bank, fields: [{element: Id, type: int, value: id}]}
` + operationsOf("locations", "Banks", "RegionSet")
	wsdl := wsdlOf(t, s, ns)
	const ds = "http://typedds.atmref.example.org/RegionSet.xsd"
	wantInWSDL(t, wsdl,
		`    <s:schema elementFormDefault="qualified" targetNamespace="`+ns+`">`,
		`      <s:import namespace="`+banks+`" />`,
		`      <s:import namespace="`+ds+`" />`,
		`      <s:import schemaLocation="ADDRESS/service/service.asmx?schema=RegionSet" namespace="`+ds+`" />`,
		`      <s:element name="ReturnAllAtms">`)
}

// TestWSDLSchemaElementsDeclareNothing: .NET Framework 4 writes each
// <s:schema> of the types with no namespace declaration and a DataSet's
// .NET form with no import of XML Schema, as Mono does and the mock
// does. XmlSchemaExporter.AddSchema (System.Xml,
// Serialization/XmlSchemaExporter.cs) makes each schema with only its
// TargetNamespace and ElementFormDefault, its Namespaces left empty, and
// ServiceDescriptionSerializationWriter.Write66_XmlSchema
// (System.Web.Services, Description/ServiceDescriptionSerializer.cs)
// writes it with WriteStartElement(…, o.Namespaces), which declares
// nothing for an empty XmlSerializerNamespaces (the writer's own, the
// definitions' Hashtable, was dropped after the root:
// WriteNamespaceDeclarations sets it to null), so every QName is written
// with the prefixes declared on the definitions element. A DataSet is
// exported since .NET 2.0 by ExportSpecialMapping's XsiType/XsdType branch
// (DataSet's [XmlSchemaProvider("GetDataSetSchema")] returns the inline
// type and adds no schema), which imports only the namespaces of the
// schemas a provider adds: the <s:import
// namespace="http://www.w3.org/2001/XMLSchema" /> of public .NET 1.x WSDLs
// came from the branch for an IXmlSerializable without a schema, which
// DataSet no longer reaches.
func TestWSDLSchemaElementsDeclareNothing(t *testing.T) {
	const ns, banks = "http://example.org/atm", "http://example.org/banks"
	wsdl := wsdlOf(t, findingHead+`      - {element: Count, namespace: "`+banks+`", type: int, value: count}
      - {attribute: total, namespace: "http://example.org/totals", type: int, value: count}
      - element: Atms
        list: locations
        item: {element: Atm, fields: [{element: Id, type: int, value: id}]}
  Finder:
    layout: dataset
    dataset:
      name: Finder
      tables:
        - table: Bank
          rows: institutions
          columns:
            - {column: BankId, type: int, allowNull: false, value: id}
`+arrayOfProvince+operationsOf("Finding", "Finder", "ArrayOfProvince"), ns)
	tags := regexp.MustCompile(`<s:schema[^>]*>`).FindAllString(wsdl, -1)
	want := []string{
		`<s:schema elementFormDefault="qualified" targetNamespace="` + ns + `">`,
		`<s:schema elementFormDefault="qualified" targetNamespace="` + banks + `">`,
		`<s:schema elementFormDefault="qualified" targetNamespace="http://example.org/totals">`,
	}
	if strings.Join(tags, "\n") != strings.Join(want, "\n") {
		t.Errorf("the schemas' start tags:\n%s\nwant\n%s", strings.Join(tags, "\n"), strings.Join(want, "\n"))
	}
	wantInWSDL(t, wsdl, want[0],
		`      <s:import namespace="`+banks+`" />`,
		`      <s:import namespace="http://example.org/totals" />`,
		`      <s:element name="ReturnAllAtms">`)
	wantInWSDL(t, wsdl, `                  <s:element ref="s:schema" />`)
	if strings.Contains(wsdl, `<s:import namespace="http://www.w3.org/2001/XMLSchema" />`) {
		t.Errorf("the WSDL imports XML Schema:\n%s", typesOf(wsdl))
	}
}

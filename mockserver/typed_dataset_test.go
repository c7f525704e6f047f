package mockserver_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beevik/etree"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
)

// TestTypedDataSet serves the shape learned from a typed DataSet's answers
// (Mono's, in shape/learn/testdata/typedds) and compares with them: the
// answers' structure over SOAP and GET/POST, the WSDL's declarations of
// the result (an xs:any in the DataSet's namespace, which the service
// schema imports from ?schema=RegionSet) and the schema served there; any
// other schema id is ASMX's error.
func TestTypedDataSet(t *testing.T) {
	sh, err := shape.Load(filepath.Join("..", "shape", "learn", "testdata", "typedds-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const ns = "http://typedds.atmref.example.org/atmService"
	srv := serveShape(t, sh, ns)
	dir := filepath.Join("..", "shape", "learn", "testdata", "typedds")
	read := func(name string) []byte {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for recorded, bindings := range map[string][]string{"provinces-soap11.xml": {"soap11", "soap12"}, "provinces-get.xml": {"get", "post"}} {
		want, err := mocktest.Structure(read(recorded))
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bindings {
			status, body := mocktest.Call(t, srv.URL, ns, b, asmx.OpReturnProvinces, [][2]string{{asmx.ParamKey, "k"}})
			if status != 200 {
				t.Fatalf("over %s: %d %.300s", b, status, body)
			}
			got, err := mocktest.Structure(body)
			if err != nil {
				t.Fatal(err)
			}
			if b == "soap12" {
				got = strings.ReplaceAll(got, asmx.NamespaceSOAP12, asmx.NamespaceSOAP11)
			}
			if got != want {
				t.Errorf("over %s: the structure differs from the deployment's:\n%s\nwant\n%s", b, got, want)
			}
		}
	}

	// The WSDL: the service schema's imports, the result's declaration and
	// the GET/POST root's, as the deployment's.
	const recordedAddress = "http://127.0.0.1:18090/typedds/service/service.asmx"
	decls := func(wsdl []byte, address string) string {
		t.Helper()
		doc := etree.NewDocument()
		if err := doc.ReadFromBytes(wsdl); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, s := range doc.FindElements("//types/schema") {
			if s.SelectAttrValue("targetNamespace", "") != ns {
				continue
			}
			for _, e := range s.ChildElements() {
				name := e.SelectAttrValue("name", "")
				if e.Tag == "import" || name == "ReturnProvincesResponse" || name == "RegionSet" {
					mocktest.Canonical(&b, e, 0, true)
				}
			}
		}
		return strings.ReplaceAll(b.String(), address, "ADDRESS")
	}
	want := decls(read("wsdl.xml"), recordedAddress)
	got := decls(refdeploy.WSDL(t, srv.URL), srv.URL+asmx.ServicePath)
	if !strings.Contains(want, "schemaLocation=ADDRESS?schema=RegionSet") || !strings.Contains(want, "RegionSet.xsd") {
		t.Fatalf("the recorded WSDL's declarations, read:\n%s", want)
	}
	if got != want {
		t.Errorf("the WSDL declares\n%s\nwant\n%s", got, want)
	}

	get := func(query string) (int, string, []byte) {
		t.Helper()
		status, header, body := mocktest.Get(t, srv.URL+asmx.ServicePath+query)
		return status, header.Get("Content-Type"), body
	}
	status, ctype, body := get("?schema=RegionSet")
	if status != 200 || ctype != asmx.ContentTypeXML {
		t.Fatalf("?schema=RegionSet: %d %s %.300s", status, ctype, body)
	}
	schemaOf := func(b []byte) string {
		t.Helper()
		doc := etree.NewDocument()
		if err := doc.ReadFromBytes(b); err != nil {
			t.Fatal(err)
		}
		var s strings.Builder
		mocktest.Canonical(&s, doc.Root(), 0, true)
		return s.String()
	}
	if got, want := schemaOf(body), schemaOf(read("RegionSet.xsd")); got != want || !strings.Contains(want, "RegionKey") {
		t.Errorf("?schema=RegionSet serves\n%s\nwant\n%s", got, want)
	}
	// XmlSchema.Write, like ServiceDescription.Write, ends at the root's
	// end tag.
	if !bytes.HasSuffix(body, []byte(":schema>")) {
		t.Errorf("?schema=RegionSet ends %q, want it to end at the schema's end tag", body[max(0, len(body)-30):])
	}
	// The documents' indenting XmlTextWriter breaks lines with
	// TextWriter.WriteLine: CR LF on .NET Framework (Mono on Linux: LF).
	for _, q := range []string{"?schema=RegionSet", "?WSDL", "?disco"} {
		_, _, doc := get(q)
		if lf, crlf := bytes.Count(doc, []byte("\n")), bytes.Count(doc, []byte("\r\n")); lf < 3 || lf != crlf || !bytes.HasPrefix(doc, []byte(`<?xml version="1.0" encoding="utf-8"?>`+"\r\n<")) {
			t.Errorf("%s: %d line feeds, %d of them after CR; want every line broken with CR LF, the XML declaration's too:\n%.300q", q, lf, crlf, doc)
		}
	}
	for _, q := range []string{"?schema=Nope", "?wsdl&SCHEMA=x", "?schema="} {
		status, ctype, body := get(q)
		if status != 500 || ctype != asmx.ContentTypeText || string(body) != "Schema not found.\r\n" {
			t.Errorf("%s: %d %s %q; want ASMX's 500 Schema not found.", q, status, ctype, body)
		}
	}
}

// atmSetShape is a typed DataSet of locations with what its schema can
// hold: a primary key (xs:unique), a nested relation with its constraint
// (xs:keyref), two without (msdata:Relationship), element columns with
// msdata:Ordinal and minOccurs="0", an attribute column and a hidden
// auto-increment one.
const atmSetShape = `version: 1
results:
  Finder:
    layout: dataset
    dataset:
      name: AtmSet
      namespace: http://a/AtmSet.xsd
      wsdl: typed
      tables:
        - table: Summary
          rows: one
          columns:
            - {column: Found, type: int, generated: true}
            - {column: TopKey, type: int}
        - table: Machine
          rows: locations
          columns:
            - {column: MachineKey, mapping: hidden, type: int, allowNull: false, autoIncrement: true}
            - {column: Seq, mapping: attribute, type: int, value: index}
            - {column: AtmNo, type: int, allowNull: false, value: id}
            - {column: Code, type: string, value: atmIdentifier}
          unique:
            - {name: MachineKeys, columns: [MachineKey], primaryKey: true}
        - table: Tongue
          rows: languages
          columns:
            - {column: Code, type: string, value: language}
            - {column: MachineKey, mapping: hidden, type: int}
      relations:
        - {name: MachineTongues, parent: Machine, parentColumns: [MachineKey], child: Tongue, childColumns: [MachineKey], nested: true}
        - {name: MachineSummary, parent: Machine, parentColumns: [MachineKey], child: Summary, childColumns: [TopKey], constraint: false}
        - {name: TongueSummary, parent: Tongue, parentColumns: [MachineKey], child: Summary, childColumns: [TopKey], constraint: false}
  Lenders:
    layout: dataset
    dataset:
      name: Lenders
      tables:
        - table: Lender
          rows: institutions
          columns:
            - {column: No, type: int, value: id}
  Areas:
    layout: dataset
    dataset:
      name: Areas
      tables:
        - table: Area
          rows: provinces
          columns:
            - {column: Code, type: string, value: code}
`

// TestTypedDataSetSchemaBytes: ?schema=AtmSet is, byte for byte, what .NET
// Framework 4 (64-bit) serves for that typed DataSet: DataSet.
// WriteXmlSchema's text read back with XmlSchema.Read and written with
// XmlSchema.Write. The root declares its namespaces in the order of their
// Hashtable and XmlSerializationWriter's two passes (mstns, msdata, then
// the default namespace; xs, the element's own, last), attributes come in
// the XmlSchema classes' member order (msdata: ones after id), QNames in
// the DataSet's namespace take mstns:, every empty element is <x />, and
// only the first msdata:Relationship declares xmlns:msdata (the schema
// parser's annotation scope).
func TestTypedDataSetSchemaBytes(t *testing.T) {
	srv := serveShapeYAML(t, atmSetShape, "http://a/svc")
	want := mocktest.AsDotNetLines(`<?xml version="1.0" encoding="utf-8"?>
<xs:schema xmlns:mstns="http://a/AtmSet.xsd" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" xmlns="http://a/AtmSet.xsd" attributeFormDefault="qualified" elementFormDefault="qualified" targetNamespace="http://a/AtmSet.xsd" id="AtmSet" xmlns:xs="http://www.w3.org/2001/XMLSchema">
  <xs:element msdata:IsDataSet="true" msdata:UseCurrentLocale="true" name="AtmSet">
    <xs:complexType>
      <xs:choice minOccurs="0" maxOccurs="unbounded">
        <xs:element name="Summary">
          <xs:complexType>
            <xs:sequence>
              <xs:element minOccurs="0" name="Found" type="xs:int" />
              <xs:element minOccurs="0" name="TopKey" type="xs:int" />
            </xs:sequence>
          </xs:complexType>
        </xs:element>
        <xs:element name="Machine">
          <xs:complexType>
            <xs:sequence>
              <xs:element msdata:Ordinal="2" name="AtmNo" type="xs:int" />
              <xs:element msdata:Ordinal="3" minOccurs="0" name="Code" type="xs:string" />
              <xs:element minOccurs="0" maxOccurs="unbounded" name="Tongue">
                <xs:complexType>
                  <xs:sequence>
                    <xs:element msdata:Ordinal="0" minOccurs="0" name="Code" type="xs:string" />
                  </xs:sequence>
                  <xs:attribute name="MachineKey" type="xs:int" use="prohibited" />
                </xs:complexType>
              </xs:element>
            </xs:sequence>
            <xs:attribute msdata:AutoIncrement="true" msdata:AllowDBNull="false" name="MachineKey" type="xs:int" use="prohibited" />
            <xs:attribute form="unqualified" name="Seq" type="xs:int" />
          </xs:complexType>
        </xs:element>
      </xs:choice>
    </xs:complexType>
    <xs:unique msdata:PrimaryKey="true" name="MachineKeys">
      <xs:selector xpath=".//mstns:Machine" />
      <xs:field xpath="@mstns:MachineKey" />
    </xs:unique>
    <xs:keyref msdata:IsNested="true" name="MachineTongues" refer="mstns:MachineKeys">
      <xs:selector xpath=".//mstns:Tongue" />
      <xs:field xpath="@mstns:MachineKey" />
    </xs:keyref>
  </xs:element>
  <xs:annotation>
    <xs:appinfo>
      <msdata:Relationship name="MachineSummary" msdata:parent="Machine" msdata:child="Summary" msdata:parentkey="MachineKey" msdata:childkey="TopKey" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata" />
      <msdata:Relationship name="TongueSummary" msdata:parent="Tongue" msdata:child="Summary" msdata:parentkey="MachineKey" msdata:childkey="TopKey" />
    </xs:appinfo>
  </xs:annotation>
</xs:schema>`)
	if got := string(getOK(t, srv.URL+asmx.ServicePath+"?schema=AtmSet")); got != want {
		t.Errorf("?schema=AtmSet serves\n%s\nwant\n%s", got, want)
	}
}

// TestTypedDataSetInServiceNamespaceRefused: a typed DataSet whose schema
// is in the service namespace is refused, naming the namespace. .NET
// imports no such schema (XmlSchemaExporter.AddSchemaImport returns for a
// namespace equal to the referencing one) and merges it into the service
// schema at XmlSchemas.Compile, which then counts as a DataSet schema and
// is moved out of wsdl:types (ServiceDescriptionReflector.Reflect), linked
// back by an xs:include of ?schema=schema1; with the HTTP GET/POST
// bindings the GET/POST root RegionSet and the DataSet's element RegionSet
// fail the merge and there is no WSDL. The mock models neither, so it
// does not serve the plain and schemaLocation imports it would write.
func TestTypedDataSetInServiceNamespaceRefused(t *testing.T) {
	sh, err := shape.Load(filepath.Join("..", "shape", "learn", "testdata", "typedds-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const dsNS = "http://typedds.atmref.example.org/RegionSet.xsd"
	_, err = mockserver.New(mockserver.WithShape(sh), mockserver.WithNamespace(dsNS))
	if err == nil || !strings.Contains(err.Error(), "results.RegionSet.dataset.namespace: a typed DataSet in the service namespace ("+dsNS+") is not modelled") ||
		!strings.Contains(err.Error(), "Cannot merge schemas") {
		t.Errorf("served in the DataSet's namespace: got %v, want the typed DataSet refused, naming %s", err, dsNS)
	}
	// In a namespace of its own, as the deployment has it, it is served.
	serveShape(t, sh, "http://typedds.atmref.example.org/atmService")
}

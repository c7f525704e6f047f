package mockserver_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// namespacesShape has a DataSet whose table is in a namespace of its own
// with a prefix, one of its element columns in another (Lenders), and a
// DataSet in no namespace whose one table, in a namespace of its own, is
// nested in itself (Areas): the DataSets of testdata/lenders-get.xml and
// testdata/areas-get.xml, which Mono's System.Data wrote.
const namespacesShape = `version: 1
results:
  Lenders:
    layout: dataset
    dataset:
      name: Lenders
      namespace: http://a/ds
      schemaOrder: [http://a/ds, http://a/col, http://a/tbl]
      tables:
        - table: Lender
          namespace: http://a/tbl
          prefix: ln
          rows: institutions
          columns:
            - {column: No, mapping: attribute, type: int, value: id}
            - {column: Title, type: string, value: name}
            - {column: Web, type: string, value: url, namespace: http://a/col}
  Areas:
    layout: dataset
    dataset:
      name: Areas
      tables:
        - table: Area
          namespace: http://a/areas
          rows: provinces
          columns:
            - {column: Code, type: string, allowNull: false, value: code}
            - {column: Up, type: string}
            - {column: Name, type: string, value: name}
          unique:
            - {name: Constraint1, columns: [Code], primaryKey: true}
      relations:
        - {name: AreaArea, parent: Area, parentColumns: [Code], child: Area, childColumns: [Up], nested: true}
  Finder:
    layout: dataset
    dataset:
      name: Finder
      tables:
        - table: Atm
          rows: locations
          columns:
            - {column: AtmId, type: int, allowNull: false, value: id}
`

// TestDataSetNamespacesAndSelfNesting: the mock writes these DataSets as
// Mono's System.Data does (.NET's XmlTreeGen and XmlDataTreeWriter): the
// schemas whole, byte for byte (the DataSet's with an xs:import per other
// namespace, then one per namespace; a self-nested table referring to
// itself), and the rows in their namespaces with the declarations where
// XmlTextWriter puts them (the same structure). The mock's data has no
// hierarchy of provinces: every Area row is at the top, no Up written.
func TestDataSetNamespacesAndSelfNesting(t *testing.T) {
	base := valuesServer(t, "", namespacesShape, func(*fixtures.Dataset) {})
	for op, file := range map[string]string{asmx.OpReturnInstitutions: "lenders-get.xml", asmx.OpReturnProvinces: "areas-get.xml"} {
		raw, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		mono := strings.Replace(strings.Replace(string(raw), "http://tempuri.org/", asmx.DefaultNamespace, 1), "utf-16", "utf-8", 1)
		mono = mocktest.AsDotNetLines(mono)
		status, body := mocktest.Call(t, base, asmx.DefaultNamespace, "get", op, [][2]string{{asmx.ParamKey, "k"}})
		if status != 200 {
			t.Fatalf("%s: %d %.300s", op, status, body)
		}
		schemas := func(s string) string { return s[:strings.Index(s, "<diffgr:diffgram")] }
		if got, want := schemas(string(body)), schemas(mono); got != want {
			t.Errorf("%s: the schemas\n%s\nwant Mono's\n%s", op, got, want)
		}
		got, err := mocktest.Structure(body)
		if err != nil {
			t.Fatal(err)
		}
		want, err := mocktest.Structure([]byte(mono))
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%s: the structure\n%s\nwant Mono's\n%s", op, got, want)
		}
	}
}

// TestDataSetNilAndPreserveBeforeDeclarations: a row's xsi:nil (a
// simpleContent column's DBNull) and xml:space="preserve" (a value of white
// space only, in the row's text or in an element column) are attributes
// XmlDataTreeWriter writes before the start tag ends, so XmlTextWriter puts
// them before the namespace declarations it writes at its end
// (WriteEndStartTag): the row's prefixed one, the column's default one, and
// xsi's where nothing above declares it.
func TestDataSetNilAndPreserveBeforeDeclarations(t *testing.T) {
	src := `version: 1
results:
  Marks:
    layout: dataset
    dataset:
      name: Marks
      namespace: http://a/ds
      tables:
        - table: Atm
          namespace: http://a/tbl
          prefix: ln
          rows: locations
          columns:
            - {column: No, mapping: attribute, type: int, value: id}
            - {column: Mark, mapping: simpleContent, type: string, value: address.landmark, omitEmpty: true}
  Columns:
    layout: dataset
    dataset:
      name: Columns
      tables:
        - table: Machine
          rows: locations
          columns:
            - {column: Mark, type: string, value: address.landmark, namespace: http://a/col}
  Banks:
    layout: dataset
    dataset:
      name: Banks
      tables:
        - table: Bank
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
            - {column: Name, type: string, value: name}
` + strings.Replace(operationsOf("Marks", "Banks", "Areas"), "ReturnAtmSearchByInstitution: Marks", "ReturnAtmSearchByInstitution: Columns", 1)
	var inst string
	base := valuesServer(t, "", src, func(ds *fixtures.Dataset) {
		ds.ATMs[0].Address.Landmark, ds.ATMs[1].Address.Landmark = " ", ""
		inst = strconv.Itoa(ds.ATMs[0].InstitutionID)
	})
	const xsi = ` xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"`
	all := [][2]string{{asmx.ParamKey, "k"}}
	byInst := [][2]string{{asmx.ParamKey, "k"}, {asmx.ParamInstitutionID, inst}}
	for _, c := range []struct {
		b, op  string
		params [][2]string
		want   string
	}{
		{"get", asmx.OpReturnAllAtms, all, `<ln:Atm diffgr:id="Atm1" msdata:rowOrder="0" No="1" xml:space="preserve" xmlns:ln="http://a/tbl"> </ln:Atm>`},
		{"get", asmx.OpReturnAllAtms, all, `<ln:Atm diffgr:id="Atm2" msdata:rowOrder="1" No="2" xsi:nil="true"` + xsi + ` xmlns:ln="http://a/tbl" />`},
		{"soap11", asmx.OpReturnAllAtms, all, `<ln:Atm diffgr:id="Atm2" msdata:rowOrder="1" No="2" xsi:nil="true" xmlns:ln="http://a/tbl" />`},
		{"get", asmx.OpReturnAtmSearchByInstitution, byInst, `<Mark xml:space="preserve" xmlns="http://a/col"> </Mark>`},
	} {
		status, body := mocktest.Call(t, base, asmx.DefaultNamespace, c.b, c.op, c.params)
		if status != 200 || !strings.Contains(string(body), c.want) {
			t.Errorf("%s over %s: got %d\n%.3000s\nwant it to hold %s", c.op, c.b, status, body, c.want)
		}
	}
}

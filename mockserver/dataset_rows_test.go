package mockserver_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/shape"
)

// TestDataSetTableWithoutRows serves a DataSet with a nested table of no
// rows (rows: none): its schema declares it, no answer writes a row of it,
// while the tables beside it are filled.
func TestDataSetTableWithoutRows(t *testing.T) {
	sh, err := shape.Load(filepath.Join("..", "shape", "learn", "testdata", "variants", "dataset-nested.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	srv := serveShape(t, sh, asmx.DefaultNamespace)
	for _, b := range []string{"soap11", "get"} {
		status, body := mocktest.Call(t, srv.URL, asmx.DefaultNamespace, b, asmx.OpReturnAllAtms, [][2]string{{asmx.ParamKey, "k"}})
		if status != 200 {
			t.Fatalf("over %s: %d %.300s", b, status, body)
		}
		s := string(body)
		if !strings.Contains(s, `<xs:element name="note"`) || strings.Contains(s, "<note ") || !strings.Contains(s, "<address ") {
			t.Errorf("over %s: want note declared and never written, address rows written:\n%.3000s", b, s)
		}
	}
}

// TestDataSetEncodedTableName: a table whose TableName XmlConvert encodes
// (Order Details: the element Order_x0020_Details, as the schema and the
// shape name it) writes its rows' diffgr:id with the TableName itself
// (XmlDataTreeWriter.XmlDataRowWriter: row.Table.TableName, where the
// element is EncodedTableName), as the reference source's System.Data
// writes it (run by Mono: diffgr:id="Order Details1").
func TestDataSetEncodedTableName(t *testing.T) {
	learned, err := os.ReadFile(filepath.Join("..", "shape", "learn", "testdata", "dataset-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const region = `      name: RegionList
      locale: invariant
      wsdl: lax-any
      tables:
        - table: Region
          rows: provinces
          changes: inserted
          columns:
            - {column: RegionId, type: int, generated: true}`
	if !bytes.Contains(learned, []byte(region)) {
		t.Fatalf("dataset-learned.yaml has no %s", region)
	}
	srv := serveShapeYAML(t, string(bytes.Replace(learned, []byte(region), []byte(`      name: My_x0020_Set
      locale: invariant
      wsdl: lax-any
      tables:
        - table: Order_x0020_Details
          rows: provinces
          changes: inserted
          columns:
            - {column: Row_x0020_Key, mapping: hidden, type: int, generated: true}`), 1)), asmx.DefaultNamespace)
	for _, b := range []string{"soap11", "get"} {
		status, body := mocktest.Call(t, srv.URL, asmx.DefaultNamespace, b, asmx.OpReturnProvinces, [][2]string{{asmx.ParamKey, "k"}})
		if status != 200 {
			t.Fatalf("over %s: %d %.300s", b, status, body)
		}
		for _, want := range []string{`<My_x0020_Set xmlns="">`, `<Order_x0020_Details diffgr:id="Order Details1" msdata:rowOrder="0" diffgr:hasChanges="inserted" msdata:hiddenRow_x0020_Key="1">`,
			`<Order_x0020_Details diffgr:id="Order Details2" msdata:rowOrder="1" `} {
			if !strings.Contains(string(body), want) {
				t.Errorf("over %s: want %s in\n%.3000s", b, want, body)
			}
		}
	}
}

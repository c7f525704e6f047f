package dsxml

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/beevik/etree"
)

// FuzzReadSchema reads arbitrary bytes as a DataSet's inline schema: no
// input panics, and a schema it reads is stable: the schema written for
// what was read reads back to the same schema.
func FuzzReadSchema(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.xsd"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`<xs:schema id="x" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata"><xs:element name="x" msdata:IsDataSet="true"><xs:complexType><xs:choice><xs:element name="T"><xs:complexType><xs:sequence><xs:element name="T" minOccurs="0" maxOccurs="unbounded"/></xs:sequence></xs:complexType></xs:element></xs:choice></xs:complexType></xs:element></xs:schema>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		_, _ = ParseNode(data)
		doc := etree.NewDocument()
		if doc.ReadFromBytes(data) != nil {
			return
		}
		d, err := ReadSchema(doc.Root())
		if err != nil {
			return
		}
		n, err := Schema(d, "")
		if err != nil {
			t.Fatalf("the schema of what was read: %v", err)
		}
		first := Append(nil, n, -1, false)
		again := etree.NewDocument()
		if err := again.ReadFromBytes(first); err != nil {
			t.Fatalf("the schema written does not parse: %v\n%s", err, first)
		}
		d2, err := ReadSchema(again.Root())
		if err != nil {
			t.Fatalf("the schema written does not read back: %v\n%s", err, first)
		}
		n2, err := Schema(d2, "")
		if err != nil {
			t.Fatal(err)
		}
		if second := Append(nil, n2, -1, false); string(second) != string(first) {
			t.Fatalf("read back differently:\n%s\nthen\n%s", first, second)
		}
	})
}

package dsxml

import (
	"fmt"
	"strings"
	"testing"

	"github.com/beevik/etree"
)

// manyTables is a DataSet schema of n tables, each of one column, laid
// out as kind says: "flat" (declared in the DataSet's choice), "refs"
// (the choice refers to declarations in a second schema, as .NET writes a
// table in a namespace of its own), "unique" (a unique constraint each),
// "parents" (each nesting a table of its own, by an msdata:Relationship)
// or "keyrefs" (all nested in one table, by keyrefs in another order).
func manyTables(kind string, n int) []string {
	const col = `<xs:complexType><xs:sequence><xs:element name="C" type="xs:int" minOccurs="0"/></xs:sequence></xs:complexType>`
	var b, other strings.Builder
	b.WriteString(`<xs:schema id="D" targetNamespace="urn:d" xmlns:mstns="urn:d" xmlns="urn:d" xmlns:b="urn:b" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata">` +
		`<xs:element name="D" msdata:IsDataSet="true"><xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded">`)
	switch kind {
	case "flat", "unique":
		for i := range n {
			fmt.Fprintf(&b, `<xs:element name="T%d">%s</xs:element>`, i, col)
		}
	case "refs":
		other.WriteString(`<xs:schema targetNamespace="urn:b" xmlns:xs="http://www.w3.org/2001/XMLSchema">`)
		for i := range n {
			fmt.Fprintf(&b, `<xs:element ref="b:T%d"/>`, i)
			fmt.Fprintf(&other, `<xs:element name="T%d">%s</xs:element>`, i, col)
		}
		other.WriteString(`</xs:schema>`)
	case "parents":
		for i := range n {
			fmt.Fprintf(&b, `<xs:element name="P%d"><xs:complexType><xs:sequence><xs:element name="K%d" minOccurs="0" maxOccurs="unbounded">%s`+
				`<xs:annotation><xs:appinfo><msdata:Relationship name="R%d" msdata:parent="P%d" msdata:child="K%d" msdata:parentkey="C" msdata:childkey="C"/></xs:appinfo></xs:annotation>`+
				`</xs:element></xs:sequence></xs:complexType></xs:element>`, i, i, col, i, i, i)
		}
	case "keyrefs":
		b.WriteString(`<xs:element name="P"><xs:complexType><xs:sequence><xs:element name="C" type="xs:int" minOccurs="0"/>`)
		for i := range n {
			fmt.Fprintf(&b, `<xs:element name="K%d" minOccurs="0" maxOccurs="unbounded">%s</xs:element>`, i, col)
		}
		b.WriteString(`</xs:sequence></xs:complexType></xs:element>`)
	}
	b.WriteString(`</xs:choice></xs:complexType>`)
	switch kind {
	case "unique":
		for i := range n {
			fmt.Fprintf(&b, `<xs:unique name="U%d"><xs:selector xpath=".//mstns:T%d"/><xs:field xpath="mstns:C"/></xs:unique>`, i, i)
		}
	case "keyrefs":
		b.WriteString(`<xs:unique name="PK" msdata:PrimaryKey="true"><xs:selector xpath=".//mstns:P"/><xs:field xpath="mstns:C"/></xs:unique>`)
		for j := range n {
			i := (j*7 + 3) % n // n not a multiple of 7
			fmt.Fprintf(&b, `<xs:keyref name="F%d" refer="PK" msdata:IsNested="true"><xs:selector xpath=".//mstns:K%d"/><xs:field xpath="mstns:C"/></xs:keyref>`, i, i)
		}
	}
	b.WriteString(`</xs:element></xs:schema>`)
	if other.Len() > 0 {
		return []string{b.String(), other.String()}
	}
	return []string{b.String()}
}

// TestReadSchemaLinear: reading a schema of many tables looks at a number
// of tables, declarations and relations that grows with the tables, not
// with their square: a schema of 20,000 tables took seconds where each
// table's name was looked for among the tables read before it, each
// reference among every global declaration, each nested relation among
// the relations of every parent and its table among its parent's nested
// tables.
func TestReadSchemaLinear(t *testing.T) {
	t.Parallel()
	looked := func(kind string, n int) int {
		var schemas []*etree.Element
		for _, s := range manyTables(kind, n) {
			doc := etree.NewDocument()
			if err := doc.ReadFromString(s); err != nil {
				t.Fatal(err)
			}
			schemas = append(schemas, doc.Root())
		}
		d, r, err := readSchema(schemas)
		if err != nil {
			t.Fatalf("%s, %d tables: %v", kind, n, err)
		}
		if len(d.Tables) < n {
			t.Fatalf("%s: read %d tables, want %d", kind, len(d.Tables), n)
		}
		return r.looked
	}
	for _, kind := range []string{"flat", "refs", "unique", "parents", "keyrefs"} {
		// Twice the tables: about twice the looking, not four times.
		if one, two := looked(kind, 1000), looked(kind, 2000); two > 3*one || two > 10*2000 {
			t.Errorf("%s: looked at %d for 1,000 tables, %d for 2,000; want at most 3 times as many, and 10 a table", kind, one, two)
		}
	}
}

// importingSchemas is a DataSet's schema (urn:d, one table) and n other
// schemas. "dotnet": as .NET writes them when the DataSet is enumerated
// last: each other schema imports every namespace but its own, in
// reverse order of enumeration (urn:d first). "strays": each imports one
// namespace no schema has, so that no place fits the DataSet's.
func importingSchemas(t *testing.T, kind string, n int) []*etree.Element {
	t.Helper()
	srcs := []string{`<xs:schema id="D" targetNamespace="urn:d" xmlns="urn:d" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:msdata="urn:schemas-microsoft-com:xml-msdata">` +
		`<xs:element name="D" msdata:IsDataSet="true"><xs:complexType><xs:choice minOccurs="0" maxOccurs="unbounded">` +
		`<xs:element name="T"><xs:complexType><xs:sequence><xs:element name="C" type="xs:int" minOccurs="0"/></xs:sequence></xs:complexType></xs:element>` +
		`</xs:choice></xs:complexType></xs:element></xs:schema>`}
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, `<xs:schema targetNamespace="urn:s%d" xmlns:xs="http://www.w3.org/2001/XMLSchema">`, i)
		if kind == "strays" {
			b.WriteString(`<xs:import namespace="urn:elsewhere"/>`)
		} else {
			b.WriteString(`<xs:import namespace="urn:d"/>`)
			for j := n - 1; j >= 0; j-- {
				if j != i {
					fmt.Fprintf(&b, `<xs:import namespace="urn:s%d"/>`, j)
				}
			}
		}
		b.WriteString(`</xs:schema>`)
		srcs = append(srcs, b.String())
	}
	var out []*etree.Element
	for _, s := range srcs {
		doc := etree.NewDocument()
		if err := doc.ReadFromString(s); err != nil {
			t.Fatal(err)
		}
		out = append(out, doc.Root())
	}
	return out
}

// TestSchemaOrderLinear: placing the DataSet's namespace among the other
// schemas' (their enumeration order) looks at a number of namespaces that
// grows with the schemas and the imports they hold, not with the square
// of the schemas: each place tried copied the namespaces before it, so
// 2,000 schemas importing one namespace no place fits looked at
// 2,003,001 namespaces (now 1: the first schema fits no place), 200
// importing each other 139,900 (now 40,000, one an import). The order
// found is the same.
func TestSchemaOrderLinear(t *testing.T) {
	t.Parallel()
	looked := func(kind string, n int) int {
		_, r, err := readSchema(importingSchemas(t, kind, n))
		if err != nil {
			t.Fatal(err)
		}
		before := r.looked
		order := r.order()
		want := []string{"urn:s0", fmt.Sprintf("urn:s%d", n-1), "urn:d"} // the first, the last but one, the last
		if kind == "strays" {
			want = []string{"urn:d", fmt.Sprintf("urn:s%d", n-2), fmt.Sprintf("urn:s%d", n-1)} // no place fits: first
		}
		if len(order) != n+1 || order[0] != want[0] || order[n-1] != want[1] || order[n] != want[2] {
			t.Fatalf("%s, %d schemas: order %.200v, want %v first, last but one and last", kind, n, order, want)
		}
		return r.looked - before
	}
	for _, c := range []struct {
		kind    string
		n       int
		imports func(n int) int
	}{
		{"dotnet", 100, func(n int) int { return n * n }},
		{"strays", 1000, func(n int) int { return n }},
	} {
		one, two := looked(c.kind, c.n), looked(c.kind, 2*c.n)
		t.Logf("%s: looked at %d for %d schemas, %d for %d", c.kind, one, c.n, two, 2*c.n)
		if in := c.imports(2*c.n) + 2*c.n; two > 3*one*c.imports(2*c.n)/c.imports(c.n)/2 || two > 3*in {
			t.Errorf("%s: looked at %d for %d schemas, %d for %d (%d imports and schemas); want it to grow with them, at most 3 each",
				c.kind, one, c.n, two, 2*c.n, in)
		}
	}
}

package mockserver_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
)

// valuesServer serves the default data set, changed by edit, in the shape
// at path (under shape/learn/testdata) or of the YAML text src.
func valuesServer(t *testing.T, path, src string, edit func(*fixtures.Dataset)) string {
	t.Helper()
	var sh *shape.Shape
	var err error
	if path != "" {
		sh, err = shape.Load(filepath.Join("..", "shape", "learn", "testdata", path))
	} else {
		sh, err = shape.Parse([]byte(src))
	}
	if err != nil {
		t.Fatal(err)
	}
	ds, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	edit(ds)
	return serveShape(t, sh, asmx.DefaultNamespace, mockserver.WithDataset(ds)).URL
}

// attrValues returns the values of every attribute called local in body,
// as an XML parser reads them.
func attrValues(t *testing.T, body []byte, local string) []string {
	t.Helper()
	var out []string
	dec := xml.NewDecoder(bytes.NewReader(body))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("the answer is no XML: %v\n%.2000s", err, body)
		}
		if se, ok := tok.(xml.StartElement); ok {
			for _, a := range se.Attr {
				if a.Name.Local == local {
					out = append(out, a.Value)
				}
			}
		}
	}
}

// A DataSet writes an element column's value of white space only with
// xml:space="preserve" (DataSet.WriteXml, seen on Mono: <C
// xml:space="preserve">  </C>); a DataSet reading an answer without it
// (the client's proxy) reads an empty string instead.
func TestDataSetWhiteSpaceValue(t *testing.T) {
	const blank = "  \t "
	base := valuesServer(t, "dataset-learned.yaml", "", func(ds *fixtures.Dataset) {
		ds.ATMs[0].Address.Landmark = blank
		ds.ATMs[1].Address.Landmark = " Near the  wharf "
	})
	for _, b := range []string{"soap11", "soap12", "get", "post"} {
		status, body := mocktest.Call(t, base, asmx.DefaultNamespace, b, asmx.OpReturnAllAtms, [][2]string{{asmx.ParamKey, "k"}})
		if status != 200 {
			t.Fatalf("over %s: %d %.300s", b, status, body)
		}
		s := string(body)
		if !strings.Contains(s, `<Landmark xml:space="preserve">`+blank+`</Landmark>`) {
			t.Errorf("over %s: the blank landmark is not written with xml:space=\"preserve\":\n%.3000s", b, s)
		}
		if n := strings.Count(s, "xml:space"); n != 1 {
			t.Errorf("over %s: xml:space written %d times, want once (only the value of white space only)", b, n)
		}
		if !strings.Contains(s, "<Landmark> Near the  wharf </Landmark>") {
			t.Errorf("over %s: a landmark with spaces around words is not written as it is", b)
		}
	}
}

// A line feed in an attribute's value is written &#xA;, as XmlTextWriter
// writes it (typed results and DataSet attribute columns alike): a raw one
// is read back as a space.
func TestAttributeValueLineFeed(t *testing.T) {
	const name = "New\nBrunswick"
	edit := func(ds *fixtures.Dataset) { ds.Provinces[0].Name = name }
	// The reference DataSet site's shape, its province names in an
	// attribute column.
	learned, err := os.ReadFile(filepath.Join("..", "shape", "learn", "testdata", "dataset-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const column = "{column: RegionName, type: string, value: name}"
	if !bytes.Contains(learned, []byte(column)) {
		t.Fatalf("dataset-learned.yaml has no %s", column)
	}
	dataSet := strings.Replace(string(learned), column, "{column: RegionName, mapping: attribute, type: string, value: name}", 1)
	for _, c := range []struct{ name, path, src, attr string }{
		{"typed", "attrs-learned.yaml", "", "label"},
		{"dataset", "", dataSet, "RegionName"},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := valuesServer(t, c.path, c.src, edit)
			for _, b := range []string{"soap11", "get"} {
				status, body := mocktest.Call(t, base, asmx.DefaultNamespace, b, asmx.OpReturnProvinces, [][2]string{{asmx.ParamKey, "k"}})
				if status != 200 {
					t.Fatalf("over %s: %d %.300s", b, status, body)
				}
				if !bytes.Contains(body, []byte(c.attr+`="New&#xA;Brunswick"`)) {
					t.Errorf("over %s: want %s=\"New&#xA;Brunswick\" in\n%.1500s", b, c.attr, body)
				}
				if vs := attrValues(t, body, c.attr); len(vs) == 0 || vs[0] != name {
					t.Errorf("over %s: a client reads %s %q, want %q", b, c.attr, vs, name)
				}
			}
		})
	}
}

// A DataSet table whose column is its row's text (simpleContent) is
// written as Mono's DataSet writes one (shape/dsxml/testdata has its
// schema): the value as the row element's text, its end tag on the same
// line; white space only with xml:space="preserve" after the row's
// attributes; an empty value DBNull (omitEmpty) as xsi:nil="true" in an
// empty row element (Mono's, in shape/learn/testdata/variants), declaring
// xsi over GET and POST only.
func TestDataSetSimpleContentRows(t *testing.T) {
	learned, err := os.ReadFile(filepath.Join("..", "shape", "learn", "testdata", "dataset-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const column = "{column: Code, type: string, value: language}"
	if !bytes.Contains(learned, []byte(column)) {
		t.Fatalf("dataset-learned.yaml has no %s", column)
	}
	src := strings.Replace(string(learned), column, "{column: Code, mapping: simpleContent, type: string, value: language}", 1)
	// The institutions' URL as their rows' text, the other columns
	// attributes.
	const bank = `            - {column: BankNo, type: int, allowNull: false, value: id}
            - {column: Title, type: string, value: name}
            - {column: Web, type: string, value: url}
            - {column: CreditUnion, type: boolean, value: isAtlanticCreditUnion}`
	if !strings.Contains(src, bank) {
		t.Fatalf("dataset-learned.yaml has no %s", bank)
	}
	src = strings.Replace(src, bank, `            - {column: BankNo, mapping: attribute, type: int, allowNull: false, value: id}
            - {column: Title, mapping: attribute, type: string, value: name}
            - {column: Web, mapping: simpleContent, type: string, value: url, omitEmpty: true}
            - {column: CreditUnion, mapping: attribute, type: boolean, value: isAtlanticCreditUnion}`, 1)
	// A location's landmark in a table of its own, one row per location.
	const rel = "      relations:\n"
	if strings.Count(src, rel) != 1 {
		t.Fatalf("dataset-learned.yaml has not one %q", rel)
	}
	src = strings.Replace(src, rel, `        - table: Mark
          rows: one
          columns:
            - {column: Text, mapping: simpleContent, type: string, value: address.landmark, omitEmpty: true}
            - {column: MachineKey, mapping: hidden, type: int}
`+rel+`        - {name: MachineMark, parent: Machine, parentColumns: [MachineKey], child: Mark, childColumns: [MachineKey], nested: true}
`, 1)
	base := valuesServer(t, "", src, func(ds *fixtures.Dataset) {
		ds.ATMs[0].Languages = []string{"en", "fr"}
		ds.ATMs[0].Address.Landmark, ds.ATMs[1].Address.Landmark = "  ", ""
		ds.Institutions[1].URL = ""
	})
	status, body := mocktest.Call(t, base, asmx.DefaultNamespace, "get", asmx.OpReturnAllAtms, [][2]string{{asmx.ParamKey, "k"}})
	if status != 200 {
		t.Fatalf("%d %.300s", status, body)
	}
	_, soap := mocktest.Call(t, base, asmx.DefaultNamespace, "soap11", asmx.OpReturnAllAtms, [][2]string{{asmx.ParamKey, "k"}})
	if want := `<Tongue diffgr:id="Tongue1" msdata:rowOrder="0" msdata:hiddenMachineKey="0">en</Tongue>`; !bytes.Contains(soap, []byte(want)) {
		t.Errorf("over SOAP 1.1, the answer lacks %s", want)
	}
	// In SOAP the envelope declares xsi, and .NET's XmlTextWriter finds
	// it there (WriteStartAttribute: FindPrefix): a DBNull row has
	// xsi:nil="true" and no declaration of its own.
	for _, b := range []string{"soap11", "soap12"} {
		_, atms := mocktest.Call(t, base, asmx.DefaultNamespace, b, asmx.OpReturnAllAtms, [][2]string{{asmx.ParamKey, "k"}})
		_, soapBanks := mocktest.Call(t, base, asmx.DefaultNamespace, b, asmx.OpReturnInstitutions, [][2]string{{asmx.ParamKey, "k"}})
		for _, c := range []struct {
			body []byte
			want string
		}{
			{atms, `<Mark diffgr:id="Mark2" msdata:rowOrder="1" msdata:hiddenMachineKey="1" xsi:nil="true" />`},
			{soapBanks, `<Bank diffgr:id="Bank2" msdata:rowOrder="1" BankNo="2" Title="TD Canada Trust" CreditUnion="false" xsi:nil="true" />`},
		} {
			if !bytes.Contains(c.body, []byte(c.want)) || bytes.Count(c.body, []byte("xmlns:xsi=")) != 1 {
				t.Errorf("over %s, want %s and xsi declared on the envelope only in\n%.3000s", b, c.want, c.body)
			}
		}
	}
	_, banks := mocktest.Call(t, base, asmx.DefaultNamespace, "get", asmx.OpReturnInstitutions, [][2]string{{asmx.ParamKey, "k"}})
	body = append(body, banks...)
	for _, want := range []string{
		`<xs:element name="Tongue" nillable="true" minOccurs="0" maxOccurs="unbounded">`,
		`<xs:simpleContent msdata:ColumnName="Code" msdata:Ordinal="0">`,
		`<xs:simpleContent msdata:ColumnName="Web" msdata:Ordinal="2">`,
		`<Tongue diffgr:id="Tongue1" msdata:rowOrder="0" msdata:hiddenMachineKey="0">en</Tongue>` + "\r\n",
		`<Tongue diffgr:id="Tongue2" msdata:rowOrder="1" msdata:hiddenMachineKey="0">fr</Tongue>` + "\r\n",
		`<Mark diffgr:id="Mark1" msdata:rowOrder="0" msdata:hiddenMachineKey="0" xml:space="preserve">  </Mark>` + "\r\n",
		`<Mark diffgr:id="Mark2" msdata:rowOrder="1" msdata:hiddenMachineKey="1" xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" />` + "\r\n",
		`<Bank diffgr:id="Bank1" msdata:rowOrder="0" BankNo="1" Title="RBC Royal Bank" CreditUnion="false">https://www.rbcroyalbank.com</Bank>`,
		`<Bank diffgr:id="Bank2" msdata:rowOrder="1" BankNo="2" Title="TD Canada Trust" CreditUnion="false" xsi:nil="true" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" />`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("the answers lack %s", want)
		}
	}
	for _, b := range [][]byte{body[:len(body)-len(banks)], banks} {
		if err := xml.Unmarshal(b, new(any)); err != nil {
			t.Errorf("an answer is no XML: %v", err)
		}
	}
}

// A node result's fixed:N value is written as the deployment's
// ToString("FN") writes it on .NET Framework: no sign for a value every
// digit of which rounds away (negative zero, -0.001), ties rounded away
// from zero in its 15 significant digits (0.125, 2.675; see appendFixed):
// the searched point's longitude, which the answer repeats.
func TestFixedDecimalsAsDotNetFramework(t *testing.T) {
	learned, err := os.ReadFile(filepath.Join("..", "shape", "learn", "testdata", "nodes-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const lon = `{attribute: lon, namespace: "urn:atmref:geo", prefix: geo, type: double, value: coordinates.longitude}`
	if !bytes.Contains(learned, []byte(lon)) {
		t.Fatalf("nodes-learned.yaml has no %s", lon)
	}
	src := strings.ReplaceAll(string(learned), lon, strings.TrimSuffix(lon, "}")+`, format: "fixed:2"}`)
	base := valuesServer(t, "", src, func(*fixtures.Dataset) {})
	for _, c := range []struct{ lon, want string }{
		{"-0", "0.00"}, {"-0.001", "0.00"}, {"-0.005", "-0.01"}, {"0.125", "0.13"}, {"-2.675", "-2.68"}, {"-63.5752", "-63.58"},
	} {
		params := [][2]string{{asmx.ParamKey, "k"}, {"strPostalCode", ""}, {"dblLatitude", "44.6488"}, {"dblLongitude", c.lon}, {"bytRadius", "1"}}
		status, body := mocktest.Call(t, base, asmx.DefaultNamespace, "soap11", asmx.OpReturnAtmSearchByCoordinates, params)
		if status != 200 {
			t.Fatalf("%d %.300s", status, body)
		}
		if got := attrValues(t, body, "lon"); len(got) == 0 || got[0] != c.want {
			t.Errorf("longitude %s: got %q, want %q first", c.lon, got, c.want)
		}
	}
}

// TestGeneratedEnumValue: a generated value of an enum (a value the
// deployment has and atmkit's data does not) is the enum's first value,
// .NET's default of an enum numbered from 0, which a client reads, in
// every province's answer; a generated string is Name-n, which the enum
// would not hold.
func TestGeneratedEnumValue(t *testing.T) {
	learned, err := os.ReadFile(filepath.Join("..", "shape", "learn", "testdata", "members-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const code = "{attribute: code, type: string, value: code, enum: Region, enumValues: [NB, NS, PE, NL, QC, ON]}"
	if !bytes.Contains(learned, []byte(code)) {
		t.Fatalf("members-learned.yaml has no %s", code)
	}
	src := strings.Replace(string(learned), code, "{attribute: code, type: string, generated: true, enum: Region, enumValues: [QC, ON]}", 1)
	base := valuesServer(t, "", src, func(*fixtures.Dataset) {})
	for _, b := range []string{"soap11", "get"} {
		status, body := mocktest.Call(t, base, asmx.DefaultNamespace, b, asmx.OpReturnProvinces, [][2]string{{asmx.ParamKey, "k"}})
		if status != 200 {
			t.Fatalf("over %s: %d %.300s", b, status, body)
		}
		vs := attrValues(t, body, "code")
		if len(vs) < 2 {
			t.Fatalf("over %s: %d provinces' codes in %.800s", b, len(vs), body)
		}
		for _, v := range vs {
			if v != "QC" {
				t.Errorf("over %s: a province's generated code %q, want the enum's first, QC", b, v)
			}
		}
	}
}

// TestGeneratedValueFitsMaxLength: a generated value of a DataSet column
// of a MaxLength is cut to it (Street-1 in a column of MaxLength 3: Str),
// which a DataSet client reads; it was written whole, longer than the
// schema's maxLength, and the client refused the answer.
func TestGeneratedValueFitsMaxLength(t *testing.T) {
	learned, err := os.ReadFile(filepath.Join("..", "shape", "learn", "testdata", "dataset-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	const street = "{column: Street, type: string, value: address.streetAddress}"
	if !bytes.Contains(learned, []byte(street)) {
		t.Fatalf("dataset-learned.yaml has no %s", street)
	}
	src := strings.Replace(string(learned), street, "{column: Street, type: string, generated: true, maxLength: 3}", 1)
	base := valuesServer(t, "", src, func(*fixtures.Dataset) {})
	for _, b := range []string{"soap11", "get"} {
		status, body := mocktest.Call(t, base, asmx.DefaultNamespace, b, asmx.OpReturnAllAtms, [][2]string{{asmx.ParamKey, "k"}})
		if status != 200 {
			t.Fatalf("over %s: %d %.300s", b, status, body)
		}
		if b == "soap11" && !regexp.MustCompile(`<xs:element name="Street" minOccurs="0" msdata:Ordinal="\d+"><xs:simpleType><xs:restriction base="xs:string"><xs:maxLength value="3" /></xs:restriction></xs:simpleType></xs:element>`).Match(body) {
			t.Errorf("over %s: the schema declares no Street of maxLength 3: %.1500s", b, body)
		}
		if n, cut := bytes.Count(body, []byte("<Street>")), bytes.Count(body, []byte("<Street>Str</Street>")); n < 2 || cut != n {
			t.Errorf("over %s: %d of %d streets written Str, want every one (a generated Street-n cut to MaxLength 3)", b, cut, n)
		}
	}
}

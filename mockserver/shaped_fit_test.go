package mockserver_test

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
)

// TestShapeTypesHoldData: a shape whose XSD types cannot hold a value it
// would write from the data set (a count, an index, an id, a generated
// number or an auto-increment key past the type's range, which a .NET
// client refuses with an OverflowException and the deployment could never
// send) is refused at start, naming the file, the line, the field, the
// type's range and the first value that does not fit; at the edge of the
// range it is served. So is a value of an enum its values lack (a .NET
// client refuses it: InvalidOperationException), naming the enum and its
// values; a generated one is the enum's first value, served. So is a
// string longer than its DataSet column's MaxLength (a DataSet client
// refuses it: ConstraintException), naming the MaxLength and the first
// item; a generated one is cut to fit, served.
func TestShapeTypesHoldData(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	learned := func(name, file, from, to string) string {
		t.Helper()
		data, err := os.ReadFile(filepath.Join("..", "shape", "learn", "testdata", file))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), from) {
			t.Fatalf("%s holds no %q", file, from)
		}
		path := filepath.Join(dir, strings.ReplaceAll(name, " ", "-")+".yaml")
		if err := os.WriteFile(path, []byte(strings.Replace(string(data), from, to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	lastID := func(id int) func(*fixtures.Dataset) {
		return func(ds *fixtures.Dataset) { ds.ATMs[len(ds.ATMs)-1].ID = id }
	}
	for _, tc := range []struct {
		name, file, from, to string
		atms                 int // a generated data set of that many ATMs; 0: the default, edited by edit
		edit                 func(*fixtures.Dataset)
		want                 []string // nil: served
	}{
		{name: "count", file: "reference-learned.yaml", from: "{element: Count, type: int", to: "{element: Count, type: unsignedByte",
			want: []string{"line 14: results.AtmResult/Count: type unsignedByte holds 0 to 255, but an answer listing the data set's 2000 ATMs has count 2000"}},
		{name: "count at the edge", file: "reference-learned.yaml", from: "{element: Count, type: int", to: "{element: Count, type: unsignedByte", atms: 255},
		{name: "count past the edge", file: "reference-learned.yaml", from: "{element: Count, type: int", to: "{element: Count, type: unsignedByte", atms: 256,
			want: []string{"256 ATMs has count 256"}},
		{name: "index", file: "reference-learned.yaml", from: "{attribute: Index, type: int", to: "{attribute: Index, type: byte", atms: 129,
			want: []string{"line 25: results.AtmResult/Atms/Atm/@Index: type byte holds -128 to 127, but an answer listing the data set's 129 ATMs numbers them 0 to 128"}},
		{name: "index at the edge", file: "reference-learned.yaml", from: "{attribute: Index, type: int", to: "{attribute: Index, type: byte", atms: 128},
		{name: "id", file: "reference-learned.yaml", from: "{element: AtmId, type: int", to: "{element: AtmId, type: short", edit: lastID(32768),
			want: []string{"line 26: results.AtmResult/Atms/Atm/AtmId: type short holds -32768 to 32767, but ATM id 32768 has id 32768"}},
		{name: "id at the edge", file: "reference-learned.yaml", from: "{element: AtmId, type: int", to: "{element: AtmId, type: short", edit: lastID(32767)},
		{name: "generated", file: "reference-learned.yaml", from: "{element: Identifier, type: string, value: atmIdentifier}", to: "{element: Identifier, type: unsignedByte, generated: true}",
			want: []string{"Atm/Identifier: type unsignedByte holds 0 to 255, but its generated values number the 2000 ATMs from 1 to 2000"}},
		{name: "auto-increment", file: "dataset-learned.yaml", from: "{column: MachineKey, mapping: hidden, type: int, allowNull: false, autoIncrement: true}",
			to:   "{column: MachineKey, mapping: hidden, type: int, allowNull: false, autoIncrement: true, seed: 2147483000}",
			want: []string{"line 25: results.AtmFinder.dataset.Machine.MachineKey: type int holds -2147483648 to 2147483647, but the auto-increment key numbering 2000 rows from 2147483000 by 1 reaches 2147484999"}},
		// An enum's values (learned from the members site's WSDL):
		// a value it lacks is refused with the enum and its values, a
		// generated one is its first, which it holds.
		{name: "an enum's values", file: "members-learned.yaml", from: "enum: Region, enumValues: [NB, NS, PE, NL, QC, ON]}\n            - {element: Code",
			to:   "enum: Region, enumValues: [NB, NS, PE, QC, ON]}\n            - {element: Code",
			want: []string{"line 31: results.Hit/Tellers/Teller/@region: enum Region holds NB, NS, PE, QC, ON, but ATM id ", ` has address.province "NL" (and `, "InvalidOperationException"}},
		// An array of an enum (a languages list's items, learned from
		// the members site's WSDL): a code it lacks is refused, naming
		// the item; one the codes fit is served (the provinces cut to
		// the site's Region's).
		{name: "a language enum", file: "members-learned.yaml", from: "enum: Tongue, enumValues: [en, fr]}", to: "enum: Tongue, enumValues: [en]}",
			want: []string{"line 60: results.Hit/Tellers/Teller/Langs/Lang: enum Tongue holds en, but ATM id 4's language 2 has language \"fr\" (and ", "InvalidOperationException"}},
		{name: "a language enum the codes fit", file: "members-learned.yaml", from: "enum: Tongue, enumValues: [en, fr]}", to: "enum: Tongue, enumValues: [en, fr]}",
			edit: regionsOnly},
		{name: "an enum's values the provinces lack", file: "members-learned.yaml", from: "{attribute: code, type: string, value: code, enum: Region, enumValues: [NB, NS, PE, NL, QC, ON]}",
			to: "{attribute: code, type: string, value: code, enum: Region, enumValues: [NB, NS, PE, NL, QC, ON, MB, SK, AB, BC, NT, NU, YT]}"},
		// A DataSet column's MaxLength: a longer value is refused (a
		// DataSet client throws a ConstraintException), one that fits is
		// served, and so is a generated value (cut to fit).
		{name: "a column's MaxLength", file: "dataset-learned.yaml", from: "{column: Street, type: string, value: address.streetAddress}",
			to:   "{column: Street, type: string, value: address.streetAddress, maxLength: 12}",
			want: []string{"line 35: results.AtmFinder.dataset.Machine.Street: maxLength 12, but ATM id ", ` has address.streetAddress "`, " characters) (and ", "ConstraintException"}},
		{name: "a column's MaxLength every value fits", file: "dataset-learned.yaml", from: "{column: Prov, type: string, value: address.province}",
			to: "{column: Prov, type: string, value: address.province, maxLength: 2}"},
		{name: "a generated value of a MaxLength", file: "dataset-learned.yaml", from: "{column: Street, type: string, value: address.streetAddress}",
			to: "{column: Street, type: string, generated: true, maxLength: 3}"},
		// A group's values are its institution's: checked as the
		// institutions' (a generated one numbers them 1 to n).
		{name: "a group's enum", file: "../../testdata/grouped.yaml", from: "{element: Name, type: string, value: institution.name}",
			to:   "{element: Name, type: string, value: institution.name, enum: BankName, enumValues: [Harbour Bank]}",
			want: []string{"line 15: results.ArrayOfBank/(locations list)/Bank/Name: enum BankName holds Harbour Bank, but institution id 1 has name "}},
		{name: "a group's generated value", file: "../../testdata/grouped.yaml", from: "{element: Name, type: string, value: institution.name}",
			to: "{element: Name, type: byte, generated: true}", edit: moreInstitutions(130),
			want: []string{"line 15: results.ArrayOfBank/(locations list)/Bank/Name: type byte holds -128 to 127, but its generated values number the "}},
		{name: "a generated enum", file: "members-learned.yaml", from: "{attribute: code, type: string, value: code, enum: Region, enumValues: [NB, NS, PE, NL, QC, ON]}",
			to: "{attribute: code, type: string, generated: true, enum: Region, enumValues: [NB]}"},
	} {
		path := learned(tc.name, tc.file, tc.from, tc.to)
		sh, err := shape.Load(path)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		opts := []mockserver.Option{mockserver.WithShape(sh)}
		if tc.atms > 0 {
			opts = append(opts, mockserver.WithGeneratedDataset(7, tc.atms))
		} else {
			ds, err := fixtures.Default()
			if err != nil {
				t.Fatal(err)
			}
			if tc.edit != nil {
				tc.edit(ds)
			}
			opts = append(opts, mockserver.WithDataset(ds))
		}
		_, err = mockserver.New(opts...)
		var ferr *shape.FitError
		switch {
		case tc.want == nil && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.want == nil:
		case !errors.As(err, &ferr):
			t.Errorf("%s: got %v, want a *shape.FitError", tc.name, err)
		default:
			for _, w := range append(tc.want, path, "a .NET client throws") {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: got %v\nwant it to say %q", tc.name, err, w)
				}
			}
		}
	}
}

// regionsOnly leaves in a data set the provinces of the members site's
// enum Region alone, which its Area's code holds.
func regionsOnly(ds *fixtures.Dataset) {
	ds.Provinces = slices.DeleteFunc(ds.Provinces, func(p fixtures.Province) bool {
		return !slices.Contains([]string{"NB", "NS", "PE", "NL", "QC", "ON"}, p.Code)
	})
}

// moreInstitutions adds institutions (of no ATM) to a data set up to n.
func moreInstitutions(n int) func(*fixtures.Dataset) {
	return func(ds *fixtures.Dataset) {
		for i := len(ds.Institutions); i < n; i++ {
			in := ds.Institutions[0]
			in.ID, in.Name = 1000+i, "Bank "+strconv.Itoa(i)
			ds.Institutions = append(ds.Institutions, in)
		}
	}
}

// TestFloatSearchPointPastItsRange: a search point typed float (xs:float)
// searched at a coordinate past a float's range (1e39, which ASMX reads as
// a double) is written INF, as XmlSerializer writes the service's float
// (C#'s cast from double makes it infinity, and no exception), not Go's
// "+Inf", which no .NET client reads.
func TestFloatSearchPointPastItsRange(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "shape", "learn", "testdata", "reference-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.ReplaceAll(string(data), "type: double, value: coordinates.", "type: float, value: coordinates.")
	base := valuesServer(t, "", src, func(*fixtures.Dataset) {})
	for q, want := range map[string]string{
		"dblLatitude=1e39&dblLongitude=-1e39":  "<Latitude>INF</Latitude>\r\n    <Longitude>-INF</Longitude>",
		"dblLatitude=45.5&dblLongitude=-63.25": "<Latitude>45.5</Latitude>\r\n    <Longitude>-63.25</Longitude>",
	} {
		_, _, b := mocktest.Get(t, base+"/service/service.asmx/ReturnAtmSearchByCoordinates?strAtmServiceKey=k&strPostalCode=&bytRadius=1&"+q)
		if body := string(b); !strings.Contains(body, want) {
			t.Errorf("%s: got\n%.600s\nwant it to hold %q", q, body, want)
		}
	}
}

// TestDecimalSearchPointPastItsRange: a search point typed decimal
// searched past a decimal's range (1e300, or infinity) is no answer: the
// service's conversion of the double throws an OverflowException, which
// ASMX answers as a Server fault in SOAP and HTTP 500 in GET; within the
// range the point is written.
func TestDecimalSearchPointPastItsRange(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "shape", "learn", "testdata", "reference-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.Replace(string(data), "{element: Longitude, type: double, value: coordinates.longitude}", "{element: Longitude, type: decimal, value: coordinates.longitude}", 1)
	src = strings.Replace(src, "element: SearchPoint\n        type: GeoPoint", "element: SearchPoint\n        type: DecimalPoint", 1) // a type of its own
	base := valuesServer(t, "", src, func(*fixtures.Dataset) {})
	get := func(q string) (int, string) {
		t.Helper()
		status, _, b := mocktest.Get(t, base+"/service/service.asmx/ReturnAtmSearchByCoordinates?strAtmServiceKey=k&strPostalCode=&bytRadius=1&"+q)
		return status, string(b)
	}
	for _, q := range []string{"dblLatitude=45&dblLongitude=1e300", "dblLatitude=45&dblLongitude=-Infinity", "dblLatitude=45&dblLongitude=NaN"} {
		code, body := get(q)
		if code != 500 || !strings.HasPrefix(body, "Value was either too large or too small for a Decimal.") {
			t.Errorf("%s: got %d %.300q, want 500 with the OverflowException", q, code, body)
		}
	}
	if code, body := get("dblLatitude=1e300&dblLongitude=-63.25"); code != 200 || !strings.Contains(body, "<Longitude>-63.25</Longitude>") {
		t.Errorf("a double latitude past a decimal's range, the decimal longitude in it: got %d %.300q, want 200", code, body)
	}
	env := `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ReturnAtmSearchByCoordinates xmlns="http://tempuri.org/atmService"><strAtmServiceKey>k</strAtmServiceKey><strPostalCode /><dblLatitude>45</dblLatitude><dblLongitude>1E+300</dblLongitude><bytRadius>1</bytRadius></ReturnAtmSearchByCoordinates></soap:Body></soap:Envelope>`
	req, err := http.NewRequest("POST", base+"/service/service.asmx", strings.NewReader(env))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "text/xml; charset=utf-8")
	req.Header.Set("SOAPAction", `"http://tempuri.org/atmService/ReturnAtmSearchByCoordinates"`)
	status, _, b := mocktest.Do(t, req)
	if status != 500 || !strings.Contains(string(b), "<faultcode>soap:Server</faultcode>") ||
		!strings.Contains(string(b), "Server was unable to process request. ---&gt; Value was either too large or too small for a Decimal.") {
		t.Errorf("SOAP 1.1: got %d %.800s, want a Server fault with the OverflowException", status, b)
	}
}

// TestNegativeZeroSearchPoint: a SOAP search at latitude -0 (XmlConvert.ToDouble
// reads it as negative zero) echoes the point as XmlConvert.ToString writes a
// double or a float, -0 (its IsNegativeZero case); GET reads it with
// Double.Parse, +0, written 0.
func TestNegativeZeroSearchPoint(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(filepath.Join("..", "shape", "learn", "testdata", "reference-learned.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range []string{"double", "float"} {
		src := strings.ReplaceAll(string(data), "type: double, value: coordinates.", "type: "+typ+", value: coordinates.")
		base := valuesServer(t, "", src, func(*fixtures.Dataset) {})
		env := `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><ReturnAtmSearchByCoordinates xmlns="http://tempuri.org/atmService"><strAtmServiceKey>k</strAtmServiceKey><strPostalCode /><dblLatitude>-0</dblLatitude><dblLongitude>-0.0</dblLongitude><bytRadius>1</bytRadius></ReturnAtmSearchByCoordinates></soap:Body></soap:Envelope>`
		req, err := http.NewRequest("POST", base+"/service/service.asmx", strings.NewReader(env))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "text/xml; charset=utf-8")
		req.Header.Set("SOAPAction", `"http://tempuri.org/atmService/ReturnAtmSearchByCoordinates"`)
		status, _, b := mocktest.Do(t, req)
		if want := "<Latitude>-0</Latitude><Longitude>-0</Longitude>"; status != 200 || !strings.Contains(string(b), want) {
			t.Errorf("%s, SOAP: got %d %.800s\nwant it to hold %q", typ, status, b, want)
		}
		_, _, b = mocktest.Get(t, base+"/service/service.asmx/ReturnAtmSearchByCoordinates?strAtmServiceKey=k&strPostalCode=&bytRadius=1&dblLatitude=-0&dblLongitude=-0.0")
		if want := "<Latitude>0</Latitude>\r\n    <Longitude>0</Longitude>"; !strings.Contains(string(b), want) {
			t.Errorf("%s, GET: got %.800s\nwant it to hold %q", typ, b, want)
		}
	}
}

// Checking that a shape's types hold a data set's values (at every start)
// allocates next to nothing per ATM: it looked each value's description up
// for every ATM in a list it made afresh, 8.8 GB of garbage for a million
// ATMs, which raised the peak memory of a 1M-ATM mock from about 580 MB
// to about 930 MB once loaded (the collector lets the heap reach twice
// what stays).
func TestCheckShapeDataAllocatesLittle(t *testing.T) {
	ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 1, ATMs: 10_000})
	if err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(3, func() {
		if err := mockserver.CheckShapeData(shape.Default(), ds); err != nil {
			t.Fatal(err)
		}
	})
	if per := allocs / float64(len(ds.ATMs)); per > 0.1 {
		t.Errorf("CheckShapeData made %.0f allocations for %d ATMs (%.2f an ATM), want under 0.1 an ATM", allocs, len(ds.ATMs), per)
	}
}

package shape

import (
	"encoding/xml"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// unline clears the lines a parsed shape remembers, so it compares with a
// shape built in code.
func unline(s *Shape) *Shape {
	s.opLines = nil
	for _, r := range s.Results {
		r.line = 0
		var clear func(fs []*Field)
		clear = func(fs []*Field) {
			for _, f := range fs {
				f.line, f.lines = 0, nil
				clear(f.Fields)
				if f.Item != nil {
					f.Item.line, f.Item.lines = 0, nil
					clear(f.Item.Fields)
				}
			}
		}
		clear(r.Fields)
	}
	return s
}

func TestDefaultRoundTrip(t *testing.T) {
	data := Marshal(Default(), "the default")
	got, err := Parse(data)
	if err != nil {
		t.Fatalf("Parse(Marshal(Default())): %v\n%s", err, data)
	}
	if !reflect.DeepEqual(unline(got), Default()) {
		t.Errorf("Parse(Marshal(Default())) differs from Default():\n%s", Marshal(got, ""))
	}
	if again := Marshal(got, "the default"); string(again) != string(data) {
		t.Errorf("Marshal is not stable:\n%s\nthen\n%s", data, again)
	}
}

func TestTypedFile(t *testing.T) {
	s, err := Load("testdata/typed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	const ns = "http://example.org/atm"
	rows := []struct {
		name  string
		check func() error
	}{
		{"layout of a search", func() error { return eq(string(s.Layout(OpReturnAtmSearchByCoordinates)), "typed") }},
		{"GET root of ReturnProvinces", func() error {
			return eq(s.Root(OpReturnProvinces, ns), xml.Name{Space: ns, Local: "ArrayOfProvince"})
		}},
		{"content namespace", func() error { return eq(s.ContentNamespace(OpReturnInstitutions, ns), ns) }},
		{"content of AtmResult", func() error { return eq(s.Result(OpReturnAllAtms).Content(), Locations) }},
		{"unknown operation", func() error { return eq(s.Result("ReturnNothing") == nil, true) }},
		{"generated and omitted", func() error {
			sum := Summarize(s)
			return eq(strings.Join(sum.Generated, "|")+"#"+strings.Join(sum.Omitted, "|"),
				"ArrayOfProvince: ArrayOfProvince/Province/ProvinceId (int)#")
		}},
		{"round trip", func() error {
			again, err := Parse(Marshal(s, ""))
			if err != nil {
				return err
			}
			return eq(string(Marshal(again, "")), string(Marshal(s, "")))
		}},
	}
	for _, r := range rows {
		if err := r.check(); err != nil {
			t.Errorf("%s: %v", r.name, err)
		}
	}
	def := Default()
	if got := def.Root(OpReturnProvinces, ns); got != (xml.Name{Local: "provinces"}) {
		t.Errorf("default GET root: got %v, want {\"\" provinces}", got)
	}
	if got := def.ContentNamespace(OpReturnAllAtms, ns); got != "" {
		t.Errorf("default content namespace: got %q, want none", got)
	}
}

func eq[T comparable](got, want T) error {
	if got != want {
		return fmt.Errorf("got %v, want %v", got, want)
	}
	return nil
}

// TestParseErrors feeds broken shape files and checks that each error names
// the line and the field.
func TestParseErrors(t *testing.T) {
	typed, err := os.ReadFile("testdata/typed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	edit := func(old, new string) string {
		if !strings.Contains(string(typed), old) {
			t.Fatalf("testdata/typed.yaml has no %q", old)
		}
		return strings.Replace(string(typed), old, new, 1)
	}
	rows := []struct {
		name, file string
		want       []string // each must appear in the error
	}{
		{"not YAML", "version: [1", []string{"line 1"}},
		{"wrong version", edit("version: 1", "version: 2"), []string{"line 2", "version", `"2"`}},
		{"unknown key", edit("      - {element: Count, type: int, value: count}", "      - {element: Count, type: int, value: count, colour: red}"),
			[]string{"line 9", "results.AtmResult.fields[0]", `unknown key "colour"`}},
		{"unknown value", edit("value: institution.name}", "value: institution.title}"),
			[]string{"line 29", "Bank/Name.value", `"institution.title" is not a value of a location`}},
		{"type cannot hold the value", edit("{element: Hours, type: int, value: features.hours}", "{element: Hours, type: boolean, value: features.hours}"),
			[]string{"line 49", "Features/Hours.type", "features.hours is a number, not a flag"}},
		{"string type for a number", edit("{element: AtmId, type: int, value: id}", "{element: AtmId, type: dateTime, value: id}"),
			[]string{"line 23", "Atm/AtmId.type", `type "dateTime" cannot hold id`}},
		{"bad format", edit("{element: Visa, type: boolean, value: creditCards.visa}", "{element: Visa, type: boolean, value: creditCards.visa, format: yes/no}"),
			[]string{"line 56", "Cards/Visa.format", `format "yes/no"`}},
		{"no value, not generated", edit("{element: ProvinceId, type: int, generated: true}", "{element: ProvinceId, type: int}"),
			[]string{"line 88", "Province/ProvinceId.value", "no value", "generated: true"}},
		{"list in the wrong scope", edit("list: languages", "list: provinces"),
			[]string{"line 62", "Atm/Languages.list", `holds the list languages, not "provinces"`}},
		{"a field both element and attribute", edit("{attribute: Index, type: int, value: index}", "{attribute: Index, element: Index, type: int, value: index}"),
			[]string{"line 22", "both element"}},
		{"an unknown operation", edit("  ReturnProvinces: ArrayOfProvince", "  ReturnProvinces: ArrayOfProvince\n  ReturnEverything: AtmResult"),
			[]string{"line 100", "operations.ReturnEverything"}},
		{"operation with the wrong result", edit("  ReturnProvinces: ArrayOfProvince", "  ReturnProvinces: ArrayOfInstitution"),
			[]string{"operations.ReturnProvinces", "returns provinces", "holds institutions"}},
		{"a complexType twice", edit("              type: GeoPoint\n              fields:\n                - {element: Latitude", "              type: GeoPoint\n              fields:\n                - {element: Lat"),
			[]string{`complexType "GeoPoint"`}},
		{"index twice", edit("{element: AtmId, type: int, value: id}", "{element: AtmId, type: int, value: index}"),
			[]string{"index is written 2 times"}},
		{"empty", "", []string{"empty"}},
	}
	for _, r := range rows {
		_, err := Parse([]byte(r.file))
		if err == nil {
			t.Errorf("%s: got no error, want one mentioning %q", r.name, r.want)
			continue
		}
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: got %v, want an error wrapping ErrInvalid", r.name, err)
		}
		for _, w := range r.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: got %q, want it to mention %q", r.name, err, w)
			}
		}
	}
}

func TestLoadNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(p, []byte("version: 1\nresults: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(p)
	if err == nil || !strings.Contains(err.Error(), p) {
		t.Errorf("got %v, want an error naming %s", err, p)
	}
	_, err = Load(filepath.Join(dir, "missing.yaml"))
	if !errors.Is(err, ErrNotFound) {
		t.Errorf("got %v, want ErrNotFound", err)
	}
}

func TestWriteFileIsAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "shape.yaml")
	if err := WriteFile(p, Default(), "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(p); err != nil {
		t.Errorf("the written file does not load: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("got %d files in the directory, want only the shape (no temporary left)", len(entries))
	}
	if err := WriteFile(filepath.Join(dir, "no", "such", "dir.yaml"), Default(), ""); err == nil {
		t.Errorf("got no error writing into a missing directory")
	}
}

func TestOperationsDefaultToTheOneResult(t *testing.T) {
	typed, err := os.ReadFile("testdata/typed.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.Index(string(typed), "operations:")
	s, err := Parse(typed[:cut])
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range Operations() {
		if s.Result(op) == nil {
			t.Errorf("%s: got no result, want the one of its content", op)
		}
	}
}

func TestGeneratedValue(t *testing.T) {
	rows := []struct{ typ, want string }{
		{"int", "7"}, {"string", "Ref-7"}, {"boolean", "false"}, {"double", "0"}, {"dateTime", "2000-01-01T00:00:00"},
	}
	for _, r := range rows {
		if got := GeneratedValue(r.typ, "Ref", 7); got != r.want {
			t.Errorf("GeneratedValue(%q): got %q, want %q", r.typ, got, r.want)
		}
	}
}

// TestMarshalHeaderOfAnyLineBreak: a header line broken by a line break
// YAML reads besides LF (CR, NEL, LS, PS) stays in the comment. It ended
// the comment line, the rest read as YAML: `shape learn` from a WSDL whose
// targetNamespace held &#13; wrote a file it would not load ("unknown key").
func TestMarshalHeaderOfAnyLineBreak(t *testing.T) {
	for _, br := range []string{"\r", "\r\n", "\u0085", "\u2028", "\u2029"} {
		header := "the deployment's service namespace: http://a.example/" + br + "operations: {ReturnAllAtms: nothing}" + br + "x: 1"
		data := Marshal(Default(), header)
		got, err := Parse(data)
		if err != nil {
			t.Errorf("break %q: Parse(Marshal(Default(), header)): %v\n%s", br, err, data)
			continue
		}
		if !reflect.DeepEqual(unline(got), Default()) {
			t.Errorf("break %q: the header changed the shape:\n%s", br, data)
		}
	}
}

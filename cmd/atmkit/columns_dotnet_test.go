package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/shape"
)

// TestColumnsMaxLengthServedRead is the learn-then-serve workflow for the
// reference deployment's columns site, whose DataSets have string columns
// of a MaxLength (a bank's Name 60, an ATM's Identifier 20, Street 100 and
// Prov 2, a province's 2Letter 2). Record every operation and the WSDL,
// learn the shape: each such column says its maxLength, and the schema is
// atmkit's (none kept as the deployment wrote it). A data set holding a
// bank name of 61 characters is refused by atmkit fixtures check --shape
// and atmkit serve, naming the column, its MaxLength and the institution:
// the mock served it and a .NET client's DataSet refused the answer
// (InvalidOperationException: There is an error in XML document; .NET's
// DataSet.EnableConstraints throws a ConstraintException on a value longer
// than its column's MaxLength). Served over the site's own store, a .NET
// client reads every value, each column with the deployment's MaxLength,
// in both SOAP versions.
func TestColumnsMaxLengthServedRead(t *testing.T) {
	t.Parallel()
	l := recordAndLearn(t, refdeploy.Columns)
	dir, ns, wsdlURL, learned, sh := l.dir, l.ns, l.wsdlURL, l.learned, l.shape
	maxLengths := map[string]int{}
	for _, r := range sh.Results {
		if r.DataSet == nil {
			continue
		}
		if r.DataSet.Schema != "" {
			t.Errorf("%s: the schema is kept as the deployment wrote it; want atmkit's, its MaxLength columns modelled", r.DataSet.Name)
		}
		for _, tb := range r.DataSet.Tables {
			for _, c := range tb.Columns {
				if c.MaxLength > 0 {
					maxLengths[tb.Name+"."+c.Name] = c.MaxLength
				}
			}
		}
	}
	if want := map[string]int{"ATM_x0020_Row.Identifier": 20, "ATM_x0020_Row.Street": 100, "ATM_x0020_Row.Prov": 2, "Bank.Name": 60, "Region._x0032_Letter": 2}; !reflect.DeepEqual(maxLengths, want) {
		t.Errorf("the learned columns of a MaxLength: %v, want %v", maxLengths, want)
	}

	// A bank name longer than its column's MaxLength: refused.
	long := filepath.Join(dir, "long")
	name := longNamedStore(t, long)
	refused := `results.Banks.dataset.Bank.Name: maxLength 60, but institution id 100 has name "` + name + `" (61 characters)`
	if code, out, errOut := runAtmkit(nil, "fixtures", "check", "--shape", learned, long); code != exitFailure || !strings.Contains(out, refused) {
		t.Errorf("fixtures check --shape of a bank name past its MaxLength: exit %d, want %d and %q in\n%s\n%s", code, exitFailure, refused, out, errOut)
	}
	if code, out, errOut := runAtmkit(nil, "serve", "--addr", "127.0.0.1:0", "--shape", learned, "--namespace", ns, "--fixtures", long, "--key", "k"); code == 0 ||
		!strings.Contains(errOut, refused) || !strings.Contains(errOut, "ConstraintException") {
		t.Errorf("serve with a bank name past its MaxLength: exit %d, want a refusal naming %q and the ConstraintException\n%s\n%s", code, refused, out, errOut)
	}

	// The site's own store: every value read, each column's MaxLength
	// the deployment's.
	const key = "mock-key"
	store := filepath.Join("..", "..", "mockserver", "testdata", "refstore")
	ds, err := fixtures.Load(store)
	if err != nil {
		t.Fatal(err)
	}
	mock, _ := startCommand(t, "serve", "--addr", "127.0.0.1:0", "--shape", learned, "--namespace", ns, "--fixtures", store, "--key", key)
	calls, want := mockCalls(t, mock, ns, key, ds)
	for _, w := range want {
		if list, ok := w.([]any); ok { // the provinces' ids are the site's own: generated
			for _, x := range list {
				delete(x.(map[string]any), "provinceId")
			}
		}
	}
	exe := refdeploy.BuildClient(t, wsdlURL+"?WSDL", "testdata/dotnet/Client.cs")
	readInBothSOAPs(t, exe, mock, calls, func(call string, i int, op string, result any) {
		read, err := readThrough(sh.Result(op), result)
		if err != nil {
			t.Errorf("%s: %v", call, err)
			return
		}
		if !reflect.DeepEqual(read, want[i]) {
			t.Errorf("%s: the client read\n%v\nwant\n%v", call, read, want[i])
		}
	})
}

// longNamedStore copies the reference store (mockserver's
// testdata/refstore) into dir with its first institution's name 61
// characters long, and returns that name.
func longNamedStore(t *testing.T, dir string) string {
	t.Helper()
	src := filepath.Join("..", "..", "mockserver", "testdata", "refstore")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	long := "Harbour Bank" + strings.Repeat("x", 61-len("Harbour Bank"))
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name() == "institutions.json" {
			b = []byte(strings.Replace(string(b), `"name": "Harbour Bank"`, `"name": "`+long+`"`, 1))
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return long
}

// encodeNames renames, in place, the tables, columns and relations the
// client read of the DataSet d (their names as .NET decodes them from the
// schema: ATM Row, 2Letter) to d's (as written: ATM_x0020_Row,
// _x0032_Letter), in its tables, their columns, rows and children, and its
// relations.
func encodeNames(d *shape.DataSet, tables []any, relations any) {
	enc := map[string]string{}
	for _, t := range d.Tables {
		enc[shape.DecodeName(t.Name)] = t.Name
		for _, c := range t.Columns {
			enc[shape.DecodeName(c.Name)] = c.Name
		}
	}
	for _, rel := range d.Relations {
		enc[shape.DecodeName(rel.Name)] = rel.Name
	}
	name := func(m map[string]any, k string) {
		if s, ok := m[k].(string); ok && enc[s] != "" {
			m[k] = enc[s]
		}
	}
	keys := func(m map[string]any) {
		for k, v := range m {
			if e := enc[k]; e != "" && e != k {
				delete(m, k)
				m[e] = v
			}
		}
	}
	for _, x := range tables {
		tm, _ := x.(map[string]any)
		if tm == nil {
			continue
		}
		name(tm, "name")
		cols, _ := tm["columns"].([]any)
		for _, c := range cols {
			if cm, ok := c.(map[string]any); ok {
				name(cm, "name")
			}
		}
		rows, _ := tm["rows"].([]any)
		for _, r := range rows {
			rm, _ := r.(map[string]any)
			for _, k := range []string{"values", "children"} {
				if m, ok := rm[k].(map[string]any); ok {
					keys(m)
				}
			}
		}
	}
	rels, _ := relations.([]any)
	for _, r := range rels {
		if rm, ok := r.(map[string]any); ok {
			name(rm, "name")
			name(rm, "parent")
			name(rm, "child")
		}
	}
}

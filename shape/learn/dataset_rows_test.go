package learn_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/learn"
)

// TestLearnSelfNestedTableOrder learns DataSets (captured from Mono: the
// reference deployment's spaces site) whose second table, Lender, is
// nested in itself, with a Branch table nested in it: the schema declares
// Lender first (.NET's TopLevelTables(forSchema)), the diffgram writes the
// rows in the DataSet's order, the Source row first, and (the second
// capture) the Stamp row last. The learned order is the DataSet's; served,
// the schemas are Mono's byte for byte and the rows in Mono's order.
func TestLearnSelfNestedTableOrder(t *testing.T) {
	for file, want := range map[string]string{
		"dataset-self-nested-second-get.xml": "Source Lender Branch",
		"dataset-self-nested-middle-get.xml": "Source Lender Branch Stamp",
	} {
		t.Run(file, func(t *testing.T) { learnTableOrder(t, file, want) })
	}
}

func learnTableOrder(t *testing.T, file, want string) {
	body, err := os.ReadFile(filepath.Join("testdata", "variants", file))
	if err != nil {
		t.Fatal(err)
	}
	learned, rep, err := learn.Learn(learn.Input{Samples: []learn.Sample{
		{Binding: learn.HTTPGet, Op: asmx.OpReturnInstitutions, Status: 200, Body: body, Where: file}}})
	if err != nil {
		t.Fatal(err)
	}
	r := learned.Result(asmx.OpReturnInstitutions)
	if r == nil || r.DataSet == nil {
		t.Fatalf("ReturnInstitutions: %+v, want the DataSet Lenders; notes: %v", r, rep.Notes)
	}
	var names []string
	for _, tb := range r.DataSet.Tables {
		names = append(names, tb.Name)
	}
	if strings.Join(names, " ") != want {
		t.Errorf("the tables %v, want %s (the diffgram's order)", names, want)
	}
	ns := refdeploy.Spaces.Namespace
	served := refdeploy.Collect(t, serve(t, learned, ns), ns, "k", []refdeploy.Call{{Op: asmx.OpReturnInstitutions}}, "get")
	cut := func(s string) (string, string) {
		i := strings.Index(s, "<diffgr:diffgram")
		if i < 0 {
			t.Fatalf("no diffgram in %s", s)
		}
		return s[:i], s[i:]
	}
	gotSchemas, _ := cut(string(served[0].Body))
	wantSchemas, _ := cut(mocktest.AsDotNetLines(string(body)))
	if gotSchemas != wantSchemas {
		t.Errorf("the served schemas:\n%s\nwant Mono's\n%s", gotSchemas, wantSchemas)
	}
	got, err := mocktest.Structure(served[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	// The rows' elements: the lines three deep after the diffgram's.
	_, rows, _ := strings.Cut(got, "}diffgram")
	var top []string
	for _, line := range strings.Split(rows, "\n") {
		if strings.HasPrefix(line, "      ") && !strings.HasPrefix(line, "       ") {
			top = append(top, strings.Fields(line)[0])
		}
	}
	wantTop := []string{"{}Source", "{http://spaces.atmref.example.org/lender}Lender"}
	if strings.Contains(want, "Stamp") {
		wantTop = append(wantTop, "{}Stamp")
	}
	if !slices.Equal(top, wantTop) {
		t.Errorf("the served rows at the DataSet's level: %v, want %v (Mono's order)\n%s", top, wantTop, got)
	}
}

// TestLearnSelfNestedTableInNoNamespace learns a DataSet (captured from
// Mono: the spaces site's Areas, in a namespace and a prefix of its own)
// whose table Area is in no namespace and nested in itself by hidden keys:
// the schema declares Area in the DataSet's namespace (XmlTreeGen makes a
// self-nested table a global element of the DataSet's schema), its rows
// are in none. The table is learned in none, with no note; served, the
// schemas are Mono's byte for byte and the rows in no namespace.
func TestLearnSelfNestedTableInNoNamespace(t *testing.T) {
	const file = "dataset-self-nested-none-get.xml"
	body, err := os.ReadFile(filepath.Join("testdata", "variants", file))
	if err != nil {
		t.Fatal(err)
	}
	learned, rep, err := learn.Learn(learn.Input{Samples: []learn.Sample{
		{Binding: learn.HTTPGet, Op: asmx.OpReturnProvinces, Status: 200, Body: body, Where: file}}})
	if err != nil {
		t.Fatal(err)
	}
	r := learned.Result(asmx.OpReturnProvinces)
	if r == nil || r.DataSet == nil || r.DataSet.TableNamed("Area") == nil {
		t.Fatalf("ReturnProvinces: %+v, want the DataSet Areas; notes: %v", r, rep.Notes)
	}
	if ns := r.DataSet.TableNamed("Area").Namespace; ns != shape.NoNamespace {
		t.Errorf("table Area in namespace %q, want none", ns)
	}
	for _, n := range rep.Notes {
		if strings.Contains(n, "Areas") {
			t.Errorf("a note on the DataSet: %s", n)
		}
	}
	ns := refdeploy.Spaces.Namespace
	served := refdeploy.Collect(t, serve(t, learned, ns), ns, "k", []refdeploy.Call{{Op: asmx.OpReturnProvinces}}, "get")
	got, want := string(served[0].Body), mocktest.AsDotNetLines(string(body))
	cut := func(s string) string { return s[:max(0, strings.Index(s, "<diffgr:diffgram"))] }
	if cut(got) != cut(want) || cut(got) == "" {
		t.Errorf("the served schemas:\n%s\nwant Mono's\n%s", cut(got), cut(want))
	}
	structure, err := mocktest.Structure(served[0].Body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(structure, "\n      {}Area @") {
		t.Errorf("the served rows are not Area in no namespace:\n%s", structure)
	}
}

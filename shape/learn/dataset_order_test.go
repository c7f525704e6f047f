package learn_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/shape/learn"
)

// TestLearnSelfNestedTableOrder learns a DataSet (captured from Mono: the
// reference deployment's spaces site) whose second table, Lender, is
// nested in itself: the schema declares it first (.NET's
// TopLevelTables(forSchema)), the diffgram writes the rows in the
// DataSet's order, the Source row first. The learned order is the
// DataSet's; served, the schemas are Mono's byte for byte and the Source
// row comes before the Lender rows.
func TestLearnSelfNestedTableOrder(t *testing.T) {
	body, err := os.ReadFile(filepath.Join("testdata", "variants", "dataset-self-nested-second-get.xml"))
	if err != nil {
		t.Fatal(err)
	}
	learned, rep, err := learn.Learn(learn.Input{Samples: []learn.Sample{
		{Binding: learn.HTTPGet, Op: asmx.OpReturnInstitutions, Status: 200, Body: body, Where: "self-nested-second.xml"}}})
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
	if strings.Join(names, " ") != "Source Lender" {
		t.Errorf("the tables %v, want [Source Lender] (the diffgram's order)", names)
	}
	ns := refdeploy.Spaces.Namespace
	served := refdeploy.Collect(t, serve(t, learned, ns), ns, "k", []refdeploy.Call{{Op: asmx.OpReturnInstitutions}}, "get")
	got, want := string(served[0].Body), string(body)
	cut := func(s string) (string, string) {
		i := strings.Index(s, "<diffgr:diffgram")
		if i < 0 {
			t.Fatalf("no diffgram in %s", s)
		}
		return s[:i], s[i:]
	}
	gotSchemas, gotRows := cut(got)
	wantSchemas, _ := cut(want)
	if gotSchemas != wantSchemas {
		t.Errorf("the served schemas:\n%s\nwant Mono's\n%s", gotSchemas, wantSchemas)
	}
	if s, l := strings.Index(gotRows, "<Source "), strings.Index(gotRows, "<Lender "); s < 0 || l < 0 || s > l {
		t.Errorf("the served rows: Source at %d, Lender at %d; want the Source row first:\n%s", s, l, gotRows)
	}
}

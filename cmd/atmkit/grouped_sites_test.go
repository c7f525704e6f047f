package main

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/shape"
)

// TestGroupedSites: the two sites of the reference deployment whose
// searches group their locations by institution (refdeploy.Grouped, a
// typed ArrayOfBank/Bank{…, Atms/Atm}; refdeploy.GroupSets, DataSets of a
// Bank and an Atm table related by the bank's key, nested and not;
// refdeploy.GroupSetsFlat, the searches' not nested either, their Atm
// rows bank by bank). atmkit
// conform passes each, every spec but the shape specs (reading each
// location's institution from its bank). Recorded with atmkit record,
// each is learned by atmkit shape learn, the grouped site as a locations
// list grouped by institution (group: institution), the groupsets site as
// DataSets whose Bank table holds the groups (rows: groups; the
// groupsetsflat site's searches' Atm table rowOrder: groups), and served by
// atmkit serve --shape (groupedServedRead); the groupsets site used to be
// refused (exit 1, "locations grouped"), the groupsetsflat site to fail
// with a bug of the learner's (exit 1, "the learned shape is not valid"). atmkit serve --replay of each
// recording (conform's calls recorded too) passes conform with the counts
// of conform through the recorder.
func TestGroupedSites(t *testing.T) {
	t.Parallel()
	d := refdeploy.Shared(t)
	for _, site := range []refdeploy.Site{refdeploy.Grouped, refdeploy.GroupSets, refdeploy.GroupSetsFlat} {
		t.Run(site.Name, func(t *testing.T) {
			t.Parallel()
			d.Warm(site)
			dir := t.TempDir()
			base := d.SiteURL(site.Name)
			conformPasses(t, dir, "the site", base, site.Key, "")

			cassette := filepath.Join(dir, "rec")
			proxy, stop := startCommand(t, "record", "--upstream", base, "--cassette", cassette, "--addr", "127.0.0.1:0", "--progress", "0")
			refdeploy.Collect(t, proxy, site.Namespace, site.Key, siteCalls(site))
			refdeploy.WSDL(t, proxy)
			proxyCode, proxyOut := runConformProcess(t, "--target", proxy, "--key", site.Key, "--no-color")
			stop()
			learned := filepath.Join(dir, "learned.yaml")
			code, out, errOut := runAtmkitWithin(deploymentWithin, nil, "shape", "learn", "--wsdl", base+asmx.ServicePath, "--cassette", cassette+".yaml", "--out", learned)
			if code != 0 {
				t.Fatalf("shape learn: exit %d\n%s\n%s", code, out, errOut)
			}
			groupedServedRead(t, site, learned)

			// What is left to serve such a deployment: its recording.
			mock, _ := startCommand(t, "serve", "--addr", "127.0.0.1:0", "--replay", cassette+".yaml", "--namespace", site.Namespace, "--key", site.Key)
			mockCode, mockOut := runConformProcess(t, "--target", mock, "--key", site.Key, "--no-color")
			if proxyCode != 0 || mockCode != 0 || summary(proxyOut) != summary(mockOut) {
				t.Errorf("conform: through the recorder exit %d, the replaying mock %d, want 0 and the same counts\nrecorder:\n%s\nmock:\n%s", proxyCode, mockCode, tail(proxyOut, 3000), tail(mockOut, 5000))
			}
		})
	}
}

// groupedServedRead serves the shape learned from a grouped site
// (learned) over the embedded data set with atmkit serve --shape and
// checks: the learned shape groups the locations (group: institution, or
// a DataSet's table of rows: groups); the mock's WSDL types are the
// site's; atmkit conform --shape passes the site and the mock; and a .NET
// client whose proxy Mono's wsdl tool generated from the site's WSDL
// reads the mock's answers in both SOAP versions: every location of each
// search (ReturnAllAtms' 2,000 among them, written in pieces) with its
// values and its bank's (the institution's), the typed site's banks in
// the order of their first location in the search and each bank's ATMs
// in the search's order, the groupsets site's ATMs in the search's order
// (the Atm table's, nested in their banks' rows or not), the
// groupsetsflat site's searches' bank by bank (rowOrder: groups), and the
// institutions and provinces.
func groupedServedRead(t *testing.T, site refdeploy.Site, learned string) {
	t.Helper()
	sh, err := shape.Load(learned)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{asmx.OpReturnAtmSearchByCity, asmx.OpReturnAtmSearchByCoordinates} {
		r := sh.Result(op)
		switch {
		case r == nil:
			t.Fatalf("the learned shape has no result of %s", op)
		case r.DataSet != nil && r.DataSet.GroupTable() == nil,
			r.DataSet == nil && (len(r.Fields) != 1 || r.Fields[0].Group != shape.GroupInstitution):
			t.Fatalf("the learned shape does not group the locations:\n%s", shape.Marshal(sh, ""))
		case op == asmx.OpReturnAtmSearchByCoordinates && (site == refdeploy.GroupSetsFlat) != (r.DataSet != nil && r.DataSet.ContentTable().RowOrder == shape.RowOrderGroups):
			t.Fatalf("the learned shape's %s: rowOrder groups only for the groupsetsflat site's:\n%s", op, shape.Marshal(sh, ""))
		}
	}
	const key = "mock-key"
	base, ns := refdeploy.Shared(t).SiteURL(site.Name), site.Namespace
	mock, _ := startCommand(t, "serve", "--addr", "127.0.0.1:0", "--shape", learned, "--namespace", ns, "--key", key)
	gotTypes, err := mocktest.WSDLTypes(refdeploy.WSDL(t, mock))
	if err != nil {
		t.Fatal(err)
	}
	wantTypes, err := mocktest.WSDLTypes(refdeploy.WSDL(t, base))
	if err != nil {
		t.Fatal(err)
	}
	if gotTypes != wantTypes {
		t.Errorf("the mock's WSDL types:\n%s\nwant the site's:\n%s", gotTypes, wantTypes)
	}
	dir := t.TempDir()
	conformPasses(t, dir, "the site", base, site.Key, learned)
	conformPasses(t, dir, "the mock", mock, key, learned)

	ds, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	exe := refdeploy.BuildClient(t, base+asmx.ServicePath+"?WSDL", "testdata/dotnet/Client.cs")
	calls, want := mockCalls(t, mock, ns, key, ds)
	readInBothSOAPs(t, exe, mock, calls, func(call string, i int, op string, result any) {
		read, err := readThrough(sh.Result(op), result)
		if err != nil {
			t.Errorf("%s: %v", call, err)
			return
		}
		w := want[i]
		switch list := w.(type) {
		case []any:
			for _, x := range list {
				delete(x.(map[string]any), "provinceId") // the site's AreaId: generated
			}
		case map[string]any:
			// A DataSet's client reads the Atm table's rows in their
			// table's order (msdata:rowOrder): the search's, or bank by
			// bank (rowOrder: groups).
			d := sh.Result(op).DataSet
			w = inGroups(list, d == nil || d.ContentTable().RowOrder == shape.RowOrderGroups)
		}
		if !reflect.DeepEqual(read, w) {
			t.Errorf("%s: the client read\n%v\nwant\n%v", call, read, w)
		}
	})
}

// inGroups is doc, a locations answer in the document's JSON form, as the
// grouped sites write it: with no index, count or search point (the sites
// have none), its locations in the order of their banks (each
// institution's together, the institutions in the order of their first
// location) when regroup, else in the search's order (a DataSet's Atm
// table, whose rows a client reads in their table's order).
func inGroups(doc map[string]any, regroup bool) map[string]any {
	locs, _ := doc["locations"].([]any)
	var order []string
	by := map[string][]any{}
	for _, l := range locs {
		m := l.(map[string]any)
		delete(m, "index")
		id := fmt.Sprint(m["institution"].(map[string]any)["id"])
		if _, ok := by[id]; !ok {
			order = append(order, id)
		}
		by[id] = append(by[id], m)
	}
	var out []any
	for _, id := range order {
		out = append(out, by[id]...)
	}
	if !regroup {
		out = locs
	}
	return map[string]any{"count": nil, "coordinates": nil, "locations": out}
}

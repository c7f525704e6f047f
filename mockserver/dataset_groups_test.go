package mockserver_test

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// TestGroupedDataSetRows serves the groupsets site's shape (shape/testdata/
// groupsets.yaml: DataSets of a Bank table of rows: groups and an Atm
// table related to it by the bank's Id, nested in DataSet Nearby, not in
// Branches, a Lang table nested in the Atm table by a hidden key) over the
// embedded data set, with a generated value (Seq) in each bank's row, and
// reads its answers in the four XML bindings: ReturnAllAtms (Nearby,
// 2,000 ATMs, written in pieces), a search by coordinates (Nearby) whose
// JSON answer gives the search's order, a search by institution and one
// by the city of the most institutions (Branches), the Bank table in each
// groupOrder. Each answer holds one
// Bank row per institution of the search, in the table's group order (of
// its first ATM, by id, by name compared ordinally: diffgr:id Bank1 and up,
// msdata:rowOrder from 0), its Id and Name the institution's, its Seq the
// institution's position in the data set's list; an Atm row per ATM,
// numbered in the search's order (diffgr:id, msdata:rowOrder and the
// hidden key), its BankId its bank's Id: nested, inside its bank's row,
// each bank's in the search's order; not nested, after the banks' rows,
// in the search's order; and its languages' Lang rows, numbered on in the
// search's order, their hidden key the ATM's. Nearby served not nested
// with the Atm table's rowOrder: groups, its Atm rows follow the banks'
// bank by bank (each bank's in the search's order), numbered in that
// order, the Lang rows too.
func TestGroupedDataSetRows(t *testing.T) {
	t.Parallel()
	const ns = "http://groupsets.atmref.example.org/atmService"
	srvs := map[string]*httptest.Server{}
	for _, by := range shape.GroupOrders {
		for _, bankByBank := range []bool{false, true} {
			sh, err := shape.Load(filepath.Join("..", "shape", "testdata", "groupsets.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			for _, op := range []string{asmx.OpReturnAllAtms, asmx.OpReturnAtmSearchByInstitution} { // Nearby's, Branches'
				d := sh.Result(op).DataSet
				bank := d.TableNamed("Bank")
				bank.Columns = append(bank.Columns, &shape.Column{Name: "Seq", Type: "int", Generated: true})
				bank.GroupOrder = by
				if bankByBank && op == asmx.OpReturnAllAtms {
					atm := d.TableNamed("Atm")
					d.ParentOf(atm).Nested, atm.RowOrder = false, shape.RowOrderGroups
				}
			}
			srvs[by+map[bool]string{true: "/bank by bank"}[bankByBank]] = serveShape(t, sh, ns)
		}
	}
	ds, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	seq, names := map[int]string{}, map[int]string{}
	for i, in := range ds.Institutions {
		seq[in.ID], names[in.ID] = strconv.Itoa(i+1), in.Name
	}
	instOf, langsOf := map[int]int{}, map[int][]string{}
	var all, byInst []int
	for _, a := range ds.ATMs {
		instOf[a.ID], langsOf[a.ID] = a.InstitutionID, a.Languages
		all = append(all, a.ID)
	}
	slices.Sort(all)
	cityOf, instsOf := map[int]int{}, map[int]map[int]bool{}
	for _, a := range ds.ATMs {
		cityOf[a.ID] = a.CityID
		if instsOf[a.CityID] == nil {
			instsOf[a.CityID] = map[int]bool{}
		}
		instsOf[a.CityID][a.InstitutionID] = true
	}
	city := 0 // the city of the most institutions: Branches of several banks
	for c, in := range instsOf {
		if len(in) > len(instsOf[city]) || len(in) == len(instsOf[city]) && c < city {
			city = c
		}
	}
	var byCity []int
	for _, id := range all {
		if instOf[id] == ds.Institutions[0].ID {
			byInst = append(byInst, id)
		}
		if cityOf[id] == city {
			byCity = append(byCity, id)
		}
	}
	key := [2]string{"strAtmServiceKey", "k"}
	point := [][2]string{key, {"strPostalCode", ""}, {"dblLatitude", "44.6488"}, {"dblLongitude", "-63.5752"}, {"bytRadius", "30"}}
	status, body := mocktest.Call(t, srvs[shape.GroupByFirst].URL, ns, asmx.JSON.String(), asmx.OpReturnAtmSearchByCoordinates, point)
	var doc struct {
		Locations []struct {
			ID int `json:"id"`
		} `json:"locations"`
	}
	if err := json.Unmarshal(body, &doc); err != nil || status != 200 || len(doc.Locations) < 10 {
		t.Fatalf("JSON: %d %v, %d locations\n%.500s", status, err, len(doc.Locations), body)
	}
	var found []int
	for _, l := range doc.Locations {
		found = append(found, l.ID)
	}
	for _, c := range []struct {
		op     string
		params [][2]string
		search []int // the search's order
		nested bool
	}{
		{asmx.OpReturnAllAtms, [][2]string{key}, all, true},
		{asmx.OpReturnAtmSearchByCoordinates, point, found, true},
		{asmx.OpReturnAtmSearchByInstitution, [][2]string{key, {"intInstitutionID", strconv.Itoa(ds.Institutions[0].ID)}}, byInst, false},
		{asmx.OpReturnAtmSearchByCity, [][2]string{key, {"intCityID", strconv.Itoa(city)}}, byCity, false},
	} {
		first := grouped(c.search, instOf)
		if c.op != asmx.OpReturnAtmSearchByInstitution && len(first) < 2 {
			t.Fatalf("%s: %d groups; want a search of several institutions", c.op, len(first))
		}
		for _, by := range shape.GroupOrders {
			groups := ordered(first, by, instOf, names)
			if c.op != asmx.OpReturnAtmSearchByInstitution && by != shape.GroupByFirst && slices.EqualFunc(groups, first, slices.Equal) {
				t.Fatalf("%s: the groups by %s are in the order of their first ATM: the test tells nothing", c.op, by)
			}
			for _, b := range asmx.XMLBindings {
				status, body := mocktest.Call(t, srvs[by].URL, ns, b.String(), c.op, c.params)
				x := etree.NewDocument()
				if err := x.ReadFromBytes(body); err != nil || status != 200 {
					t.Fatalf("%s over %s: %d %v\n%.500s", c.op, b, status, err, body)
				}
				if err := groupedRows(x, c.search, groups, c.nested, instOf, seq, langsOf); err != nil {
					t.Errorf("%s over %s, groups by %s: %v", c.op, b, by, err)
				}
				if !c.nested {
					continue
				}
				// Nearby not nested, rowOrder: groups: the Atm rows after
				// the banks', bank by bank, numbered in that order.
				status, body = mocktest.Call(t, srvs[by+"/bank by bank"].URL, ns, b.String(), c.op, c.params)
				x = etree.NewDocument()
				if err := x.ReadFromBytes(body); err != nil || status != 200 {
					t.Fatalf("%s over %s, bank by bank: %d %v\n%.500s", c.op, b, status, err, body)
				}
				if err := groupedRows(x, slices.Concat(groups...), groups, false, instOf, seq, langsOf); err != nil {
					t.Errorf("%s over %s, groups by %s, rows bank by bank: %v", c.op, b, by, err)
				}
			}
		}
	}
}

// groupedRows checks the diffgram rows of x, as TestGroupedDataSetRows
// says, for a search of ATMs search (in its order) grouped as groups.
func groupedRows(x *etree.Document, search []int, groups [][]int, nested bool, instOf map[int]int, seq map[int]string, langsOf map[int][]string) error {
	place := map[int]int{}
	for i, id := range search {
		place[id] = i
	}
	text := func(e *etree.Element, tag string) string {
		if k := e.SelectElement(tag); k != nil {
			return k.Text()
		}
		return "<none>"
	}
	banks := x.FindElements("//Bank")
	if len(banks) != len(groups) {
		return fmt.Errorf("%d banks, want %d", len(banks), len(groups))
	}
	var atms []*etree.Element
	for i, bank := range banks {
		id := instOf[groups[i][0]]
		if got := [4]string{bank.SelectAttrValue("diffgr:id", ""), bank.SelectAttrValue("msdata:rowOrder", ""), text(bank, "Id"), text(bank, "Seq")}; got !=
			[4]string{fmt.Sprint("Bank", i+1), strconv.Itoa(i), strconv.Itoa(id), seq[id]} {
			return fmt.Errorf("bank %d: id, row order, Id and Seq %q, want %d's", i, got, id)
		}
		mine := bank.SelectElements("Atm")
		if !nested && len(mine) > 0 {
			return fmt.Errorf("bank %d holds %d Atm rows, not nested", i, len(mine))
		}
		var ids []int
		for _, a := range mine {
			n, _ := strconv.Atoi(text(a, "AtmId"))
			ids = append(ids, n)
		}
		if nested && !slices.Equal(ids, groups[i]) {
			return fmt.Errorf("bank %d holds ATMs %v, want %v", i, ids, groups[i])
		}
		atms = append(atms, mine...)
	}
	if !nested {
		atms = x.FindElements("//Atm")
		var ids []int
		for _, a := range atms {
			n, _ := strconv.Atoi(text(a, "AtmId"))
			ids = append(ids, n)
		}
		if !slices.Equal(ids, search) {
			return fmt.Errorf("the Atm rows are ATMs %v, want the search's %v", ids, search)
		}
	}
	if len(atms) != len(search) {
		return fmt.Errorf("%d Atm rows, want %d", len(atms), len(search))
	}
	langBase := make([]int, len(search)+1)
	for i, id := range search {
		langBase[i+1] = langBase[i] + len(langsOf[id])
	}
	for _, a := range atms {
		id, _ := strconv.Atoi(text(a, "AtmId"))
		r := place[id]
		if got := [4]string{a.SelectAttrValue("diffgr:id", ""), a.SelectAttrValue("msdata:rowOrder", ""), a.SelectAttrValue("msdata:hiddenAtmKey", ""), text(a, "BankId")}; got !=
			[4]string{fmt.Sprint("Atm", r+1), strconv.Itoa(r), strconv.Itoa(r), strconv.Itoa(instOf[id])} {
			return fmt.Errorf("ATM %d, %d in the search: id, row order, key and BankId %q", id, r, got)
		}
		for k, l := range a.SelectElements("Lang") {
			n := langBase[r] + k
			if got := [4]string{l.SelectAttrValue("diffgr:id", ""), l.SelectAttrValue("msdata:rowOrder", ""), l.SelectAttrValue("msdata:hiddenAtmKey", ""), text(l, "Code")}; got !=
				[4]string{fmt.Sprint("Lang", n+1), strconv.Itoa(n), strconv.Itoa(r), langsOf[id][k]} {
				return fmt.Errorf("ATM %d, %d in the search: language %d's id, row order, key and code %q", id, r, k, got)
			}
		}
	}
	return nil
}

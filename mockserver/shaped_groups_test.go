package mockserver_test

import (
	"cmp"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// TestGroupedLocations serves the grouped site's shape (shape/testdata/
// grouped.yaml: ArrayOfBank/Bank{@id, Name, Url, CreditUnion, Atms/Atm})
// over the embedded data set and reads its answers in the four XML
// bindings: ReturnAllAtms (2,000 ATMs, written in pieces, its length
// announced first) and a search by coordinates whose JSON answer lists the
// same ATMs flat. Each answer holds every ATM of the search once, each in
// the group of its institution (the bank's id and name the institution's),
// one group per institution, each group's ATMs in the search's order,
// the groups in the list's groupOrder: of each one's first ATM in the
// search's order (LINQ's GroupBy, as the site answers), by institution id
// and by institution name compared ordinally (over the embedded data set
// "BMO Bank of Montreal" before "Beaubear Credit Union", which a
// culture's order puts after it); a generated value of a group (Seq) is its
// institution's position in the data set's list, 1 to n.
func TestGroupedLocations(t *testing.T) {
	t.Parallel()
	const ns = "http://grouped.atmref.example.org/atmService"
	srvs := map[string]*httptest.Server{}
	for _, by := range shape.GroupOrders {
		sh, err := shape.Load(filepath.Join("..", "shape", "testdata", "grouped.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		// A value the deployment has and atmkit does not, in each group:
		// its institution's position in the data set's list.
		list := sh.Result(asmx.OpReturnAllAtms).Fields[0]
		list.Item.Fields = append(list.Item.Fields, &shape.Field{Element: "Seq", Type: "int", Generated: true})
		list.GroupOrder = by
		srvs[by] = serveShape(t, sh, ns)
	}
	ds, err := fixtures.Default()
	if err != nil {
		t.Fatal(err)
	}
	insts, seq := map[int]string{}, map[int]string{}
	for i, in := range ds.Institutions {
		insts[in.ID], seq[in.ID] = in.Name, strconv.Itoa(i+1)
	}
	instOf := map[int]int{}
	var all []int
	for _, a := range ds.ATMs {
		instOf[a.ID] = a.InstitutionID
		all = append(all, a.ID)
	}
	slices.Sort(all)
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
	}{
		{asmx.OpReturnAllAtms, [][2]string{key}, all},
		{asmx.OpReturnAtmSearchByCoordinates, point, found},
	} {
		first := grouped(c.search, instOf)
		if len(first) < 2 {
			t.Fatalf("%s: %d groups; want a search of several institutions", c.op, len(first))
		}
		for _, by := range shape.GroupOrders {
			want := ordered(first, by, instOf, insts)
			if c.op == asmx.OpReturnAtmSearchByCoordinates && by != shape.GroupByFirst && slices.EqualFunc(want, first, slices.Equal) {
				t.Fatalf("%s: the groups by %s are in the order of their first ATM: the test tells nothing", c.op, by)
			}
			for _, b := range asmx.XMLBindings {
				status, body := mocktest.Call(t, srvs[by].URL, ns, b.String(), c.op, c.params)
				x := etree.NewDocument()
				if err := x.ReadFromBytes(body); err != nil || status != 200 {
					t.Fatalf("%s over %s: %d %v\n%.500s", c.op, b, status, err, body)
				}
				banks := x.FindElements("//Bank")
				if len(banks) != len(want) {
					t.Errorf("%s over %s, groups by %s: %d banks, want %d", c.op, b, by, len(banks), len(want))
					continue
				}
				for i, bank := range banks {
					id, _ := strconv.Atoi(bank.SelectAttrValue("id", ""))
					var atms []int
					for _, a := range bank.FindElements("Atms/Atm/AtmId") {
						n, _ := strconv.Atoi(a.Text())
						atms = append(atms, n)
					}
					name, n := bank.SelectElement("Name"), bank.SelectElement("Seq")
					if id != instOf[want[i][0]] || name == nil || name.Text() != insts[id] || n == nil || n.Text() != seq[id] || !slices.Equal(atms, want[i]) {
						t.Errorf("%s over %s, groups by %s: bank %d is %d (%v, Seq %v) holding %v, want %d (Seq %s) holding %v", c.op, b, by, i, id, name, n, atms, instOf[want[i][0]], seq[instOf[want[i][0]]], want[i])
						break
					}
				}
			}
		}
	}
}

// grouped groups the ATMs ids (in a search's order) by institution: the
// groups in the order of each one's first ATM, each one's in ids' order.
func grouped(ids []int, instOf map[int]int) [][]int {
	var out [][]int
	at := map[int]int{}
	for _, id := range ids {
		g, ok := at[instOf[id]]
		if !ok {
			g = len(out)
			at[instOf[id]] = g
			out = append(out, nil)
		}
		out[g] = append(out[g], id)
	}
	return out
}

// ordered returns groups (of ATM ids, in the order of their first ATM)
// in the order by (a shape.GroupOrders value), as LINQ's OrderBy sorts
// them: stably, by institution id or by name compared ordinally (the data
// set's names are ASCII: byte order is UTF-16 code unit order).
func ordered(groups [][]int, by string, instOf map[int]int, names map[int]string) [][]int {
	out := slices.Clone(groups)
	switch by {
	case shape.GroupByID:
		slices.SortStableFunc(out, func(a, b []int) int { return cmp.Compare(instOf[a[0]], instOf[b[0]]) })
	case shape.GroupByName:
		slices.SortStableFunc(out, func(a, b []int) int { return strings.Compare(names[instOf[a[0]]], names[instOf[b[0]]]) })
	}
	return out
}

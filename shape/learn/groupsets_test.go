package learn_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/learn"
)

// TestLearnGroupedDataSets: the groupsets site of the reference
// deployment (answers and WSDL captured from Mono in testdata/groupsets)
// groups its searches' locations by institution in DataSets of a Bank
// table and an Atm table related to it by the bank's Id, nested (the
// search by coordinates, DataSet Nearby) and not (the search by city,
// DataSet Branches). Learned (the golden testdata/groupsets-learned.yaml):
// the Bank table holds the groups (rows: groups), its columns the
// institution's values (matched with the JSON answer's location first in
// each group), the Atm table the locations, in the relation's child
// column the bank's key; the Branches, which no JSON answer shows, take
// the values of Nearby's columns of the same names. It used to be refused
// (NotModelledError, "locations grouped").
func TestLearnGroupedDataSets(t *testing.T) {
	sh, rep, err := learn.Learn(learn.Input{WSDL: siteWSDL(t, "groupsets"), Samples: siteSamples(t, "groupsets")})
	if err != nil {
		t.Fatalf("learn: %v", err)
	}
	matchGolden(t, filepath.Join("testdata", "groupsets-learned.yaml"), shape.Marshal(sh, "learned from the reference deployment's groupsets site's WSDL and answers"))
	for op, nested := range map[string]bool{shape.OpReturnAtmSearchByCoordinates: true, shape.OpReturnAtmSearchByCity: false} {
		r := sh.Result(op)
		if r == nil || r.DataSet == nil {
			t.Fatalf("%s: no DataSet learned", op)
		}
		d := r.DataSet
		bank, atm := d.TableNamed("Bank"), d.TableNamed("Atm")
		if bank == nil || atm == nil || bank.Rows != shape.RowsGroups || atm.Rows != string(shape.Locations) {
			t.Fatalf("%s: want Bank rows: groups and Atm rows: locations:\n%s", op, shape.Marshal(sh, ""))
		}
		if rel := d.ParentOf(atm); rel == nil || rel.Parent != "Bank" || rel.Nested != nested {
			t.Errorf("%s: Atm's relation %+v, want to Bank, nested %t", op, rel, nested)
		}
		for col, want := range map[string]string{"Id": "institution.id", "Name": "institution.name", "CreditUnion": "institution.isAtlanticCreditUnion"} {
			if c := bank.ColumnNamed(col); c == nil || c.Value != want {
				t.Errorf("%s: Bank/%s holds %+v, want %s", op, col, c, want)
			}
		}
		if c := atm.ColumnNamed("AtmId"); c == nil || c.Value != "id" {
			t.Errorf("%s: Atm/AtmId holds %+v, want id", op, c)
		}
	}
	mapped := strings.Join(rep.Mapped, "\n")
	for _, w := range []string{
		"Nearby: Nearby/Bank ← the groups of the locations by institution",
		"Branches: Branches/Atm/AtmId ← id (as Nearby/Atm/AtmId",
	} {
		if !strings.Contains(mapped, w) {
			t.Errorf("the report does not say %q:\n%s", w, mapped)
		}
	}
}

// swapRows returns body, a DataSet answer, with the contents of its i-th
// and j-th rows of table (from 0; each row's element keeps its
// diffgr:id and msdata:rowOrder, its place in its table) swapped, the
// rows nested in them with them: the rows of a deployment that adds them
// in another order.
func swapRows(t *testing.T, body, table string, i, j int) string {
	t.Helper()
	type span struct{ from, to int } // a row's contents
	var rows []span
	for at := 0; ; {
		k := strings.Index(body[at:], "<"+table+" ")
		if k < 0 {
			break
		}
		from := at + k + strings.Index(body[at+k:], ">") + 1
		to := from + strings.Index(body[from:], "</"+table+">")
		rows = append(rows, span{from, to})
		at = to
	}
	if i >= len(rows) || j >= len(rows) || i >= j {
		t.Fatalf("rows %d and %d of %s: the answer holds %d", i, j, table, len(rows))
	}
	a, b := rows[i], rows[j]
	return body[:a.from] + body[b.from:b.to] + body[a.to:b.from] + body[a.from:a.to] + body[b.to:]
}

// TestLearnDataSetGroupOrder: the groupsets site's answers with Bank rows
// added in another order (swapRows: each keeps its place in the table,
// its ATMs' rows theirs) are learned with the order of groups they are in
// (groupOrder on the Bank table), the banks told apart by the columns
// mapped to the institution's id and name: the search by city's four
// banks by name ("Northern Savings" before "Tidewater Credit Union", whose
// id is less), the nested search by coordinates's two by id (a guess:
// they are by name too); an order none of the modelled ones gives (the
// city's first two banks swapped) is refused, naming the answer and the
// banks in its order. Bank rows whose place in their table is not their
// place in the answer, which DataSet.WriteXml does not write, are
// refused.
func TestLearnDataSetGroupOrder(t *testing.T) {
	for _, c := range []struct {
		where      string
		i, j       int
		wantShape  string // in the shape learned
		wantGuess  string // in the report's guesses
		wantRefuse string // in NotModelledError.GroupOrder instead
	}{
		{"city-get.xml", 2, 3, "        - table: Bank\n          rows: groups\n          groupOrder: institution.name\n", "", ""},
		{"coords1-get.xml", 0, 1, "        - table: Bank\n          rows: groups\n          groupOrder: institution.id\n",
			"Nearby/Bank: groupOrder institution.id (the groups of every answer are in that order, and in the order institution.name too", ""},
		{"city-get.xml", 0, 1, "", "", "city-get.xml: groups of institutions 200 (Maritime Trust), 100 (Harbour Bank), 300 (Tidewater Credit Union), 400 (Northern Savings), in none of the orders a shape models (first, institution.id, institution.name)"},
		{"city-get.xml", -1, -1, "", "", "city-get.xml: rows of Bank numbered in another order than written (msdata:rowOrder)"},
	} {
		t.Run(fmt.Sprintf("%s %d %d", c.where, c.i, c.j), func(t *testing.T) {
			samples := siteSamples(t, "groupsets")
			swapped := 0
			for k, s := range samples {
				if s.Where != c.where {
					continue
				}
				if c.i < 0 {
					samples[k].Body = []byte(strings.Replace(string(s.Body), `<Bank diffgr:id="Bank1" msdata:rowOrder="0">`, `<Bank diffgr:id="Bank1" msdata:rowOrder="4">`, 1))
				} else {
					samples[k].Body = []byte(swapRows(t, string(s.Body), "Bank", c.i, c.j))
				}
				swapped++
			}
			if swapped != 1 {
				t.Fatalf("%d answers changed, want 1", swapped)
			}
			sh, rep, err := learn.Learn(learn.Input{WSDL: siteWSDL(t, "groupsets"), Samples: samples})
			if c.wantRefuse != "" {
				var nm *learn.NotModelledError
				if !errors.As(err, &nm) || sh != nil {
					t.Fatalf("got %v, want a NotModelledError and no shape", err)
				}
				if got := strings.Join(nm.GroupOrder, "\n"); !strings.Contains(got, c.wantRefuse) {
					t.Errorf("GroupOrder %q, want %q", got, c.wantRefuse)
				}
				if len(nm.Grouped) > 0 || len(nm.Lists) > 0 {
					t.Errorf("refused groups %q and lists %q besides the order", nm.Grouped, nm.Lists)
				}
				return
			}
			if err != nil {
				t.Fatalf("learn: %v", err)
			}
			if y := string(shape.Marshal(sh, "")); strings.Count(y, "groupOrder:") != 1 || !strings.Contains(y, c.wantShape) {
				t.Errorf("the learned shape lacks %q (once the one groupOrder):\n%s", c.wantShape, y)
			}
			if got := strings.Join(rep.Guessed, "\n"); c.wantGuess != "" && !strings.Contains(got, c.wantGuess) {
				t.Errorf("the guesses %q lack %q", got, c.wantGuess)
			}
		})
	}
}

// TestLearnDataSetRowsBankByBank: the groupsetsflat site of the reference
// deployment (the groupsets site's code with the searches' relation not
// nested; its search by coordinates captured from Mono in
// testdata/groupsetsflat, GET and JSON, its other answers and WSDL the
// groupsets site's, which the two sites write alike) writes a search's
// ATM rows after the banks', bank by bank, each naming its bank by its
// BankId alone, where the search (the JSON answer) found them in
// another order. Learned: the Atm rows paired with the JSON answer's
// locations by id (the AtmId column), the Atm table's rowOrder groups,
// the Bank table's columns the institution's, the Branches (the lists,
// in the search's order) with no rowOrder. It used to pair the rows with
// the JSON answer's locations by place, match two columns, and report a
// bug of its own (the learned shape not valid: Bank/Id, the key the ATM
// rows hold, left generated). Rows bank by bank that no column pairs
// with the JSON answer's locations by id (the JSON answer's ids changed)
// are refused (NotModelledError.RowOrder), naming the answer. The
// mock's answers over the site's store are compared byte for byte with
// the site's by TestDifferentialLearnedSites/groupsetsflat.
func TestLearnDataSetRowsBankByBank(t *testing.T) {
	sh, rep, err := learn.Learn(learn.Input{WSDL: siteWSDL(t, "groupsetsflat"), Samples: siteSamples(t, "groupsetsflat")})
	if err != nil {
		t.Fatalf("learn: %v", err)
	}
	for op, want := range map[string]string{shape.OpReturnAtmSearchByCoordinates: shape.RowOrderGroups, shape.OpReturnAtmSearchByCity: ""} {
		d := sh.Result(op).DataSet
		bank, atm := d.TableNamed("Bank"), d.TableNamed("Atm")
		if bank == nil || atm == nil || bank.Rows != shape.RowsGroups || atm.Rows != string(shape.Locations) || atm.RowOrder != want {
			t.Fatalf("%s: want Bank rows: groups and Atm rows: locations, rowOrder %q:\n%s", op, want, shape.Marshal(sh, ""))
		}
		for col, want := range map[string]string{"Id": "institution.id", "Name": "institution.name", "CreditUnion": "institution.isAtlanticCreditUnion"} {
			if c := bank.ColumnNamed(col); c == nil || c.Value != want {
				t.Errorf("%s: Bank/%s holds %+v, want %s", op, col, c, want)
			}
		}
		for col, want := range map[string]string{"AtmId": "id", "Identifier": "atmIdentifier", "Street": "address.streetAddress", "Hours": "features.hours"} {
			if c := atm.ColumnNamed(col); c == nil || c.Value != want {
				t.Errorf("%s: Atm/%s holds %+v, want %s", op, col, c, want)
			}
		}
	}
	back, err := shape.Parse(shape.Marshal(sh, ""))
	if err != nil {
		t.Fatalf("the learned shape, marshaled, does not parse: %v", err)
	}
	if got := back.Result(shape.OpReturnAtmSearchByCoordinates).DataSet.TableNamed("Atm").RowOrder; got != shape.RowOrderGroups {
		t.Errorf("the learned shape, marshaled and parsed: Atm rowOrder %q, want groups", got)
	}
	if mapped := strings.Join(rep.Mapped, "\n"); !strings.Contains(mapped, "Nearby: Nearby/Atm rowOrder groups (its rows bank by bank, paired with the JSON answers' locations, in the search's order, by id in 1 compared)") {
		t.Errorf("the report does not say the rows' order:\n%s", mapped)
	}

	samples := siteSamples(t, "groupsetsflat")
	for k, s := range samples {
		if s.Where == "coords1-json.json" {
			samples[k].Body = []byte(strings.ReplaceAll(string(s.Body), `"id":50`, `"id":90`))
		}
	}
	sh, _, err = learn.Learn(learn.Input{WSDL: siteWSDL(t, "groupsetsflat"), Samples: samples})
	var nm *learn.NotModelledError
	if !errors.As(err, &nm) || sh != nil {
		t.Fatalf("ids changed: got %v, want a NotModelledError and no shape", err)
	}
	want := "coords1-get.xml: rows of Atm bank by bank (each group's together, in the order of the rows of Bank), where the JSON answer's locations are not grouped (the search's order), and no column of Atm holds the JSON locations' ids to pair them by"
	if got := strings.Join(nm.RowOrder, "\n"); got != want {
		t.Errorf("RowOrder %q, want %q", got, want)
	}
	if len(nm.Grouped) > 0 || len(nm.Lists) > 0 || len(nm.GroupOrder) > 0 || len(nm.Derived) > 0 {
		t.Errorf("refused besides the rows' order: %+v", nm)
	}
	if msg := err.Error(); !strings.Contains(msg, "locations' rows in their groups' order, not the search's") || strings.Contains(msg, "a bug in atmkit") {
		t.Errorf("the error does not name what is not modelled: %s", msg)
	}
}

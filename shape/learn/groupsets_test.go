package learn_test

import (
	"errors"
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

// TestLearnRefusesDataSetGroupsInAnotherOrder: the groupsets site's
// answers with their first two Bank rows swapped (each with its ATMs in
// the nested search by coordinates; the banks' rows alone in the search
// by city), as a deployment ordering its banks by name or id would write
// them, are refused, naming the answer: the mock writes the groups in the
// order of their first location in the search, and would serve other
// answers than such a deployment.
func TestLearnRefusesDataSetGroupsInAnotherOrder(t *testing.T) {
	for _, where := range []string{"coords1-get.xml", "city-get.xml"} {
		t.Run(where, func(t *testing.T) {
			samples := siteSamples(t, "groupsets")
			swapped := 0
			for i, s := range samples {
				if s.Where != where {
					continue
				}
				body := string(s.Body)
				first := strings.Index(body, "<Bank ")
				between := strings.Index(body, "</Bank>") + len("</Bank>")
				second := strings.Index(body[between:], "<Bank ") + between
				end := strings.Index(body[second:], "</Bank>") + second + len("</Bank>")
				if first < 0 || between <= first || second < between || end <= second {
					t.Fatalf("%s: two banks not found", where)
				}
				samples[i].Body = []byte(body[:first] + body[second:end] + body[between:second] + body[first:between] + body[end:])
				swapped++
			}
			if swapped != 1 {
				t.Fatalf("%d answers swapped, want 1", swapped)
			}
			sh, _, err := learn.Learn(learn.Input{WSDL: siteWSDL(t, "groupsets"), Samples: samples})
			var nm *learn.NotModelledError
			if !errors.As(err, &nm) || sh != nil {
				t.Fatalf("got %v, want a NotModelledError and no shape", err)
			}
			if got := strings.Join(nm.GroupOrder, "\n"); !strings.Contains(got, where+": rows of Bank in another order than one per institution in the order of its first location in Atm") {
				t.Errorf("GroupOrder %q does not name the answer", got)
			}
			if len(nm.Grouped) > 0 || len(nm.Lists) > 0 {
				t.Errorf("refused groups %q and lists %q besides the order", nm.Grouped, nm.Lists)
			}
		})
	}
}

package learn

import (
	"strings"
	"testing"
)

// TestDecideGroupOrder decides the order of groups of answers whose
// groups' keys (their first location's place, institution id and name)
// are given in the answers' order: the one order of shape.GroupOrders
// every answer fits, the default first where several do; a name compared
// ordinally (by UTF-16 code unit: "BMO" before "Beaubear", and U+FF21
// before U+1F600, which UTF-8's byte order puts after it); refused, an
// order none gives, named where it is descending or a culture's.
func TestDecideGroupOrder(t *testing.T) {
	k := func(first int, id, name string) groupKey {
		return groupKey{first: first, id: id, name: name, hasID: true, hasName: true}
	}
	// Each order of these three is another.
	pat, bmo, beau := k(0, "9", "Patriot"), k(1, "4", "BMO Bank of Montreal"), k(2, "24", "Beaubear Credit Union")
	astral, fullA := k(1, "2", "\U0001F600 Bank"), k(0, "1", "\uFF21 Bank")
	for _, c := range []struct {
		name  string
		keys  [][]groupKey
		want  string
		also  string
		refus string
	}{
		{"by first location", [][]groupKey{{pat, bmo, beau}}, "first", "", ""},
		{"by id", [][]groupKey{{bmo, pat, beau}}, "institution.id", "", ""},
		{"by name, ordinally", [][]groupKey{{bmo, beau, pat}, {bmo, beau}}, "institution.name", "", ""},
		{"by name, in UTF-16 order", [][]groupKey{{astral, fullA}}, "institution.name", "", ""},
		{"one group each", [][]groupKey{{bmo}, {pat}}, "first", "institution.id institution.name", ""},
		{"two orders", [][]groupKey{{pat, bmo, beau}, {bmo, pat, beau}}, "", "", "b: groups of institutions 4 (BMO Bank of Montreal), 9 (Patriot), 24 (Beaubear Credit Union), in the order institution.id, where the other answers' are in the order first"},
		{"by name in a culture's order", [][]groupKey{{beau, bmo, pat}}, "", "", "a: groups of institutions 24 (Beaubear Credit Union), 4 (BMO Bank of Montreal), 9 (Patriot), by institution.name in a culture's order"},
		{"by id descending", [][]groupKey{{beau, pat, bmo}}, "", "", "a: groups of institutions 24 (Beaubear Credit Union), 9 (Patriot), 4 (BMO Bank of Montreal), by institution.id descending, which a shape does not model"},
	} {
		var answers []groupOrderOf
		for i, ks := range c.keys {
			answers = append(answers, groupOrderOf{where: string(rune('a' + i)), keys: ks})
		}
		order, also, refused := decideGroupOrder(answers)
		if order != c.want || strings.Join(also, " ") != c.also || c.refus == "" && len(refused) > 0 || c.refus != "" && !strings.Contains(strings.Join(refused, "\n"), c.refus) {
			t.Errorf("%s: order %q, also %q, refused %q; want %q, %q, %q", c.name, order, also, refused, c.want, c.also, c.refus)
		}
	}
}

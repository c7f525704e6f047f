package learn

// This file learns the order of a grouped result's groups (shape
// GroupOrder): each answer's groups, told apart by their institution's
// values, are compared with the orders a deployment plausibly writes
// them in (shape.GroupOrders: of their first location, as LINQ's GroupBy
// leaves them; by institution id; by institution name compared
// ordinally), and the one every answer fits is learned. An order none of
// them gives is refused, named where it is one atmkit recognizes but
// does not model (descending, a name in a culture's order).

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/atmkit/atmkit/shape"
)

// groupKey is what orders one group of an answer: the place of its first
// location in the search's order, and its institution's id and name as
// the answer shows them (hasID, hasName: whether it does).
type groupKey struct {
	first          int
	id, name       string
	hasID, hasName bool
}

// groupOrderOf is one answer's evidence of the order of its groups: the
// answer (where), its groups' keys in the order it writes them, or,
// where its groups cannot be told apart, the modelled orders whose groups'
// sizes are the answer's (bySize).
type groupOrderOf struct {
	where  string
	keys   []groupKey
	bySize []string
}

// unmodelledOrders are orders a deployment may write its groups in that
// a shape does not model, named when an answer's groups come in one.
var unmodelledOrders = []string{"institution.id descending", "institution.name descending", "institution.name in a culture's order (case-insensitive, as .NET's default string comparison or a SQL collation compares names)"}

// sortKeys returns the positions of keys (an answer's groups) in order
// by (a shape.GroupOrders or unmodelledOrders value), as LINQ's OrderBy
// sorts the groups GroupBy leaves in the order of their first location:
// stably; false when a group's key for by is unknown.
func sortKeys(keys []groupKey, by string) ([]int, bool) {
	seq := make([]int, len(keys))
	for i := range seq {
		seq[i] = i
	}
	slices.SortStableFunc(seq, func(a, b int) int { return cmp.Compare(keys[a].first, keys[b].first) })
	var c func(a, b groupKey) int
	switch by {
	case shape.GroupByFirst:
		return seq, true
	case shape.GroupByID, unmodelledOrders[0]:
		c = func(a, b groupKey) int { return compareIDs(a.id, b.id) }
	case shape.GroupByName, unmodelledOrders[1]:
		c = func(a, b groupKey) int {
			return slices.Compare(utf16.Encode([]rune(a.name)), utf16.Encode([]rune(b.name)))
		}
	default:
		c = func(a, b groupKey) int { return strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)) }
	}
	for _, k := range keys {
		if strings.HasPrefix(by, "institution.id") && !k.hasID || strings.HasPrefix(by, "institution.name") && !k.hasName {
			return nil, false
		}
	}
	desc := strings.HasSuffix(by, " descending")
	slices.SortStableFunc(seq, func(a, b int) int {
		if desc {
			return c(keys[b], keys[a])
		}
		return c(keys[a], keys[b])
	})
	return seq, true
}

// compareIDs compares two institution ids as numbers (as strings when
// either is none).
func compareIDs(a, b string) int {
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	if errA != nil || errB != nil {
		return strings.Compare(a, b)
	}
	return cmp.Compare(x, y)
}

// fits reports the orders (of shape.GroupOrders, then of
// unmodelledOrders) that put o's groups in the order its answer writes
// them; every order fits an answer of fewer than two groups.
func (o groupOrderOf) fits(orders []string) []string {
	if o.keys == nil {
		return slices.DeleteFunc(slices.Clone(orders), func(by string) bool { return !slices.Contains(o.bySize, by) })
	}
	var out []string
	for _, by := range orders {
		seq, ok := sortKeys(o.keys, by)
		if ok && slices.IsSorted(seq) || len(o.keys) < 2 {
			out = append(out, by)
		}
	}
	return out
}

// describe names o's groups in their answer's order, for a refusal.
func (o groupOrderOf) describe() string {
	if o.keys == nil {
		return "groups of institutions the answer does not tell apart"
	}
	var ks []string
	for _, k := range o.keys {
		switch {
		case k.hasName && k.hasID:
			ks = append(ks, fmt.Sprintf("%s (%s)", k.id, k.name))
		case k.hasID:
			ks = append(ks, k.id)
		default:
			ks = append(ks, strconv.Quote(k.name))
		}
	}
	return "groups of institutions " + strings.Join(ks, ", ")
}

// decideGroupOrder returns the order of groups (of shape.GroupOrders) that
// every answer of answers fits, the first of them when several do, with
// the others that fit too (the answers cannot tell them apart); or ""
// and a refusal for each answer that does not fit the order most answers
// fit, naming the order it is in where an unmodelled one gives it.
func decideGroupOrder(answers []groupOrderOf) (order string, also, refused []string) {
	count := map[string]int{}
	for _, a := range answers {
		for _, by := range a.fits(shape.GroupOrders) {
			count[by]++
		}
	}
	var all []string
	best := shape.GroupByFirst
	for _, by := range shape.GroupOrders {
		if count[by] == len(answers) {
			all = append(all, by)
		}
		if count[by] > count[best] {
			best = by
		}
	}
	if len(all) > 0 {
		return all[0], all[1:], nil
	}
	for _, a := range answers {
		fit := a.fits(shape.GroupOrders)
		if slices.Contains(fit, best) {
			continue
		}
		why := "in none of the orders a shape models (" + strings.Join(shape.GroupOrders, ", ") + ")"
		if len(fit) > 0 {
			why = fmt.Sprintf("in the order %s, where the other answers' are in the order %s", strings.Join(fit, " or "), best)
		} else if other := a.fits(unmodelledOrders); len(other) > 0 {
			why = "by " + other[0] + ", which a shape does not model (" + strings.Join(shape.GroupOrders, ", ") + ")"
		}
		refused = append(refused, fmt.Sprintf("%s: %s, %s", a.where, a.describe(), why))
	}
	return "", nil, refused
}

// learnGroupOrder decides the order of the groups of answers (a grouped
// result's, what), reporting a guess where the answers fit more than
// one order or hold no two groups, and refusing an order none gives
// (l.groupOrder); it returns the order (shape.GroupByFirst when refused).
func (l *learner) learnGroupOrder(what string, answers []groupOrderOf) string {
	order, also, refused := decideGroupOrder(answers)
	l.groupOrder = append(l.groupOrder, refused...)
	switch {
	case order == "":
		return shape.GroupByFirst
	case len(also) > 0 && slices.ContainsFunc(answers, func(a groupOrderOf) bool { return len(a.keys) > 1 || a.keys == nil }):
		l.guess("%s: groupOrder %s (the groups of every answer are in that order, and in the order %s too: the answers cannot tell them apart)", what, order, strings.Join(also, " and "))
	case len(also) > 0:
		l.guess("%s: groupOrder %s, the default (no answer holds two groups)", what, order)
	}
	return order
}

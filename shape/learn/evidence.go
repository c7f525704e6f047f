package learn

// This file weighs the evidence about each value of atmkit's model in each
// result, then settles the values no field holds: a value is omitted only
// when what was read would have shown it (answers that carry it, or the
// WSDL's type) and did not; a value nothing read could have shown is not
// seen, and the shape keeps it in the form atmkit writes by default (the
// built-in shape's element names, shape.Default), reported with the calls
// to record to decide.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/shape"
)

// languages is the sighting value of a location's list of languages.
const languages = "languages"

// sighting is what the learner read about one value of atmkit's model in
// one result: the instances that would carry it (answers for a result's
// own values, items of the content list for an item's) and whether the
// WSDL declares the result's type. Evidence of absence is one of them.
type sighting struct {
	scope shape.Scope
	// value is the value's path in scope (shape.Values), or languages.
	value string
	// carriers counts the instances read that would carry the value: XML
	// answers of operations that write it, or items of the content list.
	carriers int
	// where names the first carrier, for reports.
	where string
	// wsdl is true when the WSDL declares the type that would hold the
	// value: what the type lacks, the deployment does not write.
	wsdl bool
	// record names what to record to see the value.
	record string
}

// seen reports whether what was read would have shown the value.
func (s *sighting) seen() bool { return s.carriers > 0 || s.wsdl }

// weigh lists the sightings of every value a result of g's content can
// hold. It runs after the match steps, which count the items of each
// answer (group.items).
func (l *learner) weigh(g *group) []*sighting {
	top := shape.ScopeOf(g.content)
	itemScope := shape.Lists(top)[string(g.content)]
	wsdl := g.from == "the WSDL" && g.layout == shape.Typed
	var out []*sighting
	for _, v := range shape.Values(top) {
		if v.Derived {
			continue // nothing is omitted when a result does not write it
		}
		ops := g.ops
		if v.Optional {
			ops = slices.DeleteFunc(slices.Clone(g.ops), func(op string) bool { return !shape.WritesSearchPoint(op) })
			if len(ops) == 0 {
				continue // no operation of this result writes it
			}
		}
		s := &sighting{scope: top, value: v.Path, wsdl: wsdl, record: "an XML answer (SOAP or GET/POST) of " + orList(ops)}
		for _, c := range g.contents {
			if slices.Contains(ops, c.sample.Op) {
				s.count(1, c.sample.Where)
			}
		}
		out = append(out, s)
	}
	items := &sighting{}
	for _, c := range g.contents {
		items.count(g.items[c], c.sample.Where)
	}
	record := fmt.Sprintf("an XML answer of %s that lists at least one %s", orList(g.ops), itemScope)
	paths := []string{}
	for _, v := range shape.Values(itemScope) {
		paths = append(paths, v.Path)
	}
	if itemScope == shape.ScopeLocation {
		paths = append(paths, languages)
	}
	for _, p := range paths {
		out = append(out, &sighting{scope: itemScope, value: p, carriers: items.carriers, where: items.where, wsdl: wsdl, record: record})
	}
	return out
}

// count adds n carriers found in where.
func (s *sighting) count(n int, where string) {
	if n > 0 && s.where == "" {
		s.where = where
	}
	s.carriers += n
}

// orList joins operation names: "A", "A or B", "A, B or C"; more than
// three are named by the first.
func orList(ops []string) string {
	switch {
	case len(ops) == 1:
		return ops[0]
	case len(ops) > 3:
		return ops[0] + " (or another operation of this result)"
	}
	return strings.Join(ops[:len(ops)-1], ", ") + " or " + ops[len(ops)-1]
}

// settle decides, for each group and its result r in sh, the values no
// field of r holds: omitted when seen, else kept in atmkit's default form.
func (l *learner) settle(sh *shape.Shape) {
	for i, g := range l.groups {
		if g.def != nil {
			continue // kept whole (keepDefault)
		}
		r := sh.Results[i]
		held := heldValues(r)
		blank := l.blankFields(r)
		var unseen []*sighting
		for _, s := range l.weigh(g) {
			switch {
			case held[s.scope][s.value]:
			case s.seen() && len(blank[s.scope]) > 0 && isString(s):
				// Not evidence of absence: a field always empty in what
				// was read may hold it.
				l.report.NotSeen = append(l.report.NotSeen, fmt.Sprintf("%s: %s %s: not decided: %s, empty in every answer read, may hold it; record %s where it is not empty to decide; written with generated values meanwhile",
					r.Name, s.scope, s.value, strings.Join(blank[s.scope], " or "), s.record))
			case s.seen():
				l.report.Omitted = append(l.report.Omitted, fmt.Sprintf("%s: %s %s: %s", r.Name, s.scope, s.value, s.absence()))
			default:
				unseen = append(unseen, s)
			}
		}
		if r.Layout == shape.Dataset {
			// A DataSet's columns are its schema's: nothing is added; a
			// value no row could show is reported.
			for _, s := range unseen {
				l.report.NotSeen = append(l.report.NotSeen, fmt.Sprintf("%s: %s %s: not seen: record %s to decide which column holds it; its columns are written with generated values meanwhile",
					r.Name, s.scope, s.value, s.record))
			}
			continue
		}
		l.keep(r, g.content, unseen)
	}
}

// isString reports whether the sighting is of a string value, which an
// empty field may hold (a number or a flag is never written empty).
func isString(s *sighting) bool {
	v, ok := shape.LookupValue(s.scope, s.value)
	return ok && v.Kind == shape.KindString
}

// allBlank reports whether values were read and all were empty.
func allBlank(texts []string) bool {
	for _, t := range texts {
		if strings.TrimSpace(t) != "" {
			return false
		}
	}
	return len(texts) > 0
}

// blankFields lists, by scope, the paths of r's generated fields and
// columns whose every value read was empty (learner.blank).
func (l *learner) blankFields(r *shape.Result) map[shape.Scope][]string {
	out := map[shape.Scope][]string{}
	var visit func(fields []*shape.Field, scope shape.Scope)
	visit = func(fields []*shape.Field, scope shape.Scope) {
		for _, f := range fields {
			switch {
			case f.List != "":
				if sc, ok := shape.ItemScope(scope, f); ok && f.Item != nil {
					visit(f.Item.Fields, sc)
				}
			case len(f.Fields) > 0:
				visit(f.Fields, scope)
			default:
				if at, ok := l.blank[f]; ok {
					out[scope] = append(out[scope], at)
				}
			}
		}
	}
	visit(r.Fields, shape.ScopeOf(r.Content()))
	if r.Layout == shape.Dataset && r.DataSet != nil {
		for _, t := range r.DataSet.Tables {
			scope := r.DataSet.RowScope(t, r.Content())
			for _, c := range t.Columns {
				if at, ok := l.blank[c]; ok {
					out[scope] = append(out[scope], at)
				}
			}
		}
	}
	return out
}

// absence says why a seen value is taken for omitted.
func (s *sighting) absence() string {
	what := "answers"
	switch {
	case s.carriers == 0:
		return "the WSDL's type has no field for it"
	case s.scope == shape.ScopeLocation || s.scope == shape.ScopeInstitution || s.scope == shape.ScopeProvince:
		what = string(s.scope) + "s"
		if s.scope == shape.ScopeProvince {
			what = "provinces"
		}
	case s.carriers == 1:
		what = "answer"
	}
	return fmt.Sprintf("no field holds it in the %d %s read (%s first)", s.carriers, what, s.where)
}

// heldValues lists the values the fields of r hold, by scope; a location's
// languages list is the value languages.
func heldValues(r *shape.Result) map[shape.Scope]map[string]bool {
	held := map[shape.Scope]map[string]bool{}
	var visit func(fields []*shape.Field, scope shape.Scope)
	visit = func(fields []*shape.Field, scope shape.Scope) {
		if held[scope] == nil {
			held[scope] = map[string]bool{}
		}
		for _, f := range fields {
			switch {
			case f.List == languages && scope == shape.ScopeLocation:
				held[scope][languages] = true
			case f.List != "":
				if sc, ok := shape.ItemScope(scope, f); ok && f.Item != nil {
					visit(f.Item.Fields, sc)
				}
			case len(f.Fields) > 0:
				visit(f.Fields, scope)
			case f.Value != "":
				held[scope][f.Value] = true
			}
		}
	}
	visit(r.Fields, shape.ScopeOf(r.Content()))
	for v := range held[shape.ScopeGroup] {
		// A group's values are its locations' institution's.
		if held[shape.ScopeLocation] == nil {
			held[shape.ScopeLocation] = map[string]bool{}
		}
		held[shape.ScopeLocation][v] = true
	}
	if r.Layout == shape.Dataset && r.DataSet != nil {
		for _, t := range r.DataSet.Tables {
			scope := r.DataSet.RowScope(t, r.Content())
			if held[scope] == nil {
				held[scope] = map[string]bool{}
			}
			if scope == shape.ScopeLanguage {
				held[shape.ScopeLocation][languages] = true
			}
			for _, c := range t.Columns {
				if c.Value != "" {
					held[scope][c.Value] = true
				}
			}
		}
	}
	return held
}

// keep adds to r the values nothing read could show, as atmkit's built-in
// shape writes them, and reports each kept field with the calls to record.
// A scope whose fields r lacks altogether (the content list when no item
// was seen) is kept whole.
func (l *learner) keep(r *shape.Result, content shape.Content, unseen []*sighting) {
	if len(unseen) == 0 {
		return
	}
	def := defaultResult(content)
	top := shape.ScopeOf(content)
	itemScope := shape.Lists(top)[string(content)]
	byScope := map[shape.Scope][]*sighting{}
	for _, s := range unseen {
		byScope[s.scope] = append(byScope[s.scope], s)
	}
	level := &r.Fields
	if ss := byScope[itemScope]; len(ss) > 0 {
		if lf := listField(r.Fields, string(content)); lf != nil {
			l.keepIn(r, &lf.Item.Fields, listField(def.Fields, string(content)).Item.Fields, r.Root+"/"+lf.Item.Element, ss)
		} else {
			// No item was seen: the whole list, as atmkit writes it. An
			// element of the list's name, empty in every answer read, is
			// that list, empty (<locations /> of searches that found none).
			dl := listField(def.Fields, string(content))
			l.dropEmptyList(r, level, dl.Name())
			l.insert(r, level, def.Fields, dl, r.Root, ss[:1])
		}
	}
	if ss := byScope[top]; len(ss) > 0 {
		l.keepIn(r, level, def.Fields, r.Root, ss)
	}
}

// dropEmptyList removes from level the generated field named name whose
// every value read was empty, and its line of the report's unmapped: the
// empty list of that name, which keep puts in its place.
func (l *learner) dropEmptyList(r *shape.Result, level *[]*shape.Field, name string) {
	*level = slices.DeleteFunc(*level, func(f *shape.Field) bool {
		at, blank := l.blank[f]
		if !blank || !f.Generated || f.Name() != name {
			return false
		}
		l.report.Unmapped = slices.DeleteFunc(l.report.Unmapped, func(u string) bool {
			return strings.HasPrefix(u, r.Name+": "+at+" (")
		})
		l.note("%s: %s, empty in every answer read, is taken for the %s list, empty", r.Name, at, name)
		return true
	})
}

// keepIn keeps the values of ss in level (the fields of one scope of r),
// taking their fields from defs, the built-in shape's fields of the scope.
func (l *learner) keepIn(r *shape.Result, level *[]*shape.Field, defs []*shape.Field, at string, ss []*sighting) {
	// Group the values by the built-in shape's field of the scope holding them.
	var tops []*shape.Field
	missing := map[*shape.Field][]*sighting{}
	for _, s := range ss {
		d := holder(defs, s.value)
		if d == nil {
			continue
		}
		if missing[d] == nil {
			tops = append(tops, d)
		}
		missing[d] = append(missing[d], s)
	}
	for _, d := range tops {
		ms := missing[d]
		if len(d.Fields) > 0 && d.List == "" {
			// A container: into the deployment's container of the same
			// object if it has one, else the container with the missing values.
			var kept []*shape.Field
			var keptFor [][]*sighting
			for _, k := range d.Fields {
				if i := slices.IndexFunc(ms, func(s *sighting) bool { return s.value == k.Value }); i >= 0 {
					kept, keptFor = append(kept, k), append(keptFor, ms[i:i+1])
				}
			}
			if c, cat := sameObject(*level, d, at); c != nil {
				for i, k := range kept {
					l.insert(r, &c.Fields, d.Fields, k, cat, keptFor[i])
				}
				continue
			}
			d.Fields = kept
		}
		l.insert(r, level, defs, d, at, ms)
	}
}

// insert puts f, a field of the built-in shape, into level after the
// fields holding values that come before it in defs (the built-in shape's
// fields of the same level), and reports it as kept for ss.
func (l *learner) insert(r *shape.Result, level *[]*shape.Field, defs []*shape.Field, f *shape.Field, at string, ss []*sighting) {
	var values []string
	for _, s := range ss {
		values = append(values, s.value)
	}
	what := fmt.Sprintf("%s: %s %s: not seen", r.Name, ss[0].scope, strings.Join(values, ", "))
	if f.List != "" && f.List != languages {
		what = fmt.Sprintf("%s: the %s list and its items' values: not seen", r.Name, f.List)
	}
	for _, k := range *level {
		if k.Name() != "" && k.Name() == f.Name() {
			l.report.NotSeen = append(l.report.NotSeen, fmt.Sprintf("%s: record %s to decide; not kept: %s/%s is another field", what, ss[0].record, at, k.Name()))
			return
		}
	}
	order := func(x *shape.Field) int {
		for i, d := range defs {
			if sharesValue(d, x) {
				return i
			}
		}
		return -1
	}
	want := order(f)
	pos := 0
	for i, k := range *level {
		if k.Attribute != "" {
			pos = i + 1
			continue
		}
		if o := order(k); o >= 0 && o < want {
			pos = i + 1
		}
	}
	*level = slices.Insert(*level, pos, f)
	after := "first"
	if pos > 0 {
		after = "after " + (*level)[pos-1].Name()
		if (*level)[pos-1].Attribute != "" {
			after = "after the attributes"
		}
	}
	name := f.Name()
	if name == "" {
		name = "(" + f.List + " list)"
	}
	l.report.NotSeen = append(l.report.NotSeen, fmt.Sprintf("%s: record %s to decide; kept meanwhile as atmkit writes it by default: %s/%s, %s",
		what, ss[0].record, at, name, after))
}

// defaultResult is the built-in shape's result of content (a fresh copy).
func defaultResult(content shape.Content) *shape.Result {
	for _, r := range shape.Default().Results {
		if r.Content() == content {
			return r
		}
	}
	panic("learn: the built-in shape has no result of " + string(content))
}

// listField finds the field holding list name among fields and their
// containers (not inside other lists).
func listField(fields []*shape.Field, name string) *shape.Field {
	for _, f := range fields {
		switch {
		case f.List == name:
			return f
		case f.List == "" && len(f.Fields) > 0:
			if lf := listField(f.Fields, name); lf != nil {
				return lf
			}
		}
	}
	return nil
}

// holder is the field of defs holding value (a leaf, a container of it, or
// the list of that name), or nil.
func holder(defs []*shape.Field, value string) *shape.Field {
	for _, d := range defs {
		if d.List == value || d.Value == value && d.IsLeaf() {
			return d
		}
		if d.List == "" && slices.ContainsFunc(d.Fields, func(k *shape.Field) bool { return k.Value == value }) {
			return d
		}
	}
	return nil
}

// sharesValue reports whether fields a and b hold a common value (or the
// same list), below them, not inside lists of values.
func sharesValue(a, b *shape.Field) bool {
	vals := map[string]bool{}
	var collect func(f *shape.Field)
	collect = func(f *shape.Field) {
		switch {
		case f.List != "":
			vals["list "+f.List] = true
		case f.Value != "":
			vals[f.Value] = true
		}
		for _, k := range f.Fields {
			collect(k)
		}
	}
	collect(a)
	found := false
	var check func(f *shape.Field)
	check = func(f *shape.Field) {
		if f.List != "" && vals["list "+f.List] || f.Value != "" && vals[f.Value] {
			found = true
		}
		for _, k := range f.Fields {
			check(k)
		}
	}
	check(b)
	return found
}

// sameObject finds the deployment's container in level (or below it, not
// in lists) holding values of the object d holds in the built-in shape (an
// Address holding address.city for address.landmark), and its path.
func sameObject(level []*shape.Field, d *shape.Field, at string) (*shape.Field, string) {
	for _, f := range level {
		if f.List != "" || len(f.Fields) == 0 {
			continue
		}
		for _, k := range f.Fields {
			if k.IsLeaf() && k.Value != "" && slices.ContainsFunc(d.Fields, func(x *shape.Field) bool { return x.Value == k.Value }) {
				return f, at + "/" + f.Name()
			}
		}
		if c, cat := sameObject(f.Fields, d, at+"/"+f.Name()); c != nil {
			return c, cat
		}
	}
	return nil, ""
}

package learn

// This file learns what a DataSet's rows say and its schema does not: the
// place of a table nested in itself among the tables, and the namespace of
// one in none.

import (
	"slices"

	"github.com/atmkit/atmkit/shape"
)

// orderByRows puts each table nested in itself, with the tables nested in
// it, where the DataSet has it, as the rows show it. The schema does not
// say it: .NET's XmlTreeGen declares the tables of
// DataSet.TopLevelTables(forSchema: true), the self-nested ones (and those
// nested in several tables) first, then the others in the DataSet's order;
// while the diffgram (NewDiffgramGen, XmlDataTreeWriter.SaveDiffgramData)
// writes the DataSet's tables in its order, each one's rows that have no
// parent row. So a self-nested table goes before the first table whose
// top-level rows follow its own in an answer, else after the last one
// whose rows precede them (and the tables nested in that one); with no
// such answer it keeps the schema's place.
func orderByRows(d *shape.DataSet, answers []*dsAnswer) {
	for _, h := range slices.Clone(d.Tables) {
		if d.SelfNested(h) == nil || d.NestedParent(h) != nil {
			continue
		}
		for _, a := range answers {
			i := slices.Index(a.top, h)
			if i < 0 || len(a.top) < 2 {
				continue
			}
			var block []*shape.Table
			d.Tables = slices.DeleteFunc(d.Tables, func(t *shape.Table) bool {
				if within(d, t, h) {
					block = append(block, t)
					return true
				}
				return false
			})
			at := len(d.Tables)
			if i+1 < len(a.top) {
				at = slices.Index(d.Tables, a.top[i+1])
			} else if p := slices.Index(d.Tables, a.top[i-1]); p >= 0 {
				at = p + 1
				for at < len(d.Tables) && d.NestedParent(d.Tables[at]) != nil {
					at++
				}
			}
			if at < 0 {
				at = len(d.Tables)
			}
			d.Tables = slices.Insert(d.Tables, at, block...)
			break
		}
	}
}

// within reports whether t is h or a table nested in it, at any depth.
func within(d *shape.DataSet, t, h *shape.Table) bool {
	for range len(d.Tables) + 1 {
		if t == h {
			return true
		}
		r := d.NestedParent(t)
		if r == nil {
			return false
		}
		if t = d.TableNamed(r.Parent); t == nil {
			return false
		}
	}
	return false
}

// namespacesFromRows sets the namespace of a table nested in no other
// from its rows where the schema says another: .NET's XmlTreeGen declares
// a table in no namespace that is nested in itself as a global element of
// the DataSet's own schema (refers to it unprefixed), so that the schema
// puts it in the DataSet's namespace, while its rows are in none
// (xmlns="").
func namespacesFromRows(d *shape.DataSet, answers []*dsAnswer) {
	for _, t := range d.Tables {
		if d.NestedParent(t) != nil {
			continue
		}
		for _, a := range answers {
			if len(a.rows[t]) == 0 || a.rows[t][0].parent != nil {
				continue
			}
			if ns := a.rows[t][0].el.NamespaceURI(); ns != d.TableNamespace(t, "") {
				t.Namespace = shape.Namespace(ns)
				if ns == "" {
					t.Namespace = shape.NoNamespace
				}
			}
			break
		}
	}
}

package shape

import (
	"fmt"
	"strings"
)

// Summary lists what a shape writes that atmkit has no data for, and what
// atmkit has that the shape does not write.
type Summary struct {
	// Generated are the fields written with generated values, as
	// "result: Root/Item/Field (type)".
	Generated []string
	// Omitted are the values of atmkit's data model no field of a result
	// writes, as "result: scope value" (a location's features.hours).
	Omitted []string
}

// Summarize lists the generated fields and the omitted values of s.
func Summarize(s *Shape) Summary {
	var sum Summary
	for _, r := range s.Results {
		content := r.Content()
		if content == "" {
			continue
		}
		mapped := map[Scope]map[string]bool{}
		lists := map[Scope]bool{}
		var visit func(fields []*Field, scope Scope, at string)
		visit = func(fields []*Field, scope Scope, at string) {
			for _, f := range fields {
				fat := at + "/" + strings.TrimPrefix(f.label(), "(")
				if f.Name() == "" {
					fat = at
				}
				switch {
				case f.List != "":
					itemScope, ok := ItemScope(scope, f)
					if !ok || f.Item == nil {
						continue
					}
					lists[itemScope] = true
					visit(f.Item.Fields, itemScope, fat+"/"+f.Item.Element)
				case len(f.Fields) > 0:
					visit(f.Fields, scope, fat)
				case f.Generated:
					sum.Generated = append(sum.Generated, fmt.Sprintf("%s: %s (%s)", r.Name, fat, f.Type))
				case f.Value != "":
					if mapped[scope] == nil {
						mapped[scope] = map[string]bool{}
					}
					mapped[scope][f.Value] = true
				}
			}
		}
		if r.Layout == Dataset && r.DataSet != nil {
			for _, t := range r.DataSet.Tables {
				scope := r.DataSet.RowScope(t, content)
				if scope == ScopeLanguage {
					lists[ScopeLanguage] = true
				}
				for _, c := range t.Columns {
					switch {
					case c.Generated:
						sum.Generated = append(sum.Generated, fmt.Sprintf("%s: %s/%s/%s (%s)", r.Name, r.DataSet.Name, t.Name, c.Name, c.Type))
					case c.Value != "":
						if mapped[scope] == nil {
							mapped[scope] = map[string]bool{}
						}
						mapped[scope][c.Value] = true
					}
				}
			}
		} else {
			visit(r.Fields, ScopeOf(content), r.Root)
		}
		for v := range mapped[ScopeGroup] {
			// A group's values are its locations' institution's.
			if mapped[ScopeLocation] == nil {
				mapped[ScopeLocation] = map[string]bool{}
			}
			mapped[ScopeLocation][v] = true
		}
		scopes := []Scope{ScopeOf(content)}
		switch content {
		case Locations:
			scopes = append(scopes, ScopeLocation)
		case Institutions:
			scopes = append(scopes, ScopeInstitution)
		case Provinces:
			scopes = append(scopes, ScopeProvince)
		}
		for _, sc := range scopes {
			for _, v := range Values(sc) {
				if !mapped[sc][v.Path] && !v.Derived {
					sum.Omitted = append(sum.Omitted, fmt.Sprintf("%s: %s %s", r.Name, sc, v.Path))
				}
			}
		}
		if content == Locations && !lists[ScopeLanguage] {
			sum.Omitted = append(sum.Omitted, fmt.Sprintf("%s: %s languages", r.Name, ScopeLocation))
		}
	}
	return sum
}

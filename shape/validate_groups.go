package shape

// checkGroups checks the grouped locations list of r, if any
// (Field.Group): a typed result's, whose group item holds one locations
// list (its own locations) beside the institution's values, no index (a
// location's position in the answer, which grouping reorders), and
// nothing of the search point.
func (c *checker) checkGroups(r *Result, where string) {
	for _, f := range r.Fields {
		if f == nil || f.List != string(Locations) || f.Group == "" || f.Item == nil {
			continue
		}
		at := path(where, f.label())
		if r.Layout != Typed {
			c.addf(f.lineOf("group"), at+".group", "only a typed result's locations are grouped (layout %s)", r.Layout)
		}
		it := f.Item
		iat := path(at, it.label())
		var lists []*Field
		walkFields(it.Fields, false, func(k *Field) bool {
			if k.List == string(Locations) {
				lists = append(lists, k)
			}
			return true
		})
		if len(lists) != 1 {
			c.addf(it.line, iat, "a group holds its institution's locations in one locations list, not %d", len(lists))
			continue
		}
		if lists[0].Item != nil {
			walkFields(lists[0].Item.Fields, true, func(k *Field) bool {
				if k.Value == "index" {
					c.addf(k.lineOf("value"), iat, "a grouped location has no index: grouping reorders the answer's locations")
				}
				return true
			})
		}
	}
}

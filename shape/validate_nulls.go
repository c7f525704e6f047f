package shape

import "slices"

// This file checks the null values of a typed result, an element
// declared nillable (Field.Nillable) and a string left out when empty
// (Field.OmitEmpty), and its values of members declared object
// (Field.XsiType).

// checkNulls checks nillable and omitEmpty on fields of a result, typed
// or not: XmlSerializer writes a null member of a typed result, a node's
// elements are the deployment's own; a list's items are never left out
// nor nil in atmkit's data, nor is an element's text or a container
// left out. item: fields is a list's item.
func (c *checker) checkNulls(fields []*Field, typed, item bool, where string) {
	for _, f := range fields {
		if f == nil {
			continue
		}
		at := path(where, f.label())
		if f.Nillable {
			switch {
			case !typed:
				c.addf(f.lineOf("nillable"), at+".nillable", "only a typed result's elements are nillable: XmlSerializer writes xsi:nil for a null member declared IsNullable")
			case item || f.Element == "" || f.List != "":
				c.addf(f.lineOf("nillable"), at+".nillable", "nillable is for an element holding a value or fields, not an attribute, a text, a list or a list's item")
			case f.OmitEmpty:
				c.addf(f.lineOf("omitEmpty"), at+".omitEmpty", "a nillable element is written xsi:nil when null, never left out: say nillable or omitEmpty, not both")
			}
		}
		if f.OmitEmpty {
			switch {
			case !typed:
				c.addf(f.lineOf("omitEmpty"), at+".omitEmpty", "only a typed result's values have omitEmpty: XmlSerializer leaves out a null string member")
			case item || f.Text || !f.IsLeaf() || f.Generated || !slices.Contains(stringTypes, f.Type):
				c.addf(f.lineOf("omitEmpty"), at+".omitEmpty", "omitEmpty is for a string value of the data model in an element or an attribute, not a text, a container, a list's item, a generated value or a value of type %s", f.Type)
			case f.Attribute != "" && f.Namespace != "" && f.Namespace != NoNamespace:
				c.addf(f.lineOf("omitEmpty"), at+".omitEmpty", "an attribute in a namespace left out when empty is not modelled (its prefix's declaration would stay): only an attribute in no namespace has omitEmpty")
			}
		}
		if _, omits := f.Omits(); omits && (f.Default != nil || f.OmitWhen != "") {
			switch {
			case !typed:
				c.addf(f.lineOf("default"), at+".default", "only a typed result's values have default or omitWhen: XmlSerializer leaves out a value equal to its DefaultValue")
			case item || f.Text || !f.IsLeaf():
				c.addf(f.lineOf("default"), at+".default", "default and omitWhen are for a value in an element or an attribute, not a text, a container, a list or a list's item")
			case f.Default != nil && (f.OmitWhen != "" || f.OmitEmpty) || f.OmitWhen != "" && f.OmitEmpty || f.Nillable || f.XsiType:
				c.addf(f.lineOf("default"), at+".default", "say one of default, omitWhen and omitEmpty, and none with nillable or xsiType")
			case f.Attribute != "" && f.Namespace != "" && f.Namespace != NoNamespace:
				c.addf(f.lineOf("default"), at+".default", "an attribute in a namespace left out is not modelled (its prefix's declaration would stay): only an attribute in no namespace has default or omitWhen")
			}
		}
		if f.XsiType {
			switch {
			case !typed:
				c.addf(f.lineOf("xsiType"), at+".xsiType", "only a typed result's values have xsiType: XmlSerializer writes the type of a member declared object")
			case item || f.Element == "" || !f.IsLeaf():
				c.addf(f.lineOf("xsiType"), at+".xsiType", "xsiType is for a value in an element, not an attribute, a text, a container, a list or a list's item")
			case f.Nillable || f.OmitEmpty:
				c.addf(f.lineOf("xsiType"), at+".xsiType", "a value of a member declared object is not modelled nillable or omitEmpty")
			}
		}
		if f.Always && (item || !c.resultLevel || !f.PointOnly() || f.Nillable) {
			c.addf(f.lineOf("always"), at+".always", "always is for a field of a locations result holding the search point alone (its container or its values), not nillable")
		}
		level := c.resultLevel
		c.resultLevel = false
		c.checkNulls(f.Fields, typed, false, at)
		c.resultLevel = level
		if f.Item != nil {
			c.checkNulls([]*Field{f.Item}, typed, true, at)
		}
	}
}

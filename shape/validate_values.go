package shape

import "slices"

// This file checks the value types of a typed result that atmkit's XSD
// types do not say: a value of an enum of the deployment's own
// (Field.Enum, Field.EnumValues) and a container that is a struct
// (Field.Struct).

// checkValueTypes checks enum, enumValues and struct on fields of a
// result, typed or not. item: fields is a list's item; pointLevel: fields
// are a locations result's own, where a container holding the search
// point alone is left out of the answers that have none unless always.
func (c *checker) checkValueTypes(fields []*Field, typed, item, pointLevel bool, where string) {
	for _, f := range fields {
		if f == nil {
			continue
		}
		at := path(where, f.label())
		if f.Enum != "" || len(f.EnumValues) > 0 {
			c.checkEnum(f, typed, item, at)
		}
		if f.Struct {
			switch {
			case !typed:
				c.addf(f.lineOf("struct"), at+".struct", "only a typed result's containers are structs: XmlSerializer's classes")
			case f.IsLeaf() || f.List != "" || item:
				c.addf(f.lineOf("struct"), at+".struct", "struct is for an element holding fields, not a value, a list or a list's item")
			case f.Nillable:
				c.addf(f.lineOf("nillable"), at+".nillable", "a struct is never null: XmlSerializer refuses IsNullable on a value type; say struct or nillable, not both")
			case pointLevel && f.PointOnly() && !f.Always:
				c.addf(f.lineOf("struct"), at+".struct", "a struct holding the search point is never null: it is written in every answer, 0 and 0 where there is no search point; say always: true")
			}
		}
		c.checkValueTypes(f.Fields, typed, false, false, at)
		if f.Item != nil {
			c.checkValueTypes([]*Field{f.Item}, typed, true, false, at)
		}
	}
}

// checkEnum checks a value of an enum of the deployment's own.
func (c *checker) checkEnum(f *Field, typed, item bool, at string) {
	switch {
	case !typed:
		c.addf(f.lineOf("enum"), at+".enum", "only a typed result's values are of an enum: XmlSerializer writes its XmlEnum names")
	case f.Enum == "":
		c.addf(f.lineOf("enumValues"), at+".enumValues", "enumValues without enum: name the enum's type (enum: Region)")
	case !isNCName(f.Enum):
		c.addf(f.lineOf("enum"), at+".enum", "enum %q is not an XML name", f.Enum)
	case len(f.EnumValues) == 0:
		c.addf(f.lineOf("enum"), at+".enum", "enum %s has no enumValues: list its XmlEnum names in the enum's order (enumValues: [NB, NS]), or leave enum out: the value is then a string", f.Enum)
	case !f.IsLeaf() || f.XsiType || item && (f.Text || f.Attribute != ""):
		c.addf(f.lineOf("enum"), at+".enum", "enum is for a value in an element, an attribute or a text, or a languages list's item (the code), not a container, a list, an item holding fields or a member declared object")
	case f.Type != "string":
		c.addf(f.lineOf("type"), at+".type", "a value of an enum is written as its XmlEnum name: type string, not %s", f.Type)
	case f.Nillable || f.OmitEmpty:
		c.addf(f.lineOf("enum"), at+".enum", "a value of an enum (a value type) is never null: not nillable nor omitEmpty")
	}
	for i, v := range f.EnumValues {
		if slices.Contains(f.EnumValues[:i], v) {
			c.addf(f.lineOf("enumValues"), at+".enumValues", "%q twice: an enum's XmlEnum names differ", v)
		}
	}
}

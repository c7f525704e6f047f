package shape

// The complexType names of typed results, as XmlSerializer makes them, and
// the check that no two types of one name and namespace differ.

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
)

// checkTypes reports complexType names of the typed results used for
// different structures in one namespace: the WSDL describes each name
// once per namespace.
func (c *checker) checkTypes(s *Shape) {
	seen := map[string]string{} // type namespace and name → signature
	where := map[string]string{}
	for _, r := range s.Results {
		if r == nil || r.Layout != Typed {
			continue
		}
		eachType(r, symbolicService, func(name, ns, sig, at string, line int) {
			k := ns + "\x00" + name
			if prev, ok := seen[k]; ok && prev != sig {
				c.addf(line, at, "complexType %q has other fields here than at %s; give one of them another type name", name, where[k])
				return
			}
			if _, ok := seen[k]; !ok {
				seen[k], where[k] = sig, at
			}
		})
	}
}

// symbolicService stands for the service namespace where it is not known.
const symbolicService = "\x00service"

// eachType calls f for each complexType a typed result r uses (the result's
// own, containers, lists and list items), with its namespace given the
// service namespace, a signature of its XML structure (equal signatures
// describe the same type) and where it is (its path and line).
func eachType(r *Result, service string, f func(name, ns, signature, where string, line int)) {
	root := &Field{Element: r.Root, Type: r.TypeName(), Fields: r.Fields}
	var visit func(x *Field, inScope, at string)
	visit = func(x *Field, inScope, at string) {
		ns := x.Namespace.Resolve(service, inScope)
		if x.List != "" && x.Item != nil {
			itemNS := x.Item.Namespace.Resolve(service, ns)
			if x.Element != "" {
				f(ListTypeName(x), ns, signature(x), at, x.line)
			} else {
				itemNS = x.Item.Namespace.Resolve(service, inScope)
			}
			if x.Item.List == "" && len(x.Item.Fields) > 0 {
				typeNS := x.Item.ChildNamespace(service, itemNS)
				f(TypeNameOf(x.Item), typeNS, signature(x.Item), path(at, x.Item.label()), x.Item.line)
				for _, k := range x.Item.Fields {
					visit(k, typeNS, path(at, x.Item.label(), k.label()))
				}
			}
			return
		}
		if len(x.Fields) > 0 {
			typeNS := x.ChildNamespace(service, ns)
			f(TypeNameOf(x), typeNS, signature(x), at, x.line)
			for _, k := range x.Fields {
				visit(k, typeNS, path(at, k.label()))
			}
		}
	}
	f(root.Type, r.ResultTypeNamespace(service), signature(root), "results."+r.Name, r.line)
	content := r.ContentNamespace(service)
	for _, k := range r.Fields {
		visit(k, content, path("results."+r.Name, k.label()))
	}
}

// TypeNameOf is the complexType name of a container or list item: its
// Type, else its element name.
func TypeNameOf(f *Field) string {
	if f.Type != "" && len(f.Fields) > 0 {
		return f.Type
	}
	if f.List != "" {
		return ListTypeName(f)
	}
	return f.Element
}

// ListTypeName is the complexType name of a wrapped list: its Type, else
// ArrayOf + the item's type (ArrayOfString for a list of strings), as
// XmlSerializer names array types (XmlReflectionImporter's
// SetArrayMappingType: "ArrayOf" + CodeIdentifier.MakePascal(name)).
func ListTypeName(f *Field) string {
	if f.Type != "" {
		return f.Type
	}
	if f.Item == nil {
		return "ArrayOf"
	}
	if len(f.Item.Fields) == 0 && f.Item.Enum != "" {
		return "ArrayOf" + makePascal(f.Item.Enum) // an array of an enum
	}
	if len(f.Item.Fields) == 0 {
		return "ArrayOf" + makePascal(f.Item.Type)
	}
	return "ArrayOf" + makePascal(TypeNameOf(f.Item))
}

// maxIdentifierLength is CodeIdentifier.MaxIdentifierLength, in UTF-16
// code units.
const maxIdentifierLength = 511

// makePascal is .NET's CodeIdentifier.MakePascal: the name made a valid
// identifier (MakeValid: only letters, decimal digits, marks and
// connectors, "Item" before a leading digit, "Item" for none; up to 511
// UTF-16 units, a character outside the BMP being two surrogates, which
// are no identifier characters), then upper-cased whole when it is two
// UTF-16 units or less, else its first character when that is a lower case
// letter.
func makePascal(name string) string {
	var units []uint16
	for _, r := range name {
		if len(units) >= maxIdentifierLength {
			break
		}
		if r > 0xFFFF || !identifierChar(r) {
			continue
		}
		if len(units) == 0 && unicode.Is(unicode.Nd, r) {
			units = append(units, 'I', 't', 'e', 'm')
		}
		units = append(units, uint16(r))
	}
	if len(units) == 0 {
		return "Item"
	}
	id := []rune(string(utf16.Decode(units)))
	switch {
	case len(units) <= 2:
		for i, r := range id {
			id[i] = unicode.ToUpper(r)
		}
	case unicode.IsLower(id[0]):
		id[0] = unicode.ToUpper(id[0])
	}
	return string(id)
}

// identifierChar reports whether CodeIdentifier.IsValid accepts r: a
// letter (Lu, Ll, Lt, Lm, Lo), a decimal digit (Nd), a mark (Mn, Mc) or a
// connector (Pc).
func identifierChar(r rune) bool {
	return unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Lm, unicode.Lo, unicode.Nd, unicode.Mn, unicode.Mc, unicode.Pc)
}

// signature describes the XML structure of a container or list: names,
// namespaces, types and occurrences, but not the model values.
func signature(f *Field) string {
	var b strings.Builder
	var write func(x *Field)
	write = func(x *Field) {
		switch {
		case x.Text:
			fmt.Fprintf(&b, "#text:%s;", x.Type)
		case x.Attribute != "":
			fmt.Fprintf(&b, "@%s{%s}:%s;", x.Attribute, x.Namespace, x.Type)
		case x.List != "":
			fmt.Fprintf(&b, "%s{%s}[", x.Element, x.Namespace)
			if x.Item != nil {
				write(x.Item)
			}
			b.WriteString("];")
		case len(x.Fields) > 0:
			fmt.Fprintf(&b, "%s{%s}:%s{%s}(", x.Element, x.Namespace, TypeNameOf(x), x.TypeNamespace)
			for _, k := range x.Fields {
				write(k)
			}
			b.WriteString(");")
		default:
			fmt.Fprintf(&b, "%s{%s}:%s;", x.Element, x.Namespace, x.Type)
		}
	}
	if f.List != "" {
		write(f)
	} else {
		for _, k := range f.Fields {
			write(k)
		}
	}
	return b.String()
}

package mockserver

import "github.com/atmkit/atmkit/shape"

// The WSDL's types of a shape whose results hold a member declared
// object, and its enums' simple types.
//
// ASMX reflects the operations in order, each with the one
// XmlReflectionImporter (SoapProtocolReflector.ReflectMethod: its request
// and response mappings imported), then exports its request element and
// its response element (XmlSchemaExporter.ExportMembersMapping), each
// followed by ExportRootIfNecessary. That exports nothing until a member
// declared object (the root mapping, xs:anyType) has been exported
// (needToExportRoot); from then on it walks every mapping imported so far
// (TypeScope.TypeMappings, in the order they were registered) and exports
// those not yet exported: at the root's place, the classes (each one's
// BaseMapping is the root: its DerivedMappings, the newest first), and
// each array at its own place. So once an object member is declared, a
// later operation's new types are declared after its request element and
// before its response element, in that order, where they otherwise follow
// the response element depth first.

// typeMapping is a type as XmlReflectionImporter registers it: the root
// (object), or a complexType (a class, or an array's ArrayOfX) with what
// typesWriter.complexType declares it from.
type typeMapping struct {
	root         bool
	name, typeNS string
	fields       []*shape.Field
	fieldNS      string
	array        bool
}

// register records m when the writer records mappings: the root once,
// before the first class (InitializeStructMembers sets a class's
// BaseMapping, GetRootMapping registering the root, before registering
// the class) or where a member declared object is imported.
func (w *typesWriter) register(m typeMapping) {
	if w.mappings == nil {
		return
	}
	hasRoot := false
	for _, r := range *w.mappings {
		hasRoot = hasRoot || r.root
	}
	if (m.root || !m.array) && !hasRoot {
		*w.mappings = append(*w.mappings, typeMapping{root: true})
	}
	if !m.root {
		*w.mappings = append(*w.mappings, m)
	}
}

// importedMappings returns, for each operation in order, the mappings
// imported once it has been (its result's and the earlier operations'),
// in the order XmlReflectionImporter registers them: the registration
// order of a depth-first walk of the results, a class and an array
// registered after the types of their members.
func importedMappings(sh *shape.Shape, ns string) [][]typeMapping {
	var regs []typeMapping
	w := newTypesWriter(ns)
	w.mappings = &regs
	var out [][]typeMapping
	for _, op := range shape.Operations() {
		if r := sh.Result(op); r != nil && r.Layout == shape.Typed {
			w.complexType(r.TypeName(), r.ResultTypeNamespace(ns), r.Fields, r.ContentNamespace(ns), r.IsArray())
		}
		out = append(out, regs[:len(regs):len(regs)])
	}
	return out
}

// rootExport declares what ExportRootIfNecessary does with the mappings
// imported, regs: at the root's place every class not declared yet, the
// newest first; each array at its own place.
func (w *typesWriter) rootExport(regs []typeMapping) {
	for _, m := range regs {
		switch {
		case m.root:
			for j := len(regs) - 1; j >= 0; j-- {
				if d := regs[j]; !d.root && !d.array {
					w.complexType(d.name, d.typeNS, d.fields, d.fieldNS, false)
				}
			}
		case m.array:
			w.complexType(m.name, m.typeNS, m.fields, m.fieldNS, true)
		}
	}
}

// enumType declares the simpleType of f's enum in namespace ns, unless
// declared already, as XmlSchemaExporter.ExportEnumMapping does: a
// restriction of s:string to its XmlEnum names, in the enum's order.
func (w *typesWriter) enumType(f *shape.Field, ns string) {
	key := ns + "\x00" + f.Enum
	if w.done[key] {
		return
	}
	w.done[key] = true
	b := w.item(w.schema(ns))
	b.WriteString("\r\n      <s:simpleType name=\"" + xmlEscape(f.Enum) + "\">\r\n        <s:restriction base=\"s:string\">")
	for _, v := range f.EnumValues {
		b.WriteString("\r\n          <s:enumeration value=\"" + xmlEscape(v) + "\" />")
	}
	b.WriteString("\r\n        </s:restriction>\r\n      </s:simpleType>")
}

// enumNamespace is the namespace of the enum of f, a value in an element
// of namespace elementNS ("" for an attribute or a text) of a class of
// namespace enclosing: its TypeNamespace (XmlType's Namespace), else the
// element's, else the class's (XmlReflectionImporter.ImportEnumMapping,
// given the element's namespace, or the class's for an attribute or a
// text).
func (w *typesWriter) enumNamespace(f *shape.Field, elementNS, enclosing string) string {
	return w.typeNamespace(f, elementNS, enclosing)
}

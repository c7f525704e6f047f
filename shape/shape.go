package shape

import (
	"encoding/xml"
	"strings"

	"github.com/atmkit/atmkit/internal/opnames"
)

// Version is the shape file format this package reads and writes.
const Version = 1

// The eight operations of the interface document, in its order.
const (
	OpReturnAllAtms                       = opnames.ReturnAllAtms
	OpReturnAtmSearchByAddress            = opnames.ReturnAtmSearchByAddress
	OpReturnAtmSearchByCoordinates        = opnames.ReturnAtmSearchByCoordinates
	OpReturnAtmSearchByAddressWithMaximum = opnames.ReturnAtmSearchByAddressWithMaximum
	OpReturnAtmSearchByInstitution        = opnames.ReturnAtmSearchByInstitution
	OpReturnAtmSearchByCity               = opnames.ReturnAtmSearchByCity
	OpReturnInstitutions                  = opnames.ReturnInstitutions
	OpReturnProvinces                     = opnames.ReturnProvinces
)

// Operations lists the eight operation names in the document's order.
func Operations() []string { return opnames.All() }

// ContentOf is the content an operation returns: Locations for
// ReturnAllAtms and the five searches, Institutions and Provinces for the
// two reference lists; "" for a name that is no operation.
func ContentOf(op string) Content {
	switch op {
	case OpReturnInstitutions:
		return Institutions
	case OpReturnProvinces:
		return Provinces
	case OpReturnAllAtms, OpReturnAtmSearchByAddress, OpReturnAtmSearchByCoordinates,
		OpReturnAtmSearchByAddressWithMaximum, OpReturnAtmSearchByInstitution, OpReturnAtmSearchByCity:
		return Locations
	}
	return ""
}

// Layout is how a result sits in <OpResult>.
type Layout string

// Layouts.
const (
	// Node: the result is one XML element (an XmlNode result): the only
	// child of <OpResult> in SOAP, the document's root in HTTP GET and POST.
	Node Layout = "node"
	// Typed: the result is an XmlSerializer object or array: <OpResult> is
	// the object and its children are the fields (or the array's items); in
	// HTTP GET and POST the root is named after the type (Result.Root), in
	// the service namespace, with the xsi and xsd declarations.
	Typed Layout = "typed"
	// Dataset: the result is a System.Data.DataSet: <OpResult> holds its
	// inline xs:schema and its diffgr:diffgram; in HTTP GET and POST they
	// sit under a root named by the type (DataSet), in the service
	// namespace. Result.DataSet describes its tables.
	Dataset Layout = "dataset"
)

// Namespace says which XML namespace a level is in: NoNamespace, Service
// (the service namespace the server runs with), or a namespace URI. The
// empty Namespace inherits the enclosing level's.
type Namespace string

// Namespace values with a meaning of their own.
const (
	// NoNamespace is the empty namespace (written xmlns="" inside the SOAP
	// body, whose default namespace is the service's).
	NoNamespace Namespace = "none"
	// Service is the service namespace.
	Service Namespace = "service"
)

// Resolve returns the namespace URI ns stands for: "" for NoNamespace, the
// service namespace for Service, the URI itself otherwise. The empty
// Namespace resolves to inherited.
func (ns Namespace) Resolve(service, inherited string) string {
	switch ns {
	case "":
		return inherited
	case NoNamespace:
		return ""
	case Service:
		return service
	}
	return string(ns)
}

// Content is what a result holds.
type Content string

// Contents of results, each named after the list it holds.
const (
	Locations    Content = "locations"    // ReturnAllAtms and the five searches
	Institutions Content = "institutions" // ReturnInstitutions
	Provinces    Content = "provinces"    // ReturnProvinces
)

// Shape is how a deployment writes the results of the eight operations.
// Build one with Default, Parse or Load; it must not be modified once a
// server uses it.
type Shape struct {
	// Results are the result descriptions, in the file's order.
	Results []*Result
	// Operations maps each operation name to the name of its Result.
	Operations map[string]string

	opLines map[string]int // the line of each operation in the file, when parsed
	file    string         // the file it was loaded from (Load), for messages
}

// Result describes one result type: an operation's answer.
type Result struct {
	// Name identifies the result in the shape file (its key under results).
	Name string
	// Layout is node, typed or dataset.
	Layout Layout
	// Namespace is the namespace of the result's content: the node (layout
	// node) or the fields inside <OpResult> and the GET/POST root (typed).
	// Fields inherit it. The empty Namespace is NoNamespace for a node and
	// Service for a typed result.
	Namespace Namespace
	// Root is the root element's name in HTTP GET and POST: the node's name
	// (node), or the type's root name such as AtmResult or ArrayOfProvince
	// (typed; always in the service namespace, as ASMX writes it), or
	// DataSet (dataset).
	Root string
	// Type is the result's complexType name in the WSDL (typed; default
	// Root). For a node result, the .NET type the operation returns:
	// XmlElement (the default) or XmlNode, whose WSDL element is declared
	// with mixed content (mixed="true" beside its xs:any).
	Type string
	// TypeNamespace is the namespace of the result's complexType in the WSDL
	// (typed; default: the content's namespace, Namespace).
	TypeNamespace Namespace
	// Prefix is the prefix the node is written with (node, in a namespace
	// only): the deployment built it with one (XmlDocument.CreateElement
	// with a prefix), so it is written <n:atmList xmlns:n="…">; empty, the
	// node's namespace is the default one (xmlns="…").
	Prefix string
	// Fields are the result's children, in order (node and typed). The
	// fields of a typed result that are attributes are written on
	// <OpResult> in SOAP and on the GET/POST root.
	Fields []*Field
	// DataSet describes a dataset result's tables (layout dataset only).
	DataSet *DataSet

	line       int // line in the shape file, 0 when built in code
	prefixLine int // line of its prefix in the shape file
}

// The .NET types of a node result (Result.Type).
const (
	NodeXmlElement = "XmlElement"
	NodeXmlNode    = "XmlNode"
)

// Field is one level of a result: an element (a value, a container of
// fields, or a list), an attribute holding a value, or a list whose items
// sit directly in the enclosing element.
type Field struct {
	// Element is the element name; empty for an attribute, and for a list
	// whose items are not wrapped in an element of their own.
	Element string
	// Attribute is the attribute name of a value written as an attribute
	// of the enclosing element (XmlAttribute).
	Attribute string
	// Text marks a value written as the enclosing element's text
	// (XmlText), beside its attributes: <Prov abbr="NB">New Brunswick</Prov>.
	// The element then has no element children.
	Text bool
	// Namespace of the element; empty inherits the enclosing level's (the
	// enclosing element's type namespace). An attribute is in no namespace
	// unless it says one (an XmlAttribute with a Namespace), and then has
	// a prefix of the writer's choosing.
	Namespace Namespace
	// Prefix is the prefix an element or an attribute in a namespace is
	// written with (a node result's only, whose deployment built its nodes
	// with prefixes): declared on the element that first uses it, as
	// XmlTextWriter writes a DOM element, and reused below it. Empty: an
	// element's namespace is the default one, an attribute takes a prefix
	// in scope for its namespace or one made up.
	Prefix string
	// TypeNamespace is the namespace of a container's or list item's
	// complexType (XmlType's Namespace): its element children inherit it,
	// and the WSDL declares the type in that namespace's schema. Default:
	// the element's own namespace.
	TypeNamespace Namespace
	// Type is the XSD type of a value (int, string, double, boolean, ...),
	// or the complexType name of a container or list in the WSDL (default:
	// the element name for a container, ArrayOf<item type> for a list).
	Type string
	// Value is the field of atmkit's data model the value comes from, as a
	// path in the JSON form of the enclosing object: "id",
	// "institution.name", "coordinates.latitude" (see Values). Empty for
	// containers and lists, and for Generated values.
	Value string
	// Format says how the value is written: for xs:boolean "true/false"
	// (the default) or "1/0"; for xs:double, xs:float and xs:decimal
	// "shortest" (the default: as .NET Framework's XmlConvert writes the
	// value, its 15 significant digits when they read back as the same
	// double, else 17, 1E-05 and 1E+15 beyond the plain range; a float's
	// 7, else 9; a decimal's 15, plain) or "fixed:N" (N decimals). A
	// typed result's boolean is always "true/false" and only its decimals
	// take "fixed:N": XmlSerializer writes values with XmlConvert.
	Format string
	// FullEnd marks a node result's value (in an element, or its text
	// beside the element's attributes) whose empty string is written with
	// a full end tag, as .NET writes an XmlElement whose text was set to
	// an empty string (InnerText = "": not IsEmpty, so XmlElement.WriteTo
	// ends it with WriteFullEndElement, and XmlTextWriter, writing no
	// text, puts the end tag on a line of its own when it indents):
	// <n:url>, a line break and the start tag's indentation, </n:url>.
	// Without it an empty string is written <n:url />, an element given
	// no text (IsEmpty).
	FullEnd bool
	// Nillable marks a typed result's element declared nillable
	// (XmlElement IsNullable = true): where its value is null it is written
	// <Name xsi:nil="true" />, not left out. A string value is null where
	// it is empty (a deployment returning null for an empty text); a
	// container holding the search point alone is null in the results
	// that have none. The WSDL declares the element nillable, minOccurs 1.
	Nillable bool
	// OmitEmpty marks a typed result's string value (in an element or an
	// attribute) that is null where it is empty, and not nillable: an
	// empty value is not written at all, as XmlSerializer leaves out a
	// null string member.
	OmitEmpty bool
	// Default is a typed result's value's [DefaultValue], as written
	// (false, 0): XmlSerializer leaves out a value equal to it, and the
	// WSDL declares it (default="false", minOccurs 0). Nil: none.
	Default *string
	// OmitWhen is the text of a typed result's value that the deployment
	// leaves out without a DefaultValue (its XxxSpecified member false
	// when the value is that): the WSDL declares the element minOccurs 0.
	// Empty: none (a string's empty value is OmitEmpty).
	OmitWhen string
	// Always marks a field of a locations result holding the search point
	// alone (a container, or its value) that the deployment writes in
	// every answer: in the results that have no search point (ReturnAllAtms,
	// the searches by institution and by city) with its values 0 (a struct,
	// or an object the deployment always makes). Without it such a field
	// is left out there.
	Always bool
	// XsiType marks a typed result's value in an element of a member
	// declared object (the WSDL gives the element no type: xs:anyType):
	// XmlSerializer writes the value's own type beside it,
	// <Hours xsi:type="xsd:short">2</Hours>, Type naming it.
	XsiType bool
	// Enum names the simple type of the deployment's own that a typed
	// result's value is of: a .NET enum, whose values XmlSerializer
	// writes as their XmlEnum names (text: Type is string). EnumValues
	// are those names in the enum's order. The WSDL declares the type as
	// XmlSchemaExporter does (an s:simpleType restricting s:string to
	// them, in the value's type namespace: TypeNamespace, else its
	// element's, else its class's) and the value, an enum being a value
	// type, minOccurs 1 or use="required". Empty: the value is a string.
	Enum       string
	EnumValues []string
	// Struct marks a typed result's container that is a .NET struct (a
	// value type, never null): the WSDL declares its element minOccurs 1,
	// as XmlSchemaExporter does a value type's.
	Struct bool
	// Generated marks a field the deployment has and atmkit's data model
	// does not (say a province's ProvinceId): it is written with a
	// deterministic value of its Type (see GeneratedValue).
	Generated bool
	// Fields are a container's children, in order.
	Fields []*Field
	// List names the list this field holds: locations, institutions,
	// provinces, or languages (see Lists).
	List string
	// Item is the list's item: an element with fields, or for languages
	// an element holding the language code.
	Item *Field
	// Group groups a locations result's list (its top-level locations
	// list, typed only) by the locations' institution ("institution",
	// GroupInstitution): each item is an institution's group, holding
	// the institution's values (scope ScopeGroup) and a locations list of
	// its own with the locations of it in the answer, in the answer's
	// order; the groups are in GroupOrder's order (ArrayOfBank/Bank{Name,
	// Atms/Atm}).
	Group string
	// GroupOrder is the order of a grouped list's groups (Group set):
	// GroupByFirst ("" says it too), GroupByID or GroupByName.
	GroupOrder string

	line  int            // line in the shape file, 0 when built in code
	lines map[string]int // lines of the field's keys in the shape file
}

// ValueType reports whether XmlSerializer holds the field's value in a
// .NET value type (a number, a flag, a date, an enum, a struct), which is
// never null: the WSDL declares its element minOccurs 1 and its attribute
// use="required", unless a DefaultValue or an XxxSpecified member lets it
// be left out (XmlSchemaExporter.ExportElementAccessor and
// ExportAttributeAccessor).
func (f *Field) ValueType() bool {
	if f.IsLeaf() {
		return f.Enum != "" || IsValueType(f.Type)
	}
	return f.Struct
}

// lineOf is the line of the field's key in the shape file, else the field's.
func (f *Field) lineOf(key string) int {
	if n, ok := f.lines[key]; ok {
		return n
	}
	return f.line
}

// Name is the field's element or attribute name, or "" for an unwrapped list.
func (f *Field) Name() string {
	if f.Attribute != "" {
		return f.Attribute
	}
	return f.Element
}

// IsLeaf reports whether the field holds one value (from the model or generated).
func (f *Field) IsLeaf() bool { return f.List == "" && len(f.Fields) == 0 }

// PointOnly reports whether every value under f is the search point's
// (coordinates.*): an element an answer without a search point leaves
// out, writes nil, or writes as 0, 0 (Always).
func (f *Field) PointOnly() bool {
	if f.IsLeaf() {
		return strings.HasPrefix(f.Value, "coordinates.")
	}
	if f.List != "" {
		return false
	}
	for _, k := range f.Fields {
		if !k.PointOnly() {
			return false
		}
	}
	return true
}

// Content is what the result holds, by the list it holds at its top level
// (Locations, Institutions or Provinces); "" if it holds none.
func (r *Result) Content() Content {
	if r.Layout == Dataset {
		if r.DataSet == nil {
			return ""
		}
		if t := r.DataSet.ContentTable(); t != nil {
			return Content(t.Rows)
		}
		return ""
	}
	var found Content
	walkFields(r.Fields, false, func(f *Field) bool {
		switch Content(f.List) {
		case Locations, Institutions, Provinces:
			found = Content(f.List)
			return false
		}
		return true
	})
	return found
}

// TypeName is the result's complexType name (Type, or Root).
func (r *Result) TypeName() string {
	if r.Type != "" {
		return r.Type
	}
	return r.Root
}

// ContentNamespace is the namespace URI of the result's content: the node,
// or the fields inside <OpResult>; for a DataSet, the namespace of its
// data (its tables' rows).
func (r *Result) ContentNamespace(service string) string {
	switch {
	case r.Layout == Dataset && r.DataSet != nil:
		return r.DataSet.Namespace.Resolve(service, "")
	case r.Namespace != "":
		return r.Namespace.Resolve(service, "")
	case r.Layout == Typed:
		return service
	}
	return ""
}

// ResultTypeNamespace is the namespace URI of a typed result's complexType:
// TypeNamespace, else the content's namespace; an array's (a result that
// is one list of items, no element of its own), its items' namespace, as
// XmlSerializer declares an array type in its item element's namespace
// (XmlReflectionImporter.SetArrayMappingType: `ns = element.Namespace`).
func (r *Result) ResultTypeNamespace(service string) string {
	if r.TypeNamespace != "" {
		return r.TypeNamespace.Resolve(service, "")
	}
	content := r.ContentNamespace(service)
	if r.IsArray() {
		if ns := r.Fields[0].Item.Namespace.Resolve(service, content); ns != "" {
			return ns
		}
	}
	return content
}

// IsArray reports whether r is a typed result of an array (a method
// returning Province[]): one list of items, no element of its own, in a
// type named as XmlSerializer names array types, ArrayOf and the item's
// type (ArrayOfProvince). A class whose one member is such a list
// ([XmlElement] on an array member: <Banks><Bank>…</Bank></Banks>) is
// written alike but is no array: its type is in its own namespace and its
// items are not nillable in the WSDL.
func (r *Result) IsArray() bool {
	if r.Layout != Typed || len(r.Fields) != 1 || r.Fields[0] == nil || r.Fields[0].List == "" || r.Fields[0].Element != "" || r.Fields[0].Item == nil {
		return false
	}
	it := r.Fields[0].Item
	return r.TypeName() == ListTypeName(&Field{List: r.Fields[0].List, Item: it})
}

// RootName is the root element of the result in HTTP GET and POST: the
// node (in its namespace), or the type's root in the service namespace
// (typed and dataset).
func (r *Result) RootName(service string) xml.Name {
	if r.Layout == Typed || r.Layout == Dataset {
		return xml.Name{Space: service, Local: r.Root}
	}
	return xml.Name{Space: r.ContentNamespace(service), Local: r.Root}
}

// Result returns the description of op's result, or nil for an unknown operation.
func (s *Shape) Result(op string) *Result {
	name, ok := s.Operations[op]
	if !ok {
		return nil
	}
	return s.resultNamed(name)
}

// resultNamed returns the result description called name, or nil.
func (s *Shape) resultNamed(name string) *Result {
	for _, r := range s.Results {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// Layout is the layout of op's result ("" for an unknown operation).
func (s *Shape) Layout(op string) Layout {
	if r := s.Result(op); r != nil {
		return r.Layout
	}
	return ""
}

// Root is the GET/POST root element of op's result given the service
// namespace: for a typed result its type's root name in the service
// namespace (e.g. {ns}ArrayOfProvince), for a node the node's own name and
// namespace. The zero Name for an unknown operation.
func (s *Shape) Root(op, service string) xml.Name {
	if r := s.Result(op); r != nil {
		return r.RootName(service)
	}
	return xml.Name{}
}

// ContentNamespace is the namespace URI of the content of op's <OpResult>
// given the service namespace: the node's, or the typed fields', or a
// DataSet's data. It is the same in every XML binding.
func (s *Shape) ContentNamespace(op, service string) string {
	if r := s.Result(op); r != nil {
		return r.ContentNamespace(service)
	}
	return ""
}

// walkFields calls f for every field below fields, depth first, in order;
// into says whether to descend into list items too. f returns false to stop.
func walkFields(fields []*Field, into bool, f func(*Field) bool) bool {
	for _, x := range fields {
		if !f(x) {
			return false
		}
		if !walkFields(x.Fields, into, f) {
			return false
		}
		if into && x.Item != nil {
			if !f(x.Item) || !walkFields(x.Item.Fields, into, f) {
				return false
			}
		}
	}
	return true
}

// ChildNamespace is the namespace f's element children inherit, given its
// own element namespace ns: its TypeNamespace, else ns.
func (f *Field) ChildNamespace(service, ns string) string {
	if f.TypeNamespace != "" {
		return f.TypeNamespace.Resolve(service, ns)
	}
	return ns
}

// label names a field for messages: its element or attribute name, or the
// list it holds.
func (f *Field) label() string {
	switch {
	case f.Attribute != "":
		return "@" + f.Attribute
	case f.Element != "":
		return f.Element
	case f.List != "":
		return "(" + f.List + " list)"
	case f.Text:
		return "(text)"
	}
	return "(field)"
}

// path joins labels for messages.
func path(parts ...string) string { return strings.Join(parts, "/") }

// Omits returns the written text of f's value that is left out, and
// whether f leaves one out: its Default, its OmitWhen, or an empty string
// (OmitEmpty).
func (f *Field) Omits() (string, bool) {
	switch {
	case f.Default != nil:
		return *f.Default, true
	case f.OmitWhen != "":
		return f.OmitWhen, true
	case f.OmitEmpty:
		return "", true
	}
	return "", false
}

package shape

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Problem is one thing wrong with a shape: where it is (the line in the
// shape file, when it was read from one, and the field) and what is wrong.
type Problem struct {
	Line  int    // 1-based line in the shape file; 0 when unknown
	Field string // e.g. results.AtmResult/Atms/Atm/Bank/Name
	Msg   string
}

// String returns the problem with the place it was found.
func (p Problem) String() string {
	var b strings.Builder
	if p.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", p.Line)
	}
	if p.Field != "" {
		b.WriteString(p.Field)
		b.WriteString(": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// Error lists what is wrong with a shape. Errors from Parse, Load and
// Validate are *Error.
type Error struct {
	// File is the shape file's name, if it was read from one.
	File     string
	Problems []Problem
}

// Error returns the problems, one a line.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("invalid shape")
	if e.File != "" {
		b.WriteString(" ")
		b.WriteString(e.File)
	}
	writeProblems(&b, "problems", e.Problems)
	return b.String()
}

// writeProblems writes ps after an error's heading: the one after a colon,
// or their count (of what) and each on a line of its own.
func writeProblems(b *strings.Builder, what string, ps []Problem) {
	if len(ps) == 1 {
		b.WriteString(": ")
		b.WriteString(ps[0].String())
		return
	}
	fmt.Fprintf(b, " (%d %s):", len(ps), what)
	for _, p := range ps {
		b.WriteString("\n  ")
		b.WriteString(p.String())
	}
}

// ErrInvalid is wrapped by every *Error, for errors.Is.
var ErrInvalid = errors.New("invalid shape")

// Unwrap makes errors.Is(err, ErrInvalid) hold.
func (e *Error) Unwrap() error { return ErrInvalid }

// checker collects problems.
type checker struct {
	problems []Problem
	// resultLevel: the fields being checked are a locations result's
	// own, not inside a container or a list (checkNulls: always).
	resultLevel bool
}

func (c *checker) addf(line int, field, format string, args ...any) {
	c.problems = append(c.problems, Problem{Line: line, Field: field, Msg: fmt.Sprintf(format, args...)})
}

func (c *checker) err() error {
	if len(c.problems) == 0 {
		return nil
	}
	return &Error{Problems: c.problems}
}

// Validate reports everything wrong with s as an *Error: unknown values,
// values whose type cannot hold them, lists in the wrong place, operations
// without a result or with a result of the wrong content, complexTypes of
// one name with different fields. nil means a server can serve s.
func (s *Shape) Validate() error {
	if p, deep := tooDeep(s); deep { // checked first: the other checks walk every path
		return &Error{Problems: []Problem{p}}
	}
	c := &checker{}
	seen := map[string]bool{}
	for _, r := range s.Results {
		if r == nil {
			c.addf(0, "results", "an empty result")
			continue
		}
		where := "results." + r.Name
		if r.Name == "" {
			c.addf(r.line, "results", "a result without a name")
		} else if seen[r.Name] {
			c.addf(r.line, where, "a second result named %q", r.Name)
		}
		seen[r.Name] = true
		c.checkResult(r, where)
	}
	ops := Operations()
	for op, name := range s.Operations {
		if !slices.Contains(ops, op) {
			c.addf(0, "operations."+op, "no operation of the interface document is called %q (want one of %s)", op, strings.Join(ops, ", "))
			continue
		}
		r := s.resultNamed(name)
		if r == nil {
			c.addf(0, "operations."+op, "no result is called %q", name)
			continue
		}
		if got, want := r.Content(), ContentOf(op); got != "" && got != want {
			c.addf(s.opLines[op], "operations."+op, "%s returns %s, but result %q holds %s", op, want, name, got)
		}
	}
	var missing []string
	for _, op := range ops {
		if _, ok := s.Operations[op]; !ok {
			missing = append(missing, op)
		}
	}
	unknown := false // a result whose content is not known (reported with it)
	for _, r := range s.Results {
		unknown = unknown || r != nil && r.Content() == ""
	}
	if len(missing) > 0 && !unknown {
		var none []string
		byContent := map[Content][]string{} // the missing operations of each content, in order
		var contents []Content
		for _, op := range missing {
			if byContent[ContentOf(op)] == nil {
				contents = append(contents, ContentOf(op))
			}
			byContent[ContentOf(op)] = append(byContent[ContentOf(op)], op)
		}
		for _, content := range contents {
			var holders []*Result
			for _, r := range s.Results {
				if r != nil && r.Content() == content {
					holders = append(holders, r)
				}
			}
			ops := byContent[content]
			if len(holders) < 2 {
				none = append(none, ops...)
				continue
			}
			names := make([]string, len(holders))
			for i, r := range holders {
				names[i] = r.Name
			}
			c.addf(holders[0].line, "operations", "%s: %d results hold %s (%s): name one under operations: (%s: %s)",
				strings.Join(ops, ", "), len(holders), content, strings.Join(names, ", "), ops[0], names[0])
		}
		if len(none) > 0 {
			c.addf(0, "operations", "no result for %s", strings.Join(none, ", "))
		}
	}
	if len(missing) == 0 {
		used := map[string]bool{}
		for _, name := range s.Operations {
			used[name] = true
		}
		for _, r := range s.Results {
			if r == nil || r.Name == "" || used[r.Name] {
				continue
			}
			example := "an operation"
			for _, op := range ops {
				if ContentOf(op) == r.Content() {
					example = op
					break
				}
			}
			c.addf(r.line, "results."+r.Name, "no operation returns it: name it under operations: (%s: %s), or remove it", example, r.Name)
		}
	}
	c.checkTypes(s)
	return c.err()
}

func (c *checker) checkResult(r *Result, where string) {
	switch r.Layout {
	case Node, Typed, Dataset:
	default:
		c.addf(r.line, where+".layout", "layout %q: want node, typed or dataset", r.Layout)
	}
	c.checkNamespace(r.line, where+".namespace", r.Namespace)
	c.checkNamespace(r.line, where+".typeNamespace", r.TypeNamespace)
	if !isNCName(r.Root) {
		c.addf(r.line, where+".root", "root %q is not an XML element name", r.Root)
	}
	if r.Type != "" && !isNCName(r.Type) {
		c.addf(r.line, where+".type", "type %q is not an XML name", r.Type)
	}
	if r.Layout == Dataset {
		if len(r.Fields) > 0 {
			c.addf(r.line, where+".fields", "a dataset result has tables (dataset:), not fields")
		}
		if r.Namespace != "" || r.Type != "" || r.TypeNamespace != "" {
			c.addf(r.line, where, "a dataset result has no namespace, type or typeNamespace: its DataSet (dataset:) says its namespace")
		}
		if r.DataSet == nil {
			c.addf(r.line, where+".dataset", "missing: a dataset result describes its DataSet (dataset:)")
			return
		}
		c.checkDataSet(r.DataSet, where+".dataset")
		return
	}
	if r.DataSet != nil {
		c.addf(r.DataSet.line, where+".dataset", "only a result of layout dataset has a dataset")
	}
	if r.Layout == Node && r.Type != "" && r.Type != NodeXmlElement && r.Type != NodeXmlNode {
		c.addf(r.line, where+".type", "type %q: a node result returns XmlElement (the default) or XmlNode", r.Type)
	}
	if r.TypeNamespace != "" && r.Layout != Typed {
		c.addf(r.line, where+".typeNamespace", "only a typed result has a type namespace")
	}
	content := r.Content()
	if content == "" {
		c.addf(r.line, where, "holds no list of locations, institutions or provinces")
		return
	}
	var lists []string
	walkFields(r.Fields, false, func(f *Field) bool {
		switch Content(f.List) {
		case Locations, Institutions, Provinces:
			lists = append(lists, f.List)
		}
		return true
	})
	if len(lists) > 1 {
		c.addf(r.line, where, "holds %d lists (%s); a result holds one", len(lists), strings.Join(lists, ", "))
	}
	for _, f := range r.Fields {
		if f != nil && f.Text {
			c.addf(f.line, path(where, f.label()), "a result holds its list: its text cannot be a value")
		}
	}
	c.checkFields(r.Fields, ScopeOf(content), where)
	c.checkGroups(r, where)
	c.checkElementNames(r.Fields, where)
	c.checkPrefixes(r, where)
	c.checkFullEnds(r.Fields, r.Layout == Node, where)
	c.resultLevel = content == Locations
	c.checkNulls(r.Fields, r.Layout == Typed, false, where)
	c.checkValueTypes(r.Fields, r.Layout == Typed, false, content == Locations, where)
	c.resultLevel = false
	if r.Layout == Typed {
		c.checkTypedFormats(r.Fields, where)
	}
}

// checkTypedFormats reports a typed result's value in a format no
// XmlSerializer writes: its generated writer writes a primitive member
// with XmlConvert.ToString of the member's type
// (XmlSerializationWriterCodeGen.WritePrimitiveValue), a bool true or
// false, a double or float as XmlConvert writes it (15 or 17 digits); only a
// decimal keeps the decimals it holds (fixed:N). A node's text is its
// deployment's code's, in any format.
func (c *checker) checkTypedFormats(fields []*Field, where string) {
	for _, f := range fields {
		if f == nil {
			continue
		}
		at := path(where, f.label())
		if got, err := checkFormat(f.Type, f.Format); err == nil && f.Format != "" {
			switch {
			case got == FormatOneZero:
				c.addf(f.lineOf("format"), at+".format", "format %q: XmlSerializer writes a typed result's boolean as XmlConvert does (true or false); a deployment writing 1 and 0 declares the field int", f.Format)
			case got != FormatShortest && got != FormatTrueFalse && f.Type != "decimal":
				c.addf(f.lineOf("format"), at+".format", "format %q: XmlSerializer writes a typed result's %s as XmlConvert does (15 or 17 significant digits, as asmx.AppendXMLDouble); only a decimal keeps its decimals (fixed:N)", f.Format, f.Type)
			}
		}
		c.checkTypedFormats(f.Fields, at)
		if f.Item != nil {
			c.checkTypedFormats([]*Field{f.Item}, at)
		}
	}
}

// checkElementNames reports two child elements of one name in one
// namespace (as written) among the fields of one element, a bare list's
// items included: XmlSerializer writes no such class, the WSDL of a typed
// result would declare the name twice, and no reader of a node (atmkit
// conform --shape, a client's XPath) can tell the two apart.
func (c *checker) checkElementNames(fields []*Field, where string) {
	seen := map[string]bool{}
	for _, f := range fields {
		if f == nil || f.Text || f.Attribute != "" {
			continue
		}
		at := path(where, f.label())
		name, ns, line := f.Element, f.Namespace, f.line
		if f.List != "" && f.Element == "" && f.Item != nil {
			name, line = f.Item.Element, f.Item.line
			if f.Item.Namespace != "" {
				ns = f.Item.Namespace
			}
		}
		if name != "" {
			key := string(ns) + " " + name
			if seen[key] {
				c.addf(line, at, "a second element %q on the same level: give each field a name of its own", name)
			}
			seen[key] = true
		}
		c.checkElementNames(f.Fields, at)
		if f.Item != nil {
			c.checkElementNames(f.Item.Fields, path(at, f.Item.label()))
		}
	}
}

// absoluteURI reports whether s starts with a URI scheme (RFC 3986:
// a letter, then letters, digits, +, - or ., then a colon).
func absoluteURI(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return i+1 < len(s)
		default:
			return false
		}
	}
	return false
}

// checkFields checks the fields of one element in scope.
func (c *checker) checkFields(fields []*Field, scope Scope, where string) {
	attrs := map[string]bool{}
	texts, elements, textLine := 0, 0, 0
	for _, f := range fields {
		if f != nil && f.Text {
			if texts++; texts == 1 {
				textLine = f.line
			}
		} else if f != nil && f.Attribute == "" {
			elements++
		}
	}
	if texts > 1 || texts == 1 && elements > 0 {
		c.addf(textLine, where, "an element with text (text: true) has one text field and attributes, no element children")
	}
	for _, f := range fields {
		if f == nil {
			c.addf(0, where, "an empty field")
			continue
		}
		at := path(where, f.label())
		c.checkField(f, scope, at)
		if f.Attribute != "" {
			if attrs[f.Attribute] {
				c.addf(f.line, at, "a second attribute %q on the same element", f.Attribute)
			}
			attrs[f.Attribute] = true
		}
	}
	if scope == ScopeLocation {
		n := 0
		walkFields(fields, false, func(f *Field) bool {
			if f.Value == "index" {
				n++
			}
			return true
		})
		if n > 1 {
			c.addf(0, where, "index is written %d times; it may be written once per location", n)
		}
	}
}

func (c *checker) checkField(f *Field, scope Scope, at string) {
	switch {
	case f.Text && (f.Element != "" || f.Attribute != "" || f.List != "" || len(f.Fields) > 0 || f.Namespace != ""):
		c.addf(f.line, at, "a text field is the enclosing element's text: no element, attribute, namespace, list or fields")
	case f.Text:
	case f.Element != "" && f.Attribute != "":
		c.addf(f.line, at, "both element %q and attribute %q: give one", f.Element, f.Attribute)
	case f.Element == "" && f.Attribute == "" && f.List == "":
		c.addf(f.line, at, "neither element nor attribute")
	case f.Element != "" && !isNCName(f.Element):
		c.addf(f.line, at, "element %q is not an XML element name", f.Element)
	case f.Attribute != "" && !isNCName(f.Attribute):
		c.addf(f.line, at, "attribute %q is not an XML attribute name", f.Attribute)
	case f.Attribute == "xmlns":
		c.addf(f.line, at, "an attribute named xmlns is a namespace declaration, not a value (the namespace of an element is its namespace:)")
	}
	c.checkNamespace(f.lineOf("namespace"), at+".namespace", f.Namespace)
	c.checkNamespace(f.lineOf("typeNamespace"), at+".typeNamespace", f.TypeNamespace)
	if f.Attribute != "" {
		if !f.IsLeaf() {
			c.addf(f.line, at, "an attribute holds one value, not fields or a list")
		}
		if f.Namespace == Service {
			c.addf(f.lineOf("namespace"), at+".namespace", "an attribute is in no namespace or in a namespace URI, not service")
		}
	}
	if f.TypeNamespace != "" && (len(f.Fields) == 0 && f.Enum == "" || f.List != "") {
		c.addf(f.lineOf("typeNamespace"), at+".typeNamespace", "only an element with fields or a value of an enum has a type namespace")
	}
	if f.Group != "" && f.List == "" {
		c.addf(f.lineOf("group"), at+".group", "only a list is grouped")
	}
	c.checkGroupOrder(f.GroupOrder, f.Group != "", f.lineOf("groupOrder"), at+".groupOrder", "a grouped list (group: institution)")
	switch {
	case f.List != "":
		c.checkList(f, scope, at)
	case len(f.Fields) > 0:
		if f.Value != "" || f.Generated || f.Format != "" {
			c.addf(f.line, at, "a field with fields is a container: it has no value, format or generated")
		}
		if f.Type != "" && !isNCName(f.Type) {
			c.addf(f.lineOf("type"), at+".type", "type %q is not an XML name", f.Type)
		}
		c.checkFields(f.Fields, scope, at)
	default:
		c.checkLeaf(f, scope, at)
	}
}

func (c *checker) checkList(f *Field, scope Scope, at string) {
	lists := Lists(scope)
	itemScope, ok := ItemScope(scope, f)
	if !ok {
		var names []string
		for n := range lists {
			names = append(names, n)
		}
		slices.Sort(names)
		if len(names) == 0 {
			c.addf(f.lineOf("list"), at+".list", "a %s holds no lists, not %q", scope, f.List)
		} else {
			c.addf(f.lineOf("list"), at+".list", "a %s holds the list %s, not %q", scope, strings.Join(names, ", "), f.List)
		}
		return
	}
	if f.Value != "" || f.Generated || f.Format != "" || len(f.Fields) > 0 {
		c.addf(f.line, at, "a list has an item, not a value, format, generated or fields")
	}
	if f.Group != "" {
		switch {
		case f.Group != GroupInstitution:
			c.addf(f.lineOf("group"), at+".group", "group %q: a locations list is grouped by %s only", f.Group, GroupInstitution)
		case itemScope != ScopeGroup:
			c.addf(f.lineOf("group"), at+".group", "only a locations result's own locations list is grouped, not a list in the %s", scope)
		}
	}
	if f.Type != "" && !isNCName(f.Type) {
		c.addf(f.lineOf("type"), at+".type", "type %q is not an XML name", f.Type)
	}
	it := f.Item
	if it == nil {
		c.addf(f.lineOf("item"), at+".item", "the list has no item")
		return
	}
	iat := path(at, it.label())
	if it.Element == "" || it.Attribute != "" || it.List != "" {
		c.addf(it.line, iat, "a list item is an element with a name (element: ...)")
		return
	}
	if !isNCName(it.Element) {
		c.addf(it.line, iat, "element %q is not an XML element name", it.Element)
	}
	c.checkNamespace(it.lineOf("namespace"), iat+".namespace", it.Namespace)
	c.checkNamespace(it.lineOf("typeNamespace"), iat+".typeNamespace", it.TypeNamespace)
	if itemScope == ScopeLanguage && len(it.Fields) > 0 {
		// An item of a class of its own (its code as text, an attribute
		// or an element, beside generated values).
		if it.Value != "" || it.Generated || it.Format != "" {
			c.addf(it.line, iat, "a list item with fields has no value, format or generated")
		}
		if it.Type != "" && !isNCName(it.Type) {
			c.addf(it.lineOf("type"), iat+".type", "type %q is not an XML name", it.Type)
		}
		c.checkFields(it.Fields, itemScope, iat)
		if !slices.ContainsFunc(it.Fields, func(f *Field) bool { return f != nil && f.Value == "language" }) {
			c.addf(it.line, iat, "a language item with fields writes the code in one of them (value: language)")
		}
		return
	}
	if itemScope == ScopeLanguage {
		if it.Value != "" || it.Generated || it.TypeNamespace != "" {
			c.addf(it.line, iat, "a language item holds the language code itself (or, with fields, in one of them: value: language): no value, generated or typeNamespace")
		}
		if !slices.Contains(stringTypes, it.Type) {
			c.addf(it.lineOf("type"), iat+".type", "type %q: a language code is a string (want one of %s)", it.Type, strings.Join(stringTypes, ", "))
		}
		return
	}
	if len(it.Fields) == 0 {
		c.addf(it.line, iat, "a %s item is an element with fields", itemScope)
		return
	}
	if it.Value != "" || it.Generated || it.Format != "" {
		c.addf(it.line, iat, "a list item with fields has no value, format or generated")
	}
	if it.Type != "" && !isNCName(it.Type) {
		c.addf(it.lineOf("type"), iat+".type", "type %q is not an XML name", it.Type)
	}
	c.checkFields(it.Fields, itemScope, iat)
}

func (c *checker) checkLeaf(f *Field, scope Scope, at string) {
	if f.Type == "" {
		c.addf(f.lineOf("type"), at+".type", "no type (an XSD type such as int, string, double or boolean)")
		return
	}
	if !knownType(f.Type) {
		c.addf(f.lineOf("type"), at+".type", "type %q is not a type atmkit writes (want one of %s)", f.Type,
			strings.Join(slices.Concat(intTypes, decimalTypes, stringTypes, otherTypes), ", "))
		return
	}
	switch {
	case f.Generated && f.Value != "":
		c.addf(f.line, at, "value %q and generated: a field is either atmkit's data or generated", f.Value)
	case f.Generated:
	case f.Value == "":
		c.addf(f.lineOf("value"), at+".value", "no value: name the field of atmkit's data it holds (one of %s), or mark it generated: true", valueNames(scope))
		return
	default:
		v, ok := LookupValue(scope, f.Value)
		if !ok {
			c.addf(f.lineOf("value"), at+".value", "%q is not a value of a %s (want one of %s)", f.Value, scope, valueNames(scope))
			return
		}
		switch {
		case v.Kind == KindInt && f.Type == "boolean":
			c.addf(f.lineOf("type"), at+".type", "%s is a number, not a flag: it cannot be a boolean", f.Value)
		case !typeFits(v.Kind, f.Type):
			c.addf(f.lineOf("type"), at+".type", "type %q cannot hold %s (%s)", f.Type, f.Value, v.Kind)
		}
	}
	if _, err := checkFormat(f.Type, f.Format); err != nil {
		c.addf(f.lineOf("format"), at+".format", "%v", err)
	}
}

func (c *checker) checkNamespace(line int, at string, ns Namespace) {
	switch ns {
	case "", NoNamespace, Service:
		return
	}
	switch {
	case strings.EqualFold(string(ns), string(NoNamespace)) || strings.EqualFold(string(ns), string(Service)):
		c.addf(line, at, "namespace %q: write %s in lower case", ns, strings.ToLower(string(ns)))
	case strings.ContainsAny(string(ns), " \t\r\n<>\""):
		c.addf(line, at, "namespace %q: want none, service or a namespace URI", ns)
	case strings.ContainsFunc(string(ns), func(r rune) bool { return r < 0x20 || r == 0x7f || r == 0xfffe || r == 0xffff }):
		c.addf(line, at, "namespace %q: a control character (or one XML forbids) in it: want a namespace URI", ns)
	case !absoluteURI(string(ns)):
		c.addf(line, at, "namespace %q: want none, service or an absolute namespace URI, with its scheme (http://example.org/ns, urn:example:ns)", ns)
	}
}

// isNCName reports whether s is a plausible XML name without a prefix.
func isNCName(s string) bool {
	if s == "" {
		return false
	}
	ascii := true
	for i, r := range s {
		switch {
		case r > 0x7f:
			ascii = false
		case r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z':
		case i > 0 && (r == '-' || r == '.' || r >= '0' && r <= '9'):
		default:
			return false
		}
	}
	return ascii || isXMLName(s)
}

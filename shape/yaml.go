package shape

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/atmkit/atmkit/internal/atomicfile"
	"gopkg.in/yaml.v3"
)

// A shape file is YAML:
//
//	version: 1
//	results:
//	  AtmResult:                     # a name of your choosing
//	    layout: typed                # node or typed
//	    namespace: service           # none, service or a URI (default: none for a node, service for typed)
//	    root: AtmResult              # the GET/POST root (typed) or the node's name
//	    fields:
//	      - {element: Count, type: int, value: count}
//	      - element: Atms
//	        list: locations
//	        item:
//	          element: Atm
//	          fields:
//	            - {attribute: Index, type: int, value: index}
//	            - {element: ProvinceId, type: int, generated: true}
//	            ...
//	operations:
//	  ReturnAllAtms: AtmResult       # an operation left out gets the one result of its content
//
// Parse reports every problem with its line and field.

// ErrNotFound is wrapped by Load when the file does not exist.
var ErrNotFound = errors.New("shape file not found")

// Load reads and validates the shape file at path.
func Load(path string) (*Shape, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, path)
	}
	if err != nil {
		return nil, fmt.Errorf("read shape: %w", err)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1)) // a bigger one is refused by Parse
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("read shape: %w", err)
	}
	s, err := Parse(data)
	var e *Error
	if errors.As(err, &e) {
		e.File = path
	}
	if s != nil {
		s.file = path
	}
	return s, err
}

// Parse reads a shape file and validates it. Types left out of values get
// the default of the value's kind (int, double, string; int for flags), and
// operations left out get the one result of their content. Errors are
// *Error, naming the line and field of each problem.
func Parse(data []byte) (*Shape, error) {
	if len(data) > MaxFileSize {
		return nil, &Error{Problems: []Problem{{Msg: fmt.Sprintf("more than %d MB: a shape is a few KB; is it the right file?", MaxFileSize>>20)}}}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		line, msg := yamlError(err)
		return nil, &Error{Problems: []Problem{{Line: line, Msg: msg}}}
	}
	p := &parser{}
	if len(doc.Content) == 0 {
		return nil, &Error{Problems: []Problem{{Msg: "the file is empty"}}}
	}
	s := p.shape(doc.Content[0])
	if len(p.problems) > 0 {
		return nil, p.err()
	}
	s.complete()
	if err := s.Validate(); err != nil {
		return nil, err
	}
	return s, nil
}

// yamlError returns the line a yaml.v3 error names ("line N"), and its
// message without the "yaml: line N: " the problem's line replaces.
func yamlError(err error) (line int, msg string) {
	msg = strings.TrimPrefix(err.Error(), "yaml: ")
	if i := strings.Index(msg, "line "); i >= 0 {
		rest := msg[i+5:]
		j := 0
		for j < len(rest) && rest[j] >= '0' && rest[j] <= '9' {
			j++
		}
		if n, err := strconv.Atoi(rest[:j]); err == nil {
			line = n
			if i == 0 {
				msg = strings.TrimPrefix(rest[j:], ": ")
			}
		}
	}
	return line, msg
}

type parser struct {
	checker
	depth   int  // how deep the field being read is nested
	nfields int  // how many fields were read, aliases counted each time they are used
	tooBig  bool // MaxFields or MaxDepth was passed: reported once, nothing more read
}

// clipPath shortens a field's path for a message to its first and last
// 80 bytes (at a character's start).
func clipPath(at string) string {
	if len(at) <= 200 {
		return at
	}
	head, tail := 80, len(at)-80
	for head > 0 && !utf8.RuneStart(at[head]) {
		head--
	}
	for tail < len(at) && !utf8.RuneStart(at[tail]) {
		tail++
	}
	return at[:head] + "…" + at[tail:]
}

const topLevel = "(top level)" // the shape file's own mapping, in problems

// pairs returns the key/value pairs of a mapping node, reporting keys not in known.
func (p *parser) pairs(n *yaml.Node, where string, known ...string) map[string]*yaml.Node {
	if n.Kind == yaml.ScalarNode && where == topLevel { // a key's file, say: quote none of it
		p.addf(n.Line, where, "holds a text, not a shape: want a mapping (key: value lines)")
		return nil
	}
	if n.Kind != yaml.MappingNode {
		p.addf(n.Line, where, "want a mapping (key: value lines), got %s", kindName(n))
		return nil
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if len(known) > 0 && !contains(known, k.Value) {
			p.addf(k.Line, where, "unknown key %q (want one of %s)", k.Value, strings.Join(known, ", "))
			continue
		}
		if _, dup := out[k.Value]; dup {
			p.addf(k.Line, where, "key %q given twice", k.Value)
			continue
		}
		out[k.Value] = v
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if v := []rune(n.Value); len(v) > 60 { // a whole file read as one scalar
			return fmt.Sprintf("the text %q…", string(v[:60]))
		}
		return fmt.Sprintf("%q", n.Value)
	case yaml.AliasNode:
		return "an alias"
	}
	return "nothing"
}

func (p *parser) scalar(n *yaml.Node, where string) string {
	if n == nil {
		return ""
	}
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind != yaml.ScalarNode {
		p.addf(n.Line, where, "want a single value, got %s", kindName(n))
		return ""
	}
	return n.Value
}

func (p *parser) shape(n *yaml.Node) *Shape {
	s := &Shape{Operations: map[string]string{}, opLines: map[string]int{}}
	m := p.pairs(n, topLevel, "version", "results", "operations")
	if m == nil {
		return s
	}
	if v, ok := m["version"]; !ok {
		p.addf(n.Line, "version", "missing (want version: %d)", Version)
	} else if got := p.scalar(v, "version"); got != strconv.Itoa(Version) {
		p.addf(v.Line, "version", "version %q: this atmkit reads shape files of version %d", got, Version)
	}
	rs, ok := m["results"]
	if !ok {
		p.addf(n.Line, "results", "missing: a shape describes its results")
	} else if rm := p.pairs(rs, "results"); rm != nil {
		for i := 0; i+1 < len(rs.Content); i += 2 {
			name := rs.Content[i].Value
			s.Results = append(s.Results, p.result(name, rs.Content[i+1], rs.Content[i].Line))
		}
	}
	if ops, ok := m["operations"]; ok {
		om := p.pairs(ops, "operations")
		for i := 0; om != nil && i+1 < len(ops.Content); i += 2 {
			op := ops.Content[i].Value
			if !contains(Operations(), op) {
				p.addf(ops.Content[i].Line, "operations."+op, "no operation of the interface document is called %q (want one of %s)", op, strings.Join(Operations(), ", "))
				continue
			}
			name := p.scalar(ops.Content[i+1], "operations."+op)
			line := ops.Content[i+1].Line
			found := false
			for _, r := range s.Results {
				if r.Name == name {
					found = true
				}
			}
			if !found {
				p.addf(line, "operations."+op, "no result is called %q", name)
				continue
			}
			s.Operations[op] = name
			s.opLines[op] = line
		}
	}
	return s
}

func (p *parser) result(name string, n *yaml.Node, line int) *Result {
	where := "results." + name
	r := &Result{Name: name, line: line}
	m := p.pairs(n, where, "layout", "namespace", "prefix", "root", "type", "typeNamespace", "fields", "dataset")
	if m == nil {
		return r
	}
	r.Layout = Layout(p.scalar(m["layout"], where+".layout"))
	switch {
	case m["layout"] == nil:
		p.addf(n.Line, where+".layout", "missing (want node, typed or dataset)")
	case r.Layout != Node && r.Layout != Typed && r.Layout != Dataset:
		p.addf(m["layout"].Line, where+".layout", "layout %q: want node, typed or dataset", r.Layout)
	}
	r.Namespace = Namespace(p.scalar(m["namespace"], where+".namespace"))
	r.Prefix = p.scalar(m["prefix"], where+".prefix")
	if m["prefix"] != nil {
		r.prefixLine = m["prefix"].Line
	}
	r.Root = p.scalar(m["root"], where+".root")
	switch {
	case m["root"] == nil && r.Layout == Dataset:
		r.Root = "DataSet"
	case m["root"] == nil && (r.Layout == Node || r.Layout == Typed):
		p.addf(n.Line, where+".root", "missing: the GET/POST root element (typed: the type's root, e.g. ArrayOfProvince; node: the node's name)")
	}
	r.Type = p.scalar(m["type"], where+".type")
	r.TypeNamespace = Namespace(p.scalar(m["typeNamespace"], where+".typeNamespace"))
	if fs, ok := m["fields"]; ok {
		r.Fields = p.fields(fs, where)
	} else if r.Layout == Node || r.Layout == Typed {
		p.addf(n.Line, where+".fields", "missing")
	}
	if ds, ok := m["dataset"]; ok {
		r.DataSet = p.dataSet(ds, where+".dataset")
	}
	return r
}

func (p *parser) fields(n *yaml.Node, where string) []*Field {
	if p.tooBig {
		return nil
	}
	if p.depth >= MaxDepth {
		p.tooBig = true
		p.addf(n.Line, clipPath(where+".fields"), "fields nested more than %d levels deep: a result nests a few", MaxDepth)
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.addf(n.Line, where+".fields", "want a list of fields (lines starting with -), got %s", kindName(n))
		return nil
	}
	var out []*Field
	for i, c := range n.Content {
		out = append(out, p.field(c, fmt.Sprintf("%s.fields[%d]", where, i)))
	}
	return out
}

var fieldKeys = []string{"element", "attribute", "text", "namespace", "prefix", "typeNamespace", "type", "value", "format", "fullEnd", "nillable", "omitEmpty", "default", "omitWhen", "always", "xsiType", "enum", "enumValues", "struct", "generated", "fields", "list", "group", "groupOrder", "item"}

func (p *parser) field(n *yaml.Node, where string) *Field {
	f := &Field{line: n.Line}
	if p.nfields++; p.nfields > MaxFields && !p.tooBig {
		p.tooBig = true
		p.addf(n.Line, clipPath(where), "more than %d fields (YAML aliases counted each time they are used): a service's results have a few dozen", MaxFields)
	}
	if p.tooBig {
		return f
	}
	p.depth++
	defer func() { p.depth-- }()
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	m := p.pairs(n, where, fieldKeys...)
	if m == nil {
		return f
	}
	f.lines = map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		f.lines[n.Content[i].Value] = n.Content[i].Line
	}
	f.Element = p.scalar(m["element"], where+".element")
	f.Attribute = p.scalar(m["attribute"], where+".attribute")
	// Name the field by its element from here on: messages are easier to place.
	if name := f.Name(); name != "" {
		where = where + " (" + name + ")"
	}
	f.Namespace = Namespace(p.scalar(m["namespace"], where+".namespace"))
	f.Prefix = p.scalar(m["prefix"], where+".prefix")
	f.TypeNamespace = Namespace(p.scalar(m["typeNamespace"], where+".typeNamespace"))
	f.Type = p.scalar(m["type"], where+".type")
	f.Value = p.scalar(m["value"], where+".value")
	f.Format = p.scalar(m["format"], where+".format")
	f.List = p.scalar(m["list"], where+".list")
	f.Group = p.scalar(m["group"], where+".group")
	f.GroupOrder = p.scalar(m["groupOrder"], where+".groupOrder")
	f.Generated = p.boolean(m["generated"], where+".generated")
	f.Text = p.boolean(m["text"], where+".text")
	f.FullEnd = p.boolean(m["fullEnd"], where+".fullEnd")
	f.Nillable = p.boolean(m["nillable"], where+".nillable")
	f.OmitEmpty = p.boolean(m["omitEmpty"], where+".omitEmpty")
	f.XsiType = p.boolean(m["xsiType"], where+".xsiType")
	if d, ok := m["default"]; ok {
		v := p.scalar(d, where+".default")
		f.Default = &v
	}
	f.OmitWhen = p.scalar(m["omitWhen"], where+".omitWhen")
	f.Always = p.boolean(m["always"], where+".always")
	f.Enum = p.scalar(m["enum"], where+".enum")
	f.EnumValues = p.names(m["enumValues"], where+".enumValues")
	f.Struct = p.boolean(m["struct"], where+".struct")
	if fs, ok := m["fields"]; ok {
		f.Fields = p.fields(fs, where)
	}
	if it, ok := m["item"]; ok {
		f.Item = p.field(it, where+".item")
	}
	return f
}

// boolean reads an optional true or false.
func (p *parser) boolean(n *yaml.Node, where string) bool {
	if n == nil {
		return false
	}
	switch v := p.scalar(n, where); v {
	case "true":
		return true
	case "false":
	default:
		p.addf(n.Line, where, "%q: want true or false", v)
	}
	return false
}

// integer reads an optional integer.
func (p *parser) integer(n *yaml.Node, where string) int64 {
	if n == nil {
		return 0
	}
	v := p.scalar(n, where)
	i, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		p.addf(n.Line, where, "%q: want an integer", v)
	}
	return i
}

// names reads a list of names: [a, b].
func (p *parser) names(n *yaml.Node, where string) []string {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.addf(n.Line, where, "want a list of names ([A, B]), got %s", kindName(n))
		return nil
	}
	var out []string
	for _, k := range n.Content {
		out = append(out, p.scalar(k, where))
	}
	return out
}

// list returns the items of a sequence node, reporting anything else.
func (p *parser) list(n *yaml.Node, where string) []*yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		p.addf(n.Line, where, "want a list (lines starting with -), got %s", kindName(n))
		return nil
	}
	return n.Content
}

// complete fills in what a shape file may leave out: the types of values
// (the default of the value's kind) and of language items (string), and the
// operations' results (the one result of their content).
func (s *Shape) complete() {
	for _, r := range s.Results {
		content := r.Content()
		if content == "" {
			continue
		}
		completeFields(r.Fields, ScopeOf(content))
	}
	byContent := map[Content][]string{}
	for _, r := range s.Results {
		byContent[r.Content()] = append(byContent[r.Content()], r.Name)
	}
	for _, op := range Operations() {
		if _, ok := s.Operations[op]; ok {
			continue
		}
		if names := byContent[ContentOf(op)]; len(names) == 1 {
			s.Operations[op] = names[0]
		}
	}
}

func completeFields(fields []*Field, scope Scope) {
	for _, f := range fields {
		if f == nil {
			continue
		}
		switch {
		case f.List != "":
			itemScope, ok := ItemScope(scope, f)
			if !ok || f.Item == nil {
				continue
			}
			if itemScope == ScopeLanguage && f.Item.Type == "" && len(f.Item.Fields) == 0 {
				f.Item.Type = "string"
			}
			completeFields(f.Item.Fields, itemScope)
		case len(f.Fields) > 0:
			completeFields(f.Fields, scope)
		case f.Type == "" && f.Value != "":
			if v, ok := LookupValue(scope, f.Value); ok {
				f.Type = defaultType(v.Kind)
			}
		}
	}
}

// yamlBreaks turns the line breaks a YAML parser reads besides LF (CR,
// and NEL, LS and PS, YAML 1.1's, which gopkg.in/yaml.v3 reads) into LF.
var yamlBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u0085", "\n", "\u2028", "\n", "\u2029", "\n")

// Marshal writes s as a shape file, with a header comment listing the
// fields written with generated values and the model values s leaves out.
func Marshal(s *Shape, header string) []byte {
	var b bytes.Buffer
	header = yamlBreaks.Replace(header) // each line a comment: a break YAML reads would end one
	for _, line := range strings.Split(strings.TrimRight(header, "\n"), "\n") {
		if header == "" {
			break
		}
		b.WriteString(strings.TrimRight("# "+line, " "))
		b.WriteString("\n")
	}
	sum := Summarize(s)
	if len(sum.Generated) > 0 {
		b.WriteString("#\n# Generated (the deployment has them, atmkit's data model does not; written as\n# deterministic values of their type):\n")
		for _, g := range sum.Generated {
			fmt.Fprintf(&b, "#   %s\n", g)
		}
	}
	if len(sum.Omitted) > 0 {
		b.WriteString("#\n# Omitted (atmkit's data model has them, the deployment's results do not):\n")
		for _, o := range sum.Omitted {
			fmt.Fprintf(&b, "#   %s\n", o)
		}
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "version: %d\nresults:\n", Version)
	for _, r := range s.Results {
		fmt.Fprintf(&b, "  %s:\n", yamlString(r.Name))
		fmt.Fprintf(&b, "    layout: %s\n", yamlString(string(r.Layout)))
		if r.Namespace != "" {
			fmt.Fprintf(&b, "    namespace: %s\n", yamlString(string(r.Namespace)))
		}
		if r.Prefix != "" {
			fmt.Fprintf(&b, "    prefix: %s\n", yamlString(r.Prefix))
		}
		fmt.Fprintf(&b, "    root: %s\n", yamlString(r.Root))
		if r.Type != "" && r.Type != r.Root {
			fmt.Fprintf(&b, "    type: %s\n", yamlString(r.Type))
		}
		if r.TypeNamespace != "" {
			fmt.Fprintf(&b, "    typeNamespace: %s\n", yamlString(string(r.TypeNamespace)))
		}
		if r.Layout == Dataset && r.DataSet != nil {
			writeDataSet(&b, r.DataSet)
			continue
		}
		b.WriteString("    fields:\n")
		writeFields(&b, r.Fields, 6)
	}
	b.WriteString("operations:\n")
	for _, op := range Operations() {
		if name, ok := s.Operations[op]; ok {
			fmt.Fprintf(&b, "  %s: %s\n", op, yamlString(name))
		}
	}
	return b.Bytes()
}

// writeFields writes fields as a YAML list indented by indent spaces: a
// value on one line in flow style, containers and lists as blocks.
func writeFields(b *bytes.Buffer, fields []*Field, indent int) {
	pad := strings.Repeat(" ", indent)
	for _, f := range fields {
		if f.IsLeaf() {
			fmt.Fprintf(b, "%s- %s\n", pad, flowField(f))
			continue
		}
		b.WriteString(pad)
		b.WriteString("- ")
		writeBlockField(b, f, indent+2)
	}
}

// writeBlockField writes a container or list field as a block mapping; its
// first line continues the current one.
func writeBlockField(b *bytes.Buffer, f *Field, indent int) {
	pad := strings.Repeat(" ", indent)
	first := true
	line := func(format string, args ...any) {
		if !first {
			b.WriteString(pad)
		}
		first = false
		fmt.Fprintf(b, format, args...)
		b.WriteString("\n")
	}
	if f.Element != "" {
		line("element: %s", yamlString(f.Element))
	}
	if f.Namespace != "" {
		line("namespace: %s", yamlString(string(f.Namespace)))
	}
	if f.Prefix != "" {
		line("prefix: %s", yamlString(f.Prefix))
	}
	if f.Type != "" {
		line("type: %s", yamlString(f.Type))
	}
	if f.TypeNamespace != "" {
		line("typeNamespace: %s", yamlString(string(f.TypeNamespace)))
	}
	if f.Nillable {
		line("nillable: true")
	}
	if f.Struct {
		line("struct: true")
	}
	if f.Always {
		line("always: true")
	}
	if f.List != "" {
		line("list: %s", yamlString(f.List))
		if f.Group != "" {
			line("group: %s", yamlString(f.Group))
		}
		if f.GroupOrder != "" {
			line("groupOrder: %s", yamlString(f.GroupOrder))
		}
		if f.Item != nil {
			if f.Item.IsLeaf() {
				line("item: %s", flowField(f.Item))
			} else {
				line("item:")
				b.WriteString(pad + "  ")
				writeBlockField(b, f.Item, indent+2)
			}
		}
		return
	}
	line("fields:")
	writeFields(b, f.Fields, indent+2)
}

// flowField writes a value field as a flow mapping: {element: Count, type: int, value: count}.
func flowField(f *Field) string {
	var parts []string
	add := func(k, v string) {
		if v != "" {
			parts = append(parts, k+": "+yamlString(v))
		}
	}
	add("element", f.Element)
	add("attribute", f.Attribute)
	if f.Text {
		parts = append(parts, "text: true")
	}
	add("namespace", string(f.Namespace))
	add("prefix", f.Prefix)
	add("typeNamespace", string(f.TypeNamespace))
	add("type", f.Type)
	add("value", f.Value)
	add("format", f.Format)
	if f.FullEnd {
		parts = append(parts, "fullEnd: true")
	}
	if f.Nillable {
		parts = append(parts, "nillable: true")
	}
	if f.OmitEmpty {
		parts = append(parts, "omitEmpty: true")
	}
	if f.Default != nil {
		parts = append(parts, "default: "+strconv.Quote(*f.Default))
	}
	add("omitWhen", f.OmitWhen)
	if f.Always {
		parts = append(parts, "always: true")
	}
	if f.XsiType {
		parts = append(parts, "xsiType: true")
	}
	add("enum", f.Enum)
	if len(f.EnumValues) > 0 {
		values := make([]string, len(f.EnumValues))
		for i, v := range f.EnumValues {
			values[i] = yamlString(v)
		}
		parts = append(parts, "enumValues: ["+strings.Join(values, ", ")+"]")
	}
	if f.Generated {
		parts = append(parts, "generated: true")
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// yamlString writes s as a YAML scalar, quoted when it would not read back
// as the same string.
func yamlString(s string) string {
	plain := s != "" && !strings.ContainsAny(s, ":#{}[],&*!|>'\"%@`\\\n\t") && strings.TrimSpace(s) == s
	if plain {
		var v any
		if yaml.Unmarshal([]byte(s), &v) == nil {
			if str, ok := v.(string); ok && str == s {
				return s
			}
		}
	}
	return strconv.Quote(s)
}

// WriteFile writes s to path atomically (a temporary file in the same
// directory, then renamed), so a reader never sees half a file.
func WriteFile(path string, s *Shape, header string) error {
	if err := atomicfile.Write(path, Marshal(s, header), 0o644); err != nil {
		return fmt.Errorf("write shape: %w", err)
	}
	return nil
}

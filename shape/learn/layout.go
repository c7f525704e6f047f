package learn

// This file decides each operation's layout (typed or node) from the WSDL
// or the answers, and gathers the operations of one result type into a
// group with its answers.

import (
	"fmt"
	"strings"

	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// group is one result type: the operations that return it and its skeleton.
type group struct {
	content  shape.Content
	layout   shape.Layout
	ops      []string
	root     *node // the node (layout node), or the GET/POST root holding the fields (typed)
	rootSure bool  // the root's name is known (WSDL, or a GET/POST answer)
	typeName string
	item     *node // the content list's item
	// grp is the item of a grouped locations list (findGroup), whose
	// own list's item is item; nil for a flat list.
	grp  *node
	from string
	// answers: per operation, the XML contents.
	contents []*content
	// items counts the content list's items in each answer (instances).
	items map[*content]int
	// def is the built-in shape's result, kept for a result nothing read
	// shows (keepDefault); the other steps skip such a group.
	def *shape.Result
	// ds is what was learned of a DataSet result (layout dataset).
	ds *dsLearned
	// dsForm is how the WSDL declares a DataSet result ("" unknown).
	dsForm string
	// nodeType is shape.NodeXmlNode for a node result the WSDL declares
	// with mixed content (an XmlNode), else "".
	nodeType string
}

// resultElement is the element of an answer whose children are the
// result's fields (typed: <OpResult> or the GET/POST root) or that is the
// node (layout node); nil if the answer does not have that layout.
func resultElement(c *content, layout shape.Layout) *etree.Element {
	if layout == shape.Dataset {
		_, diffgram := dataSetParts(c)
		return diffgram
	}
	if isDataSet(c) {
		return nil
	}
	if layout == shape.Typed {
		if c.soap {
			return c.result
		}
		return c.root
	}
	if c.soap {
		if len(c.kids) != 1 {
			return nil
		}
		return c.kids[0]
	}
	return c.root
}

// layoutOf tells an operation's layout from its answers, with the reason.
func (l *learner) layoutOf(op string) (shape.Layout, string, bool) {
	var soapOne, soapMany, soapAttrs, typedRoot, plainRoot []*content
	for _, c := range l.contents[op] {
		switch {
		case isDataSet(c):
			return shape.Dataset, fmt.Sprintf("<%sResult> holds an inline xs:schema and a diffgr:diffgram in %s", op, c.sample.Where), true
		case c.soap && valueAttr(c.result) != "":
			soapAttrs = append(soapAttrs, c)
		case c.soap && len(c.kids) == 1:
			soapOne = append(soapOne, c)
		case c.soap:
			soapMany = append(soapMany, c)
		case hasTypedRoot(c.root):
			typedRoot = append(typedRoot, c)
		default:
			plainRoot = append(plainRoot, c)
		}
	}
	switch {
	case len(soapAttrs) > 0:
		// XmlSerializer writes an XmlElement result inside <OpResult>,
		// which then has no attribute: a typed result's are on it.
		return shape.Typed, fmt.Sprintf("<%sResult> carries the attribute %s (a node result's has none) in %s", op, valueAttr(soapAttrs[0].result), soapAttrs[0].sample.Where), true
	case len(soapMany) > 0:
		return shape.Typed, fmt.Sprintf("<%sResult> holds %d elements in %s", op, len(soapMany[0].kids), soapMany[0].sample.Where), true
	case len(typedRoot) > 0:
		return shape.Typed, fmt.Sprintf("the GET/POST root <%s> carries XmlSerializer's xsi/xsd declarations (%s)", typedRoot[0].root.Tag, typedRoot[0].sample.Where), true
	case len(soapOne) > 0 && len(plainRoot) > 0:
		if soapOne[0].kids[0].Tag == plainRoot[0].root.Tag {
			return shape.Node, fmt.Sprintf("<%sResult> holds one <%s>, the GET/POST root too", op, plainRoot[0].root.Tag), true
		}
		return shape.Typed, fmt.Sprintf("<%sResult> holds <%s> but the GET/POST root is <%s>", op, soapOne[0].kids[0].Tag, plainRoot[0].root.Tag), true
	case len(soapOne) > 0:
		return shape.Node, fmt.Sprintf("<%sResult> always holds one element (a typed result with one field would look the same)", op), false
	case len(plainRoot) > 0:
		return shape.Node, "the GET/POST root has no xsi/xsd declarations (no SOAP answer to compare)", false
	}
	return "", "", false
}

// valueAttr returns the name of an attribute of e holding a value (no
// namespace declaration, nothing of XML Schema instance's, such as
// xsi:nil), "" if it has none.
func valueAttr(e *etree.Element) string {
	if e == nil {
		return ""
	}
	for _, a := range e.Attr {
		if a.Space == "xmlns" || a.Space == "" && a.Key == "xmlns" || a.NamespaceURI() == nsXSI {
			continue
		}
		if a.Space != "" {
			return a.Space + ":" + a.Key
		}
		return a.Key
	}
	return ""
}

// makeGroups decides each operation's layout and gathers operations of
// one result type, with their skeletons.
func (l *learner) makeGroups() error {
	byKey := map[string]*group{}
	var unknown, unrecorded []string
	for _, op := range shape.Operations() {
		content := shape.ContentOf(op)
		var k string
		var g *group
		wsdlDataSet := l.info != nil && l.info.ops[op] != nil && l.info.ops[op].dataset
		if layout, _, _ := l.layoutOf(op); layout == shape.Dataset || wsdlDataSet {
			// A DataSet: one result per DataSet its answers show.
			name := l.dataSetName(op)
			if name == "" {
				unrecorded = append(unrecorded, op)
				continue
			}
			k = "dataset " + string(content) + " " + name
			if g = byKey[k]; g == nil {
				g = &group{content: content, layout: shape.Dataset, from: "the answers"}
				if wsdlDataSet {
					g.dsForm = l.info.ops[op].dsForm
				}
				byKey[k] = g
				l.groups = append(l.groups, g)
			}
			if wsdlDataSet {
				l.report.Mapped = append(l.report.Mapped, fmt.Sprintf("%s: layout dataset: the WSDL declares a DataSet, and its answers hold DataSet %s", op, name))
			} else {
				l.report.Mapped = append(l.report.Mapped, fmt.Sprintf("%s: layout dataset: its answers hold DataSet %s (an inline xs:schema and a diffgr:diffgram)", op, name))
			}
		} else if l.info != nil && l.info.ops[op] != nil {
			r := l.info.ops[op]
			nodeType := ""
			if r.mixed {
				nodeType = shape.NodeXmlNode
			}
			if r.node {
				k = "node " + string(content) + " " + nodeType
			} else {
				k = "type " + r.typeNS + " " + r.typeName
			}
			if g = byKey[k]; g == nil {
				g = &group{content: content, from: "the WSDL"}
				if r.node {
					g.layout, g.nodeType = shape.Node, nodeType
				} else {
					g.layout, g.root, g.rootSure, g.typeName = shape.Typed, r.skeleton, true, r.typeName
				}
				byKey[k] = g
				l.groups = append(l.groups, g)
			}
		} else {
			layout, why, sure := l.layoutOf(op)
			if layout == "" {
				unknown = append(unknown, op)
				continue
			}
			k = string(layout) + " " + string(content)
			if g = byKey[k]; g == nil {
				g = &group{content: content, layout: layout, from: "the answers"}
				byKey[k] = g
				l.groups = append(l.groups, g)
			}
			if sure {
				l.report.Mapped = append(l.report.Mapped, fmt.Sprintf("%s: layout %s: %s", op, layout, why))
			} else {
				l.guess("%s: layout %s: %s", op, layout, why)
			}
		}
		g.ops = append(g.ops, op)
		for _, c := range l.contents[op] {
			if resultElement(c, g.layout) != nil {
				g.contents = append(g.contents, c)
			} else {
				l.note("skipped %s (%s %s): its result is not laid out as a %s result", c.sample.Where, c.sample.Binding, op, g.layout)
			}
		}
	}
	// DataSets the WSDL declares and no answer shows: the result of
	// another operation of their content, else nothing to learn them from.
	var missing []string
	for _, op := range unrecorded {
		var found *group
		for _, g := range l.groups {
			if g.layout == shape.Dataset && g.content == shape.ContentOf(op) {
				found = g
				break
			}
		}
		if found == nil {
			missing = append(missing, op)
			continue
		}
		found.ops = append(found.ops, op)
		l.guess("%s: the WSDL says it returns a DataSet, and no answer shows which: it gets the one %s returns (%s)", op, found.ops[0], found.content)
	}
	if len(missing) > 0 {
		return &DataSetsNotRecordedError{Operations: missing}
	}
	// Skeletons from the answers where the WSDL gave none; a node no
	// answer shows is not seen.
	for _, g := range l.groups {
		if g.root != nil || g.layout == shape.Dataset {
			continue
		}
		if len(g.contents) == 0 {
			l.keepDefault(g, "the WSDL says it is an XML node and no answer shows its elements")
			continue
		}
		if err := l.skeletonFromAnswers(g); err != nil {
			return fmt.Errorf("the answers of %s: %w", strings.Join(g.ops, " and "), err)
		}
	}
	// Operations nobody says anything about share the result of their
	// content; a content nobody says anything about is not seen.
	for _, op := range unknown {
		var found *group
		for _, g := range l.groups {
			if g.content == shape.ContentOf(op) {
				found = g
				break
			}
		}
		if found == nil {
			found = &group{content: shape.ContentOf(op), layout: shape.Node, ops: []string{op}, from: "atmkit's built-in shape"}
			l.groups = append(l.groups, found)
			continue
		}
		found.ops = append(found.ops, op)
		if found.def == nil {
			l.guess("%s: no WSDL and no answer: it returns %s, so it gets the result of %s", op, found.content, found.ops[0])
		}
	}
	for _, g := range l.groups {
		if g.from == "atmkit's built-in shape" {
			l.keepDefault(g, "no WSDL and no answer")
		}
	}
	return nil
}

// dataSetName is the name of the DataSet op's answers hold (the first
// one's), or "" when none is recorded.
func (l *learner) dataSetName(op string) string {
	for _, c := range l.contents[op] {
		if schema, _ := dataSetParts(c); schema != nil {
			if name := schema[0].SelectAttrValue("id", ""); name != "" {
				return name
			}
			return "(unnamed)"
		}
	}
	return ""
}

// DataSetsNotRecordedError is Learn's error when the WSDL says operations
// return DataSets and no answer of them was read: a DataSet's tables,
// columns and relations are in its answers alone (its inline schema).
type DataSetsNotRecordedError struct {
	// Operations are the operations to record, in the document's order.
	Operations []string
}

// Error says which operations return DataSets and how to record them.
func (e *DataSetsNotRecordedError) Error() string {
	if len(e.Operations) == 1 {
		return fmt.Sprintf("the WSDL says %s returns a DataSet, whose tables only its answers show: record an answer of it (any XML binding) with atmkit record, and learn from the cassette", e.Operations[0])
	}
	ops := strings.Join(e.Operations[:len(e.Operations)-1], ", ") + " and " + e.Operations[len(e.Operations)-1]
	return fmt.Sprintf("the WSDL says %s return DataSets, whose tables only their answers show: record an answer of each (any XML binding) with atmkit record, and learn from the cassette", ops)
}

// keepDefault gives g, a result nothing read shows, the built-in shape's
// result of its content, and reports it with the calls to record.
func (l *learner) keepDefault(g *group, why string) {
	g.def = defaultResult(g.content)
	l.report.NotSeen = append(l.report.NotSeen, fmt.Sprintf("%s: the whole result: not seen (%s): record an XML answer (SOAP or GET/POST) of %s to decide; kept meanwhile as atmkit writes it by default: the built-in shape's <%s> node in no namespace",
		strings.Join(g.ops, ", "), why, orList(g.ops), g.def.Root))
}

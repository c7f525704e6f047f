package learn

import (
	"regexp"
	"strconv"
	"strings"
)

// node is one element or attribute of a deployment's result, as the WSDL
// or the answers show it: the skeleton the learner maps atmkit's values on.
type node struct {
	name     string
	ns       string // namespace URI of the element ("" for attributes)
	attr     bool
	typ      string // XSD simple type of a value; "" for complex elements
	typeName string // complexType name, when the WSDL gives one
	kids     []*node
	repeated bool // occurs many times in its parent (maxOccurs unbounded, or seen so)
	fromWSDL bool // typ comes from the schema (else it is inferred from values)

	// What the answers held, for inferring types and formats.
	texts []string
	seen  int // instances seen in answers

	// The mapping: the model value (shape.Field.Value) this leaf holds, or
	// the list it is; how it was decided.
	value    string
	list     string
	evidence string
	guessed  bool
}

func (n *node) isLeaf() bool { return len(n.kids) == 0 && n.typ != "" }

// label is the node's name for reports (@ for attributes).
func (n *node) label() string {
	if n.attr {
		return "@" + n.name
	}
	return n.name
}

// child returns the kid named name (element or attribute), or nil.
func (n *node) child(name string, attr bool) *node {
	for _, k := range n.kids {
		if k.name == name && k.attr == attr {
			return k
		}
	}
	return nil
}

// wrappedItem returns the item of a wrapped list (an element whose only kid
// is repeated), or nil.
func (n *node) wrappedItem() *node {
	if len(n.kids) == 1 && n.kids[0].repeated && !n.kids[0].attr {
		return n.kids[0]
	}
	return nil
}

// walk calls f for n and every node below it, with the path from n.
func (n *node) walk(at string, f func(k *node, at string)) {
	f(n, at)
	for _, k := range n.kids {
		p := k.label()
		if at != "" {
			p = at + "/" + p
		}
		k.walk(p, f)
	}
}

// inferType guesses the XSD type of a value from its texts in answers.
func inferType(texts []string) string {
	if len(texts) == 0 {
		return "string"
	}
	isInt, isNum, isBool, isDateTime := true, true, true, true
	for _, t := range texts {
		t = strings.TrimSpace(t)
		if !dateTime.MatchString(t) {
			isDateTime = false
		}
		if _, err := strconv.ParseInt(t, 10, 64); err != nil {
			isInt = false
		}
		if _, err := strconv.ParseFloat(t, 64); err != nil || t == "" {
			isNum = false
		}
		if t != "true" && t != "false" {
			isBool = false
		}
	}
	switch {
	case isDateTime:
		return "dateTime"
	case isBool:
		return "boolean"
	case isInt:
		return "int"
	case isNum:
		return "double"
	}
	return "string"
}

var dateTime = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}`)

// decimals is the number of digits after the point in a number's text, or
// -1 when it has no point.
func decimals(t string) int {
	i := strings.IndexByte(t, '.')
	if i < 0 || strings.ContainsAny(t, "eE") {
		return -1
	}
	return len(t) - i - 1
}

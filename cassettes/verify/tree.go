package verify

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"github.com/beevik/etree"
)

// Answers are compared as trees: XML elements or JSON values, parsed here.
// Structure is compared on shapes (structure.go), where the items of a
// list (same-named sibling elements in a row, the items of a JSON array)
// are merged into one, so a list that grows or shrinks is a change of
// values, not of structure. Values are compared item by item (values.go).

// vkind is what a tree node is.
type vkind int

const (
	vElement vkind = iota // an XML element
	vObject
	vArray
	vString
	vNumber
	vBool
	vNull
)

// vnode is an answer's XML element or JSON value.
type vnode struct {
	name  string // XML: local name; JSON: member name ("" for items and the root)
	space string // XML: namespace URI
	kind  vkind
	text  string // XML: the element's own text, trimmed; JSON: a scalar as written (strings unquoted)
	attrs []vattr
	kids  []*vnode
}

// vattr is an XML attribute (namespace declarations left out).
type vattr struct {
	name, space string
	value       string // a QName's resolved (qname.go)
	written     string // a QName's value as written; "" for other attributes
}

// text is the attribute's value as written.
func (a vattr) text() string {
	if a.written != "" {
		return a.written
	}
	return a.value
}

// Namespaces whose documents and attributes get special treatment.
const (
	nsWSDL     = "http://schemas.xmlsoap.org/wsdl/"
	nsXSD      = "http://www.w3.org/2001/XMLSchema"
	nsXSI      = "http://www.w3.org/2001/XMLSchema-instance"
	nsDisco    = "http://schemas.xmlsoap.org/disco/"
	nsDiffgram = "urn:schemas-microsoft-com:xml-diffgram-v1"
	nsMSData   = "urn:schemas-microsoft-com:xml-msdata"
)

// errTooDeep is the error of a body nested deeper than the comparison,
// which recurses once a level, may go without risking the process's stack.
var errTooDeep = fmt.Errorf("nests more than %d levels deep", recorded.MaxDepth)

// xmlTree parses an XML body.
func xmlTree(body string) (*vnode, error) {
	doc := etree.NewDocument()
	doc.ReadSettings.MaxDepth = recorded.MaxDepth
	if err := doc.ReadFromString(body); err != nil {
		if errors.Is(err, etree.ErrMaxDepth) {
			return nil, errTooDeep
		}
		return nil, err
	}
	if doc.Root() == nil {
		return nil, errors.New("no root element")
	}
	return fromElement(doc.Root(), nil), nil
}

// fromElement converts e and below, resolving namespaces with the
// declarations in scope above e and e's own.
func fromElement(e *etree.Element, above *nsScope) *vnode {
	scope := above
	for _, a := range e.Attr {
		switch {
		case a.Space == "xmlns":
			scope = &nsScope{prefix: a.Key, uri: a.Value, up: scope}
		case a.Space == "" && a.Key == "xmlns":
			scope = &nsScope{uri: a.Value, up: scope}
		}
	}
	space, _ := scope.lookup(e.Space)
	n := &vnode{name: e.Tag, space: space, kind: vElement}
	for _, a := range e.Attr {
		if a.Space == "xmlns" || (a.Space == "" && a.Key == "xmlns") {
			continue
		}
		va := vattr{name: a.Key, value: a.Value}
		if a.Space != "" {
			va.space, _ = scope.lookup(a.Space)
		}
		if isQName(n.space, va.space, va.name) {
			va.value, va.written = resolveQNames(a.Value, scope), a.Value
		}
		n.attrs = append(n.attrs, va)
	}
	var text strings.Builder
	for _, c := range e.Child {
		switch t := c.(type) {
		case *etree.Element:
			n.kids = append(n.kids, fromElement(t, scope))
		case *etree.CharData:
			text.WriteString(t.Data)
		}
	}
	n.text = strings.TrimSpace(text.String())
	return n
}

// jsonTree parses a JSON body, keeping the order of members.
func jsonTree(body string) (*vnode, error) {
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	n, err := readJSON(dec, "", 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the JSON value")
	}
	return n, nil
}

// readJSON reads the value at depth (0: the body's) and below.
func readJSON(dec *json.Decoder, name string, depth int) (*vnode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	n := &vnode{name: name}
	switch t := tok.(type) {
	case json.Delim:
		if depth >= recorded.MaxDepth {
			return nil, errTooDeep
		}
		n.kind = vArray
		if t == '{' {
			n.kind = vObject
		}
		for dec.More() {
			key := ""
			if n.kind == vObject {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ = k.(string)
			}
			kid, err := readJSON(dec, key, depth+1)
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, kid)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
	case string:
		n.kind, n.text = vString, t
	case json.Number:
		n.kind, n.text = vNumber, t.String()
	case bool:
		n.kind, n.text = vBool, strconv.FormatBool(t)
	case nil:
		n.kind, n.text = vNull, "null"
	}
	return n, nil
}

// typeOf is a node's type: for XML "element" (it has child elements),
// "empty", "number", "boolean" or "text"; for JSON its kind.
func typeOf(n *vnode) string {
	switch n.kind {
	case vObject:
		return "object"
	case vArray:
		return "array"
	case vString:
		return "string"
	case vNumber:
		return "number"
	case vBool:
		return "boolean"
	case vNull:
		return "null"
	}
	switch {
	case len(n.kids) > 0:
		return "element"
	case n.text == "" && slices.ContainsFunc(n.attrs, func(a vattr) bool { return !bookkeeping(a) }):
		return "element" // values in attributes
	case n.text == "":
		return "empty"
	case n.text == "true" || n.text == "false":
		return "boolean"
	case isNumber(n.text):
		return "number"
	}
	return "text"
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && !strings.ContainsAny(s, "xXnNiI_") // no hex, NaN, Inf or digit separators
}

// numEqual reports whether a and b are the same number written differently.
func numEqual(a, b string) bool {
	if !isNumber(a) || !isNumber(b) {
		return false
	}
	x, _ := strconv.ParseFloat(a, 64)
	y, _ := strconv.ParseFloat(b, 64)
	return x == y
}

// unknownType is a merged type whose items disagree.
const unknownType = "mixed"

// mergeType is the type of a list whose items have types a and b.
func mergeType(a, b string, isJSON bool) string {
	switch {
	case a == b:
		return a
	case a == "empty" || a == "null":
		return b
	case b == "empty" || b == "null":
		return a
	case isJSON:
		return unknownType
	case a == "element" || b == "element":
		return "element"
	}
	return "text" // numbers, booleans and text mixed
}

// typeChanged reports whether a value recorded as type r and now of type
// l changed its type. An empty value or null says nothing; text can hold
// digits, so text becoming a number is no change, but a number becoming
// text is (a decimal comma, a unit).
func typeChanged(r, l string, isJSON bool) bool {
	switch {
	case r == l, r == "empty", l == "empty", r == "null", l == "null", r == unknownType, l == unknownType:
		return false
	case isJSON:
		return true
	case r == "text":
		return l == "element"
	}
	return true
}

func isLeafType(t string) bool { return t != "element" && t != "object" && t != "array" }

package conformance

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/beevik/etree"
)

// qname is an element's expanded name: namespace URI and local name.
type qname struct{ Space, Local string }

func (q qname) String() string {
	if q.Space == "" {
		return q.Local
	}
	return "{" + q.Space + "}" + q.Local
}

func nameOf(e *etree.Element) qname { return qname{e.NamespaceURI(), e.Tag} }

// maxTags bounds the markup of a document parseXML reads: the count of
// '<' in it, which is at least its number of elements. The parsed tree
// takes many times the bytes of the text, so the cap on an answer's size
// alone would still let a body of tiny elements exhaust memory; this one
// keeps a tree to a few hundred MB. The mock's whole ReturnAllAtms has
// about 125,000.
const maxTags = 4 << 20

// parseXML parses a document; it fails on a body that is not XML, that has
// no root element, content after it, or more markup than maxTags. Nesting
// deeper than etree's limit (1024 levels) fails too; entities other than
// XML's five are not expanded (the parser refuses them), and a document
// type declaration is read as a directive, nothing is fetched. The text
// after the root element an error quotes is cut with keys (the answer's
// call's, Exchange.masks) masked first (clip).
func parseXML(b []byte, keys ...string) (*etree.Document, error) {
	if n := bytes.Count(b, []byte("<")); n > maxTags {
		return nil, fmt.Errorf("parsing XML: more than %d tags, more than atmkit parses of one answer", maxTags)
	}
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(b); err != nil {
		// The parser's errors quote the answer (an entity's name, whole, a
		// character): masked, made printable and cut, the text is what
		// callers keep.
		return nil, fmt.Errorf("parsing XML: %s", quote(err.Error(), 300, keys...))
	}
	root := doc.Root()
	if root == nil {
		return nil, fmt.Errorf("parsing XML: no root element")
	}
	for _, t := range doc.Child {
		switch t := t.(type) {
		case *etree.Element:
			if t != root {
				return nil, fmt.Errorf("parsing XML: a second root element <%s> after <%s>", t.FullTag(), root.FullTag())
			}
		case *etree.CharData:
			// Text outside the root element (a byte order mark is no text).
			if d := strings.TrimSpace(strings.TrimPrefix(t.Data, "\ufeff")); d != "" {
				return nil, fmt.Errorf("parsing XML: text outside the root element: %q", clip(d, 60, keys...))
			}
		}
	}
	return doc, nil
}

// doctype returns the document type declaration of doc, if it has one.
func doctype(doc *etree.Document) (string, bool) {
	for _, t := range doc.Child {
		if d, ok := t.(*etree.Directive); ok && strings.HasPrefix(strings.TrimSpace(d.Data), "DOCTYPE") {
			return "<!" + d.Data + ">", true
		}
	}
	return "", false
}

// Namespaces of a DataSet result's bookkeeping: the diffgram wrapper and its
// row attributes (diffgr:id, msdata:rowOrder), and xsi (xsi:nil, xsi:type).
const (
	diffgramNS = "urn:schemas-microsoft-com:xml-diffgram-v1"
	msdataNS   = "urn:schemas-microsoft-com:xml-msdata"
	xsiNS      = "http://www.w3.org/2001/XMLSchema-instance"
)

// isXMLNS reports whether a is a namespace declaration.
func isXMLNS(a etree.Attr) bool { return a.Space == "xmlns" || (a.Space == "" && a.Key == "xmlns") }

// isMetaAttr reports whether a carries no data of the result: a namespace
// declaration, or a DataSet's or xsi's bookkeeping attribute.
func isMetaAttr(a etree.Attr) bool {
	if isXMLNS(a) {
		return true
	}
	switch a.NamespaceURI() {
	case diffgramNS, msdataNS, xsiNS:
		return true
	}
	return false
}

// isMeta reports whether e carries no data of the result: a DataSet's
// inline xs:schema, or a diffgram's record of earlier values and errors.
func isMeta(e *etree.Element) bool {
	switch nameOf(e) {
	case qname{xsdNS, "schema"}, qname{diffgramNS, "before"}, qname{diffgramNS, "errors"}:
		return true
	}
	return false
}

// dataKids returns e's child elements that carry data (see isMeta).
func dataKids(e *etree.Element) []*etree.Element {
	kids := e.ChildElements()
	for i, k := range kids {
		if isMeta(k) {
			out := append([]*etree.Element(nil), kids[:i]...)
			for _, k := range kids[i+1:] {
				if !isMeta(k) {
					out = append(out, k)
				}
			}
			return out
		}
	}
	return kids
}

// hasData reports whether e has child elements or attributes that carry data.
func hasData(e *etree.Element) bool {
	if len(dataKids(e)) > 0 {
		return true
	}
	for _, a := range e.Attr {
		if !isMetaAttr(a) {
			return true
		}
	}
	return false
}

// attrs returns an element's attributes other than namespace declarations,
// as name=value sorted by name; names are expanded.
func attrs(e *etree.Element) []string {
	var out []string
	for _, a := range e.Attr {
		if isXMLNS(a) {
			continue
		}
		n := a.Key
		if a.Space != "" {
			n = "{" + a.NamespaceURI() + "}" + a.Key
			if a.Space == "xml" {
				n = "xml:" + a.Key
			}
		}
		out = append(out, n+"="+attrValue(e, a))
	}
	sort.Strings(out)
	return out
}

// attrValue is an attribute's value, with the QName of an xsi:type resolved
// ({namespace}local), since bindings may bind its prefix differently.
func attrValue(e *etree.Element, a etree.Attr) string {
	if a.Key != "type" || a.NamespaceURI() != xsiNS {
		return a.Value
	}
	prefix, local, ok := strings.Cut(a.Value, ":")
	if !ok {
		prefix, local = "", a.Value
	}
	return qname{resolve(e, prefix), local}.String()
}

// textOf returns the trimmed character data directly inside e.
func textOf(e *etree.Element) string {
	var s string
	var b strings.Builder
	n := 0
	for _, t := range e.Child {
		if cd, ok := t.(*etree.CharData); ok {
			if n++; n == 1 {
				s = cd.Data
				continue
			}
			if n == 2 {
				b.WriteString(s)
			}
			b.WriteString(cd.Data)
		}
	}
	if n > 1 {
		s = b.String()
	}
	return strings.TrimSpace(s)
}

// rawText returns the character data directly inside e as written, line
// ends normalised (XML reads \r\n as \n), or "" when it is all white
// space: the value of an element without child elements, whose spaces are
// part of it (XmlSerializer writes a string as it is; an indenting writer
// puts white space only into an element without text, such as an empty
// XmlElement written with an end tag).
func rawText(e *etree.Element) string {
	var b strings.Builder
	for _, t := range e.Child {
		if cd, ok := t.(*etree.CharData); ok {
			b.WriteString(cd.Data)
		}
	}
	if strings.TrimSpace(b.String()) == "" {
		return ""
	}
	return normalizeNewlines(b.String())
}

// normalizeNewlines writes \r\n and \r as \n, as an XML parser reads them.
func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// diffElements returns "" when a and b are the same tree (expanded names,
// attributes, the text of leaves as written and that of other elements
// trimmed, children in order; prefixes and indentation do not matter), else
// a description of the first difference.
func diffElements(a, b *etree.Element) string {
	return diffAt(diffTree(a, b))
}

// diffRows is diffElements for rows of DataSets that number them
// differently: the rows' bookkeeping attributes (diffgr:id,
// msdata:rowOrder, a hidden column's msdata:hidden…, an AutoIncrement key
// numbering the rows) are left out, on every level. A grouped result
// writes a location's row at another position in each answer.
func diffRows(a, b *etree.Element) string {
	return diffAt(diffTreeBy(a, b, rowAttrs))
}

// rowAttrs is attrs without the attributes of the diffgram and msdata
// namespaces.
func rowAttrs(e *etree.Element) []string {
	var out []string
	for _, a := range attrs(e) {
		if !strings.HasPrefix(a, "{"+diffgramNS+"}") && !strings.HasPrefix(a, "{"+msdataNS+"}") {
			out = append(out, a)
		}
	}
	return out
}

// diffContent is diffElements for the content of two wrappers: their
// attributes, text and children, whatever the wrappers are named (the
// <OpResult> of SOAP and the root of a typed GET/POST result).
func diffContent(a, b *etree.Element) string {
	if d := diffNull(a, b); d != "" {
		return d
	}
	where, what := diffInside(a, b)
	if what == "" {
		return ""
	}
	return diffAt(append([]string{"(content)"}, where[1:]...), what)
}

func diffAt(where []string, what string) string {
	if what == "" {
		return ""
	}
	return "at /" + strings.Join(where, "/") + ": " + what
}

// nsText names a namespace URI in a message.
func nsText(ns string) string {
	if ns == "" {
		return "no namespace"
	}
	return ns
}

// diffTree compares two trees; on a difference it returns the path to it
// (built only then, so equal trees cost no formatting) and what differs.
func diffTree(a, b *etree.Element) ([]string, string) {
	return diffTreeBy(a, b, attrs)
}

// diffTreeBy is diffTree comparing the attributes attrsOf lists.
func diffTreeBy(a, b *etree.Element, attrsOf func(*etree.Element) []string) ([]string, string) {
	if a.Tag != b.Tag {
		return []string{a.Tag}, fmt.Sprintf("element %s vs %s", nameOf(a), nameOf(b))
	}
	if sa, sb := a.NamespaceURI(), b.NamespaceURI(); sa != sb {
		return []string{a.Tag}, fmt.Sprintf("element %s in namespace %s vs %s", a.Tag, nsText(sa), nsText(sb))
	}
	return diffInsideBy(a, b, attrsOf)
}

// diffInside compares the attributes, text and children of a and b.
func diffInside(a, b *etree.Element) ([]string, string) {
	return diffInsideBy(a, b, attrs)
}

// diffInsideBy is diffInside comparing the attributes attrsOf lists.
func diffInsideBy(a, b *etree.Element, attrsOf func(*etree.Element) []string) ([]string, string) {
	here := []string{a.Tag}
	if len(a.Attr) > 0 || len(b.Attr) > 0 {
		if aa, ab := attrsOf(a), attrsOf(b); strings.Join(aa, "\x00") != strings.Join(ab, "\x00") {
			return here, fmt.Sprintf("attributes %q vs %q", aa, ab)
		}
	}
	ca, cb := a.ChildElements(), b.ChildElements()
	if len(ca) == 0 && len(cb) == 0 {
		if ta, tb := rawText(a), rawText(b); ta != tb {
			return here, fmt.Sprintf("text %q vs %q", ta, tb)
		}
	} else if ta, tb := textOf(a), textOf(b); ta != tb {
		return here, fmt.Sprintf("text %q vs %q", ta, tb)
	}
	for i := 0; i < len(ca) && i < len(cb); i++ {
		if where, what := diffTreeBy(ca[i], cb[i], attrsOf); what != "" {
			where[0] = fmt.Sprintf("%s[%d]", where[0], i+1)
			return append(here, where...), what
		}
	}
	if len(ca) != len(cb) {
		return here, fmt.Sprintf("%d child elements vs %d", len(ca), len(cb))
	}
	return nil, ""
}

// leaf is one value inside a node: the text of an element without child
// elements, or an attribute.
type leaf struct {
	Path  string // relative path of local names, "@name" for attributes
	Value string
	// Raw is the value as written (see rawText); Value is it trimmed.
	Raw string
}

// leaves lists the values under e (its own attributes included), in
// document order; a DataSet's schema and bookkeeping are not values.
func leaves(e *etree.Element) []leaf {
	var out []leaf
	var walk func(e *etree.Element, path string)
	walk = func(e *etree.Element, path string) {
		for _, a := range e.Attr {
			if isMetaAttr(a) {
				continue
			}
			out = append(out, leaf{strings.TrimPrefix(path+"/@"+a.Key, "/"), a.Value, a.Value})
		}
		kids := dataKids(e)
		if len(kids) == 0 && path != "" {
			out = append(out, leaf{path, textOf(e), rawText(e)})
		}
		for _, k := range kids {
			walk(k, strings.TrimPrefix(path+"/"+k.Tag, "/"))
		}
	}
	walk(e, "")
	return out
}

// findAll returns the elements named q under (and including) root, not
// descending into a match nor into a DataSet's schema.
func findAll(root *etree.Element, q qname) []*etree.Element {
	var out []*etree.Element
	var walk func(e *etree.Element)
	walk = func(e *etree.Element) {
		if nameOf(e) == q {
			out = append(out, e)
			return
		}
		for _, k := range dataKids(e) {
			walk(k)
		}
	}
	walk(root)
	return out
}

// largestGroup finds the largest group of sibling elements that share an
// expanded name and have child elements or attributes of their own: in a list
// result, the list's entries (a DataSet's rows; its schema is no list).
func largestGroup(root *etree.Element) (qname, int) {
	type group struct {
		n     int
		first *etree.Element
	}
	groups := map[qname]*group{}
	var order []qname
	var single qname
	var walk func(e *etree.Element)
	walk = func(e *etree.Element) {
		counts := map[qname]int{}
		var firsts []*etree.Element
		for _, k := range dataKids(e) {
			if !hasData(k) {
				continue
			}
			q := nameOf(k)
			if counts[q] == 0 {
				firsts = append(firsts, k)
			}
			counts[q]++
			if single == (qname{}) {
				single = q
			}
			walk(k)
		}
		for _, k := range firsts {
			q := nameOf(k)
			c := counts[q]
			if c < 2 {
				continue
			}
			g := groups[q]
			if g == nil {
				g = &group{}
				groups[q] = g
				order = append(order, q)
			}
			if c > g.n {
				g.n, g.first = c, k
			}
		}
	}
	walk(root)
	// The repeated element whose items hold the most values (a DataSet
	// lists a location's languages as rows too), then the most items; not
	// a group of the locations (a bank holding its ATMs: see groupLeaves),
	// whose items hold other repeated items that hold most of its values.
	var best qname
	n, bestLeaves := 0, -1
	for _, q := range order {
		g := groups[q]
		l := len(leaves(g.first))
		if groupsOthers(g.first, l, func(o qname) bool { return o != q && groups[o] != nil }) {
			continue
		}
		if l > bestLeaves || l == bestLeaves && g.n > n {
			best, n, bestLeaves = q, g.n, l
		}
	}
	if n == 0 && single != (qname{}) {
		return single, 1
	}
	return best, n
}

// groupsOthers reports whether more than half of the total values of
// element e are held by elements under it that isGroup names.
func groupsOthers(e *etree.Element, total int, isGroup func(qname) bool) bool {
	held := 0
	var walk func(e *etree.Element)
	walk = func(e *etree.Element) {
		for _, k := range dataKids(e) {
			if isGroup(nameOf(k)) {
				held += len(leaves(k))
				continue
			}
			walk(k)
		}
	}
	walk(e)
	return held*2 > total
}

var numberRE = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)

// norm maps a value to a comparable form: numbers compare numerically,
// true/false compare as 1/0, other text as itself.
func norm(v string) string {
	v = strings.TrimSpace(v)
	switch strings.ToLower(v) {
	case "true":
		return "n:1"
	case "false":
		return "n:0"
	}
	if numberRE.MatchString(v) {
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return "n:" + strconv.FormatFloat(f, 'g', -1, 64)
		}
	}
	return "s:" + v
}

// numeric returns v as a float when it is a plain decimal number.
func numeric(v string) (float64, bool) {
	v = strings.TrimSpace(v)
	if !numberRE.MatchString(v) {
		return 0, false
	}
	f, err := strconv.ParseFloat(v, 64)
	return f, err == nil
}

// resultNode is a checked XML result and the exchange it came in.
type resultNode struct {
	Root *etree.Element
	X    *Exchange
}

// isNullResult reports whether a wrapper is a search's null result: an
// element marked xsi:nil="true" holding nothing (nullResult, or a typed
// GET/POST root as XmlSerializer writes a null).
func isNullResult(w *etree.Element) bool {
	if len(w.ChildElements()) > 0 || textOf(w) != "" {
		return false
	}
	for _, a := range w.Attr {
		if a.NamespaceURI() == xsiNS && a.Key == "nil" && a.Value == "true" {
			return true
		}
	}
	return false
}

// diffNull describes a difference of two wrappers when one is a null
// result and the other is not, or returns "".
func diffNull(a, b *etree.Element) string {
	na, nb := isNullResult(a), isNullResult(b)
	if na == nb {
		return ""
	}
	say := func(w *etree.Element, null bool) string {
		if null {
			return "a null result (no <OpResult>, a root with xsi:nil=\"true\" or the XML declaration alone, as ASMX writes a null)"
		}
		return describeContent(w)
	}
	return "at /(content): " + say(a, na) + " vs " + say(b, nb)
}

package cassettes

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"slices"
	"strings"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
)

// A recorded XML answer is re-wrapped by moving its content, as recorded,
// into another envelope. The tree below keeps every node's bytes as written
// (start tags, attribute order, quoting, entities, empty-element forms), so
// that re-wrapping changes only what it must: the envelope, the namespace
// declarations the content relies on, and the indentation ASMX writes in
// one binding and not in the other.

// xkind is the kind of an xnode.
type xkind uint8

const (
	xDoc xkind = iota
	xElem
	xText
	xCDATA
	xComment
	xPI
)

// xnode is one node of a recorded XML document.
type xnode struct {
	kind       xkind
	src        []byte // the whole document
	start, end int    // the node's bytes in src (an element: start tag to end tag)
	// Elements only:
	name     string  // the qualified name as written
	tagEnd   int     // end of the start tag in src
	innerEnd int     // start of the end tag in src (tagEnd for an empty element)
	empty    bool    // written as <x/>
	attrs    []xattr // in written order
	kids     []*xnode
	parent   *xnode
}

// xattr is an attribute of a start tag; the offsets are in src.
type xattr struct {
	name       string
	value      string // raw, entities not resolved
	start, end int    // the attribute, from its name to its closing quote
}

func (n *xnode) bytes() []byte { return n.src[n.start:n.end] }

// startTag is an element's start tag as written.
func (n *xnode) startTag() []byte { return n.src[n.start:n.tagEnd] }

// inner is what is between an element's start and end tags, as written.
func (n *xnode) inner() []byte { return n.src[n.tagEnd:n.innerEnd] }

// prefix and local split the element's name.
func (n *xnode) prefix() string {
	if i := strings.IndexByte(n.name, ':'); i >= 0 {
		return n.name[:i]
	}
	return ""
}

func (n *xnode) local() string { return n.name[strings.IndexByte(n.name, ':')+1:] }

// elements returns the element children.
func (n *xnode) elements() []*xnode {
	var out []*xnode
	for _, k := range n.kids {
		if k.kind == xElem {
			out = append(out, k)
		}
	}
	return out
}

// child returns the first element child with local name local.
func (n *xnode) child(local string) *xnode {
	for _, k := range n.kids {
		if k.kind == xElem && k.local() == local {
			return k
		}
	}
	return nil
}

// root is a document's element.
func (n *xnode) root() *xnode {
	for _, k := range n.kids {
		if k.kind == xElem {
			return k
		}
	}
	return nil
}

// attr returns the raw value of the attribute called name.
func (n *xnode) attr(name string) (string, bool) {
	for _, a := range n.attrs {
		if a.name == name {
			return a.value, true
		}
	}
	return "", false
}

// The namespaces every XML document has bound.
const (
	nsXML = "http://www.w3.org/XML/1998/namespace"
	nsXSI = "http://www.w3.org/2001/XMLSchema-instance"
	nsXSD = "http://www.w3.org/2001/XMLSchema"
)

// declared returns the namespace n itself declares for prefix ("" is the
// default namespace).
func (n *xnode) declared(prefix string) (uri string, ok bool) {
	name := "xmlns"
	if prefix != "" {
		name = "xmlns:" + prefix
	}
	v, ok := n.attr(name)
	if !ok {
		return "", false
	}
	return html.UnescapeString(v), true
}

// lookup resolves prefix at n: its declaration on n or the nearest
// ancestor. The default namespace is "" when nothing declares it.
func (n *xnode) lookup(prefix string) (uri string, ok bool) {
	if prefix == "xml" {
		return nsXML, true
	}
	for e := n; e != nil && e.kind == xElem; e = e.parent {
		if uri, ok := e.declared(prefix); ok {
			return uri, true
		}
	}
	return "", prefix == ""
}

// space is the namespace URI of an element.
func (n *xnode) space() string {
	uri, _ := n.lookup(n.prefix())
	return uri
}

// nsScope maps prefixes ("" for the default namespace) to URIs.
type nsScope map[string]string

// scopeAt collects the declarations in scope at n (n's own included).
func scopeAt(n *xnode) nsScope {
	s := nsScope{}
	for e := n; e != nil && e.kind == xElem; e = e.parent {
		for _, a := range e.attrs {
			p, ok := declPrefix(a.name)
			if !ok {
				continue
			}
			if _, inner := s[p]; !inner {
				s[p] = html.UnescapeString(a.value)
			}
		}
	}
	return s
}

// declPrefix reports whether an attribute name declares a namespace, and
// for which prefix.
func declPrefix(attr string) (string, bool) {
	if attr == "xmlns" {
		return "", true
	}
	if p, ok := strings.CutPrefix(attr, "xmlns:"); ok {
		return p, true
	}
	return "", false
}

var errNotXML = errors.New("not well-formed XML")

// errTooDeep is parseXML's error for a document nested deeper than the
// walks of its tree may go without risking the process's stack.
var errTooDeep = fmt.Errorf("its elements nest more than %d levels deep", recorded.MaxDepth)

// parseXML reads a recorded XML document, keeping each node's bytes. Its
// elements may nest recorded.MaxDepth levels deep.
func parseXML(src []byte) (*xnode, error) {
	doc := &xnode{kind: xDoc, src: src, end: len(src)}
	cur := doc
	depth := 0 // cur's
	i := 0
	if bytes.HasPrefix(src, []byte("\xef\xbb\xbf")) {
		i = 3
	}
	fail := func(at int, format string, args ...any) (*xnode, error) {
		return nil, fmt.Errorf("%w: %s at byte %d", errNotXML, fmt.Sprintf(format, args...), at)
	}
	add := func(n *xnode) {
		n.parent, n.src = cur, src
		cur.kids = append(cur.kids, n)
	}
	for i < len(src) {
		if src[i] != '<' {
			j := bytes.IndexByte(src[i:], '<')
			if j < 0 {
				j = len(src) - i
			}
			if cur == doc && len(bytes.TrimSpace(src[i:i+j])) > 0 {
				return fail(i, "text outside the root element")
			}
			add(&xnode{kind: xText, start: i, end: i + j})
			i += j
			continue
		}
		rest := src[i:]
		switch {
		case bytes.HasPrefix(rest, []byte("<!--")):
			j := bytes.Index(rest[4:], []byte("-->"))
			if j < 0 {
				return fail(i, "an unclosed comment")
			}
			add(&xnode{kind: xComment, start: i, end: i + 4 + j + 3})
			i += 4 + j + 3
		case bytes.HasPrefix(rest, []byte("<![CDATA[")):
			j := bytes.Index(rest[9:], []byte("]]>"))
			if j < 0 || cur == doc {
				return fail(i, "a CDATA section out of place")
			}
			add(&xnode{kind: xCDATA, start: i, end: i + 9 + j + 3})
			i += 9 + j + 3
		case bytes.HasPrefix(rest, []byte("<?")):
			j := bytes.Index(rest[2:], []byte("?>"))
			if j < 0 {
				return fail(i, "an unclosed processing instruction")
			}
			add(&xnode{kind: xPI, start: i, end: i + 2 + j + 2})
			i += 2 + j + 2
		case bytes.HasPrefix(rest, []byte("<!")):
			return fail(i, "a DOCTYPE")
		case bytes.HasPrefix(rest, []byte("</")):
			j := bytes.IndexByte(rest, '>')
			if j < 0 {
				return fail(i, "an unclosed end tag")
			}
			name := string(bytes.TrimSpace(rest[2:j]))
			if cur == doc || name != cur.name {
				return fail(i, "end tag </%s> does not close <%s>", name, cur.name)
			}
			cur.innerEnd, cur.end = i, i+j+1
			cur = cur.parent
			depth--
			i += j + 1
		default:
			n, err := parseStartTag(src, i)
			if err != nil {
				return nil, err
			}
			if cur == doc && doc.root() != nil {
				return fail(i, "a second root element")
			}
			add(n)
			i = n.tagEnd
			if !n.empty {
				if depth++; depth > recorded.MaxDepth {
					return nil, fmt.Errorf("%w at byte %d", errTooDeep, n.start)
				}
				cur = n
			}
		}
	}
	if cur != doc {
		return fail(len(src), "<%s> is not closed", cur.name)
	}
	if doc.root() == nil {
		return fail(len(src), "no root element")
	}
	return doc, nil
}

// parseStartTag reads the start tag at src[i].
func parseStartTag(src []byte, i int) (*xnode, error) {
	fail := func(at int, what string) (*xnode, error) {
		return nil, fmt.Errorf("%w: %s at byte %d", errNotXML, what, at)
	}
	j := i + 1
	for j < len(src) && !isXMLSpace(src[j]) && src[j] != '>' && src[j] != '/' {
		j++
	}
	if j == i+1 {
		return fail(i, "a start tag without a name")
	}
	n := &xnode{kind: xElem, start: i, name: string(src[i+1 : j])}
	for {
		for j < len(src) && isXMLSpace(src[j]) {
			j++
		}
		if j >= len(src) {
			return fail(i, "an unclosed start tag")
		}
		switch src[j] {
		case '>':
			n.tagEnd, n.innerEnd = j+1, j+1
			return n, nil
		case '/':
			if j+1 >= len(src) || src[j+1] != '>' {
				return fail(j, "a stray / in a start tag")
			}
			n.empty = true
			n.tagEnd, n.innerEnd, n.end = j+2, j+2, j+2
			return n, nil
		}
		a := xattr{start: j}
		for j < len(src) && !isXMLSpace(src[j]) && src[j] != '=' && src[j] != '>' && src[j] != '/' {
			j++
		}
		a.name = string(src[a.start:j])
		for j < len(src) && isXMLSpace(src[j]) {
			j++
		}
		if a.name == "" || j >= len(src) || src[j] != '=' {
			return fail(j, "an attribute without a value")
		}
		j++
		for j < len(src) && isXMLSpace(src[j]) {
			j++
		}
		if j >= len(src) || (src[j] != '"' && src[j] != '\'') {
			return fail(j, "an unquoted attribute value")
		}
		q := src[j]
		k := bytes.IndexByte(src[j+1:], q)
		if k < 0 {
			return fail(j, "an unclosed attribute value")
		}
		a.value = string(src[j+1 : j+1+k])
		j += k + 2
		a.end = j
		n.attrs = append(n.attrs, a)
	}
}

func isXMLSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isIndentation reports whether a text node is formatting: white space that
// starts a new line, as indenting writers put between elements.
func isIndentation(n *xnode) bool {
	b := n.bytes()
	return n.kind == xText && len(bytes.TrimLeft(b, " \t\r\n")) == 0 && bytes.IndexByte(b, '\n') >= 0
}

// elementOnly reports whether nodes hold no character data but
// indentation: their layout is the writer's, not the content's.
func elementOnly(nodes []*xnode) bool {
	for _, k := range nodes {
		switch {
		case k.kind == xCDATA:
			return false
		case k.kind == xText && !isIndentation(k):
			return false
		}
	}
	return true
}

// preserves reports whether an element asks for its white space to be kept.
func preserves(n *xnode) bool {
	v, ok := n.attr("xml:space")
	return ok && v == "preserve"
}

// xmlWriter writes nodes as ASMX writes them: flat (the SOAP protocols,
// whose XmlWriter does not indent) or indented by two spaces (the HTTP GET
// and POST protocols, whose XmlSerializer does). Only indentation is
// changed: an element with character data (mixed content) or
// xml:space="preserve" is written as recorded.
type xmlWriter struct {
	dst    []byte
	indent bool
	nl     string            // the line break when indenting: "\r\n" or "\n"; "" is "\n"
	tags   map[*xnode][]byte // start tags to write instead of the recorded ones
}

func (w *xmlWriter) newline(depth int) {
	if w.indent {
		if w.nl == "" {
			w.dst = append(w.dst, '\n')
		} else {
			w.dst = append(w.dst, w.nl...)
		}
		for range depth {
			w.dst = append(w.dst, "  "...)
		}
	}
}

// node writes n at depth.
func (w *xmlWriter) node(n *xnode, depth int) {
	if n.kind != xElem {
		w.dst = append(w.dst, n.bytes()...)
		return
	}
	tag := n.startTag()
	if t, ok := w.tags[n]; ok {
		tag = t
	}
	w.dst = append(w.dst, tag...)
	if n.empty {
		return
	}
	if preserves(n) || !elementOnly(n.kids) {
		w.dst = append(w.dst, n.inner()...)
	} else {
		// An element without content is written with a full end tag
		// on a line of its own, as XmlTextWriter's WriteFullEndElement
		// writes it when indenting (<Site>\n  </Site>).
		w.nodes(n.kids, depth+1)
		w.newline(depth)
	}
	w.dst = append(w.dst, "</"...)
	w.dst = append(w.dst, n.name...)
	w.dst = append(w.dst, '>')
}

// nodes writes element-only content at depth, each node on a line of its
// own when indenting; indentation text is dropped.
func (w *xmlWriter) nodes(kids []*xnode, depth int) {
	for _, k := range kids {
		if k.kind == xText {
			continue
		}
		w.newline(depth)
		w.node(k, depth)
	}
}

func hasNonText(nodes []*xnode) bool {
	return slices.ContainsFunc(nodes, func(k *xnode) bool { return k.kind != xText })
}

// usedPrefixes returns the prefixes el's subtree uses without declaring
// them itself ("" for an unprefixed element relying on the default
// namespace), sorted. QName values of attributes (xsi:type="s:string")
// count as uses of their prefix.
func usedPrefixes(el *xnode) []string {
	need := map[string]bool{}
	var walk func(e *xnode, declared map[string]bool)
	walk = func(e *xnode, declared map[string]bool) {
		local, cloned := declared, false
		for _, a := range e.attrs {
			if p, ok := declPrefix(a.name); ok {
				if !cloned {
					local, cloned = cloneSet(declared), true
				}
				local[p] = true
			}
		}
		use := func(p string) {
			if p != "xml" && !local[p] {
				need[p] = true
			}
		}
		use(e.prefix())
		for _, a := range e.attrs {
			if _, ok := declPrefix(a.name); ok {
				continue
			}
			if i := strings.IndexByte(a.name, ':'); i >= 0 {
				use(a.name[:i])
			}
			if p, ok := qnamePrefix(a.value); ok {
				use(p)
			}
		}
		for _, k := range e.kids {
			if k.kind == xElem {
				walk(k, local)
			}
		}
	}
	walk(el, map[string]bool{})
	out := make([]string, 0, len(need))
	for p := range need {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

func cloneSet(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m)+2)
	for k, v := range m {
		out[k] = v
	}
	return out
}

// qnamePrefix returns the prefix of an attribute value that reads as a
// prefixed QName (p:local).
func qnamePrefix(v string) (string, bool) {
	p, local, ok := strings.Cut(v, ":")
	if !ok || p == "" || local == "" || !isNCName(p) || !isNCName(local) {
		return "", false
	}
	return p, true
}

func isNCName(s string) bool {
	for i, r := range s {
		switch {
		case r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= 0x80:
		case i > 0 && (r == '-' || r == '.' || r >= '0' && r <= '9'):
		default:
			return false
		}
	}
	return s != ""
}

// movedTag returns el's start tag for el moved out of the scope from into
// the scope to: a declaration is added for each namespace el relies on
// that to binds differently, and with dropEmptyDefault an xmlns="" that
// to makes redundant is removed (ASMX writes none on a GET/POST root).
// ok is false when el's tag needs no change.
func movedTag(el *xnode, from, to nsScope, dropEmptyDefault bool) (tag []byte, ok bool) {
	var add []byte
	for _, p := range usedPrefixes(el) {
		src, known := from[p]
		if !known && p != "" {
			continue // unbound in the recording as well: leave it as it was
		}
		if dst, bound := to[p]; (bound || p == "") && dst == src {
			continue
		}
		name := "xmlns"
		if p != "" {
			name += ":" + p
		}
		add = append(add, ' ')
		add = append(add, name...)
		add = append(add, `="`...)
		add = append(add, escapeAttr(src)...)
		add = append(add, '"')
	}
	raw := el.startTag()
	drop := -1
	if dropEmptyDefault && to[""] == "" {
		for k, a := range el.attrs {
			if a.name == "xmlns" && a.value == "" {
				drop = k
			}
		}
	}
	if len(add) == 0 && drop < 0 {
		return nil, false
	}
	out := make([]byte, 0, len(raw)+len(add))
	rel := func(at int) int { return at - el.start }
	if drop >= 0 {
		a := el.attrs[drop]
		cut := rel(a.start)
		for cut > 0 && isXMLSpace(raw[cut-1]) {
			cut--
		}
		out = append(out, raw[:cut]...)
		out = append(out, raw[rel(a.end):]...)
	} else {
		out = append(out, raw...)
	}
	closeLen := 1
	if el.empty {
		closeLen = 2
	}
	at := len(out) - closeLen
	for at > 0 && isXMLSpace(out[at-1]) && el.empty {
		at-- // keep " />" as " />" after the added declarations
	}
	res := make([]byte, 0, len(out)+len(add))
	res = append(res, out[:at]...)
	res = append(res, add...)
	res = append(res, out[at:]...)
	return res, true
}

// escapeAttr escapes s for a double-quoted attribute value.
func escapeAttr(s string) string {
	if !strings.ContainsAny(s, `<>&"`) {
		return s
	}
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return r.Replace(s)
}

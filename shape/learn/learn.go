package learn

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// Input is what the learner reads.
type Input struct {
	// WSDL is the deployment's WSDL document, or nil.
	WSDL []byte
	// Samples are recorded answers: XML answers (SOAP 1.1, SOAP 1.2, HTTP
	// GET and POST) and JSON answers to the same queries.
	Samples []Sample
}

// Report says what the learner decided and on what grounds.
type Report struct {
	// Mapped are fields mapped on evidence: the WSDL's structure and
	// values equal to the JSON answers of the same query.
	Mapped []string
	// Guessed are decisions without such evidence, with the reason.
	Guessed []string
	// Unmapped are the deployment's fields no value of atmkit's model
	// matches; the shape writes them with generated values.
	Unmapped []string
	// Omitted are values of atmkit's model the deployment does not write.
	Omitted []string
	// Notes are samples skipped and other remarks.
	Notes []string
	// Namespace is the deployment's service namespace, as the WSDL or the
	// SOAP answers show it ("" when neither does): serve the shape in it.
	Namespace string
}

// WriteText writes the report as atmkit shape learn prints it: a section
// per list that is not empty, its title and count, then a line per entry.
func (r *Report) WriteText(w io.Writer) error {
	var b strings.Builder
	section := func(title string, lines []string) {
		if len(lines) == 0 {
			return
		}
		fmt.Fprintf(&b, "%s (%d):\n", title, len(lines))
		for _, l := range lines {
			fmt.Fprintf(&b, "  %s\n", l)
		}
	}
	section("Mapped", r.Mapped)
	section("Guessed (check these)", r.Guessed)
	section("Could not map (written with generated values)", r.Unmapped)
	section("Omitted (atmkit has them, the deployment does not)", r.Omitted)
	section("Notes", r.Notes)
	_, err := io.WriteString(w, b.String())
	return err
}

// ErrNothingToLearn is returned when the input holds neither a WSDL nor
// an answer the learner can read.
var ErrNothingToLearn = errors.New("nothing to learn from: give a WSDL or recorded answers")

// group is one result type: the operations that return it and its skeleton.
type group struct {
	content  shape.Content
	layout   shape.Layout
	ops      []string
	root     *node // the node (layout node), or the GET/POST root holding the fields (typed)
	rootSure bool  // the root's name is known (WSDL, or a GET/POST answer)
	typeName string
	item     *node // the content list's item
	from     string
	// answers: per operation, the XML contents.
	contents []*content
}

type learner struct {
	in       Input
	info     *wsdlInfo
	ns       string
	report   *Report
	contents map[string][]*content  // by operation
	jsons    map[string]*jsonAnswer // by operation and query
	groups   []*group
}

// Learn learns a shape from in. The shape is valid; the report lists what
// was mapped, guessed, left unmapped and omitted.
func Learn(in Input) (*shape.Shape, *Report, error) {
	l := &learner{in: in, report: &Report{}, contents: map[string][]*content{}, jsons: map[string]*jsonAnswer{}}
	if len(in.WSDL) > 0 {
		info, err := readWSDL(in.WSDL)
		if err != nil {
			return nil, nil, err
		}
		l.info, l.ns = info, info.ns
	}
	l.readSamples()
	if l.info == nil && len(l.contents) == 0 {
		return nil, l.report, ErrNothingToLearn
	}
	if err := l.makeGroups(); err != nil {
		return nil, l.report, err
	}
	for _, g := range l.groups {
		l.findList(g)
	}
	for _, g := range l.groups {
		if g.content == shape.Locations {
			l.matchLocations(g)
		}
	}
	for _, g := range l.groups {
		switch g.content {
		case shape.Institutions:
			l.matchInstitutions(g)
		case shape.Provinces:
			l.matchProvinces(g)
		}
	}
	sh, err := l.build()
	if err != nil {
		return nil, l.report, err
	}
	l.report.Omitted = append(l.report.Omitted, shape.Summarize(sh).Omitted...)
	l.report.Namespace = l.ns
	return sh, l.report, nil
}

func (l *learner) note(format string, args ...any) {
	l.report.Notes = append(l.report.Notes, fmt.Sprintf(format, args...))
}

func (l *learner) guess(format string, args ...any) {
	l.report.Guessed = append(l.report.Guessed, fmt.Sprintf(format, args...))
}

// readSamples parses the answers; those that cannot be read are noted.
func (l *learner) readSamples() {
	for i := range l.in.Samples {
		s := &l.in.Samples[i]
		if shape.ContentOf(s.Op) == "" {
			continue
		}
		if s.Status != 200 {
			continue
		}
		if s.Binding == JSON {
			a, err := readJSON(s.Body)
			if err != nil {
				l.note("skipped %s (%s %s): the answer %v", s.Where, s.Binding, s.Op, err)
				continue
			}
			l.jsons[s.Op+"\x00"+s.Query] = a
			continue
		}
		c, err := readContent(s)
		if err != nil {
			l.note("skipped %s (%s %s): the answer %v", s.Where, s.Binding, s.Op, err)
			continue
		}
		if c.soap && l.ns == "" {
			l.ns = c.ns
		}
		l.contents[s.Op] = append(l.contents[s.Op], c)
	}
	if l.ns == "" {
		for _, cs := range l.contents {
			for _, c := range cs {
				if !c.soap && hasTypedRoot(c.root) && l.ns == "" {
					l.ns = c.root.NamespaceURI()
				}
			}
		}
	}
}

// resultElement is the element of an answer whose children are the
// result's fields (typed: <OpResult> or the GET/POST root) or that is the
// node (layout node); nil if the answer does not have that layout.
func resultElement(c *content, layout shape.Layout) *etree.Element {
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
	var soapOne, soapMany, typedRoot, plainRoot []*content
	for _, c := range l.contents[op] {
		switch {
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

// makeGroups decides each operation's layout and gathers operations of
// one result type, with their skeletons.
func (l *learner) makeGroups() error {
	byKey := map[string]*group{}
	var unknown []string
	for _, op := range shape.Operations() {
		content := shape.ContentOf(op)
		var k string
		var g *group
		if l.info != nil && l.info.ops[op] != nil {
			r := l.info.ops[op]
			if r.node {
				k = "node " + string(content)
			} else {
				k = "type " + r.typeNS + " " + r.typeName
			}
			if g = byKey[k]; g == nil {
				g = &group{content: content, from: "the WSDL"}
				if r.node {
					g.layout = shape.Node
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
	// Skeletons from the answers where the WSDL gave none.
	for _, g := range l.groups {
		if g.root != nil {
			continue
		}
		if len(g.contents) == 0 {
			return fmt.Errorf("%s: the WSDL says the result is an XML node and no answer shows its elements: record answers of it", strings.Join(g.ops, ", "))
		}
		l.skeletonFromAnswers(g)
	}
	// Operations nobody says anything about share the result of their content.
	for _, op := range unknown {
		var found *group
		for _, g := range l.groups {
			if g.content == shape.ContentOf(op) {
				found = g
				break
			}
		}
		if found == nil {
			return fmt.Errorf("%s: no WSDL and no answer of it or of an operation returning %s: record answers of it", op, shape.ContentOf(op))
		}
		found.ops = append(found.ops, op)
		l.guess("%s: no WSDL and no answer: it returns %s, so it gets the result of %s", op, found.content, found.ops[0])
	}
	return nil
}

// skeletonFromAnswers builds a group's skeleton from its answers: every
// element and attribute seen, in the order first seen; elements repeated
// in one parent are lists.
func (l *learner) skeletonFromAnswers(g *group) {
	var insts []*etree.Element
	for _, c := range g.contents {
		insts = append(insts, resultElement(c, g.layout))
	}
	name, sure := "", false
	for _, c := range g.contents {
		if !c.soap {
			name, sure = c.root.Tag, true
			break
		}
	}
	if g.layout == shape.Node && name == "" {
		name, sure = insts[0].Tag, true
	}
	g.root = &node{name: name, ns: insts[0].NamespaceURI()}
	if g.layout == shape.Typed {
		g.root.ns = l.ns
	}
	g.rootSure = sure
	merge(g.root, insts)
}

// merge adds to n what its instances show: their attributes and child
// elements, in the order first seen; a child seen twice in one instance is
// repeated (a list's item); a leaf's type is inferred from its texts.
func merge(n *node, insts []*etree.Element) {
	children := map[string][]*etree.Element{}
	var order []string
	repeated := map[string]bool{}
	attrTexts := map[*node][]string{}
	for _, el := range insts {
		n.seen++
		for _, a := range el.Attr {
			if a.Space == "xmlns" || a.Key == "xmlns" || a.Space == "xsi" {
				continue
			}
			k := n.child(a.Key, true)
			if k == nil {
				k = &node{name: a.Key, attr: true}
				n.kids = append(n.kids, k)
			}
			attrTexts[k] = append(attrTexts[k], a.Value)
		}
		counts := map[string]int{}
		prev := ""
		for _, c := range el.ChildElements() {
			if _, ok := children[c.Tag]; !ok {
				// After the element that came before it here, so that
				// fields some answers leave out keep their place.
				at := 0
				if prev != "" {
					at = slices.Index(order, prev) + 1
				}
				order = slices.Insert(order, at, c.Tag)
			}
			children[c.Tag] = append(children[c.Tag], c)
			if counts[c.Tag]++; counts[c.Tag] > 1 {
				repeated[c.Tag] = true
			}
			prev = c.Tag
		}
	}
	for k, texts := range attrTexts {
		k.typ = inferType(texts)
	}
	for _, name := range order {
		k := n.child(name, false)
		if k == nil {
			k = &node{name: name, ns: children[name][0].NamespaceURI()}
			n.kids = append(n.kids, k)
		}
		k.repeated = k.repeated || repeated[name]
		complex := false
		var texts []string
		for _, c := range children[name] {
			if len(c.ChildElements()) > 0 || !onlyNamespaces(c) {
				complex = true
			}
			texts = append(texts, c.Text())
		}
		if complex {
			k.typ = ""
			merge(k, children[name])
		} else if len(k.kids) == 0 {
			k.typ = inferType(texts)
		}
	}
}

func onlyNamespaces(e *etree.Element) bool {
	for _, a := range e.Attr {
		if a.Space != "xmlns" && a.Key != "xmlns" {
			return false
		}
	}
	return true
}

// findList marks the content list of a group: the repeated element with
// the most values below it (locations), or the one repeated element
// (institutions, provinces).
func (l *learner) findList(g *group) {
	var best *node
	bestLeaves := -1
	var visit func(n *node)
	visit = func(n *node) {
		for _, k := range n.kids {
			if k.attr {
				continue
			}
			if k.repeated && !k.isLeaf() {
				leaves := 0
				k.walk("", func(x *node, _ string) {
					if x.isLeaf() {
						leaves++
					}
				})
				if leaves > bestLeaves {
					best, bestLeaves = k, leaves
				}
				continue
			}
			visit(k)
		}
	}
	visit(g.root)
	if best == nil {
		// No answer held two items: the complex element with the most values.
		var visit2 func(n *node)
		visit2 = func(n *node) {
			for _, k := range n.kids {
				if k.isLeaf() || k.attr {
					continue
				}
				if it := k.wrappedItem(); it == nil && len(k.kids) > 0 {
					leaves := 0
					k.walk("", func(x *node, _ string) {
						if x.isLeaf() {
							leaves++
						}
					})
					if leaves > bestLeaves && leaves >= 2 {
						best, bestLeaves = k, leaves
					}
				}
				visit2(k)
			}
		}
		visit2(g.root)
		if best != nil {
			best.repeated = true
			l.guess("%s: <%s> is taken for the %s list's item: no answer held two of them", strings.Join(g.ops, ", "), best.name, g.content)
		}
	}
	if best == nil {
		return
	}
	best.list = string(g.content)
	if !best.guessed {
		best.evidence = "a repeated element"
		if best.fromWSDL {
			best.evidence = "maxOccurs unbounded in the WSDL"
		}
	}
	g.item = best
}

// instances collects records of a group's answers: per answer, the
// result's record and one per content list item.
func (l *learner) instances(g *group, c *content) (record, []record) {
	el := resultElement(c, g.layout)
	top := record{}
	var items []*etree.Element
	collect(g.root, el, top, g.item, &items)
	var recs []record
	for _, it := range items {
		r := record{}
		collect(g.item, it, r, nil, nil)
		recs = append(recs, r)
	}
	return top, recs
}

// collect fills rec with the texts of el, an instance of n; instances of
// stop (the content list's item) go to items instead.
func collect(n *node, el *etree.Element, rec record, stop *node, items *[]*etree.Element) {
	for _, k := range n.kids {
		if k.attr {
			if a := el.SelectAttr(k.name); a != nil {
				rec[k] = append(rec[k], a.Value)
				k.texts = append(k.texts, a.Value)
			}
		}
	}
	for _, c := range el.ChildElements() {
		k := n.child(c.Tag, false)
		if k == nil {
			continue
		}
		switch {
		case k == stop:
			*items = append(*items, c)
		case k.isLeaf():
			t := c.Text()
			rec[k] = append(rec[k], t)
			k.texts = append(k.texts, t)
		case k.repeated && k.list != "":
			// Another content list (a deployment nesting lists): not read.
		default:
			collect(k, c, rec, stop, items)
		}
	}
}

// typeNames gives the complexType name of each container by path, from the WSDL.
func typeNames(root *node) map[string]string {
	out := map[string]string{}
	for _, k := range root.kids {
		k.walk(k.label(), func(x *node, at string) {
			if x.typeName != "" {
				out[at] = x.typeName
			}
		})
	}
	return out
}

// matchLocations maps a location result and its items.
func (l *learner) matchLocations(g *group) {
	var tops, items []pair
	for _, c := range g.contents {
		top, recs := l.instances(g, c)
		j := l.jsons[c.sample.Op+"\x00"+c.sample.Query]
		if j == nil {
			tops = append(tops, pair{rec: top})
			for _, r := range recs {
				items = append(items, pair{rec: r})
			}
			continue
		}
		tops = append(tops, pair{rec: top, values: j.top})
		if len(recs) != len(j.items) {
			l.note("%s: %d locations in XML, %d in the JSON answer to the same query: not compared", c.sample.Where, len(recs), len(j.items))
			continue
		}
		for i, r := range recs {
			items = append(items, pair{rec: r, values: j.items[i].values, langs: nonNil(j.items[i].languages)})
		}
	}
	matchScope(scopeLeaves(g.root, ""), shape.ScopeLocations, tops, typeNames(g.root), true)
	if g.item != nil {
		matchScope(scopeLeaves(g.item, ""), shape.ScopeLocation, items, typeNames(g.item), true)
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// jsonInstitutions gathers the institutions the JSON answers show, by id.
func (l *learner) jsonInstitutions() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, j := range l.jsons {
		for _, it := range j.items {
			id := it.values["institution.id"]
			if id == "" {
				continue
			}
			out[id] = map[string]string{"id": id, "name": it.values["institution.name"], "url": it.values["institution.url"],
				"isAtlanticCreditUnion": it.values["institution.isAtlanticCreditUnion"]}
		}
	}
	return out
}

// matchInstitutions maps the institutions list's items: by value against
// the institutions the JSON answers show, then as the same type as the
// locations' institution, then by name.
func (l *learner) matchInstitutions(g *group) {
	if g.item == nil {
		return
	}
	leaves := scopeLeaves(g.item, "")
	var recs []record
	for _, c := range g.contents {
		_, rs := l.instances(g, c)
		recs = append(recs, rs...)
	}
	known := l.jsonInstitutions()
	// The leaf holding ids the JSON answers know joins the two: the one
	// whose joined institutions' names and addresses appear in the items.
	var join *node
	best := 0
	for _, lf := range leaves {
		score := 0
		for _, r := range recs {
			t := r[lf.n]
			if len(t) == 0 {
				continue
			}
			inst := known[strings.TrimSpace(t[0])]
			if inst == nil {
				continue
			}
			for _, other := range leaves {
				if o := r[other.n]; other.n != lf.n && len(o) > 0 && o[0] != "" && (o[0] == inst["name"] || o[0] == inst["url"]) {
					score++
				}
			}
		}
		if score > best {
			join, best = lf.n, score
		}
	}
	var pairs []pair
	if join != nil {
		for _, r := range recs {
			if t := r[join]; len(t) > 0 {
				if v := known[strings.TrimSpace(t[0])]; v != nil {
					pairs = append(pairs, pair{rec: r, values: v})
				}
			}
		}
	}
	matchScope(leaves, shape.ScopeInstitution, pairs, typeNames(g.item), false)
	l.sameTypeAsLocations(g, leaves, "institution.")
	matchScope(leaves, shape.ScopeInstitution, nil, typeNames(g.item), true)
}

// sameTypeAsLocations maps the leaves of a reference list's item like the
// locations' container of the same type (or the same element names): an
// institutions item typed Institution like the location's <Bank>.
func (l *learner) sameTypeAsLocations(g *group, leaves []leafAt, prefix string) {
	for _, lg := range l.groups {
		if lg.content != shape.Locations || lg.item == nil {
			continue
		}
		var cont *node
		lg.item.walk("", func(x *node, _ string) {
			if cont != nil || x.isLeaf() || x == lg.item {
				return
			}
			if g.item.typeName != "" && x.typeName == g.item.typeName || sameNames(x, g.item) {
				cont = x
			}
		})
		if cont == nil {
			continue
		}
		used := map[string]bool{}
		for _, lf := range leaves {
			if lf.n.value != "" {
				used[lf.n.value] = true
			}
		}
		for _, lf := range leaves {
			if lf.n.value != "" {
				continue
			}
			k := cont.child(lf.n.name, lf.n.attr)
			if k == nil || !strings.HasPrefix(k.value, prefix) {
				continue
			}
			v := strings.TrimPrefix(k.value, prefix)
			if used[v] {
				continue
			}
			lf.n.value, used[v] = v, true
			lf.n.evidence = fmt.Sprintf("the same type as the locations' <%s>, whose <%s> holds %s", cont.name, k.name, k.value)
			lf.n.guessed = k.guessed
		}
	}
}

func sameNames(a, b *node) bool {
	if len(a.kids) != len(b.kids) || len(a.kids) == 0 {
		return false
	}
	for i := range a.kids {
		if a.kids[i].name != b.kids[i].name || a.kids[i].attr != b.kids[i].attr {
			return false
		}
	}
	return true
}

var provinceCode = regexp.MustCompile(`^[A-Z]{2}$`)

// matchProvinces maps the provinces list's items. There is no JSON form of
// ReturnProvinces: the code is the leaf of two capital letters (the more
// so when the locations' provinces are among them), the name a leaf of
// words; then by name.
func (l *learner) matchProvinces(g *group) {
	if g.item == nil {
		return
	}
	leaves := scopeLeaves(g.item, "")
	for _, c := range g.contents {
		l.instances(g, c) // the leaves' texts
	}
	seen := map[string]bool{}
	for _, j := range l.jsons {
		for _, it := range j.items {
			if p := it.values["address.province"]; p != "" {
				seen[p] = true
			}
		}
	}
	var code *node
	bestOverlap := -1
	for _, lf := range leaves {
		if len(lf.n.texts) == 0 || lf.n.typ != "string" && lf.n.fromWSDL {
			continue
		}
		all, overlap := true, 0
		for _, t := range lf.n.texts {
			if !provinceCode.MatchString(t) {
				all = false
			}
			if seen[t] {
				overlap++
			}
		}
		if all && overlap > bestOverlap {
			code, bestOverlap = lf.n, overlap
		}
	}
	if code != nil {
		code.value = "code"
		if bestOverlap > 0 {
			code.evidence = fmt.Sprintf("two-letter codes, %d of them provinces of the recorded locations", bestOverlap)
		} else {
			code.evidence, code.guessed = "two-letter codes (no location to compare with)", true
		}
	}
	var name *node
	for _, lf := range leaves {
		if lf.n == code || len(lf.n.texts) == 0 || lf.n.typ != "string" {
			continue
		}
		words := true
		for _, t := range lf.n.texts {
			if !strings.ContainsFunc(t, func(r rune) bool { return r >= 'a' && r <= 'z' }) {
				words = false
			}
		}
		if words && (name == nil || nameScore(lf.at, "name", nil) > nameScore(name.name, "name", nil)) {
			name = lf.n
		}
	}
	if name != nil {
		name.value = "name"
		name.evidence, name.guessed = "values are words (province names), no JSON form to compare", true
	}
	matchScope(leaves, shape.ScopeProvince, nil, typeNames(g.item), true)
}

// relNS writes namespace uri relative to the service namespace and the
// enclosing one: "" when it inherits, service, none or the URI.
func (l *learner) relNS(uri, enclosing string) shape.Namespace {
	switch {
	case uri == enclosing:
		return ""
	case uri == l.ns:
		return shape.Service
	case uri == "":
		return shape.NoNamespace
	}
	return shape.Namespace(uri)
}

// build turns the groups into a shape.
func (l *learner) build() (*shape.Shape, error) {
	sh := &shape.Shape{Operations: map[string]string{}}
	names := map[string]bool{}
	for _, g := range l.groups {
		r := &shape.Result{Layout: g.layout}
		contentNS := g.root.ns
		if g.layout == shape.Typed {
			contentNS = l.ns
			if len(g.root.kids) > 0 && !g.root.kids[0].attr {
				contentNS = g.root.kids[0].ns
			}
		}
		switch {
		case g.layout == shape.Typed && contentNS == l.ns:
			r.Namespace = shape.Service
		default:
			r.Namespace = l.relNS(contentNS, "\x00")
		}
		r.Root = g.root.name
		if !g.rootSure || r.Root == "" {
			r.Root = l.guessRoot(g)
		}
		if g.typeName != "" && g.typeName != r.Root {
			r.Type = g.typeName
		}
		r.Name = r.Root
		for i := 2; names[r.Name]; i++ {
			r.Name = r.Root + strconv.Itoa(i)
		}
		names[r.Name] = true
		r.Fields = l.fields(g.root, contentNS, r.Name, r.Root)
		sh.Results = append(sh.Results, r)
		for _, op := range g.ops {
			sh.Operations[op] = r.Name
		}
	}
	if err := sh.Validate(); err != nil {
		return nil, fmt.Errorf("the learned shape is not valid (a bug in atmkit's learner, please report it): %w", err)
	}
	return sh, nil
}

// guessRoot names the GET/POST root of a typed result nothing showed: as
// XmlSerializer names array types (ArrayOfX), else after the list's item.
func (l *learner) guessRoot(g *group) string {
	name := "Result"
	switch {
	case g.item != nil && len(g.root.kids) == 1 && g.root.kids[0] == g.item:
		name = "ArrayOf" + g.item.name
	case g.item != nil:
		name = g.item.name + "Result"
	}
	l.guess("%s: the GET/POST root is %s: no WSDL and no GET or POST answer names it (set root: in the file if it differs)", strings.Join(g.ops, ", "), name)
	return name
}

// fields converts the kids of n (in namespace ns) to shape fields,
// reporting each decision under at.
func (l *learner) fields(n *node, ns, result, at string) []*shape.Field {
	var out []*shape.Field
	kids := slices.Clone(n.kids)
	slices.SortStableFunc(kids, func(a, b *node) int {
		switch {
		case a.attr && !b.attr:
			return -1
		case b.attr && !a.attr:
			return 1
		}
		return 0
	})
	for _, k := range kids {
		kat := at + "/" + k.label()
		switch {
		case k.attr || k.isLeaf() && !k.repeated:
			out = append(out, l.leaf(k, ns, result, kat))
		case k.repeated && k.list != "":
			// An unwrapped list: the items sit in n itself.
			out = append(out, &shape.Field{List: k.list, Item: l.item(k, ns, result, kat)})
			l.mapped(k, result, kat, "the "+k.list+" list's item")
		case k.repeated:
			l.report.Unmapped = append(l.report.Unmapped, fmt.Sprintf("%s: %s: a list atmkit has no data for; left out", result, kat))
		case k.wrappedItem() != nil && k.wrappedItem().list != "":
			it := k.wrappedItem()
			f := &shape.Field{Element: k.name, Namespace: l.relNS(k.ns, ns), List: it.list, Item: l.item(it, k.ns, result, kat+"/"+it.label())}
			if k.typeName != "" && k.typeName != shape.ListTypeName(f) {
				f.Type = k.typeName
			}
			out = append(out, f)
			l.mapped(it, result, kat+"/"+it.label(), "the "+it.list+" list's item")
		case k.wrappedItem() != nil:
			l.report.Unmapped = append(l.report.Unmapped, fmt.Sprintf("%s: %s: a list atmkit has no data for; left out", result, kat))
		default:
			fs := l.fields(k, k.ns, result, kat)
			if len(fs) == 0 {
				l.report.Unmapped = append(l.report.Unmapped, fmt.Sprintf("%s: %s: holds nothing atmkit writes; left out", result, kat))
				continue
			}
			f := &shape.Field{Element: k.name, Namespace: l.relNS(k.ns, ns), Fields: fs}
			if k.typeName != "" && k.typeName != k.name {
				f.Type = k.typeName
			}
			out = append(out, f)
		}
	}
	return out
}

// item converts a list's item.
func (l *learner) item(k *node, ns, result, at string) *shape.Field {
	f := &shape.Field{Element: k.name, Namespace: l.relNS(k.ns, ns)}
	if k.isLeaf() {
		f.Type = k.typ
		if !slices.Contains([]string{"string", "anyURI", "token", "normalizedString"}, f.Type) {
			f.Type = "string"
		}
		return f
	}
	f.Fields = l.fields(k, k.ns, result, at)
	if k.typeName != "" && k.typeName != k.name {
		f.Type = k.typeName
	}
	return f
}

// leaf converts a value: mapped, or generated.
func (l *learner) leaf(k *node, ns, result, at string) *shape.Field {
	f := &shape.Field{Type: k.typ}
	if k.attr {
		f.Attribute = k.name
	} else {
		f.Element, f.Namespace = k.name, l.relNS(k.ns, ns)
	}
	if k.value == "" {
		f.Generated = true
		l.report.Unmapped = append(l.report.Unmapped, fmt.Sprintf("%s: %s (%s): no value of atmkit's data matches it; written with generated values", result, at, f.Type))
		return f
	}
	f.Value = k.value
	scope := scopeOfValue(k.value)
	if v, ok := shape.LookupValue(scope, k.value); ok {
		switch {
		case v.Kind == shape.KindString:
			if !k.fromWSDL || f.Type == "" {
				f.Type = "string"
			}
		case v.Kind == shape.KindFlag && f.Type == "double":
			f.Type = "int"
		}
	}
	f.Format = formatOf(f.Type, k.texts)
	l.mapped(k, result, at, k.value)
	return f
}

// scopeOfValue is a scope where value exists (the kind is the same in all).
func scopeOfValue(value string) shape.Scope {
	for _, s := range []shape.Scope{shape.ScopeLocation, shape.ScopeLocations, shape.ScopeInstitution, shape.ScopeProvince} {
		if _, ok := shape.LookupValue(s, value); ok {
			return s
		}
	}
	return shape.ScopeLocation
}

// formatOf tells how the answers wrote a value of type t: 1/0 booleans, a
// fixed number of decimals.
func formatOf(t string, texts []string) string {
	switch t {
	case "boolean":
		for _, x := range texts {
			if x == "1" || x == "0" {
				return shape.FormatOneZero
			}
		}
	case "double", "decimal", "float":
		if len(texts) == 0 {
			return ""
		}
		d := decimals(texts[0])
		padded := false
		for _, x := range texts {
			if decimals(x) != d || d <= 0 {
				return ""
			}
			if strings.HasSuffix(x, "0") {
				padded = true
			}
		}
		if padded {
			return "fixed:" + strconv.Itoa(d)
		}
	}
	return ""
}

// mapped reports a mapping of k.
func (l *learner) mapped(k *node, result, at, what string) {
	line := fmt.Sprintf("%s: %s ← %s", result, at, what)
	if k.evidence != "" {
		line += " (" + k.evidence + ")"
	}
	if k.guessed {
		l.report.Guessed = append(l.report.Guessed, line)
	} else {
		l.report.Mapped = append(l.report.Mapped, line)
	}
}

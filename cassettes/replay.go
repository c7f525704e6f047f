package cassettes

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
)

// view is an Index replaying for one server: its shape and namespace, and
// the answers it re-wrapped.
type view struct {
	ix    *Index
	sh    *shape.Shape
	ns    string
	cache sync.Map // rewrapKey → mockserver.ReplayAnswer
	moved sync.Map // *rendition → its body in ns (inNamespace)
}

type rewrapKey struct {
	r *rendition
	b asmx.Binding
}

// RecordedWSDL implements mockserver.WSDLReplayer (Index.RecordedWSDL).
func (v *view) RecordedWSDL() ([]byte, string, bool) { return v.ix.RecordedWSDL() }

// RecordedDoc implements mockserver.DocReplayer as the index does.
func (v *view) RecordedDoc(q mockserver.DocRequest) (mockserver.RecordedDoc, bool) {
	return v.ix.RecordedDoc(q)
}

// ReplayRequest implements mockserver.RequestReplayer (Index.ReplayRequest).
func (v *view) ReplayRequest(r *http.Request, body []byte) (mockserver.ReplayAnswer, bool) {
	return v.ix.ReplayRequest(r, body)
}

func (v *view) Replay(ctx context.Context, c *asmx.Call) (mockserver.ReplayAnswer, bool, string) {
	ix := v.ix
	canon := c.Canonical()
	fam := family(c.Binding)
	ix.mu.RLock()
	e := ix.entries[fam+canon]
	var other []string // the bindings of the other family's recordings
	if e == nil {
		o := ix.entries["json|"+canon]
		if fam == "json|" {
			o = ix.entries["xml|"+canon]
		}
		if o != nil {
			other = o.bindings()
		}
	}
	ix.mu.RUnlock()
	if e != nil {
		ans, gap := v.answer(e, c)
		switch {
		case gap == "":
			return ans, true, ""
		case ix.up != nil:
			return ix.up.fetch(ctx, ix, c), true, ""
		}
		return mockserver.ReplayAnswer{Error: ix.cannotReplay(c, gap)}, true, ""
	}
	if ix.up != nil {
		return ix.up.fetch(ctx, ix, c), true, ""
	}
	if other != nil {
		return mockserver.ReplayAnswer{Error: ix.cannotReplay(c, familyGap(other, c.Binding))}, true, ""
	}
	if r := ix.rejection(c.Op.Name, canon); r != nil {
		return mockserver.ReplayAnswer{}, false, "only a key rejection of it, recorded in " + r.where +
			" (" + r.binding.String() + "), which answers only keys this server rejects; record it with an accepted key"
	}
	return mockserver.ReplayAnswer{}, false, ix.nearest(c)
}

// ClientText implements mockserver.ClientTextReplayer (Index.ClientText).
func (v *view) ClientText(text string) string { return v.ix.ClientText(text) }

// cannotReplay is the error of a call whose question cannot be served in
// its binding, for the reason gap: its text names cassettes by their file
// names, the log's by their paths.
func (ix *Index) cannotReplay(c *asmx.Call, gap string) *asmx.Error {
	e := asmx.NewCannotReplayError(c, ix.ClientText(gap))
	e.Message = asmx.NewCannotReplayError(c, gap).Message
	return e
}

// familyGap says why a question recorded in the bindings from alone cannot
// be answered in b.
func familyGap(from []string, b asmx.Binding) string {
	if b == asmx.JSON {
		return "recorded over " + strings.Join(from, ", ") + " only, and JSON answers come only from JSON recordings; record it over json"
	}
	return "recorded over json only, and XML answers come only from XML recordings; record it over " + b.String()
}

// sources are the bindings whose answers are re-wrapped for b, in order of
// preference (GET and POST serve each other as recorded).
func sources(b asmx.Binding) []asmx.Binding {
	switch b {
	case asmx.SOAP11:
		return []asmx.Binding{asmx.SOAP12, asmx.HTTPGet, asmx.HTTPPost}
	case asmx.SOAP12:
		return []asmx.Binding{asmx.SOAP11, asmx.HTTPGet, asmx.HTTPPost}
	case asmx.HTTPGet, asmx.HTTPPost:
		return []asmx.Binding{asmx.SOAP11, asmx.SOAP12}
	}
	return nil
}

// sibling is the binding whose answers are b's document as recorded.
func sibling(b asmx.Binding) asmx.Binding {
	switch b {
	case asmx.HTTPGet:
		return asmx.HTTPPost
	case asmx.HTTPPost:
		return asmx.HTTPGet
	}
	return 0
}

// pick returns the k-th answer of e for b: as recorded (same or sibling
// binding), or the one to re-wrap. The caller holds ix.mu.
func (e *entry) pick(b asmx.Binding, k int) (recorded, src *rendition) {
	at := func(b asmx.Binding) *rendition {
		if l := e.by[b]; k < len(l) {
			return l[k]
		}
		return nil
	}
	if r := at(b); r != nil {
		return r, nil
	}
	if s := sibling(b); s != 0 {
		if r := at(s); r != nil {
			return r, nil
		}
	}
	for _, s := range sources(b) {
		if r := at(s); r != nil {
			return nil, r
		}
	}
	return nil, nil
}

// answer returns the next answer of e for c, or why it cannot be served.
func (v *view) answer(e *entry, c *asmx.Call) (mockserver.ReplayAnswer, string) {
	n := e.served[c.Binding].Add(1) - 1 // the n-th request in its binding
	v.ix.mu.RLock()
	k := int(min(n, uint64(e.count()-1)))
	recorded, src := e.pick(c.Binding, k)
	var from []string
	if recorded == nil && src == nil {
		from = e.bindings()
	}
	v.ix.mu.RUnlock()
	switch {
	case recorded != nil:
		return v.inNamespace(recorded, recorded.answer()), ""
	case src == nil:
		return mockserver.ReplayAnswer{}, familyGap(from, c.Binding)
	case src.status != http.StatusOK && !asmxErrorForm(src.binding, src.contentType, string(src.body)):
		return v.inNamespace(src, src.answer()), ""
	case src.status != http.StatusOK:
		return mockserver.ReplayAnswer{Error: errorOf(src.binding, src.status, string(src.body)), Source: src.source}, ""
	}
	return v.rewrap(e.op, src, c.Binding)
}

// rewrap returns src re-wrapped for b, once per view.
func (v *view) rewrap(op string, src *rendition, b asmx.Binding) (mockserver.ReplayAnswer, string) {
	key := rewrapKey{src, b}
	if a, ok := v.cache.Load(key); ok {
		return a.(mockserver.ReplayAnswer), ""
	}
	body, gap := v.rewrapBody(op, src, b)
	if gap != "" {
		return mockserver.ReplayAnswer{}, gap
	}
	if v.ns != "" {
		body = renamespace(body, src.ns, v.ns)
	}
	ans := mockserver.ReplayAnswer{Status: http.StatusOK, ContentType: asmx.ContentType(b), Body: body, Source: src.source}
	v.cache.Store(key, ans)
	return ans, ""
}

// rewrapBody re-wraps the success answer src for b (see Index.Replay), or
// says why it cannot.
func (v *view) rewrapBody(op string, src *rendition, b asmx.Binding) ([]byte, string) {
	doc, err := parseXML(src.body)
	if err != nil {
		return nil, fmt.Sprintf("the answer recorded over %s (%s) cannot be re-wrapped: %v", src.binding, src.where, err)
	}
	if !src.binding.IsSOAP() {
		root := doc.root()
		// The root's content goes in <OpResult> (depth 4), a node root
		// in it (depth 5).
		typed, shift := v.isTyped(op, root), soapResultDepth
		if !typed {
			shift++
		}
		if root, err = shiftGenerated(root, shift-1); err != nil {
			return nil, fmt.Sprintf("the answer recorded over %s (%s) cannot be re-wrapped: %v", src.binding, src.where, err)
		}
		content, from := []*xnode{root}, nsScope{}
		hint := ""
		var attrs resultAttrs
		if typed {
			content, from, hint, attrs = root.kids, scopeAt(root), root.space(), dataAttrs(root)
		}
		return soapDocument(b, v.serviceNS(hint), op, attrs, content, from), ""
	}
	_, result, fault, err := soapResult(doc, op)
	switch {
	case err != nil:
		return nil, fmt.Sprintf("the answer recorded over %s (%s) cannot be re-wrapped: %v", src.binding, src.where, err)
	case fault:
		return nil, fmt.Sprintf("the answer recorded over %s (%s) is a fault with status 200", src.binding, src.where)
	case b.IsSOAP():
		body, err := swapEnvelope(doc, b)
		if err != nil {
			return nil, fmt.Sprintf("the answer recorded over %s (%s) cannot be re-wrapped: %v", src.binding, src.where, err)
		}
		return body, ""
	}
	root, gap := v.getRoot(op, src.binding, b, result)
	if gap != "" {
		return nil, gap
	}
	// <OpResult>'s content goes under the GET/POST root (depth 1), a node
	// result is the root.
	shift := 1 - soapResultDepth
	if root == nil {
		shift--
	}
	if result, err = shiftGenerated(result, shift); err != nil {
		return nil, fmt.Sprintf("the answer recorded over %s (%s) cannot be re-wrapped: %v", src.binding, src.where, err)
	}
	var attrs resultAttrs
	if root != nil {
		attrs = dataAttrs(result)
	}
	body, err := getDocument(root, attrs, result.kids, scopeAt(result), v.ix.lineEnd(src))
	if err != nil {
		return nil, fmt.Sprintf("the answer recorded over %s (%s) cannot be re-wrapped: %v", src.binding, src.where, err)
	}
	return body, ""
}

// ReplayKeyRejection implements mockserver.KeyRejectionReplayer.
func (v *view) ReplayKeyRejection(c *asmx.Call) (mockserver.ReplayAnswer, bool) {
	canon := c.Canonical()
	v.ix.mu.RLock()
	defer v.ix.mu.RUnlock()
	var best *rendition
	score := 0
	for _, r := range v.ix.rejected[c.Op.Name] {
		s := 0
		switch r.binding {
		case c.Binding:
			s = 4
		case sibling(c.Binding):
			s = 2
		default:
			continue
		}
		if r.canonical == canon {
			s++
		}
		if s > score {
			best, score = r, s
		}
	}
	if best == nil {
		return mockserver.ReplayAnswer{}, false
	}
	return v.inNamespace(best, best.answer()), true
}

// lineEnd is the line end the deployment src was recorded from breaks the
// lines of its indented documents with, as the first recorded GET/POST
// answer and the WSDL of src's cassette file show it: .NET Framework
// writes CR LF (TextWriter.CoreNewLine), Mono on Linux LF
// (Environment.NewLine). With none of them recorded, CR LF: the service
// runs on IIS. It is noted as answers are indexed (noteLineEnd), so that
// the first re-wrap of each answer does not read every answer indexed.
func (ix *Index) lineEnd(src *rendition) string {
	file := cassetteFile(src.where)
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if nl, ok := ix.lineEnds[file]; ok {
		return nl
	}
	if ix.wsdl != nil && cassetteFile(ix.stats.WSDL) == file {
		if nl, ok := lineEndIn(ix.wsdlBody); ok {
			return nl
		}
	}
	return "\r\n"
}

// noteLineEnd notes the line end of r, a success answer, for its file
// (lineEnd) if it is the file's first GET or POST answer broken in lines.
// The caller holds ix.mu for writing.
func (ix *Index) noteLineEnd(r *rendition) {
	if r.binding != asmx.HTTPGet && r.binding != asmx.HTTPPost {
		return
	}
	file := cassetteFile(r.where)
	if _, ok := ix.lineEnds[file]; ok {
		return
	}
	if nl, ok := lineEndIn(r.body); ok {
		ix.lineEnds[file] = nl
	}
}

// cassetteFile is the file of a recording's file#id.
func cassetteFile(where string) string {
	if i := strings.LastIndexByte(where, '#'); i >= 0 {
		return where[:i]
	}
	return where
}

// lineEndIn is the line end an indented document breaks its first line
// with, if it has more than one.
func lineEndIn(doc []byte) (string, bool) {
	i := bytes.IndexByte(doc, '\n')
	switch {
	case i < 0:
		return "", false
	case i > 0 && doc[i-1] == '\r':
		return "\r\n", true
	}
	return "\n", true
}

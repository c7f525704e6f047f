package cassettes

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
)

// Index answers a mock server's calls from cassettes; it implements
// mockserver.Replayer, mockserver.ShapedReplayer and
// mockserver.KeyRejectionReplayer. Calls are looked up by binding family
// (XML or JSON) and asmx.Call.Canonical in one map access, so a cassette
// of 10,000 interactions answers as fast as one of 10. It is safe for
// concurrent use.
//
// A call in the binding an answer was recorded in gets the recorded
// status, content type and body, byte for byte, whatever they hold (GET
// and POST answers are the same document, so each serves the other).
// An answer recorded in another binding is re-wrapped (see Replay).
// Recorded key rejections (KeyRejected) are kept apart: they answer only
// callers whose key the replaying server rejects.
type Index struct {
	mu       sync.RWMutex // guards the maps, the entries' answers and stats
	entries  map[string]*entry
	byOp     map[string][]*entry
	rejected map[string][]*rendition // operation → recorded key rejections, in recorded order
	samples  map[string]*opSamples   // operation → answers that show its result's layout
	wsdl     *wsdlRoots              // the first WSDL the cassettes hold, or nil
	stats    IndexStats

	plain *view     // the index replaying for a server given no shape
	up    *upstream // nil: misses are not forwarded
}

// IndexStats counts what an Index loaded.
type IndexStats struct {
	Files        int // cassette files read
	Interactions int // interactions in them
	Calls        int // interactions indexed as calls of an operation
	Answers      int // distinct answers indexed, per binding (key rejections apart)
	// KeyRejections are the calls recorded as key rejections, served
	// only to callers whose key the replaying server rejects.
	KeyRejections int
	// WSDL names the recorded WSDL the index reads result layouts from
	// (file#id), or is empty.
	WSDL string
	// Empty lists the cassette files that hold no interactions.
	Empty []string
}

// entry holds the answers recorded for one question: per binding, the
// distinct answers in recorded order.
type entry struct {
	params [][2]string
	op     string
	where  string // file#id (binding) of the first recording
	by     [asmx.JSON + 1][]*rendition
	served atomic.Uint64
}

// rendition is one recorded answer, as recorded.
type rendition struct {
	binding     asmx.Binding
	status      int
	contentType string
	body        []byte
	where       string // file#id
	canonical   string // the question (asmx.Call.Canonical)
	kind        string // a recorded error's kind, for the journal
}

// answer is r as the server writes it, unchanged.
func (r *rendition) answer() mockserver.ReplayAnswer {
	return mockserver.ReplayAnswer{Status: r.status, ContentType: r.contentType, Body: r.body, Kind: r.kind}
}

// count is how many answers e holds in its most-recorded binding: the
// n-th request of the question gets the n-th of each binding's answers.
func (e *entry) count() int {
	n := 0
	for _, l := range e.by {
		n = max(n, len(l))
	}
	return n
}

// canonical is the question e answers.
func (e *entry) canonical() string {
	for _, l := range e.by {
		if len(l) > 0 {
			return l[0].canonical
		}
	}
	return ""
}

// bindings lists the bindings e was recorded in. The caller holds ix.mu.
func (e *entry) bindings() []string {
	var out []string
	for b, l := range e.by {
		if len(l) > 0 {
			out = append(out, asmx.Binding(b).String())
		}
	}
	return out
}

// IndexOption configures an Index.
type IndexOption func(*indexConfig)

type indexConfig struct {
	upstream Upstream // URL empty: no upstream
}

// DefaultUpstreamTimeout bounds a call forwarded to the upstream when
// Upstream.Timeout does not set another bound.
const DefaultUpstreamTimeout = 30 * time.Second

// Upstream is the deployment an Index forwards calls with no recording to
// (WithUpstream).
type Upstream struct {
	// URL is the deployment's base URL, e.g. https://atm.example.org.
	URL string
	// Record is the cassette each new episode is recorded into (appended,
	// scrubbed, written atomically).
	Record string
	// Namespace is the service namespace used to write SOAP requests
	// (asmx.DefaultNamespace when empty).
	Namespace string
	// Transport reaches the upstream (http.DefaultTransport when nil).
	Transport http.RoundTripper
	// Timeout bounds each forwarded call, from sending it to the answer's
	// last byte (DefaultUpstreamTimeout when 0).
	Timeout time.Duration
}

// WithUpstream forwards calls with no recording to the deployment u names,
// records each new episode into u.Record, and answers with it. Close the
// Index to write the last episodes.
func WithUpstream(u Upstream) IndexOption {
	return func(c *indexConfig) { c.upstream = u }
}

// LoadIndex reads the cassettes at paths (files, or directories of .yaml
// files) and indexes their calls, and the first WSDL they hold.
func LoadIndex(paths []string, opts ...IndexOption) (*Index, error) {
	var cfg indexConfig
	for _, o := range opts {
		o(&cfg)
	}
	ix := &Index{entries: map[string]*entry{}, byOp: map[string][]*entry{},
		rejected: map[string][]*rendition{}, samples: map[string]*opSamples{}}
	ix.plain = &view{ix: ix}
	files, err := Files(paths...)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		list, err := ReadFile(f)
		if err != nil {
			return nil, err
		}
		ix.stats.Files++
		if len(list) == 0 {
			ix.stats.Empty = append(ix.stats.Empty, f)
		}
		for _, i := range list {
			ix.stats.Interactions++
			where := fmt.Sprintf("%s#%d", f, i.ID)
			if ix.wsdl == nil && i.Response.Code == http.StatusOK && (Recording{Method: i.Request.Method, URL: i.Request.URL}).IsWSDL() {
				if w, err := readWSDLRoots([]byte(i.Response.Body)); err == nil {
					ix.wsdl, ix.stats.WSDL = w, where
				}
				continue
			}
			c, ok := recorded.CallOf(i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body)
			if !ok {
				continue
			}
			ix.stats.Calls++
			r := &rendition{binding: c.Binding, status: i.Response.Code, body: []byte(i.Response.Body),
				contentType: recorded.HeaderValue(i.Response.Headers, "Content-Type"), where: where, canonical: c.Canonical()}
			if r.status != http.StatusOK {
				r.kind = errorOf(r.binding, r.status, i.Response.Body).Kind
			}
			if c.Key == RejectedPlaceholder {
				ix.rejected[c.Op.Name] = append(ix.rejected[c.Op.Name], r)
				ix.stats.KeyRejections++
				continue
			}
			ix.add(c, r)
		}
	}
	if cfg.upstream.URL != "" {
		if ix.up, err = newUpstream(cfg.upstream); err != nil {
			return nil, err
		}
	}
	return ix, nil
}

// family is the index key's prefix: XML answers serve the four XML
// bindings, JSON answers the JSON binding.
func family(b asmx.Binding) string {
	if b == asmx.JSON {
		return "json|"
	}
	return "xml|"
}

// add indexes one answer to c; it is kept unless the same answer was
// recorded in the same binding already.
func (ix *Index) add(c *asmx.Call, r *rendition) {
	k := family(c.Binding) + r.canonical
	ix.mu.Lock()
	defer ix.mu.Unlock()
	e := ix.entries[k]
	if e == nil {
		e = &entry{params: c.Params(), op: c.Op.Name, where: r.where + " (" + c.Binding.String() + ")"}
		ix.entries[k] = e
		ix.byOp[c.Op.Name] = append(ix.byOp[c.Op.Name], e)
	}
	for _, x := range e.by[r.binding] {
		if x.status == r.status && bytes.Equal(x.body, r.body) {
			return
		}
	}
	e.by[r.binding] = append(e.by[r.binding], r)
	ix.stats.Answers++
	if r.status == http.StatusOK {
		ix.noteSample(c.Op.Name, r)
	}
}

// Stats reports what the index holds.
func (ix *Index) Stats() IndexStats {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	s := ix.stats
	s.Empty = append([]string(nil), s.Empty...)
	return s
}

// Replay implements mockserver.Replayer for a server given no result
// shape; a server given one replays through ForServer. A question asked
// more than once gets its answers in recorded order, and then the last
// again: the n-th request gets, in its binding, the n-th answer recorded in
// that binding, as recorded. Where its binding has no n-th answer, the n-th
// of another binding is re-wrapped for it, as ASMX writes that binding:
//
//   - from the other SOAP version: the recorded document in the other
//     envelope, <OpResult> byte for byte;
//   - from SOAP to HTTP GET/POST: the content of <OpResult> under the root
//     ASMX writes, which for a typed result is named after its type (taken
//     from a GET/POST recording of the operation, the server's shape, or a
//     WSDL the cassettes hold, in that order); a node is its own root;
//   - from GET/POST to SOAP: the root (a node) or its content (typed) in
//     <OpResult>;
//   - a recorded error: re-served in the calling binding's form.
//
// JSON answers come only from JSON recordings. A question recorded in a
// form that cannot be re-wrapped for the call's binding gets an error that
// says why and which flag fixes it (asmx.NewCannotReplayError). With no
// recording of c, Replay forwards it to the upstream when one is set, and
// otherwise returns ok false and the nearest recording (same operation,
// most equal parameters).
func (ix *Index) Replay(ctx context.Context, c *asmx.Call) (ans mockserver.ReplayAnswer, ok bool, nearest string) {
	return ix.plain.Replay(ctx, c)
}

// ReplayKeyRejection implements mockserver.KeyRejectionReplayer: the
// recorded key rejection of c's operation in c's binding (GET and POST
// serve each other's), the same question's first, as recorded.
func (ix *Index) ReplayKeyRejection(c *asmx.Call) (mockserver.ReplayAnswer, bool) {
	return ix.plain.ReplayKeyRejection(c)
}

// ForServer implements mockserver.ShapedReplayer: the index as a server
// with result shape sh (nil when it was given none) and service namespace
// ns replays it. The shape names the GET/POST root of typed results
// recorded over SOAP only; ns is the namespace of SOAP answers re-wrapped
// from GET/POST when no recording or WSDL shows the deployment's.
func (ix *Index) ForServer(sh *shape.Shape, ns string) mockserver.Replayer {
	return &view{ix: ix, sh: sh, ns: ns}
}

// view is an Index replaying for one server: its shape and namespace, and
// the answers it re-wrapped.
type view struct {
	ix    *Index
	sh    *shape.Shape
	ns    string
	cache sync.Map // rewrapKey → mockserver.ReplayAnswer
}

type rewrapKey struct {
	r *rendition
	b asmx.Binding
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
		return mockserver.ReplayAnswer{Error: asmx.NewCannotReplayError(c, gap)}, true, ""
	}
	if ix.up != nil {
		return ix.up.fetch(ctx, ix, c), true, ""
	}
	if other != nil {
		return mockserver.ReplayAnswer{Error: asmx.NewCannotReplayError(c, familyGap(other, c.Binding))}, true, ""
	}
	if r := ix.rejection(c.Op.Name, canon); r != nil {
		return mockserver.ReplayAnswer{}, false, "only a key rejection of it, recorded in " + r.where +
			" (" + r.binding.String() + "), which answers only keys this server rejects; record it with an accepted key"
	}
	return mockserver.ReplayAnswer{}, false, ix.nearest(c)
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
	n := e.served.Add(1) - 1
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
		return recorded.answer(), ""
	case src == nil:
		return mockserver.ReplayAnswer{}, familyGap(from, c.Binding)
	case src.status != http.StatusOK:
		return mockserver.ReplayAnswer{Error: errorOf(src.binding, src.status, string(src.body))}, ""
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
	ans := mockserver.ReplayAnswer{Status: http.StatusOK, ContentType: asmx.ContentType(b), Body: body}
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
		content, from := []*xnode{root}, nsScope{}
		hint := ""
		if v.isTyped(op, root) {
			content, from, hint = root.kids, scopeAt(root), root.space()
		}
		return soapDocument(b, v.serviceNS(hint), op, content, from), ""
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
	body, err := getDocument(root, result.kids, scopeAt(result))
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
	return best.answer(), true
}

// rejection returns a recorded key rejection of the question canon, or nil.
func (ix *Index) rejection(op, canon string) *rendition {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	for _, r := range ix.rejected[op] {
		if r.canonical == canon {
			return r
		}
	}
	return nil
}

// nearest describes the recording of c's operation with the most parameter
// values equal to c's, and which parameters differ.
func (ix *Index) nearest(c *asmx.Call) string {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	var best *entry
	bestEq := -1
	params := c.Params()
	for _, e := range ix.byOp[c.Op.Name] {
		eq := 0
		for j, p := range e.params {
			if j < len(params) && params[j][1] == p[1] {
				eq++
			}
		}
		if eq > bestEq {
			best, bestEq = e, eq
		}
	}
	if best == nil {
		return fmt.Sprintf("none of %s (the cassettes hold %d calls of %d operations)", c.Op.Name, len(ix.entries), len(ix.byOp))
	}
	var sb strings.Builder
	sb.WriteString(best.op)
	sb.WriteByte('(')
	var diff []string
	for j, p := range best.params {
		if j > 0 {
			sb.WriteString(", ")
		}
		sb.WriteString(p[0] + "=" + recorded.Quote(p[1]))
		if j < len(params) && params[j][1] != p[1] {
			diff = append(diff, p[0])
		}
	}
	sb.WriteString(") recorded in " + best.where)
	if len(diff) > 0 {
		sb.WriteString(", which differs in " + strings.Join(diff, ", "))
	}
	return sb.String()
}

// Close writes the episodes recorded from the upstream, if any; with none,
// no file is written.
func (ix *Index) Close() error {
	if ix.up == nil {
		return nil
	}
	if err := ix.up.rec.Stop(); err != nil && !errors.Is(err, ErrNothingRecorded) {
		return err
	}
	return nil
}

// upstream forwards misses and records them.
type upstream struct {
	base    *url.URL
	ns      string
	rec     *Recorder
	timeout time.Duration
}

func newUpstream(cfg Upstream) (*upstream, error) {
	u, err := url.Parse(cfg.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("upstream %q: want an http or https URL", cfg.URL)
	}
	ns := cfg.Namespace
	if ns == "" {
		ns = asmx.DefaultNamespace
	}
	rt := cfg.Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	rec, err := New(cfg.Record, WithMode(ModeRecordAll), WithTransport(rt))
	if err != nil {
		return nil, err
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultUpstreamTimeout
	}
	return &upstream{base: u, ns: ns, rec: rec, timeout: timeout}, nil
}

// fetch asks the upstream c in c's binding, records the episode, and
// answers with the upstream's answer as it came. A success is indexed for
// later calls; an error is not (it may be the caller's key's alone), so the
// next call is forwarded again. The fetch ends when ctx does (the client
// hung up) or after the upstream timeout.
func (up *upstream) fetch(ctx context.Context, ix *Index, c *asmx.Call) mockserver.ReplayAnswer {
	ctx, cancel := context.WithTimeout(ctx, up.timeout)
	defer cancel()
	// Errors quote the request, key included: mask it.
	fail := func(what string, err error) mockserver.ReplayAnswer {
		if errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil {
			return mockserver.ReplayAnswer{Error: asmx.NewServerError(c.Binding, fmt.Sprintf("%sno answer within %s", what, up.timeout))}
		}
		return mockserver.ReplayAnswer{Error: asmx.NewServerError(c.Binding, what+redact.Error(err, c.Key).Error())}
	}
	req, err := newRequest(ctx, up.base, up.ns, c)
	if err != nil {
		return fail("building the upstream request: ", err)
	}
	resp, err := up.rec.RoundTrip(req)
	if err != nil {
		return fail("upstream: ", err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return fail("upstream: ", err)
	}
	r := &rendition{binding: c.Binding, status: resp.StatusCode, contentType: resp.Header.Get("Content-Type"),
		body: body, where: up.rec.Path() + " (from upstream)", canonical: c.Canonical()}
	if r.status != http.StatusOK {
		r.kind = errorOf(r.binding, r.status, string(body)).Kind
		return r.answer()
	}
	ix.add(c, r)
	ix.mu.RLock()
	if e := ix.entries[family(c.Binding)+r.canonical]; e != nil {
		e.served.Add(1)
	}
	ix.mu.RUnlock()
	return r.answer()
}

// newRequest writes c as a request of its binding to the service at base.
func newRequest(ctx context.Context, base *url.URL, ns string, c *asmx.Call) (*http.Request, error) {
	var pairs []string
	var soap bytes.Buffer
	for j, p := range c.Op.Params {
		v := c.Values[j]
		if p.Name == asmx.ParamKey {
			v = c.Key
		}
		if c.Binding.IsSOAP() {
			if c.Present[j] {
				soap.WriteString("\n      <" + p.Name + ">")
				soap.Write(asmx.AppendEscaped(nil, v))
				soap.WriteString("</" + p.Name + ">")
			}
			continue
		}
		pairs = append(pairs, url.QueryEscape(p.Name)+"="+url.QueryEscape(v))
	}
	query := strings.Join(pairs, "&")
	u := *base
	u.RawQuery = ""
	trim := strings.TrimSuffix(u.Path, "/")
	switch c.Binding {
	case asmx.SOAP11, asmx.SOAP12:
		u.Path = trim + asmx.ServicePath
		envNS, ct := asmx.NamespaceSOAP11, asmx.ContentTypeSOAP11
		if c.Binding == asmx.SOAP12 {
			envNS, ct = asmx.NamespaceSOAP12, asmx.ContentTypeSOAP12
		}
		var b bytes.Buffer
		b.WriteString(`<?xml version="1.0" encoding="utf-8"?>` + "\n")
		b.WriteString(`<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="` + envNS + `">` + "\n  <soap:Body>\n    <" + c.Op.Name + ` xmlns="`)
		b.Write(asmx.AppendEscaped(nil, ns))
		b.WriteString(`">`)
		b.Write(soap.Bytes())
		b.WriteString("\n    </" + c.Op.Name + ">\n  </soap:Body>\n</soap:Envelope>")
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), bytes.NewReader(b.Bytes()))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", ct)
		if c.Binding == asmx.SOAP11 {
			req.Header.Set("SOAPAction", `"`+asmx.SOAPAction(ns, c.Op.Name)+`"`)
		}
		return req, nil
	case asmx.HTTPPost:
		u.Path = trim + asmx.ServicePath + "/" + c.Op.Name
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, u.String(), strings.NewReader(query))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", asmx.ContentTypeForm)
		return req, nil
	case asmx.JSON:
		u.Path = trim + asmx.JSONPath + "/" + c.Op.Name
	default:
		u.Path = trim + asmx.ServicePath + "/" + c.Op.Name
	}
	u.RawQuery = query
	return http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
}

package cassettes

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
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
// callers whose key the replaying server rejects. The deployment's own
// WSDL, help pages and discovery documents are served for the
// documentation requests (mockserver.WSDLReplayer, mockserver.DocReplayer),
// and its answers to requests that are no call for the same requests
// (mockserver.RequestReplayer).
type Index struct {
	mu       sync.RWMutex // guards the maps, the entries' answers and stats
	entries  map[string]*entry
	byOp     map[string][]*entry
	rejected map[string][]*rendition // operation → recorded key rejections, in recorded order
	raw      map[string]*rawEntry    // recorded.RequestKey → answers to a request that is no call
	pages    map[pageKey][]*page     // documentation request → the deployments' own pages (pages.go)
	samples  map[string]*opSamples   // operation → answers that show its result's layout
	wsdl     *wsdlRoots              // the first WSDL the cassettes hold, or nil
	wsdlBody []byte                  // that WSDL as recorded
	lineEnds map[string]string       // cassette file → the line end of its first GET/POST answer broken in lines (lineEnd)
	stats    IndexStats

	plain *view     // the index replaying for a server given no shape
	up    *upstream // nil: misses are not forwarded
	paths []string  // the cassettes' paths, longest first (ClientText)
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
	// Requests counts the answers recorded to requests that are no call
	// of an operation (a parameter missing or not converting, an unknown
	// operation): the deployment's errors, replayed to the same request.
	Requests int
	// Pages counts the documentation pages recorded (help pages,
	// discovery documents and typed DataSet schemas of either .asmx
	// file), served to the same documentation request by a mock in the
	// namespace of the deployment they were recorded from.
	Pages int
	// WSDL names the recorded WSDL the index reads result layouts from
	// (file#id), or is empty.
	WSDL string
	// Empty lists the cassette files that hold no interactions.
	Empty []string
	// Unread lists the interactions (file#id) whose request no binding
	// reads as a call though the deployment answered it 200 (a POST to
	// the .asmx or a GET or POST of an operation's path): a hand edit
	// that removed its Content-Type or SOAPAction, say. Each replays only
	// to the same request, as sent; a call of its operation misses.
	Unread []string
	// Namespaces are the service namespaces the recorded SOAP calls were
	// sent in, sorted: the namespace of the deployment they were recorded
	// from when there is one. With no SOAP call recorded, it is the target
	// namespace of the WSDL the cassettes hold, else the namespace of the
	// bindings a recorded discovery document names, else the namespace of a
	// typed GET or POST answer's root (XmlSerializer writes it in the
	// service namespace), else empty.
	Namespaces []string
}

// entry holds the answers recorded for one question: per binding, the
// distinct answers in recorded order.
type entry struct {
	params [][2]string
	op     string
	where  string // file#id (binding) of the first recording
	by     [asmx.JSON + 1][]*rendition
	served [asmx.JSON + 1]atomic.Uint64 // requests answered, per calling binding
}

// rendition is one recorded answer, as recorded.
type rendition struct {
	binding     asmx.Binding
	status      int
	contentType string
	body        []byte
	where       string // file#id
	source      string // the file's name#id, for the journal (ReplayAnswer.Source)
	canonical   string // the question (asmx.Call.Canonical)
	kind        string // a recorded error's kind, for the journal
	jsonError   bool   // recorded with jsonerror: true (ASP.NET's script handler)
	// ns is the service namespace of the deployment it was recorded
	// from: its SOAP call's, else its file's (filePages.namespace), else
	// its typed GET/POST root's, else the cassettes' when they name one;
	// "" when nothing tells.
	ns string
}

// jsonErrorMarked reports whether the answer of i carries ASP.NET's
// script handler's mark of a JSON error, the header jsonerror: true.
func jsonErrorMarked(i *cassette.Interaction) bool {
	return strings.EqualFold(strings.TrimSpace(recorded.HeaderValue(i.Response.Headers, "jsonerror")), "true")
}

// answer is r as the server writes it, unchanged.
func (r *rendition) answer() mockserver.ReplayAnswer {
	return mockserver.ReplayAnswer{Status: r.status, ContentType: r.contentType, Body: r.body, Kind: r.kind, Source: r.source, JSONError: r.jsonError}
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

// family reports whether e holds answers of b's family: JSON recordings
// for the JSON binding, XML ones for the others.
func (e *entry) family(b asmx.Binding) bool {
	if b == asmx.JSON {
		return len(e.by[asmx.JSON]) > 0
	}
	return slices.ContainsFunc(asmx.XMLBindings, func(x asmx.Binding) bool { return len(e.by[x]) > 0 })
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
	upstream    Upstream // URL empty: no upstream
	reqEncoding asmx.RequestEncoding
}

// indexConfigOf is the configuration opts set.
func indexConfigOf(opts []IndexOption) indexConfig {
	var cfg indexConfig
	for _, o := range opts {
		o(&cfg)
	}
	return cfg
}

// WithRequestEncoding reads the recorded queries and forms that name no
// charset in the requestEncoding of the deployment the mock stands for
// (mockserver.WithRequestEncoding; default UTF-8), as the mock reads the
// calls it replays: a call recorded from a legacy deployment as
// strCity=Montr%E9al is found again by a mock serving with iso-8859-1.
// List and EntryOf show the parameters read so.
func WithRequestEncoding(e asmx.RequestEncoding) IndexOption {
	return func(c *indexConfig) { c.reqEncoding = e }
}

// LoadIndex reads the cassettes at paths (files, or directories of .yaml
// files) and indexes their calls, and the first WSDL they hold.
func LoadIndex(paths []string, opts ...IndexOption) (*Index, error) {
	return LoadIndexContext(context.Background(), paths, opts...)
}

// LoadIndexContext is LoadIndex that stops reading and indexing when ctx
// is done (large cassettes take seconds), returning an error that wraps
// ctx's error.
func LoadIndexContext(ctx context.Context, paths []string, opts ...IndexOption) (*Index, error) {
	cfg := indexConfigOf(opts)
	ix := &Index{entries: map[string]*entry{}, byOp: map[string][]*entry{},
		rejected: map[string][]*rendition{}, samples: map[string]*opSamples{}, raw: map[string]*rawEntry{},
		pages: map[pageKey][]*page{}, lineEnds: map[string]string{}}
	ix.plain = &view{ix: ix}
	typedNS := ""        // the namespace of the first typed GET/POST root recorded
	discoNS := ""        // the namespace of the first discovery document recorded
	var all []*rendition // the answers to calls, for their namespace
	files, err := Files(paths...)
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		list, err := ReadFileContext(ctx, f)
		if err != nil {
			return nil, err
		}
		ix.stats.Files++
		if len(list) == 0 {
			ix.stats.Empty = append(ix.stats.Empty, f)
		}
		// A cassette written elsewhere (go-vcr's own) may hold bodies as a
		// client that asked for gzip got them: decompressed first, so
		// that every client gets an answer it reads, and the scrubbing
		// sees the text. It may hold raw keys: scrubbed as a Recorder
		// would have written it, its key rejections marked, so that no
		// key is served, logged or journaled, wherever the deployment
		// echoed it.
		names := recorded.Names(list)
		for pos, i := range list {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("load cassettes: %w", err)
			}
			if _, err := recorded.Decompress(i); err != nil {
				return nil, fmt.Errorf("%w: %s: interaction %s: %w", ErrInvalidCassette, f, names[pos], err)
			}
		}
		scrubList(ctx, list, nil)
		var fp filePages
		var calls []*rendition // the file's answers to calls, for their namespace
		for pos, i := range list {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("load cassettes: %w", err)
			}
			if err := checkStatus(f, names[pos], i); err != nil {
				return nil, err
			}
			ix.stats.Interactions++
			where := f + "#" + names[pos]
			source := filepath.Base(f) + "#" + names[pos]
			isWSDL := i.Response.Code == http.StatusOK && (Recording{Method: i.Request.Method, URL: i.Request.URL}).IsWSDL()
			if isWSDL && fp.wsdlNS == "" {
				fp.wsdlNS = rootTargetNamespace(i.Response.Body)
			}
			if ix.wsdl == nil && isWSDL {
				if w, err := readWSDLRoots([]byte(i.Response.Body)); err == nil {
					ix.wsdl, ix.stats.WSDL, ix.wsdlBody = w, where, []byte(i.Response.Body)
				}
				continue
			}
			c, ok := recorded.CallOfIn(cfg.reqEncoding, i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body)
			if !ok {
				if k, p, ok := pageOf(i, source); ok {
					fp.add(k, p)
					continue
				}
				ix.addRaw(i, where, source)
				continue
			}
			ix.stats.Calls++
			callNS := ""
			if c.Binding.IsSOAP() {
				if ns := recorded.SOAPNamespace(i.Request.Headers, i.Request.Body); ns != "" {
					callNS = ns
					if !slices.Contains(ix.stats.Namespaces, ns) {
						ix.stats.Namespaces = append(ix.stats.Namespaces, ns)
					}
					if !slices.Contains(fp.soapNS, ns) {
						fp.soapNS = append(fp.soapNS, ns)
					}
				}
			} else if typedNS == "" && i.Response.Code == http.StatusOK && c.Binding != asmx.JSON {
				typedNS = typedRootNamespace(i.Response.Body)
			}
			r := &rendition{binding: c.Binding, status: i.Response.Code, body: []byte(i.Response.Body),
				contentType: recorded.HeaderValue(i.Response.Headers, "Content-Type"), where: where, source: source, canonical: c.Canonical(), ns: callNS}
			calls = append(calls, r)
			if r.status != http.StatusOK {
				r.kind = errorOf(r.binding, r.status, i.Response.Body).Kind
				r.jsonError = jsonErrorMarked(i)
			}
			if recorded.RejectedCall(c, r.status) {
				ix.rejected[c.Op.Name] = append(ix.rejected[c.Op.Name], r)
				ix.stats.KeyRejections++
				continue
			}
			ix.add(c, r)
		}
		if discoNS == "" {
			discoNS = fp.discNS
		}
		for _, r := range calls {
			if r.ns == "" {
				r.ns = fp.namespace()
			}
			if r.ns == "" && r.status == http.StatusOK && r.binding != asmx.JSON {
				r.ns = typedRootNamespace(string(r.body))
			}
		}
		all = append(all, calls...)
		ix.addPages(&fp)
	}
	slices.Sort(ix.stats.Namespaces)
	if len(ix.stats.Namespaces) == 0 { // no SOAP call: the WSDL's, else a discovery document's, else a typed root's
		if ix.wsdl != nil && ix.wsdl.ns != "" {
			ix.stats.Namespaces = []string{ix.wsdl.ns}
		} else if discoNS != "" {
			ix.stats.Namespaces = []string{discoNS}
		} else if typedNS != "" {
			ix.stats.Namespaces = []string{typedNS}
		}
	}
	ix.settlePages()
	if len(ix.stats.Namespaces) == 1 {
		for _, r := range all {
			if r.ns == "" {
				r.ns = ix.stats.Namespaces[0]
			}
		}
	}
	if cfg.upstream.URL != "" {
		if cfg.upstream.Namespace == "" && len(ix.stats.Namespaces) == 1 {
			cfg.upstream.Namespace = ix.stats.Namespaces[0]
		}
		if ix.up, err = newUpstream(ctx, cfg.upstream, cfg.reqEncoding); err != nil {
			return nil, err
		}
		files = append(files, ix.up.rec.Path())
	}
	for _, f := range files {
		if filepath.Base(f) != f && !slices.Contains(ix.paths, f) {
			ix.paths = append(ix.paths, f)
		}
	}
	slices.SortFunc(ix.paths, func(a, b string) int { return len(b) - len(a) })
	return ix, nil
}

// ClientText implements mockserver.ClientTextReplayer: text with the path
// of every cassette the index reads or records into cut to the file's
// name. Texts a client reads name cassettes so (where they lie on the
// server is none of its business); the index's own texts for the log and
// the banner (Stats, Gaps) name them by their paths.
func (ix *Index) ClientText(text string) string {
	for _, p := range ix.paths {
		if strings.Contains(text, p) {
			text = strings.ReplaceAll(text, p, filepath.Base(p))
		}
	}
	return text
}

// checkStatus refuses an interaction of the cassette f whose response code
// is no status of an HTTP answer (a hand edit): net/http cannot write it
// (a panic for every call replayed), or it is no answer (1xx).
func checkStatus(f, name string, i *cassette.Interaction) error {
	if c := i.Response.Code; c < 200 || c > 599 {
		return fmt.Errorf("%w: %s: interaction %s: response code %d is no status of an HTTP answer (200 to 599)", ErrInvalidCassette, f, name, c)
	}
	return nil
}

// typedRootNamespace is the namespace of an HTTP GET or POST answer's root
// when XmlSerializer wrote it (a typed result: the xsi and xsd namespaces
// declared on the root, which is in the service namespace), else "".
func typedRootNamespace(body string) string {
	for se := range rawStartElements(body) {
		var xsi, xsd bool
		ns := ""
		for _, a := range se.Attr {
			switch {
			case a.Name.Space == "xmlns" && a.Value == nsXSI:
				xsi = true
			case a.Name.Space == "xmlns" && a.Value == nsXSD:
				xsd = true
			case a.Name.Space == "" && a.Name.Local == "xmlns" && se.Name.Space == "":
				ns = a.Value
			}
		}
		if xsi && xsd {
			return ns
		}
		return ""
	}
	return ""
}

// rawEntry holds the answers recorded to one request that is no call of an
// operation the mock reads (a missing or unconvertible parameter, an
// unknown operation or SOAPAction): the deployment's own errors, served as
// recorded, in recorded order, then the last again.
type rawEntry struct {
	answers []*rendition
	served  atomic.Uint64
}

// addRaw indexes the answer to a recorded request that is no call by the
// request's key (recorded.RequestKey: method, path, scrubbed query and
// body). Requests for the documentation (GETs of service.asmx) are kept
// apart (pages.go) or not at all.
func (ix *Index) addRaw(i *cassette.Interaction, where, source string) {
	if i.Request.Method == http.MethodGet && !strings.Contains(strings.ToLower(i.Request.URL), ".asmx/") {
		return
	}
	if i.Response.Code == http.StatusOK && !clientProxy(i.Request.URL) {
		ix.stats.Unread = append(ix.stats.Unread, where)
	}
	k := recorded.RecordedKey(&i.Request)
	ct := recorded.HeaderValue(i.Response.Headers, "Content-Type")
	b := asmx.HTTPGet // the error's form, for its kind in the journal
	switch {
	case strings.HasPrefix(ct, "application/soap+xml"):
		b = asmx.SOAP12
	case strings.HasPrefix(ct, "text/xml"):
		b = asmx.SOAP11
	}
	r := &rendition{status: i.Response.Code, body: []byte(i.Response.Body), where: where, source: source, contentType: ct}
	if r.status != http.StatusOK {
		r.kind = errorOf(b, r.status, i.Response.Body).Kind
		r.jsonError = jsonErrorMarked(i)
	}
	e := ix.raw[k]
	if e == nil {
		e = &rawEntry{}
		ix.raw[k] = e
	}
	for _, x := range e.answers {
		if x.status == r.status && bytes.Equal(x.body, r.body) {
			return
		}
	}
	e.answers = append(e.answers, r)
	ix.stats.Requests++
}

// clientProxy reports whether a recorded URL asks for ASP.NET AJAX's
// script proxy of a service (.asmx/js, .asmx/jsdebug), no call but a 200.
func clientProxy(rawURL string) bool {
	path, _, _ := strings.Cut(strings.ToLower(rawURL), "?")
	return strings.HasSuffix(path, ".asmx/js") || strings.HasSuffix(path, ".asmx/jsdebug")
}

// RecordedWSDL implements mockserver.WSDLReplayer: the first WSDL the
// cassettes hold, as recorded, and its target namespace.
func (ix *Index) RecordedWSDL() ([]byte, string, bool) {
	if ix.wsdl == nil {
		return nil, "", false
	}
	return ix.wsdlBody, ix.wsdl.ns, true
}

// ReplayRequest implements mockserver.RequestReplayer: the answer recorded
// to a request like r (its method, path, query and body, the key aside)
// that is no call of an operation.
func (ix *Index) ReplayRequest(r *http.Request, body []byte) (mockserver.ReplayAnswer, bool) {
	k := recorded.RequestKey(r.Method, r.URL.RequestURI(), r.Header, string(body))
	ix.mu.RLock()
	e := ix.raw[k]
	ix.mu.RUnlock()
	if e == nil {
		return mockserver.ReplayAnswer{}, false
	}
	n := e.served.Add(1) - 1
	ans := e.answers[min(n, uint64(len(e.answers)-1))]
	return ans.answer(), true
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
		ix.noteLineEnd(r)
	}
}

// Stats reports what the index holds.
func (ix *Index) Stats() IndexStats {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	s := ix.stats
	s.Empty = append([]string(nil), s.Empty...)
	s.Unread = append([]string(nil), s.Unread...)
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
// recorded over SOAP only. ns is the namespace the server answers in: an
// answer recorded from a deployment in another service namespace is
// served with its declarations of that namespace declaring ns (see
// docs/asmx.md), byte for byte otherwise.
func (ix *Index) ForServer(sh *shape.Shape, ns string) mockserver.Replayer {
	return &view{ix: ix, sh: sh, ns: ns}
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
		// A recording of the call's family (XML or JSON) first: only it
		// can answer the call; then the most equal parameters.
		if e.family(c.Binding) {
			eq += len(params) + 1
		}
		if eq > bestEq {
			best, bestEq = e, eq
		}
	}
	if best == nil {
		return fmt.Sprintf("none of %s (the cassettes hold %s of %s)", c.Op.Name, recorded.Plural(len(ix.entries), "distinct call"), recorded.Plural(len(ix.byOp), "operation"))
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
	where := best.where
	if l := best.by[c.Binding]; len(l) > 0 { // the recording in the call's own binding
		where = l[0].where + " (" + c.Binding.String() + ")"
	}
	sb.WriteString(") recorded in " + where)
	if len(diff) > 0 {
		sb.WriteString(", which differs in " + strings.Join(diff, ", "))
	}
	return sb.String()
}

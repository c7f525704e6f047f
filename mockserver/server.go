package mockserver

import (
	"bytes"
	"context"
	"crypto/subtle"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/internal/wire"
	"github.com/atmkit/atmkit/shape"
)

// Server is the mock service's http.Handler. It is safe for concurrent use.
type Server struct {
	cfg  config
	data *data
	log  *slog.Logger

	keyMask *redact.Masker // masks the configured keys in log lines (masked)
	noted   keyNotes       // the keys of calls answered 200, masked there too by a mock that takes any key (logkeys.go)

	// fixed caches the whole response of the operations whose answer depends
	// on nothing but the data set, per operation and binding, while
	// fixedLeft lasts (writeFixed).
	fixed     map[fixedKey]*fixedAnswer
	fixedLeft atomic.Int64

	journal *journal  // the latest requests (journal.go)
	faults  *faultSet // injected faults (faultset.go)
	held    heldCalls // the calls faults hold back now (held.go)

	// journalReads holds a slot for each GET /__admin/requests reading the
	// journal now (adminRequests).
	journalReads chan struct{}

	enc     *shapeEncoder                       // the shape compiled for the XML bindings (shape_compile.go)
	writers map[*asmx.Operation]*bindingWriters // each operation's answer writers (answer.go)

	replayer Replayer // answers from recordings (replay.go); nil without WithReplay
	instance string   // names this mock among those answering at its address over time (newInstance)
}

// New returns the mock service configured by opts, an http.Handler. It
// does not listen: serve it with Serve or ServeWith, or start a
// TestServer in a test. An option that cannot apply (an empty key, a
// missing fixtures directory, two data sets) is an error.
func New(opts ...Option) (*Server, error) {
	return NewContext(context.Background(), opts...)
}

// NewContext is New that stops early when ctx is done, returning an error
// that wraps ctx's error: reading, generating, validating and indexing a
// large data set take seconds (a million ATMs: about 10 s).
func NewContext(ctx context.Context, opts ...Option) (*Server, error) {
	cfg, err := applyOptions(opts)
	if err != nil {
		return nil, err
	}
	logger := cfg.logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	// Reading or making a large data set takes seconds: the log says what
	// the wait is, before and after.
	start, large := time.Now(), false
	if cfg.datasetDir != "" && fixtures.IsLarge(cfg.datasetDir) {
		logger.Info("loading the data set", "dir", cfg.datasetDir)
		large = true
	} else if cfg.generate != nil && cfg.generate.ATMs >= fixtures.LargeATMs {
		logger.Info("generating the data set", "atms", cfg.generate.ATMs, "seed", cfg.generate.Seed)
		large = true
	}
	ds := cfg.dataset
	switch {
	case ds != nil:
		if err := ds.ValidateContext(ctx); err != nil {
			return nil, fmt.Errorf("mock server data set: %w", err)
		}
	case cfg.datasetDir != "":
		if ds, err = fixtures.LoadContext(ctx, cfg.datasetDir); err != nil {
			return nil, err
		}
	case cfg.generate != nil:
		if ds, err = fixtures.GenerateContext(ctx, *cfg.generate); err != nil {
			return nil, fmt.Errorf("mock server data set: %w", err)
		}
	default:
		if ds, err = fixtures.Default(); err != nil {
			return nil, fmt.Errorf("embedded data set: %w", err)
		}
	}
	d, err := newDataContext(ctx, ds)
	if err != nil {
		return nil, fmt.Errorf("mock server data set: index: %w", err)
	}
	if large {
		logger.Info("data set ready", "atms", len(ds.ATMs), "took", time.Since(start).Round(time.Millisecond))
	}
	s := &Server{cfg: cfg, data: d, log: logger, fixed: map[fixedKey]*fixedAnswer{},
		keyMask: redact.NewMasker(cfg.keys...),
		journal: newJournal(cfg.journalSize, cfg.journalBodyMax, cfg.keys), faults: &faultSet{},
		journalReads: make(chan struct{}, journalReadsAtOnce), instance: newInstance()}
	s.journal.encode = s.firstBytes
	s.journal.reqEncoding = cfg.reqEncoding
	s.fixedLeft.Store(fixedCacheBudget)
	if cfg.replayer != nil {
		s.replayer = replayerFor(&cfg)
	}
	s.journal.recycleCalls = s.replayer == nil
	sh := cfg.shape
	if sh == nil {
		sh = shape.Default()
	}
	if s.enc, err = compileShape(sh, cfg.namespace); err != nil {
		return nil, fmt.Errorf("mock server shape: %w", err)
	}
	if err := sh.CheckData(fitData{s.data}); err != nil { // values a .NET client would refuse
		return nil, fmt.Errorf("mock server shape: %w", err)
	}
	s.enc.decimalPoint = map[string][2]bool{}
	for _, op := range shape.Operations() {
		if lat, lon := sh.DecimalPoint(op); lat || lon {
			s.enc.decimalPoint[op] = [2]bool{lat, lon}
		}
	}
	s.data.frags.grow(s.enc.variants, len(ds.ATMs))
	s.writers = s.newWriters()
	given := map[string]bool{} // the ids the faults are given, which f1, f2, … skip
	for _, f := range cfg.faults {
		given[f.ID] = f.ID != ""
	}
	for _, f := range cfg.faults {
		if _, err := s.addFaultReserving(f, given); err != nil {
			return nil, fmt.Errorf("mock server fault: %w", err)
		}
	}
	for _, op := range []string{asmx.OpReturnAllAtms, asmx.OpReturnInstitutions, asmx.OpReturnProvinces} {
		for _, b := range asmx.XMLBindings {
			s.fixed[fixedKey{op, b}] = &fixedAnswer{}
		}
	}
	return s, nil
}

// Namespace is the service namespace the server answers in.
func (s *Server) Namespace() string { return s.cfg.namespace }

// Keys returns the accepted service keys; empty means any non-empty key.
func (s *Server) Keys() []string { return append([]string(nil), s.cfg.keys...) }

// RequestEncoding returns the requestEncoding the mock reads queries and
// forms in (WithRequestEncoding): "utf-8" unless set.
func (s *Server) RequestEncoding() string { return s.cfg.reqEncoding.Name() }

// Dataset returns the data set served. Do not modify it.
func (s *Server) Dataset() *fixtures.Dataset { return s.data.ds }

// exchange is what the server learns about one request while serving it; the
// journal and the request log read it afterwards.
type exchange struct {
	start   time.Time
	binding asmx.Binding // 0 until known
	call    *asmx.Call   // nil unless the request decoded
	err     *asmx.Error  // the error answered, if any

	req       *http.Request   // the request, for an observation made early
	ctx       context.Context // the request's context, for injected delays
	fault     string          // the id of the injected fault applied, if any
	faultKind string          // what that fault did ("delay", "reset", …)
	note      string          // the journal's error kind when err is nil ("Canceled")
	source    string          // where a replayed answer came from (JournalEntry.Source)
	observed  bool            // observe has run (before a dropped connection)
	describes bool            // a fetch of the service description (?WSDL, ?wsdl=ID, ?disco)

	// For the journal (journal_keep.go): the answer's writer, and the
	// request body's length and first bytes once read.
	sw       *statusWriter
	bodyRead bool
	bodySize int64
	body     []byte
	fromSet  bool   // the answer is the data set's, written to sw (fromData)
	head     int    // requestHead of req plus 1; 0 until counted
	rawBody  []byte // the whole request body while the handler runs (SOAP, POST), for a replayed error
	// reqBuf is the buffer the request body was read into (SOAP, POST),
	// returned to its pool once the call is journaled: body is a part of
	// it until then (keepBody).
	reqBuf *bytes.Buffer

	// Bytes of the answer that do not pass through sw before it is
	// journaled: a dribbled answer's last chunk, which goes after
	// (dribbleWriter.last), and what a reset fault writes to the
	// connection itself (writeReset). aside holds them and answerSize
	// the answer's length while it is journaled.
	aside      []byte
	answerSize int64

	writer statusWriter // what sw points to: one allocation for both
}

// exchangePool recycles exchanges: nothing keeps one once ServeHTTP returns.
var exchangePool = sync.Pool{New: func() any { return new(exchange) }}

// ServeHTTP routes a request to its binding.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	ex := exchangePool.Get().(*exchange)
	ex.start, ex.req, ex.ctx = time.Now(), r, r.Context()
	sw := &ex.writer
	sw.ResponseWriter, sw.keep = w, s.journal.bodyMax
	if isAdminPath(r.URL.Path) {
		sw.keep = 0 // not journaled
	}
	ex.sw = sw
	defer func() {
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			s.log.Error("panic serving request", "method", r.Method, "path", s.noted.mask(s.keyMask.Text(r.URL.Path, redact.Values(r.URL.Path)...)), "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if !sw.wrote {
				s.writeError(sw, ex, ex.binding, asmx.NewServerError(ex.binding, fmt.Sprintf("internal error: %v", v)))
			}
		}
		if !ex.observed {
			s.observe(r, ex, sw.status)
		}
		if ex.reqBuf != nil {
			putBuffer(ex.reqBuf)
		}
		*ex = exchange{}
		exchangePool.Put(ex)
	}()
	s.route(sw, r, ex)
}

// route sends a request to its binding, as ASP.NET hands an .asmx request
// to the first protocol that takes it: SOAP for a POST of the .asmx file
// itself, the documentation for a GET of it, HTTP GET and POST for the
// paths below it (/service.asmx/Op).
func (s *Server) route(w http.ResponseWriter, r *http.Request, ex *exchange) {
	path := r.URL.Path
	if isAdminPath(path) {
		s.serveAdmin(w, r)
		return
	}
	// ASP.NET checks every request's URL before any handler runs.
	if e := s.cfg.urlLimits.Check(path, r.URL.RawQuery); e != nil {
		s.writeError(w, ex, 0, e)
		return
	}
	switch {
	case wire.HasPrefixFold(path, asmx.ServicePath):
		rest := path[len(asmx.ServicePath):]
		switch {
		case rest == "":
			s.serveServiceRoot(w, r, ex)
		case rest[0] == '/':
			s.serveHTTPBinding(w, r, rest, ex, false)
		default:
			notFound(w, r, ex)
		}
	case wire.HasPrefixFold(path, asmx.JSONPath):
		rest := path[len(asmx.JSONPath):]
		if rest == "" {
			s.serveJSONDocs(w, r, ex) // replay_docs.go
			return
		}
		if rest[0] != '/' {
			notFound(w, r, ex)
			return
		}
		s.serveHTTPBinding(w, r, rest, ex, true)
	default:
		notFound(w, r, ex)
	}
}

// noteNotFound is the journal's error kind of a request to a path that is
// not the service's.
const noteNotFound = "NotFound"

// notFoundHint is the request log's hint for a path that is not the
// service's: an app pointed at the path of its own deployment.
const notFoundHint = "not a path of the service: it answers at " + asmx.ServicePath + " and " + asmx.JSONPath + " (any case)"

// notFound answers a path that is not the service's as net/http does (the
// host's own 404, before any handler of the service) and notes it.
func notFound(w http.ResponseWriter, r *http.Request, ex *exchange) {
	ex.note = noteNotFound
	http.NotFound(w, r)
}

// observe runs after every request: the request log line, then the journal
// entry. The journal takes the call over (a full journal gives the call of
// the entry it drops back for reuse, asmx.Call.Recycle): nothing reads
// ex.call once it is journaled, the log line included.
func (s *Server) observe(r *http.Request, ex *exchange, status int) {
	d := time.Since(ex.start)
	s.noteKey(ex, status)
	s.logRequest(r, ex, status, d)
	if s.journal.enabled() && !isAdminPath(r.URL.Path) {
		rec := recordOf(r, ex, status, d)
		if s.journal.bodyMax > 0 {
			keepCall(&rec, r, ex, status, s.journal.bodyMax)
		}
		s.journal.add(&rec)
	}
}

// logRequest writes the request log line of a request answered with status
// after d.
func (s *Server) logRequest(r *http.Request, ex *exchange, status int, d time.Duration) {
	level := slog.LevelInfo
	if isAdminPath(r.URL.Path) && (r.Method == http.MethodGet || r.Method == http.MethodHead) && status > 0 && status < 400 {
		level = slog.LevelDebug // reads of the admin API and page: an open page polls every second
	}
	if !s.log.Enabled(r.Context(), level) {
		return
	}
	attrs := []slog.Attr{slog.String("method", r.Method), slog.String("path", s.masked(r.URL.Path, ex, r.URL.Path)), slog.Int("status", status),
		slog.Duration("duration", d)}
	if ex.binding != 0 {
		attrs = append(attrs, slog.String("binding", ex.binding.String()))
	}
	if ex.call != nil {
		attrs = append(attrs, slog.String("operation", ex.call.Op.Name))
	}
	if ex.err != nil {
		attrs = append(attrs, slog.String("error", s.masked(ex.err.Message, ex, r.URL.Path)))
	} else if ex.note != "" {
		attrs = append(attrs, slog.String("error", ex.note))
		if ex.note == noteNotFound {
			attrs = append(attrs, slog.String("hint", notFoundHint))
		}
	}
	if ex.fault != "" {
		attrs = append(attrs, slog.String("fault", ex.fault), slog.String("faultKind", ex.faultKind))
	}
	s.log.LogAttrs(r.Context(), level, "request", attrs...)
}

// writeError answers with e in binding b's form and notes it in ex. A
// replaying server first looks for the deployment's own answer to the
// request (RequestReplayer).
func (s *Server) writeError(w http.ResponseWriter, ex *exchange, b asmx.Binding, e *asmx.Error) {
	if s.replayError(w, ex, e) {
		return
	}
	ex.err = e
	if e.Kind == asmx.KindRequestTooLarge && ex.req != nil {
		// The client may still be sending: answer, then linger (linger.go).
		unread := ex.req.ContentLength > s.cfg.maxBodyBytes
		refuseBody(w, ex.req, unread, func() { asmx.WriteErrorForm(w, b, e, s.cfg.errorForm) })
		return
	}
	asmx.WriteErrorForm(w, b, e, s.cfg.errorForm)
}

// statusWriter remembers the status written, the body's length and, for
// the journal, its first bytes (keepFirst, journal_keep.go).
type statusWriter struct {
	http.ResponseWriter
	status int
	wrote  bool

	keep    int    // the journal's bodyMax; 0: keep nothing
	keeping bool   // first and room are set
	room    int    // how much of the body the journal keeps
	first   []byte // the body's first bytes
	size    int64  // the body's bytes written
}

func (w *statusWriter) WriteHeader(code int) {
	if !w.wrote {
		w.status, w.wrote = code, true
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if !w.wrote {
		w.status, w.wrote = http.StatusOK, true
	}
	n, err := w.ResponseWriter.Write(p)
	w.size += int64(n)
	if w.keep > 0 {
		w.keepFirst(p[:n])
	}
	return n, err
}

// Unwrap lets http.ResponseController reach the connection (for hijacking).
func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// headerValue is h.Get(key) for a key in canonical form, without
// canonicalizing it again.
func headerValue(h http.Header, key string) string {
	if vs := h[key]; len(vs) > 0 {
		return vs[0]
	}
	return ""
}

// hasBody reports whether r has a body, as ASP.NET's
// HttpWorkerRequest.HasEntityBody does: a Content-Length above 0, or a
// chunked one.
func hasBody(r *http.Request) bool { return r.ContentLength != 0 }

// headerSOAPAction is the SOAPAction header's key in canonical form, so
// reading it does not canonicalize (and allocate) on every request.
var headerSOAPAction = http.CanonicalHeaderKey("SOAPAction")

// serveServiceRoot answers /service/service.asmx: SOAP on POST, the
// documentation (WSDL, disco, help pages) on GET; any other method is
// refused with ASP.NET's 405 page, as ASMX's SOAP protocol refuses it.
func (s *Server) serveServiceRoot(w http.ResponseWriter, r *http.Request, ex *exchange) {
	switch r.Method {
	case http.MethodPost:
	case http.MethodGet:
		s.serveDocs(w, r, ex)
		return
	default:
		s.writeError(w, ex, 0, asmx.NewMethodNotAllowedError(r.Method))
		return
	}
	ct := headerValue(r.Header, "Content-Type")
	// The version and binding are ASMX's guess until the envelope is read.
	guess := asmx.SOAP12
	actions, hasAction := r.Header[headerSOAPAction]
	if base, _, _ := strings.Cut(ct, ";"); hasAction && !strings.EqualFold(base, "application/soap+xml") {
		guess = asmx.SOAP11
	}
	ex.binding = guess
	action := ""
	if hasAction && len(actions) > 0 {
		// Sent twice, the last one counts, as ASP.NET's HttpRequest.Headers
		// keeps it (SynchronizeHeader sets each in turn; Mono likewise).
		action = actions[len(actions)-1]
	}
	body, e := s.readBody(w, r)
	if e != nil {
		if e.Kind == asmx.KindRequestTooLarge {
			// ASMX routes the call by its headers before the body fails it.
			e = asmx.NewTooLargeSOAPError(asmx.SOAPRequest{Namespace: s.cfg.namespace, ContentType: ct,
				Action: action, HasAction: hasAction}, s.cfg.maxBodyBytes)
		}
		s.writeError(w, ex, guess, e)
		return
	}
	ex.reqBuf = body
	ex.keepBody(body.Bytes(), s.journal.bodyMax)
	ex.rawBody = body.Bytes() // until the handler returns, for a replayed error
	call, e := asmx.DecodeSOAPRequest(asmx.SOAPRequest{Namespace: s.cfg.namespace, ContentType: ct,
		Action: action, HasAction: hasAction, Body: body.Bytes()})
	if e != nil {
		if e.Binding != 0 {
			ex.binding = e.Binding
		}
		s.writeError(w, ex, ex.binding, e)
		return
	}
	ex.binding = call.Binding
	ex.call = call
	s.answer(w, ex, call)
}

// pathInfo is the path after an .asmx file as ASP.NET's HttpRequest.PathInfo
// has it (VirtualPath.Create, UrlPath.FixVirtualPathSlashes): backslashes
// turned into slashes, repeated slashes made one.
func pathInfo(rest string) string {
	if !strings.Contains(rest, "//") && !strings.Contains(rest, "\\") {
		return rest
	}
	rest = strings.ReplaceAll(rest, "\\", "/")
	for strings.Contains(rest, "//") {
		rest = strings.ReplaceAll(rest, "//", "/")
	}
	return rest
}

// isJSONRequest reports whether ASP.NET's RestHandlerFactory.IsRestMethodCall
// takes r for a script call: its Content-Type, as sent, is application/json
// or begins with "application/json;" (case ignored).
func isJSONRequest(r *http.Request) bool {
	ct := headerValue(r.Header, "Content-Type")
	const j = "application/json"
	return len(ct) >= len(j) && strings.EqualFold(ct[:len(j)], j) && (len(ct) == len(j) || ct[len(j)] == ';')
}

// serveHTTPBinding answers a path below an .asmx file, /service/service.asmx/Op
// or /service-v2.asmx/Op (json), as ASMX's HTTP GET and POST protocols do:
// the method name first (exactly, case included), then the parameters,
// from the query string (GET) or a form-encoded body (POST) only. A path
// with no method name, or any other method, is taken by no protocol:
// ASP.NET's error page.
func (s *Server) serveHTTPBinding(w http.ResponseWriter, r *http.Request, rest string, ex *exchange, json bool) {
	b := asmx.HTTPGet
	switch {
	case json:
		b = asmx.JSON
	case r.Method == http.MethodPost:
		b = asmx.HTTPPost
	}
	rest = pathInfo(rest)
	// ASP.NET 4 maps .asmx files to System.Web.Extensions'
	// ScriptHandlerFactory, which hands a request for a client proxy
	// (/js, /jsdebug), and a method call declared application/json, to
	// its script handler (RestHandlerFactory.IsRestRequest); that refuses
	// a class without [ScriptService]. The JSON path's application/json
	// calls are the document's, answered below.
	if proxy := strings.EqualFold(rest, "/js") || strings.EqualFold(rest, "/jsdebug"); proxy || !json && isJSONRequest(r) {
		s.writeError(w, ex, b, asmx.NewScriptServiceError(rest, proxy))
		return
	}
	if len(rest) < 2 || (r.Method != http.MethodGet && r.Method != http.MethodPost) {
		s.writeError(w, ex, b, asmx.NewUnrecognizedRequestError(r.Method, rest))
		return
	}
	ex.binding = b
	op, e := asmx.MethodFromPath(b, rest, json)
	if e != nil {
		s.writeError(w, ex, b, e)
		return
	}
	query := r.URL.RawQuery
	if r.Method != http.MethodGet {
		if query, e = s.readForm(w, r, b, ex); e != nil {
			s.writeError(w, ex, b, e)
			return
		}
		if s.replayer != nil {
			ex.rawBody = []byte(query) // for a replayed error
		}
		// Request.Form is read in the charset the content type names,
		// else in the deployment's requestEncoding.
		query = s.cfg.reqEncoding.Form(headerValue(r.Header, "Content-Type"), query)
	} else {
		// Request.QueryString: in requestEncoding, or in the charset of
		// a GET that has a body.
		query = s.cfg.reqEncoding.Query(headerValue(r.Header, "Content-Type"), hasBody(r), query)
	}
	vb := b
	if json && r.Method == http.MethodPost {
		vb = asmx.HTTPPost // a POST's parameters are Request.Form's, as validation names them
	}
	// ASP.NET fills the collection, counting its keys, before it
	// validates it.
	if asmx.CollectionKeysExceeded(query, s.cfg.maxCollectionKeys) {
		s.writeError(w, ex, b, asmx.NewCollectionKeysError(vb, s.cfg.maxCollectionKeys))
		return
	}
	if e := asmx.ValidateQuery(op, vb, query, s.cfg.validation); e != nil {
		s.writeError(w, ex, b, e)
		return
	}
	call, e := asmx.DecodeQuery(op, b, query)
	if e != nil {
		s.writeError(w, ex, b, e)
		return
	}
	ex.call = call
	s.answer(w, ex, call)
}

var bufferPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

func putBuffer(b *bytes.Buffer) {
	if b.Cap() <= 1<<20 {
		b.Reset()
		bufferPool.Put(b)
	}
}

// readBody reads the request body up to the configured cap; a body over it
// is asmx.NewTooLargeError (a SOAP caller makes it NewTooLargeSOAPError).
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) (*bytes.Buffer, *asmx.Error) {
	if r.ContentLength > s.cfg.maxBodyBytes {
		return nil, asmx.NewTooLargeError(s.cfg.maxBodyBytes)
	}
	buf := bufferPool.Get().(*bytes.Buffer)
	body := r.Body
	if n := r.ContentLength; n >= 0 {
		// net/http's body reads no more than the Content-Length, which is
		// within the cap: no reader to allocate to enforce it. Room is
		// made for a usual body at once, for a longer one as its bytes
		// come: a Content-Length alone (a client that then sends nothing)
		// must not hold the cap's worth of memory.
		buf.Grow(int(min(n, bodyGrowAtOnce)))
	} else {
		body = http.MaxBytesReader(w, body, s.cfg.maxBodyBytes)
	}
	_, err := buf.ReadFrom(body)
	if err == nil && int64(buf.Len()) > s.cfg.maxBodyBytes {
		// A body longer than its Content-Length said (a request made by
		// hand, not one net/http read).
		err = &http.MaxBytesError{Limit: s.cfg.maxBodyBytes}
	}
	if err != nil {
		putBuffer(buf)
		var mbe *http.MaxBytesError
		if asErr(err, &mbe) {
			return nil, asmx.NewTooLargeError(s.cfg.maxBodyBytes)
		}
		return nil, asmx.NewMalformedError("reading the body: " + err.Error())
	}
	return buf, nil
}

// bodyGrowAtOnce is the most room readBody makes for a body before its
// bytes arrive.
const bodyGrowAtOnce = 64 << 10

// readForm reads a form-encoded POST body, as text; any other content
// type is refused as ASMX's HtmlFormParameterReader refuses it.
func (s *Server) readForm(w http.ResponseWriter, r *http.Request, b asmx.Binding, ex *exchange) (string, *asmx.Error) {
	ct := headerValue(r.Header, "Content-Type")
	if base, _, _ := strings.Cut(ct, ";"); !strings.EqualFold(base, asmx.ContentTypeForm) {
		return "", asmx.NewBadFormError(b, ct)
	}
	body, e := s.readBody(w, r)
	if e != nil {
		return "", e
	}
	ex.reqBuf = body
	ex.keepBody(body.Bytes(), s.journal.bodyMax)
	return body.String(), nil
}

// checkKey compares the call's key with every accepted key in constant time.
func (s *Server) checkKey(c *asmx.Call) *asmx.Error {
	if strings.TrimSpace(c.Key) == "" {
		return asmx.NewKeyMissingError(c.Binding, c.Op)
	}
	if len(s.cfg.keys) == 0 {
		return nil
	}
	match := 0
	for _, k := range s.cfg.keys {
		match |= subtle.ConstantTimeCompare([]byte(c.Key), []byte(k))
	}
	if match != 1 {
		return asmx.NewKeyRejectedError(c.Binding, c.Op)
	}
	return nil
}

// answer answers a decoded call: with an injected fault, an error, a
// recording, or the answer from the data set, written by the writer of its
// operation and binding (answer.go).
func (s *Server) answer(w http.ResponseWriter, ex *exchange, c *asmx.Call) {
	if s.faults.active.Load() != 0 &&
		s.injectFault(w, ex, c.Op.Name, c.Binding, func(w http.ResponseWriter) { s.answer(w, ex, c) }) {
		return
	}
	if e := s.checkKey(c); e != nil {
		if e.Kind == asmx.KindInvalidServiceKey && s.replayer != nil && s.replayKeyRejection(w, ex, c) {
			return
		}
		s.writeError(w, ex, c.Binding, e)
		return
	}
	if len(c.MustUnderstand) > 0 {
		// ASMX understands no header: it refuses the call once the
		// operation has run, before writing the answer.
		s.writeError(w, ex, c.Binding, asmx.NewMustUnderstandError(c.Binding, c.MustUnderstand[0]))
		return
	}
	if s.replayer != nil && s.replay(w, ex, c) {
		return
	}
	if d, ok := s.enc.decimalPoint[c.Op.Name]; ok && c.Binding != asmx.JSON && (d[0] && !decimalHolds(c.Latitude) || d[1] && !decimalHolds(c.Longitude)) {
		s.writeError(w, ex, c.Binding, asmx.NewDecimalOverflowError(c.Binding)) // the service's (decimal) cast throws
		return
	}
	ex.fromData(w)
	if f, ok := s.fixed[fixedKey{c.Op.Name, c.Binding}]; ok {
		s.writeFixed(w, f, c)
		return
	}
	s.writeAnswer(w, c)
}

// holdsKeyParam reports whether s names the strAtmServiceKey parameter (any
// case, any spelling ASMX reads as it: redact.HasParamName), so that the
// log masks it: a path or an error text rarely does.
func holdsKeyParam(s string) bool { return redact.HasParamName(s) }

package cassettes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"github.com/atmkit/atmkit/internal/filelock"
	"github.com/atmkit/atmkit/internal/redact"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/dnaeon/go-vcr.v3/recorder"
)

// Recorder is an http.RoundTripper over go-vcr's recorder with atmkit's
// matcher and scrubbing preset. It is safe for concurrent use.
//
// Unlike go-vcr's own recorder it owns its locking, never changes the
// options it is given, drops repeated identical answers, and writes the
// cassette atomically while it records (see WithSaveInterval) and on Stop.
// In the modes where go-vcr would replay nothing (ModeRecordAll, and
// ModeRecordOnce creating a cassette) requests do not go through go-vcr's
// recorder, which keeps every interaction it captures, repeated ones
// included: memory stays with what the cassette holds.
type Recorder struct {
	path      string
	cfg       config
	vcr       *recorder.Recorder // nil when direct
	direct    bool               // the mode replays nothing: requests are captured without go-vcr's recorder
	log       *slog.Logger
	recording bool            // the mode may record
	created   bool            // the cassette did not exist: Stop writes it only if something was recorded
	style     recorded.Style  // the file's byte order mark and line ends, which saves keep
	relength  map[string]bool // request keys of loaded answers whose recorded length is not their body's (edited by hand; lengthEdited): set by open, then only read

	mu sync.Mutex // guards the fields below
	// The cassette's interactions are at positions 0..n-1. Those spooled are
	// kept encoded only (encoded); the later ones (pending) wait decoded
	// to be spooled, by a save or once they hold spoolAfter bytes.
	n            int
	nextID       int                     // the id the next interaction recorded gets (nextIDOf, takeID)
	skipIDs      map[int]bool            // ids the interactions recorded must not get (nextIDOf)
	repeated     map[int]bool            // ids the cassette held more than once when read; those recorded are unique
	pending      []*cassette.Interaction // interactions n-len(pending)..n-1
	pendingBytes int                     // the bodies pending hold
	remarks      map[int]bool            // interaction (taken by a save) → its key rejection mark, to write again
	keys         keyMarks                // which of the listed calls are key rejections
	swept        []string                // the keys recorded calls carried (crossKeys at most): swept from the other interactions
	resweeps     []resweep               // keys swept since: the interactions spooled before they came are swept of them at the next spooling
	seen         map[string][]string     // request key → digests of the answers kept
	counts       map[string]int          // request key → interactions in go-vcr's in-memory cassette
	served       map[string]int          // request key → replays so far
	keyCache     map[string]string       // recorded request → request key
	dirty        uint64                  // generation of the interactions and their marks
	saved        uint64                  // generation last written
	stopped      bool
	stopErr      error
	failing      string // the cause of the last save's failure, told once; "" when it succeeded

	joinMu  sync.Mutex    // orders the interactions joining the cassette (join)
	hooking atomic.Uint64 // the goroutine running BeforeSave hooks (join), 0 when none: Stop from it would wait for itself
	saveMu  sync.Mutex    // serializes writes of the file; taken before spoolMu
	spoolMu sync.Mutex    // guards encoded; taken before mu
	encoded itemSpool     // the YAML items of the interactions spooled (spoolPending)
	kick    chan struct{}
	done    chan struct{}

	fileLock *filelock.Lock // the cassette's, held from New to Stop by a recorder that may write it
	madeDirs []string       // the directories lock made for the cassette, deepest first: removed when nothing is written

	captures  atomic.Int64                     // interactions captured by capture (direct, or unparsed in ModeRecordNew)
	capturing sync.Map                         // headerID of a request being recorded → its *reqInfo (watchCapture)
	unparsed  map[string]*cassette.Interaction // request key → the capture that answers it again (ModeRecordNew; recordNewUnparsed)
	held      []heldBack                       // interactions with a key in the path held back (held.go); guarded by mu
	wg        sync.WaitGroup
}

// New returns a Recorder for the cassette at path (".yaml" is appended when
// missing; a path ending in a separator names a directory, an error). In a
// mode that replays, the cassette is read now; its errors are
// ErrCassetteNotFound, ErrInvalidCassette (a response code outside 200 to
// 599 included, which net/http cannot serve, and a body recorded
// compressed that does not decode) or ErrUnsupportedFormat,
// wrapped with the path. A Recorder that may record holds the cassette's
// lock until Stop: while it does, New for the same cassette in a mode that
// may record, here or in another process, fails with ErrCassetteBusy.
func New(path string, opts ...Option) (*Recorder, error) {
	return NewContext(context.Background(), path, opts...)
}

// NewContext is New that stops reading the cassette when ctx is done (a
// cassette of hundreds of megabytes takes seconds), returning an error
// that wraps ctx's error and leaving the cassette as it was.
func NewContext(ctx context.Context, path string, opts ...Option) (*Recorder, error) {
	cfg := config{mode: ModeRecordOnce, saveInterval: DefaultSaveInterval, now: time.Now, after: time.After}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.mode < ModeRecordOnce || cfg.mode > ModePassthrough {
		return nil, fmt.Errorf("%w: %d", ErrInvalidMode, int(cfg.mode))
	}
	if cfg.saveInterval < 0 {
		return nil, fmt.Errorf("cassette %s: save interval %s is negative", path, cfg.saveInterval)
	}
	if strings.HasSuffix(path, "/") || strings.HasSuffix(path, string(filepath.Separator)) {
		return nil, fmt.Errorf("cassette %s: names a directory; a cassette is a file, e.g. %s", path, filepath.Join(path, "atm.yaml"))
	}
	if cfg.transport == nil {
		cfg.transport = http.DefaultTransport
	}
	r := &Recorder{
		path: FilePath(path), cfg: cfg, log: cfg.logger, keys: newKeyMarks(), encoded: itemSpool{cassette: FilePath(path)},
		seen: map[string][]string{}, counts: map[string]int{}, served: map[string]int{}, keyCache: map[string]string{},
		kick: make(chan struct{}, 1), done: make(chan struct{}),
	}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	_, statErr := os.Stat(r.path)
	if cfg.mode == ModeRecordAll || cfg.mode == ModeRecordNew || (cfg.mode == ModeRecordOnce && statErr != nil) {
		// A mode that may write holds the cassette's lock from reading it
		// to Stop: two recorders rewriting one file would each drop the
		// other's interactions. (ModeRecordOnce on a cassette that exists
		// only replays it.)
		if err := r.lock(); err != nil {
			return nil, err
		}
	}
	if err := r.open(ctx); err != nil {
		_ = r.fileLock.Unlock()
		r.removeMadeDirs()
		return nil, err
	}
	if !r.recording {
		_ = r.fileLock.Unlock() // it will not write
	}
	r.startSaver()
	return r, nil
}

// open reads the cassette, in the modes that read it, and sets up go-vcr's
// recorder where it replays.
func (r *Recorder) open(ctx context.Context) error {
	cfg := r.cfg
	_, err := os.Stat(r.path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cassette %s: %w", r.path, err)
	}
	if !exists && cfg.mode == ModeReplayOnly {
		return fmt.Errorf("%w: %s", ErrCassetteNotFound, r.path)
	}
	// go-vcr reads the cassette in these modes, and replays from it.
	vcrLoads := exists && (cfg.mode == ModeReplayOnly || cfg.mode == ModeRecordNew || cfg.mode == ModeRecordOnce)
	r.recording = cfg.mode == ModeRecordAll || cfg.mode == ModeRecordNew || (cfg.mode == ModeRecordOnce && !exists)
	if exists && cfg.mode != ModePassthrough {
		list, err := ReadFileContext(ctx, r.path)
		if err != nil {
			return err
		}
		r.style = recorded.StyleOfFile(r.path)
		if r.recording {
			if err := r.scrubLoaded(list); err != nil {
				return err
			}
		}
		names := recorded.Names(list)
		for pos, i := range list {
			if err := ctx.Err(); err != nil {
				return fmt.Errorf("cassette %s: %w", r.path, err)
			}
			if vcrLoads {
				if err := checkStatus(r.path, names[pos], i); err != nil {
					return err // go-vcr would replay it
				}
				// A body recorded compressed is replayed decompressed
				// (decompressReplayed): one that does not decode is
				// refused now, not on the request that hits it. Tried on
				// a copy: the cassette keeps its interactions as they are.
				cp := *i
				cp.Response.Headers = i.Response.Headers.Clone()
				if _, err := recorded.Decompress(&cp); err != nil {
					return fmt.Errorf("%w: %s: interaction %s: %w", ErrInvalidCassette, r.path, names[pos], err)
				}
			}
			k := recorded.RecordedKey(&i.Request)
			if vcrLoads && lengthEdited(i) {
				if r.relength == nil {
					r.relength = map[string]bool{}
				}
				r.relength[k] = true
			}
			r.seen[k] = append(r.seen[k], recorded.AnswerDigest(&i.Response))
			r.keys.answered(k, answerOf{digest: recorded.AnswerDigest(&i.Response), fileMark: recorded.KeyRejected(i)})
			if vcrLoads {
				r.counts[k]++
			}
		}
		r.pending, r.n = list, len(list)
		r.nextID, r.skipIDs = nextIDOf(list)
		r.repeated = recorded.Repeated(list)
		r.keys.loaded(len(list))
	}
	r.created = r.recording && !exists
	if exists && r.n == 0 && (cfg.mode == ModeRecordOnce || cfg.mode == ModeReplayOnly) {
		r.log.Warn("the cassette holds no interactions: every request will miss; delete it to record again", "cassette", r.path)
	}

	// go-vcr replays what it loaded (vcrLoads) and, in ModeRecordNew, what
	// it records; otherwise its recorder would only keep a copy of every
	// capture, and the Recorder captures by itself (capture), to a file of
	// any name (atm.yml, atm.YAML).
	replayable := vcrLoads || cfg.mode == ModeRecordNew
	if r.recording && !replayable {
		r.direct = true
		return nil
	}
	name := strings.TrimSuffix(r.path, ".yaml")
	if !strings.HasSuffix(r.path, ".yaml") { // go-vcr reads NAME.yaml
		return fmt.Errorf("%w: %s: go-vcr cassettes end in .yaml", ErrInvalidCassette, r.path)
	}
	// A fresh options value: go-vcr keeps and changes the one it is given.
	vcr, err := recorder.NewWithOptions(&recorder.Options{
		CassetteName:       name,
		Mode:               cfg.mode.vcr(),
		RealTransport:      &captureTransport{next: cfg.transport},
		SkipRequestLatency: true,
	})
	if err != nil {
		return fmt.Errorf("%w: %s: %v", ErrInvalidCassette, r.path, err)
	}
	vcr.SetMatcher(r.match)
	vcr.SetReplayableInteractions(replayable)
	vcr.AddHook(r.afterCapture, recorder.AfterCaptureHook)
	for _, h := range cfg.hooks {
		if h.stage == BeforeReplay {
			vcr.AddHook(recorder.HookFunc(h.fn), recorder.BeforeResponseReplayHook)
		}
	}
	r.vcr = vcr
	return nil
}

// startSaver starts the goroutine that saves after bursts, when recording
// with an interval.
func (r *Recorder) startSaver() {
	if r.recording && r.cfg.saveInterval > 0 {
		r.wg.Add(1)
		go r.saver()
	}
}

// Path is the cassette file.
func (r *Recorder) Path() string { return r.path }

// Mode is the recorder's mode.
func (r *Recorder) Mode() Mode { return r.cfg.mode }

// Recording reports whether the recorder may add interactions to the cassette.
func (r *Recorder) Recording() bool { return r.recording }

// Len is the number of interactions in the cassette, recorded ones included.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

// Client returns an *http.Client whose transport is r.
func (r *Recorder) Client() *http.Client { return &http.Client{Transport: r} }

// reqInfo travels with a request through go-vcr in its context.
type reqInfo struct {
	key  string // requestKey of the live request
	body string

	// matcher state for one lookup (go-vcr calls the matcher under its lock)
	matched, target int
	targeted        bool

	// the real response, as the server sent it, when one was fetched
	captured   bool
	header     http.Header
	respBody   string // the body, held once: the interaction recorded holds it too
	respLength int64
	status     string       // the status line's, its reason phrase as it came (the cassette's is swept)
	hooked     *answerState // the answer as the BeforeReplay hooks are given it (noteHooked), nil without any
}

type infoKey struct{}

func infoFrom(ctx context.Context) *reqInfo {
	ri, _ := ctx.Value(infoKey{}).(*reqInfo)
	return ri
}

// RoundTrip replays or records req, as the mode says. A request with no
// recording in a mode that does not record is ErrNoInteraction. When the real
// server answered, its response is returned unchanged (the cassette holds
// the scrubbed copy) but for what the BeforeReplay hooks change. The service key the request carries is masked in the
// errors RoundTrip returns (a *url.Error found with errors.As has its URL
// masked too); an http.Client using the recorder adds a *url.Error of its
// own around them, with the URL the caller gave it.
func (r *Recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	stopped := r.stopped
	r.mu.Unlock()
	if stopped {
		return nil, fmt.Errorf("%w: %s", ErrStopped, r.path)
	}
	if r.cfg.mode == ModePassthrough {
		resp, err := r.cfg.transport.RoundTrip(req)
		return resp, redact.Error(err)
	}
	body, hasBody, err := readBody(req.Body, req.ContentLength)
	if err != nil {
		return nil, redact.Error(fmt.Errorf("read request body: %w", err))
	}
	info := &reqInfo{body: body}
	info.key = recorded.RequestKey(req.Method, req.URL.String(), req.Header, body)
	out := req.Clone(context.WithValue(req.Context(), infoKey{}, info))
	if hasBody {
		out.Body = io.NopCloser(strings.NewReader(body))
		out.ContentLength = int64(len(body))
		out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(body)), nil }
	}
	var resp *http.Response
	if r.recording {
		defer r.watchCapture(out, info)()
	}
	switch {
	case r.direct:
		resp, err = r.capture(out)
	case r.recording && r.unrecordable(out):
		resp, err = r.recordNewUnparsed(out, info)
	default:
		resp, err = r.vcr.RoundTrip(out)
	}
	if err != nil {
		desc := recorded.DescribeRequest(req.Method, req.URL.String(), req.Header, body)
		if errors.Is(err, cassette.ErrInteractionNotFound) {
			err = fmt.Errorf("%w: %s; cassette %s: %w", ErrNoInteraction, desc, r.path, err)
		} else {
			err = fmt.Errorf("cassette %s: %s: %w", r.path, desc, err)
		}
		// The error may quote the request (a *url.Error of the transport
		// holds its whole URL): mask the key it sent, and those the
		// recording noted, which it may hold outside a call
		// (.../service.asmx/KEY).
		key := r.notedKeys()
		if c, ok := recorded.CallOf(req.Method, req.URL.String(), req.Header, body); ok {
			key = append(key, c.Key)
		}
		return nil, redact.Error(err, key...)
	}
	if info.captured {
		if info.hooked != nil {
			if err := info.applyHooked(resp); err != nil {
				return nil, redact.Error(fmt.Errorf("cassette %s: %s: %w", r.path, recorded.DescribeRequest(req.Method, req.URL.String(), req.Header, body), err))
			}
		}
		resp.Header, resp.Status = info.header, info.status
		resp.Body = io.NopCloser(strings.NewReader(info.respBody))
		resp.ContentLength = info.respLength
	} else {
		resp.Header = resp.Header.Clone() // the cassette's map stays the cassette's
		if err := decompressReplayed(resp); err != nil {
			return nil, redact.Error(fmt.Errorf("cassette %s: %s: %w", r.path, recorded.DescribeRequest(req.Method, req.URL.String(), req.Header, body), err))
		}
		if r.relength[info.key] {
			if err := ownLength(resp); err != nil {
				return nil, redact.Error(fmt.Errorf("cassette %s: %s: %w", r.path, recorded.DescribeRequest(req.Method, req.URL.String(), req.Header, body), err))
			}
		}
		r.noteReplayedKey(req, body, resp.StatusCode)
	}
	resp.Request = req
	return resp, nil
}

// match is go-vcr's matcher. Requests match by requestKey; of the recorded
// interactions with the request's key, the n-th request gets the n-th, and
// once they are used up, the last again.
func (r *Recorder) match(req *http.Request, rec cassette.Request) bool {
	info := infoFrom(req.Context())
	if info == nil {
		return false
	}
	fp := rec.Method + " " + rec.URL + "\n" + recorded.HeaderValue(rec.Headers, "Content-Type") + "\n" + recorded.HeaderValue(rec.Headers, "SOAPAction") + "\n" + rec.Body
	r.mu.Lock()
	defer r.mu.Unlock()
	k, ok := r.keyCache[fp]
	if !ok {
		k = recorded.RecordedKey(&rec)
		r.keyCache[fp] = k
	}
	if k != info.key {
		return false
	}
	if !info.targeted {
		info.targeted = true
		info.target = min(r.served[k], r.counts[k]-1)
	}
	if info.matched == info.target {
		r.served[k]++
		return true
	}
	info.matched++
	return false
}

// afterCapture runs on every interaction go-vcr captures, before go-vcr
// adds it to its in-memory cassette.
func (r *Recorder) afterCapture(i *cassette.Interaction) error {
	info := r.captureInfo(i.Request.Headers) // before a hook replaces the map
	// An answer the client asked compressed (it set Accept-Encoding
	// itself, so the transport left the body as it came) is kept
	// decompressed: the scrubbing sees its text (a key the deployment
	// echoed in it included), the cassette stays readable, and replay
	// serves it to any client. The client itself gets it as it came.
	if _, err := recorded.Decompress(i); err != nil {
		if enc := recorded.Unasked(i); enc != "" {
			// Recorded, it could be neither scrubbed nor replayed: the
			// cassette would be refused whole at its next use.
			return fmt.Errorf("%w: the upstream answered with Content-Encoding %s, which the request did not accept (atmkit asks for gzip or no compression) and atmkit cannot decode to scrub and replay: have the deployment, or the gateway or CDN in front of it, answer such a request uncompressed or with gzip, as HTTP requires",
				ErrUnaskedEncoding, enc)
		}
		r.log.Warn("an answer recorded compressed, as it came: it does not decompress, so the key is not scrubbed from its body", "request",
			redact.Text(recorded.DescribeRequest(i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body), r.notedKeys()...), "err", err) // not scrubbed yet
	}
	for _, h := range r.cfg.hooks {
		if h.stage == AfterCapture {
			if err := h.fn(i); err != nil {
				return err
			}
		}
	}
	key := r.keys.hash(i) // before scrubbing: the key itself, salted and hashed
	_, found := recorded.ScrubFound(i, Placeholder)
	scrubHeaders(i, r.cfg.scrubHeaders)
	noted := found
	if i.Response.Code != http.StatusOK {
		noted = nil // a key refused, or a call that failed, is not noted: many wrong keys would crowd out the right ones
	}
	swept, earlier := r.sweptKeys(noted)
	recorded.SweepInteraction(i, Placeholder, r.withSecrets(found, swept)...)
	i.Request.RemoteAddr = "" // the caller's address changes every run: noise in a review
	recorded.DropTiming(i)
	r.noteHooked(info, i)
	k := recorded.RecordedKey(&i.Request)
	d := recorded.AnswerDigest(&i.Response)
	mk, md, masked := maskedForm(i)
	r.mu.Lock()
	r.counts[k]++
	keep := !i.DiscardOnSave && !slices.Contains(r.seen[k], d)
	if keep {
		r.seen[k] = append(r.seen[k], d)
	}
	hold := keep && masked && len(r.held) < maxHeld && slices.Contains(r.seen[mk], md) // held.go
	remarked := false
	if i.Response.Code == http.StatusOK && r.keys.accepted(key) {
		remarked = r.remark() // the key's earlier errors were no rejections; others' may be
	}
	// A question answered otherwise than before, key rejections aside
	// (as the marks stand now, this call's included).
	others := 0
	if keep && !strings.HasPrefix(k, "raw|") && !r.keys.rejected(key, i.Response.Code) {
		others = r.keys.otherAnswers(k, d)
	}
	r.keys.answered(k, answerOf{digest: d, key: key, status: i.Response.Code})
	r.mu.Unlock()
	if others > 0 {
		r.log.Warn("a question recorded before got another answer; replay serves its answers in recorded order (record into a new cassette to replace them)",
			"request", recorded.DescribeRequest(i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body), "answers", others+1)
	}
	if !keep {
		switch {
		case earlier:
			r.saveNow()
		case remarked:
			r.changed()
		}
		return nil
	}
	// The cassette's copy, maps and all: go-vcr changes its own copy's
	// ID later, and the BeforeReplay hooks then change it in place while
	// a save may be writing the cassette's.
	cp := ownCopy(i)
	if hold {
		r.mu.Lock()
		r.held = append(r.held, heldBack{cp: cp, key: key, nswept: len(swept), k: mk, d: md})
		r.mu.Unlock()
		if remarked || earlier {
			r.changed()
		}
		return nil
	}
	joined, err := r.join(cp, key, len(swept))
	if err != nil {
		return err
	}
	switch {
	case earlier:
		r.saveNow()
	case joined || remarked:
		r.changed()
	}
	return nil
}

// join adds cp to the cassette as its next interaction, after the
// BeforeSave hooks and scrubbed again if any ran, and reports whether it
// joined: a hook may discard it, and nothing joins once Stop has begun
// (nor do the hooks run then). The hooks run one call at a time, in the
// order the interactions join, each seeing the ID its interaction gets, so
// that a hook numbering them (atmkit record's progress lines) numbers them
// as the file does. Stop waits for a join under way (joinMu): an
// interaction a hook was shown is in the file Stop writes. cp was swept
// of the first nswept keys of r.swept; those noted since (by calls
// recorded meanwhile) are swept as it joins.
func (r *Recorder) join(cp *cassette.Interaction, key string, nswept int) (bool, error) {
	r.joinMu.Lock()
	defer r.joinMu.Unlock()
	r.mu.Lock()
	if r.stopped {
		// Answered after Stop began: the cassette and Len stay as Stop
		// leaves them.
		r.mu.Unlock()
		r.log.Debug("answered after the recording stopped: not recorded", "request", recorded.DescribeRequest(cp.Request.Method, cp.Request.URL, cp.Request.Headers, cp.Request.Body))
		return false, nil
	}
	cp.ID = r.takeID() // interactions join under joinMu only: the id stays free
	r.mu.Unlock()
	hooked, err := r.beforeSave(cp)
	if err != nil {
		return false, err
	}
	if cp.DiscardOnSave {
		return false, nil
	}
	if hooked { // a hook may have written a key back; scrubbed before otherwise
		_, found := recorded.ScrubFound(cp, Placeholder)
		scrubHeaders(cp, r.cfg.scrubHeaders)
		noted := found
		if cp.Response.Code != http.StatusOK {
			noted = nil
		}
		swept, _ := r.sweptKeys(noted) // earlier ones: this interaction joins, and a save follows
		recorded.SweepInteraction(cp, Placeholder, r.withSecrets(found, swept)...)
		nswept = len(swept)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.swept) > nswept {
		recorded.SweepInteraction(cp, Placeholder, r.withSecrets(r.swept[nswept:])...)
	}
	cp.ID = r.takeID()
	if r.keys.add(key, cp.Response.Code) {
		recorded.MarkKey(cp, RejectedPlaceholder)
		r.log.Debug("recorded a key rejection", "request", recorded.DescribeRequest(cp.Request.Method, cp.Request.URL, cp.Request.Headers, cp.Request.Body))
	}
	r.pending = append(r.pending, cp)
	r.pendingBytes += len(cp.Request.Body) + len(cp.Response.Body)
	r.n++
	r.nextID++
	r.dirty++
	return true, nil
}

// Stop ends recording and writes the cassette if anything is unsaved. It
// is safe to call more than once; later calls return the first one's error.
// Requests after Stop fail with ErrStopped; one in flight still gets its
// answer, but is not recorded (one whose BeforeSave hooks are running as
// Stop begins is: Stop waits for them): once Stop returns, the cassette
// is final. A recorder that was to create
// the cassette and recorded nothing writes no file, removes the directories
// it made for it (when still empty), and returns ErrNothingRecorded: an
// empty cassette would make every later run miss. Called from a BeforeSave
// hook, whose interaction it would wait for, Stop does nothing and returns
// ErrStopInHook.
//
// A BeforeSave hook must not wait for a Stop it started on another
// goroutine (through a channel, a WaitGroup, errgroup, a worker it asks):
// that Stop waits for the hook, so that the interaction the hook was shown
// is in the file Stop writes, and the hook waits for Stop; neither
// returns. No Stop can tell such a goroutine from any other whose Stop
// must wait. To end the recording from a BeforeSave hook, start Stop on
// a goroutine and return without waiting for it (go rec.Stop()): it
// returns once the hook has, and the cassette it writes holds the hook's
// interaction (and those that joined before the goroutine ran).
func (r *Recorder) Stop() error {
	if g := r.hooking.Load(); g != 0 && g == goroutineID() {
		return fmt.Errorf("%w: %s (stop the recorder after the call, or from an AfterCapture hook)", ErrStopInHook, r.path)
	}
	r.mu.Lock()
	if r.stopped {
		err := r.stopErr
		r.mu.Unlock()
		return err
	}
	r.mu.Unlock()
	r.joinHeld()
	r.mu.Lock()
	if r.stopped {
		err := r.stopErr
		r.mu.Unlock()
		return err
	}
	r.stopped = true
	r.mu.Unlock()
	// A join under way (its BeforeSave hooks told of its interaction)
	// ends before what to write is taken; later ones see stopped.
	r.joinMu.Lock()
	close(r.done)
	r.joinMu.Unlock()
	r.wg.Wait()
	var err error
	if r.recording {
		err = r.Save()
	}
	r.saveMu.Lock()
	r.spoolMu.Lock()
	r.encoded.close()
	r.spoolMu.Unlock()
	r.saveMu.Unlock()
	if uerr := r.fileLock.Unlock(); err == nil {
		err = uerr
	}
	r.mu.Lock()
	nothing := err == nil && r.created && r.n == 0
	if nothing {
		err = fmt.Errorf("%w: %s", ErrNothingRecorded, r.path)
	}
	r.stopErr = err
	r.mu.Unlock()
	if nothing {
		r.removeMadeDirs() // Stop has run: only this call reaches it
	}
	return err
}

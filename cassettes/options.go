package cassettes

import (
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/dnaeon/go-vcr.v3/recorder"
)

// Mode says whether a Recorder records, replays, or both.
type Mode int

// Modes of a Recorder. The zero value is ModeRecordOnce.
const (
	// ModeRecordOnce replays when the cassette exists and records every
	// request into a new cassette when it does not (go-vcr's default).
	ModeRecordOnce Mode = iota
	// ModeReplayOnly replays; a missing cassette is ErrCassetteNotFound and a
	// request with no recording is ErrNoInteraction. Nothing touches the network.
	ModeReplayOnly
	// ModeRecordNew replays what the cassette holds and records the requests
	// it does not, appending them to the cassette (go-vcr's
	// ModeReplayWithNewEpisodes).
	ModeRecordNew
	// ModeRecordAll sends every request to the real server and records it,
	// appending to an existing cassette; an identical request is recorded
	// again only when its answer differs from every one recorded. This is
	// the mode of atmkit record.
	ModeRecordAll
	// ModePassthrough neither records nor replays.
	ModePassthrough
)

var modeNames = []string{"record-once", "replay-only", "record-new", "record-all", "passthrough"}

// String is the mode's name: record-once, replay-only, record-new,
// record-all or passthrough.
func (m Mode) String() string {
	if m >= 0 && int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("mode(%d)", int(m))
}

// ParseMode reads a mode's name as String writes it.
func ParseMode(s string) (Mode, error) {
	for i, n := range modeNames {
		if n == s {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("%w: %q (want one of record-once, replay-only, record-new, record-all, passthrough)", ErrInvalidMode, s)
}

func (m Mode) vcr() recorder.Mode {
	switch m {
	case ModeReplayOnly:
		return recorder.ModeReplayOnly
	case ModeRecordNew:
		return recorder.ModeReplayWithNewEpisodes
	case ModeRecordAll:
		return recorder.ModeRecordOnly
	case ModePassthrough:
		return recorder.ModePassthrough
	}
	return recorder.ModeRecordOnce
}

// Stage is a point of the recording and replaying at which hooks run.
type Stage int

// Hook stages.
const (
	// AfterCapture hooks run on every interaction captured from the real
	// server, before it is scrubbed and before duplicates are dropped.
	AfterCapture Stage = iota
	// BeforeSave hooks run once on each interaction that joins the cassette
	// file (after duplicates are dropped); the scrubbing runs again after
	// them, so a hook cannot put a key back. They run one call at a time,
	// in the order the interactions join the file, each with the ID it
	// gets there.
	BeforeSave
	// BeforeReplay hooks run on a recorded interaction before its response
	// is returned (go-vcr's BeforeResponseReplayHook: changes persist in
	// memory for later replays). On a fresh capture they are given the
	// interaction as the cassette holds it (scrubbed, without Date, its
	// body decompressed) and change only what the client gets: the real
	// answer, with the headers they set, changed or removed, their status,
	// and their body (then sent uncompressed) if they changed it.
	BeforeReplay
)

// HookFunc inspects or changes an interaction. Setting DiscardOnSave in an
// AfterCapture or BeforeSave hook keeps the interaction out of the file.
type HookFunc func(i *cassette.Interaction) error

type hook struct {
	stage Stage
	fn    HookFunc
}

// Option configures a Recorder.
type Option func(*config)

type config struct {
	mode         Mode
	transport    http.RoundTripper
	saveInterval time.Duration
	logger       *slog.Logger
	hooks        []hook
	scrubHeaders []string // more headers to replace whole (WithScrubHeaders)
	secrets      []string // more values to sweep from everything recorded (WithSecrets)

	// the saver's clock: time.Now and time.After but in tests
	now   func() time.Time
	after func(time.Duration) <-chan time.Time
}

// DefaultSaveInterval is how long a Recorder gathers new interactions before
// it rewrites the cassette.
const DefaultSaveInterval = 200 * time.Millisecond

// WithMode sets the mode (default ModeRecordOnce).
func WithMode(m Mode) Option { return func(c *config) { c.mode = m } }

// WithTransport sets the transport that reaches the real server (default
// http.DefaultTransport).
func WithTransport(rt http.RoundTripper) Option { return func(c *config) { c.transport = rt } }

// WithSaveInterval sets how long new interactions are gathered before the
// cassette is rewritten (default DefaultSaveInterval). As the file grows
// and a save takes longer, saves are spaced further: the next comes no
// sooner than 4 times what writing the file took last. Zero saves after
// each new interaction, before its response is returned, whatever the
// file's size (each save rewrites the whole file: on a long recording, a
// cost that grows with the square of its length). Stop always saves. A
// negative interval makes New fail.
func WithSaveInterval(d time.Duration) Option {
	return func(c *config) { c.saveInterval = d }
}

// WithLogger sets the logger for save errors and skipped requests (default: discard).
func WithLogger(l *slog.Logger) Option { return func(c *config) { c.logger = l } }

// WithScrubHeaders names more headers (any case) whose values the recorder
// replaces by Placeholder, besides the credential headers it finds by name
// (Authorization, Cookie, X-Api-Key...): a gateway's header of another name.
func WithScrubHeaders(names ...string) Option {
	return func(c *config) { c.scrubHeaders = append(c.scrubHeaders, names...) }
}

// WithSecrets names more values the recorder replaces by Placeholder
// wherever they occur in what it records (request and answer, bodies,
// headers and URLs, in the forms the key sweep finds: as they are,
// percent-encoded, XML- or JSON-escaped), as it sweeps the service key:
// the credentials its transport adds below it (atmkit record's secret
// --header values), which a gateway may echo in an answer. They are swept
// together with the keys, the longest first, and then what sweeping one
// leaves of another that holds or overlaps it: a value holding the
// service key ("Key K", "K-partner9") is replaced whole, as is a key
// holding one, whichever the Recorder noted first. A value shorter than
// 4 bytes is not swept (as a key is not: so short a value would match
// ordinary text, a status code or a word of an answer, and mangle the
// recording); name its header with WithScrubHeaders to have it replaced
// there whole. Empty values are ignored. They stay in memory only.
func WithSecrets(values ...string) Option {
	return func(c *config) {
		for _, v := range values {
			if v != "" {
				c.secrets = append(c.secrets, v)
			}
		}
	}
}

// WithHook adds a hook at a stage. Hooks of a stage run in the order added.
func WithHook(stage Stage, fn HookFunc) Option {
	return func(c *config) { c.hooks = append(c.hooks, hook{stage, fn}) }
}

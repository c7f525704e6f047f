package cassettes

import (
	"errors"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"github.com/atmkit/atmkit/internal/filelock"
)

// Errors of this package. They are wrapped with the cassette's path or the
// request's description; test for them with errors.Is.
var (
	// ErrCassetteNotFound: a mode that only replays found no cassette file.
	ErrCassetteNotFound = recorded.ErrCassetteNotFound
	// ErrInvalidCassette: the file is not a go-vcr cassette (not YAML, or not
	// the expected structure).
	ErrInvalidCassette = recorded.ErrInvalidCassette
	// ErrUnsupportedFormat: the cassette is of another go-vcr format version than 2.
	ErrUnsupportedFormat = recorded.ErrUnsupportedFormat
	// ErrNoInteraction: nothing recorded matches a request, and the mode does
	// not allow recording it.
	ErrNoInteraction = errors.New("no recorded interaction matches the request")
	// ErrInvalidMode: a Mode outside the documented constants.
	ErrInvalidMode = errors.New("invalid recorder mode")
	// ErrStopped: the Recorder was used after Stop.
	ErrStopped = errors.New("recorder stopped")
	// ErrStopInHook: Stop was called from a BeforeSave hook. Stop waits
	// for the interaction whose hooks are running to join the cassette,
	// which it cannot do before the hook returns: it does nothing and
	// returns this error (the recording goes on). Stop from an
	// AfterCapture hook, or from another goroutine, stops the recording;
	// a BeforeSave hook that waits for such a Stop deadlocks (see Stop).
	ErrStopInHook = errors.New("recorder's Stop called from a BeforeSave hook")
	// ErrNothingRecorded: Stop found nothing to write into a cassette that
	// did not exist, so it wrote no file (an empty cassette would make every
	// later replay miss).
	ErrNothingRecorded = errors.New("nothing recorded, no cassette written")
	// ErrCassetteBusy: another Recorder that may write the cassette, or
	// another rewrite of it (ScrubFile, verify's Update, atmkit cassette
	// scrub), in this process or another, holds it. Writers take the
	// cassette's lock (a dot file beside it, ".NAME.yaml.lock") for as long
	// as they may write, so that neither drops the other's interactions.
	ErrCassetteBusy = filelock.ErrLocked
	// ErrUnaskedEncoding: a recording Recorder got an answer compressed in
	// a coding it cannot decode (br, zstd) that the request did not accept
	// (atmkit's proxy and serve's upstream ask for gzip or none): it is
	// not recorded, as it could be neither scrubbed nor replayed, and the
	// caller gets the error, not the answer. An answer in such a coding the
	// caller asked for itself is recorded as it came, with a warning.
	ErrUnaskedEncoding = errors.New("answer not recorded")
)

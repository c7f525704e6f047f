package cassettes

import (
	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Placeholder replaces the service key and credential headers in cassettes.
const Placeholder = recorded.Placeholder

// RejectedPlaceholder replaces the service key of a recorded call whose key
// the deployment refused: the mark of a key rejection in a cassette (see
// KeyRejected). Like Placeholder, it tells nothing of the key. A Recorder
// marks an error answer (status other than 200) to a call whose key has had
// no 200 answer in the recording while another key has, and keeps the
// marks up to date as the recording goes on.
const RejectedPlaceholder = recorded.RejectedPlaceholder

// Scrub replaces the service key and the credential headers of one
// interaction by Placeholder, in place, and returns how many values it
// replaced. It is idempotent and is what every Recorder applies before an
// interaction reaches the disk; use it in hooks of your own.
func Scrub(i *cassette.Interaction) int {
	return recorded.Scrub(i, Placeholder)
}

// KeyRejected reports whether i is a recorded key rejection: a call of an
// operation whose service key was recorded as RejectedPlaceholder.
func KeyRejected(i *cassette.Interaction) bool { return recorded.KeyRejected(i) }

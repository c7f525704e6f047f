package cassettes

import (
	"net/http"
	"slices"
	"strings"

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
// marks up to date as the recording goes on. An empty key is no secret and
// is recorded empty: an error answered to it is a key rejection marked by
// the empty key itself.
const RejectedPlaceholder = recorded.RejectedPlaceholder

// Scrub replaces the service key and the credential headers of one
// interaction by Placeholder, in place, and returns how many values it
// replaced. headers names more headers to replace whole (any case), besides
// those redact's rule finds by name (Authorization, Cookie, X-Api-Key...).
// It is idempotent and is what every Recorder applies before an
// interaction reaches the disk; use it in hooks of your own. One
// interaction alone cannot tell a key rejection (see RejectedPlaceholder):
// ScrubList scrubs a whole cassette and marks them.
func Scrub(i *cassette.Interaction, headers ...string) int {
	return recorded.Scrub(i, Placeholder) + scrubHeaders(i, headers)
}

// scrubHeaders replaces the values of the headers named (any case) in the
// request and the response of i, trailers included, by Placeholder, and
// returns how many values it replaced.
func scrubHeaders(i *cassette.Interaction, names []string) int {
	n := 0
	for _, h := range []http.Header{i.Request.Headers, i.Response.Headers, i.Request.Trailer, i.Response.Trailer} {
		for k, vs := range h {
			if !slices.ContainsFunc(names, func(name string) bool { return strings.EqualFold(name, k) }) {
				continue
			}
			for j, v := range vs {
				if v != Placeholder {
					vs[j] = Placeholder
					n++
				}
			}
		}
	}
	return n
}

// KeyRejected reports whether i is a recorded key rejection: a call of an
// operation whose service key was recorded as RejectedPlaceholder.
func KeyRejected(i *cassette.Interaction) bool { return recorded.KeyRejected(i) }

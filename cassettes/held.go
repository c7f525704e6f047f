package cassettes

import (
	"net/url"
	"slices"

	"github.com/atmkit/atmkit/cassettes/internal/recorded"
	"github.com/atmkit/atmkit/internal/redact"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// Holding back a request with a key in its path. A client that built its
// URL wrong may put its key there (.../service.asmx/KEY), where nothing
// tells it from a mistyped operation until a call with the same key is
// answered 200, which sweeps it to REDACTED. Recording a session again
// into the cassette that holds it so, the request comes before the key is
// noted and differs from the one recorded (the key against REDACTED):
// once swept, it would be the same, kept twice. So an interaction whose
// path segments after the .asmx file that name no operation, masked,
// make it one the cassette holds already waits in memory: dropped once a
// key noted makes it that one, joined at Stop otherwise (a mistyped
// operation is recorded, after the interactions that came meanwhile).

// maxHeld bounds the interactions held back: past it, they join at once.
const maxHeld = 64

// A heldBack interaction waits for a key to be noted or for Stop.
type heldBack struct {
	cp     *cassette.Interaction
	key    string // its key's hash (keyMarks)
	nswept int    // the keys of r.swept it was swept of
	k, d   string // the request key and answer digest of its masked form
}

// maskedForm returns the request key and answer digest of i with the
// segments of its path after the .asmx file that name no operation
// swept to Placeholder (in its request and its answer, which may echo
// them), and whether there were any to sweep.
func maskedForm(i *cassette.Interaction) (k, d string, ok bool) {
	u, err := url.Parse(i.Request.URL)
	if err != nil {
		return "", "", false
	}
	segs := slices.DeleteFunc(redact.PathKeys(u.EscapedPath()), func(s string) bool {
		return s == Placeholder || s == RejectedPlaceholder
	})
	if len(segs) == 0 {
		return "", "", false
	}
	cp := ownCopy(i)
	if recorded.SweepInteraction(cp, Placeholder, segs...) == 0 {
		return "", "", false
	}
	return recorded.RecordedKey(&cp.Request), recorded.AnswerDigest(&cp.Response), true
}

// dropHeld drops the held interactions that sweeping key makes the one
// their masked form is. The caller holds r.mu.
func (r *Recorder) dropHeld(key string) {
	r.held = slices.DeleteFunc(r.held, func(h heldBack) bool {
		cp := ownCopy(h.cp)
		if recorded.SweepInteraction(cp, Placeholder, key) == 0 {
			return false
		}
		return recorded.RecordedKey(&cp.Request) == h.k && recorded.AnswerDigest(&cp.Response) == h.d
	})
}

// joinHeld joins the interactions still held back, at Stop, before it
// sets stopped.
func (r *Recorder) joinHeld() {
	r.mu.Lock()
	held := r.held
	r.held = nil
	r.mu.Unlock()
	for _, h := range held {
		if _, err := r.join(h.cp, h.key, h.nswept); err != nil {
			r.log.Error("a BeforeSave hook failed: the interaction is not recorded", "cassette", r.path,
				"request", redact.Text(recorded.DescribeRequest(h.cp.Request.Method, h.cp.Request.URL, h.cp.Request.Headers, h.cp.Request.Body), r.notedKeys()...),
				"err", redact.Error(err, r.notedKeys()...))
		}
	}
}

package mockserver

import (
	"errors"
	"fmt"

	"github.com/atmkit/atmkit/asmx"
)

// Replayer answers calls from recordings; package cassettes implements it.
// The mock server re-wraps a replayed XML result node in the envelope and
// content type of whatever binding the call came in on.
type Replayer interface {
	// Replay returns the recorded answer to c. ok is false when nothing
	// matches; nearest then describes the closest recording, for the error.
	Replay(c *asmx.Call) (ans ReplayAnswer, ok bool, nearest string)
}

// ReplayAnswer is a recorded answer.
type ReplayAnswer struct {
	// Node is the XML result node, for the four XML bindings.
	Node []byte
	// JSON is the JSON body, for the JSON binding.
	JSON []byte
	// Error is a recorded error, re-served in the calling binding's form.
	Error *asmx.Error
}

// MissPolicy says what a replaying server does with a call it has no recording of.
type MissPolicy int

// Miss policies.
const (
	// MissFault answers with an error naming the call and the nearest recording.
	MissFault MissPolicy = iota
	// MissFixtures answers from the data set.
	MissFixtures
)

// WithReplay serves answers from r; calls it has no recording of are
// answered as miss says. r must not be nil.
func WithReplay(r Replayer, miss MissPolicy) Option {
	return func(c *config) error {
		switch {
		case r == nil:
			return errors.New("mock server replay: WithReplay(nil)")
		case miss != MissFault && miss != MissFixtures:
			return fmt.Errorf("mock server replay: unknown miss policy %d (want MissFault or MissFixtures)", int(miss))
		}
		c.replayer, c.onMiss = r, miss
		return nil
	}
}

// replay answers c from the replayer; handled is false when the data set
// should answer. An XML body is appended to dst; a JSON body is the
// recorded one itself.
func (s *Server) replay(dst []byte, c *asmx.Call) (body []byte, e *asmx.Error, handled bool) {
	ans, ok, nearest := s.cfg.replayer.Replay(c)
	if !ok {
		if s.cfg.onMiss == MissFixtures {
			return nil, nil, false
		}
		return nil, asmx.ErrNoRecording(c, nearest), true
	}
	switch {
	case ans.Error != nil:
		return nil, ans.Error, true
	case c.Binding == asmx.JSON && ans.JSON != nil:
		return ans.JSON, nil, true
	case c.Binding == asmx.JSON:
		return nil, asmx.ErrNoRecording(c, "only XML recordings of this call exist; JSON answers come from JSON recordings"), true
	case ans.Node == nil:
		return nil, asmx.ErrNoRecording(c, "only a JSON recording of this call exists"), true
	case c.Binding.IsSOAP():
		return asmx.AppendSOAPResponse(dst, c.Binding, s.cfg.namespace, c.Op.Name, ans.Node), nil, true
	default:
		return asmx.AppendXMLDocument(dst, ans.Node), nil, true
	}
}

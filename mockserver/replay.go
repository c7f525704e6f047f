package mockserver

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/shape"
)

// Replayer answers calls from recordings; package cassettes implements it.
type Replayer interface {
	// Replay returns the recorded answer to c, written for c's binding.
	// ok is false when nothing matches; nearest then describes the
	// closest recording, for the error. ctx is the request's: work done
	// for the answer (fetching it from an upstream) ends with it.
	Replay(ctx context.Context, c *asmx.Call) (ans ReplayAnswer, ok bool, nearest string)
}

// ReplayAnswer is a recorded answer, ready for the calling binding: the
// recorded response itself when the call came in the binding it was
// recorded in, or the recording re-wrapped for the call's binding.
type ReplayAnswer struct {
	// Status, ContentType and Body are written as they are.
	Status      int
	ContentType string
	Body        []byte
	// Kind is the journal's error kind of a recorded error answer ("" for
	// a success).
	Kind string
	// Source says where the answer was recorded, for the journal
	// (JournalEntry.Source): a cassette's file name and the interaction's
	// id ("atm.yaml#6"), "upstream" for an answer just fetched from the
	// upstream; "" when the replayer does not say.
	Source string
	// Error, when set, is written in the calling binding's form instead of
	// Body: a recorded error re-served in another binding, or the reason a
	// recorded answer cannot be served in this one.
	Error *asmx.Error
	// JSONError is set for a recorded answer that carried the header
	// jsonerror: true, ASP.NET's script handler's mark of its JSON errors,
	// by which clients tell them: it is written again.
	JSONError bool
}

// SourceFixtures is JournalEntry.Source of a call a replaying server did
// not find recorded and answered from its data set (WithOnMiss(MissFixtures)).
const SourceFixtures = "fixtures"

// SourceUpstream is ReplayAnswer.Source of an answer a replayer fetched
// from the upstream on a miss.
const SourceUpstream = "upstream"

// KeyRejectionReplayer is a Replayer that holds recorded key rejections:
// answers the recorded deployment gave to a service key it refused. The
// server serves them only to callers whose key it rejects itself (a key
// not among WithKeys'; a missing key gets the server's own fault).
type KeyRejectionReplayer interface {
	Replayer
	// ReplayKeyRejection returns the recorded key rejection of c's
	// operation in c's binding, as recorded; ok is false when there is none.
	ReplayKeyRejection(c *asmx.Call) (ans ReplayAnswer, ok bool)
}

// RequestReplayer is a Replayer that also holds the answers recorded to
// requests that are no call the server reads (a missing or unconvertible
// parameter, an unknown operation or SOAPAction): the deployment's own
// errors. The server serves such a recording, as recorded, instead of
// writing its own error for the request.
type RequestReplayer interface {
	Replayer
	// ReplayRequest returns the answer recorded to a request like r, whose
	// body is body; ok is false when there is none.
	ReplayRequest(r *http.Request, body []byte) (ans ReplayAnswer, ok bool)
}

// WSDLReplayer is a Replayer that holds the deployment's own WSDL,
// recorded. A replaying server serves it for ?WSDL, its addresses moved to
// the server's own, when its target namespace is the server's, instead of
// the WSDL the server writes: a client generated from the mock's WSDL then
// has the deployment's types.
type WSDLReplayer interface {
	Replayer
	// RecordedWSDL returns the recorded WSDL and its target namespace; ok
	// is false when there is none.
	RecordedWSDL() (body []byte, targetNamespace string, ok bool)
}

// DocReplayer is a Replayer that holds the deployment's own documentation
// pages, recorded: its HTML help pages (GET service.asmx, ?op=Name) and
// its discovery document (?disco), of either .asmx file. A replaying server
// serves the recording of the same documentation request, its addresses
// moved to the server's own (see docs/record-replay.md), instead of the
// page it writes; a request with no recording gets the server's own page.
//
// It is a sibling of WSDLReplayer, not its generalisation: the WSDL is one
// document per deployment, served for any ?WSDL request and read for result
// layouts, where a help page is one of many, told apart by the query.
type DocReplayer interface {
	Replayer
	// RecordedDoc returns the answer recorded to a documentation request
	// like q, recorded from a deployment in q.Namespace; ok is false when
	// there is none.
	RecordedDoc(q DocRequest) (doc RecordedDoc, ok bool)
}

// DocRequest is a documentation request as ASMX reads its query
// (asmx.ParseDocsQuery).
type DocRequest struct {
	// Kind is asmx.DocsHelp, asmx.DocsDisco, asmx.DocsSchema or
	// asmx.DocsWSDLNotFound (?wsdl=ID: a service description the WSDL
	// imports, which the server has none of).
	Kind asmx.DocsKind
	// JSON is true for a request of /service-v2.asmx, false for one of
	// /service/service.asmx.
	JSON bool
	// Op is the operation ?op= names, as given, for a help page (HasOp
	// says whether the query has an op at all: ?op= is one, naming ""),
	// or the id ?schema= or ?wsdl= names, for a schema or a service
	// description (as ASMX reads it: the name in any case, the id exact).
	Op    string
	HasOp bool
	// Query is the raw query, which a recording with the same query
	// answers first (Mono's help pages also read page, tab and bnd).
	Query string
	// Namespace is the replaying server's service namespace: only pages
	// recorded from a deployment in it describe the server.
	Namespace string
}

// RecordedDoc is a recorded documentation page: its status, content type
// and body as recorded, and the address it was recorded at.
type RecordedDoc struct {
	Status      int
	ContentType string
	Body        []byte
	// Address is the absolute URL of the .asmx file the page was recorded
	// from, as requested: scheme, host and port, the deployment's base
	// path, the file's path ("http://atm.example.org/app/service/service.asmx").
	Address string
	// Source says where it was recorded, for the journal (file#id).
	Source string
}

// ClientTextReplayer is a Replayer whose descriptions of recordings (the
// nearest recording of Replay, a miss) name files of the server, such as a
// cassette's path. A replaying server shows a client such a text as
// ClientText returns it, each name cut to what a client may know of it
// (the file's name: where files lie on the server is none of its
// business), and keeps it whole in its log.
type ClientTextReplayer interface {
	Replayer
	ClientText(text string) string
}

// ShapedReplayer is a Replayer that re-wraps recorded answers for other
// bindings and can use the deployment's result shape for it (the GET/POST
// root of a typed result recorded over SOAP). A server replays through
// ForServer(sh, ns): sh is the shape it was given with WithShape, nil when
// none was, and ns its service namespace.
type ShapedReplayer interface {
	Replayer
	ForServer(sh *shape.Shape, namespace string) Replayer
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

// replayerFor is the replayer a server with cfg uses.
func replayerFor(cfg *config) Replayer {
	if sr, ok := cfg.replayer.(ShapedReplayer); ok {
		return sr.ForServer(cfg.shape, cfg.namespace)
	}
	return cfg.replayer
}

// replay answers c from the replayer; it returns false when the data set
// should answer.
func (s *Server) replay(w http.ResponseWriter, ex *exchange, c *asmx.Call) bool {
	ans, ok, nearest := s.replayer.Replay(ex.ctx, c)
	if !ok {
		if s.cfg.onMiss == MissFixtures {
			ex.source = SourceFixtures
			return false
		}
		e := asmx.NewNoRecordingError(c, nearest)
		if ct, ok := s.replayer.(ClientTextReplayer); ok {
			logged := e.Message
			e = asmx.NewNoRecordingError(c, ct.ClientText(nearest))
			e.Message = logged
		}
		s.writeError(w, ex, c.Binding, e)
		return true
	}
	ex.source = ans.Source
	if ans.Error != nil {
		s.writeError(w, ex, c.Binding, ans.Error)
		return true
	}
	writeReplayed(w, ex, ans)
	return true
}

// replayKeyRejection answers a call whose key the server rejects with the
// recorded key rejection of its operation in its binding, if there is one.
func (s *Server) replayKeyRejection(w http.ResponseWriter, ex *exchange, c *asmx.Call) bool {
	kr, ok := s.replayer.(KeyRejectionReplayer)
	if !ok {
		return false
	}
	ans, ok := kr.ReplayKeyRejection(c)
	if !ok {
		return false
	}
	ex.source = ans.Source
	writeReplayed(w, ex, ans)
	return true
}

// writeReplayed writes a replayed answer as it is.
func writeReplayed(w http.ResponseWriter, ex *exchange, ans ReplayAnswer) {
	h := w.Header()
	switch ans.ContentType {
	case asmx.ContentTypeXML:
		h["Content-Type"] = headerXML
	case asmx.ContentTypeSOAP12:
		h["Content-Type"] = headerSOAP12
	case asmx.ContentTypeText:
		h["Content-Type"] = headerText
	case "":
		h["Content-Type"] = nil // recorded without one: not sniffed either
	default:
		h["Content-Type"] = []string{ans.ContentType}
	}
	if ans.JSONError {
		h.Set("jsonerror", "true")
	}
	h["Content-Length"] = []string{strconv.Itoa(len(ans.Body))}
	ex.note = ans.Kind
	status := ans.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_, _ = w.Write(ans.Body)
}

// replayError answers a request the server refuses with e with the
// deployment's own answer to it, when the replayer holds one
// (RequestReplayer), and reports whether it did. A request refused before
// its body was read (a POST that is no form, application/json; a PUT) has
// it read now, so that it is matched as recorded, body included.
func (s *Server) replayError(w http.ResponseWriter, ex *exchange, e *asmx.Error) bool {
	rr, ok := s.replayer.(RequestReplayer)
	if !ok || ex.req == nil || ex.call != nil || e.Kind == asmx.KindRequestTooLarge {
		return false
	}
	body := ex.rawBody
	if body == nil && ex.reqBuf == nil && hasBody(ex.req) {
		if buf, be := s.readBody(w, ex.req); be == nil {
			ex.reqBuf = buf
			ex.keepBody(buf.Bytes(), s.journal.bodyMax)
			body = buf.Bytes()
		}
	}
	ans, ok := rr.ReplayRequest(ex.req, body)
	if !ok {
		return false
	}
	ex.source = ans.Source
	writeReplayed(w, ex, ans)
	return true
}

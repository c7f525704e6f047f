package mockserver

import (
	"net/http"

	"github.com/atmkit/atmkit/asmx"
)

// serveDocs answers GET and HEAD of /service/service.asmx: the WSDL, the
// discovery document or the HTML help pages, once request validation has
// passed the query. A fault on operation WSDL
// applies to the first two and to the descriptions the WSDL imports
// (?wsdl=ID), never to the help pages. A replaying server
// serves the deployment's own WSDL, discovery document and help pages
// where the recordings hold them (wsdl.go, replay_docs.go).
func (s *Server) serveDocs(w http.ResponseWriter, r *http.Request, ex *exchange) {
	// ASMX's discovery protocol reads the query first: ASP.NET fills
	// Request.QueryString, counting its keys, then request validation
	// checks it (asmx.ValidateDocsQuery).
	query := s.cfg.reqEncoding.Query(headerValue(r.Header, "Content-Type"), hasBody(r), r.URL.RawQuery)
	if asmx.CollectionKeysExceeded(query, s.cfg.maxCollectionKeys) {
		s.writeError(w, ex, 0, asmx.NewDocsCollectionKeysError(s.cfg.maxCollectionKeys))
		return
	}
	if e := asmx.ValidateDocsQuery(query, s.cfg.validation); e != nil {
		s.writeError(w, ex, 0, e)
		return
	}
	kind, op, hasOp := asmx.ParseDocsQuery(r.URL.RawQuery)
	switch {
	case kind == asmx.DocsWSDL || kind == asmx.DocsDisco:
		ex.describes = true
		serve := func(w http.ResponseWriter) { s.serveWSDL(w, r) }
		if kind == asmx.DocsDisco {
			serve = func(w http.ResponseWriter) { s.serveDisco(w, r, ex) }
		}
		if s.faults.active.Load() != 0 && s.injectFault(w, ex, opWSDL, 0, serve) {
			return
		}
		serve(w)
	case kind == asmx.DocsSchema:
		if s.replayer == nil || !s.replayDoc(w, r, ex, false) { // a recorded schema first (replay_docs.go)
			s.serveSchema(w, op)
		}
	case kind == asmx.DocsWSDLNotFound:
		// ?wsdl=ID: a service description the WSDL imports, fetched with
		// it, so a WSDL fault takes it too, found or not.
		ex.describes = true
		serve := func(w http.ResponseWriter) {
			if s.replayer == nil || !s.replayDoc(w, r, ex, false) { // a recorded one first (replay_docs.go)
				writeDocsError(w, wsdlNotFound)
			}
		}
		if s.faults.active.Load() != 0 && s.injectFault(w, ex, opWSDL, 0, serve) {
			return
		}
		serve(w)
	case s.replayer != nil && s.replayDoc(w, r, ex, false):
		// the deployment's own help page, recorded (replay_docs.go)
	case hasOp:
		s.serveOperationHelp(w, r, op)
	default:
		s.serveHelpIndex(w, r)
	}
}

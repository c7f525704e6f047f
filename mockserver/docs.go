package mockserver

import (
	"net/http"
	"strings"

	"github.com/atmkit/atmkit/asmx"
)

// docsRequest is what a GET of service.asmx asks for.
type docsRequest int

const (
	docsHelp         docsRequest = iota // the operation list, or one operation with ?op=
	docsWSDL                            // ?WSDL, any case
	docsDisco                           // ?disco, any case
	docsSchema                          // ?schema=ID, any case: a typed DataSet's schema
	docsWSDLNotFound                    // ?wsdl=ID: no service description has that id
)

// parseDocsQuery reads the query of a GET of service.asmx as ASMX does
// (DiscoveryServerProtocol): a key schema (any case, with a value, even an
// empty one) asks for the schema its value names, before anything else; a
// key wsdl with a value asks for the service description of that id, which
// a service in one namespace does not have ("?wsdl=1"); the values of the
// pairs without '=' (Request.QueryString[null], joined with commas) that
// are wsdl or disco, in any case, ask for that document ("?wsdl&x=1" does,
// "?wsdl&disco" does not); anything else is the help page, for the
// operation op names. The string is the schema's id or the operation.
func parseDocsQuery(raw string) (docsRequest, string, bool) {
	if raw == "" {
		return docsHelp, "", false
	}
	values := asmx.ParseQuery(raw)
	get := func(name string) (string, bool) {
		var vs []string
		found := false
		for k, v := range values {
			if strings.EqualFold(k, name) {
				vs, found = append(vs, v...), true
			}
		}
		return strings.Join(vs, ","), found
	}
	if id, ok := get("schema"); ok {
		return docsSchema, id, false
	}
	if _, ok := get("wsdl"); ok {
		return docsWSDLNotFound, "", false
	}
	switch bare := strings.Join(values[""], ","); {
	case strings.EqualFold(bare, "wsdl"):
		return docsWSDL, "", false
	case strings.EqualFold(bare, "disco"):
		return docsDisco, "", false
	}
	op, hasOp := get("op")
	return docsHelp, op, hasOp
}

// serveDocs answers GET and HEAD of /service/service.asmx: the WSDL, the
// discovery document or the HTML help pages. A fault on operation WSDL
// applies to the first two, never to the help pages. A replaying server
// serves the deployment's own WSDL, discovery document and help pages
// where the recordings hold them (wsdl.go, replay_docs.go).
func (s *Server) serveDocs(w http.ResponseWriter, r *http.Request, ex *exchange) {
	kind, op, hasOp := parseDocsQuery(r.URL.RawQuery)
	switch {
	case kind == docsWSDL || kind == docsDisco:
		ex.describes = true
		serve := func(w http.ResponseWriter) { s.serveWSDL(w, r) }
		if kind == docsDisco {
			serve = func(w http.ResponseWriter) { s.serveDisco(w, r, ex) }
		}
		if s.faults.active.Load() != 0 && s.injectFault(w, ex, opWSDL, 0, serve) {
			return
		}
		serve(w)
	case kind == docsSchema:
		s.serveSchema(w, op)
	case kind == docsWSDLNotFound:
		writeDocsError(w, wsdlNotFound)
	case s.replayer != nil && s.replayDoc(w, r, ex, false):
		// the deployment's own help page, recorded (replay_docs.go)
	case hasOp:
		s.serveOperationHelp(w, r, op)
	default:
		s.serveHelpIndex(w, r)
	}
}

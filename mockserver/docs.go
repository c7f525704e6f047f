package mockserver

import (
	"net/http"
	"net/url"
	"strings"
)

// docsRequest is what a GET of service.asmx asks for.
type docsRequest int

const (
	docsHelp   docsRequest = iota // the operation list, or one operation with ?op=
	docsWSDL                      // ?WSDL, any case
	docsDisco                     // ?disco, any case
	docsSchema                    // ?schema=ID, any case: a typed DataSet's schema
)

// parseDocsQuery reads the query of a GET of service.asmx the way ASMX does:
// a key schema (any case) asks for the schema its value names, before
// anything else (Mono answers ?wsdl&schema=x with the schema's error); a
// key wsdl or disco (any case, with or without a value) asks for that
// document; otherwise op names the operation whose help page is wanted.
// The string is the schema's id or the operation.
func parseDocsQuery(raw string) (docsRequest, string, bool) {
	op, hasOp := "", false
	kind := docsHelp
	for _, part := range strings.Split(raw, "&") {
		key, value, _ := strings.Cut(part, "=")
		if k, err := url.QueryUnescape(key); err == nil {
			key = k
		}
		switch {
		case strings.EqualFold(key, "schema"):
			if v, err := url.QueryUnescape(value); err == nil {
				value = v
			}
			return docsSchema, value, false
		case kind != docsHelp:
		case strings.EqualFold(key, "wsdl"):
			kind = docsWSDL
		case strings.EqualFold(key, "disco"):
			kind = docsDisco
		case strings.EqualFold(key, "op") && !hasOp:
			if v, err := url.QueryUnescape(value); err == nil {
				value = v
			}
			op, hasOp = value, true
		}
	}
	if kind != docsHelp {
		return kind, "", false
	}
	return docsHelp, op, hasOp
}

// serveDocs answers GET and HEAD of /service/service.asmx: the WSDL, the
// discovery document or the HTML help pages. A fault on operation WSDL
// applies to the first two, never to the help pages.
func (s *Server) serveDocs(w http.ResponseWriter, r *http.Request, ex *exchange) {
	kind, op, hasOp := parseDocsQuery(r.URL.RawQuery)
	switch {
	case kind == docsWSDL || kind == docsDisco:
		serve := s.serveWSDL
		if kind == docsDisco {
			serve = s.serveDisco
		}
		if s.faults.active.Load() != 0 && s.injectFault(w, ex, opWSDL, 0, func(w http.ResponseWriter) { serve(w, r) }) {
			return
		}
		serve(w, r)
	case kind == docsSchema:
		s.serveSchema(w, op)
	case hasOp:
		s.serveOperationHelp(w, r, op)
	default:
		s.serveHelpIndex(w, r)
	}
}

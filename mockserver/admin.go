package mockserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// adminPrefix is where the admin API lives. Its paths are matched exactly
// (case-sensitive), unlike the service's.
const adminPrefix = "/__admin"

// maxAdminBody caps the body of an admin request.
const maxAdminBody = 64 << 10

// errAdminBodyTooLarge: an admin request's body is over maxAdminBody.
var errAdminBodyTooLarge = fmt.Errorf("the body is larger than %d bytes, the admin API's limit", maxAdminBody)

// refuseAdminBody answers 413 to a request whose body is over
// maxAdminBody (unread: none of it was read), then reads and discards the
// rest of the body before the connection closes, as the service does for
// its own cap (linger.go): a client still sending reads the answer
// instead of a reset connection. Not 400: the body may be a valid fault,
// only too long; the admin API is atmkit's own, not ASMX's, which never
// answers 413 (see docs/asmx.md).
func refuseAdminBody(w http.ResponseWriter, r *http.Request, unread bool) {
	refuseBody(w, r, unread, func() {
		writeAdminError(w, http.StatusRequestEntityTooLarge, adminTooLarge, "%v", errAdminBodyTooLarge)
	})
}

// capAdminBody refuses a body over maxAdminBody with 413, at once when
// its length is declared (as nginx's client_max_body_size: none of it is
// read), at the cap when it is chunked (readAdminBody). It reports whether
// r may go on.
func capAdminBody(w http.ResponseWriter, r *http.Request) bool {
	if r.ContentLength > maxAdminBody {
		refuseAdminBody(w, r, true)
		return false
	}
	return r.ContentLength >= 0 || readAdminBody(w, r)
}

// isPageRequest reports whether servePage answers r, needing no token: a
// file of the page, or a GET or HEAD of /__admin (sent to the page).
func isPageRequest(r *http.Request) bool {
	if _, ok := pageFiles()[r.URL.Path]; ok {
		return true
	}
	return r.URL.Path == adminPrefix && (r.Method == http.MethodGet || r.Method == http.MethodHead)
}

// readAdminBody reads a body of unknown length (chunked) up to the cap,
// before the endpoint does anything, and puts it back in r: one over the cap is
// refused with 413 at every endpoint, as a declared length is, and does
// nothing (POST /__admin/reset emptied the journal and answered 204 when
// the body was chunked, 413 when its length was declared). It reports
// whether r may go on.
func readAdminBody(w http.ResponseWriter, r *http.Request) bool {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxAdminBody+1))
	switch {
	case len(body) > maxAdminBody:
		refuseAdminBody(w, r, false)
		return false
	case err != nil:
		writeAdminError(w, http.StatusBadRequest, adminBadRequest, "reading the body: %v", err)
		return false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return true
}

// closeUnread makes the answer to a request refused before its body is
// read close the connection when the body's length is unknown (chunked) or
// over maxAdminBody: net/http would otherwise read up to 256 KB of it, to
// keep the connection for the next request, before writing the answer,
// and a caller that may not use the API would have the mock read what it
// sends. A body of a declared length within the cap is left to net/http,
// which reads it to keep the connection, as the API would have.
func closeUnread(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength < 0 || r.ContentLength > maxAdminBody {
		w.Header().Set("Connection", "close")
	}
}

// WithAdminToken makes the admin API require "Authorization: Bearer <token>"
// on every endpoint but /__admin/health. Empty means no token is required.
func WithAdminToken(token string) Option {
	return func(c *config) error {
		if token != strings.TrimSpace(token) || strings.ContainsAny(token, "\r\n") {
			return errors.New("mock server admin token: white space at its ends or a line break (a bearer token cannot carry them)")
		}
		c.adminToken = token
		return nil
	}
}

func isAdminPath(path string) bool {
	return path == adminPrefix || strings.HasPrefix(path, adminPrefix+"/")
}

// adminError is the admin API's error object.
type adminError struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Status  int    `json:"status"`
	} `json:"error"`
}

// Kinds of admin API error, the "code" of its error object.
const (
	adminBadRequest       = "BadRequest"
	adminUnauthorized     = "Unauthorized"
	adminForbidden        = "Forbidden"
	adminNotFound         = "NotFound"
	adminMethodNotAllowed = "MethodNotAllowed"
	adminConflict         = "Conflict"
	adminTooLarge         = "RequestEntityTooLarge"
)

func writeAdminJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil { // only plain data is written; a failure is a bug
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error":{"code":"ServerError","message":"encoding the answer failed","status":500}}` + "\n")
	}
	body := buf.Bytes()
	setAdminHeader(w.Header())
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// setAdminHeader sets the header fields of every admin API answer in JSON.
func setAdminHeader(h http.Header) {
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	// The journal holds what any caller sent, markup included, and is
	// written with < and > as they are: never read as anything but JSON.
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
}

// requestListTail is what GET /__admin/requests writes after the entries.
type requestListTail struct {
	Matched  int        `json:"matched"`
	LastSeq  uint64     `json:"lastSeq"`
	Held     []HeldCall `json:"held"`
	Instance string     `json:"instance"`
	// Cleared counts the times the journal was emptied (DELETE
	// /__admin/requests, POST /__admin/reset, Server.ResetJournal) since
	// the mock started: a reader polling with since sees from it that the
	// calls it listed are gone.
	Cleared uint64 `json:"cleared"`
}

// writeRequestList answers GET /__admin/requests: the list is written
// entry by entry as the client reads it, not made whole first. A full
// journal lists tens of megabytes, and a client that stops reading holds
// its connection until the write timeout: each such client held a copy of
// the whole answer (20 of them took a mock to 1.1 GB).
func writeRequestList(w http.ResponseWriter, list []JournalEntry, t requestListTail) {
	setAdminHeader(w.Header())
	streamThrough(w) // a TestServer's writer too: admin calls are not journaled
	w.WriteHeader(http.StatusOK)
	_, err := io.WriteString(w, `{"requests":[`)
	for i := range list {
		if err != nil {
			return // the client went away
		}
		b, merr := marshalText(list[i])
		if merr != nil { // only plain data is written; a failure is a bug
			return
		}
		if i > 0 {
			_, err = io.WriteString(w, ",")
		}
		if err == nil {
			_, err = w.Write(b)
		}
		list[i] = JournalEntry{} // written: let it go
	}
	tail, merr := marshalText(t)
	if err != nil || merr != nil {
		return
	}
	_, _ = io.WriteString(w, "],"+string(tail[1:])+"\n")
}

func writeAdminError(w http.ResponseWriter, status int, code, format string, args ...any) {
	var e adminError
	e.Error.Code, e.Error.Message, e.Error.Status = code, fmt.Sprintf(format, args...), status
	writeAdminJSON(w, status, e)
}

// crossOrigin refuses changes a browser sends from another site (a form or
// fetch of any page the user has open may POST to a mock on this host):
// the admin page's own calls are same-origin, and curl and tests send no
// Origin or Sec-Fetch-Site. Reading is not refused: a browser does not let
// another site read the answers.
var crossOrigin = http.NewCrossOriginProtection()

// serveAdmin answers the admin API under /__admin:
//
//	GET    /__admin/health               {"status":"ok"} (no token needed)
//	GET    /__admin/requests             the journal (?operation=&binding=&status=&since=&limit=&summary=), matched, lastSeq and instance
//	GET    /__admin/requests/{seq}       one entry of the journal
//	DELETE /__admin/requests             empties the journal
//	GET    /__admin/faults               the active faults
//	POST   /__admin/faults               adds a fault, answers {"id":"f1",...} (an "id" given is kept, 409 if taken)
//	GET    /__admin/faults/{id}          one active fault (404 once gone)
//	DELETE /__admin/faults[/{id}]        removes every fault, or one
//	GET    /__admin/cities               the data set's cities
//	GET    /__admin/institutions         the data set's institutions
//	GET    /__admin/info                 what the admin page shows of the mock
//	POST   /__admin/reset                removes every fault and empties the journal (WireMock's reset)
//
// and the admin page (page.go) at /__admin/, whose files need no token.
// All but health refuse a Host that is no name of this host on loopback
// without a token (admin_host.go).
//
// The body is capped (maxAdminBody) once the caller may use the API: a
// request refused for its Host, its token or its origin is answered from
// its header alone, and none of its body is read (closeUnread).
func (s *Server) serveAdmin(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimSuffix(r.URL.Path, "/")
	if path != adminPrefix+"/health" && s.refuseForeignHost(w, r) {
		return
	}
	// The page's files and health need no token: their bodies are capped
	// at once.
	if (path == adminPrefix+"/health" || isPageRequest(r)) && !capAdminBody(w, r) {
		return
	}
	if servePage(w, r) {
		return
	}
	if r.Method == http.MethodDelete && (path == adminPrefix+"/faults" || path == adminPrefix+"/requests") {
		// DELETE /__admin/faults/$ID with $ID empty must not remove every
		// fault, nor DELETE /__admin/requests/$SEQ empty the journal. A
		// slash after an id is dropped, as for GET: /faults/f1/ is f1.
		path = r.URL.Path
	}
	if path == adminPrefix+"/health" {
		if !allowMethods(w, r, http.MethodGet, http.MethodHead) {
			return
		}
		writeAdminJSON(w, http.StatusOK, map[string]string{"status": "ok"})
		return
	}
	if s.refuseUnauthorized(w, r) {
		return
	}
	if err := crossOrigin.Check(r); err != nil {
		closeUnread(w, r)
		writeAdminError(w, http.StatusForbidden, adminForbidden,
			"a browser sent this %s from another site; the admin API takes changes from its own page (%s) and from clients that are not browsers (curl, tests)",
			r.Method, pagePath)
		return
	}
	if !capAdminBody(w, r) {
		return
	}
	switch {
	case path == adminPrefix+"/requests":
		s.adminRequests(w, r)
	case strings.HasPrefix(path, adminPrefix+"/requests/"):
		s.adminRequest(w, r, strings.TrimPrefix(path, adminPrefix+"/requests/"))
	case path == adminPrefix+"/faults":
		s.adminFaults(w, r)
	case strings.HasPrefix(path, adminPrefix+"/faults/"):
		s.adminFault(w, r, strings.TrimPrefix(path, adminPrefix+"/faults/"))
	case path == adminPrefix+"/cities":
		if allowMethods(w, r, http.MethodGet, http.MethodHead) && listsAll(w, r, "every city of the data set") {
			writeAdminJSON(w, http.StatusOK, map[string]any{"cities": nonNil(s.data.ds.Cities)})
		}
	case path == adminPrefix+"/institutions":
		if allowMethods(w, r, http.MethodGet, http.MethodHead) && listsAll(w, r, "every institution of the data set") {
			writeAdminJSON(w, http.StatusOK, map[string]any{"institutions": nonNil(s.data.ds.Institutions)})
		}
	case path == adminPrefix+"/info":
		s.adminInfo(w, r)
	case path == adminPrefix+"/reset":
		// Between two tests, as WireMock's POST /__admin/reset: the
		// faults first, so that no call after the answer is faulted.
		if allowMethods(w, r, http.MethodPost) && emptiesAll(w, r, "every fault and every call") {
			s.faults.clear()
			s.journal.reset()
			s.log.Info("admin: every fault removed and the journal emptied (reset)")
			w.WriteHeader(http.StatusNoContent)
		}
	default:
		writeAdminError(w, http.StatusNotFound, adminNotFound,
			"no admin endpoint %s (see /__admin/health, requests, faults, cities, institutions, info, reset; the page is at %s)", r.URL.Path, pagePath)
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// listsAll answers 400 to a read of a list that filters nothing (faults,
// cities, institutions) when it has a query, and reports whether it had
// none: ?operation=ReturnProvinces, meant as a filter, listed all of it,
// as GET /__admin/requests refuses a parameter it does not know.
func listsAll(w http.ResponseWriter, r *http.Request, what string) bool {
	return readsNoQuery(w, r, "lists "+what)
}

// readsNoQuery answers 400 to a read that takes no query (GET
// /__admin/info, /requests/{seq}, /faults/{id}, and the lists of
// listsAll) when it has one, and reports whether it had none: does says
// what the read does. A query was ignored, and a read such as
// /requests/7?summary=true answered as if it had been understood.
func readsNoQuery(w http.ResponseWriter, r *http.Request, does string) bool {
	if r.URL.RawQuery == "" {
		return true
	}
	writeAdminError(w, http.StatusBadRequest, adminBadRequest, "%s %s takes no query (%.80q): it %s", r.Method, r.URL.Path, r.URL.RawQuery, does)
	return false
}

// allowMethods answers 405 unless r's method is one of methods.
func allowMethods(w http.ResponseWriter, r *http.Request, methods ...string) bool {
	for _, m := range methods {
		if r.Method == m {
			return true
		}
	}
	w.Header().Set("Allow", strings.Join(methods, ", "))
	writeAdminError(w, http.StatusMethodNotAllowed, adminMethodNotAllowed, "method %s is not allowed here (allowed: %s)",
		r.Method, strings.Join(methods, ", "))
	return false
}

func (s *Server) adminRequests(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		// A part the parser drops (a semicolon, a bad escape) would be
		// read as no filter: refused, as an unknown parameter is.
		q, err := url.ParseQuery(r.URL.RawQuery)
		if err != nil {
			writeAdminError(w, http.StatusBadRequest, adminBadRequest,
				"the query does not parse (%v): separate parameters with &, and write %% as %%25", err)
			return
		}
		f, err := requestFilter(q)
		if err != nil {
			writeAdminError(w, http.StatusBadRequest, adminBadRequest, "%v", err)
			return
		}
		match := f.match
		if q.Get("status") == "0" { // the calls answered with no response
			match = func(r *journalRecord) bool { return r.Status == 0 && f.match(r) }
		}
		summary := false
		if v := q.Get("summary"); v != "" {
			if summary, err = strconv.ParseBool(v); err != nil {
				writeAdminError(w, http.StatusBadRequest, adminBadRequest, "summary %.80q: want true or false", v)
				return
			}
		}
		// matched counts the entries the filter takes before limit keeps
		// the newest: a reader polling with since and limit sees from it
		// how many calls came that it did not get.
		matched := 0
		counted := func(r *journalRecord) bool {
			if match(r) {
				matched++
				return true
			}
			return false
		}
		if !s.awaitJournalRead(r.Context()) {
			return // the client went away while waiting: its connection closes now
		}
		list := s.journal.read(counted, f.Limit, !summary)
		// lastSeq is read after the list, so that it is at least the seq
		// of every entry listed: a reader polling with since sees from it
		// that the mock started anew (its calls count from 1 again).
		last, cleared := s.journal.last()
		held := slices.DeleteFunc(s.held.list(), func(c HeldCall) bool { return !f.holds(c) })
		<-s.journalReads
		writeRequestList(w, list, requestListTail{Matched: matched, LastSeq: last, Held: nonNil(held), Instance: s.instance, Cleared: cleared})
	case http.MethodDelete:
		if !emptiesAll(w, r, "every call of the journal") {
			return
		}
		s.journal.reset()
		s.log.Info("admin: journal emptied")
		w.WriteHeader(http.StatusNoContent)
	default:
		allowMethods(w, r, http.MethodGet, http.MethodHead, http.MethodDelete)
	}
}

// journalReadsAtOnce is how many GET /__admin/requests read the journal
// at once; the others wait for a slot.
const journalReadsAtOnce = 4

// awaitJournalRead takes a slot to read the journal in (release it by
// receiving from s.journalReads), or reports false when ctx, the
// request's, ends first. Reading the journal takes its lock and shows the
// entries not yet shown; under load (many pollers, the race detector)
// polls queued for the lock, and a poll whose client had given up (a
// timeout) held its connection, half-closed (CLOSE-WAIT), until its turn
// came, to do work no one would read. A poll waiting for a slot leaves as
// its client does.
func (s *Server) awaitJournalRead(ctx context.Context) bool {
	select {
	case s.journalReads <- struct{}{}:
	case <-ctx.Done():
		return false
	}
	if ctx.Err() != nil {
		<-s.journalReads
		return false
	}
	return true
}

// adminRequest answers GET /__admin/requests/{seq}: one entry, in full.
func (s *Server) adminRequest(w http.ResponseWriter, r *http.Request, seq string) {
	if seq == "" && r.Method == http.MethodDelete { // DELETE .../requests/$SEQ with SEQ unset
		w.Header().Set("Allow", "GET, HEAD")
		writeAdminError(w, http.StatusMethodNotAllowed, adminMethodNotAllowed,
			"method DELETE is not allowed on an entry of the journal, and no seq follows %s/requests/ (DELETE %s/requests, without the slash, empties the journal)", adminPrefix, adminPrefix)
		return
	}
	if !allowMethods(w, r, http.MethodGet, http.MethodHead) ||
		!readsNoQuery(w, r, "shows one call in full (GET "+adminPrefix+"/requests takes the filters)") {
		return
	}
	n, ok := plainNumber(seq)
	if !ok || n == 0 {
		writeAdminError(w, http.StatusNotFound, adminNotFound, "no journal entry %.80q (want its seq, 1 or more)", seq)
		return
	}
	e, ok := s.journal.one(n)
	if !ok && !s.journal.enabled() {
		writeAdminError(w, http.StatusNotFound, adminNotFound, "no journal entry %d: the journal is off (--journal-size 0), it keeps no calls", n)
		return
	}
	if !ok {
		writeAdminError(w, http.StatusNotFound, adminNotFound, "no journal entry %d (dropped, reset or not yet made)", n)
		return
	}
	writeAdminJSON(w, http.StatusOK, e)
}

func (s *Server) adminFaults(w http.ResponseWriter, r *http.Request) {
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		if !listsAll(w, r, "every active fault (GET "+adminPrefix+"/faults/{id} shows one)") {
			return
		}
		faults := s.faults.list()
		for i := range faults {
			faults[i] = s.shownFault(faults[i])
		}
		writeAdminJSON(w, http.StatusOK, map[string]any{"faults": faults})
	case http.MethodPost:
		if r.URL.RawQuery != "" {
			// Not read: ?operation=ReturnProvinces would have made a
			// fault of every operation, as a filter read as none would.
			writeAdminError(w, http.StatusBadRequest, adminBadRequest,
				"POST %s takes no query (%.80q): the fault is the body's JSON object, with every field in it, such as {\"operation\":\"ReturnProvinces\",\"status\":503}",
				r.URL.Path, r.URL.RawQuery)
			return
		}
		f, err := decodeFault(w, r)
		if errors.Is(err, errAdminBodyTooLarge) {
			refuseAdminBody(w, r, false)
			return
		}
		if err != nil {
			writeAdminError(w, http.StatusBadRequest, adminBadRequest, "%v", err)
			return
		}
		added, err := s.addFault(f)
		if errors.Is(err, errFaultIDTaken) {
			writeAdminError(w, http.StatusConflict, adminConflict, "%v", err)
			return
		}
		if err != nil {
			writeAdminError(w, http.StatusBadRequest, adminBadRequest, "fault: %v", err)
			return
		}
		s.logFaultAdded(added)
		w.Header().Set("Location", adminPrefix+"/faults/"+added.ID)
		writeAdminJSON(w, http.StatusCreated, s.shownFault(added))
	case http.MethodDelete:
		if !emptiesAll(w, r, "every fault") {
			return
		}
		s.faults.clear()
		s.log.Info("admin: every fault removed")
		w.WriteHeader(http.StatusNoContent)
	default:
		allowMethods(w, r, http.MethodGet, http.MethodHead, http.MethodPost, http.MethodDelete)
	}
}

// adminFault answers /__admin/faults/{id}: GET shows the fault as the
// list does (the Location of its POST), DELETE removes it.
func (s *Server) adminFault(w http.ResponseWriter, r *http.Request, id string) {
	if !allowMethods(w, r, http.MethodGet, http.MethodHead, http.MethodDelete) {
		return
	}
	if id == "" {
		writeAdminError(w, http.StatusNotFound, adminNotFound,
			"no fault id after %s/faults/ (DELETE %s/faults, without the slash, removes every fault)", adminPrefix, adminPrefix)
		return
	}
	gone := func() {
		writeAdminError(w, http.StatusNotFound, adminNotFound, "no fault with id %.80q (removed, or its times ran out)", id)
	}
	if r.Method != http.MethodDelete && !readsNoQuery(w, r, "shows one fault") {
		return
	}
	if r.Method == http.MethodDelete {
		if !s.faults.remove(id) {
			gone()
			return
		}
		s.log.Info("admin: fault removed", "id", id)
		w.WriteHeader(http.StatusNoContent)
		return
	}
	for _, f := range s.faults.list() {
		if f.ID == id {
			writeAdminJSON(w, http.StatusOK, s.shownFault(f))
			return
		}
	}
	gone()
}

// shownFault is f, a copy of the set's, as the admin API shows it: the
// configured keys masked in its text, as in the journal's copy of the
// answer it gives and in the log (logFaultAdded). The fault answers
// with its text as given.
func (s *Server) shownFault(f Fault) Fault {
	if f.SOAPFault != nil && f.SOAPFault.Text != "" {
		f.SOAPFault.Text = s.keyMask.Text(f.SOAPFault.Text)
	}
	return f
}

// decodeFault reads one fault object from an admin request body, with
// the id it gives, if any (faultSet.add checks it).
func decodeFault(w http.ResponseWriter, r *http.Request) (Fault, error) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxAdminBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return Fault{}, errAdminBodyTooLarge
		}
		return Fault{}, fmt.Errorf("reading the body: %w", err)
	}
	// A file saved with a byte order mark (Notepad, PowerShell's
	// Set-Content -Encoding UTF8) and sent with curl --data-binary @file.
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	dec := json.NewDecoder(bytes.NewReader(body))
	var f Fault
	if err := dec.Decode(&f); err != nil {
		var se *json.SyntaxError
		switch {
		case errors.Is(err, io.EOF):
			return Fault{}, errors.New(`the body is empty; want a fault object such as {"operation":"ReturnProvinces","delay":"400ms"}`)
		case errors.As(err, &se) || errors.Is(err, io.ErrUnexpectedEOF):
			return Fault{}, fmt.Errorf(`the body is not JSON (%v); want a fault object such as {"operation":"ReturnProvinces","delay":"400ms"}`, err)
		}
		return Fault{}, err // Fault.UnmarshalJSON's, naming the field
	}
	// More alone passes a closing ] or } after the object.
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Fault{}, errors.New("the body holds more than one JSON value, or text after the fault object")
	}
	return f, nil
}

// logFaultAdded says in the log which fault an admin call added, as the
// admin API lists it (its id, what it answers and where): the request's
// own line says only that one was (POST /__admin/faults, 201), and a
// call failing later in a CI log is then traced to the fault and the test
// that set it. The configured keys are masked in it (a fault's text may
// quote one).
func (s *Server) logFaultAdded(f Fault) {
	if !s.log.Enabled(context.Background(), slog.LevelInfo) {
		return
	}
	b, err := json.Marshal(f)
	if err != nil {
		b = []byte(err.Error())
	}
	s.log.Info("admin: fault added", "id", f.ID, "fault", s.keyMask.Text(string(b)))
}

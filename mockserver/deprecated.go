package mockserver

import (
	"log"
	"log/slog"
	"net"
	"net/http"

	"github.com/atmkit/atmkit/internal/serve"
)

// Names kept for code written before the API settled.

// NewServer returns New(opts...).
//
// Deprecated: use New, which returns the *Server too.
func NewServer(opts ...Option) (*Server, error) { return New(opts...) }

// Requests returns s.Journal(f).
//
// Deprecated: use Journal.
func (s *Server) Requests(f RequestFilter) []JournalEntry { return s.Journal(f) }

// ResetRequests empties the journal.
//
// Deprecated: use ResetJournal.
func (s *Server) ResetRequests() { s.ResetJournal() }

// Requests returns copies of every journaled request, oldest first.
//
// Deprecated: use Journal(RequestFilter{}), which TestServer has from
// its Server.
func (ts *TestServer) Requests() []JournalEntry { return ts.Journal(RequestFilter{}) }

// NewHTTPServer returns an http.Server for h with the timeouts and header
// limit above.
//
// Deprecated: use ServeWith, which also caps connections, serves TLS and
// shuts down gracefully.
func NewHTTPServer(h http.Handler) *http.Server { return serve.NewHTTPServer(h) }

// ErrorLog is the standard logger an http.Server writes its own errors to,
// as records of l at level Warn; nil discards them.
//
// Deprecated: use ServeWith with ServeOptions.Logger.
func ErrorLog(l *slog.Logger) *log.Logger { return serve.ErrorLog(l) }

// LimitListener returns a listener that holds at most n connections open
// at once: Accept waits while n are open.
//
// Deprecated: use ServeWith, which caps connections at MaxConns.
func LimitListener(ln net.Listener, n int) net.Listener { return serve.LimitListener(ln, n) }

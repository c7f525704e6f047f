package mockserver

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

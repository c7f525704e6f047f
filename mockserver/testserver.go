package mockserver

import (
	"bytes"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/serve"
	"github.com/atmkit/atmkit/internal/tlsconf"
)

// closeGrace is how long Close lets requests in flight finish before it
// closes their connections.
const closeGrace = 5 * time.Second

// TestServer is the mock service listening on a loopback port, for the tests
// of apps that call the service. Start one with NewTestServer in a test, or
// StartTestServer elsewhere; point the app at URL; read what it sent with
// Journal; inject failures with AddFault or the admin API under
// URL + "/__admin". It embeds the *Server it serves, so every method of
// Server (Journal, AddFault, Dataset, …) is a method of TestServer too.
//
// To answer from recorded cassettes, take the option from package cassettes
// (which builds on this package, so it cannot be imported here):
//
//	ts := mockserver.NewTestServer(t, cassettes.Replay(t, mockserver.MissFault, "testdata/cassettes"))
type TestServer struct {
	// URL is the base URL, "http://127.0.0.1:<port>" (https with
	// WithTLS), without a trailing slash.
	URL string
	// Server is the mock service itself: its journal, faults and data set.
	*Server

	tb       testing.TB         // the test of NewTestServer; nil for StartTestServer
	client   *http.Client       // trusts the server's certificate
	ca       *tlsconf.Authority // issued the server's certificate; nil without TLS
	srv      *serve.Server
	inflight sync.WaitGroup // requests being served
	done     chan struct{}  // closed when Close has finished
	stopErr  error          // the shutdown's result, set before done is closed

	mu     sync.Mutex // guards closed and idle
	closed bool
	// idle holds the connections open with no request in progress:
	// new ones that have sent nothing yet, and idle keep-alive ones.
	// Close closes them at once, as httptest.Server.Close does: the
	// HTTP server's own shutdown would wait up to 5 s for a new one
	// (a connection a client dialled but did not use).
	idle map[net.Conn]struct{}
}

// WithTLS makes a test server (NewTestServer, StartTestServer) serve
// HTTPS, as httptest.NewTLSServer does: its certificate, for 127.0.0.1,
// ::1 and localhost, is issued by an authority made for the server alone;
// TestServer.Client trusts it, and TestServer.CACertPEM is that authority
// for clients of other kinds. New takes no notice of it: a handler does
// not choose its transport (ServeWith serves HTTPS with ServeOptions.TLS).
func WithTLS() Option {
	return func(c *config) error { c.tls = true; return nil }
}

// NewTestServer starts the mock service configured by opts on a loopback
// port and closes it when the test and its subtests finish. It stops the test
// with t.Fatal if the server cannot start.
//
//	func TestClient(t *testing.T) {
//		ts := mockserver.NewTestServer(t, mockserver.WithKeys("test-key"))
//		client := myapp.NewClient(ts.URL, "test-key")
//		...
//		if got := len(ts.Journal(mockserver.RequestFilter{})); got != 1 {
//			t.Errorf("requests: got %d, want 1", got)
//		}
//	}
func NewTestServer(t testing.TB, opts ...Option) *TestServer {
	t.Helper()
	ts, err := StartTestServer(opts...)
	if err != nil {
		t.Fatalf("mockserver.NewTestServer: %v", err)
	}
	ts.tb = t
	t.Cleanup(ts.Close)
	return ts
}

// Journal is Server.Journal. In the test of NewTestServer, a filter whose
// Operation names no operation (a typo, which would match nothing and let
// a "no such call" assertion pass) fails the test, naming the operations;
// so does an Operation and a Binding no call is journaled with together
// ("WSDL" with any binding, an operation the JSON path does not offer
// with asmx.JSON), a Status no answer has (1xx), or a Fault no fault's id
// can be, which GET /__admin/requests refuses.
func (ts *TestServer) Journal(f RequestFilter) []JournalEntry {
	if ts.tb != nil && f.Operation != "" && !strings.EqualFold(f.Operation, opWSDL) {
		if _, ok := lookupOperation(f.Operation); !ok {
			ts.tb.Helper()
			ts.tb.Errorf("mockserver: journal filter: unknown operation %q: want one of %s, or %s for the service description",
				f.Operation, strings.Join(operationNames(false), ", "), opWSDL)
		}
	}
	if err := neverJournaled(f.Operation, f.Binding); ts.tb != nil && err != nil {
		ts.tb.Helper()
		ts.tb.Errorf("mockserver: journal filter: %v", err)
	}
	if err := neverAnswered(f.Status); ts.tb != nil && err != nil {
		ts.tb.Helper()
		ts.tb.Errorf("mockserver: journal filter: status %d: %v", f.Status, err)
	}
	if err := neverFault(f.Fault); ts.tb != nil && err != nil {
		ts.tb.Helper()
		ts.tb.Errorf("mockserver: journal filter: %v", err)
	}
	return ts.Server.Journal(f)
}

// StartTestServer starts the mock service configured by opts on a loopback
// port. The caller must Close it. In a test, NewTestServer does both.
func StartTestServer(opts ...Option) (*TestServer, error) {
	return startTestServer(closeGrace, opts...)
}

// startTestServer is StartTestServer with the grace period of Close.
func startTestServer(grace time.Duration, opts ...Option) (*TestServer, error) {
	s, err := New(opts...)
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		if ln, err = net.Listen("tcp6", "[::1]:0"); err != nil {
			return nil, fmt.Errorf("mock test server: listen on a loopback port: %w", err)
		}
	}
	ts := &TestServer{Server: s, done: make(chan struct{}), idle: map[net.Conn]struct{}{}}
	o := serve.Options{Grace: grace, Logger: s.log, ConnState: ts.connState}
	var roots *x509.CertPool
	if s.cfg.tls {
		sv, err := tlsconf.Server{SelfSigned: true}.Load()
		if err != nil {
			_ = ln.Close()
			return nil, fmt.Errorf("mock test server: %w", err)
		}
		o.TLS = sv.Config
		ts.ca, roots = sv.Authority, sv.Authority.Pool()
	}
	ts.client = tlsconf.TrustingClient(roots)
	ts.srv = serve.Start(ln, http.HandlerFunc(ts.serveHTTP), o)
	ts.URL = ts.srv.URL
	return ts, nil
}

// Client returns an HTTP client for the server, as httptest.Server.Client
// does: with WithTLS it trusts the server's certificate (and no other);
// it uses no proxy. Close closes its idle connections.
func (ts *TestServer) Client() *http.Client { return ts.client }

// CACertificate is the authority that issued the server's certificate
// (WithTLS), for a certificate pool of a client's own; nil without TLS.
func (ts *TestServer) CACertificate() *x509.Certificate {
	if ts.ca == nil {
		return nil
	}
	return ts.ca.Cert
}

// CACertPEM is CACertificate in PEM, the file a client of another kind
// trusts (curl --cacert, an SSL_CERT_FILE); nil without TLS.
func (ts *TestServer) CACertPEM() []byte {
	if ts.ca == nil {
		return nil
	}
	return ts.ca.CertPEM()
}

// connState keeps track of the connections with no request in progress;
// once Close has begun, it closes a connection as soon as it has none.
func (ts *TestServer) connState(c net.Conn, st http.ConnState) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	switch st {
	case http.StateNew, http.StateIdle:
		if ts.closed {
			delete(ts.idle, c)
			_ = c.Close()
			return
		}
		ts.idle[c] = struct{}{}
	default: // active, hijacked or closed
		delete(ts.idle, c)
	}
}

// serveHTTP counts the request in flight and serves it; once Close has begun
// it refuses new requests with 503. The answer is held back until the
// request is journaled, so a client that has read a whole answer finds its
// request in the journal at once; a dribbled answer goes through as it is
// written, and is journaled before its last chunk.
func (ts *TestServer) serveHTTP(w http.ResponseWriter, r *http.Request) {
	ts.mu.Lock()
	if ts.closed {
		ts.mu.Unlock()
		w.Header().Set("Connection", "close")
		http.Error(w, "mock test server closed", http.StatusServiceUnavailable)
		return
	}
	ts.inflight.Add(1)
	ts.mu.Unlock()
	defer ts.inflight.Done()
	hw := &heldResponse{w: w}
	ts.Server.ServeHTTP(hw, r)
	hw.release()
}

// heldResponse buffers a response until release. Hijacking reaches the
// underlying writer through Unwrap; a hijacked response holds nothing.
//
// It is not internal/httpbuf's Response, which holds a response so that it
// can be rewritten: this one only holds the response back until the
// request is journaled, so its header is the underlying writer's, and an
// answer that must reach the client as it is written (a dribbled one) is
// let through: letThrough, which the dribble calls (streamThrough), sends
// what is held and passes the rest on as it comes.
type heldResponse struct {
	w       http.ResponseWriter
	status  int
	buf     bytes.Buffer
	through bool // letThrough has run: writes and flushes go through
}

func (h *heldResponse) Header() http.Header { return h.w.Header() }

func (h *heldResponse) WriteHeader(code int) {
	if h.status == 0 {
		h.status = code
		if h.through {
			h.w.WriteHeader(code)
		}
	}
}

func (h *heldResponse) Write(p []byte) (int, error) {
	if h.status == 0 {
		h.WriteHeader(http.StatusOK)
	}
	if h.through {
		return h.w.Write(p)
	}
	return h.buf.Write(p)
}

// Unwrap lets http.ResponseController reach the connection.
func (h *heldResponse) Unwrap() http.ResponseWriter { return h.w }

// FlushError flushes nothing while the response is held: it is written
// whole by release. (Without it, http.ResponseController.Flush would reach
// the connection and send a 200 header before the held status.) Once let
// through, it flushes.
func (h *heldResponse) FlushError() error {
	if h.through {
		return http.NewResponseController(h.w).Flush()
	}
	return nil
}

// letThrough writes what is held, and lets all that follows through.
func (h *heldResponse) letThrough() {
	if h.through {
		return
	}
	h.release()
	h.through = true
}

// release writes the held response; once let through, nothing is held.
func (h *heldResponse) release() {
	if h.status == 0 || h.through {
		return
	}
	h.w.WriteHeader(h.status)
	_, _ = h.w.Write(h.buf.Bytes())
}

// ServiceURL is the URL of the four XML bindings, URL + "/service/service.asmx".
func (ts *TestServer) ServiceURL() string { return ts.URL + asmx.ServicePath }

// Close shuts the server down and waits for the requests in flight to
// finish. Injected delays end at once (their connections are dropped), and
// connections with no request in progress (idle, or opened and never used)
// are closed at once. It is safe to call more than once, from any
// goroutine; every call returns once the server has stopped.
func (ts *TestServer) Close() {
	ts.mu.Lock()
	if ts.closed {
		ts.mu.Unlock()
		<-ts.done
		return
	}
	ts.closed = true
	for c := range ts.idle {
		_ = c.Close()
	}
	clear(ts.idle)
	ts.mu.Unlock()

	ts.srv.CancelRequests()
	ts.stopErr = ts.srv.Shutdown()
	if err := ts.stopErr; err != nil && !errors.Is(err, serve.ErrGraceExpired) {
		ts.log.Error("mock test server stopped", "error", err)
	}
	ts.inflight.Wait()
	ts.client.CloseIdleConnections()
	close(ts.done)
}

// Package serve is atmkit's one HTTP server lifecycle, shared by atmkit
// serve, atmkit record's proxy, the servers of atmkit bench and
// mockserver's TestServer: listening with timeouts and a cap on open
// connections, optional TLS, the server's own errors to a logger, and a
// graceful shutdown that lets requests in flight finish within a grace
// period unless an abort (a second SIGINT, say) ends it at once.
//
// A request's context carries the shutdown's start (Stopping), so work
// that only tidies up, such as the lingering read of a refused body, ends
// when the server begins to stop instead of holding the shutdown up.
package serve

import (
	"context"
	"crypto/rsa"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/atmkit/atmkit/internal/stopsignal"
)

// Timeouts and limits of every server. A stalled, half-sent request loses
// its connection after ReadHeaderTimeout (headers) or ReadTimeout (whole
// request); idle keep-alive connections close after IdleTimeout.
const (
	ReadHeaderTimeout = 5 * time.Second
	ReadTimeout       = 30 * time.Second
	WriteTimeout      = 2 * time.Minute
	IdleTimeout       = 90 * time.Second
	MaxHeaderBytes    = 64 << 10
	// MaxConns caps open connections; further clients wait in the accept
	// queue until one closes.
	MaxConns = 4096
)

// Options are the settings of Start and Run. The zero value serves plain
// HTTP with no grace period.
type Options struct {
	// Grace is how long requests in flight may finish once the shutdown
	// begins; then their connections are closed.
	Grace time.Duration
	// Abort, once closed during the shutdown, ends it at once: the
	// connections are closed and their requests' contexts end.
	Abort <-chan struct{}
	// TLS serves HTTPS with this configuration; nil serves plain HTTP.
	TLS *tls.Config
	// Logger receives the HTTP server's own errors, such as a TLS
	// handshake that failed (at level Warn); nil discards them.
	Logger *slog.Logger
	// MaxConns caps the connections open at once (0: MaxConns).
	MaxConns int
	// ConnState, if set, is the http.Server's ConnState hook: it learns
	// of each connection's changes of state (mockserver's TestServer
	// closes the connections that never sent a request when it closes).
	ConnState func(net.Conn, http.ConnState)
}

// ErrGraceExpired is the error of a shutdown whose grace period ran out
// before every request in flight had finished.
var ErrGraceExpired = errors.New("requests still in flight when the grace period ended")

// NewHTTPServer returns an http.Server for h with atmkit's timeouts and
// header limit, so a hostile client cannot hold connections open.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ReadHeaderTimeout,
		ReadTimeout:       ReadTimeout,
		WriteTimeout:      WriteTimeout,
		IdleTimeout:       IdleTimeout,
		MaxHeaderBytes:    MaxHeaderBytes,
	}
}

// Server is a server started by Start.
type Server struct {
	// URL is the base URL, http://host:port or https://host:port, without
	// a trailing slash; a zone is written %25 (http://[fe80::1%25eth0]:8080).
	URL string

	srv      *http.Server
	lim      *limitListener     // under srv's listener
	cancel   context.CancelFunc // ends every request's context
	stopping chan struct{}      // closed when the shutdown begins (Stopping)
	served   chan error         // the result of srv.Serve, sent once
	grace    time.Duration
	abort    <-chan struct{}

	once sync.Once
	done chan struct{} // closed when Shutdown has finished
	err  error         // Shutdown's result, set before done is closed

	mu      sync.Mutex
	fresh   map[net.Conn]*freshConn // connections that have sent no request yet (see fresh.go)
	closing bool                    // the shutdown has begun: new ones are closed
	settled chan struct{}           // closed once closing and fresh is empty; then nil
	nFresh  atomic.Int64            // len(fresh), read without mu
	waiting atomic.Bool             // closing, read without mu: a handler's start settles its connection
}

type stoppingKey struct{}

// Stopping returns a channel closed when the server serving the request
// whose context is ctx begins to shut down; nil (never closed) for a
// request not served by Start.
func Stopping(ctx context.Context) <-chan struct{} {
	ch, _ := ctx.Value(stoppingKey{}).(chan struct{})
	return ch
}

type listenAddrKey struct{}

// ListenAddr returns the address of the listener that accepted the request
// whose context is ctx (0.0.0.0:8080 for a server on every interface,
// where the connection's own address would be the one it reached); nil
// for a request not served by Start.
func ListenAddr(ctx context.Context) net.Addr {
	a, _ := ctx.Value(listenAddrKey{}).(net.Addr)
	return a
}

// Start serves h on ln in a goroutine until Shutdown or Close. ln is
// wrapped to hold at most o.MaxConns connections and, with o.TLS, to
// speak TLS.
func Start(ln net.Listener, h http.Handler, o Options) *Server {
	n := o.MaxConns
	if n <= 0 {
		n = MaxConns
	}
	scheme := "http"
	lim := LimitListener(ln, n).(*limitListener)
	ln = lim
	if o.TLS != nil {
		ln, scheme = tls.NewListener(ln, o.TLS), "https"
	}
	// A zone (fe80::1%eth0) is written %25 in a URL (RFC 6874).
	u := url.URL{Scheme: scheme, Host: ln.Addr().String()}
	s := &Server{URL: u.String(), lim: lim, stopping: make(chan struct{}),
		served: make(chan error, 1), grace: o.Grace, abort: o.Abort, done: make(chan struct{})}
	s.srv = NewHTTPServer(s.settling(h))
	base, cancel := context.WithCancel(context.WithValue(context.Background(), stoppingKey{}, s.stopping))
	s.cancel = cancel
	s.srv.BaseContext = func(l net.Listener) context.Context { return context.WithValue(base, listenAddrKey{}, l.Addr()) }
	s.srv.ErrorLog = errorLog(o.Logger, tlsFactsOf(o.TLS))
	s.fresh, s.settled = map[net.Conn]*freshConn{}, make(chan struct{})
	s.srv.ConnContext = func(ctx context.Context, c net.Conn) context.Context { return context.WithValue(ctx, connKey{}, c) }
	s.srv.ConnState = func(c net.Conn, st http.ConnState) {
		s.trackFresh(c, st)
		if o.ConnState != nil {
			o.ConnState(c, st)
		}
	}
	go func() { s.served <- s.srv.Serve(ln) }()
	return s
}

// Run serves h on ln until ctx is done, then shuts down gracefully (see
// Shutdown) and returns. A server that fails before (its listener closed
// under it) returns the error at once, its connections closed: nothing
// serves on after Run returns.
func Run(ctx context.Context, ln net.Listener, h http.Handler, o Options) error {
	s := Start(ln, h, o)
	select {
	case err := <-s.served:
		s.cancel()
		_ = s.srv.Close()
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return fmt.Errorf("serve %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	return s.Shutdown()
}

// CancelRequests ends the context of every request being served, so that
// handlers waiting on it (an injected delay) return at once. The server
// keeps serving.
func (s *Server) CancelRequests() { s.cancel() }

// Shutdown stops accepting connections, closes those that have sent no
// request yet, and waits for the requests in flight, for at most the
// grace period of Options, or until Options.Abort is closed; then it
// closes the connections left. A request received before, whose bytes
// net/http had not read yet, is in flight: it is answered, as is one whose
// TLS handshake had begun (see stopFresh). It returns
// ErrGraceExpired (wrapped) when the grace period ran out, nil when every
// request finished or the shutdown was aborted. It is safe to call more
// than once; every call returns once the server has stopped.
func (s *Server) Shutdown() error {
	s.once.Do(func() {
		defer close(s.done)
		close(s.stopping)
		ctx, cancel := context.WithTimeout(context.Background(), s.grace)
		defer cancel()
		go func() {
			select {
			case <-s.abort:
				cancel()
			case <-ctx.Done():
			}
		}()
		s.stopFresh(ctx)
		err := s.srv.Shutdown(ctx)
		aborted := err != nil && errors.Is(ctx.Err(), context.Canceled)
		s.cancel()
		if err != nil {
			_ = s.srv.Close()
		}
		if serr := <-s.served; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
			s.err = fmt.Errorf("serve %s: %w", s.URL, serr)
			return
		}
		if err != nil && !aborted {
			s.err = fmt.Errorf("shut down %s: %w", s.URL, ErrGraceExpired)
		}
	})
	<-s.done
	return s.err
}

// Close is Shutdown, for use with defer.
func (s *Server) Close() error { return s.Shutdown() }

// tlsFacts are what the hints on a failed handshake name of the server's
// TLS: its oldest version (0: TLS 1.2) and whether its certificate's key
// is RSA's, which the RSA key exchange and 3DES need.
type tlsFacts struct {
	minVersion uint16
	rsa        bool
}

// tlsFactsOf reads the tlsFacts of cfg (nil: plain HTTP, none).
func tlsFactsOf(cfg *tls.Config) tlsFacts {
	if cfg == nil {
		return tlsFacts{}
	}
	f := tlsFacts{minVersion: cfg.MinVersion}
	if len(cfg.Certificates) > 0 {
		_, f.rsa = cfg.Certificates[0].PrivateKey.(*rsa.PrivateKey)
	}
	return f
}

// errorLog is the standard logger an http.Server of TLS f writes its own
// errors to (a failed TLS handshake: "http: TLS handshake error from …"),
// as records of l at level Warn, a failed handshake's with a hint attribute
// saying what most likely caused it (handshakeHints, naming f); nil
// discards them.
func errorLog(l *slog.Logger, f tlsFacts) *log.Logger {
	if l == nil {
		return log.New(io.Discard, "", 0)
	}
	return log.New(hinting{l, f}, "", 0)
}

// hinting writes an http.Server's error log lines as records of its
// logger at level Warn, hints added.
type hinting struct {
	l   *slog.Logger
	tls tlsFacts
}

// hintTLS13Only is the hint on a client offering only versions older than
// a server that serves TLS 1.3 only: most likely one of TLS 1.2, which
// the default serves.
const hintTLS13Only = "the client offers only TLS versions older than 1.3, which --tls-min-version 1.3 requires: " +
	"a client of TLS 1.2 at most (a .NET Framework app on Windows before Windows 11 and Server 2022) needs --tls-min-version 1.2 (the default) or lower"

func (w hinting) Write(p []byte) (int, error) {
	msg := strings.TrimSuffix(string(p), "\n")
	var attrs []any
	if strings.Contains(msg, "TLS handshake error") {
		for _, h := range handshakeHints {
			if strings.Contains(msg, h.words) {
				hint := h.hint
				switch {
				case h.words == wordsOldVersions && w.tls.minVersion >= tls.VersionTLS13:
					hint = hintTLS13Only
				case h.words == wordsNoSuite:
					hint = noSuiteHint(w.tls)
				}
				attrs = append(attrs, "hint", hint)
				break
			}
		}
	}
	w.l.Warn(msg, attrs...)
	return len(p), nil
}

// wordsOldVersions are crypto/tls's words for a client offering only
// versions older than the server's oldest.
const wordsOldVersions = "client offered only unsupported versions"

// wordsNoSuite are crypto/tls's words for a client offering no cipher
// suite the server serves (with its certificate's key).
const wordsNoSuite = "no cipher suite supported by both client and server"

// noSuiteHint is the hint on a client offering no cipher suite a server of
// TLS f serves: most likely an old Windows's, which offers the RSA key
// exchange, 3DES and RC4 alone (a .NET Framework 2.0 to 3.5 app on
// Windows XP or Server 2003), which --tls-min-version 1.0 serves (RC4
// never) with a certificate of an RSA key.
func noSuiteHint(f tlsFacts) string {
	const old = "a .NET Framework app on Windows XP or Server 2003 offers the RSA key exchange with 3DES and RC4 alone, over TLS 1.0"
	switch {
	case !f.rsa && f.minVersion == tls.VersionTLS10:
		return "the client offers no cipher suite for this certificate's key, which is not RSA's: " + old +
			"; give a certificate of an RSA key with --tls-cert and --tls-key, or use --tls-self-signed (below TLS 1.2 it issues RSA ones)"
	case !f.rsa:
		return "the client offers no cipher suite atmkit serves with this certificate, whose key is not RSA's (--tls-self-signed issues ECDSA ones from TLS 1.2 on): a client may take RSA certificates only, and " + old +
			"; give a certificate of an RSA key with --tls-cert and --tls-key, and for an old client --tls-min-version 1.0 (the RSA key exchange and 3DES; RC4 never; --tls-self-signed then issues RSA ones)"
	case f.minVersion == tls.VersionTLS10:
		return "the client offers only cipher suites atmkit never serves (such as RC4, which RFC 7465 prohibits, single DES, export, anonymous or Camellia ones): turn on AES or 3DES in the client's TLS settings"
	}
	return "the client offers no cipher suite atmkit serves unless asked: " + old + "; --tls-min-version 1.0 serves the RSA key exchange and 3DES (RC4 never)"
}

// handshakeHints are what most likely made a TLS handshake fail, by the
// words of crypto/tls's error: the client's part, which the client's own
// error may not tell (an app's HTTP stack often says only that it could
// not establish a secure channel).
var handshakeHints = []struct{ words, hint string }{
	{wordsOldVersions, "the client offers only TLS versions older than atmkit serves (1.2 and later unless --tls-min-version says otherwise): a .NET Framework app before 4.6 offers TLS 1.0 only unless TLS 1.2 is turned on (ServicePointManager.SecurityProtocol, or the SchUseStrongCrypto registry value); --tls-min-version 1.0 accepts it"},
	{"client didn't provide a certificate", "the client sent no client certificate, which --tls-client-ca requires"},
	{"certificate signed by unknown authority", "the client's certificate was issued by an authority --tls-client-ca does not hold"},
	{"unknown certificate authority", "the client does not trust the authority of the certificate served: give it that authority's certificate (with --tls-self-signed, the file the banner names)"},
	{"bad certificate", "the client refused the certificate served (not valid for the name it used, or from an authority it does not trust): see the client's own error"},
	{"client sent an HTTP request to an HTTPS server", "the client used http:// for this https:// address"},
	{wordsNoSuite, ""}, // noSuiteHint
}

// SecondSignal returns a channel closed when SIGINT or SIGTERM arrives
// after ctx is done: the second signal of a command whose first one
// cancelled ctx, for Options.Abort. Until ctx is done, signals are left to
// whoever else handles them. stop releases the signals.
func SecondSignal(ctx context.Context) (abort <-chan struct{}, stop func()) {
	ch := make(chan struct{})
	quit := make(chan struct{})
	var once sync.Once
	go func() {
		select {
		case <-ctx.Done():
		case <-quit:
			return
		}
		again := make(chan os.Signal, 1)
		stopsignal.Notify(again)
		defer signal.Stop(again)
		select {
		case <-again:
			close(ch)
		case <-quit:
		}
	}()
	return ch, func() { once.Do(func() { close(quit) }) }
}

// LimitListener returns a listener that holds at most n connections open at
// once: Accept waits while n are open.
func LimitListener(ln net.Listener, n int) net.Listener {
	return &limitListener{Listener: ln, sem: make(chan struct{}, n), done: make(chan struct{})}
}

type limitListener struct {
	net.Listener
	sem       chan struct{}
	closeOnce sync.Once
	done      chan struct{}
	stopped   atomic.Bool // stop, not Close: Accept returns http.ErrServerClosed
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.sem <- struct{}{}:
	case <-l.done:
		if l.stopped.Load() {
			return nil, http.ErrServerClosed
		}
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		if l.stopped.Load() {
			return nil, http.ErrServerClosed
		}
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.sem }}, nil
}

// Close closes the listener; a second Close does nothing.
func (l *limitListener) Close() error {
	var err error
	l.closeOnce.Do(func() {
		err = l.Listener.Close()
		close(l.done)
	})
	return err
}

// stop closes l ahead of net/http's Shutdown (stopFresh): Accept returns
// http.ErrServerClosed, which ends Serve as net/http's Shutdown does, where
// another error would be a failure of the server.
func (l *limitListener) stop() {
	l.stopped.Store(true)
	_ = l.Close()
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()

	// The shutdown's drain of a connection that has sent no request yet
	// (fresh.go).
	got      atomic.Uint64   // Reads that returned bytes
	draining atomic.Bool     // a Read that would wait fails instead
	mu       sync.Mutex      // orders the drain's read deadline and the owner's
	want     time.Time       // the read deadline the owner set last
	rc       syscall.RawConn // the socket, for pendingData; set before draining
}

// NetConn returns the connection under the limit's count, as
// tls.Conn.NetConn does, for code that needs the TCP connection itself
// (a reset fault sets SO_LINGER on it).
func (c *limitConn) NetConn() net.Conn { return c.Conn }

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

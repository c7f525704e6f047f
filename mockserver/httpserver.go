package mockserver

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// Timeouts of the HTTP server that serves the mock. A stalled, half-sent
// request loses its connection after ReadHeaderTimeout (headers) or
// ReadTimeout (whole request); idle keep-alive connections close after IdleTimeout.
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

// Serve serves h on ln until ctx is done, then shuts down gracefully: it stops
// accepting, lets in-flight requests finish for up to grace, and returns nil.
// A second cancellation is not possible through ctx; callers that want a
// second signal to cut the wait short pass a shorter grace or close ln's server.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration) error {
	return ServeWith(ctx, ln, h, ServeOptions{Grace: grace})
}

// ServeOptions are the settings of ServeWith.
type ServeOptions struct {
	// Grace is how long in-flight requests may finish once ctx is done.
	Grace time.Duration
	// TLS serves HTTPS with this configuration; nil serves plain HTTP.
	TLS *tls.Config
	// Logger receives the HTTP server's own errors, such as a TLS
	// handshake that failed (at level Warn); nil discards them.
	Logger *slog.Logger
}

// ServeWith is Serve with TLS and a logger for the server's own errors.
func ServeWith(ctx context.Context, ln net.Listener, h http.Handler, o ServeOptions) error {
	srv := NewHTTPServer(h)
	srv.ErrorLog = ErrorLog(o.Logger)
	ln = LimitListener(ln, MaxConns)
	if o.TLS != nil {
		ln = tls.NewListener(ln, o.TLS)
	}
	grace := o.Grace
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return fmt.Errorf("serve %s: %w", ln.Addr(), err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
		return fmt.Errorf("shut down %s: %w", ln.Addr(), err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("serve %s: %w", ln.Addr(), err)
	}
	return nil
}

// ErrorLog is the standard logger an http.Server writes its own errors
// to (a failed TLS handshake: "http: TLS handshake error from …"), as
// records of l at level Warn; nil discards them.
func ErrorLog(l *slog.Logger) *log.Logger {
	if l == nil {
		l = slog.New(slog.DiscardHandler)
	}
	return slog.NewLogLogger(l.Handler(), slog.LevelWarn)
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
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.sem <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitConn{Conn: c, release: func() { <-l.sem }}, nil
}

func (l *limitListener) Close() error {
	err := l.Listener.Close()
	l.closeOnce.Do(func() { close(l.done) })
	return err
}

type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

package mockserver

import (
	"context"
	"crypto/tls"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/atmkit/atmkit/internal/serve"
)

// Timeouts and limits of the HTTP server that serves the mock (Serve,
// ServeWith, TestServer). A stalled, half-sent request loses its connection
// after ReadHeaderTimeout (headers) or ReadTimeout (whole request); idle
// keep-alive connections close after IdleTimeout.
const (
	ReadHeaderTimeout = serve.ReadHeaderTimeout
	ReadTimeout       = serve.ReadTimeout
	WriteTimeout      = serve.WriteTimeout
	IdleTimeout       = serve.IdleTimeout
	MaxHeaderBytes    = serve.MaxHeaderBytes
	// MaxConns caps open connections; further clients wait in the accept
	// queue until one closes.
	MaxConns = serve.MaxConns
)

// Serve serves h (the mock, or any handler) on ln until ctx is done, then
// shuts down gracefully: it stops accepting, lets requests in flight
// finish for up to grace, and returns nil (an error when the grace ran
// out first). It is ServeWith with only a grace period.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration) error {
	return ServeWith(ctx, ln, h, ServeOptions{Grace: grace})
}

// ServeOptions are the settings of ServeWith.
type ServeOptions struct {
	// Grace is how long in-flight requests may finish once ctx is done.
	Grace time.Duration
	// Abort, once closed during the graceful shutdown, ends it at once:
	// the connections left are closed and ServeWith returns nil. Close it
	// on a second SIGINT, say.
	Abort <-chan struct{}
	// TLS serves HTTPS with this configuration; nil serves plain HTTP.
	TLS *tls.Config
	// Logger receives the HTTP server's own errors, such as a TLS
	// handshake that failed (at level Warn); nil discards them.
	Logger *slog.Logger
}

// ServeWith serves h on ln until ctx is done, with the timeouts above, at
// most MaxConns connections at once, TLS when o.TLS is set, and the
// server's own errors logged; then it shuts down gracefully: requests in
// flight may finish for up to o.Grace, unless o.Abort is closed first. It
// returns nil once stopped, or an error when the listener failed or the
// grace period ran out with requests still in flight. atmkit serve runs
// the mock with this same lifecycle.
func ServeWith(ctx context.Context, ln net.Listener, h http.Handler, o ServeOptions) error {
	return serve.Run(ctx, ln, h, serve.Options{Grace: o.Grace, Abort: o.Abort, TLS: o.TLS, Logger: o.Logger})
}

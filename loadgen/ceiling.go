package loadgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/atmkit/atmkit/internal/redact"
)

// Response is a captured HTTP response: what a Ceiling serves.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
}

// Fetch sends req once with a regular net/http client and captures the
// response. Its errors mask the service key of req (a *url.Error quotes
// the whole URL).
func Fetch(ctx context.Context, req Request) (*Response, error) {
	hr, err := req.NewHTTPRequest()
	if err != nil {
		return nil, err
	}
	client := &http.Client{Timeout: time.Minute, Transport: &http.Transport{DisableCompression: true}}
	defer client.CloseIdleConnections()
	resp, err := client.Do(hr.WithContext(ctx))
	if err != nil {
		return nil, redact.Error(fmt.Errorf("fetch %s %s: %w", hr.Method, redact.URL(req.URL), err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, redact.Error(fmt.Errorf("fetch %s %s: read body: %w", hr.Method, redact.URL(req.URL), err))
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header.Clone(), Body: body}, nil
}

// hopHeaders are set by net/http itself and not copied from the capture.
var hopHeaders = map[string]bool{
	"Date": true, "Connection": true, "Keep-Alive": true, "Transfer-Encoding": true,
	"Content-Length": true, "Trailer": true, "Upgrade": true,
}

// Ceiling is the yardstick server's handler: it answers every request with
// the captured response, from memory, after reading the request body (as
// any server must to keep the connection alive).
type Ceiling struct {
	header http.Header // shared by every response: net/http only reads it
	status int
	body   []byte
}

// NewCeiling returns a handler serving resp: the same status, the same
// headers (but those net/http sets itself: Date, Content-Length and the
// hop-by-hop ones) and the same body bytes.
func NewCeiling(resp *Response) *Ceiling {
	c := &Ceiling{status: resp.Status, body: append([]byte(nil), resp.Body...), header: http.Header{}}
	if c.status == 0 {
		c.status = http.StatusOK
	}
	for k, vs := range resp.Header {
		if hopHeaders[http.CanonicalHeaderKey(k)] {
			continue
		}
		c.header[k] = append([]string(nil), vs...)
	}
	c.header["Content-Length"] = []string{strconv.Itoa(len(c.body))}
	return c
}

// ServeHTTP writes the captured response.
func (c *Ceiling) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	h := w.Header()
	for k, vs := range c.header {
		h[k] = vs
	}
	w.WriteHeader(c.status)
	_, _ = w.Write(c.body)
}

// Server is a handler served on a loopback port, for benchmarks and tests.
type Server struct {
	// URL is the base URL, http://127.0.0.1:port, without a trailing slash.
	URL string

	srv  *http.Server
	done chan error

	mu     sync.Mutex // guards closed
	closed bool
}

// StartServer serves h on a free loopback port with a plain net/http
// server until Close.
func StartServer(h http.Handler) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("listen on loopback: %w", err)
	}
	return Serve(ln, &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}), nil
}

// Serve serves srv on ln until Close; srv is the caller's, configured as it
// likes (the mock's own server with its timeouts, for example).
func Serve(ln net.Listener, srv *http.Server) *Server {
	s := &Server{URL: "http://" + ln.Addr().String(), srv: srv, done: make(chan error, 1)}
	go func() { s.done <- srv.Serve(ln) }()
	return s
}

// Close stops the server and waits for its connections to end; it is safe
// to call more than once.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := s.srv.Shutdown(ctx)
	if err != nil {
		_ = s.srv.Close()
	}
	if serr := <-s.done; serr != nil && !errors.Is(serr, http.ErrServerClosed) {
		return fmt.Errorf("serve %s: %w", s.URL, serr)
	}
	if err != nil {
		return fmt.Errorf("shut down %s: %w", s.URL, err)
	}
	return nil
}

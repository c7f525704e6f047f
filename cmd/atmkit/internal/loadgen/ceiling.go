package loadgen

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/atmkit/atmkit/internal/redact"
	"github.com/atmkit/atmkit/internal/tlsconf"
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
	if x := tlsconf.ExplainPlainHTTP(resp, ""); x != nil { // an HTTPS port
		return nil, x
	}
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

// CopyingCeiling is the ceiling of a server that builds each answer in a
// buffer before writing it, as the mock does from its cached locations: it
// answers as the Ceiling does, but first copies the body, piece by piece,
// into a pooled buffer. Measured beside the Ceiling, it says what
// assembling an answer costs by itself, so that a server's gap to the
// Ceiling can be split into the copy and the rest of its work.
type CopyingCeiling struct {
	c      *Ceiling
	pieces [][]byte // the body, cut in pieces of about equal length
}

// NewCopyingCeiling returns a handler serving resp as NewCeiling does,
// copying the body from n pieces (at least 1, at most one a byte) for
// every request.
func NewCopyingCeiling(resp *Response, n int) *CopyingCeiling {
	c := NewCeiling(resp)
	n = max(1, min(n, len(c.body)))
	cc := &CopyingCeiling{c: c}
	for k := range n {
		cc.pieces = append(cc.pieces, c.body[k*len(c.body)/n:(k+1)*len(c.body)/n])
	}
	return cc
}

// copyBuffers are the buffers a CopyingCeiling builds its answers in.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// ServeHTTP copies the captured body into a pooled buffer, then writes the
// captured response from it.
func (cc *CopyingCeiling) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	h := w.Header()
	for k, vs := range cc.c.header {
		h[k] = vs
	}
	w.WriteHeader(cc.c.status)
	bp := copyBuffers.Get().(*[]byte)
	buf := (*bp)[:0]
	for _, p := range cc.pieces {
		buf = append(buf, p...)
	}
	_, _ = w.Write(buf)
	*bp = buf[:0]
	copyBuffers.Put(bp)
}

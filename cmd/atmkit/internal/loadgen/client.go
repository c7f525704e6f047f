package loadgen

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"time"
)

// conn is one keep-alive client connection.
type conn struct {
	t  *target
	nc net.Conn
	br *bufio.Reader
}

// dial opens a connection to t.
func dial(t *target, timeout time.Duration) (*conn, error) {
	nc, err := net.DialTimeout("tcp", t.addr, timeout)
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", t.addr, err)
	}
	if tc, ok := nc.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true)
	}
	return &conn{t: t, nc: nc, br: bufio.NewReaderSize(nc, readBufferSize)}, nil
}

// readBufferSize is each connection's read buffer: room for a response's
// head (a longer line is malformed), not for its body, which discard
// reads past it.
const readBufferSize = 8 << 10

// discardBuffers are where discard drops bodies: shared by the
// connections, a few of them in use at once (as many as run), rather than
// a body-sized buffer for each of 32 connections, whose 2 MB would crowd
// the caches of the cores the server under test shares with the generator.
var discardBuffers = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// discard reads and drops n bytes of body: those buffered, then the rest
// straight from the connection into a shared buffer.
func (c *conn) discard(n int64) (int64, error) {
	m, err := c.br.Discard(int(min(n, int64(c.br.Buffered()))))
	done := int64(m)
	if err != nil || done == n {
		return done, err
	}
	bp := discardBuffers.Get().(*[]byte)
	defer discardBuffers.Put(bp)
	buf := *bp
	for done < n {
		k, err := c.nc.Read(buf[:min(int64(len(buf)), n-done)])
		done += int64(k)
		if err != nil {
			return done, err
		}
	}
	return done, nil
}

func (c *conn) close() { _ = c.nc.Close() }

// response is what the client learns about one response.
type response struct {
	status int
	length int64 // body bytes read
	close  bool  // the server asked to close the connection
}

// do sends the request and reads the whole response, discarding the body
// (or writing it to body, when body is not nil).
func (c *conn) do(body io.Writer) (response, error) {
	if _, err := c.nc.Write(c.t.wire); err != nil {
		return response{}, fmt.Errorf("write request: %w", err)
	}
	return c.read(body)
}

var errMalformed = errors.New("malformed response")

// read reads one response: status line, headers, then a body delimited by
// Content-Length, chunked encoding or the end of the connection.
func (c *conn) read(body io.Writer) (response, error) {
	var r response
	line, err := c.line()
	if err != nil {
		return r, fmt.Errorf("read status line: %w", err)
	}
	// "HTTP/1.1 200 OK"
	if len(line) < 12 || !bytes.HasPrefix(line, []byte("HTTP/1.")) || line[8] != ' ' {
		return r, fmt.Errorf("%w: status line %q", errMalformed, line)
	}
	r.status, err = strconv.Atoi(string(line[9:12]))
	if err != nil {
		return r, fmt.Errorf("%w: status line %q", errMalformed, line)
	}
	r.close = line[7] == '0' // HTTP/1.0 closes unless told otherwise
	length := int64(-1)
	chunked := false
	for {
		line, err = c.line()
		if err != nil {
			return r, fmt.Errorf("read headers: %w", err)
		}
		if len(line) == 0 {
			break
		}
		if line[0] == ' ' || line[0] == '\t' {
			// obs-fold: the field before goes on (RFC 9112 section 5.2,
			// which a user agent must take). Not read again: a folded
			// Content-Length, Transfer-Encoding or Connection is left
			// as its first line has it.
			continue
		}
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 {
			return r, fmt.Errorf("%w: header line %q", errMalformed, line)
		}
		name, value := line[:colon], bytes.TrimSpace(line[colon+1:])
		switch {
		case asciiEqualFold(name, "Content-Length"):
			length, err = strconv.ParseInt(string(value), 10, 64)
			if err != nil || length < 0 {
				return r, fmt.Errorf("%w: Content-Length %q", errMalformed, value)
			}
		case asciiEqualFold(name, "Transfer-Encoding"):
			chunked = asciiEqualFold(value, "chunked")
		case asciiEqualFold(name, "Connection"):
			if asciiEqualFold(value, "close") {
				r.close = true
			} else if asciiEqualFold(value, "keep-alive") {
				r.close = false
			}
		}
	}
	if c.t.head || r.status == 204 || r.status == 304 || (r.status >= 100 && r.status < 200) {
		return r, nil
	}
	switch {
	case chunked:
		err = c.chunked(&r, body)
	case length >= 0:
		err = c.body(&r, length, body)
	default:
		r.close = true
		err = c.body(&r, -1, body)
	}
	return r, err
}

// line reads one CRLF-terminated line without its terminator.
func (c *conn) line() ([]byte, error) {
	line, err := c.br.ReadSlice('\n')
	if err != nil {
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, fmt.Errorf("%w: line longer than %d bytes", errMalformed, c.br.Size())
		}
		return nil, err
	}
	line = line[:len(line)-1]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, nil
}

// body reads n bytes of body (n < 0: up to EOF), discarding them or
// writing them to body.
func (c *conn) body(r *response, n int64, body io.Writer) error {
	if body == nil {
		if n < 0 {
			m, err := io.Copy(io.Discard, c.br)
			r.length += m
			if err != nil {
				return fmt.Errorf("read body: %w", err)
			}
			return nil
		}
		m, err := c.discard(n)
		r.length += m
		if err != nil {
			return fmt.Errorf("read body: %w", err)
		}
		return nil
	}
	var err error
	var m int64
	if n < 0 {
		m, err = io.Copy(body, c.br)
	} else {
		m, err = io.CopyN(body, c.br, n)
	}
	r.length += m
	if err != nil {
		return fmt.Errorf("read body: %w", err)
	}
	return nil
}

// chunked reads a chunked body and its trailer.
func (c *conn) chunked(r *response, body io.Writer) error {
	for {
		line, err := c.line()
		if err != nil {
			return fmt.Errorf("read chunk size: %w", err)
		}
		if i := bytes.IndexByte(line, ';'); i >= 0 {
			line = line[:i]
		}
		size, err := strconv.ParseInt(string(bytes.TrimSpace(line)), 16, 64)
		if err != nil || size < 0 {
			return fmt.Errorf("%w: chunk size %q", errMalformed, line)
		}
		if size == 0 {
			break
		}
		if err := c.body(r, size, body); err != nil {
			return err
		}
		if line, err = c.line(); err != nil || len(line) != 0 {
			return fmt.Errorf("%w: no CRLF after chunk", errMalformed)
		}
	}
	for { // trailer
		line, err := c.line()
		if err != nil {
			return fmt.Errorf("read trailer: %w", err)
		}
		if len(line) == 0 {
			return nil
		}
	}
}

// asciiEqualFold compares b and s ignoring ASCII case.
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := 0; i < len(b); i++ {
		x, y := b[i], s[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

package mockserver

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"maps"
	"math/bits"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/httpbuf"
	"github.com/atmkit/atmkit/internal/serve"
)

// The journal's error kinds of requests a fault answered without a whole
// response.
const (
	// noteCanceled: the client went away during an injected delay or dribble.
	noteCanceled = "Canceled"
	// noteDropped: a drop fault closed the connection.
	noteDropped = "Dropped"
	// noteReset: a reset fault reset the connection in the middle of its
	// answer (journaled with the status it began to answer).
	noteReset = "Reset"
)

// injectFault applies the fault that takes a call of op in binding b (op
// is opWSDL for a fetch of the service description), if any; normal
// writes the call's normal answer to the writer it is given. It reports
// whether the request has been answered (or its connection dropped);
// false means the call is to be answered normally.
func (s *Server) injectFault(w http.ResponseWriter, ex *exchange, op string, b asmx.Binding, normal func(http.ResponseWriter)) bool {
	if ex.fault != "" { // the normal answer inside a fault's own answer
		return false
	}
	f, k, ok := s.faults.take(op, b)
	if !ok {
		return false
	}
	ex.fault, ex.faultKind = f.ID, f.kind()
	if f.Delay > 0 || f.Jitter > 0 || f.DelayDistribution != nil || f.Dribble != nil {
		s.held.hold(ex, s.heldCallOf(ex, op, b, &f))
		defer s.held.release(ex)
	}
	d := f.delay(k)
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-serve.Stopping(ex.ctx):
			// The server is shutting down: an injected wait must not hold
			// the shutdown up to its grace period (and exit 1 after it);
			// the answer goes now.
		case <-ex.ctx.Done():
		}
		if ex.ctx.Err() != nil { // the client went away (or a TestServer's Close cancelled it)
			ex.note = noteCanceled
			s.drop(w, ex)
			return true
		}
	}
	if d > 0 {
		// The server's write timeout runs from the request's arrival: a
		// delay longer than it would leave the answer unwritten (the
		// client sees the connection close) though journaled as sent.
		// The answer gets the whole timeout from now (a dribble, from
		// its last chunk's time: dribbleWriter.WriteHeader).
		_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(WriteTimeout))
	}
	switch {
	case f.Garbage:
		s.writeGarbage(w, ex, f.garbage(k))
		return true
	case f.Reset != nil:
		s.writeReset(w, ex, f.Reset.AfterBytes, normal)
		return true
	case f.Drop:
		ex.note = noteDropped
		s.drop(w, ex)
		return true
	}
	if f.Dribble != nil {
		dw := s.dribble(w, ex, *f.Dribble)
		defer dw.finish()
		w = dw
	}
	switch {
	case f.Malformed:
		writeMalformed(w, normal)
		// The client got a 200 with the first half of the normal answer,
		// never the answer whole: an error the normal answer noted (a
		// refused key's InvalidServiceKey) is not what it got. The
		// journal and the log line say the fault, as for a status or
		// soapFault fault (docs/serving.md).
		ex.err = nil
	case f.SOAPFault != nil:
		s.writeError(w, ex, b, f.asmxError())
	case f.Status != 0:
		writeStatusPage(w, f.Status)
	case f.Dribble != nil:
		normal(w)
	default:
		return false
	}
	return true
}

// drop journals the request, then closes its connection without an answer:
// a client that sees the connection go can read the journal entry at once.
func (s *Server) drop(w http.ResponseWriter, ex *exchange) {
	s.observe(ex.req, ex, 0)
	ex.observed = true
	dropConnection(w)
}

// dropConnection closes the client's connection without an answer.
func dropConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// Not hijackable (HTTP/2, a recorder): abort the response instead.
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
}

// writeGarbage journals the request, then sends data instead of an HTTP
// answer and closes the connection.
func (s *Server) writeGarbage(w http.ResponseWriter, ex *exchange, data []byte) {
	s.observe(ex.req, ex, 0)
	ex.observed = true
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	_, _ = brw.Write(data)
	_ = brw.Flush()
	_ = conn.Close()
}

// writeReset sends the status line, the header and the first afterBytes
// bytes of the answer normal writes (all but its last byte, if it is not
// longer), then resets the connection: the client's TCP stack reports the
// connection reset by peer. The request is journaled first, with the status
// begun and the error Reset, whatever error the answer begun was.
func (s *Server) writeReset(w http.ResponseWriter, ex *exchange, afterBytes int, normal func(http.ResponseWriter)) {
	held := httpbuf.New(w)
	held.Max = min(afterBytes, 1<<30) + 1
	normal(held)
	status := held.Status
	if status == 0 {
		status = http.StatusOK
	}
	body := held.Body.Bytes()
	if n := held.Length - 1; afterBytes > n {
		afterBytes = max(0, n)
	}
	body = body[:min(afterBytes, len(body))]

	h := held.Header().Clone()
	h.Set("Date", time.Now().UTC().Format(http.TimeFormat))
	if h.Get("Content-Length") == "" {
		h.Set("Content-Length", strconv.Itoa(held.Length))
	}

	// The journal keeps what the client gets: the header, and the body
	// up to the reset. The answer begun may be an error's (a refused
	// key's InvalidServiceKey, the fault applying before the key check):
	// the client never gets it whole, so the journal and the log line say
	// Reset, as for any reset call, with the status begun.
	maps.Copy(w.Header(), h)
	ex.err = nil
	ex.note, ex.aside, ex.answerSize = noteReset, body, int64(len(body))
	s.observe(ex.req, ex, status)
	ex.aside, ex.observed = nil, true
	conn, brw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	writeResponseHead(brw.Writer, ex.req.ProtoAtLeast(1, 1), status, h)
	_, _ = brw.Write(body)
	if brw.Flush() == nil {
		resetConnection(conn)
		return
	}
	_ = conn.Close()
}

// writeResponseHead writes a status line and header as net/http writes
// them: HTTP/1.1, or HTTP/1.0 to a client that spoke it (is11 false).
func writeResponseHead(w *bufio.Writer, is11 bool, status int, h http.Header) {
	text := http.StatusText(status)
	if text == "" {
		text = "status code " + strconv.Itoa(status)
	}
	proto := "HTTP/1.1"
	if !is11 {
		proto = "HTTP/1.0"
	}
	_, _ = fmt.Fprintf(w, "%s %03d %s\r\n", proto, status, text)
	_ = h.Write(w)
	_, _ = w.WriteString("\r\n")
}

// resetConnection closes conn with a TCP reset (SO_LINGER 0) once what was
// written to it has reached the client (see waitSent), so the client reads
// those bytes, then the reset. Over TLS the reset cuts the TLS stream
// short, without a close_notify.
func resetConnection(conn net.Conn) {
	outer := conn
	if tc, ok := conn.(*tls.Conn); ok {
		outer = tc.NetConn()
	}
	if tcp := tcpConn(outer); tcp != nil {
		waitSent(tcp, time.Second)
		_ = tcp.SetLinger(0)
	}
	_ = outer.Close() // closes the TCP connection through the wrappers that count it
}

// tcpConn finds the TCP connection under c's wrappers (those with a
// NetConn method, as tls.Conn and the connection limit's have); nil if
// there is none.
func tcpConn(c net.Conn) *net.TCPConn {
	for {
		switch v := c.(type) {
		case *net.TCPConn:
			return v
		case interface{ NetConn() net.Conn }:
			c = v.NetConn()
		default:
			return nil
		}
	}
}

// dribble returns a writer that paces the body of the answer written to
// it (see dribbleWriter).
func (s *Server) dribble(w http.ResponseWriter, ex *exchange, d Dribble) *dribbleWriter {
	dw := &dribbleWriter{ResponseWriter: w, ctx: ex.ctx, d: d, total: -1}
	dw.beforeLast = func(last []byte) {
		// The journal keeps the whole answer, the last chunk included,
		// and its whole length, though the last chunk has not gone yet.
		ex.aside, ex.answerSize = last, int64(dw.total)
		s.observe(ex.req, ex, dw.status)
		ex.aside, ex.observed = nil, true
	}
	dw.canceled = func() { ex.note = noteCanceled }
	return dw
}

// dribbleWriter paces the body of an answer: it sends the header at once
// and the body in d.Chunks chunks cut at even byte positions of the
// declared Content-Length, the i-th sent d.Duration*i/d.Chunks after the
// header. Its Write is the emit function of a paced answer (answer.go):
// every answer, whole or streamed in pieces, a status page, a SOAP fault
// or a malformed body, passes through it as it is written, so none is held
// whole here. The request is journaled just before the last chunk, so a
// client that has the whole body finds it in the journal. A body of no
// declared length is held and paced by finish.
type dribbleWriter struct {
	http.ResponseWriter
	ctx        context.Context
	d          Dribble
	beforeLast func(last []byte) // journals the request; last: the last chunk's bytes at hand
	canceled   func()            // notes a client gone during the pacing

	status int       // the status written; 0 before the header
	start  time.Time // when the header went out
	total  int       // the Content-Length; -1 unknown
	sent   int       // body bytes sent
	chunk  int       // the chunk being sent, 1 to d.Chunks; 0 before the first
	held   []byte    // the body of unknown length, for finish
	err    error     // the client went away
	ended  bool      // beforeLast has run
}

func (dw *dribbleWriter) WriteHeader(code int) {
	if dw.status != 0 {
		return
	}
	dw.status = code
	if n, err := strconv.Atoi(dw.Header().Get("Content-Length")); err == nil && n >= 0 {
		dw.total = n
	}
	streamThrough(dw.ResponseWriter)
	dw.ResponseWriter.WriteHeader(code)
	_ = http.NewResponseController(dw.ResponseWriter).Flush()
	dw.start = time.Now()
	// The server's write timeout ran from the request's arrival: the
	// chunks due until the end of the dribble, and the time to write the
	// last one, the whole timeout (a dribble of the two minutes the
	// fault's check takes lost its last chunk to it, or all of them
	// after a slow request).
	_ = http.NewResponseController(dw.ResponseWriter).SetWriteDeadline(dw.start.Add(dw.d.Duration + WriteTimeout))
}

func (dw *dribbleWriter) Write(p []byte) (int, error) {
	if dw.status == 0 {
		dw.WriteHeader(http.StatusOK)
	}
	if dw.total < 0 {
		dw.held = append(dw.held, p...)
		return len(p), nil
	}
	return dw.emit(p)
}

// emit sends p, waiting before the first byte of each chunk for its time
// and flushing at the end of each.
func (dw *dribbleWriter) emit(p []byte) (int, error) {
	written := 0
	for len(p) > 0 {
		if dw.err != nil {
			return written, dw.err
		}
		if dw.sent >= dw.total { // more than declared: net/http refuses it
			n, err := dw.ResponseWriter.Write(p)
			return written + n, err
		}
		// The chunk of byte sent: the first i whose end, total*i/chunks,
		// is past it. The products are taken in 128 bits: chunks may be
		// any int, far more than the body's bytes.
		n, total := uint64(dw.d.Chunks), uint64(dw.total)
		i := mulDivUp(n, uint64(dw.sent+1), total)
		if i != uint64(dw.chunk) {
			dw.chunk = int(i)
			if !dw.wait(dw.start.Add(time.Duration(mulDiv(uint64(dw.d.Duration), i, n)))) {
				return written, dw.err
			}
			if i == n {
				dw.last(p[:min(len(p), dw.total-dw.sent)])
			}
		}
		end := int(mulDiv(total, i, n))
		m, err := dw.ResponseWriter.Write(p[:min(len(p), end-dw.sent)])
		dw.sent += m
		written += m
		p = p[m:]
		if err != nil {
			dw.err = err
			return written, err
		}
		if dw.sent == end {
			_ = http.NewResponseController(dw.ResponseWriter).Flush()
		}
	}
	return written, nil
}

// mulDiv is a*b/c, the product taken in 128 bits; the quotient must fit
// in 64.
func mulDiv(a, b, c uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	q, _ := bits.Div64(hi, lo, c)
	return q
}

// mulDivUp is a*b/c rounded up, as mulDiv.
func mulDivUp(a, b, c uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	lo, carry := bits.Add64(lo, c-1, 0)
	q, _ := bits.Div64(hi+carry, lo, c)
	return q
}

// wait waits until t, or until the server begins to shut down (the rest
// then goes at once); false if the client went away or the server closed
// first.
func (dw *dribbleWriter) wait(t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return true
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-serve.Stopping(dw.ctx):
		if dw.ctx.Err() == nil {
			return true
		}
	case <-dw.ctx.Done():
	}
	dw.err = dw.ctx.Err()
	dw.canceled()
	return false
}

// last journals the request once, before the last chunk, whose bytes at
// hand are p, goes.
func (dw *dribbleWriter) last(p []byte) {
	if !dw.ended {
		dw.ended = true
		dw.beforeLast(p)
	}
}

// finish paces a body of unknown length, held until now, and journals a
// request whose last chunk never went (an empty body).
func (dw *dribbleWriter) finish() {
	if dw.total < 0 && dw.status != 0 {
		dw.total = len(dw.held)
		_, _ = dw.emit(dw.held)
	}
	if dw.err == nil && dw.status != 0 && !dw.ended {
		dw.wait(dw.start.Add(dw.d.Duration))
		if dw.err == nil {
			dw.last(nil)
		}
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (dw *dribbleWriter) Unwrap() http.ResponseWriter { return dw.ResponseWriter }

// streamThrough asks every writer under w that holds its response back
// (TestServer's) to send what it holds and let the rest through as it is
// written.
func streamThrough(w http.ResponseWriter) {
	for {
		if t, ok := w.(interface{ letThrough() }); ok {
			t.letThrough()
		}
		u, ok := w.(interface{ Unwrap() http.ResponseWriter })
		if !ok {
			return
		}
		w = u.Unwrap()
	}
}

// bodyAllowed reports whether an answer of status may have a body: not
// 204 No Content nor 304 Not Modified (a fault's status is 200 to 599).
func bodyAllowed(status int) bool {
	return status != http.StatusNoContent && status != http.StatusNotModified
}

// writeStatusPage answers with status and the HTML page HTTP.sys writes for
// it; a status that has no body (204, 304) is answered with none.
func writeStatusPage(w http.ResponseWriter, status int) {
	if !bodyAllowed(status) {
		w.WriteHeader(status)
		return
	}
	text := http.StatusText(status)
	if text == "" {
		text = "Error"
	}
	body := fmt.Sprintf("<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\"\"http://www.w3.org/TR/html4/strict.dtd\">\r\n"+
		"<HTML><HEAD><TITLE>%s</TITLE>\r\n<META HTTP-EQUIV=\"Content-Type\" Content=\"text/html; charset=us-ascii\"></HEAD>\r\n"+
		"<BODY><h2>%s</h2>\r\n<hr><p>HTTP Error %d. %s.</p>\r\n</BODY></HTML>\r\n", text, text, status, text)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=us-ascii")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}

// writeMalformed answers 200 with the first half of the body of the answer
// normal writes. An answer that declares its length before its body (every
// answer from the data set, one written in pieces included) is cut as it
// is written: its first half goes through and normal's next write fails,
// so no more of it is made; one that does not is held, then cut.
func writeMalformed(w http.ResponseWriter, normal func(http.ResponseWriter)) {
	hw := &halfWriter{w: w, held: httpbuf.New(w)}
	normal(hw)
	hw.finish()
}

// errHalfSent stops the writing of an answer once a malformed fault has
// sent its first half.
var errHalfSent = errors.New("mockserver: the malformed answer's half is sent")

// halfWriter is the writer a malformed fault gives the normal answer: it
// holds the status and header, then, at the first body bytes, either
// passes the first half of a body of declared length on to w, or holds
// the body whole.
type halfWriter struct {
	w       http.ResponseWriter
	held    *httpbuf.Response // the header; the body, when its length is not declared
	started bool              // body bytes were written
	cutting bool              // the length was declared: the half goes through as written
	left    int               // while cutting, the bytes of the half still to pass
}

func (h *halfWriter) Header() http.Header { return h.held.Header() }

func (h *halfWriter) WriteHeader(code int) { h.held.WriteHeader(code) }

func (h *halfWriter) Write(p []byte) (int, error) {
	if !h.started {
		h.started = true
		if n, err := strconv.Atoi(h.held.Header().Get("Content-Length")); err == nil && n >= 0 {
			h.cutting, h.left = true, n/2
			if h.left == 0 {
				h.send([]byte("<"))
			} else {
				h.start(h.left)
			}
		}
	}
	if !h.cutting {
		return h.held.Write(p)
	}
	if h.left == 0 {
		return 0, errHalfSent
	}
	k := min(len(p), h.left)
	n, err := h.w.Write(p[:k])
	h.left -= n
	if err == nil && k < len(p) {
		err = errHalfSent
	}
	return n, err
}

// Unwrap lets http.ResponseController reach the connection.
func (h *halfWriter) Unwrap() http.ResponseWriter { return h.w }

// FlushError flushes nothing: the answer's header is not the one sent.
func (h *halfWriter) FlushError() error { return nil }

// start writes the header of the malformed answer: 200, the normal
// answer's content type, a body of n bytes.
func (h *halfWriter) start(n int) {
	hd := h.w.Header()
	hd.Set("Content-Type", h.held.Header().Get("Content-Type"))
	hd.Set("Content-Length", strconv.Itoa(n))
	h.w.WriteHeader(http.StatusOK)
}

// send writes the malformed answer whole, with body.
func (h *halfWriter) send(body []byte) {
	h.start(len(body))
	_, _ = h.w.Write(body)
}

// finish sends a held answer's first half ("<" if that is empty: a
// malformed answer is never empty).
func (h *halfWriter) finish() {
	if h.cutting {
		return
	}
	body := h.held.Body.Bytes()
	body = body[:len(body)/2]
	if len(body) == 0 {
		body = []byte("<")
	}
	h.send(body)
}

package serve

// The shutdown of the connections that have sent no request yet (fresh:
// net/http's StateNew). net/http's Shutdown takes such a connection for
// one whose request is on its way for five seconds, and drops unanswered a
// request it reads once Shutdown has begun. So Shutdown settles them before
// calling it (stopFresh): one that has sent nothing is closed at once, one
// whose request has arrived (its bytes in the socket, net/http not having
// read them yet, or read in part) or whose TLS handshake has begun is
// waited for, within the grace period, until its handler runs.

import (
	"context"
	"crypto/tls"
	"errors"
	"net"
	"net/http"
	"os"
	"syscall"
	"time"
)

// freshConn is a connection that has sent no request yet: lc is the
// limitConn under it (nil for a connection that is not one of
// LimitListener's), tc its TLS connection (nil for plain HTTP).
type freshConn struct {
	lc *limitConn
	tc *tls.Conn
}

// newFreshConn is c as the ConnState hook has it: a *tls.Conn over a
// limitConn, or a limitConn.
func newFreshConn(c net.Conn) *freshConn {
	f := &freshConn{}
	f.tc, _ = c.(*tls.Conn)
	if f.tc != nil {
		c = f.tc.NetConn()
	}
	f.lc, _ = c.(*limitConn)
	return f
}

type connKey struct{}

// settling is h that, once the shutdown has begun, first settles its
// request's connection (it is past net/http's check of the shutdown).
func (s *Server) settling(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.waiting.Load() {
			if c, ok := r.Context().Value(connKey{}).(net.Conn); ok {
				s.settle(c)
			}
		}
		h.ServeHTTP(w, r)
	})
}

// trackFresh keeps the connections that have sent no request (StateNew).
// Before the shutdown, one leaves when its first request arrives (active)
// or it closes; once the shutdown has begun, a new one (accepted as the
// listener closed) is closed at once,
// and one kept by stopFresh leaves when its handler starts (settle) or it
// closes: net/http checks for the shutdown after the active state's hook.
// Every request on a kept-alive connection changes its state twice
// (active, idle): when no connection is fresh, which is the usual case,
// those changes take no lock. A connection's StateNew, which counts it,
// happens before its own later changes (net/http sets it before it starts
// the connection's goroutine), so a fresh one always finds nFresh above 0.
func (s *Server) trackFresh(c net.Conn, st http.ConnState) {
	if st != http.StateNew && s.nFresh.Load() == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.countFresh()
	switch st {
	case http.StateNew:
		if s.closing {
			_ = c.Close()
			return
		}
		s.fresh[c] = newFreshConn(c)
	case http.StateActive:
		f, ok := s.fresh[c]
		switch {
		case !ok:
		case !s.closing:
			delete(s.fresh, c)
		case f.lc != nil:
			f.lc.endDrain() // its request has come: its body is read as usual
		}
	default: // idle (HTTP/2's first state), hijacked or closed
		delete(s.fresh, c)
	}
}

// settle ends the shutdown's wait for connection c.
func (s *Server) settle(c net.Conn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.fresh, c)
	s.countFresh()
}

// countFresh sets nFresh, and closes settled once the shutdown has begun
// and no fresh connection is left. s.mu is held.
func (s *Server) countFresh() {
	s.nFresh.Store(int64(len(s.fresh)))
	if s.closing && len(s.fresh) == 0 && s.settled != nil {
		close(s.settled)
		s.settled = nil
	}
}

// stopFresh stops accepting connections, begins the shutdown of those
// that have sent no request yet, and waits until each has either closed or had its request's
// handler started, or until ctx is done:
//   - one that net/http has read nothing from is drained: its reads no
//     longer wait, so net/http reads the bytes already received, if any (a
//     request, a ClientHello), and serves them as usual; if there are none,
//     its read fails and net/http closes it at once;
//   - plain HTTP that has sent part of a request is left to send the rest;
//   - TLS whose handshake has begun is left to finish it; if it was done
//     before and no byte has come since (a browser's preconnection), it is
//     drained then (watchHandshake).
//
// Where bytes received cannot be looked for (canPeek: not on Linux,
// macOS, the BSDs or Windows), a connection that has sent no request yet
// is closed at once, as one that has sent nothing.
func (s *Server) stopFresh(ctx context.Context) {
	s.lim.stop() // no connection comes during the wait
	s.mu.Lock()
	s.closing = true
	s.waiting.Store(true)
	for c, f := range s.fresh {
		if !s.stopOne(c, f) {
			delete(s.fresh, c)
		}
	}
	settled := s.settled
	s.countFresh()
	s.mu.Unlock()
	select {
	case <-settled:
	case <-ctx.Done():
	}
}

// stopOne begins the shutdown of fresh connection c (stopFresh), and
// reports whether the shutdown waits for it; it closes one it does not
// wait for. s.mu is held.
func (s *Server) stopOne(c net.Conn, f *freshConn) bool {
	if f.lc == nil {
		_ = c.Close()
		return false
	}
	got := f.lc.got.Load()
	switch {
	case got == 0:
		if !f.lc.startDrain() {
			_ = c.Close()
			return false
		}
	case f.tc != nil:
		go s.watchHandshake(c, f, got)
	}
	return true
}

// watchHandshake drains TLS connection c once its handshake, under way or
// done, is done, if no byte has come since the shutdown began (got Reads
// then): a connection whose handshake was done then and that has sent no
// request since. One whose handshake was under way read its Finished
// since, and is left to send its request.
func (s *Server) watchHandshake(c net.Conn, f *freshConn, got uint64) {
	// Bytes were read, which crypto/tls does only once the handshake has
	// begun: ConnectionState waits for its end.
	done := f.tc.ConnectionState().HandshakeComplete
	s.mu.Lock()
	defer s.mu.Unlock()
	if done && s.fresh[c] == f && f.lc.got.Load() == got && !f.lc.startDrain() {
		_ = c.Close()
	}
}

// errSentNothing is the error of a drained connection's read that finds
// no byte received.
var errSentNothing = errors.New("the server is shutting down and the client has sent nothing")

// aLongTimeAgo is a read deadline that ends a Read waiting at once.
var aLongTimeAgo = time.Unix(1, 0)

// startDrain makes c's reads no longer wait: a Read waiting for bytes
// returns, and one that finds none received fails (errSentNothing); the
// first that finds some ends the drain (endDrain). It reports false where
// the socket's bytes cannot be looked for (canPeek).
func (c *limitConn) startDrain() bool {
	if !canPeek {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.rc == nil {
		sc, ok := c.Conn.(syscall.Conn)
		if !ok {
			return false
		}
		rc, err := sc.SyscallConn()
		if err != nil {
			return false
		}
		c.rc = rc
	}
	c.draining.Store(true)
	_ = c.Conn.SetReadDeadline(aLongTimeAgo)
	return true
}

// endDrain ends c's drain: its reads wait again, until the read deadline
// its owner set.
func (c *limitConn) endDrain() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.draining.Load() {
		c.draining.Store(false)
		_ = c.Conn.SetReadDeadline(c.want)
	}
}

// Read reads from the connection, counting the Reads that return bytes;
// while the connection drains, it does not wait (startDrain).
func (c *limitConn) Read(p []byte) (int, error) {
	if c.draining.Load() {
		return c.readDraining(p)
	}
	n, err := c.Conn.Read(p)
	switch {
	case n > 0:
		c.got.Add(1)
		if c.draining.Load() { // the drain began as the bytes came
			c.endDrain()
		}
	case err != nil && c.draining.Load() && errors.Is(err, os.ErrDeadlineExceeded):
		return c.readDraining(p) // the drain's deadline, or bytes came with it
	}
	return n, err
}

// readDraining is Read while c drains: the bytes received, if any, else
// errSentNothing, as a read error (net/http closes the connection quietly;
// a TLS handshake's is logged).
func (c *limitConn) readDraining(p []byte) (int, error) {
	ok, err := pendingData(c.rc)
	if err == nil && !ok {
		err = errSentNothing
	}
	if err != nil {
		return 0, &net.OpError{Op: "read", Net: c.LocalAddr().Network(), Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
	}
	c.endDrain()
	return c.Read(p) // waits for nothing: there are bytes, or the end of the stream
}

// SetReadDeadline sets the read deadline, which a drain's end restores.
func (c *limitConn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.want = t
	return c.Conn.SetReadDeadline(t)
}

// SetDeadline sets the read and write deadlines (SetReadDeadline).
func (c *limitConn) SetDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.want = t
	return c.Conn.SetDeadline(t)
}

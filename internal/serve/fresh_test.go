package serve

import (
	"bufio"
	"crypto/tls"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/atmkit/atmkit/internal/tlsconf"
)

// heldServer is a server whose accept loop its test holds: the ConnState
// hook of each new connection sends the connection on accepted and waits
// for a value on proceed, so net/http has not begun to read it until the
// test says so; one accepted once the shutdown has begun is not held.
// With holdActive, the hook of a connection's request (StateActive) does
// the same.
type heldServer struct {
	*Server
	addr       string
	accepted   chan net.Conn
	proceed    chan struct{}
	began      chan struct{} // closed as the shutdown begins
	holdActive atomic.Bool
}

// startHeld starts a heldServer answering "done" (TLS with cfg unless nil)
// with a grace period of 3s, shorter than net/http's five seconds for a
// connection that has sent nothing.
func startHeld(t *testing.T, cfg *tls.Config) *heldServer {
	t.Helper()
	if !canPeek {
		t.Skip("no MSG_PEEK on this platform: the shutdown closes the connections that have sent no request")
	}
	h := &heldServer{accepted: make(chan net.Conn, 1), proceed: make(chan struct{}), began: make(chan struct{})}
	h.Server = Start(listen(t), http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "done") }),
		Options{Grace: 3 * time.Second, TLS: cfg, ConnState: func(c net.Conn, st http.ConnState) {
			select {
			case <-h.began:
				if st == http.StateNew {
					return
				}
			default:
			}
			if st == http.StateNew || st == http.StateActive && h.holdActive.Load() {
				h.accepted <- c
				<-h.proceed
			}
		}})
	h.addr = h.URL[strings.Index(h.URL, "//")+2:]
	t.Cleanup(func() {
		close(h.proceed)
		_ = h.Close()
	})
	return h
}

// probe connects a client that sends nothing and lets the server serve it;
// wait then returns once the server has closed it, which it does when the
// shutdown has begun.
func (h *heldServer) probe(t *testing.T) (wait func()) {
	t.Helper()
	c, err := net.Dial("tcp", h.addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	<-h.accepted
	h.proceed <- struct{}{}
	return func() {
		t.Helper()
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if n, err := c.Read(make([]byte, 1)); n != 0 || err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("a connection that sent nothing, once the shutdown began: read %d, %v; want it closed by the server", n, err)
		}
	}
}

// shutdown begins the server's shutdown; its result arrives on the channel.
func (h *heldServer) shutdown() <-chan error {
	out := make(chan error, 1)
	close(h.began)
	go func() { out <- h.Shutdown() }()
	return out
}

// waitPending returns once the socket of c (a connection as the ConnState
// hook has it) holds bytes that net/http has not read.
func waitPending(t *testing.T, c net.Conn) {
	t.Helper()
	if tc, ok := c.(*tls.Conn); ok {
		c = tc.NetConn()
	}
	rc, err := c.(*limitConn).Conn.(syscall.Conn).SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if ok, err := pendingData(rc); err != nil || ok {
			if err != nil {
				t.Fatal(err)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the request's bytes did not reach the server's socket")
		}
	}
}

// readDone reads an answer from r and checks it is 200 "done".
func readDone(r *bufio.Reader) error {
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != http.StatusOK || string(body) != "done" {
		return errors.New("answer " + resp.Status + " " + string(body))
	}
	return nil
}

const getDone = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"

// TestShutdownAnswersRequestsReceived: a request whose bytes the server's
// socket holds when the shutdown begins, net/http not having read them yet
// (sent just as SIGTERM arrives), is answered, and the shutdown ends with
// no error; a connection that sent nothing is still closed at once. Before,
// the connection, still new to net/http, was closed as one that sent
// nothing: the client read EOF. The shutdown of net/http, which drops a
// request it reads once it has begun, begins only once the request's
// handler runs: not as soon as net/http has read the request (StateActive,
// held here for up to 200ms to let a shutdown begun too early show).
func TestShutdownAnswersRequestsReceived(t *testing.T) {
	t.Parallel()
	h := startHeld(t, nil)
	h.holdActive.Store(true)
	began := make(chan struct{})
	h.srv.RegisterOnShutdown(func() { close(began) })
	closed := h.probe(t)
	c, err := net.Dial("tcp", h.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, getDone); err != nil {
		t.Fatal(err)
	}
	sc := <-h.accepted // net/http reads it once proceed gets a value
	waitPending(t, sc)
	stopped := h.shutdown()
	closed()
	h.proceed <- struct{}{}
	<-h.accepted // its request read: net/http's shutdown must not begin yet
	select {
	case <-began:
	case <-time.After(200 * time.Millisecond):
	}
	h.proceed <- struct{}{}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if err := readDone(bufio.NewReader(c)); err != nil {
		t.Errorf("a request received before the shutdown: got %v, want its answer", err)
	}
	if err := <-stopped; err != nil {
		t.Errorf("Shutdown: %v, want nil", err)
	}
}

// TestShutdownLetsPartRequestsFinish: a request of which the server has
// read a part when the shutdown begins is in flight: the rest, sent after,
// is read and the request answered. Before, its connection, still new to
// net/http, was closed as one that had sent nothing.
func TestShutdownLetsPartRequestsFinish(t *testing.T) {
	t.Parallel()
	h := startHeld(t, nil)
	closed := h.probe(t)
	c, err := net.Dial("tcp", h.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, getDone[:10]); err != nil {
		t.Fatal(err)
	}
	sc := <-h.accepted
	h.proceed <- struct{}{}
	for deadline := time.Now().Add(10 * time.Second); sc.(*limitConn).got.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the server did not read the request's start")
		}
	}
	stopped := h.shutdown()
	closed()
	if _, err := io.WriteString(c, getDone[10:]); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if err := readDone(bufio.NewReader(c)); err != nil {
		t.Errorf("a request begun before the shutdown: got %v, want its answer", err)
	}
	if err := <-stopped; err != nil {
		t.Errorf("Shutdown: %v, want nil", err)
	}
}

// gatedConn is a client's connection whose writes after the first wait
// until open is closed; second receives a value when the second begins.
type gatedConn struct {
	net.Conn
	mu     sync.Mutex
	writes int
	second chan struct{}
	open   chan struct{}
}

func (g *gatedConn) Write(p []byte) (int, error) {
	g.mu.Lock()
	g.writes++
	n := g.writes
	g.mu.Unlock()
	if n == 2 {
		g.second <- struct{}{}
		<-g.open
	}
	return g.Conn.Write(p)
}

// TestShutdownLetsHandshakesFinish: over TLS, a client whose ClientHello
// the server's socket holds when the shutdown begins, or whose handshake
// is under way (the server has answered its ClientHello and waits for its
// Finished), gets its handshake finished and its request answered; a
// connection that sent nothing is still closed at once. Before, both were
// closed as connections that had sent no request.
func TestShutdownLetsHandshakesFinish(t *testing.T) {
	t.Parallel()
	sv, err := tlsconf.Server{SelfSigned: true}.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, underWay := range []bool{false, true} {
		name := map[bool]string{false: "ClientHello received", true: "handshake under way"}[underWay]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			h := startHeld(t, sv.Config)
			closed := h.probe(t)
			raw, err := net.Dial("tcp", h.addr)
			if err != nil {
				t.Fatal(err)
			}
			defer raw.Close()
			g := &gatedConn{Conn: raw, second: make(chan struct{}, 1), open: make(chan struct{})}
			answered := make(chan error, 1)
			go func() {
				c := tls.Client(g, &tls.Config{RootCAs: sv.Authority.Pool(), ServerName: "127.0.0.1"})
				_ = c.SetDeadline(time.Now().Add(10 * time.Second))
				if _, err := io.WriteString(c, getDone); err != nil {
					answered <- err
					return
				}
				answered <- readDone(bufio.NewReader(c))
			}()
			sc := <-h.accepted
			if underWay {
				h.proceed <- struct{}{}
				<-g.second // the client has the server's answer to its ClientHello
			} else {
				waitPending(t, sc) // the ClientHello
			}
			stopped := h.shutdown()
			closed()
			if c, err := net.Dial("tcp", h.addr); err == nil {
				c.Close()
				t.Errorf("a new connection was accepted while the shutdown waits for a handshake")
			}
			close(g.open)
			if !underWay {
				h.proceed <- struct{}{}
			}
			if err := <-answered; err != nil {
				t.Errorf("a request whose handshake began before the shutdown: got %v, want its answer", err)
			}
			if err := <-stopped; err != nil {
				t.Errorf("Shutdown: %v, want nil", err)
			}
		})
	}
}

// TestShutdownClosesHandshakenConnectionsThatSentNothing: over TLS, a
// connection whose handshake was done before the shutdown and that has
// sent no request since (a browser's preconnection) is closed at once, as
// one that has not begun its handshake, and the shutdown ends with no
// error before net/http's five seconds for a new connection.
func TestShutdownClosesHandshakenConnectionsThatSentNothing(t *testing.T) {
	t.Parallel()
	sv, err := tlsconf.Server{SelfSigned: true}.Load()
	if err != nil {
		t.Fatal(err)
	}
	h := startHeld(t, sv.Config)
	dialed := make(chan error, 1)
	var c *tls.Conn
	go func() {
		var err error
		c, err = tls.Dial("tcp", h.addr, &tls.Config{RootCAs: sv.Authority.Pool(), ServerName: "127.0.0.1"})
		dialed <- err
	}()
	sc := <-h.accepted
	h.proceed <- struct{}{}
	if err := <-dialed; err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if !sc.(*tls.Conn).ConnectionState().HandshakeComplete { // waits for the server's handshake
		t.Fatal("the server's handshake did not complete")
	}
	if err := <-h.shutdown(); err != nil {
		t.Errorf("Shutdown with a connection that sent nothing after its handshake: %v, want nil", err)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := c.Read(make([]byte, 1)); n != 0 || err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the connection after Shutdown: read %d, %v; want it closed by the server", n, err)
	}
}

package mockserver

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestLingerEndsAtShutdown: the lingering read of a refused body ends when
// the server begins to shut down, even while it waits for more of the
// body (a client that stalls after reading its answer), so the shutdown
// is not held up: it ends well within its grace period, and reports that
// every request finished.
func TestLingerEndsAtShutdown(t *testing.T) {
	t.Parallel()
	srv, err := New(WithDataset(smallDataset()), WithMaxBodyBytes(lingerCap))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	// LingerIdle, the wait for more of a refused body, is longer than
	// the grace: a read left to wait it out expires the grace.
	go func() { done <- ServeWith(ctx, ln, srv, ServeOptions{Grace: LingerIdle / 2}) }()

	conn := stallAfterRefusal(t, ln.Addr().String())
	defer conn.Close()
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Serve: got %v, want nil: the lingering read held the shutdown up", err)
	}
}

// stallAfterRefusal sends the server at addr the start of a body far over
// the cap, reads its refusal, and then sends nothing more: the server
// waits for the rest of the body (lingering close) on the connection
// returned.
func stallAfterRefusal(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	_ = conn.SetDeadline(time.Now().Add(time.Minute))
	fmt.Fprintf(conn, "POST /service/service.asmx/ReturnProvinces HTTP/1.1\r\nHost: %s\r\n"+
		"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\nstrAtmServiceKey=%s",
		addr, lingerBody, strings.Repeat("a", 1000))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		conn.Close()
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusInternalServerError {
		conn.Close()
		t.Fatalf("status: got %d, want 500", resp.StatusCode)
	}
	return conn
}

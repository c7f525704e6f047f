package serve

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"
)

// TestRunFailedClosesConnections: when its listener fails under it (closed
// by someone else), Run returns the error and the server stops: a
// keep-alive connection it accepted before is closed, not served on.
func TestRunFailedClosesConnections(t *testing.T) {
	t.Parallel()
	ln := listen(t)
	ran := make(chan error, 1)
	go func() {
		ran <- Run(context.Background(), ln, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			_, _ = io.WriteString(w, "done")
		}), Options{Grace: time.Minute})
	}()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Minute))
	br := bufio.NewReader(conn)
	ask := func() (*http.Response, error) {
		if _, err := fmt.Fprintf(conn, "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", ln.Addr()); err != nil {
			return nil, err
		}
		resp, err := http.ReadResponse(br, nil)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
		return resp, err
	}
	if _, err := ask(); err != nil {
		t.Fatalf("first request: %v", err)
	}
	_ = ln.Close()
	if err := <-ran; err == nil {
		t.Fatal("Run: got nil, want the listener's error")
	}
	if resp, err := ask(); err == nil {
		t.Errorf("a request on a connection of the failed server was answered %s, want the connection closed", resp.Status)
	}
}

package httpbuf

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestResponseHolds: what a handler writes stays in the Response, with the
// first status; the underlying writer gets nothing, a flush included.
func TestResponseHolds(t *testing.T) {
	rec := httptest.NewRecorder()
	r := New(rec)
	r.Header().Set("Content-Type", "text/plain")
	r.WriteHeader(http.StatusTeapot)
	r.WriteHeader(http.StatusOK)
	_, _ = io.WriteString(r, "hello, ")
	if err := http.NewResponseController(r).Flush(); err != nil {
		t.Fatalf("Flush: %v", err)
	}
	_, _ = io.WriteString(r, "world")
	if r.Status != http.StatusTeapot || r.Body.String() != "hello, world" || r.Header().Get("Content-Type") != "text/plain" {
		t.Errorf("got %d %q %v, want 418 \"hello, world\" text/plain", r.Status, r.Body.String(), r.Header())
	}
	if rec.Flushed || rec.Body.Len() != 0 || len(rec.Header()) != 0 {
		t.Errorf("the underlying writer got %d bytes, header %v, flushed %v; want nothing", rec.Body.Len(), rec.Header(), rec.Flushed)
	}
	w := New(rec)
	_, _ = w.Write([]byte("x"))
	if w.Status != http.StatusOK {
		t.Errorf("a body without a status: got %d, want 200", w.Status)
	}
}

// TestResponseHijack: a handler behind a Response can hijack the real
// connection, and the Response then holds no status.
func TestResponseHijack(t *testing.T) {
	held := make(chan *Response, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		r := New(w)
		conn, _, err := http.NewResponseController(r).Hijack()
		if err != nil {
			t.Errorf("Hijack: %v", err)
		} else {
			_ = conn.Close()
		}
		held <- r
	}))
	defer srv.Close()
	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := http.ReadResponse(bufio.NewReader(conn), nil); err == nil {
		t.Error("got a response, want the connection closed without one")
	}
	if r := <-held; r.Status != 0 {
		t.Errorf("status after hijacking: got %d, want 0", r.Status)
	}
}

// TestResponseMax: with Max, the body keeps its first Max bytes and
// Length counts them all.
func TestResponseMax(t *testing.T) {
	r := New(httptest.NewRecorder())
	r.Max = 4
	for _, s := range []string{"ab", "cdef", "gh"} {
		if n, err := io.WriteString(r, s); n != len(s) || err != nil {
			t.Errorf("Write(%q): got %d, %v, want %d, nil", s, n, err, len(s))
		}
	}
	if r.Body.String() != "abcd" || r.Length != 8 {
		t.Errorf("got body %q and length %d, want \"abcd\" and 8", r.Body.String(), r.Length)
	}
}

package loadgen

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// FuzzReadResponse serves any bytes as the answer to the load generator's
// connection (a loopback server writes them and closes) and reads them
// with the generator's own reader of responses, the one decoder of what
// the server bench measures sends: it never panics or hangs, and a
// response net/http reads whole (an HTTP/1.1 status line, every line
// within the reader's buffer) it reads too, with the same status and as
// many body bytes, written to the body writer when it is given one.
func FuzzReadResponse(f *testing.F) {
	for _, s := range []string{
		"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n0\r\nTrailer: 1\r\n\r\n",
		"HTTP/1.0 200 OK\r\n\r\nto the end",
		"HTTP/1.1 204 No Content\r\nContent-Length: 3\r\n\r\n",
		"HTTP/1.1 500 Internal Server Error\nConnection: close\n\nboom",
		"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok",
		"HTTP/1.1 200\r\nTransfer-Encoding: chunked\r\nContent-Length: 9\r\n\r\n1\r\na\r\n0\r\n\r\n",
		"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n\r\n",
		"HTTP/1.1 2000\r\n\r\n",
		"HTTP/1.1  200 OK\r\nContent-Length: 0\r\n\r\n",
	} {
		f.Add([]byte(s), false)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		f.Fatal(err)
	}
	defer ln.Close()
	answers := make(chan []byte)
	go func() {
		for data := range answers {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write(data)
			_ = c.Close()
		}
	}()
	defer close(answers)
	tg := &target{addr: ln.Addr().String()}
	f.Fuzz(func(t *testing.T, data []byte, discard bool) {
		go func() { answers <- data }()
		c, err := dial(tg, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer c.close()
		var body *bytes.Buffer
		var w io.Writer
		if !discard {
			body = new(bytes.Buffer)
			w = body
		}
		r, err := c.read(w)
		if err == nil && body != nil && int64(body.Len()) != r.length {
			t.Fatalf("%q: read %d body bytes, wrote %d", data, r.length, body.Len())
		}
		want, wantBody, ok := readByNetHTTP(data)
		if !ok {
			return
		}
		switch {
		case err != nil:
			t.Fatalf("%q: %v; net/http reads status %d and %d body bytes", data, err, want.StatusCode, len(wantBody))
		case r.status != want.StatusCode || r.length != int64(len(wantBody)):
			t.Fatalf("%q: read status %d and %d body bytes; net/http reads %d and %d", data, r.status, r.length, want.StatusCode, len(wantBody))
		case body != nil && !bytes.Equal(body.Bytes(), wantBody):
			t.Fatalf("%q: read body %q; net/http reads %q", data, body.Bytes(), wantBody)
		}
	})
}

// readByNetHTTP reads data as net/http reads the response to a GET, and
// reports whether it read it whole and it is one the load generator is
// held to: an HTTP/1.1 status line as RFC 9112 writes it, one space each
// side of three digits (net/http also takes "HTTP/1.1  200", and ignores
// an HTTP/1.0 response's Transfer-Encoding), no line longer than the
// generator's buffer, no folded (obs-fold) Content-Length,
// Transfer-Encoding or Connection, whose first line alone it reads.
func readByNetHTTP(data []byte) (*http.Response, []byte, bool) {
	if !bytes.HasPrefix(data, []byte("HTTP/1.1 ")) || len(data) < 13 || !isDigits(data[9:12]) || !strings.ContainsRune(" \r\n", rune(data[12])) {
		return nil, nil, false
	}
	var last []byte
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		if len(line) >= readBufferSize {
			return nil, nil, false
		}
		if len(bytes.TrimRight(line, "\r")) == 0 {
			break // the head's end
		}
		if folded := line[0] == ' ' || line[0] == '\t'; folded {
			name, _, _ := bytes.Cut(last, []byte(":"))
			for _, f := range []string{"Content-Length", "Transfer-Encoding", "Connection"} {
				if asciiEqualFold(bytes.TrimSpace(name), f) {
					return nil, nil, false // a folded field the generator reads: it reads its first line only
				}
			}
			continue
		}
		last = line
	}
	req, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1/", nil)
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(data)), req)
	if err != nil {
		return nil, nil, false
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, false
	}
	return resp, body, true
}

func isDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

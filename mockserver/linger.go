package mockserver

import (
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/atmkit/atmkit/internal/serve"
)

// Lingering close. A body over the cap is refused before the
// client has sent all of it. A server that then closes the connection
// while the client is still sending makes the client's TCP stack report a
// reset and, often, throw the answer it had already received away. So, as
// nginx's lingering close does, the server answers, then reads and
// discards the rest of the body (up to LingerBytes, for at most
// LingerTime, each read waiting at most LingerIdle) and only then closes
// the connection: the client finishes sending and reads the answer.
const (
	// LingerBytes is the most of a refused body that is read and
	// discarded before the connection closes.
	LingerBytes = 64 << 20
	// LingerTime bounds the reading of a refused body.
	LingerTime = 30 * time.Second
	// LingerIdle bounds each wait for more of a refused body.
	LingerIdle = 5 * time.Second
)

var lingerBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// refuseBody writes the answer to a request whose body is over the cap
// (write writes it) and closes the connection gracefully: the answer goes
// out first, then the rest of the body is read and discarded. unread says
// the server has read none of the body: a client that waits for
// "100 Continue" has then sent none, and is answered without it.
func refuseBody(w http.ResponseWriter, r *http.Request, unread bool, write func()) {
	w.Header().Set("Connection", "close")
	if unread && strings.EqualFold(r.Header.Get("Expect"), "100-continue") {
		write()
		return
	}
	rc := http.NewResponseController(w)
	// Reading on after answering needs full duplex in HTTP/1.x; where it
	// is not possible (a response held until the handler returns) the
	// body is read first and the answer follows.
	_ = rc.EnableFullDuplex()
	write()
	_ = rc.Flush()
	discardBody(r, rc)
}

// discardBody reads and discards the rest of r's body within the lingering
// bounds, or until the request's context ends or its server begins to shut
// down (serve.Stopping): then the connection closes without waiting.
func discardBody(r *http.Request, rc *http.ResponseController) {
	bp := lingerBuffers.Get().(*[]byte)
	defer lingerBuffers.Put(bp)
	buf := *bp
	end := time.Now().Add(LingerTime)
	ctx, stopping := r.Context(), serve.Stopping(r.Context())
	// A read waiting for more of the body ends as the shutdown begins
	// (or the context ends): the watch moves its deadline to now. The
	// loop checks again after setting a deadline of its own, so a
	// deadline set by the watch is never overwritten unseen.
	watched, unwatch := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(watched)
		select {
		case <-stopping:
		case <-ctx.Done():
		case <-unwatch:
			return
		}
		_ = rc.SetReadDeadline(time.Now())
	}()
	defer func() { close(unwatch); <-watched }()
	for n := int64(0); n < LingerBytes; {
		deadline := time.Now().Add(LingerIdle)
		if deadline.After(end) {
			deadline = end
		}
		_ = rc.SetReadDeadline(deadline)
		if ctx.Err() != nil || closed(stopping) {
			return
		}
		k, err := r.Body.Read(buf[:min(int64(len(buf)), LingerBytes-n)])
		n += int64(k)
		if err != nil {
			return
		}
	}
}

// closed reports whether ch is closed; a nil channel never is.
func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

package mockserver

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/asmx"
)

// What the journal keeps of a call is taken while the call is served, so it
// is kept cheap: the request's header map itself (net/http makes one per
// request and nothing changes it afterwards), a copy of the request body's
// first bytes (from the buffer the mock read it into), the answer's few
// header fields by reference (fewFields) and a copy of the answer's first
// bytes taken as they are written (statusWriter.keepFirst); an answer from
// the data set is not copied at all, but encoded again when read
// (fromData). Nothing is masked here: the keys are masked when the entry is
// first read (journal_show.go), which a page or a test does for a few
// calls, while a load test reads none. Until then the journal holds the
// keys in memory, as the process does anyway; they never leave it
// unmasked.
//
// Each side of a call, the request (path, query, host, header fields, body)
// and the answer (header fields, body), is kept within bodyMax bytes: the
// head takes at most half of it (beyond, the header fields that fit are
// kept), the body what is left. A journal of n entries thus holds at most
// 2 * n * bodyMax bytes of requests and answers.

// keptCall is a call's request and answer as the journal keeps them until
// the entry is first read in full: as sent, keys not masked.
type keptCall struct {
	host     string
	query    string
	reqHead  http.Header // the request's own header map, or the fields that fitted
	reqBody  []byte      // the body's first bytes
	reqSize  int64       // the body's length; -1 when not read
	headCut  uint8       // what of the request's head was cut (cutPath, …)
	respHead fewFields   // the answer's header fields; none without an answer
	answered bool        // an answer was written
	respBody []byte
	respSize int64
	respCut  bool // the answer's header fields were cut
	fromSet  bool // the answer is the data set's, not copied (fromData)
}

// held is what k holds, in the bytes the bound counts (see above), with
// path, the entry's path.
func (k *keptCall) held(path string) int {
	if k.reqHead == nil {
		return 0
	}
	return len(path) + len(k.query) + len(k.host) + headerBytes(k.reqHead) + cap(k.reqBody) +
		k.respHead.bytes() + cap(k.respBody)
}

// fewFields are the fields of a header as the journal keeps them: up to
// four (an answer of the mock has two or three) by name and value slice,
// without copying the map; more, in a map of their own. The value slices
// are those the handler set: Set and direct assignment replace a field's
// slice, Add appends beyond its length, so the values seen here never
// change.
type fewFields struct {
	n     int
	names [4]string
	vals  [4][]string
	more  http.Header // when more than four
}

// keepFields keeps the fields of h in room bytes; it reports whether
// some did not fit. It goes over h once, in the common case.
func keepFields(h http.Header, room int) (fewFields, bool) {
	var f fewFields
	n := 0
	if len(h) <= len(f.names) {
		for name, vs := range h {
			f.names[f.n], f.vals[f.n] = name, vs
			f.n++
			for _, v := range vs {
				n += len(name) + len(v)
			}
		}
	} else {
		n = headerBytes(h)
	}
	switch {
	case n > room:
		var cut bool
		f = fewFields{}
		f.more, cut = fitHeader(h, room)
		return f, cut
	case len(h) > len(f.names):
		f.more = h.Clone()
	}
	return f, false
}

// header returns the fields as a header of their own.
func (f *fewFields) header() http.Header {
	if f.more != nil {
		return f.more
	}
	h := make(http.Header, f.n)
	for i := range f.n {
		h[f.names[i]] = f.vals[i]
	}
	return h
}

// bytes counts the fields as headerBytes does.
func (f *fewFields) bytes() int {
	if f.more != nil {
		return headerBytes(f.more)
	}
	n := 0
	for i := range f.n {
		for _, v := range f.vals[i] {
			n += len(f.names[i]) + len(v)
		}
	}
	return n
}

// headerBytes counts a header's fields: the name and value of each.
func headerBytes(h http.Header) int {
	n := 0
	for k, vs := range h {
		for _, v := range vs {
			n += len(k) + len(v)
		}
	}
	return n
}

// bodyRoom is how much of a body the journal keeps after a head of head
// bytes: the head takes at most half of limit.
func bodyRoom(limit, head int) int { return limit - min(head, limit/2) }

// requestHead counts the head of r as the journal keeps it.
func requestHead(r *http.Request) int {
	return len(r.URL.Path) + len(r.URL.RawQuery) + len(r.Host) + headerBytes(r.Header)
}

// keepBody notes the request body the mock read, b, and its first bytes
// for the journal (limit: the journal's bodyMax; 0 keeps none). They are
// noted, not copied: b must stay as it is until the call is journaled
// (its buffer is ex.reqBuf), and the journal copies them (journal.add),
// into the bytes of the entry it drops when it can.
func (ex *exchange) keepBody(b []byte, limit int) {
	ex.bodyRead, ex.bodySize = true, int64(len(b))
	if limit <= 0 {
		return
	}
	ex.body = b[:min(len(b), bodyRoom(limit, ex.requestHead()))]
}

// requestHead is requestHead(ex.req), counted once.
func (ex *exchange) requestHead() int {
	if ex.head == 0 {
		ex.head = requestHead(ex.req) + 1
	}
	return ex.head - 1
}

// fromData notes that the answer written to w next is the data set's
// answer to the call. When w is the exchange's own writer, the journal
// does not copy the answer's first bytes: it encodes them again from the
// call when the entry is read (journal.encode), the very bytes written,
// as the data set, the shape and the namespace never change.
func (ex *exchange) fromData(w http.ResponseWriter) {
	if sw := ex.sw; sw != nil && sw.keep > 0 && w == http.ResponseWriter(sw) {
		sw.keep, ex.fromSet = 0, true
	}
}

// firstBytes returns the first n bytes of the data set's answer to c, as
// writeAnswer and writeFixed write it.
func (s *Server) firstBytes(c *asmx.Call, n int) []byte {
	out := make([]byte, 0, min(n, 4096))
	_ = s.encodeChunked(c, func(p []byte) error {
		out = append(out, p[:min(len(p), n-len(out))]...)
		if len(out) >= n {
			return errEnough
		}
		return nil
	})
	return out
}

// errEnough stops an encoding that has given what was wanted.
var errEnough = errors.New("enough")

// keepCall fills rec.kept from the finished exchange.
func keepCall(rec *journalRecord, r *http.Request, ex *exchange, status, limit int) {
	k := &rec.kept
	half := limit / 2
	k.host, k.query, k.reqHead = r.Host, r.URL.RawQuery, r.Header
	if k.reqHead == nil {
		k.reqHead = http.Header{}
	}
	if head := ex.requestHead(); head > half {
		room := half
		cut := func(s string, bit uint8) string {
			if len(s) > room {
				k.headCut |= bit
			}
			s = cutString(s, room)
			room -= len(s)
			return s
		}
		rec.Path = cut(rec.Path, cutPath)
		k.query = cut(k.query, cutQuery)
		k.host = cut(k.host, cutHost)
		var fieldsCut bool
		if k.reqHead, fieldsCut = fitHeader(r.Header, room); fieldsCut {
			k.headCut |= cutFields
		}
	}
	k.reqSize = -1
	if ex.bodyRead {
		k.reqBody, k.reqSize = ex.body, ex.bodySize
	} else if r.ContentLength == 0 {
		k.reqSize = 0
	}
	if status == 0 || ex.sw == nil {
		return
	}
	sw := ex.sw
	k.respHead, k.respCut = keepFields(sw.Header(), half)
	k.answered = true
	k.respBody, k.respSize, k.fromSet = sw.first, sw.size, ex.fromSet
	if ex.answerSize > k.respSize { // a dribble's, before its last chunk
		if sw.keep > 0 && len(ex.aside) > 0 {
			k.respBody = sw.firstWith(ex.aside)
		}
		k.respSize = ex.answerSize
	}
	if r.Method == http.MethodHead {
		// net/http sends a HEAD answer's header alone: the body the
		// handler wrote never left.
		k.respBody, k.respSize = nil, 0
	}
}

// firstWith returns a copy of the answer's first bytes kept so far followed
// by more, the bytes about to be written, within the room keepFirst keeps.
func (w *statusWriter) firstWith(more []byte) []byte {
	room := w.room
	if !w.keeping {
		room = bodyRoom(w.keep, headerBytes(w.Header()))
	}
	out := make([]byte, 0, min(room, len(w.first)+len(more)))
	out = append(out, w.first[:min(len(w.first), room)]...)
	return append(out, more[:min(len(more), room-len(out))]...)
}

// What of a request's head was cut to fit (keptCall.headCut).
const (
	cutPath uint8 = 1 << iota
	cutQuery
	cutHost
	cutFields
)

// cutString is s cut to at most n bytes (0 if n is negative), copied when
// cut so that the rest is not held.
func cutString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.Clone(s[:max(n, 0)])
}

// fitHeader returns a copy of the fields of h that fit in room bytes,
// taken in the order of their names, and whether any was left out.
func fitHeader(h http.Header, room int) (http.Header, bool) {
	names := make([]string, 0, len(h))
	for k := range h {
		names = append(names, k)
	}
	slices.Sort(names)
	out, cut := http.Header{}, false
	for _, k := range names {
		for _, v := range h[k] {
			if n := len(k) + len(v); n <= room {
				out[k] = append(out[k], v)
				room -= n
			} else {
				cut = true
			}
		}
	}
	return out, cut
}

// keepFirst keeps the answer's first bytes p for the journal, up to the
// room its head leaves: in a buffer of the answer's length when its
// Content-Length says it (so that a short answer holds no more), grown as
// needed otherwise.
func (w *statusWriter) keepFirst(p []byte) {
	if !w.keeping {
		w.keeping = true
		h := w.Header()
		w.room = bodyRoom(w.keep, headerBytes(h))
		size := min(w.room, max(len(p), 512))
		if cl := h["Content-Length"]; len(cl) == 1 {
			if n, err := strconv.Atoi(cl[0]); err == nil && n >= 0 {
				size = min(w.room, n)
			}
		}
		w.first = make([]byte, 0, size)
	}
	p = p[:min(len(p), w.room-len(w.first))]
	if len(p) == 0 {
		return
	}
	if need := len(w.first) + len(p); need > cap(w.first) {
		grown := make([]byte, len(w.first), min(w.room, max(need, 2*cap(w.first))))
		copy(grown, w.first)
		w.first = grown
	}
	w.first = append(w.first, p...)
}

package mockserver

import (
	"net/http"
	"strconv"
	"sync"

	"github.com/atmkit/atmkit/asmx"
)

// The operations whose answer depends on nothing but the data set
// (ReturnAllAtms, ReturnInstitutions and ReturnProvinces) are answered in
// the XML bindings from a cache of whole responses, while its budget lasts.

// fixedKey is an operation with a fixed answer in one binding.
type fixedKey struct {
	op string
	b  asmx.Binding
}

// fixedCacheBudget caps the bytes the cached fixed answers hold together
// (64 MiB). ReturnInstitutions and ReturnProvinces are a few kilobytes, and
// ReturnAllAtms of the embedded data set about 2 MB per binding, so with the
// usual data sets every fixed answer is cached; ReturnAllAtms of a
// 1,000,000-ATM set is over a gigabyte per binding, and would break the
// resident-memory target of such a set, so an answer that does not fit in
// what is left is encoded afresh on each request, streamed in pieces.
const fixedCacheBudget = 64 << 20

// fixedAnswer is the response of an operation whose answer depends on
// nothing but the data set (fixedKey), prepared on its first request.
type fixedAnswer struct {
	once   sync.Once
	body   []byte   // the whole body; nil when it did not fit the budget
	length []string // the Content-Length header value
}

// writeFixed answers c, an operation with a fixed answer f: from the cache,
// or encoded again and streamed when the answer is not cached.
func (s *Server) writeFixed(w http.ResponseWriter, f *fixedAnswer, c *asmx.Call) {
	f.once.Do(func() { s.prepareFixed(f, c) })
	if f.body != nil {
		writeBodyLength(w, c.Binding, f.body, f.length)
		return
	}
	writeHeaderLength(w, c.Binding, f.length)
	_ = s.encodeChunked(c, writeTo(w))
}

// prepareFixed learns the length of the answer of c, and keeps the answer
// if it fits in what is left of the budget. The length of a location list
// is summed from its locations' (itemsLength), so that one too long to keep
// (ReturnAllAtms at a million ATMs, 1.1 GB) is not encoded only to be
// thrown away; the other answers are a few kilobytes, encoded whole.
func (s *Server) prepareFixed(f *fixedAnswer, c *asmx.Call) {
	var body []byte
	if isLocationList(c.Op.Name) {
		a, sc := s.answerWithScratch(c)
		defer sc.release()
		bp := bodyPool.Get().(*[]byte)
		defer recycleBuffer(bp)
		n := bodyLength(a, bp)
		f.length = []string{strconv.Itoa(n)}
		if int64(n) > s.fixedLeft.Load() {
			return // too large for what is left: streamed on each request
		}
		body = a.w.head(make([]byte, 0, n), a)
		body = a.w.items(body, a, 0, a.n)
		body = a.w.tail(body, a)
	} else {
		body = s.appendResponse(nil, c)
		f.length = []string{strconv.Itoa(len(body))}
	}
	// The budget counts what is held: the buffer's capacity.
	if held := int64(cap(body)); s.fixedLeft.Add(-held) >= 0 {
		f.body = body
	} else {
		s.fixedLeft.Add(held) // another answer took the room meanwhile
	}
}

package mockserver

import (
	"net/http"
	"slices"
	"strconv"
	"sync"
	"unsafe"

	"github.com/atmkit/atmkit/asmx"
)

// An answer passes from the dispatch (Server.answer) to one answerWriter
// and back, once: writeAnswer (or writeFixed, fixed.go) finds the answer's
// list, the writer of its operation and binding writes the body in three
// parts, and the code here sends it, whole or in pieces, knowing no
// format. The JSON binding's writer is jsonWriter (answer_json.go); the
// four XML bindings' is xmlWriter (answer_xml.go), which runs the program
// compiled from the shape (shape_compile.go).
//
// Writing is apart from sending: emitBody hands a body on in pieces to an
// emit function, so an answer paced on its way out needs an emit of its
// own, not a writer of its own.

// answerWriter writes the body of the answers of one operation in one
// binding, in three parts: all that comes before the first item of the
// answer's list, the items from one position to another, and all that
// comes after the last. Each part sees the whole answer, its every item
// included, so a format may write more than one part per item: a DataSet
// writes its child tables' rows after all the parent rows (in its tail,
// after an inline schema and the diffgram's start in its head).
type answerWriter interface {
	// head appends all that comes before the first item.
	head(dst []byte, a answer) []byte
	// items appends the items from position from to to.
	items(dst []byte, a answer, from, to int) []byte
	// tail appends all that comes after the last item.
	tail(dst []byte, a answer) []byte
	// itemsLength is the length of what items appends for every item,
	// learnt without writing the items the fragment cache knows the
	// length of: the length of an answer too long to hold (streamed in
	// pieces) is known before it is written.
	itemsLength(a answer) int
	// itemSize is the typical size of an item, for sizing buffers.
	itemSize() int
}

// listKind is the list an answer holds.
type listKind uint8

const (
	locationItems    listKind = iota // locations: ReturnAllAtms and the searches
	institutionItems                 // ReturnInstitutions
	provinceItems                    // ReturnProvinces
)

// answer is the answer to one call: its list, and the writer of its
// operation and binding. It travels by value: through the interface, a
// pointer to it would escape to the heap on every request.
type answer struct {
	w    answerWriter
	kind listKind
	n    int // the list's items
	// For a location list: the ATMs and the search point.
	locationList
	// sc is the request's scratch (nil for the reference lists), where a
	// writer may carry state from one batch of items to the next.
	sc *scratch
}

// isLocationList reports whether op answers a location list.
func isLocationList(op string) bool {
	return op != asmx.OpReturnInstitutions && op != asmx.OpReturnProvinces
}

// answerOf is the answer to c; a location list is searched in sc, which
// may be nil for the other operations.
func (s *Server) answerOf(c *asmx.Call, sc *scratch) answer {
	a := answer{w: s.writerFor(c), sc: sc}
	switch c.Op.Name {
	case asmx.OpReturnInstitutions:
		a.kind, a.n = institutionItems, len(s.data.ds.Institutions)
	case asmx.OpReturnProvinces:
		a.kind, a.n = provinceItems, len(s.data.ds.Provinces)
	default:
		a.locationList = s.data.locations(c, sc)
		a.inGroups()
		a.kind, a.n = locationItems, len(a.atms)
	}
	return a
}

// inGroups puts a's locations in the order its writer writes them: a
// grouped list's (a typed result's, or a DataSet's nested in their
// groups' rows, or not nested with rowOrder: groups) in the order of
// their groups.
func (a *answer) inGroups() {
	switch w := a.w.(type) {
	case *groupedWriter:
		a.atms = w.regroup(a.atms, a.sc)
	case *dsWriter:
		switch {
		case w.code.nested && a.sc != nil:
			a.atms = w.regroup(a.atms, a.sc)
		case w.code.bankByBank:
			a.atms = w.bankByBank(a.atms, a.sc)
		}
	}
}

// bindingWriters are the writers of one operation, by binding.
type bindingWriters [asmx.JSON + 1]answerWriter

// writerFor is the writer of c's operation and binding.
func (s *Server) writerFor(c *asmx.Call) answerWriter {
	return s.writers[c.Op][c.Binding]
}

// newWriters makes the writer of each operation in each binding it is
// offered in.
func (s *Server) newWriters() map[*asmx.Operation]*bindingWriters {
	out := map[*asmx.Operation]*bindingWriters{}
	json := jsonWriter{d: s.data}
	for _, op := range asmx.Operations() {
		ws := &bindingWriters{}
		for _, b := range asmx.XMLBindings {
			if dc := s.enc.dataSet(op.Name, b); dc != nil {
				ws[b] = &dsWriter{d: s.data, code: dc, b: b, ns: s.cfg.namespace, op: op.Name}
				continue
			}
			w := newXMLWriter(s.data, s.enc.code(op.Name, b), b, s.cfg.namespace, op.Name)
			if g := w.rc.list.group; g != nil {
				ws[b] = &groupedWriter{xmlWriter: w, g: g}
				continue
			}
			ws[b] = w
		}
		if op.JSON {
			ws[asmx.JSON] = json
		}
		out[op] = ws
	}
	return out
}

// streams reports whether a is long enough to be written in pieces: a
// location list of more than streamChunk bytes, typically.
func (a answer) streams() bool {
	return a.kind == locationItems && a.n*a.w.itemSize() > streamChunk
}

// appendBody appends the whole body of a.
func appendBody(dst []byte, a answer) []byte {
	if a.kind == locationItems {
		dst = slices.Grow(dst, 1024+a.n*a.w.itemSize())
	}
	dst = a.w.head(dst, a)
	dst = a.w.items(dst, a, 0, a.n)
	return a.w.tail(dst, a)
}

// answerWithScratch is the answer to c, searched in a scratch of its own
// for a location list (nil for any other), which the caller releases once
// the answer is written.
func (s *Server) answerWithScratch(c *asmx.Call) (answer, *scratch) {
	var sc *scratch
	if isLocationList(c.Op.Name) {
		sc = getScratch()
	}
	return s.answerOf(c, sc), sc
}

// appendResponse appends the whole response body of c, built in one
// buffer with no copy of the result.
func (s *Server) appendResponse(dst []byte, c *asmx.Call) []byte {
	a, sc := s.answerWithScratch(c)
	defer sc.release()
	return appendBody(dst, a)
}

// bodyLength is the length of the body of a, computed without writing
// it: the head and tail are written into *bp, the items' length is the
// writer's (itemsLength).
func bodyLength(a answer, bp *[]byte) int {
	buf := a.w.head((*bp)[:0], a)
	n := len(buf)
	buf = a.w.tail(buf[:0], a)
	n += len(buf)
	*bp = buf
	return n + a.w.itemsLength(a)
}

// streamChunk is about how many bytes a response written in pieces gathers
// before handing them on; a location list longer than that (typically) is
// written in pieces.
const streamChunk = 256 << 10

// emitBody writes the body of a in pieces built in *bp, handing each to
// emit: the head and whole batches of items until the buffer holds
// streamChunk bytes, and so on to the tail. emit must not keep the slice;
// an error from emit stops the writing and is returned.
func emitBody(a answer, bp *[]byte, emit func([]byte) error) error {
	buf := a.w.head((*bp)[:0], a)
	for k := 0; k < a.n; {
		// Whole batches of items, then a look at the buffer's length.
		to := min(k+64, a.n)
		buf = a.w.items(buf, a, k, to)
		k = to
		if len(buf) >= streamChunk {
			if err := emit(buf); err != nil {
				*bp = buf
				return err
			}
			buf = buf[:0]
		}
	}
	buf = a.w.tail(buf, a)
	*bp = buf
	return emit(buf)
}

// writeAnswer writes the answer to c from the data set. An answer long
// enough (over streamChunk, typically) is written in pieces from one pooled
// buffer, with its Content-Length computed first, so that no answer is held
// whole; any other is built whole in a pooled buffer.
func (s *Server) writeAnswer(w http.ResponseWriter, c *asmx.Call) {
	bp := bodyPool.Get().(*[]byte)
	defer recycleBuffer(bp)
	a, sc := s.answerWithScratch(c)
	defer sc.release()
	if !a.streams() {
		*bp = appendBody((*bp)[:0], a)
		writeBody(w, c.Binding, *bp)
		return
	}
	writeHeaderLength(w, c.Binding, contentLength(bodyLength(a, bp)))
	_ = emitBody(a, bp, writeTo(w))
}

// encodeChunked writes the response body of c, the very bytes
// appendResponse writes, and hands it to emit in pieces of about
// streamChunk bytes from one pooled buffer, so that a body of any size
// (ReturnAllAtms at a million ATMs is over a gigabyte) is never held
// whole. emit must not keep the slice; an error from emit stops the
// writing and is returned.
func (s *Server) encodeChunked(c *asmx.Call, emit func([]byte) error) error {
	bp := bodyPool.Get().(*[]byte)
	defer recycleBuffer(bp)
	a, sc := s.answerWithScratch(c)
	defer sc.release()
	if !isLocationList(c.Op.Name) {
		*bp = appendBody((*bp)[:0], a)
		return emit(*bp)
	}
	return emitBody(a, bp, emit)
}

// writeTo is an emit function that writes to w; an error (the client went
// away) stops the writing.
func writeTo(w http.ResponseWriter) func([]byte) error {
	return func(p []byte) error {
		_, err := w.Write(p)
		return err
	}
}

// bodyPool recycles response buffers.
var bodyPool = sync.Pool{New: func() any { b := make([]byte, 0, 16<<10); return &b }}

// recycleBody returns out, a body built in *bp, to the pool, unless it grew
// past 4 MiB (a rare huge answer is not worth keeping).
func recycleBody(bp *[]byte, out []byte) {
	if cap(out) <= 4<<20 {
		*bp = out[:0]
		bodyPool.Put(bp)
	}
}

// recycleBuffer returns *bp to the pool, unless it grew past 4 MiB.
func recycleBuffer(bp *[]byte) { recycleBody(bp, *bp) }

// Content-Type header values, shared by every response: net/http only
// reads them, and a capacity of one makes an append by a later handler
// copy rather than write into them.
var (
	headerXML    = []string{asmx.ContentTypeXML}[:1:1]
	headerSOAP12 = []string{asmx.ContentTypeSOAP12}[:1:1]
	headerText   = []string{asmx.ContentTypeText}[:1:1]
)

// writeBody writes a 200 response with b's content type and body.
func writeBody(w http.ResponseWriter, b asmx.Binding, body []byte) {
	writeBodyLength(w, b, body, contentLength(len(body)))
}

// contentLength is the Content-Length header value of a body of n bytes,
// []string{strconv.Itoa(n)} made in one allocation: the slice's array and
// the digits its string points to are one object. (The journal keeps the
// slice: net/http and the journal only read it.)
func contentLength(n int) []string {
	v := new(struct {
		s [1]string
		b [20]byte
	})
	d := strconv.AppendInt(v.b[:0], int64(n), 10)
	v.s[0] = unsafe.String(&d[0], len(d)) // d is never written again
	return v.s[:]
}

// writeBodyLength is writeBody with the Content-Length header value given:
// contentLength must be []string{strconv.Itoa(len(body))}, kept by a caller
// that writes the same body many times. It must not be modified afterwards.
func writeBodyLength(w http.ResponseWriter, b asmx.Binding, body []byte, contentLength []string) {
	writeHeaderLength(w, b, contentLength)
	_, _ = w.Write(body)
}

// writeHeaderLength writes the header of a 200 response with b's content
// type (the JSON binding declares text/xml, as the service does) and the
// Content-Length header value given (as writeBodyLength takes it), for a
// caller that then writes the body itself, in pieces.
func writeHeaderLength(w http.ResponseWriter, b asmx.Binding, contentLength []string) {
	h := w.Header()
	if b == asmx.SOAP12 {
		h["Content-Type"] = headerSOAP12
	} else {
		h["Content-Type"] = headerXML
	}
	h["Content-Length"] = contentLength
	w.WriteHeader(http.StatusOK)
}

// appendIndex appends k, a position in a list (0 or more), as
// strconv.AppendInt does, the first 10,000 from a table of digit pairs:
// every item of a location list writes its position.
func appendIndex(dst []byte, k int) []byte {
	switch {
	case k < 0 || k >= 10000:
		return strconv.AppendInt(dst, int64(k), 10)
	case k < 10:
		return append(dst, byte('0'+k))
	case k < 100:
		return append(dst, digitPairs[2*k], digitPairs[2*k+1])
	case k < 1000:
		lo := k % 100
		return append(dst, byte('0'+k/100), digitPairs[2*lo], digitPairs[2*lo+1])
	}
	hi, lo := k/100, k%100
	return append(dst, digitPairs[2*hi], digitPairs[2*hi+1], digitPairs[2*lo], digitPairs[2*lo+1])
}

// digitPairs are the numbers 00 to 99, two digits each.
const digitPairs = "0001020304050607080910111213141516171819" +
	"2021222324252627282930313233343536373839" +
	"4041424344454647484950515253545556575859" +
	"6061626364656667686970717273747576777879" +
	"8081828384858687888990919293949596979899"

// digitsUpTo is the number of decimal digits in the numbers 0 to n-1.
func digitsUpTo(n int) int {
	total := 0
	for lo, hi, digits := 0, 10, 1; lo < n; lo, hi, digits = hi, hi*10, digits+1 {
		total += (min(n, hi) - lo) * digits
	}
	return total
}

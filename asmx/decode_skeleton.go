package asmx

import (
	"bytes"
	"sync/atomic"
)

// Skeletons: a client generated from the WSDL writes every call of an
// operation the same way, byte for byte, but for the parameters' text.
// Once the usual reader (decode_usual.go) has read such a request, its
// bytes with the parameters' text cut out are kept as the operation's
// skeleton; a later request whose bytes are the skeleton's with other text
// in the same places, text that holds no '<' and passes plainText, is the
// same document but for that text, so it reads as the usual reader would
// read it, and is read by comparing the fixed parts and taking the text.
//
// A skeleton is learned only from a request the usual reader read without
// error, and keeps what that reading depended on besides the bytes: the
// service namespace and the SOAP version (a SOAP 1.1 envelope is the usual
// reader's only when the content type is text/xml). Each operation keeps
// its newest skeletonsPerOp, so clients that write differently do not
// evict each other; nothing else is kept, and a skeleton holds no
// parameter's text (no key).

// skeletonsPerOp is how many skeletons an operation keeps.
const skeletonsPerOp = 4

// skeletonMaxBody is the longest request a skeleton is learned from.
const skeletonMaxBody = 4 << 10

// skeleton is a usual request without its parameters' text.
type skeleton struct {
	ns      string // the service namespace it was read in
	op      *Operation
	version Binding
	// fixed are the bytes around the text slots: fixed[0], slot 0,
	// fixed[1], ..., fixed[len(fixed)-1]; each slot ends where its
	// parameter's end tag starts, so every fixed part after the first
	// starts with '<'.
	fixed [][]byte
	// params are the parameters in document order, each with the slot
	// holding its text, or -1 for one written as an empty element (<p/>).
	params []skeletonParam
}

type skeletonParam struct{ param, slot int8 }

// usualValue is a parameter the usual reader read: its index and where its
// text stands in the body (start and end -1 for <p/>).
type usualValue struct {
	param      int8
	start, end int
}

// skeletonSets holds each operation's skeletons, by position in
// operations; each set is replaced whole, never changed.
var skeletonSets [8]atomic.Pointer[[]*skeleton]

// opIndex is op's position in operations, or -1.
func opIndex(op *Operation) int {
	for i, o := range operations {
		if o == op {
			return i
		}
	}
	return -1
}

// fromSkeleton reads body by a skeleton of op (of any operation when op is
// nil), as the usual reader would; ok is false when none matches.
func (s *fastScanner) fromSkeleton(op *Operation) (c *Call, ok bool) {
	if op != nil {
		return s.fromSkeletonsOf(opIndex(op))
	}
	for i := range operations {
		if c, ok := s.fromSkeletonsOf(i); ok {
			return c, true
		}
	}
	return nil, false
}

func (s *fastScanner) fromSkeletonsOf(i int) (*Call, bool) {
	if i < 0 {
		return nil, false
	}
	set := skeletonSets[i].Load()
	if set == nil {
		return nil, false
	}
	for _, k := range *set {
		if c, ok := s.readBy(k); ok {
			return c, true
		}
	}
	return nil, false
}

// readBy reads the body by k.
func (s *fastScanner) readBy(k *skeleton) (*Call, bool) {
	r := &s.r
	if k.ns != r.ns || k.version == SOAP11 && !matchesBase(r.ct, "text/xml") {
		return nil, false
	}
	in := s.in
	if !bytes.HasPrefix(in, k.fixed[0]) {
		return nil, false
	}
	var slots [maxParams + 1]span
	pos := len(k.fixed[0])
	for j, f := range k.fixed[1:] {
		end := bytes.IndexByte(in[pos:], '<')
		if end < 0 || !plainText(in[pos:pos+end]) || !bytes.HasPrefix(in[pos+end:], f) {
			return nil, false
		}
		slots[j] = span{pos, pos + end}
		pos += end + len(f)
	}
	if pos != len(in) {
		return nil, false
	}
	r.paramText, r.pending = r.paramText[:0], r.pending[:0]
	for _, p := range k.params {
		start := len(r.paramText)
		if p.slot >= 0 {
			r.paramText = append(r.paramText, s.at(slots[p.slot])...)
		}
		r.pending = append(r.pending, pendingParam{int(p.param), start, len(r.paramText)})
	}
	r.call = newCall(k.op, k.version)
	r.envDone = true
	c, e := r.finish()
	return c, e == nil
}

// learnSkeleton keeps the skeleton of the usual request just read: op read
// in version, its parameters vals in document order. A skeleton equal to
// one kept is not kept again.
func (s *fastScanner) learnSkeleton(op *Operation, version Binding, vals []usualValue) {
	i := opIndex(op)
	if i < 0 || len(s.in) > skeletonMaxBody || len(vals) > maxParams {
		return
	}
	k := &skeleton{ns: s.r.ns, op: op, version: version, params: make([]skeletonParam, len(vals))}
	from := 0
	var slot int8
	for j, v := range vals {
		k.params[j] = skeletonParam{v.param, -1}
		if v.start < 0 {
			continue
		}
		k.params[j].slot = slot
		slot++
		k.fixed = append(k.fixed, s.in[from:v.start])
		from = v.end
	}
	k.fixed = append(k.fixed, s.in[from:])
	old := skeletonSets[i].Load()
	var set []*skeleton
	if old != nil {
		for _, o := range *old {
			if o.equal(k) {
				return
			}
		}
		set = *old
	}
	// Copy the fixed parts out of the body, which the caller reuses.
	all := make([]byte, 0, len(s.in))
	for j, f := range k.fixed {
		all = append(all, f...)
		k.fixed[j] = all[len(all)-len(f) : len(all) : len(all)]
	}
	next := append([]*skeleton{k}, set[:min(len(set), skeletonsPerOp-1)]...)
	skeletonSets[i].CompareAndSwap(old, &next) // lost to another learner: no matter
}

func (k *skeleton) equal(o *skeleton) bool {
	if k.ns != o.ns || k.op != o.op || k.version != o.version || len(k.fixed) != len(o.fixed) || len(k.params) != len(o.params) {
		return false
	}
	for j := range k.fixed {
		if !bytes.Equal(k.fixed[j], o.fixed[j]) {
			return false
		}
	}
	for j := range k.params {
		if k.params[j] != o.params[j] {
			return false
		}
	}
	return true
}

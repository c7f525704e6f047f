package mockserver

import "sync/atomic"

// fragmentBudget caps the bytes the fragment cache holds. An ATM's XML
// location node is about 1.1 KB and its JSON object about 0.6 KB, so the
// whole of the embedded data set fits many times over (as do 10,000 ATMs),
// and a 1,000,000-ATM set keeps its most asked-for ATMs (the first ones
// asked for, some 20,000) cached while the rest are written afresh each
// time. What the cache holds stays resident, and the garbage collector lets
// the heap grow to twice what stays (GOGC=100): at 128 MiB, a million-ATM
// mock under long answers outgrew 1 GB.
const fragmentBudget = 32 << 20

// fragmentCache holds the encoded XML and JSON of each ATM's location (what
// follows the index value, which is the only part that depends on the
// list), filled as ATMs are first written. Encoding a list is then mostly
// copying. It also keeps the length of every fragment written, cached or
// not, so that the length of a long answer is known before it is written
// in pieces. It is safe for concurrent use; the data set is immutable, so a
// fragment never goes stale.
type fragmentCache struct {
	xml, json       []atomic.Pointer[[]byte] // by position in ds.ATMs
	xmlLen, jsonLen []atomic.Uint32          // by position in ds.ATMs; 0 until written
	left            atomic.Int64             // bytes that may still be cached
}

func newFragmentCache(n int) *fragmentCache {
	c := &fragmentCache{xml: make([]atomic.Pointer[[]byte], n), json: make([]atomic.Pointer[[]byte], n),
		xmlLen: make([]atomic.Uint32, n), jsonLen: make([]atomic.Uint32, n)}
	c.left.Store(fragmentBudget)
	return c
}

func (c *fragmentCache) slot(i int32, json bool) *atomic.Pointer[[]byte] {
	if json {
		return &c.json[i]
	}
	return &c.xml[i]
}

// get returns the cached fragment of the ATM at position i, or nil.
func (c *fragmentCache) get(i int32, json bool) []byte {
	if p := c.slot(i, json).Load(); p != nil {
		return *p
	}
	return nil
}

// length returns the length of the fragment of the ATM at position i, or 0
// if it was never written.
func (c *fragmentCache) length(i int32, json bool) int {
	if json {
		return int(c.jsonLen[i].Load())
	}
	return int(c.xmlLen[i].Load())
}

// put records the length of f, the fragment of the ATM at position i, and
// caches a copy of it, unless the budget is spent or another request cached
// it first.
func (c *fragmentCache) put(i int32, json bool, f []byte) {
	n := int64(len(f))
	if json {
		c.jsonLen[i].Store(uint32(n))
	} else {
		c.xmlLen[i].Store(uint32(n))
	}
	if c.left.Load() < n {
		return
	}
	b := append([]byte(nil), f...)
	if c.slot(i, json).CompareAndSwap(nil, &b) {
		c.left.Add(-n)
	}
}

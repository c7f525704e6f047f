package mockserver

import "sync/atomic"

// fragmentBudget caps the bytes the fragment cache holds. An ATM's XML
// location node is about 1.1 KB and its JSON object about 0.6 KB, so the
// whole of the embedded data set fits many times over, and a 1,000,000-ATM
// set keeps its most asked-for ATMs (the first ones asked for) cached while
// the rest are written afresh each time.
const fragmentBudget = 128 << 20

// fragmentCache holds the encoded XML and JSON of each ATM's location (what
// follows the index value, which is the only part that depends on the
// list), filled as ATMs are first written. Encoding a list is then mostly
// copying. It is safe for concurrent use; the data set is immutable, so a
// fragment never goes stale.
type fragmentCache struct {
	xml, json []atomic.Pointer[[]byte] // by position in ds.ATMs
	left      atomic.Int64             // bytes that may still be cached
}

func newFragmentCache(n int) *fragmentCache {
	c := &fragmentCache{xml: make([]atomic.Pointer[[]byte], n), json: make([]atomic.Pointer[[]byte], n)}
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

// put caches a copy of f for the ATM at position i, unless the budget is
// spent or another request cached it first.
func (c *fragmentCache) put(i int32, json bool, f []byte) {
	n := int64(len(f))
	if c.left.Load() < n {
		return
	}
	b := append([]byte(nil), f...)
	if c.slot(i, json).CompareAndSwap(nil, &b) {
		c.left.Add(-n)
	}
}

package mockserver

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// fragmentBudget caps the bytes the fragment cache holds. An ATM's XML
// location node is about 1.1 KB and its JSON object about 0.6 KB, so the
// whole of the embedded data set fits many times over (as do 10,000 ATMs),
// and a 1,000,000-ATM set keeps its most asked-for ATMs (the first ones
// asked for, some 20,000) cached while the rest are written afresh each
// time. What the cache holds stays resident, and the garbage collector lets
// the heap grow to twice what stays (GOGC=100): at 128 MiB, a million-ATM
// mock under long answers outgrew 1 GB.
const fragmentBudget = 32 << 20

// jsonVariant is the fragment cache variant of JSON location objects; the
// XML location items of the shape served use 1 and up (one per way the
// items are written: flat inside SOAP, indented in GET/POST, at a depth
// that depends on the layout).
const jsonVariant = 0

// fragment is an ATM's encoded location item without its index value,
// which is the only part that depends on the list: b[:off], the index,
// then b[off:]. off < 0: the item writes no index.
type fragment struct {
	b   []byte
	off int
	// holes are the numbers of a DataSet's location row (answer_dataset.go)
	// that depend on the row's place, in order; off is -1 then.
	holes []dsHole
}

// fragmentCache holds the encoded location items of each ATM per variant,
// filled as ATMs are first written. Encoding a list is then mostly
// copying. It also keeps the length of every fragment written, cached or
// not, so that the length of a long answer is known before it is written
// in pieces. It is safe for concurrent use; the data set is immutable, so a
// fragment never goes stale.
type fragmentCache struct {
	slots [][]atomic.Pointer[fragment] // by variant, then position in ds.ATMs
	lens  [][]atomic.Uint32            // by variant, then position; 0 until written
	left  atomic.Int64                 // bytes that may still be cached

	blockMu sync.Mutex
	block   []byte // room for the next fragments cached (hold)
}

// fragmentBlock is the size of the blocks cached fragments are copied
// into, one after another.
const fragmentBlock = 64 << 10

// newFragmentCache returns a cache for n ATMs with the JSON variant and one
// XML variant; grow adds variants.
func newFragmentCache(n int) *fragmentCache {
	c := &fragmentCache{}
	c.grow(2, n)
	c.left.Store(fragmentBudget)
	return c
}

// grow makes room for variants variants of n ATMs. It must be called
// before the cache is used concurrently.
func (c *fragmentCache) grow(variants, n int) {
	for len(c.slots) < variants {
		c.slots = append(c.slots, make([]atomic.Pointer[fragment], n))
		c.lens = append(c.lens, make([]atomic.Uint32, n))
	}
}

// get returns the cached fragment of the ATM at position i, or nil.
func (c *fragmentCache) get(variant int, i int32) *fragment {
	return c.slots[variant][i].Load()
}

// gather loads the cached fragments of the ATMs at positions atms into fs
// (nil for one not cached), and reads the first byte of each, before the
// caller copies any: the loads do not depend on one another, so the
// processor overlaps their cache misses, where a loop that copied each
// fragment as it loaded it waited for them one after another.
func (c *fragmentCache) gather(fs []*fragment, variant int, atms []int32) {
	slots := c.slots[variant]
	var touch byte
	for k, i := range atms {
		f := slots[i].Load()
		fs[k] = f
		if f != nil && len(f.b) > 0 {
			touch |= f.b[0]
		}
	}
	runtime.KeepAlive(touch) // the reads are what gather is for
}

// gatherBatch is how many fragments a writer gathers at a time.
const gatherBatch = 32

// length returns the length of the fragment of the ATM at position i (its
// bytes, without the index), or 0 if it was never written.
func (c *fragmentCache) length(variant int, i int32) int {
	return int(c.lens[variant][i].Load())
}

// putHoles caches b, a DataSet's location row with holes, as put does.
func (c *fragmentCache) putHoles(variant int, i int32, b []byte, holes []dsHole) *fragment {
	return c.store(variant, i, &fragment{b: b, off: -1, holes: holes})
}

// put records the length of the fragment b (index at off) of the ATM at
// position i, caches it unless the budget is spent or another request
// cached it first, and returns it. b must not be used by the caller
// afterwards.
func (c *fragmentCache) put(variant int, i int32, b []byte, off int) *fragment {
	return c.store(variant, i, &fragment{b: b, off: off})
}

// store is put and putHoles for the fragment f, not yet shared.
func (c *fragmentCache) store(variant int, i int32, f *fragment) *fragment {
	n := int64(len(f.b))
	c.lens[variant][i].Store(uint32(n))
	if c.left.Load() < n {
		return f
	}
	f.b = c.hold(f.b)
	if c.slots[variant][i].CompareAndSwap(nil, f) {
		c.left.Add(-n)
	}
	return f
}

// hold copies b, a fragment about to be cached, into the cache's current
// block and returns the copy (its capacity its length). Fragments cached
// one after another, as the items of an answer are first written, so lie
// side by side in memory, and writing a list copies from a few runs of
// memory rather than from as many objects as it has items: under load,
// the copy of a 69-location answer took about 3.5 us from separate
// objects against 1.9 us from one run.
func (c *fragmentCache) hold(b []byte) []byte {
	c.blockMu.Lock()
	defer c.blockMu.Unlock()
	if len(b) > cap(c.block)-len(c.block) {
		c.block = make([]byte, 0, max(fragmentBlock, len(b)))
	}
	start := len(c.block)
	c.block = append(c.block, b...)
	return c.block[start:len(c.block):len(c.block)]
}

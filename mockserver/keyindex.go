package mockserver

import (
	"bytes"
	"context"
	"hash/maphash"
	"slices"
)

// keyIndex finds the first ATM (in id order) whose key, made by appendKey,
// is a given one: the geocoding tables of the address searches (postal
// codes, streets). It keeps 12 bytes per distinct key, the keys' hashes
// sorted with the rank of the first ATM of each, and no key itself (a map
// of the strings took about 60 bytes per ATM): a lookup remakes the key of
// each ATM whose hash matches, so a collision of hashes costs a comparison
// and never a wrong answer.
type keyIndex struct {
	hash      func([]byte) uint64
	appendKey func(dst []byte, i int32) []byte // i a position in ds.ATMs; an empty key has no entry
	byID      []int32                          // the ranks' ATMs
	hashes    []uint64                         // the distinct keys' hashes, sorted
	ranks     []int32                          // by hashes: the rank of the first ATM with the key
}

type keyEntry struct {
	hash uint64
	rank int32
}

// newKeyIndex indexes the ATMs of byID (positions in ds.ATMs, in id order)
// by appendKey.
func newKeyIndex(ctx context.Context, byID []int32, appendKey func(dst []byte, i int32) []byte) *keyIndex {
	seed := maphash.MakeSeed()
	return newKeyIndexHash(ctx, byID, appendKey, func(b []byte) uint64 { return maphash.Bytes(seed, b) })
}

// newKeyIndexHash is newKeyIndex with the hash function given. When ctx
// ends it stops early and returns an empty index (the caller checks ctx).
func newKeyIndexHash(ctx context.Context, byID []int32, appendKey func(dst []byte, i int32) []byte, hash func([]byte) uint64) *keyIndex {
	x := &keyIndex{hash: hash, appendKey: appendKey, byID: byID}
	var key []byte
	var entries []keyEntry
	for rank, i := range byID {
		if rank%checkEvery == 0 && ctx.Err() != nil {
			return x
		}
		if key = appendKey(key[:0], i); len(key) > 0 {
			entries = append(entries, keyEntry{hash(key), int32(rank)})
		}
	}
	slices.SortFunc(entries, func(a, b keyEntry) int {
		switch {
		case a.hash < b.hash:
			return -1
		case a.hash > b.hash:
			return 1
		}
		return int(a.rank - b.rank)
	})
	// Keep the first ATM of each key: within a run of equal hashes, an entry
	// whose key an entry kept before it has is dropped. The keys of a run's
	// kept entries are made once (runKeys, in arena).
	kept := entries[:0] // written behind the entry read
	var arena []byte
	var runKeys [][2]int // in arena
	for k, e := range entries {
		if k%checkEvery == 0 && ctx.Err() != nil {
			return x
		}
		if k == 0 || e.hash != entries[k-1].hash {
			kept = append(kept, e)
			runKeys, arena = runKeys[:0], arena[:0]
			continue
		}
		if len(runKeys) == 0 { // the run's first entry's key, now needed
			start := len(arena)
			arena = appendKey(arena, byID[kept[len(kept)-1].rank])
			runKeys = append(runKeys, [2]int{start, len(arena)})
		}
		start := len(arena)
		arena = appendKey(arena, byID[e.rank])
		key := arena[start:]
		dup := false
		for _, r := range runKeys {
			if bytes.Equal(arena[r[0]:r[1]], key) {
				dup = true
				break
			}
		}
		if dup {
			arena = arena[:start]
			continue
		}
		kept = append(kept, e)
		runKeys = append(runKeys, [2]int{start, len(arena)})
	}
	x.hashes, x.ranks = make([]uint64, len(kept)), make([]int32, len(kept))
	for k, e := range kept {
		x.hashes[k], x.ranks[k] = e.hash, e.rank
	}
	return x
}

// find returns the position in ds.ATMs of the first ATM whose key is key.
func (x *keyIndex) find(key []byte) (int32, bool) {
	if len(key) == 0 {
		return 0, false
	}
	h := x.hash(key)
	k, _ := slices.BinarySearch(x.hashes, h)
	var buf [64]byte
	for ; k < len(x.hashes) && x.hashes[k] == h; k++ {
		i := x.byID[x.ranks[k]]
		if bytes.Equal(x.appendKey(buf[:0], i), key) {
			return i, true
		}
	}
	return 0, false
}

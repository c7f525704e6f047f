package mockserver

import (
	"context"
	"math"
	"math/bits"
	"slices"
	"sync"

	"github.com/atmkit/atmkit/fixtures"
)

// leafSize is the most points a leaf of the k-d tree holds.
const leafSize = 16

// havMargin is taken off every lower bound of the haversines within a node:
// the points' unit vectors and the haversines are rounded apart (by a few
// 1e-16), and a bound must never exceed a haversine the search computes. It
// is the haversine of about 4 m, so it costs the pruning nothing.
const havMargin = 1e-13

// kdTree is the search index: a k-d tree of the ATMs' positions as unit
// vectors in space, where the chord between two points measures their
// great-circle distance whatever the latitude or longitude (the haversine
// is a quarter of the chord's square), so the poles and the antimeridian
// need no case of their own.
//
// It is built once, balanced, and stored implicitly: node i covers a run of
// points, split in halves by its children 2i+1 and 2i+2 (the median along
// the widest side of the node's box), down to leaves of at most leafSize
// points. Each node keeps the box bounding its points; a search skips a
// node whose box lies beyond the radius or beyond the k-th nearest point
// found so far, so the k nearest cost about O(log n + k) however densely
// the ATMs stand, and a search within a radius visits the nodes the circle
// touches.
type kdTree struct {
	points []point // in tree order
	boxes  []box   // by node
}

// box is an axis-aligned box in space: lo and hi of x, y and z.
type box struct{ lo, hi [3]float64 }

// point is a position prepared for distances, and the ATM standing there.
type point struct {
	sinHLat, cosHLat float64 // of half the latitude
	sinHLon, cosHLon float64 // of half the longitude
	cosLat           float64
	atm              int32 // position in ds.ATMs
	rank             int32 // position in id order: equal distances are ordered by it
}

func newPoint(c fixtures.Coordinates, atm, rank int32) point {
	sLat, cLat := math.Sincos(c.Latitude * rad / 2)
	sLon, cLon := math.Sincos(c.Longitude * rad / 2)
	return point{sinHLat: sLat, cosHLat: cLat, sinHLon: sLon, cosHLon: cLon,
		cosLat: math.Cos(c.Latitude * rad), atm: atm, rank: rank}
}

// hav is the haversine of the central angle between p and q: sin²(Δφ/2) +
// cos φp cos φq sin²(Δλ/2), the half-angle sines taken by the difference
// formula from the sines and cosines each point carries. Equal points give
// exactly 0; it grows with the distance, so searches compare and sort by it.
//
// Each product is rounded on its own (the float64 conversions): where the
// compiler fuses a multiplication into the subtraction (arm64's FMSUB),
// a·b − b·a is the rounding error of b·a, so equal points were some 1e-13
// km apart and a search of radius 0 missed the ATMs at its point. On amd64
// the conversions change no instruction.
func (p *point) hav(q *point) float64 {
	sdLat := float64(q.sinHLat*p.cosHLat) - float64(q.cosHLat*p.sinHLat)
	sdLon := float64(q.sinHLon*p.cosHLon) - float64(q.cosHLon*p.sinHLon)
	return sdLat*sdLat + p.cosLat*q.cosLat*sdLon*sdLon
}

// vec is p's unit vector, made from the sines and cosines hav uses, so that
// a quarter of the squared chord between two vectors is their haversine up
// to rounding. (The identity holds for any latitude and longitude, even
// outside ±90° and ±180°.)
func (p *point) vec() [3]float64 {
	cosLon := p.cosHLon*p.cosHLon - p.sinHLon*p.sinHLon
	sinLon := 2 * p.sinHLon * p.cosHLon
	return [3]float64{p.cosLat * cosLon, p.cosLat * sinLon, 2 * p.sinHLat * p.cosHLat}
}

// hit is a point found by a search, with its haversine from the search
// point.
type hit struct {
	hav  float64
	rank int32 // point.rank
	atm  int32 // point.atm
}

// Hits are ordered as the brute-force definition orders them: by distance
// in kilometres (havKm), then id. Distances follow haversines, but for
// rounding: two haversines a few units of the last place apart can give the
// same distance, and then the id decides. So the distances are worked out
// only when haversines are that close (tieRange of each other).
const tieRange = 1e-14

// before reports whether a comes before b.
func (a hit) before(b hit) bool { return compareHits(a, b) < 0 }

func compareHits(a, b hit) int {
	switch {
	case a.hav < b.hav:
		if b.hav-a.hav > tieRange*b.hav {
			return -1
		}
	case a.hav > b.hav:
		if a.hav-b.hav > tieRange*a.hav {
			return 1
		}
	default:
		return int(a.rank - b.rank)
	}
	// So close that the distances decide.
	if ka, kb := havKm(a.hav), havKm(b.hav); ka != kb {
		if ka < kb {
			return -1
		}
		return 1
	}
	return int(a.rank - b.rank)
}

// sortHits sorts hits by compareHits: by haversine then rank, which is
// cheap, then again by compareHits each run of haversines close enough to
// need their distances (rare).
func sortHits(hits []hit) {
	sortByHav(hits, 2*bits.Len(uint(len(hits))))
	fixTies(hits)
}

// fixTies sorts by compareHits the runs of hits, sorted by haversine then
// rank, whose haversines are close enough to need their distances.
func fixTies(hits []hit) {
	for i := 1; i < len(hits); {
		// Most are far apart: find the next two that are not, with the
		// previous haversine at hand (the usual case tested first: one
		// comparison a hit).
		prev := hits[i-1].hav
		for ; i < len(hits); i++ {
			h := hits[i].hav
			if !(h-prev > tieRange*h || h == prev) {
				break
			}
			prev = h
		}
		if i == len(hits) {
			return
		}
		// hits[i-1] and hits[i] are close: find the run they are in.
		lo, hi := i-1, i+1
		for lo > 0 && hits[lo].hav-hits[lo-1].hav <= tieRange*hits[lo].hav {
			lo--
		}
		for hi < len(hits) && hits[hi].hav-hits[hi-1].hav <= tieRange*hits[hi].hav {
			hi++
		}
		slices.SortFunc(hits[lo:hi], compareHits)
		i = hi + 1
	}
}

// bucketSortMax is the most hits sortWithin sorts by buckets; more are
// sorted in place (sortHits), so that a huge answer's hits are not held
// twice.
const bucketSortMax = 1 << 12

// sortWithin sorts the hits of a search within a radius, whose haversines
// are at most maxHav, as sortHits does, and returns them sorted: in sc's
// scratch when there are up to bucketSortMax of them, else hits itself.
//
// The hits go to as many buckets as there are hits, by distance (the
// square root of the haversine, which grows as the distance does), each
// bucket then sorted on its own: the buckets follow the distances' order,
// so the buckets sorted one by one are the hits sorted. Hits spread over
// the circle, or around a town at its centre, fall a few to a bucket, so
// the sort costs a few passes over the hits; a crowded bucket (ATMs at
// one spot) is sorted by sortByHav.
func sortWithin(hits []hit, maxHav float64, sc *scratch) []hit {
	n := len(hits)
	if n <= 12 || n > bucketSortMax || !(maxHav > 0) || math.IsInf(maxHav, 0) {
		sortHits(hits)
		return hits
	}
	// A hit's bucket is the square root of its haversine's share of
	// maxHav (at most 1), in float32: coarse, but never out of order, as
	// every step rounds monotonically.
	inv, scale := 1/maxHav, float32(n)
	bucket := func(h float64) int {
		x := float32(h * inv)
		return min(int(float32(math.Sqrt(float64(x)))*scale), n-1)
	}
	// ends[b] counts bucket b's hits, then becomes where it starts, then,
	// once the hits are placed, where it ends.
	ends := slices.Grow(sc.ends[:0], n)[:n]
	clear(ends)
	// Each hit's bucket, worked out once.
	of := slices.Grow(sc.bucketOf[:0], n)[:n]
	for i := range hits {
		h := hits[i].hav
		if !(h >= 0) {
			sortHits(hits)
			return hits
		}
		b := bucket(h)
		of[i] = int32(b)
		ends[b]++
	}
	// starts[b] is where bucket b starts; crowded says whether a bucket
	// holds more than insertion sorts well.
	starts := slices.Grow(sc.starts[:0], n)[:n]
	sum, crowded := int32(0), false
	for b, c := range ends {
		starts[b], ends[b] = sum, sum
		sum += c
		crowded = crowded || c > 12
	}
	sorted := slices.Grow(sc.sorted[:0], n)[:n]
	if !crowded {
		// Each hit goes into its bucket in order as it is placed
		// (insertion by shifting: the hit is written once), so the
		// buckets need no pass of their own.
		for i, b := range of {
			x, lo := hits[i], starts[b]
			j := ends[b]
			ends[b] = j + 1
			for ; j > lo && hitLess(&x, &sorted[j-1]); j-- {
				sorted[j] = sorted[j-1]
			}
			sorted[j] = x
		}
	} else {
		for i, b := range of {
			sorted[ends[b]] = hits[i]
			ends[b]++
		}
		for b, hi := range ends {
			if lo := starts[b]; hi-lo >= 2 {
				sortByHav(sorted[lo:hi], 2*bits.Len(uint(hi-lo)))
			}
		}
	}
	fixTies(sorted)
	sc.ends, sc.starts, sc.sorted, sc.bucketOf = ends, starts, sorted, of
	return sorted
}

// hitLess orders hits by haversine, then rank: the order sortHits takes
// first.
func hitLess(a, b *hit) bool { return a.hav < b.hav || a.hav == b.hav && a.rank < b.rank }

// sortByHav sorts hits by hitLess: quicksort (median of three, the
// smaller side first), insertion sort for short runs, heapsort once depth
// levels are spent. It is written for hits, so that the comparisons are
// inlined: slices.SortFunc calls a function for each, which cost a search
// of 69 hits more than finding them. Ranks differ, so no two hits are
// equal.
func sortByHav(h []hit, depth int) {
	for len(h) > 12 {
		if depth == 0 {
			heapSortHits(h)
			return
		}
		depth--
		p := partitionHits(h)
		if p < len(h)-p {
			sortByHav(h[:p], depth)
			h = h[p+1:]
		} else {
			sortByHav(h[p+1:], depth)
			h = h[:p]
		}
	}
	for i := 1; i < len(h); i++ {
		for j := i; j > 0 && hitLess(&h[j], &h[j-1]); j-- {
			h[j], h[j-1] = h[j-1], h[j]
		}
	}
}

// partitionHits moves the median of h's first, middle and last hits to
// position p, those before it to its left and those after to its right,
// and returns p.
func partitionHits(h []hit) int {
	n := len(h)
	a, b, c := 1, n/2, n-1
	if hitLess(&h[b], &h[a]) {
		a, b = b, a
	}
	if hitLess(&h[c], &h[b]) {
		b = c
		if hitLess(&h[b], &h[a]) {
			b = a
		}
	}
	h[0], h[b] = h[b], h[0]
	pivot := h[0]
	i, j := 1, n-1
	for {
		for i <= j && hitLess(&h[i], &pivot) {
			i++
		}
		for i <= j && !hitLess(&h[j], &pivot) {
			j--
		}
		if i > j {
			break
		}
		h[i], h[j] = h[j], h[i]
		i++
		j--
	}
	h[0], h[j] = h[j], h[0]
	return j
}

// heapSortHits sorts h by hitLess in O(n log n) whatever its order.
func heapSortHits(h []hit) {
	down := func(i, n int) {
		for {
			c := 2*i + 1
			if c >= n {
				return
			}
			if c+1 < n && hitLess(&h[c], &h[c+1]) {
				c++
			}
			if !hitLess(&h[i], &h[c]) {
				return
			}
			h[i], h[c] = h[c], h[i]
			i = c
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(i, len(h))
	}
	for n := len(h) - 1; n > 0; n-- {
		h[0], h[n] = h[n], h[0]
		down(0, n)
	}
}

// radius holds the bounds on haversines of a search within km kilometres:
// a point whose haversine is at most inner is within the radius, one over
// outer is not, and for one in between the distance decides, as in the
// brute-force definition.
type radius struct {
	km           float64
	inner, outer float64
}

func newRadius(km float64) radius {
	h := maxHavOf(km)
	return radius{km: km, inner: h * (1 - 1e-9), outer: h*(1+1e-9) + 1e-300}
}

// holds reports whether a point of haversine h is within the radius.
func (r *radius) holds(h float64) bool {
	return h <= r.inner || h <= r.outer && havKm(h) <= r.km
}

// newKDTree indexes atms, taken in the order of byID (which gives the ranks).
func newKDTree(ctx context.Context, atms []fixtures.ATM, byID []int32) *kdTree {
	n := len(byID)
	t := &kdTree{points: make([]point, n)}
	for rank, i := range byID {
		if rank%checkEvery == 0 && ctx.Err() != nil {
			return t // partial: the caller checks ctx
		}
		t.points[rank] = newPoint(atms[i].Coordinates, i, int32(rank))
	}
	if n == 0 {
		return t
	}
	// The rightmost path holds the larger halves, so it reaches the deepest
	// level and the highest node number.
	last := 0
	for s := n; s > leafSize; s -= s / 2 {
		last = 2*last + 2
	}
	t.boxes = make([]box, last+1)
	keys := make([]float64, n)
	var wg sync.WaitGroup
	t.build(ctx, 0, 0, n, keys, 2, &wg)
	wg.Wait()
	return t
}

// build bounds node, which covers points[lo:hi], and splits it; the top
// levels (par of them) build their halves side by side. Once ctx ends it
// stops splitting (the caller checks ctx).
func (t *kdTree) build(ctx context.Context, node, lo, hi int, keys []float64, par int, wg *sync.WaitGroup) {
	ps := t.points[lo:hi]
	b := box{lo: [3]float64{math.Inf(1), math.Inf(1), math.Inf(1)}, hi: [3]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}}
	for k := range ps {
		v := ps[k].vec()
		for a := range 3 {
			b.lo[a] = min(b.lo[a], v[a])
			b.hi[a] = max(b.hi[a], v[a])
		}
	}
	t.boxes[node] = b
	if hi-lo <= leafSize || hi-lo >= checkEvery && ctx.Err() != nil {
		return
	}
	axis := 0
	for a := 1; a < 3; a++ {
		if b.hi[a]-b.lo[a] > b.hi[axis]-b.lo[axis] {
			axis = a
		}
	}
	ks := keys[lo:hi]
	for k := range ps {
		ks[k] = ps[k].vec()[axis]
	}
	mid := (hi - lo) / 2
	selectNth(ks, ps, mid)
	if par > 0 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t.build(ctx, 2*node+1, lo, lo+mid, keys, par-1, wg)
		}()
	} else {
		t.build(ctx, 2*node+1, lo, lo+mid, keys, 0, wg)
	}
	t.build(ctx, 2*node+2, lo+mid, hi, keys, par-1, wg)
}

// selectNth reorders keys, and ps alike, so that keys[k] is the one a sort
// would put there, none before it greater and none after it less
// (quickselect, Hoare's partition around a median of three).
func selectNth(keys []float64, ps []point, k int) {
	swap := func(i, j int) {
		keys[i], keys[j] = keys[j], keys[i]
		ps[i], ps[j] = ps[j], ps[i]
	}
	lo, hi := 0, len(keys)-1
	for hi > lo {
		m := lo + (hi-lo)/2
		if keys[m] < keys[lo] {
			swap(lo, m)
		}
		if keys[hi] < keys[lo] {
			swap(lo, hi)
		}
		if keys[hi] < keys[m] {
			swap(m, hi)
		}
		pivot := keys[m]
		i, j := lo, hi
		for i <= j {
			for keys[i] < pivot {
				i++
			}
			for keys[j] > pivot {
				j--
			}
			if i <= j {
				swap(i, j)
				i++
				j--
			}
		}
		// keys[lo:j+1] ≤ pivot ≤ keys[i:hi+1], and any between equal pivot.
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}

// lowerBound is at most the haversine between the point of unit vector v
// and any point of node.
func (t *kdTree) lowerBound(node int, v *[3]float64) float64 {
	b := &t.boxes[node]
	s := 0.0
	for a := range 3 {
		if d := b.lo[a] - v[a]; d > 0 {
			s += d * d
		} else if d := v[a] - b.hi[a]; d > 0 {
			s += d * d
		}
	}
	return s/4 - havMargin
}

// frame is a node waiting on a search's stack, with its lower bound.
type frame struct {
	node, lo, hi int
	lb           float64
}

// maxDepth bounds the depth of the tree (2^60 points would not fit).
const maxDepth = 64

// within appends to hits every point within radiusKm of `from`, in no
// particular order.
func (t *kdTree) within(from *point, radiusKm float64, hits []hit) []hit {
	r := newRadius(radiusKm)
	hits, _ = t.withinRadius(from, &r, hits, -1)
	return hits
}

// withinRadius is within for a radius already worked out. With limit ≥ 0,
// it gives up once it has appended more than limit hits (it may append up
// to leafSize more) and reports false: the caller searches again with
// room for them all.
func (t *kdTree) withinRadius(from *point, r *radius, hits []hit, limit int) ([]hit, bool) {
	if len(t.points) == 0 {
		return hits, true
	}
	if limit >= 0 {
		limit += len(hits)
	}
	v := from.vec()
	maxHav := r.outer
	var stack [maxDepth]frame
	sp := 0
	if lb := t.lowerBound(0, &v); lb <= maxHav {
		stack[0] = frame{0, 0, len(t.points), lb}
		sp = 1
	}
	for sp > 0 {
		sp--
		f := stack[sp]
		if f.hi-f.lo <= leafSize {
			if limit >= 0 && len(hits) > limit {
				return hits, false
			}
			for k := f.lo; k < f.hi; k++ {
				q := &t.points[k]
				if h := from.hav(q); r.holds(h) {
					hits = append(hits, hit{h, q.rank, q.atm})
				}
			}
			continue
		}
		mid := f.lo + (f.hi-f.lo)/2
		if c := 2*f.node + 1; t.lowerBound(c, &v) <= maxHav {
			stack[sp] = frame{c, f.lo, mid, 0}
			sp++
		}
		if c := 2*f.node + 2; t.lowerBound(c, &v) <= maxHav {
			stack[sp] = frame{c, mid, f.hi, 0}
			sp++
		}
	}
	return hits, limit < 0 || len(hits) <= limit
}

// nearest appends to hits[:0] the k points nearest to `from` (by distance,
// then rank) within radiusKm, in that order. It searches
// depth first, the nearer half first, keeping the best k found in a max-heap
// (heap[0] the worst of them), and skips every node that cannot hold a
// point better than the worst kept once k are.
func (t *kdTree) nearest(from *point, radiusKm float64, k int, hits []hit) []hit {
	heap := hits[:0]
	if len(t.points) == 0 || k <= 0 {
		return heap
	}
	v := from.vec()
	r := newRadius(radiusKm)
	// bound is the largest haversine a point may have to be kept: the
	// radius's, then, once k are kept, the worst's (with room for a tie).
	bound := r.outer
	var stack [maxDepth]frame
	sp := 0
	if lb := t.lowerBound(0, &v); lb <= bound {
		stack[0] = frame{0, 0, len(t.points), lb}
		sp = 1
	}
	for sp > 0 {
		sp--
		f := stack[sp]
		if f.lb > bound {
			continue
		}
		if f.hi-f.lo <= leafSize {
			for j := f.lo; j < f.hi; j++ {
				q := &t.points[j]
				h := hit{from.hav(q), q.rank, q.atm}
				if h.hav > bound || !r.holds(h.hav) {
					continue
				}
				if len(heap) < k {
					heap = append(heap, h)
					siftUp(heap, len(heap)-1)
				} else if h.before(heap[0]) {
					heap[0] = h
					siftDown(heap, 0)
				} else {
					continue
				}
				if len(heap) == k {
					bound = min(bound, heap[0].hav*(1+2*tieRange))
				}
			}
			continue
		}
		mid := f.lo + (f.hi-f.lo)/2
		near := frame{2*f.node + 1, f.lo, mid, 0}
		far := frame{2*f.node + 2, mid, f.hi, 0}
		near.lb, far.lb = t.lowerBound(near.node, &v), t.lowerBound(far.node, &v)
		if far.lb < near.lb {
			near, far = far, near
		}
		// The stack is last in, first out: the nearer half goes on top.
		if far.lb <= bound {
			stack[sp] = far
			sp++
		}
		if near.lb <= bound {
			stack[sp] = near
			sp++
		}
	}
	sortHits(heap)
	return heap
}

// siftUp and siftDown keep h a max-heap by hit.before.
func siftUp(h []hit, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h[p].before(h[i]) {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func siftDown(h []hit, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h[c].before(h[c+1]) {
			c++
		}
		if !h[i].before(h[c]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

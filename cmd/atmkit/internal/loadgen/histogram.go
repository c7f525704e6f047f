package loadgen

import (
	"math"
	"math/bits"
	"time"
)

// subBits sets the histogram's precision: 2^subBits buckets per power of two,
// so a recorded value is known to within 1/64 (about 1.6 %).
const subBits = 6

const nBuckets = (64 - subBits + 1) << subBits

// Histogram counts durations in logarithmic buckets of bounded relative
// error. Histograms of several workers or runs merge exactly. The zero value
// is empty and ready to use; a Histogram is not safe for concurrent use.
type Histogram struct {
	counts [nBuckets]uint64
	n      uint64
	sum    time.Duration
	max    time.Duration
}

func bucketOf(v uint64) int {
	if v < 1<<subBits {
		return int(v)
	}
	shift := bits.Len64(v) - subBits - 1
	return (shift+1)<<subBits + int(v>>shift) - 1<<subBits
}

// bucketValue is the middle of a bucket's range.
func bucketValue(i int) uint64 {
	if i < 1<<subBits {
		return uint64(i)
	}
	shift := i>>subBits - 1
	low := uint64(i&(1<<subBits-1)+1<<subBits) << shift
	return low + (uint64(1)<<shift)/2
}

// Record adds one duration; negative durations count as zero.
func (h *Histogram) Record(d time.Duration) {
	if d < 0 {
		d = 0
	}
	h.counts[bucketOf(uint64(d))]++
	h.n++
	h.sum += d
	if d > h.max {
		h.max = d
	}
}

// Merge adds every count of o to h.
func (h *Histogram) Merge(o *Histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	h.sum += o.sum
	if o.max > h.max {
		h.max = o.max
	}
}

// Count is the number of durations recorded.
func (h *Histogram) Count() uint64 { return h.n }

// Max is the largest duration recorded, exactly.
func (h *Histogram) Max() time.Duration { return h.max }

// Mean is the mean duration recorded, exactly.
func (h *Histogram) Mean() time.Duration {
	if h.n == 0 {
		return 0
	}
	return h.sum / time.Duration(h.n)
}

// Quantile returns the duration at or below which a fraction q (0 to 1) of
// the recorded durations fall, to within the histogram's precision; 0 if
// empty. It is the nearest rank: the ceil(q*n)-th smallest of n, so that
// the p99 of 170 durations is the 169th (168 are only 98.8 % of them).
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	// The tolerance keeps a product that is an integer but for float
	// rounding (0.99*n) from taking the next rank.
	rank := uint64(math.Ceil(q*float64(h.n) - 1e-9))
	if rank < 1 {
		rank = 1
	}
	if rank > h.n {
		rank = h.n
	}
	var seen uint64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			v := time.Duration(bucketValue(i))
			if v > h.max {
				v = h.max
			}
			return v
		}
	}
	return h.max
}

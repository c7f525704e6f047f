package asmx

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestShortDecimalReadsAsParseFloat: the short decimals read without
// strconv give the very float64 strconv.ParseFloat gives, and every other
// form is left to it.
func TestShortDecimalReadsAsParseFloat(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	nums := []string{"0", "-0", "+0", "0.0", "-0.0", ".5", "5.", "46.1368", "-60.1942", "999999999999999",
		"0.00000000000001", "123456789.012345", "-90", "180.000000000000"}
	for range 20000 {
		digits := 1 + rng.IntN(15)
		b := []byte{}
		if rng.IntN(3) == 0 {
			b = append(b, "-+"[rng.IntN(2)])
		}
		point := rng.IntN(digits + 1)
		for i := range digits {
			if i == point && rng.IntN(4) > 0 {
				b = append(b, '.')
			}
			b = append(b, byte('0'+rng.IntN(10)))
		}
		nums = append(nums, string(b))
	}
	for _, num := range nums {
		got, ok := shortDecimal(num)
		if !ok {
			t.Errorf("%q: not read as a short decimal", num)
			continue
		}
		want, err := strconv.ParseFloat(num, 64)
		if err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("%q: got %v, want %v (%v)", num, got, want, err)
		}
	}
	for _, num := range []string{"", "-", ".", "1e5", "1.2.3", "1234567890123456", "0.1234567890123456", "1,000", "Infinity"} {
		if _, ok := shortDecimal(num); ok {
			t.Errorf("%q: read as a short decimal, want it left to strconv", num)
		}
	}
}

package mockserver

import (
	"math"
	"strconv"
	"testing"
)

// TestAppendFixed: a fixed:N value is written as .NET Framework's
// ToString("FN") writes it (15 significant digits, a float's 7, rounded
// half away from zero; no sign when every digit rounds away), the texts
// Mono 6.8 writes too; strconv's exact 'f' form wrote -0.00 for negative
// zero and for -0.001, 0.12 for 0.125 and 2.67 for 2.675.
func TestAppendFixed(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		f        float64
		decimals int
		bits     int
		want     string
	}{
		{math.Copysign(0, -1), 2, 64, "0.00"},
		{-0.001, 2, 64, "0.00"},
		{-0.004, 2, 64, "0.00"},
		{-0.005, 2, 64, "-0.01"},
		{-0.4, 2, 64, "-0.40"},
		{-0.4, 0, 64, "0"},
		{-0.5, 0, 64, "-1"},
		{-1.234, 0, 64, "-1"},
		{0.001, 2, 64, "0.00"},
		{0, 2, 64, "0.00"},
		{0, 0, 64, "0"},
		{0.125, 2, 64, "0.13"},
		{-0.125, 2, 64, "-0.13"},
		{2.675, 2, 64, "2.68"},
		{1.005, 2, 64, "1.01"},
		{0.045, 1, 64, "0.0"},
		{0.5, 0, 64, "1"},
		{2.5, 0, 64, "3"},
		{9.995, 2, 64, "10.00"},
		{99.995, 0, 64, "100"},
		{1.0000000000000002, 2, 64, "1.00"},
		{1e21, 2, 64, "1000000000000000000000.00"},
		{123456789012345678, 1, 64, "123456789012346000.0"},
		{0.1, 15, 64, "0.100000000000000"},
		{1e-20, 2, 64, "0.00"},
		{45.4215296, 6, 64, "45.421530"},
		{-75.6971931, 3, 64, "-75.697"},
		{3, 2, 64, "3.00"},
		{0.125, 2, 32, "0.13"},
		{float64(float32(2.675)), 2, 32, "2.68"},
		{16777216, 2, 32, "16777220.00"},
		{float64(float32(0.3)), 10, 32, "0.3000000000"},
		{float64(float32(-0.001)), 2, 32, "0.00"},
	} {
		if got := string(appendFixed(nil, tt.f, tt.decimals, tt.bits)); got != tt.want {
			t.Errorf("appendFixed(%s, %d, %d): got %q, want %q", strconv.FormatFloat(tt.f, 'g', -1, 64), tt.decimals, tt.bits, got, tt.want)
		}
	}
}

package bench

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzParseSizes reads any text as --replay-sizes (and --atms-sizes, the
// same reader): a usage error naming the flag, or at least two sizes from
// 1 to the most, smallest first, each once, which read back the same when
// written comma-separated; never a panic.
func FuzzParseSizes(f *testing.F) {
	for _, s := range []string{"", "10,100", " 1 , 2,2", "3", "0,5", "1,1000001", "+5,05", "a,b", ",", "9223372036854775808,1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseSizes("--replay-sizes", s, DefaultReplaySizes, "counts of interactions", maxReplaySize)
		if err != nil {
			var ue *UsageError
			if !errors.As(err, &ue) || !strings.HasPrefix(err.Error(), "--replay-sizes ") {
				t.Fatalf("%q: %v: want a usage error naming the flag", s, err)
			}
			return
		}
		if len(got) < 2 || got[0] < 1 || got[len(got)-1] > maxReplaySize {
			t.Fatalf("%q: got %v", s, got)
		}
		text := make([]string, len(got))
		for i, n := range got {
			if i > 0 && n <= got[i-1] {
				t.Fatalf("%q: got %v, not smallest first each once", s, got)
			}
			text[i] = strconv.Itoa(n)
		}
		again, err := parseSizes("--replay-sizes", strings.Join(text, ","), "", "counts of interactions", maxReplaySize)
		if err != nil || !slices.Equal(again, got) {
			t.Fatalf("%q: got %v, read back as %v, %v", s, got, again, err)
		}
	})
}

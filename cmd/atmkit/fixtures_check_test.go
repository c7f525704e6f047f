package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/fixtures"
)

// TestFixturesCheckSaysItIsReading: a check of a large data set says on
// stderr what it reads before the seconds it takes (a million ATMs: 434 MB,
// seconds of silence before), as serve and bench do; a small one says
// nothing there.
func TestFixturesCheckSaysItIsReading(t *testing.T) {
	t.Parallel()
	for _, n := range []int{300, fixtures.LargeATMs} {
		dir := filepath.Join(t.TempDir(), "data")
		if code, _, errOut := runFixturesCmd(t, nil, "fixtures", "generate", "--seed", "4", "--atms", strconv.Itoa(n), "--out", dir); code != 0 {
			t.Fatalf("generate: got exit %d; stderr %q", code, errOut)
		}
		if !fixtures.IsLarge(dir) == (n >= fixtures.LargeATMs) {
			t.Fatalf("IsLarge(%d ATMs) = %v", n, fixtures.IsLarge(dir))
		}
		code, _, errOut := runFixturesCmd(t, nil, "fixtures", "check", dir)
		if code != 0 {
			t.Fatalf("check: got exit %d; stderr %q", code, errOut)
		}
		want := "atmkit fixtures check: reading " + dir + " ("
		if got := strings.Contains(errOut, want); got != (n >= fixtures.LargeATMs) {
			t.Errorf("%d ATMs: got stderr %q, want it to contain %q: %v", n, errOut, want, n >= fixtures.LargeATMs)
		}
	}
}

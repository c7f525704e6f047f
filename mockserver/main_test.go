package mockserver

import (
	"os"
	"testing"

	"github.com/atmkit/atmkit/internal/mocktest"
)

// TestMain lets more tests run at once than one per CPU: many of them wait
// (for clients giving up, delays, stalled requests, client programs) while
// others compute.
func TestMain(m *testing.M) {
	mocktest.MoreParallel(4)
	os.Exit(m.Run())
}

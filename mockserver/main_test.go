package mockserver

import (
	"os"
	"testing"

	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
)

// TestMain lets more tests run at once than one per CPU: many of them wait
// (for clients giving up, delays, stalled requests, client programs) while
// others compute. It stops the reference deployment the tests shared, if
// one was started, once they have run.
func TestMain(m *testing.M) {
	mocktest.MoreParallel(4)
	code := m.Run()
	refdeploy.StopShared()
	os.Exit(code)
}

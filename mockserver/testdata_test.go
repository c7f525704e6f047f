package mockserver

import (
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// smallDataset is a hand-made data set whose distances are easy to reason
// about (mocktest.SmallDataset).
func smallDataset() *fixtures.Dataset { return mocktest.SmallDataset() }

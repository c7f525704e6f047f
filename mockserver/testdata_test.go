package mockserver

import (
	"fmt"

	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// smallDataset is a hand-made data set whose distances are easy to reason
// about (mocktest.SmallDataset), read with fixtures' own loader: a fresh
// copy each call, which a test may change.
func smallDataset() *fixtures.Dataset {
	ds, err := fixtures.LoadFS(mocktest.SmallDataset())
	if err != nil {
		panic(fmt.Sprintf("the small data set: %v", err))
	}
	return ds
}

package asmx

import (
	"slices"
	"testing"

	"github.com/atmkit/atmkit/internal/opnames"
)

// TestOperationsInDocumentOrder: the operation table lists the eight
// operations of internal/opnames (which package shape lists too), in its
// order.
func TestOperationsInDocumentOrder(t *testing.T) {
	var got []string
	for _, op := range Operations() {
		got = append(got, op.Name)
	}
	if want := opnames.All(); !slices.Equal(got, want) {
		t.Errorf("operations: got %v, want %v", got, want)
	}
}

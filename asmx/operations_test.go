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

// TestCallsHoldEveryOperationsParameters: a call is one allocation when
// its operation takes at most maxParams parameters, as every one does.
func TestCallsHoldEveryOperationsParameters(t *testing.T) {
	for _, op := range Operations() {
		if len(op.Params) > maxParams {
			t.Errorf("%s takes %d parameters, more than maxParams (%d)", op.Name, len(op.Params), maxParams)
		}
		if c := newCall(op, SOAP11); len(c.Values) != len(op.Params) || len(c.Present) != len(op.Params) {
			t.Errorf("%s: got %d values and %d present, want %d", op.Name, len(c.Values), len(c.Present), len(op.Params))
		}
	}
}

package conformance

import (
	"fmt"
	"net/http"

	"github.com/atmkit/atmkit/mockserver"
)

// mockKey is the key the in-process mock accepts.
const mockKey = "conformance-key"

// newMock returns the in-process target used when no -target is given: the
// mock with its embedded default data set. This is the package's only use of
// mockserver; the checks share no code with it.
func newMock() (http.Handler, error) {
	h, err := mockserver.New(mockserver.WithKeys(mockKey))
	if err != nil {
		return nil, fmt.Errorf("mock server: %w", err)
	}
	return h, nil
}

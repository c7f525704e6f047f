package conformance

import (
	"net/http"
	"testing"
)

// mockKey is the key the in-process mock accepts.
const mockKey = "conformance-key"

// newMock returns the in-process target used when no -target is given.
func newMock(t testing.TB) http.Handler {
	return newAltServer("http://tempuri.org/atmService", mockKey, true)
}

package conformance

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/atmkit/atmkit/mockserver"
)

// mockKey is the key the in-process mock accepts.
const mockKey = "conformance-key"

// newMock returns the in-process target used when no -target is given: the
// mock with its embedded default data set. This is the package's only use
// of mockserver (deviations_test.go breaks it with package deviate); the
// checks share no code with either.
func newMock() (http.Handler, error) {
	h, err := mockserver.New(mockserver.WithKeys(mockKey))
	if err != nil {
		return nil, fmt.Errorf("mock server: %w", err)
	}
	return h, nil
}

// shared is the one mock of the test binary, served over loopback, and the
// session that checked it (answers cached), shared by the bootstrap and the
// self-tests so the 2,000-ATM answers are fetched and parsed once.
var shared struct {
	once    sync.Once
	handler http.Handler
	srv     *httptest.Server
	session *Session
	err     error
}

// sharedMock starts (once) the shared mock.
func sharedMock() (http.Handler, *Session, error) {
	shared.once.Do(func() {
		if shared.handler, shared.err = newMock(); shared.err != nil {
			return
		}
		shared.srv = httptest.NewServer(shared.handler)
		shared.session, shared.err = NewSession(Config{Target: shared.srv.URL, Key: mockKey})
	})
	return shared.handler, shared.session, shared.err
}

// closeSharedMock stops the shared mock's listener, if it was started.
func closeSharedMock() {
	if shared.srv != nil {
		shared.srv.Close()
	}
}

package conformance

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/mockserver"
)

// mockKey is the key the in-process mock accepts.
const mockKey = "conformance-key"

// newMock returns the in-process target used when no -target is given: the
// mock with its embedded default data set. The test bootstrap (this file,
// and shape_test.go for a mock in a shape) is the package's only use of
// mockserver (deviations_test.go breaks it with package deviate); the checks
// share no code with either.
func newMock() (http.Handler, error) {
	h, err := mockserver.New(mockserver.WithKeys(mockKey))
	if err != nil {
		return nil, fmt.Errorf("mock server: %w", err)
	}
	return h, nil
}

// selfTestDataset is the data set of the self-tests' mocks: 300 generated
// ATMs, with every kind of location the specs look for (five around
// Halifax, institutions with and without locations there), in answers a
// seventh the size of the embedded set's. The self-tests check the suite,
// not the mock's data; the bootstrap checks the mock with its embedded set.
var selfTestDataset = sync.OnceValues(func() (*fixtures.Dataset, error) {
	return fixtures.Generate(fixtures.GenerateOptions{Seed: 1, ATMs: 300})
})

// newSelfTestMock returns the mock on selfTestDataset with opts.
func newSelfTestMock(opts ...mockserver.Option) (http.Handler, error) {
	ds, err := selfTestDataset()
	if err != nil {
		return nil, fmt.Errorf("self-test data set: %w", err)
	}
	h, err := mockserver.New(append([]mockserver.Option{mockserver.WithDataset(ds), mockserver.WithKeys(mockKey)}, opts...)...)
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

// closeSharedMock stops the listeners of the shared mock and of the
// self-tests' reference mock, if they were started.
func closeSharedMock() {
	if shared.srv != nil {
		shared.srv.Close()
	}
	if reference.srv != nil {
		reference.srv.Close()
	}
}

package conformance

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

var _ = Describe("finding a city id", Label("selftest"), func() {
	It("probes intCityID several at a time, and finds the first id with locations", func() {
		mock, _, _ := referenceMock()
		// The first probe to arrive is held until a second probe arrives
		// while it waits, or for five seconds: a suite probing one id at a
		// time never sends a second. (Not intCityID=1's alone: the batch's
		// goroutines may reach the server in any order, and on a loaded
		// machine id 1's came after the others had been answered.)
		var (
			mu       sync.Mutex
			inFlight int
			arrived  bool
			together bool
			two      = make(chan struct{})
		)
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			probe := strings.HasSuffix(r.URL.Path, "/"+opByCity) || strings.Contains(r.Header.Get("SOAPAction"), opByCity)
			if probe {
				mu.Lock()
				inFlight++
				if inFlight == 2 && !together {
					together = true
					close(two)
				}
				first := !arrived
				arrived = true
				mu.Unlock()
				if first {
					select {
					case <-two:
					case <-time.After(5 * time.Second):
					}
				}
				defer func() { mu.Lock(); inFlight--; mu.Unlock() }()
			}
			mock.ServeHTTP(w, r)
		}))
		DeferCleanup(srv.Close)
		s, err := NewSession(Config{Target: srv.URL, Key: mockKey, Namespace: mockNS})
		Expect(err).NotTo(HaveOccurred())
		f, err := s.Facts()
		Expect(err).NotTo(HaveOccurred())
		mu.Lock()
		defer mu.Unlock()
		Expect(together).To(BeTrue(), "no two intCityID probes were in flight together")
		// The embedded data set's first city is 101: ids 1 to 100, then
		// 101 in the middle of a batch, give the id a probe one by one finds.
		Expect(f.CityIDs).To(Equal([]int{101}))
		Expect(f.CityNote).To(Equal("found by probing intCityID from 1 to 101"))
	})
})

package verify_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes/verify"
)

// recordMany records n distinct coordinate searches of the deployment at
// base, the five bindings round robin, through the recording proxy.
func recordMany(tb testing.TB, base string, n int) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), fmt.Sprintf("many-%d.yaml", n))
	rec, proxy := recordingProxy(tb, base, path)
	bindings := append(append([]asmx.Binding(nil), asmx.XMLBindings...), asmx.JSON)
	for k := range n {
		q := query{Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{"strPostalCode", ""},
			{"dblLatitude", fmt.Sprintf("44.%04d", 6000+k)}, {"dblLongitude", "-63.5752"}, {"bytRadius", "5"}}}
		if status, body := do(tb, proxy.Client(), request(tb, proxy.URL, bindings[k%len(bindings)], q, testKey)); status != 200 {
			tb.Fatalf("record %d: status %d: %s", k, status, body)
		}
	}
	proxy.Close()
	if err := rec.Stop(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkVerify verifies a cassette of 1,000 recorded calls (real
// answers of the mock, every binding) against the mock, one request at a
// time and four at a time, the mock answering at once or after 5ms (a
// deployment's latency): one op is the whole run.
func BenchmarkVerify(b *testing.B) {
	up, _ := standIn(b)
	path := recordMany(b, up.URL, 1000)
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(5 * time.Millisecond)
		up.Config.Handler.ServeHTTP(w, r)
	}))
	defer slow.Close()
	for _, latency := range []struct {
		name string
		url  string
	}{{"0", up.URL}, {"5ms", slow.URL}} {
		for _, conc := range []int{1, 4} {
			b.Run(fmt.Sprintf("interactions=1000/latency=%s/concurrency=%d", latency.name, conc), func(b *testing.B) {
				for b.Loop() {
					r, err := verify.Run(context.Background(), []string{path}, verify.Options{
						Upstream: latency.url, Key: testKey, Concurrency: conc})
					if err != nil || r.Count(verify.Same) != 1000 {
						b.Fatalf("err %v, %d same", err, r.Count(verify.Same))
					}
				}
			})
		}
	}
}

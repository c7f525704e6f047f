package recorded

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// BenchmarkSweepLarge sweeps a key and two secrets (one holding the key)
// from a 24 MB cassette of 2,000 interactions whose answers hold escapes
// and a run of the key's, but neither: what a Recorder's sweep of a key
// noted late, and cassette scrub, cost on a big cassette.
func BenchmarkSweepLarge(b *testing.B) {
	const key, n = "s3cr3t-KEY-4242", 2000
	secrets := []string{"s3cr3t-KEY-4242-partner9", "Key s3cr3t-KEY-4242"}
	body := strings.Repeat("<Atm><Name>Branch 4242 &amp; Co</Name><Note>a\\/b %2F</Note></Atm>\n", 12<<10/66)
	list := make([]*cassette.Interaction, n)
	b.SetBytes(int64(n * len(body)))
	for b.Loop() {
		b.StopTimer()
		for j := range list {
			list[j] = &cassette.Interaction{
				Request:  cassette.Request{Method: "GET", URL: fmt.Sprintf("http://upstream.example/service.asmx/ReturnProvinces?n=%d", j), Headers: http.Header{}},
				Response: cassette.Response{Code: 200, Status: "200 OK", Headers: http.Header{"Content-Type": {"text/xml; charset=utf-8"}}, Body: body},
			}
		}
		b.StartTimer()
		for _, i := range list {
			SweepInteraction(i, Placeholder, append([]string{key}, secrets...)...)
		}
	}
}

package cassettes_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// syntheticCassette writes a cassette of n recorded ReturnAtmSearchByCity
// calls (intCityID 0..n-1) in the four XML bindings, round robin.
func syntheticCassette(tb testing.TB, n int) string {
	tb.Helper()
	list := make([]*cassette.Interaction, n)
	for id := 0; id < n; id++ {
		q := query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", strconv.Itoa(id)}}}
		b := asmx.XMLBindings[id%4]
		req := request(tb, "http://upstream", b, q, cassettes.Placeholder, false)
		var body string
		if req.Body != nil {
			raw, _ := readAll(req)
			body = string(raw)
		}
		node := fmt.Sprintf("<atmLocations>\n  <count>1</count>\n  <locations>\n    <location>\n      <id>%d</id>\n    </location>\n  </locations>\n</atmLocations>", id)
		var resp []byte
		if b.IsSOAP() {
			resp = asmx.AppendSOAPResponse(nil, b, asmx.DefaultNamespace, q.Op, []byte(node))
		} else {
			resp = asmx.AppendXMLDocument(nil, []byte(node))
		}
		list[id] = &cassette.Interaction{
			Request:  cassette.Request{Method: req.Method, URL: req.URL.String(), Headers: req.Header, Body: body},
			Response: cassette.Response{Code: 200, Status: "200 OK", Body: string(resp), Headers: http.Header{"Content-Type": {asmx.ContentType(b)}}},
		}
	}
	path := filepath.Join(tb.TempDir(), fmt.Sprintf("synthetic-%d.yaml", n))
	writeCassette(tb, path, list)
	return path
}

// TestIndexLarge indexes and serves a cassette of 10,000 interactions
// (1,000 under the race detector, which makes each of them many times
// slower: 10,000 took two minutes of a loaded CI machine, and the size is
// not what the race detector checks).
func TestIndexLarge(t *testing.T) {
	t.Parallel()
	n := 10_000
	if mocktest.Race {
		n = 1_000
	}
	path := syntheticCassette(t, n)
	start := time.Now()
	idx, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("indexed %d interactions in %s", n, time.Since(start).Round(time.Millisecond))
	if st := idx.Stats(); st.Calls != n || st.Answers != n || st.KeyRejections != 0 {
		t.Fatalf("stats %+v", st)
	}
	h, _ := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault))
	for _, id := range []int{0, n/2 - 1, n - 1} {
		q := query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", strconv.Itoa(id)}}}
		for _, b := range asmx.XMLBindings {
			rr := httptest.NewRecorder()
			h.ServeHTTP(rr, request(t, "http://x", b, q, "k", true))
			if vs := values(t, b, rr.Body.String()); rr.Code != 200 || vs[len(vs)-1] != "/atmLocations/locations/location/id="+strconv.Itoa(id) {
				t.Fatalf("%s id %d: status %d, values %q", b, id, rr.Code, vs)
			}
		}
	}
}

// BenchmarkReplayMatch looks up calls in an index of 10,000 interactions.
func BenchmarkReplayMatch(b *testing.B) {
	benchReplay(b, 10_000)
}

// BenchmarkReplaySize compares lookups in cassettes of 10 and 10,000
// interactions: the index makes them cost the same.
func BenchmarkReplaySize(b *testing.B) {
	for _, n := range []int{10, 10_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) { benchReplay(b, n) })
	}
}

func benchReplay(b *testing.B, n int) {
	idx, err := cassettes.LoadIndex([]string{syntheticCassette(b, n)})
	if err != nil {
		b.Fatal(err)
	}
	op, _ := asmx.LookupOperation(asmx.OpReturnAtmSearchByCity)
	calls := make([]*asmx.Call, 64)
	for j := range calls {
		c, e := asmx.NewCall(op, asmx.XMLBindings[j%4], map[string]string{asmx.ParamKey: "k", asmx.ParamCityID: strconv.Itoa(j * n / len(calls))})
		if e != nil {
			b.Fatal(e)
		}
		calls[j] = c
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok, _ := idx.Replay(context.Background(), calls[i%len(calls)]); !ok {
			b.Fatal("miss")
		}
	}
}

// BenchmarkReplayServe serves whole GET requests from the 10-interaction
// and the 10,000-interaction cassette through the mock server.
func BenchmarkReplayServe(b *testing.B) {
	for _, n := range []int{10, 10_000} {
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			idx, err := cassettes.LoadIndex([]string{syntheticCassette(b, n)})
			if err != nil {
				b.Fatal(err)
			}
			h, _ := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault))
			reqs := make([]*http.Request, 64)
			for j := range reqs {
				q := query{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", strconv.Itoa(j * n / len(reqs))}}}
				reqs[j] = request(b, "http://x", asmx.HTTPGet, q, "k", false)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rr := httptest.NewRecorder()
				h.ServeHTTP(rr, reqs[i%len(reqs)])
				if rr.Code != 200 {
					b.Fatalf("status %d", rr.Code)
				}
			}
		})
	}
}

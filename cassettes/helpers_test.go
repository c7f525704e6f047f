package cassettes_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cassettes/internal/recordtest"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/beevik/etree"
)

// The helpers shared with cassettes/verify's tests: the key sent, the
// stand-in deployment (plain or gzipping), the questions and the requests
// asking them (and plain GETs), the recording proxy, reading and writing
// a cassette, and the check that a cassette holds no key.
const testKey = recordtest.Key

type query = recordtest.Query

var (
	standIn        = recordtest.StandIn
	queries        = recordtest.Queries
	do             = recordtest.Do
	mustGet        = recordtest.MustGet
	recordingProxy = recordtest.RecordingProxy
	gzipStandIn    = recordtest.GzipStandIn
	readCassette   = recordtest.ReadCassette
	writeCassette  = recordtest.WriteCassette
	assertNoKey    = recordtest.AssertNoKey
)

// request writes q as a request of binding b to base, with key (see
// recordtest.Request for variant).
func request(t testing.TB, base string, b asmx.Binding, q query, key string, variant bool) *http.Request {
	t.Helper()
	return recordtest.Request(t, base, asmx.DefaultNamespace, b, q, key, variant)
}

// requestNS is request to a service whose namespace is ns.
var requestNS = recordtest.Request

// values returns the texts of the result node's leaf elements, in
// document order, with their paths: what a client reads from an answer,
// whatever envelope it came in.
func values(t testing.TB, b asmx.Binding, body string) []string {
	t.Helper()
	doc := etree.NewDocument()
	if err := doc.ReadFromString(body); err != nil {
		t.Fatalf("answer does not parse: %v\n%s", err, body)
	}
	node := doc.Root()
	if b.IsSOAP() {
		node = doc.FindElement("//Body/*/*/*")
		if node == nil {
			t.Fatalf("no result node in\n%s", body)
		}
	}
	var out []string
	var walk func(e *etree.Element, path string)
	walk = func(e *etree.Element, path string) {
		path += "/" + e.Tag
		kids := e.ChildElements()
		if len(kids) == 0 {
			out = append(out, path+"="+e.Text())
		}
		for _, k := range kids {
			walk(k, path)
		}
	}
	walk(node, "")
	return out
}

// onMissServer starts a mock server replaying an empty index that
// forwards what it misses to up, as serve --on-miss upstream does, with
// mockserver opts after the replay. The caller closes both, in its order.
func onMissServer(t testing.TB, up cassettes.Upstream, opts ...mockserver.Option) (*cassettes.Index, *httptest.Server) {
	t.Helper()
	idx, err := cassettes.LoadIndex(nil, cassettes.WithUpstream(up))
	if err != nil {
		t.Fatal(err)
	}
	h, err := mockserver.New(append([]mockserver.Option{mockserver.WithReplay(idx, mockserver.MissFault)}, opts...)...)
	if err != nil {
		_ = idx.Close()
		t.Fatal(err)
	}
	return idx, httptest.NewServer(h)
}

// smallStandIn starts a stand-in deployment serving a generated data set
// of 50 ATMs (seed 7) with opts, and returns the data set, the mock (for
// its journal) and its server, closed when the test ends.
func smallStandIn(t testing.TB, opts ...mockserver.Option) (*fixtures.Dataset, *mockserver.Server, *httptest.Server) {
	t.Helper()
	ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 7, ATMs: 50})
	if err != nil {
		t.Fatal(err)
	}
	h, err := mockserver.New(append([]mockserver.Option{mockserver.WithDataset(ds)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return ds, h, srv
}

// replayServer starts a mock replaying the cassettes at paths, read with
// ixOpts, that answers a miss with a fault; opts are more of its options.
// It is closed when the test ends.
func replayServer(t testing.TB, paths []string, ixOpts []cassettes.IndexOption, opts ...mockserver.Option) *httptest.Server {
	t.Helper()
	idx, err := cassettes.LoadIndex(paths, ixOpts...)
	if err != nil {
		t.Fatal(err)
	}
	h, err := mockserver.New(append([]mockserver.Option{mockserver.WithReplay(idx, mockserver.MissFault)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

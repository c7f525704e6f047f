package cassettes_test

import (
	"net/http"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes/internal/recordtest"
	"github.com/beevik/etree"
)

// The helpers shared with cassettes/verify's tests: the key sent, the
// stand-in deployment, the questions and the requests asking them.
const testKey = recordtest.Key

type query = recordtest.Query

var (
	standIn = recordtest.StandIn
	queries = recordtest.Queries
	do      = recordtest.Do
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

package verify_test

import (
	"net/http"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes/internal/recordtest"
)

// The helpers shared with package cassettes' tests: the key sent, the
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

// request writes q as a request of binding b to base, with key.
func request(t testing.TB, base string, b asmx.Binding, q query, key string) *http.Request {
	t.Helper()
	return recordtest.Request(t, base, asmx.DefaultNamespace, b, q, key, false)
}

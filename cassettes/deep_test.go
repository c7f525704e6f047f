package cassettes_test

import (
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// TestRewrapRefusesDeepNesting: an answer recorded over SOAP whose result
// nests elements 200,000 levels deep, asked for over HTTP GET, is not
// re-wrapped (its content nests more than 10,000 levels) and the server
// lives on: the re-wrap walked it recursively, and a deep enough answer
// (a live answer may be 256 MB) took more stack than Go allows a
// goroutine, which kills the process. It runs alone, its stack bounded
// to 8 MB where Go's is 1 GB, so that 200,000 levels are deep enough.
func TestRewrapRefusesDeepNesting(t *testing.T) {
	if !mocktest.RunAlone(t, 2*time.Minute) {
		return
	}
	debug.SetMaxStack(8 << 20)
	const depth = 200_000
	q := query{Op: asmx.OpReturnProvinces}
	req := request(t, "http://upstream", asmx.SOAP11, q, cassettes.Placeholder, false)
	body, _ := readAll(req)
	node := strings.Repeat("<a>", depth) + strings.Repeat("</a>", depth)
	path := filepath.Join(t.TempDir(), "deep.yaml")
	writeCassette(t, path, []*cassette.Interaction{{
		Request: cassette.Request{Method: req.Method, URL: req.URL.String(), Headers: req.Header, Body: string(body)},
		Response: cassette.Response{Code: 200, Status: "200 OK", Headers: http.Header{"Content-Type": {asmx.ContentType(asmx.SOAP11)}},
			Body: string(asmx.AppendSOAPResponse(nil, asmx.SOAP11, asmx.DefaultNamespace, q.Op, []byte(node)))},
	}})
	idx, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	h, err := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault))
	if err != nil {
		t.Fatal(err)
	}
	rr := httptest.NewRecorder()
	h.ServeHTTP(rr, request(t, "http://x", asmx.HTTPGet, q, "k", false))
	if rr.Code != http.StatusInternalServerError || !strings.Contains(rr.Body.String(), "nest more than 10000 levels deep") {
		t.Errorf("got %d %.300q, want 500 saying its elements nest more than 10000 levels deep", rr.Code, rr.Body.String())
	}
}

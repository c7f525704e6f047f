package cassettes_test

import (
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/mockserver"
)

// TestUpstreamOnMiss: a replaying server forwards a call it has no
// recording of, records the episode into the cassette, and answers it;
// after the upstream is gone the episode still answers, in every XML binding.
func TestUpstreamOnMiss(t *testing.T) {
	up, _ := standIn(t)
	path := filepath.Join(t.TempDir(), "grow.yaml")
	idx, err := cassettes.LoadIndex(nil, cassettes.WithUpstream(up.URL, path, ""))
	if err != nil {
		t.Fatal(err)
	}
	h, _ := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault))
	srv := httptest.NewServer(h)
	defer srv.Close()
	q := query{asmx.OpReturnAtmSearchByInstitution, [][2]string{{"intInstitutionID", "3"}}}
	_, direct := do(t, up.Client(), request(t, up.URL, asmx.SOAP11, q, testKey, false))
	status, body := do(t, srv.Client(), request(t, srv.URL, asmx.SOAP11, q, testKey, false))
	if status != 200 || !slices.Equal(values(t, asmx.SOAP11, body), values(t, asmx.SOAP11, direct)) {
		t.Fatalf("forwarded: status %d\n%s", status, body)
	}
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}
	up.Close()
	assertNoKey(t, path)

	idx2, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := mockserver.New(mockserver.WithReplay(idx2, mockserver.MissFault))
	for _, b := range asmx.XMLBindings {
		rr := httptest.NewRecorder()
		h2.ServeHTTP(rr, request(t, "http://x", b, q, "k", false))
		if rr.Code != 200 || !slices.Equal(values(t, b, rr.Body.String()), values(t, asmx.SOAP11, direct)) {
			t.Fatalf("%s after recording: status %d\n%s", b, rr.Code, rr.Body)
		}
	}
}

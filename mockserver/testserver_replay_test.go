package mockserver_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/mockserver"
)

// TestNewTestServerReplay: a test server answers from cassettes loaded with
// package cassettes, and journals the misses.
func TestNewTestServerReplay(t *testing.T) {
	t.Parallel()
	ix, err := cassettes.LoadIndex([]string{"../cassettes/testdata/golden.yaml"})
	if err != nil {
		t.Fatalf("LoadIndex: %v", err)
	}
	t.Cleanup(func() { _ = ix.Close() })
	ts := mockserver.NewTestServer(t, mockserver.WithReplay(ix, mockserver.MissFault))

	get := func(op string) (int, string) {
		t.Helper()
		resp, err := http.Get(ts.ServiceURL() + "/" + op + "?strAtmServiceKey=k")
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, string(body)
	}
	if code, body := get(asmx.OpReturnProvinces); code != 200 || !strings.Contains(body, "<provinces>") {
		t.Errorf("recorded ReturnProvinces: got %d %.200q, want 200 with the recorded provinces", code, body)
	}
	if code, _ := get(asmx.OpReturnInstitutions); code != 500 {
		t.Errorf("unrecorded ReturnInstitutions: got status %d, want 500", code)
	}
	got := ts.Journal(mockserver.RequestFilter{})
	if len(got) != 2 || got[0].Error != "" || got[1].Error != asmx.KindNoRecording {
		t.Errorf("journal: got %+v, want a replayed call and a %s", got, asmx.KindNoRecording)
	}
}

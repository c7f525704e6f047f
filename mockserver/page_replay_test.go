package mockserver_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/mockserver"
)

// TestAdminInfoReplay: under replay, GET /__admin/info says so, and
// whether calls with no recording are answered from the data set (the
// page then says its cities and institutions are those fixtures, not the
// cassettes).
func TestAdminInfoReplay(t *testing.T) {
	t.Parallel()
	ix, err := cassettes.LoadIndex([]string{"../cassettes/testdata/golden.yaml"})
	if err != nil {
		t.Fatalf("LoadIndex: %v", err)
	}
	t.Cleanup(func() { _ = ix.Close() })
	for _, c := range []struct {
		miss mockserver.MissPolicy
		want bool
	}{{mockserver.MissFault, false}, {mockserver.MissFixtures, true}} {
		ts := mockserver.NewTestServer(t, mockserver.WithReplay(ix, c.miss))
		resp, err := http.Get(ts.URL + "/__admin/info")
		if err != nil {
			t.Fatal(err)
		}
		var info struct {
			Replay *struct {
				FixturesOnMiss bool `json:"fixturesOnMiss"`
			} `json:"replay"`
		}
		err = json.NewDecoder(resp.Body).Decode(&info)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /__admin/info: %d, %v", resp.StatusCode, err)
		}
		if info.Replay == nil || info.Replay.FixturesOnMiss != c.want {
			t.Errorf("miss policy %d: got replay %+v, want fixturesOnMiss %v", c.miss, info.Replay, c.want)
		}
	}
}

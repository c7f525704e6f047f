package mockserver_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/mocktest"
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

// TestAdminPageShowsSourceInChromium: under replay, an opened call's facts
// say where its answer came from, a recording (the cassette's file name
// and the interaction's id) or, for a call with no recording, the
// fixtures; the list shows the same in a Source column.
func TestAdminPageShowsSourceInChromium(t *testing.T) {
	t.Parallel()
	exe, missing := mockserver.ChromiumPath()
	mockserver.RequireClient(t, missing)
	ix, err := cassettes.LoadIndex([]string{"../cassettes/testdata/golden.yaml"})
	if err != nil {
		t.Fatalf("LoadIndex: %v", err)
	}
	t.Cleanup(func() { _ = ix.Close() })
	ts := mockserver.NewTestServer(t, mockserver.WithReplay(ix, mockserver.MissFixtures))
	// ReturnProvinces over GET is the golden cassette's interaction 2;
	// ReturnInstitutions is not recorded.
	for _, op := range []string{asmx.OpReturnProvinces, asmx.OpReturnInstitutions} {
		if status, _, _ := mocktest.Get(t, ts.ServiceURL()+"/"+op+"?strAtmServiceKey=page-source-key"); status != http.StatusOK {
			t.Fatalf("%s: got %d, want 200", op, status)
		}
	}
	want := map[string]string{"1": "golden.yaml#2", "2": mockserver.SourceFixtures}
	for _, e := range ts.Journal(mockserver.RequestFilter{}) {
		if got := e.Source; got != want[strconv.FormatUint(e.Seq, 10)] {
			t.Fatalf("journal entry %d (%s): source %q, want %q", e.Seq, e.Operation, got, want[strconv.FormatUint(e.Seq, 10)])
		}
	}

	ctx := mockserver.NewBrowser(t, exe)
	mockserver.WatchProblems(t, ctx)
	mockserver.Browse(t, ctx, "open the page", chromedp.Navigate(ts.URL+"/__admin/"), chromedp.WaitVisible(`#app`))
	mockserver.WaitUntil(t, ctx, "two calls listed", `document.querySelectorAll('#call-rows tr').length === 2`)
	rows := mockserver.BrowserValue(t, ctx, "read the rows", chromedp.Evaluate[[][]string](
		`[...document.querySelectorAll('#call-rows tr')].map((r) => [r.dataset.seq, r.dataset.source, r.querySelector('td.source').textContent,
			getComputedStyle(r.querySelector('td.source')).display])`))
	for _, r := range rows {
		if r[1] != want[r[0]] || r[2] != want[r[0]] || r[3] != "table-cell" {
			t.Errorf("row of call %s: got data-source %q, Source cell %q shown as %s; want %q shown", r[0], r[1], r[2], r[3], want[r[0]])
		}
	}
	facts := map[string]string{
		"1": "golden.yaml#2 (recorded: cassette golden.yaml, interaction 2)",
		"2": "fixtures (no recording matched: the data set answered)",
	}
	for _, seq := range []string{"1", "2"} {
		mockserver.Browse(t, ctx, "open call "+seq, chromedp.Click(`#call-rows tr[data-seq="`+seq+`"] button`))
		mockserver.WaitUntil(t, ctx, "call "+seq+" opened", `document.getElementById('call-title').textContent.startsWith('Call `+seq+`:')`)
		got := mockserver.BrowserValue(t, ctx, "read the source", chromedp.Evaluate[string](
			`(() => { const dt = [...document.querySelectorAll('#call-facts dt')].find((d) => d.textContent === 'source');
				return dt ? dt.nextElementSibling.textContent : '(no source fact)'; })()`))
		if got != facts[seq] {
			t.Errorf("call %s's source fact: got %q, want %q", seq, got, facts[seq])
		}
		mockserver.Screenshot(t, ctx, "source-"+seq)
	}
	mockserver.NoProblems(t, ctx)
}

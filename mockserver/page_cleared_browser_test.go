package mockserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/chromedp/chromedp"
)

// TestAdminPageSeesTheJournalClearedInChromium: a journal emptied from
// elsewhere (POST /__admin/reset from a test suite, DELETE
// /__admin/requests from another tab) is read anew by an open page, which
// says so: the calls it had listed stayed until a reload, beside the
// calls made after the clear, as if the journal still held them. The
// listing's cleared count tells.
func TestAdminPageSeesTheJournalClearedInChromium(t *testing.T) {
	t.Parallel()
	exe := requireChromium(t)
	ts := NewTestServer(t, WithDataset(smallDataset()))
	ctx := openAdminPage(t, exe, ts.URL)
	waitUntil(t, ctx, "the page goes live", `document.getElementById('state').textContent.startsWith('Live')`)
	provinces := func() {
		t.Helper()
		if st := call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")).status; st != http.StatusOK {
			t.Fatalf("a call: got %d", st)
		}
	}
	provinces()
	provinces()
	waitUntil(t, ctx, "the two calls listed", `document.querySelectorAll('#call-rows tr').length === 2`)

	if r := admin(t, "POST", ts.URL+"/__admin/reset", "", ""); r.status != http.StatusNoContent {
		t.Fatalf("POST /__admin/reset: got %d", r.status)
	}
	provinces() // seq 3, the journal's one call now
	waitUntil(t, ctx, "the call after the reset listed alone", `(() => { const r = [...document.querySelectorAll('#call-rows tr')];
		return r.length === 1 && r[0].dataset.seq === '3'; })()`)
	if got := browserValue(t, ctx, "read the status", chromedp.Text(`#calls-status`)); !strings.Contains(got, "journal was cleared") {
		t.Errorf("the calls' status: got %q, want it to say the journal was cleared", got)
	}

	// Emptied again, by DELETE: no call since, so the list is empty.
	if r := admin(t, "DELETE", ts.URL+"/__admin/requests", "", ""); r.status != http.StatusNoContent {
		t.Fatalf("DELETE /__admin/requests: got %d", r.status)
	}
	waitUntil(t, ctx, "the list emptied", `document.querySelectorAll('#call-rows tr').length === 0`)
	provinces()
	waitUntil(t, ctx, "the next call listed", `(() => { const r = [...document.querySelectorAll('#call-rows tr')];
		return r.length === 1 && r[0].dataset.seq === '4'; })()`)
	noProblems(t, ctx)
}

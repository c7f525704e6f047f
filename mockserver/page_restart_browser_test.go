package mockserver

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/chromedp/chromedp"
)

// TestAdminPageSeesARestartAheadInChromium: a mock started anew at the
// same address whose calls already count beyond the last one the page
// listed when it next polls (its lastSeq above the page's since, so the
// count going backwards tells nothing) is read anew too: the page listed
// the new mock's calls after that number below the old mock's, as if one
// mock had made them all. The listing's instance tells the mocks apart.
func TestAdminPageSeesARestartAheadInChromium(t *testing.T) {
	t.Parallel()
	exe := requireChromium(t)
	current, _, ctx := pageOnASwappableMock(t, exe, 2)

	// The second mock takes its 5 calls at an address of its own before it
	// takes the first's: the page's next poll (since=2) finds lastSeq 5.
	second, err := New(WithDataset(smallDataset()), WithFault(Fault{Operation: asmx.OpReturnInstitutions, Status: 503}))
	if err != nil {
		t.Fatal(err)
	}
	_, aside := serveAt(t, "127.0.0.1:0", second, time.Second)
	for range 5 {
		if st := call(t, aside, asmx.HTTPGet, asmx.OpReturnInstitutions, paramsFor(asmx.OpReturnInstitutions, "k")).status; st != http.StatusServiceUnavailable {
			t.Fatalf("a call to the second mock: got %d, want its fault's 503", st)
		}
	}
	current.Store(second)
	waitUntil(t, ctx, "the second mock's calls listed alone", `(() => { const r = [...document.querySelectorAll('#call-rows tr')];
		return r.length === 5 && r.every(x => x.dataset.operation === 'ReturnInstitutions' && x.dataset.fault === 'f1'); })()`)
	if got := browserValue(t, ctx, "read the status", chromedp.Text(`#calls-status`)); !strings.Contains(got, "started anew") {
		t.Errorf("the calls' status: got %q, want it to say the mock started anew", got)
	}
	noProblems(t, ctx)
}

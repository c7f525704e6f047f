package mockserver

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
)

// TestResetDropsCallsReceivedBefore: a call that arrived before a reset
// (POST /__admin/reset, DELETE /__admin/requests) but that a fault held
// back past it is not journaled after it: a suite that shares one mock
// and resets it between its tests, as WireMock's, found in the journal of
// its next test a call of the test before (journaled, with a fault the
// reset had removed, when its delay ended or its client gave up).
func TestResetDropsCallsReceivedBefore(t *testing.T) {
	t.Parallel()
	for _, reset := range []struct{ method, path string }{{"POST", "/reset"}, {"DELETE", "/requests"}} {
		t.Run(reset.method+reset.path, func(t *testing.T) {
			t.Parallel()
			ts := NewTestServer(t, WithDataset(smallDataset()))
			a := ts.URL + "/__admin"
			adminChecks(t, admin(t, "POST", a+"/faults", "", `{"operation":"ReturnProvinces","delay":"1h","times":1}`), hasStatus(201))

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				req, err := http.NewRequestWithContext(ctx, "GET", ts.URL+asmx.ServicePath+"/ReturnProvinces?strAtmServiceKey=k", nil)
				if err == nil {
					var resp *http.Response
					if resp, err = ts.Client().Do(req); err == nil {
						resp.Body.Close()
					}
				}
				done <- err
			}()
			for len(readAdminRequests(t, a+"/requests").Held) == 0 {
				time.Sleep(10 * time.Millisecond)
			}

			if c := readAdminRequests(t, a+"/requests").Cleared; c != 0 {
				t.Fatalf("cleared before the reset: got %d, want 0", c)
			}
			adminChecks(t, admin(t, reset.method, a+reset.path, "", ""), hasStatus(204))
			// The listing counts the clears: a page polling with since
			// reads its list anew (TestAdminPageSeesTheJournalClearedInChromium).
			if c := readAdminRequests(t, a+"/requests").Cleared; c != 1 {
				t.Errorf("cleared after the reset: got %d, want 1", c)
			}
			cancel() // the client gives up: the held call ends, after the reset
			if err := <-done; err == nil {
				t.Fatal("the held call was answered; want it canceled")
			}
			runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnInstitutions, paramsFor(asmx.OpReturnInstitutions, "k")), hasStatus(200))
			ts.Close() // every handler has returned, the held call's included

			es := ts.Journal(RequestFilter{})
			if len(es) != 1 || es[0].Operation != asmx.OpReturnInstitutions || es[0].Fault != "" {
				var got []string
				for _, e := range es {
					got = append(got, fmt.Sprintf("%d %s %s %s", e.Seq, e.Operation, e.Error, e.Fault))
				}
				t.Fatalf("journal after the reset: got %q, want only the ReturnInstitutions call made after it", got)
			}
			if es[0].Seq != 1 {
				t.Errorf("the call after the reset: seq %d, want 1 (the call not journaled takes no number)", es[0].Seq)
			}
		})
	}
}

// TestAdminClearTakesNoFilter: DELETE /__admin/requests, DELETE
// /__admin/faults and POST /__admin/reset refuse a query (400), as GET
// /__admin/requests refuses a parameter it does not know: they empty
// everything, and DELETE /__admin/requests?operation=ReturnProvinces,
// meant for those calls only, emptied the whole journal without a word.
func TestAdminClearTakesNoFilter(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	a := ts.URL + "/__admin"
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnInstitutions, paramsFor(asmx.OpReturnInstitutions, "k")), hasStatus(200))
	adminChecks(t, admin(t, "POST", a+"/faults", "", `{"operation":"ReturnProvinces","delay":"1ms"}`), hasStatus(201))
	for _, r := range []struct{ method, target string }{
		{"DELETE", "/requests?operation=ReturnProvinces"},
		{"DELETE", "/requests?seq=1"},
		{"DELETE", "/faults?operation=ReturnProvinces"},
		{"POST", "/reset?faults=false"},
	} {
		adminChecks(t, admin(t, r.method, a+r.target, "", ""), hasAdminError(400, adminBadRequest), bodyContains("takes no query"))
	}
	if n, j := len(ts.Faults()), len(ts.Journal(RequestFilter{})); n != 1 || j != 2 {
		t.Fatalf("after the refusals: %d faults and %d calls, want 1 and 2", n, j)
	}
	adminChecks(t, admin(t, "DELETE", a+"/faults/f1?x=1", "", ""), hasStatus(204)) // one fault, named in the path: nothing more to remove
	adminChecks(t, admin(t, "DELETE", a+"/requests", "", ""), hasStatus(204))
	if j := len(ts.Journal(RequestFilter{})); j != 0 {
		t.Errorf("after DELETE /__admin/requests: %d calls, want 0", j)
	}
}

// TestAdminRequestsRefusesAQueryThatDoesNotParse: GET /__admin/requests
// refuses a query Go's parser drops a part of (a semicolon between
// parameters, a bad percent escape), as it refuses a parameter it does
// not know: the part dropped, filters included, was read as none, and
// ?operation=ReturnProvinces;binding=get listed every call.
func TestAdminRequestsRefusesAQueryThatDoesNotParse(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnInstitutions, paramsFor(asmx.OpReturnInstitutions, "k")), hasStatus(200))
	for _, q := range []string{"operation=ReturnProvinces;binding=get", "operation=ReturnProvinces&%zz=1", "operation=Return%ZZProvinces"} {
		adminChecks(t, admin(t, "GET", ts.URL+"/__admin/requests?"+q, "", ""), hasAdminError(400, adminBadRequest), bodyContains("query"))
	}
	adminChecks(t, admin(t, "GET", ts.URL+"/__admin/requests?operation=ReturnProvinces&binding=get", "", ""), hasStatus(200), bodyContains(`"matched":1`))
}

// TestAdminClearTakesNoBody: DELETE /__admin/faults, DELETE
// /__admin/requests and POST /__admin/reset refuse a body (400), as they
// refuse a query: DELETE /__admin/faults with {"id":"f1"}, meant to
// remove f1, removed every fault without a word. The refusal names the
// way to remove one fault (DELETE /__admin/faults/f1). A body of white
// space only is none.
func TestAdminClearTakesNoBody(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	a := ts.URL + "/__admin"
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))
	adminChecks(t, admin(t, "POST", a+"/faults", "", `{"operation":"ReturnProvinces","delay":"1ms"}`), hasStatus(201))
	adminChecks(t, admin(t, "POST", a+"/faults", "", `{"operation":"ReturnInstitutions","status":503}`), hasStatus(201))
	adminChecks(t, admin(t, "DELETE", a+"/faults", "", `{"id":"f1"}`), hasAdminError(400, adminBadRequest),
		bodyContains("takes no body"), bodyContains("DELETE /__admin/faults/f1 removes fault f1"))
	for _, r := range []struct{ method, target, body string }{
		{"DELETE", "/faults", `{"operation":"ReturnProvinces"}`},
		{"DELETE", "/faults", `{}`},
		{"DELETE", "/faults", `f1`},
		{"DELETE", "/requests", `{"seq":1}`},
		{"POST", "/reset", `{"faults":false}`},
	} {
		adminChecks(t, admin(t, r.method, a+r.target, "", r.body), hasAdminError(400, adminBadRequest),
			bodyContains("takes no body"), bodyContains("DELETE /__admin/faults/{id} removes one fault"))
	}
	// Chunked, its length not declared: read, and refused as well.
	chunked := mustRequest(t, "DELETE", a+"/faults", "")
	chunked.Body, chunked.ContentLength = io.NopCloser(strings.NewReader(`{"id":"f2"}`)), -1
	adminChecks(t, doAdmin(t, chunked), hasAdminError(400, adminBadRequest), bodyContains("DELETE /__admin/faults/f2 removes fault f2"))
	if n, j := len(ts.Faults()), len(ts.Journal(RequestFilter{})); n != 2 || j != 1 {
		t.Fatalf("after the refusals: %d faults and %d calls, want 2 and 1", n, j)
	}
	adminChecks(t, admin(t, "DELETE", a+"/faults/f1", "", ""), hasStatus(204))
	adminChecks(t, admin(t, "DELETE", a+"/faults", "", " \r\n\t"), hasStatus(204))
	if n := len(ts.Faults()); n != 0 {
		t.Errorf("after DELETE /__admin/faults with a body of white space: %d faults, want 0", n)
	}
	adminChecks(t, admin(t, "POST", a+"/reset", "", "\n"), hasStatus(204))
}

package mockserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// TestAdminRefusalsEchoAtMost80Characters: the admin API's refusals quote
// what they refuse cut to its first 80 characters, as a fault id's
// refusal did: a query parameter, filter value, journal seq, fault id or
// Host header of 4 KB (net/http takes up to a megabyte of them) was echoed
// whole, each refusal as long as the request that made it.
func TestAdminRefusalsEchoAtMost80Characters(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))
	long := strings.Repeat("x", 4_000)
	digits := strings.Repeat("9", 4_000)
	for _, c := range []struct {
		method, path string
		status       int
	}{
		{"GET", "/__admin/requests?" + long + "=1", 400},
		{"GET", "/__admin/requests?operation=" + long, 400},
		{"GET", "/__admin/requests?status=" + long, 400},
		{"GET", "/__admin/requests?since=" + long, 400},
		{"GET", "/__admin/requests?limit=" + long, 400},
		{"GET", "/__admin/requests?summary=" + long, 400},
		{"GET", "/__admin/requests/" + digits, 404},
		{"DELETE", "/__admin/faults/" + long, 404},
		{"GET", "/__admin/info?" + long, 400},
	} {
		r := admin(t, c.method, ts.URL+c.path, "", "")
		if r.status != c.status || len(r.body) > 1024 || !strings.Contains(r.body, strings.Repeat("x", 80)) && !strings.Contains(r.body, strings.Repeat("9", 80)) {
			t.Errorf("%s %.60s...: %d, %d bytes, want %d, the value's first 80 characters, at most 1 KB:\n%.300s", c.method, c.path, r.status, len(r.body), c.status, r.body)
		}
	}
	req := mustRequest(t, "GET", ts.URL+"/__admin/faults", "")
	req.Host = "attacker-" + long + ".example"
	if r := doAdmin(t, req); r.status != http.StatusForbidden || len(r.body) > 2048 {
		t.Errorf("a foreign Host of 4 KB: %d, %d bytes, want 403 and its name cut", r.status, len(r.body))
	}
}

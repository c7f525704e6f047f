package mockserver

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
)

// TestAdminHeldFollowsTheFilters: GET /__admin/requests lists under held
// the calls a fault holds back that its operation, binding and fault
// filters take, as it lists the calls answered: ?fault=f2 listed f1's held
// calls too, so a test waiting for f2 to hold a call saw one at once.
func TestAdminHeldFollowsTheFilters(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()),
		WithFault(Fault{Operation: asmx.OpReturnProvinces, Delay: time.Minute}),
		WithFault(Fault{Operation: asmx.OpReturnInstitutions, Delay: time.Minute}))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{}, 2)
	t.Cleanup(func() {
		cancel()
		<-done
		<-done
	})
	for _, op := range []string{asmx.OpReturnProvinces, asmx.OpReturnInstitutions} {
		go func() {
			defer func() { done <- struct{}{} }()
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ts.URL+"/service/service.asmx/"+op+"?strAtmServiceKey=k", nil)
			if resp, err := http.DefaultClient.Do(req); err == nil {
				resp.Body.Close()
			}
		}()
	}
	heldFaults := func(query string) []string {
		var ids []string
		for _, h := range readAdminRequests(t, ts.URL+"/__admin/requests"+query).Held {
			ids = append(ids, h.Fault)
		}
		slices.Sort(ids)
		return ids
	}
	for deadline := time.Now().Add(10 * time.Second); len(heldFaults("")) < 2; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("held calls: got %v, want both delayed calls", heldFaults(""))
		}
	}
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"", []string{"f1", "f2"}},
		{"?fault=f2", []string{"f2"}},
		{"?operation=returnprovinces", []string{"f1"}},
		{"?binding=get&operation=ReturnInstitutions", []string{"f2"}},
		{"?binding=soap11", nil},
		{"?operation=WSDL", nil},
		{"?fault=f1&summary=true&since=99", []string{"f1"}}, // since and limit: of the calls answered
	} {
		if got := heldFaults(tt.query); !slices.Equal(got, tt.want) {
			t.Errorf("GET /__admin/requests%s: held by %v, want %v", tt.query, got, tt.want)
		}
	}
}

package mockserver

import (
	"net/http"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// TestAdminRequestsFilterNeverMatching: GET /__admin/requests with an
// operation and a binding no journal entry can have together is refused,
// 400 naming the two, not answered with an empty list that reads as "the
// app made no such call": the fetches of the service description (WSDL)
// are journaled in no binding, and the JSON path offers two operations
// only. The mock is first sent the requests that come closest (the WSDL,
// disco and imported descriptions, help pages, the JSON path's other
// operations by GET and POST, unknown paths), and its journal shows that
// none has such a pair; combinations that can match are still answered.
// A 1xx status, which no answer has, and a fault id no fault can have are
// refused as well.
func TestAdminRequestsFilterNeverMatching(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	get := func(path string) {
		t.Helper()
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	for _, p := range []string{
		"/service/service.asmx?WSDL", "/service/service.asmx?disco", "/service/service.asmx?wsdl=wsdl9",
		"/service/service.asmx?op=ReturnProvinces", "/service/service.asmx",
		"/service-v2.asmx?WSDL", "/service-v2.asmx/ReturnProvinces?strAtmServiceKey=k",
		"/service/service.asmx/ReturnProvinces?WSDL", "/AtmService.asmx?WSDL",
	} {
		get(p)
	}
	resp, err := http.Post(ts.URL+"/service-v2.asmx/ReturnInstitutions", "application/x-www-form-urlencoded", strings.NewReader("strAtmServiceKey=k"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, b := range asmx.Bindings {
		runChecks(t, call(t, ts.URL, b, asmx.OpReturnAtmSearchByAddress, paramsFor(asmx.OpReturnAtmSearchByAddress, "k")), hasStatus(200))
	}
	for _, e := range ts.Journal(RequestFilter{Operation: opWSDL}) {
		if e.Binding != 0 {
			t.Errorf("a fetch of the service description journaled in binding %s: %+v", e.Binding, e)
		}
	}
	for _, e := range ts.Journal(RequestFilter{Binding: asmx.JSON}) {
		if op, ok := lookupOperation(e.Operation); ok && !op.JSON {
			t.Errorf("operation %s journaled in binding json: %+v", e.Operation, e)
		}
	}
	if n := len(ts.Journal(RequestFilter{Operation: opWSDL})); n < 3 {
		t.Errorf("got %d fetches of the service description in the journal, want 3 or more", n)
	}

	a := ts.URL + "/__admin/requests"
	tests := []struct {
		query  string
		checks []check
	}{
		{"?operation=WSDL&binding=get", []check{hasAdminError(400, adminBadRequest), bodyContains("operation WSDL with binding get"), bodyContains("no binding")}},
		{"?operation=wsdl&binding=SOAP12&limit=5", []check{hasAdminError(400, adminBadRequest), bodyContains("operation WSDL with binding soap12")}},
		{"?binding=json&operation=ReturnProvinces", []check{hasAdminError(400, adminBadRequest), bodyContains("operation ReturnProvinces with binding json"),
			bodyContains("ReturnAtmSearchByAddress and ReturnAtmSearchByCoordinates")}},
		{"?operation=returnallatms&binding=json&summary=true", []check{hasAdminError(400, adminBadRequest), bodyContains("operation ReturnAllAtms with binding json")}},
		// A 1xx status is never an answer's: no fault, recording or
		// answer of the mock has one (a fault's status is 200 to 599, a
		// cassette's too).
		{"?status=100", []check{hasAdminError(400, adminBadRequest), bodyContains(`status \"100\"`), bodyContains("200 to 599")}},
		{"?status=199&operation=ReturnProvinces", []check{hasAdminError(400, adminBadRequest), bodyContains(`status \"199\"`)}},
		// No fault has an id that is not a fault id (a path, a space: a
		// script's variable holding something else).
		{"?fault=f1%2Fx", []check{hasAdminError(400, adminBadRequest), bodyContains(`fault \"f1/x\": no call is journaled so`)}},
		{"?fault=-f1", []check{hasAdminError(400, adminBadRequest), bodyContains(`fault \"-f1\"`)}},
		// Those can match: answered.
		{"?fault=f1", []check{hasStatus(200)}},
		{"?fault=slow.provinces_2-b", []check{hasStatus(200)}},
		{"?status=200", []check{hasStatus(200), bodyContains(`"matched":`)}},
		{"?operation=WSDL", []check{hasStatus(200), bodyContains(`"path":"/service/service.asmx"`)}},
		{"?operation=ReturnAtmSearchByAddress&binding=json", []check{hasStatus(200), bodyContains(`"matched":1,`)}},
		{"?operation=ReturnAtmSearchByAddress&binding=get", []check{hasStatus(200), bodyContains(`"matched":1,`)}},
		{"?binding=json", []check{hasStatus(200)}},
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			adminChecks(t, admin(t, "GET", a+tt.query, "", ""), tt.checks...)
		})
	}
}

// TestJournalFilterNeverMatchingFailsTheTest: a TestServer's journal
// filter with an operation and a binding no entry has together (WSDL with
// a binding; an operation the JSON path does not offer, in binding json),
// a status no answer has (1xx), or a fault id no fault can have, fails the
// test that made it, as a misspelt operation does: it matched
// nothing, and a "no such call" check passed. Pairs that can match do not.
func TestJournalFilterNeverMatchingFailsTheTest(t *testing.T) {
	t.Parallel()
	tb := &errorsOf{TB: t}
	ts := NewTestServer(tb, WithDataset(smallDataset()))
	for _, f := range []RequestFilter{
		{Operation: asmx.OpReturnAtmSearchByAddress, Binding: asmx.JSON}, {Operation: "wsdl"},
		{Operation: asmx.OpReturnProvinces, Binding: asmx.SOAP12}, {Binding: asmx.JSON},
	} {
		ts.Journal(f)
	}
	if len(tb.errs) != 0 {
		t.Fatalf("filters that can match: got errors %q", tb.errs)
	}
	ts.Journal(RequestFilter{Operation: "wsdl", Binding: asmx.HTTPGet})
	ts.Journal(RequestFilter{Operation: "returnprovinces", Binding: asmx.JSON})
	ts.Journal(RequestFilter{Status: 100})
	ts.Journal(RequestFilter{Fault: "f 1"})
	want := []string{"operation WSDL with binding get: no call is journaled so", "operation ReturnProvinces with binding json: no call is journaled so",
		"status 100: no call is journaled so", `fault "f 1": no call is journaled so`}
	if len(tb.errs) != len(want) {
		t.Fatalf("got errors %q, want %d holding %q", tb.errs, len(want), want)
	}
	for i := range want {
		if !strings.Contains(tb.errs[i], want[i]) {
			t.Errorf("error %d: got %q, want it to hold %q", i, tb.errs[i], want[i])
		}
	}
}

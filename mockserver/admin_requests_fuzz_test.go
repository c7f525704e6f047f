package mockserver

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// FuzzAdminRequestsQuery sends any query to GET /__admin/requests, whose
// parameters (operation, binding, status, fault, since, limit, summary)
// are the admin API's one reader of a query (FuzzServeHTTP leaves the
// admin API out): the answer is 400 with an admin error in JSON, or 200
// with a list whose every entry has what the parameters ask for (the
// operation and binding ignoring case, the status, the fault, a seq after
// since, no more entries than limit), given only the parameters the API
// names, each once; never a panic or another status. The journal holds a
// call of each kind the filter tells apart: a WSDL fetch, GET and SOAP
// calls, one a fault answered, an unknown path.
func FuzzAdminRequestsQuery(f *testing.F) {
	for _, s := range []string{
		"", "operation=ReturnProvinces", "operation=wsdl", "binding=SOAP11&limit=1", "status=503&fault=f1",
		"status=0", "since=2&summary=true", "limit=0", "status=0200", "operation=x;y", "fault=f1%2Fx",
		"binding=json&operation=ReturnProvinces", "summary=maybe", "since=18446744073709551616", "a=1", "limit=1&limit=2",
	} {
		f.Add(s)
	}
	h, err := New(WithDataset(smallDataset()))
	if err != nil {
		f.Fatal(err)
	}
	serve := func(req *http.Request) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	get := func(target string) *httptest.ResponseRecorder {
		return serve(httptest.NewRequest(http.MethodGet, "http://127.0.0.1"+target, nil))
	}
	if rec := serve(httptest.NewRequest(http.MethodPost, "http://127.0.0.1/__admin/faults",
		strings.NewReader(`{"id":"f1","operation":"ReturnInstitutions","status":503,"times":1}`))); rec.Code != http.StatusCreated {
		f.Fatalf("POST /__admin/faults: status %d: %s", rec.Code, rec.Body.String())
	}
	for _, p := range []string{"/service/service.asmx?WSDL", "/service/service.asmx/ReturnProvinces?strAtmServiceKey=k",
		"/service/service.asmx/ReturnInstitutions?strAtmServiceKey=k", "/nowhere"} {
		get(p)
	}
	req, err := mocktest.NewRequest("http://127.0.0.1", testNS, asmx.SOAP11.String(), asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	if err != nil {
		f.Fatal(err)
	}
	serve(req)
	if all := h.journal.read(func(*journalRecord) bool { return true }, 0, false); len(all) != 5 {
		f.Fatalf("the journal holds %d calls, want 5", len(all))
	}

	f.Fuzz(func(t *testing.T, query string) {
		if strings.ContainsFunc(query, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
			return // no request line carries it (a space ends the target)
		}
		req := httptest.NewRequest(http.MethodGet, "http://127.0.0.1/__admin/requests", nil)
		req.URL.RawQuery = query
		rec := serve(req)
		switch rec.Code {
		case http.StatusBadRequest:
			var e adminError
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error.Message == "" || e.Error.Code != adminBadRequest {
				t.Fatalf("?%s: 400 with no admin error (%v): %q", query, err, rec.Body.String())
			}
			return
		case http.StatusOK:
		default:
			t.Fatalf("?%s: status %d: %s", query, rec.Code, rec.Body.String())
		}
		q, err := url.ParseQuery(query)
		if err != nil {
			t.Fatalf("?%s: answered 200 to a query that does not parse (%v)", query, err)
		}
		for name, vs := range q {
			if !strings.Contains(" operation binding status fault since limit summary ", " "+name+" ") || len(vs) != 1 || vs[0] == "" {
				t.Fatalf("?%s: answered 200 to parameter %q given %q", query, name, vs)
			}
		}
		var out struct {
			Requests []JournalEntry `json:"requests"`
			Matched  int            `json:"matched"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("?%s: 200 with no list (%v): %q", query, err, rec.Body.String())
		}
		number := func(name string) uint64 {
			n, _ := strconv.ParseUint(q.Get(name), 10, 64)
			return n
		}
		if lim := number("limit"); q.Has("limit") && uint64(len(out.Requests)) > lim || out.Matched < len(out.Requests) {
			t.Fatalf("?%s: %d entries listed, %d matched", query, len(out.Requests), out.Matched)
		}
		for _, e := range out.Requests {
			op, b := q.Get("operation"), q.Get("binding")
			switch {
			case strings.EqualFold(op, opWSDL) && e.Operation != "",
				op != "" && !strings.EqualFold(op, opWSDL) && !strings.EqualFold(op, e.Operation),
				b != "" && (e.Binding == 0 || !strings.EqualFold(b, e.Binding.String())),
				q.Has("status") && uint64(e.Status) != number("status"),
				q.Has("fault") && e.Fault != q.Get("fault"),
				e.Seq <= number("since"):
				t.Fatalf("?%s: listed %+v", query, e)
			}
		}
	})
}

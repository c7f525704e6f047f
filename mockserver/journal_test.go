package mockserver

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

func TestJournalEntries(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("secret-key"))
	op := asmx.OpReturnAtmSearchByAddress
	call(t, ts.URL, asmx.SOAP11, op, paramsFor(op, "secret-key"))
	call(t, ts.URL, asmx.JSON, op, paramsFor(op, "wrong"))
	// A 415: no operation; the binding is the SOAP version ASMX assumed.
	req := mustRequest(t, "POST", ts.URL+"/service/service.asmx", `<s:Envelope xmlns:s="`+asmx.NamespaceSOAP12+`"><s:Body><ReturnProvinces xmlns="`+asmx.DefaultNamespace+`"/></s:Body></s:Envelope>`)
	req.Header.Set("Content-Type", "application/json")
	do(t, req)
	// Admin requests are not journaled.
	do(t, mustRequest(t, "GET", ts.URL+"/__admin/requests", ""))

	got := ts.Journal(RequestFilter{})
	if len(got) != 3 {
		t.Fatalf("journal: got %d entries, want 3: %+v", len(got), got)
	}
	e := got[0]
	wantParams := map[string]string{"strAtmServiceKey": "se****", "strAddress": "", "strCity": "Halifax",
		"strProvince": "NS", "strPostalCode": "", "bytRadius": "15"}
	if e.Seq != 1 || e.Method != "POST" || e.Path != "/service/service.asmx" || e.Binding != asmx.SOAP11 ||
		e.Operation != op || e.Status != 200 || e.Error != "" || e.Time.IsZero() || e.Duration <= 0 {
		t.Errorf("entry 1: got %+v", e)
	}
	for k, v := range wantParams {
		if e.Params[k] != v {
			t.Errorf("entry 1: param %s: got %q, want %q", k, e.Params[k], v)
		}
	}
	if len(e.Params) != len(wantParams) {
		t.Errorf("entry 1: params: got %v, want %v", e.Params, wantParams)
	}
	if e := got[1]; e.Binding != asmx.JSON || e.Status != 500 || e.Error != asmx.KindInvalidServiceKey || e.Params[asmx.ParamKey] != "******" {
		t.Errorf("entry 2: got %+v, want json, 500, %s, key masked", e, asmx.KindInvalidServiceKey)
	}
	if e := got[2]; e.Binding != asmx.SOAP12 || e.Operation != "" || e.Params != nil || e.Status != 415 || e.Error != asmx.KindUnsupportedMediaType {
		t.Errorf("entry 3: got %+v, want soap12, no operation, 415", e)
	}

	// Filters.
	if n := len(ts.Journal(RequestFilter{Binding: asmx.JSON})); n != 1 {
		t.Errorf("binding json: got %d entries, want 1", n)
	}
	if n := len(ts.Journal(RequestFilter{Operation: strings.ToLower(op), Binding: asmx.SOAP11})); n != 1 {
		t.Errorf("operation and soap11: got %d entries, want 1", n)
	}
	if n := len(ts.Journal(RequestFilter{Operation: asmx.OpReturnProvinces})); n != 0 {
		t.Errorf("ReturnProvinces: got %d entries, want 0", n)
	}

	// Copies: changing what Journal returned changes nothing inside.
	got[0].Params["strCity"] = "changed"
	got[0].Status = 999
	if again := ts.Journal(RequestFilter{}); again[0].Params["strCity"] != "Halifax" || again[0].Status != 200 {
		t.Errorf("the journal changed through a returned entry: %+v", again[0])
	}

	ts.ResetJournal()
	if n := len(ts.Journal(RequestFilter{})); n != 0 {
		t.Errorf("after ResetJournal: %d entries, want 0", n)
	}
	call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "secret-key"))
	if got := ts.Journal(RequestFilter{}); len(got) != 1 || got[0].Seq != 4 {
		t.Errorf("after reset: got %+v, want one entry with seq 4 (numbers keep counting)", got)
	}
}

func mustRequest(t *testing.T, method, url, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return req
}

func TestJournalRing(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithJournalSize(3))
	for range 5 {
		call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	}
	got := ts.Journal(RequestFilter{})
	if len(got) != 3 {
		t.Fatalf("got %d entries, want the journal's size 3", len(got))
	}
	for i, e := range got {
		if want := uint64(i + 3); e.Seq != want {
			t.Errorf("entry %d: seq got %d, want %d (the oldest dropped first)", i, e.Seq, want)
		}
	}

	off := NewTestServer(t, WithDataset(smallDataset()), WithJournalSize(0))
	call(t, off.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	if got := off.Journal(RequestFilter{}); len(got) != 0 {
		t.Errorf("journal size 0: got %d entries, want none", len(got))
	}
}

func TestJournalEntryJSON(t *testing.T) {
	t.Parallel()
	e := JournalEntry{Seq: 7, Method: "GET", Path: "/p", Binding: asmx.HTTPGet, Operation: "ReturnProvinces",
		Params: map[string]string{"strAtmServiceKey": "ab****"}, Status: 200, Duration: 1500000, Fault: "f2"}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"seq":7`, `"binding":"get"`, `"operation":"ReturnProvinces"`, `"duration":"1.5ms"`,
		`"durationMs":1.5`, `"fault":"f2"`, `"params":{"strAtmServiceKey":"ab****"}`, `"status":200`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON: got %s, want it to contain %s", b, want)
		}
	}
}

func TestMaskKey(t *testing.T) {
	t.Parallel()
	for k, want := range map[string]string{"": "", "a": "******", "abcd": "******", "abcdefg": "******", "abcdefgh": "ab****", "a-very-long-key": "a-****"} {
		if got := MaskKey(k); got != want {
			t.Errorf("MaskKey(%q): got %q, want %q", k, got, want)
		}
	}
}

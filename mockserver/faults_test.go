package mockserver

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
)

func TestFaultJSONRoundTrip(t *testing.T) {
	t.Parallel()
	in := Fault{ID: "f9", Operation: asmx.OpReturnAllAtms, Binding: asmx.HTTPPost, Delay: 1500 * time.Millisecond,
		Jitter: time.Millisecond, Status: 503, SOAPFault: &SOAPFault{Code: "Client", Text: "t"}, Times: 3}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"f9","operation":"ReturnAllAtms","binding":"post","delay":"1.5s","jitter":"1ms","status":503,"soapFault":{"code":"Client","text":"t"},"times":3}`
	if string(b) != want {
		t.Errorf("Marshal: got %s, want %s", b, want)
	}
	var out Fault
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out, in) {
		t.Errorf("round trip: got %+v, want %+v", out, in)
	}
}

// TestFaultCheck: Check returns a fault as a server stores it, without
// changing the caller's, and refuses what AddFault refuses.
// TestFaultIDsAtStartSkipGivenOnes: faults given at start without an id
// are named f1, f2, … skipping the ids the others are given, whatever
// their order: a fault named f1 after one without an id (atmkit serve
// --fault drop --fault id=f1,status=503) was refused, "taken by an
// active fault", the one the mock had just named f1.
func TestFaultIDsAtStartSkipGivenOnes(t *testing.T) {
	t.Parallel()
	s, err := New(WithDataset(smallDataset()), WithFault(Fault{Operation: asmx.OpReturnProvinces, Drop: true}),
		WithFault(Fault{ID: "f1", Status: 503}), WithFault(Fault{Status: 500}), WithFault(Fault{ID: "f3", Delay: time.Second}))
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	var ids []string
	for _, f := range s.Faults() {
		ids = append(ids, f.ID)
	}
	if want := []string{"f2", "f1", "f4", "f3"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("fault ids: got %v, want %v", ids, want)
	}
}

func TestFaultCheck(t *testing.T) {
	t.Parallel()
	in := Fault{Operation: "returnprovinces", SOAPFault: &SOAPFault{Code: "soap:Sender"}, Times: 1}
	got, err := in.Check()
	if err != nil {
		t.Fatal(err)
	}
	want := Fault{Operation: asmx.OpReturnProvinces, SOAPFault: &SOAPFault{Code: "Client", Text: defaultClientFaultText}, Times: 1}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Check: got %+v, want %+v", got, want)
	}
	if in.Operation != "returnprovinces" || in.SOAPFault.Code != "soap:Sender" || in.SOAPFault.Text != "" {
		t.Errorf("Check changed the caller's fault: %+v %+v", in, *in.SOAPFault)
	}
	s, err := New(WithDataset(smallDataset()))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []Fault{{}, {Operation: "Nope", Drop: true}, {Drop: true, Status: 500}, {Delay: -time.Second}} {
		_, checkErr := bad.Check()
		_, addErr := s.AddFault(bad)
		if checkErr == nil || addErr == nil || checkErr.Error() != addErr.Error() {
			t.Errorf("%+v: Check: %v; AddFault: %v; want the same error", bad, checkErr, addErr)
		}
	}
}

// TestFaultEffects checks each kind of fault in each binding it answers differently.
func TestFaultEffects(t *testing.T) {
	t.Parallel()
	sf := &SOAPFault{Code: "Client", Text: "Injected <trouble>"}
	tests := []struct {
		name   string
		fault  Fault
		b      asmx.Binding
		checks []check
	}{
		{"soap fault 1.1", Fault{SOAPFault: sf}, asmx.SOAP11, []check{hasStatus(500), hasContentType(asmx.ContentTypeSOAP11),
			bodyContains("<faultcode>soap:Client</faultcode>"), bodyContains("<faultstring>Injected &lt;trouble&gt;</faultstring>")}},
		{"soap fault 1.2", Fault{SOAPFault: sf}, asmx.SOAP12, []check{hasStatus(500), hasContentType(asmx.ContentTypeSOAP12),
			bodyContains("<soap:Value>soap:Sender</soap:Value>"), bodyContains(`<soap:Text xml:lang="en">Injected &lt;trouble&gt;</soap:Text>`)}},
		{"soap fault get", Fault{SOAPFault: sf}, asmx.HTTPGet, []check{hasStatus(500), hasContentType(asmx.ContentTypeText),
			bodyContains("Injected &lt;trouble&gt;\r\n")}},
		{"soap fault post, status", Fault{SOAPFault: &SOAPFault{Text: "x"}, Status: 503}, asmx.HTTPPost, []check{hasStatus(503),
			bodyContains("x\r\n")}},
		{"soap fault json", Fault{SOAPFault: &SOAPFault{Code: "Server", Text: "down"}}, asmx.JSON, []check{hasStatus(500),
			hasContentType(asmx.ContentTypeText), bodyContains("down\r\n")}},
		{"status", Fault{Status: 503}, asmx.SOAP11, []check{hasStatus(503), hasContentType("text/html; charset=us-ascii"),
			bodyContains("HTTP Error 503. Service Unavailable.")}},
		{"status json", Fault{Status: 429}, asmx.JSON, []check{hasStatus(429), bodyContains("Too Many Requests")}},
		{"delay only answers normally", Fault{Delay: time.Millisecond}, asmx.SOAP12, []check{hasStatus(200),
			hasContentType(asmx.ContentTypeSOAP12), bodyContains("ReturnAtmSearchByCoordinatesResult")}},
		{"malformed xml", Fault{Malformed: true}, asmx.HTTPGet, []check{hasStatus(200), hasContentType(asmx.ContentTypeXML), notWellFormedXML}},
		{"malformed soap", Fault{Malformed: true}, asmx.SOAP11, []check{hasStatus(200), hasContentType(asmx.ContentTypeSOAP11), notWellFormedXML}},
		{"malformed json", Fault{Malformed: true}, asmx.JSON, []check{hasStatus(200), notValidJSON}},
	}
	op := asmx.OpReturnAtmSearchByCoordinates
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ts := NewTestServer(t, WithDataset(smallDataset()), WithFault(tt.fault))
			r := call(t, ts.URL, tt.b, op, paramsFor(op, "k"))
			runChecks(t, r, tt.checks...)
			if got := ts.Journal(RequestFilter{}); len(got) != 1 || got[0].Fault != "f1" || got[0].Status != r.status {
				t.Errorf("journal: got %+v, want one entry with fault f1 and status %d", got, r.status)
			}
		})
	}
}

// TestFaultStatusWithoutBody: a status fault of 204 or 304, statuses that
// have no body, answers with none, and the journal keeps the answer the
// client got, not a page that was never sent.
func TestFaultStatusWithoutBody(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusNoContent, http.StatusNotModified} {
		ts := NewTestServer(t, WithDataset(smallDataset()), WithFault(Fault{Status: status}))
		r := call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
		runChecks(t, r, hasStatus(status))
		if r.body != "" {
			t.Errorf("status %d: body %q, want none", status, r.body)
		}
		got := ts.Journal(RequestFilter{})
		if len(got) != 1 {
			t.Fatalf("status %d: journal holds %d entries, want 1", status, len(got))
		}
		resp := got[0].Response
		if got[0].Status != status || resp.Body != "" || resp.Size != 0 || resp.Header.Get("Content-Type") != "" {
			t.Errorf("status %d: journal has status %d, answer %q (size %d, Content-Type %q), want the status with no body",
				status, got[0].Status, resp.Body, resp.Size, resp.Header.Get("Content-Type"))
		}
	}
}

func notWellFormedXML(r response) error {
	dec := xml.NewDecoder(strings.NewReader(r.body))
	for {
		_, err := dec.Token()
		if err == io.EOF {
			return fmt.Errorf("body is well-formed XML: %.200q", r.body)
		}
		if err != nil {
			return nil
		}
	}
}

func notValidJSON(r response) error {
	if json.Valid([]byte(r.body)) {
		return fmt.Errorf("body is valid JSON: %.200q", r.body)
	}
	return nil
}

func TestFaultDrop(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithFault(Fault{Drop: true, Binding: asmx.HTTPGet, Times: 1}))
	resp, err := http.Get(ts.URL + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=k")
	if err == nil {
		resp.Body.Close()
		t.Fatalf("got status %d, want the connection dropped", resp.StatusCode)
	}
	got := ts.Journal(RequestFilter{})
	if len(got) != 1 || got[0].Status != 0 || got[0].Fault != "f1" || got[0].Error != noteDropped {
		t.Errorf("journal: got %+v, want one entry with status 0, fault f1 and error %q", got, noteDropped)
	}
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k")), hasStatus(200))
}

// TestFaultScope: a fault applies only to its operation and binding, the
// oldest matching fault wins, and times counts down only when it applies.
func TestFaultScope(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	add := func(f Fault) string {
		t.Helper()
		got, err := ts.AddFault(f)
		if err != nil {
			t.Fatal(err)
		}
		return got.ID
	}
	soap12 := add(Fault{Operation: asmx.OpReturnProvinces, Binding: asmx.SOAP12, Status: 501, Times: 1})
	any1 := add(Fault{Status: 502, Times: 2})
	prov := asmx.OpReturnProvinces
	inst := asmx.OpReturnInstitutions
	steps := []struct {
		b      asmx.Binding
		op     string
		status int
		fault  string
	}{
		{asmx.HTTPGet, prov, 502, any1},  // soap12 fault does not match GET
		{asmx.SOAP12, prov, 501, soap12}, // oldest match wins, then removes itself
		{asmx.SOAP12, inst, 502, any1},   // last of times=2
		{asmx.SOAP12, prov, 200, ""},     // no faults left
	}
	for i, s := range steps {
		r := call(t, ts.URL, s.b, s.op, paramsFor(s.op, "k"))
		if r.status != s.status {
			t.Errorf("step %d (%s %s): status: got %d, want %d", i+1, s.b, s.op, r.status, s.status)
		}
	}
	for i, e := range ts.Journal(RequestFilter{}) {
		if e.Fault != steps[i].fault {
			t.Errorf("step %d: journaled fault: got %q, want %q", i+1, e.Fault, steps[i].fault)
		}
	}
	// The calls each fault took, by the journal's filter, in Go and over the admin API.
	for id, want := range map[string]int{any1: 2, soap12: 1} {
		if got := ts.Journal(RequestFilter{Fault: id}); len(got) != want {
			t.Errorf("journal of fault %s: got %d entries, want %d", id, len(got), want)
		}
		if got := readAdminRequests(t, ts.URL+"/__admin/requests?summary=true&fault="+id); len(got.Requests) != want {
			t.Errorf("GET /__admin/requests?fault=%s: got %d entries, want %d", id, len(got.Requests), want)
		}
	}
	if f := ts.Faults(); len(f) != 0 {
		t.Errorf("faults left: %+v", f)
	}
}

// TestFaultsBeforeKeyCheck: a fault answers even a call with a rejected key,
// as an outage would; requests that do not decode are never faulted.
func TestFaultsBeforeKeyCheck(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("good"), WithFault(Fault{Status: 503}))
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "bad")), hasStatus(503))
	runChecks(t, call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, nil), hasStatus(500),
		bodyContains("Missing parameter: strAtmServiceKey."))
}

func TestFaultDelayIsAtLeast(t *testing.T) {
	t.Parallel()
	const delay = 150 * time.Millisecond
	ts := NewTestServer(t, WithDataset(smallDataset()), WithFault(Fault{Delay: delay, Jitter: 20 * time.Millisecond}))
	start := time.Now()
	runChecks(t, call(t, ts.URL, asmx.JSON, asmx.OpReturnAtmSearchByCoordinates, paramsFor(asmx.OpReturnAtmSearchByCoordinates, "k")), hasStatus(200))
	if elapsed := time.Since(start); elapsed < delay {
		t.Errorf("answered after %s, want at least %s", elapsed, delay)
	}
	if e := ts.Journal(RequestFilter{}); len(e) != 1 || e[0].Duration < delay {
		t.Errorf("journal: got %+v, want a duration of at least %s", e, delay)
	}
}

// TestFaultsConcurrent exercises faults, the journal and requests together
// (run with -race).
func TestFaultsConcurrent(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithJournalSize(16))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 50 {
			f, err := ts.AddFault(Fault{Operation: asmx.OpReturnProvinces, Status: 503, Times: 1 + i%3})
			if err != nil {
				t.Error(err)
				return
			}
			_ = ts.Faults()
			_ = ts.Journal(RequestFilter{})
			if i%2 == 0 {
				ts.RemoveFault(f.ID)
			}
			if i%10 == 0 {
				ts.ResetJournal()
			}
		}
	}()
	client := &http.Client{}
	for range 40 {
		resp, err := client.Get(ts.URL + "/service/service.asmx/ReturnProvinces?strAtmServiceKey=k")
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 && resp.StatusCode != 503 {
			t.Errorf("status: got %d, want 200 or 503", resp.StatusCode)
		}
	}
	<-done
	if n := len(ts.Journal(RequestFilter{})); n > 16 {
		t.Errorf("journal holds %d entries, want at most its size 16", n)
	}
}

// refusedFaults are faults in their JSON form that cannot work, each with
// the one line that says why (as Check, AddFault, the admin API and
// atmkit serve --fault say it).
var refusedFaults = []struct{ json, why string }{
	{`{"status":503,"probability":0}`, "probability 0: want more than 0 and at most 1"},
	{`{"status":503,"probability":1.5}`, "probability 1.5: want more than 0 and at most 1"},
	{`{"status":503,"probability":-0.25}`, "probability -0.25: want more than 0 and at most 1"},
	{`{"status":503,"skip":-1}`, "skip -1 is negative"},
	{`{"delayDistribution":{"type":"lognormal","median":"80ms","sigma":0}}`, "delayDistribution sigma 0: want a number more than 0"},
	{`{"delayDistribution":{"type":"lognormal","median":"80ms","sigma":-0.5}}`, "delayDistribution sigma -0.5: want a number more than 0"},
	{`{"delayDistribution":{"type":"lognormal","median":"-1s","sigma":0.5}}`, "delayDistribution median -1s is negative"},
	{`{"delayDistribution":{"type":"lognormal","median":"0s","sigma":1e308},"seed":7}`, "delayDistribution median missing (or 0s)"},
	{`{"delayDistribution":{"type":"lognormal","sigma":0.5}}`, "delayDistribution median missing (or 0s)"},
	{`{"delayDistribution":{"type":"uniform","lower":"0s","upper":"0s"}}`, "delayDistribution upper missing (or 0s)"},
	{`{"delayDistribution":{"type":"lognormal","median":"80ms","sigma":0.5,"upper":"1s"}}`, "delayDistribution lower and upper: fields of the uniform distribution, not of lognormal"},
	{`{"delayDistribution":{"type":"uniform","lower":"200ms","upper":"100ms"}}`, "delayDistribution lower 200ms is above upper 100ms"},
	{`{"delayDistribution":{"type":"uniform","lower":"-1ms","upper":"100ms"}}`, "delayDistribution lower -1ms is negative"},
	{`{"delayDistribution":{"type":"uniform","upper":"100ms","sigma":1}}`, "delayDistribution median and sigma: fields of the lognormal distribution, not of uniform"},
	{`{"delayDistribution":{"type":"normal","median":"80ms"}}`, `delayDistribution type "normal": want lognormal or uniform`},
	{`{"delayDistribution":{"median":"80ms","sigma":1}}`, "delayDistribution type missing: want lognormal or uniform"},
	{`{"dribble":{"chunks":0,"duration":"1s"}}`, "dribble chunks 0: want 1 or more"},
	{`{"dribble":{"chunks":5,"duration":"-1s"}}`, "dribble duration -1s is negative"},
	{`{"dribble":{"chunks":5}}`, `dribble duration missing (or 0s): want the time the body is spread over, such as "1s"`},
	{`{"dribble":{"chunks":1,"duration":"0s"},"malformed":true}`, "dribble duration missing (or 0s)"},
	{`{"operation":"WSDL","dribble":{"chunks":3}}`, "dribble duration missing (or 0s)"},
	{`{"dribble":{"chunks":5,"duration":"1m1s"},"delay":"59s","jitter":"1s"}`, "dribble duration 1m1s: with the delay (up to 1m0s) it exceeds the server's write timeout 2m0s"},
	{`{"dribble":{"chunks":5,"duration":"1m"},"delayDistribution":{"type":"uniform","lower":"1s","upper":"61s"}}`, "dribble duration 1m0s: with the delay (up to 1m1s) it exceeds the server's write timeout 2m0s"},
	{`{"reset":{"afterBytes":-1}}`, "reset afterBytes -1 is negative"},
	{`{"garbage":true,"status":503}`, "garbage cannot be combined with status"},
	{`{"garbage":true,"soapFault":{}}`, "garbage cannot be combined with soapFault"},
	{`{"garbage":true,"drop":true}`, "garbage cannot be combined with drop"},
	{`{"garbage":true,"malformed":true}`, "garbage cannot be combined with malformed"},
	{`{"garbage":true,"dribble":{"chunks":2,"duration":"1s"}}`, "garbage cannot be combined with dribble"},
	{`{"reset":{"afterBytes":5},"status":503}`, "reset cannot be combined with status"},
	{`{"reset":{"afterBytes":5},"soapFault":{"code":"Client"}}`, "reset cannot be combined with soapFault"},
	{`{"reset":{"afterBytes":5},"drop":true}`, "reset cannot be combined with drop"},
	{`{"reset":{"afterBytes":5},"malformed":true}`, "reset cannot be combined with malformed"},
	{`{"reset":{"afterBytes":5},"dribble":{"chunks":2,"duration":"1s"}}`, "reset cannot be combined with dribble"},
	{`{"garbage":true,"reset":{"afterBytes":0}}`, "garbage cannot be combined with reset"},
	{`{"drop":true,"dribble":{"chunks":2,"duration":"1s"}}`, "dribble cannot be combined with drop"},
	{`{"drop":true,"status":503}`, "drop cannot be combined with status, soapFault or malformed"},
	{`{"drop":true,"malformed":true}`, "drop cannot be combined with status, soapFault or malformed"},
	{`{"malformed":true,"status":503}`, "malformed cannot be combined with status or soapFault"},
	{`{"malformed":true,"soapFault":{"code":"Client"}}`, "malformed cannot be combined with status or soapFault"},
	{`{"operation":"WSDL","soapFault":{"text":"x"}}`, "soapFault cannot be given with operation WSDL"},
	{`{"operation":"wsdl","binding":"soap11","status":503}`, "binding cannot be given with operation WSDL"},
	{`{"operation":"ReturnProvince","status":503}`, `unknown operation "ReturnProvince": want one of ReturnAllAtms, ReturnAtmSearchByAddress,`},
	{`{"operation":"ReturnProvinces","binding":"json","status":503}`, "operation ReturnProvinces with binding json: the fault would never apply, the JSON path (/service-v2.asmx) offers only ReturnAtmSearchByAddress and ReturnAtmSearchByCoordinates"},
	{`{"status":204,"soapFault":{}}`, "status 204 cannot be combined with soapFault: a 204 answer has no body"},
	{`{"status":304,"soapFault":{"code":"Client"}}`, "status 304 cannot be combined with soapFault"},
	{`{"probability":0.5,"seed":3,"skip":1,"times":2}`, "a fault needs at least one of delay, jitter, delayDistribution, status, soapFault, drop, malformed, dribble, reset or garbage"},
}

// TestFaultRefusals: every fault that cannot work is refused with one
// line naming the field, by Check and AddFault alike, and by the admin
// API with a 400 saying the same.
func TestFaultRefusals(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	for _, tt := range refusedFaults {
		var err error
		var f Fault
		if err = json.Unmarshal([]byte(tt.json), &f); err == nil {
			if _, err = f.Check(); err != nil {
				_, addErr := ts.AddFault(f)
				if addErr == nil || addErr.Error() != err.Error() {
					t.Errorf("%s: AddFault: %v, want %v as Check says", tt.json, addErr, err)
				}
			}
		}
		if err == nil || !strings.Contains(err.Error(), tt.why) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want one line with %q", tt.json, err, tt.why)
		}
		r := admin(t, "POST", ts.URL+"/__admin/faults", "", tt.json)
		adminChecks(t, r, hasAdminError(400, adminBadRequest), bodyContains(jsonText(tt.why)))
	}
	if fs := ts.Faults(); len(fs) != 0 {
		t.Errorf("faults added: %+v", fs)
	}
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// TestFaultJSONEveryField: a fault with every field reads from its JSON
// form, and the admin API lists every field back, the times left
// counting down.
func TestFaultJSONEveryField(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{"id":"f1","operation":"ReturnProvinces","binding":"soap12","delay":"10ms","jitter":"5ms","delayDistribution":{"type":"lognormal","median":"80ms","sigma":0.5},"status":503,"dribble":{"chunks":5,"duration":"1s"},"probability":0.25,"seed":7,"skip":2,"times":3}`,
		`{"id":"f1","delayDistribution":{"type":"uniform","lower":"0s","upper":"150ms"},"reset":{"afterBytes":0},"probability":1,"seed":-4}`,
		`{"id":"f1","operation":"WSDL","garbage":true}`,
		`{"id":"f1","operation":"ReturnAllAtms","malformed":true,"dribble":{"chunks":1,"duration":"1ms"}}`,
	} {
		var f Fault
		if err := json.Unmarshal([]byte(in), &f); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		b, err := json.Marshal(f)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != in {
			t.Errorf("round trip:\n got %s\nwant %s", b, in)
		}
		ts := NewTestServer(t, WithDataset(smallDataset()))
		adminChecks(t, admin(t, "POST", ts.URL+"/__admin/faults", "", in), hasStatus(201), bodyContains(in[len(`{"id":"f1",`):]))
		adminChecks(t, admin(t, "GET", ts.URL+"/__admin/faults", "", ""), bodyContains(`{"faults":[`+in+`]}`))
	}
	want := Fault{Operation: asmx.OpReturnProvinces, DelayDistribution: &DelayDistribution{Type: distUniform, Upper: time.Second},
		Dribble: &Dribble{Chunks: 2}, Probability: 0.5, Seed: 3, Skip: 1, Times: 2}
	var got Fault
	if err := json.Unmarshal([]byte(`{"operation":"ReturnProvinces","delayDistribution":{"type":"uniform","upper":"1s"},"dribble":{"chunks":2,"duration":"0s"},"probability":0.5,"seed":3,"skip":1,"times":2}`), &got); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	ts := NewTestServer(t, WithDataset(smallDataset()), WithFault(Fault{Operation: asmx.OpReturnProvinces, Status: 503, Skip: 1, Times: 2}))
	for range 2 {
		call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	}
	adminChecks(t, admin(t, "GET", ts.URL+"/__admin/faults", "", ""), bodyContains(`"skip":1,"times":1}`))
}

// FuzzFaultJSON reads any bytes as a fault's JSON form: it must not panic,
// and a fault that reads and checks must come back the same from the JSON
// it writes, and check the same.
func FuzzFaultJSON(f *testing.F) {
	for _, s := range []string{
		`{"operation":"ReturnProvinces","binding":"soap12","delay":"400ms"}`,
		`{"soapFault":{"code":"Sender","text":"a; b"},"times":1}`,
		`{"delayDistribution":{"type":"lognormal","median":"80ms","sigma":0.5},"probability":0.3,"seed":42}`,
		`{"delayDistribution":{"type":"uniform","lower":"50ms","upper":"150ms"},"skip":2,"times":1,"status":503}`,
		`{"dribble":{"chunks":5,"duration":"1s"},"malformed":true}`,
		`{"reset":{"afterBytes":0}}`,
		`{"operation":"WSDL","garbage":true,"probability":0.5}`,
		`{"probability":0,"status":500}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data string) {
		var in Fault
		if json.Unmarshal([]byte(data), &in) != nil {
			return
		}
		checked, err := in.Check()
		if err != nil {
			return
		}
		b, err := json.Marshal(checked)
		if err != nil {
			t.Fatalf("marshal %+v: %v", checked, err)
		}
		var back Fault
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s read as %+v, whose JSON %s does not read: %v", data, checked, b, err)
		}
		again, err := back.Check()
		if err != nil || !reflect.DeepEqual(again, checked) {
			t.Fatalf("%s: checked %+v; from its JSON %s: %+v, %v", data, checked, b, again, err)
		}
	})
}

// TestFaultJSONErrorsNameTheField: a value of the wrong JSON type, a
// misspelt field or a body that is not JSON is refused in the JSON form's
// terms, by the admin API as by UnmarshalJSON: the field as the form names
// it and what it wants, never the Go types it is read into.
func TestFaultJSONErrorsNameTheField(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()))
	for _, tt := range []struct{ body, want string }{
		{`{"delay":400}`, `fault delay: want a string (durations are Go text such as \"400ms\"), not a number`},
		{`{"status":"503"}`, "fault status: want an integer, not a string"},
		{`{"dribble":{"chunks":3,"duration":1}}`, `fault dribble.duration: want a string (durations are Go text such as \"400ms\"), not a number`},
		// A text that is no duration is not said to be one.
		{`{"operation":5,"status":503}`, `fault operation: want a string, not a number"`},
		{`{"soapFault":{"code":"Client","text":123}}`, `fault soapFault.text: want a string, not a number"`},
		{`{"delayDistribution":{"type":1}}`, `fault delayDistribution.type: want a string, not a number"`},
		{`{"status":503.5}`, "fault status: want an integer, not a number"},
		{`{"drop":"yes"}`, "fault drop: want true or false, not a string"},
		{`{"status":503,"probability":"0.5"}`, "fault probability: want a number, not a string"},
		{`{"dribble":{"chunks":"3","duration":"1s"}}`, "fault dribble.chunks: want an integer, not a string"},
		{`{"dribble":[]}`, "fault dribble: want an object, not an array"},
		{`[{"delay":"1s"}]`, "fault: want a JSON object such as"},
		{`{"dely":"1s"}`, `fault: unknown field \"dely\" (want operation, binding, delay,`},
		{`{"soapFault":{"code":"Client","txt":"x"}}`, `fault: unknown field \"txt\" in soapFault (code, text), dribble`},
		{`status=503`, "the body is not JSON (invalid character 's' looking for beginning of value); want a fault object such as"},
		{`{"delay":"1s"`, "the body is not JSON (unexpected EOF)"},
		{`{"probability":1e400,"status":503}`, "fault probability: 1e400 is out of range, want a number"},
		{`{"times":99999999999999999999,"status":503}`, "fault times: 99999999999999999999 is out of range, want an integer"},
		// A duration past Go's 292 years was said to be no duration.
		{`{"delay":"9999999999h"}`, `fault delay \"9999999999h\": out of range (Go durations go up to 2562047h47m16.854775807s, about 292 years)`},
		{`{"dribble":{"chunks":2,"duration":"-106752d"}}`, `fault dribble duration \"-106752d\": want a Go duration such as \"400ms\"`},
		{`{"jitter":"-9999999999h"}`, `fault jitter \"-9999999999h\": out of range (Go durations go up to 2562047h47m16.854775807s, about 292 years)`},
		{`{"status":503,"delay":"1s","delay":"2s"}`, `fault: field \"delay\" given twice`},
		{`{"drop":true,"times":1,"drop":false}`, `fault: field \"drop\" given twice`},
		// Names are exact: another case is an unknown field, named with
		// the one meant (encoding/json alone would take it as that one).
		{`{"Status":500}`, `fault: unknown field \"Status\" (did you mean \"status\"? names are case-sensitive)`},
		{`{"STATUS":503,"times":1}`, `fault: unknown field \"STATUS\" (did you mean \"status\"?`},
		{`{"status":503,"Status":200}`, `fault: unknown field \"Status\" (did you mean \"status\"?`},
		{`{"ſtatus":503}`, `fault: unknown field \"ſtatus\" (did you mean \"status\"?`}, // long s folds to s
		{`{"status":503,"SoapFault":{"code":"Client"}}`, `fault: unknown field \"SoapFault\" (did you mean \"soapFault\"?`},
		{`{"delaydistribution":{"type":"uniform","upper":"1s"}}`, `fault: unknown field \"delaydistribution\" (did you mean \"delayDistribution\"?`},
		{`{"dribble":{"Chunks":2,"duration":"1s"}}`, `fault: unknown field \"dribble.Chunks\" (did you mean \"dribble.chunks\"?`},
		{`{"reset":{"afterbytes":3}}`, `fault: unknown field \"reset.afterbytes\" (did you mean \"reset.afterBytes\"?`},
		{`{"soapFault":{"code":"Client","Text":"x"}}`, `fault: unknown field \"soapFault.Text\" (did you mean \"soapFault.text\"?`},
		{`{"delayDistribution":{"Type":"uniform","upper":"1s"}}`, `fault: unknown field \"delayDistribution.Type\" (did you mean \"delayDistribution.type\"?`},
		{`{"ID":"f9","status":503}`, `fault: unknown field \"ID\" (did you mean \"id\"?`},
		{`{"dribble":{"chunks":2,"duration":"1s","chunks":9}}`, `fault: field \"dribble.chunks\" given twice`},
		{`{"soapFault":{"code":"Client"},"soapFault":{"text":"x"}}`, `fault: field \"soapFault\" given twice`},
	} {
		r := admin(t, "POST", ts.URL+"/__admin/faults", "", tt.body)
		adminChecks(t, r, hasAdminError(400, adminBadRequest), bodyContains(tt.want))
		for _, internal := range []string{"faultJSON", "Go struct", "Go value", "mockserver.", "json: ", "fault: fault"} {
			if strings.Contains(r.body, internal) {
				t.Errorf("%s: the refusal names %q: %s", tt.body, internal, r.body)
			}
		}
	}
	var f Fault
	err := json.Unmarshal([]byte(`{"delay":400}`), &f)
	if err == nil || err.Error() != `fault delay: want a string (durations are Go text such as "400ms"), not a number` {
		t.Errorf("UnmarshalJSON: got %v", err)
	}
}

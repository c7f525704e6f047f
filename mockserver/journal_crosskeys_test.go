package mockserver

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// TestJournalMasksKeysOutsideACall: a mock that takes any key (atmkit
// serve without --key) knows no key but those its calls carry, so a
// request that holds a key where no call carries it (a path
// .../service.asmx/KEY, a SOAPAction, a header field) showed it in the
// journal. The keys the journal's calls carried are masked in every other
// entry too: those read after the call, and one shown before it (a
// request made, and read, before the key's first call).
func TestJournalMasksKeysOutsideACall(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset())) // no keys: any is taken
	do := func(req *http.Request) {
		t.Helper()
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	// Made, and read in full, before a call carries the key.
	do(mustRequest(t, "GET", ts.URL+asmx.ServicePath+"/"+otherKey, ""))
	if es := ts.Journal(RequestFilter{}); len(es) != 1 {
		t.Fatalf("journal: got %d entries, want 1", len(es))
	}
	for _, k := range []string{otherKey, plainKey} {
		if st := call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, k)).status; st != http.StatusOK {
			t.Fatalf("a call with a key: got %d, want 200", st)
		}
	}
	// After the calls: the key in the path, in a SOAPAction and a header
	// field of a request whose envelope carries no key.
	do(mustRequest(t, "GET", ts.URL+asmx.ServicePath+"/"+plainKey, ""))
	req := provincesRequest(t, ts.URL, "text/xml; charset=utf-8", provincesEnvelope("", ""))
	req.Header.Set("SOAPAction", `"`+testNS+`/`+plainKey+`"`)
	req.Header.Set("X-Trace", "from "+plainKey)
	do(req)

	var texts []string
	for _, e := range ts.Journal(RequestFilter{}) {
		texts = append(texts, e.Path, e.Query, e.Request.Body, e.Response.Body)
		for _, v := range e.Params {
			texts = append(texts, v)
		}
		for name, vs := range e.Request.Header {
			texts = append(texts, name)
			texts = append(texts, vs...)
		}
		texts = append(texts, adminGet(t, ts.URL+"/__admin/requests/"+strconv.FormatUint(e.Seq, 10)))
	}
	texts = append(texts, adminGet(t, ts.URL+"/__admin/requests"), adminGet(t, ts.URL+"/__admin/requests?summary=true"))
	if got := leaks(strings.Join(texts, "\n"), plainKey, otherKey); len(got) > 0 {
		t.Errorf("the journal shows keys its calls carried, outside the calls: %q", got)
	}
	// What is not a key still reads as sent.
	es := ts.Journal(RequestFilter{})
	if last := es[len(es)-1]; last.Request.Header.Get("X-Trace") != "from "+MaskKey(plainKey) {
		t.Errorf("X-Trace: got %q, want the key masked in it", last.Request.Header.Get("X-Trace"))
	}
}

// TestJournalKeysOutsideACallBound: the keys masked in every entry are
// the first 16 of the journal's calls, those of calls answered 200 first:
// a key that a faulted call carried gives way to them (many wrong keys
// would otherwise crowd out the right one), and is masked only where its
// own call carries it.
func TestJournalKeysOutsideACallBound(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithFault(Fault{Operation: asmx.OpReturnInstitutions, Status: 503}))
	refused := "Refused-Key-00"
	if st := call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnInstitutions, paramsFor(asmx.OpReturnInstitutions, refused)).status; st != http.StatusServiceUnavailable {
		t.Fatalf("the faulted call: got %d, want 503", st)
	}
	var answered []string
	for i := range crossKeyMax {
		k := "Answered-Key-" + strconv.Itoa(10+i)
		answered = append(answered, k)
		if st := call(t, ts.URL, asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, k)).status; st != http.StatusOK {
			t.Fatalf("a call: got %d, want 200", st)
		}
	}
	for _, k := range append([]string{refused}, answered...) {
		resp, err := ts.Client().Get(ts.URL + asmx.ServicePath + "/" + k)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	paths := map[string]bool{}
	for _, e := range ts.Journal(RequestFilter{}) {
		if e.Operation == "" {
			paths[e.Path] = true
		}
	}
	for _, k := range answered {
		if paths[asmx.ServicePath+"/"+k] {
			t.Errorf("the path holding %s, a key answered 200, is shown", k)
		}
	}
	if !paths[asmx.ServicePath+"/"+refused] {
		t.Errorf("the path holding the faulted call's key is masked; want it shown: the 16 keys answered 200 come first (paths %v)", paths)
	}
}

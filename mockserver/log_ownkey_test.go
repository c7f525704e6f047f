package mockserver

import (
	"log/slog"
	"net/http"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// TestLogMasksTheRequestsOwnKey: a request refused before it decoded (a
// mock that takes any key, as serve without --key) whose key is echoed
// elsewhere (another parameter's value the error quotes, a path the error
// page repeats) has the key it sent masked in the request log line, as
// the journal masks it: the log masked the configured keys and a decoded
// call's key only, and showed it in the line's path and error.
func TestLogMasksTheRequestsOwnKey(t *testing.T) {
	t.Parallel()
	logged := &recordingHandler{}
	ts := NewTestServer(t, WithDataset(smallDataset()), WithLogger(slog.New(logged)))
	base := ts.URL + asmx.ServicePath
	form := func(path, body string) *http.Request {
		req := mustRequest(t, "POST", base+path, body)
		req.Header.Set("Content-Type", asmx.ContentTypeForm)
		return req
	}
	for _, req := range []*http.Request{
		mustRequest(t, "GET", base+"/ReturnAtmSearchByCity?strAtmServiceKey="+otherKey+"&intCityID="+otherKey, ""),
		mustRequest(t, "GET", base+"/ReturnProvinces/"+otherKey+"?strAtmServiceKey="+otherKey, ""),
		mustRequest(t, "GET", base+"/"+otherKey+"?STRATMSERVICEKEY="+otherKey, ""),
		form("/ReturnAtmSearchByCity", "strAtmServiceKey="+otherKey+"&intCityID="+otherKey),
	} {
		if got := do(t, req); got.status != http.StatusInternalServerError {
			t.Fatalf("%s %s: status %d, want 500: %.200s", req.Method, req.URL, got.status, got.body)
		}
		_, one, _ := newestShown(t, ts)
		holdsNone(t, append([]string{one}, logged.take()...), keyForms(otherKey))
	}
}

// TestLogMasksKeysOfEarlierCalls: a mock that takes any key (serve
// without --key) masks, in its request log line, the keys its calls
// answered 200 carried, where a later request holds one outside a call
// (.../service.asmx/KEY, which its error echoes): the journal masked them
// when read, the log line, written while serving, only the configured
// keys and the request's own.
func TestLogMasksKeysOfEarlierCalls(t *testing.T) {
	t.Parallel()
	logged := &recordingHandler{}
	ts := NewTestServer(t, WithDataset(smallDataset()), WithLogger(slog.New(logged)))
	base := ts.URL + asmx.ServicePath
	if got := do(t, mustRequest(t, "GET", base+"/ReturnProvinces?strAtmServiceKey="+otherKey, "")); got.status != http.StatusOK {
		t.Fatalf("the key's call: status %d, want 200: %.200s", got.status, got.body)
	}
	for _, u := range []string{base + "/" + otherKey, base + "/ReturnProvinces/" + otherKey} {
		if got := do(t, mustRequest(t, "GET", u, "")); got.status != http.StatusInternalServerError {
			t.Fatalf("GET %s: status %d, want 500: %.200s", u, got.status, got.body)
		}
	}
	lines := logged.take()
	if len(lines) == 0 {
		t.Fatal("nothing logged")
	}
	holdsNone(t, lines, keyForms(otherKey))
}

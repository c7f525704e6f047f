package mockserver

import (
	"log/slog"
	"net/http"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// TestJournalMasksNameSpellings sends the key under the parameter's name
// spelled with a long s (ſ) or a dotless ı, as ASMX's OrdinalIgnoreCase
// reads it (the mock answers the configured key's call 200), in a query
// (percent-encoded), a form and a path the error page echoes, and reads
// each call back through the admin API and the request log: they showed
// a key under those spellings as sent.
func TestJournalMasksNameSpellings(t *testing.T) {
	t.Parallel()
	logged := &recordingHandler{}
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys(plainKey), WithLogger(slog.New(logged)))
	base := ts.URL + asmx.ServicePath + "/ReturnProvinces"
	for _, c := range []struct {
		name   string
		req    *http.Request
		status int
	}{
		{"query, long s", mustRequest(t, "GET", base+"?%C5%BFtrAtmServiceKey="+plainKey, ""), http.StatusOK},
		{"query, dotless i", mustRequest(t, "GET", base+"?strAtmServ%C4%B1ceKey="+plainKey, ""), http.StatusOK},
		{"query, %u escape", mustRequest(t, "GET", base+"?%u017FtrAtmServiceKey="+plainKey, ""), http.StatusOK},
		{"query, another key", mustRequest(t, "GET", base+"?strAtmServ%C4%B1ceKey="+otherKey, ""), http.StatusInternalServerError},
		{"form, dotless i", formRequest(t, base, "strAtmServ\u0131ceKey="+plainKey), http.StatusOK},
		{"form, another key", formRequest(t, base, "\u017ftrAtmServiceKey="+otherKey), http.StatusInternalServerError},
		{"path, long s", mustRequest(t, "GET", base+"/%C5%BFtrAtmServiceKey="+otherKey, ""), http.StatusInternalServerError},
		{"path, dotless i", mustRequest(t, "GET", base+"/strAtmServ%C4%B1ceKey="+otherKey, ""), http.StatusInternalServerError},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := do(t, c.req); got.status != c.status {
				t.Fatalf("status: got %d, want %d: %.300s", got.status, c.status, got.body)
			}
			_, one, all := newestShown(t, ts)
			texts := append([]string{one, all}, jsonStrings(t, one)...)
			holdsNone(t, append(texts, logged.take()...), append(keyForms(plainKey), keyForms(otherKey)...))
		})
	}
}

// formRequest is a form POST of body to u.
func formRequest(t *testing.T, u, body string) *http.Request {
	t.Helper()
	req := mustRequest(t, "POST", u, body)
	req.Header.Set("Content-Type", asmx.ContentTypeForm)
	return req
}

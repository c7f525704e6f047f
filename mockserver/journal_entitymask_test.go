package mockserver

import (
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// TestJournalMasksAKeyStartingWithAnEntity sends SOAP calls whose key
// starts with an entity or a character reference and reads the request
// body back from the journal: the key's element shows the mask of the key
// the text writes, as a query's %XX escapes are read, never the raw
// first two characters (a&****, &a****: a part of an entity, not the
// key's).
func TestJournalMasksAKeyStartingWithAnEntity(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset())) // any key is taken
	for _, c := range []struct{ written, want string }{
		{"&amp;bcdefghij", "<strAtmServiceKey>******</strAtmServiceKey>"},
		{"a&amp;cdefghij", "<strAtmServiceKey>******</strAtmServiceKey>"},
		{"&#76;&#x65;ak-Key-4711", "<strAtmServiceKey>Le****</strAtmServiceKey>"},
	} {
		req := provincesRequest(t, ts.URL, asmx.ContentTypeSOAP11, provincesEnvelope(c.written, ""))
		if got := do(t, req); got.status != 200 {
			t.Fatalf("%s: status %d, want 200: %.300s", c.written, got.status, got.body)
		}
		e, _, _ := newestShown(t, ts)
		if !strings.Contains(e.Request.Body, c.want) {
			t.Errorf("journal's body of key %q: got %q, want it to hold %q", c.written, e.Request.Body, c.want)
		}
	}
}

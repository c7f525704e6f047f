package mockserver

import (
	"log/slog"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// TestJournalMasksPercentEncodedHeaderKeys sends header fields holding a
// key percent-encoded, name and all (once, twice, with %u escapes, the
// name's letters or the key's own escaped), over loopback, and reads the
// call back through the admin API and the request log: the journal showed
// them as sent. The rest of each field, and a field holding no key, stay
// as sent.
func TestJournalMasksPercentEncodedHeaderKeys(t *testing.T) {
	t.Parallel()
	logged := &recordingHandler{}
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("SecretKey1"), WithLogger(slog.New(logged)))
	for _, c := range []struct {
		name, value, want string
		forms             []string // the key as the field writes it
	}{
		{"X-Note", "strAtmServiceKey%3DSecretKey1", "strAtmServiceKey%3DSe****", nil},
		{"X-Note", "strAtmServiceKey%3D" + otherKey, "strAtmServiceKey%3DOt****", nil},
		{"X-Note", "a%20strAtmServiceKey%3D" + otherKey + "%20b", "a%20strAtmServiceKey%3DOt****%20b", nil},
		{"X-Note", "Sec%72etKey1", "Se****", []string{"Sec%72etKey1"}},
		{"X-Note", "strAtmServiceKey%3DSec%2572etKey1", "strAtmServiceKey%3DSe****", []string{"Sec%2572etKey1"}},
		{"X-Note", "%73trAtmServiceKey=Oth%65r-Key-0815", "%73trAtmServiceKey=Ot****", []string{"Oth%65r-Key-0815"}},
		{"X-Note", "strAtmServiceKey%u003D" + otherKey, "strAtmServiceKey%u003DOt****", nil},
		{"X-Note", "STRATMSERVICEKEY%3dOther+Key+0815", "STRATMSERVICEKEY%3dOt****", []string{"Other+Key+0815"}},
		{"Referer", "http://app.example/?next=%2Fs%3Fa%3D1%26strAtmServiceKey%3D" + otherKey, "http://app.example/?next=%2Fs%3Fa%3D1%26strAtmServiceKey%3DOt****", nil},
		{"Referer", "http://app.example/?next=%252Fs%253FstrAtmServiceKey%253D" + otherKey, "http://app.example/?next=%252Fs%253FstrAtmServiceKey%253DOt****", nil},
		{"X-Trace", "100%25 done+ok %3D strAtmServiceKey%3D", "100%25 done+ok %3D strAtmServiceKey%3D", nil},
	} {
		t.Run(c.name+" "+c.value, func(t *testing.T) {
			req := callRequest(t, ts.URL, asmx.SOAP11, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "SecretKey1"))
			req.Header.Set(c.name, c.value)
			do(t, req)
			e, one, all := newestShown(t, ts)
			if got := e.Request.Header.Get(c.name); got != c.want {
				t.Errorf("journal's %s: got %q, want %q", c.name, got, c.want)
			}
			texts := append([]string{one, all}, jsonStrings(t, one)...)
			forms := append([]string{"SecretKey1", otherKey}, c.forms...)
			holdsNone(t, append(texts, logged.take()...), forms)
		})
	}
}

// TestJournalMasksPercentEncodedQueryKeys: a query's value that is a URL
// holding a key (a return address), percent-encoded once or twice, shows
// the key masked in the journal's query, as a header's does.
func TestJournalMasksPercentEncodedQueryKeys(t *testing.T) {
	t.Parallel()
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys("SecretKey1"))
	for _, c := range []struct{ query, want string }{
		{"next=%2Fs%3FstrAtmServiceKey%3D" + otherKey, "next=%2Fs%3FstrAtmServiceKey%3DOt****"},
		{"next=%252Fs%253FstrAtmServiceKey%253D" + otherKey, "next=%252Fs%253FstrAtmServiceKey%253DOt****"},
		{"next=%2Fs%3Fa%3D1", "next=%2Fs%3Fa%3D1"},
	} {
		q := "strAtmServiceKey=SecretKey1&" + c.query
		do(t, mustRequest(t, "GET", ts.URL+asmx.ServicePath+"/ReturnProvinces?"+q, ""))
		e, one, _ := newestShown(t, ts)
		if want := "strAtmServiceKey=Se****&" + c.want; e.Query != want {
			t.Errorf("journal's query of %q: got %q, want %q", q, e.Query, want)
		}
		holdsNone(t, []string{one}, []string{otherKey})
	}
}

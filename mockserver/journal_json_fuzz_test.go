package mockserver

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
)

// FuzzJournalEntryJSON reads any bytes as a journal entry of the admin
// API (GET /__admin/requests of a mock Go code did not start, which may
// be any server): UnmarshalJSON never panics, and an entry it reads is
// one MarshalJSON writes back, and reads again as the same entry.
func FuzzJournalEntryJSON(f *testing.F) {
	e := JournalEntry{
		Seq: 7, Time: time.Date(2026, 11, 29, 9, 30, 0, 123456789, time.UTC), Method: "POST", Path: "/service/service.asmx",
		Binding: asmx.SOAP12, Operation: "ReturnProvinces", Params: map[string]string{"strAtmServiceKey": "go***"},
		Status: 200, Duration: 1500 * time.Microsecond, Fault: "f1", FaultKind: "delay", Source: "atm.yaml#6", Query: "a=b",
		Request:  JournalMessage{Header: http.Header{"Content-Type": {"application/soap+xml"}}, Body: "<x/>", Size: 4},
		Response: JournalMessage{Header: http.Header{}, Body: "\u00e9", Size: 3, Cut: true, Charset: "utf-16le"},
	}
	data, err := json.Marshal(e)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	for _, s := range []string{`{}`, `null`, `{"binding":"soap12"}`, `{"duration":"1h30m"}`, `{"duration":"-0.5µs","time":"2026-01-02T03:04:05+14:00"}`,
		`{"request":{"headers":null,"body":"x"}}`, `{"params":{}}`, `[]`, `{"seq":-1}`, `{"binding":"HttpGet"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var e1 JournalEntry
		if err := json.Unmarshal(data, &e1); err != nil {
			return
		}
		m1, err := json.Marshal(e1)
		if err != nil {
			t.Fatalf("read %q, which MarshalJSON cannot write: %v", data, err)
		}
		var e2 JournalEntry
		if err := json.Unmarshal(m1, &e2); err != nil {
			t.Fatalf("read %q, wrote %s, which UnmarshalJSON refuses: %v", data, m1, err)
		}
		if m2, err := json.Marshal(e2); err != nil || !bytes.Equal(m1, m2) {
			t.Fatalf("read %q: wrote %s, read it back as %s (%v)", data, m1, m2, err)
		}
	})
}

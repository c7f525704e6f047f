package mockserver

import (
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// TestWithRequestEncoding: a name .NET knows sets the encoding (any case,
// its aliases too), UTF-8 by default; a name it does not know, and UTF-16
// or UTF-32, are errors naming it.
func TestWithRequestEncoding(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{"": "utf-8", "iso-8859-1": "iso-8859-1", "ISO-8859-1": "iso-8859-1", "latin1": "iso-8859-1",
		"Windows-1252": "windows-1252", "utf-8": "utf-8", "shift_jis": "shift_jis"} {
		opts := []Option{WithDataset(smallDataset())}
		if name != "" {
			opts = append(opts, WithRequestEncoding(name))
		}
		s, err := New(opts...)
		if err != nil {
			t.Errorf("%q: %v", name, err)
			continue
		}
		if got := s.RequestEncoding(); got != want {
			t.Errorf("%q: RequestEncoding() = %q, want %q", name, got, want)
		}
	}
	for _, name := range []string{"nope", "", "utf-16", "utf-32be"} {
		_, err := New(WithDataset(smallDataset()), WithRequestEncoding(name))
		if err == nil || !strings.Contains(err.Error(), strconv.Quote(name)) {
			t.Errorf("%q: got error %v, want one naming it", name, err)
		}
	}
}

// TestJournalMasksKeysReadInRequestEncoding: a mock whose requestEncoding
// is ISO-8859-5 (Cyrillic) reads a key's %XX escapes and raw bytes in it,
// and its answer echoes the key so read ("Ключ-&lt;b", request
// validation); neither the journal (admin API) nor the request log holds
// the key in any of its forms, a query's and a form's without a charset. A
// wrong key is still a secret: the mock is not configured with this one.
// ISO-8859-1 and windows-1252 readings the masking finds by itself
// (redact.Values); this one only as the mock reads the request.
func TestJournalMasksKeysReadInRequestEncoding(t *testing.T) {
	t.Parallel()
	logged := &recordingHandler{}
	ts := NewTestServer(t, WithDataset(smallDataset()), WithKeys(otherKey), WithRequestEncoding("iso-8859-5"), WithLogger(slog.New(logged)))
	get := func(query string) func() *http.Request {
		return func() *http.Request {
			return mustRequest(t, "GET", ts.URL+asmx.ServicePath+"/ReturnProvinces?"+query, "")
		}
	}
	form := func(body string) func() *http.Request {
		return func() *http.Request {
			req := mustRequest(t, "POST", ts.URL+asmx.ServicePath+"/ReturnProvinces", body)
			req.Header.Set("Content-Type", asmx.ContentTypeForm)
			return req
		}
	}
	forms := []string{"Ключ-", "%BA%DB%EE%E7-", "\xba\xdb\xee\xe7-"}
	tests := []struct {
		name string
		req  func() *http.Request
	}{
		{"GET query, escapes", get("strAtmServiceKey=%BA%DB%EE%E7-%3Cb")},
		{"GET query, raw bytes", get("strAtmServiceKey=\xba\xdb\xee\xe7-%3Cb")},
		{"form without a charset, escapes", form("strAtmServiceKey=%BA%DB%EE%E7-%3Cb")},
		{"form without a charset, raw bytes", form("strAtmServiceKey=\xba\xdb\xee\xe7-%3Cb")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp := do(t, tt.req())
			if want := "Ключ-&lt;b"; !strings.Contains(resp.body, want) {
				t.Fatalf("the answer does not echo the key read in ISO-8859-5 (%q): %d %s", want, resp.status, resp.body)
			}
			_, one, all := newestShown(t, ts)
			texts := append([]string{one, all}, jsonStrings(t, one)...)
			holdsNone(t, append(texts, logged.take()...), forms)
		})
	}
}

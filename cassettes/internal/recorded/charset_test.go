package recorded

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// TestScrubWideBodies: a SOAP request in UTF-16 or UTF-32 (which ASMX
// reads, and the proxy forwards) has its key replaced in its text, written
// back in its own encoding and byte order mark; an answer in UTF-16 that
// echoes the key has it swept; PutKeyBody puts the key back.
func TestScrubWideBodies(t *testing.T) {
	t.Parallel()
	const key = "Wide-Key-4321"
	envelope := `<?xml version="1.0" encoding="utf-16"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
		`<ReturnProvinces xmlns="http://tempuri.org/atmService"><strAtmServiceKey>%s</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`
	le16 := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	be16 := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	le32 := utf32.UTF32(utf32.LittleEndian, utf32.IgnoreBOM)
	tests := []struct {
		name, ct, bom string
		enc           encoding.Encoding
	}{
		{"utf-16le with a byte order mark", "text/xml; charset=utf-16", "\xff\xfe", le16},
		{"utf-16le named by the charset only", "text/xml; charset=utf-16", "", le16},
		{"utf-16be with a byte order mark", "text/xml; charset=utf-16", "\xfe\xff", be16},
		{"utf-16le told by its first bytes (soap 1.2)", "application/soap+xml", "", le16},
		{"utf-32le with a byte order mark (soap 1.2)", "application/soap+xml", "\xff\xfe\x00\x00", le32},
	}
	for _, tt := range tests {
		encode := func(s string) string {
			out, err := tt.enc.NewEncoder().String(s)
			if err != nil {
				t.Fatal(err)
			}
			return tt.bom + out
		}
		decode := func(s string) string {
			out, err := tt.enc.NewDecoder().String(strings.TrimPrefix(s, tt.bom))
			if err != nil {
				t.Fatal(err)
			}
			return out
		}
		body := encode(strings.Replace(envelope, "%s", key, 1))
		i := &cassette.Interaction{
			Request: cassette.Request{Method: "POST", URL: "http://h/service/service.asmx", Body: body, ContentLength: int64(len(body)),
				Headers: http.Header{"Content-Type": {tt.ct}, "Content-Length": {"1"}, "Soapaction": {`"http://tempuri.org/atmService/ReturnProvinces"`}}},
			Response: cassette.Response{Code: 500, Body: encode("<r>the key " + key + " is not valid</r>"), Headers: http.Header{"Content-Type": {"text/xml; charset=utf-16"}}},
		}
		sent, decodes := CallOf(i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body)
		if n := Scrub(i, Placeholder); n == 0 {
			t.Errorf("%s: Scrub replaced nothing", tt.name)
		}
		for what, b := range map[string]string{"request": i.Request.Body, "response": i.Response.Body} {
			if strings.Contains(b, encode(key)[len(tt.bom):]) || strings.Contains(decode(b), key) {
				t.Errorf("%s: the %s body keeps the key: %q", tt.name, what, decode(b))
			}
			if !strings.HasPrefix(b, tt.bom) {
				t.Errorf("%s: the %s body lost its byte order mark: %q", tt.name, what, b)
			}
		}
		if got, want := decode(i.Request.Body), strings.Replace(envelope, "%s", Placeholder, 1); got != want {
			t.Errorf("%s: request body reads\n%s\nwant\n%s", tt.name, got, want)
		}
		if got, want := decode(i.Response.Body), "<r>the key "+Placeholder+" is not valid</r>"; got != want {
			t.Errorf("%s: answer reads %q, want %q", tt.name, got, want)
		}
		if i.Request.ContentLength != int64(len(i.Request.Body)) || i.Request.Headers.Get("Content-Length") != strconv.Itoa(len(i.Request.Body)) {
			t.Errorf("%s: lengths %d, %q; body %d bytes", tt.name, i.Request.ContentLength, i.Request.Headers.Get("Content-Length"), len(i.Request.Body))
		}
		// As the mock decodes it (replay matches by it): the same call, the
		// placeholder its key.
		if c, ok := CallOf(i.Request.Method, i.Request.URL, i.Request.Headers, i.Request.Body); ok != decodes || ok && (c.Key != Placeholder || c.Op != sent.Op) {
			t.Errorf("%s: the scrubbed request decodes to %+v, %v; sent, %+v, %v", tt.name, c, ok, sent, decodes)
		}
		back := PutKeyBody(i.Request.Body, tt.ct, Placeholder, key)
		if back != body {
			t.Errorf("%s: PutKeyBody gave %q, want the request as sent", tt.name, decode(back))
		}
	}
}

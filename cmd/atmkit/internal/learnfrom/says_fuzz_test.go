package learnfrom

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzSays: what says makes of any answer is one line of printable text,
// no longer than maxSays characters and the ellipsis, that never holds the
// URL's query value.
func FuzzSays(f *testing.F) {
	f.Add("text/html", "<html><head><title>Runtime Error</title></head></html>")
	f.Add("text/xml", `<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultstring>boom</faultstring></soap:Fault></soap:Body></soap:Envelope>`)
	f.Add("application/soap+xml", `<s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope"><s:Body><s:Fault><s:Reason><s:Text>bo<!--x-->om</s:Text></s:Reason></s:Fault></s:Body></s:Envelope>`)
	f.Add("text/plain", "Missing parameter: strCity.\r\n")
	f.Add("text/html", "<title>key Fuzz-Key-77 \x00\xff</title>")
	u, err := url.Parse("http://h/service.asmx?apikey=Fuzz-Key-77")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, ctype, body string) {
		s := says(u, ctype, []byte(body))
		if strings.ContainsAny(s, "\r\n") || utf8.RuneCountInString(s) > maxSays+1 || !utf8.ValidString(s) {
			t.Errorf("says(%q, %q) = %q: not one printable line of %d characters or less", ctype, body, s, maxSays)
		}
		if strings.Contains(s, "Fuzz-Key-77") {
			t.Errorf("says(%q, %q) = %q: the key shows", ctype, body, s)
		}
	})
}

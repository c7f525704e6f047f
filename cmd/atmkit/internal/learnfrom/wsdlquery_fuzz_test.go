package learnfrom

import (
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// fuzzQueryKey is the value FuzzWSDLQuery hides in a --wsdl URL's query.
const fuzzQueryKey = "Fz-Query-Key-31"

// FuzzWSDLQuery reads any query of a --wsdl URL, the user's text shape
// learn fetches: the query it fetches (wsdlQuery) asks for the WSDL as
// ASMX reads a query (asmx.ParseDocsQuery), and the line that says where
// it fetches from (Fetching) never shows a value of the query, here a key
// given after it.
func FuzzWSDLQuery(f *testing.F) {
	for _, s := range []string{"", "wsdl", "foo=1&Wsdl", "op=ReturnAllAtms", "foo=1&DISCO&bar=x%26y", "WsDl=1&k=2",
		"%77sdl&k=2&&", "schema=AtmFinder&foo=%20", "disco&WSDL", "wsdl=wsdl1", "w%zzsdl", "=&=x", "a=b=c;d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if kind, _, _ := asmx.ParseDocsQuery(wsdlQuery(raw)); kind != asmx.DocsWSDL {
			t.Fatalf("wsdlQuery(%q) = %q: ASMX reads it as %v, not a request for the WSDL", raw, wsdlQuery(raw), kind)
		}
		if strings.ContainsAny(raw, "#") || strings.Contains(raw, fuzzQueryKey) {
			return // a fragment is no part of the query
		}
		rawURL := "https://atm.example.org/service.asmx?" + raw + "&subscription-key=" + fuzzQueryKey
		if !IsURL(rawURL) {
			return
		}
		if got := Fetching(rawURL); strings.Contains(got, fuzzQueryKey) || strings.Contains(got, "Fz-Query") {
			t.Fatalf("Fetching(%q) = %q: the query's key shows", rawURL, got)
		}
	})
}

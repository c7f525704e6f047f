package asmx

import "testing"

// TestParseDocsQuery: the query of a GET of an .asmx file read as
// DiscoveryServerProtocol reads it (the rules docs/asmx.md gives).
func TestParseDocsQuery(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		query string
		kind  DocsKind
		arg   string
		hasOp bool
	}{
		{"", DocsHelp, "", false},
		{"WSDL", DocsWSDL, "", false},
		{"wsdl&x=1", DocsWSDL, "", false},
		{"wsdl&disco", DocsHelp, "", false}, // the bare values joined: "wsdl,disco"
		{"DISCO", DocsDisco, "", false},
		{"disco=1", DocsHelp, "", false},
		{"wsdl=1", DocsWSDLNotFound, "", false},
		{"WSDL=", DocsWSDLNotFound, "", false},
		{"schema=ds1&wsdl", DocsSchema, "ds1", false},
		{"Schema=", DocsSchema, "", false},
		{"op=ReturnProvinces", DocsHelp, "ReturnProvinces", true},
		{"OP=", DocsHelp, "", true},
		{"op=a&op=b", DocsHelp, "a,b", true},
		{"page=op&tab=msg&op=ReturnAllAtms&bnd=Soap", DocsHelp, "ReturnAllAtms", true},
		// Request.QueryString[null] holds the values of pairs without '=' only:
		// "=x" names "", another key.
		{"=x&wsdl", DocsWSDL, "", false},
		{"disco&=x", DocsDisco, "", false},
		// Names that differ only in case are one, their values in the
		// query's order, as NameValueCollection keeps them.
		{"OP=a&op=b&Op=c", DocsHelp, "a,b,c", true},
		{"SCHEMA=b&schema=a", DocsSchema, "b,a", false},
	} {
		for range 10 { // a map's order would vary from run to run
			kind, arg, hasOp := ParseDocsQuery(c.query)
			if kind == c.kind && arg == c.arg && hasOp == c.hasOp {
				continue
			}
			t.Errorf("ParseDocsQuery(%q): got %d %q %v, want %d %q %v", c.query, kind, arg, hasOp, c.kind, c.arg, c.hasOp)
			break
		}
	}
}

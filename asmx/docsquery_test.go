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
	} {
		kind, arg, hasOp := ParseDocsQuery(c.query)
		if kind != c.kind || arg != c.arg || hasOp != c.hasOp {
			t.Errorf("ParseDocsQuery(%q): got %d %q %v, want %d %q %v", c.query, kind, arg, hasOp, c.kind, c.arg, c.hasOp)
		}
	}
}

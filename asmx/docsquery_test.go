package asmx

import (
	"strings"
	"testing"
)

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
		{"wsdl=1", DocsWSDLNotFound, "1", false},
		{"WSDL=", DocsWSDLNotFound, "", false},
		// The id of an imported service description, as given (a
		// Hashtable's key: compared exactly), values joined.
		{"Wsdl=wsdl1&x=1", DocsWSDLNotFound, "wsdl1", false},
		{"wsdl=WSDL1", DocsWSDLNotFound, "WSDL1", false},
		{"wsdl=wsdl%31&WSDL=b", DocsWSDLNotFound, "wsdl1,b", false},
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

// FuzzParseDocsQuery: a query's names and the values without a name are
// compared as OrdinalIgnoreCase compares them (DiscoveryServerProtocolFactory
// compares Request.QueryString[null] with string.Compare and
// StringComparison.OrdinalIgnoreCase): written in another case, 'i' as the
// dotless 'ı' and 's' as the long 'ſ' (whose upper cases are I and S), a
// query asks for the same document. Only a document's own kinds take an
// op, and only a schema and a service description by id an argument.
func FuzzParseDocsQuery(f *testing.F) {
	for _, q := range []string{"WSDL", "wsdl&x=1", "disco", "disco&=x", "schema=ds1&wsdl", "wsdl=1", "OP=a&op=b&Op=c", "page=op&tab=msg&op=x", "%77sdl", "dis%u0063o"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		kind, arg, hasOp := ParseDocsQuery(q)
		if kind < DocsHelp || kind > DocsWSDLNotFound || (kind != DocsHelp && hasOp) || ((kind == DocsWSDL || kind == DocsDisco) && arg != "") {
			t.Fatalf("ParseDocsQuery(%q) = %d, %q, %v", q, kind, arg, hasOp)
		}
		other := otherCase(q)
		if k, _, op := ParseDocsQuery(other); k != kind || op != hasOp {
			t.Fatalf("ParseDocsQuery(%q) = %d, hasOp %v; of %q, the same to OrdinalIgnoreCase: %d, hasOp %v", q, kind, hasOp, other, k, op)
		}
	})
}

// otherCase writes q's 'i' and 's' as 'ı' and 'ſ', and its other ASCII
// letters in the other case but the u of a %u escape.
func otherCase(q string) string {
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		switch c := q[i]; {
		case c == 'i' || c == 'I':
			b.WriteString("ı")
		case c == 's' || c == 'S':
			b.WriteString("ſ")
		case (c == 'u' || c == 'U') && i > 0 && q[i-1] == '%':
			b.WriteByte(c)
		case c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
		case c >= 'A' && c <= 'Z':
			b.WriteByte(c - 'A' + 'a')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

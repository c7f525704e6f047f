package mockserver

import (
	"bytes"
	"fmt"
	"html"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// The finders of docs_scan.go find what the regular expressions withAddress,
// discoAt and helpAt used find, and the two rewrite a page as they did with
// them: the expressions and the rewriters of before are the oracles here.

var finderOracles = []struct {
	name string
	find finder
	re   *regexp.Regexp
}{
	{"address", addressLocation, regexp.MustCompile(`<(?:[A-Za-z_][\w.-]*:)?address\s[^>]*?\blocation\s*=\s*["']([^"']*)["']`)},
	{"schema import", schemaImport, regexp.MustCompile(`<(?:[A-Za-z_][\w.-]*:)?import\s[^>]*?\bschemaLocation\s*=\s*["']([^"'?]*)\?`)},
	{"wsdl import", wsdlImport, regexp.MustCompile(`<(?:[A-Za-z_][\w.-]*:)?import\s[^>]*?\blocation\s*=\s*["']([^"'?]*)\?`)},
	{"disco location", discoLocation, regexp.MustCompile(`\s(?:ref|docRef|address)\s*=\s*(?:"([^"]*)"|'([^']*)')`)},
	{"help host", helpHost, helpHostRE},
}

var helpHostRE = regexp.MustCompile(`(?i)\bHost:(?:[ \t]|&nbsp;|&#160;)*([^\s<>&"']+)`)

// oracleMatches are re's matches in b as finders give them.
func oracleMatches(re *regexp.Regexp, b []byte) []match {
	var out []match
	for _, m := range re.FindAllSubmatchIndex(b, -1) {
		v0, v1 := m[2], m[3]
		if v0 < 0 {
			v0, v1 = m[4], m[5]
		}
		out = append(out, match{m[0], m[1], v0, v1})
	}
	return out
}

func finderMatches(find finder, b []byte) []match {
	var out []match
	for from := 0; ; {
		m, ok := find(b, from)
		if !ok {
			return out
		}
		out = append(out, m)
		from = m.end
	}
}

// withAddressOracle is withAddress as it was, with regexp.
func withAddressOracle(wsdl []byte, addr string) []byte {
	esc := xmlEscape(addr)
	ofService := func(u []byte) bool {
		return len(u) >= len(asmx.ServicePath) && strings.EqualFold(string(u[len(u)-len(asmx.ServicePath):]), asmx.ServicePath)
	}
	for i, keep := range []func([]byte) bool{func([]byte) bool { return true }, ofService, ofService} {
		out := make([]byte, 0, len(wsdl)+256)
		last := 0
		unmarked := unmarkedSpans(wsdl)
		for _, m := range finderOracles[i].re.FindAllSubmatchIndex(wsdl, -1) {
			if !keep(wsdl[m[2]:m[3]]) || overlapsOracle(unmarked, m[0], m[1]) {
				continue
			}
			out = append(out, wsdl[last:m[2]]...)
			out = append(out, esc...)
			last = m[3]
		}
		wsdl = append(out, wsdl[last:]...)
	}
	return wsdl
}

// discoAtOracle is discoAt as it was, with regexp.
func discoAtOracle(doc []byte, origin string) []byte {
	out := make([]byte, 0, len(doc)+256)
	last := 0
	unmarked := unmarkedSpans(doc)
	for _, m := range oracleMatches(finderOracles[3].re, doc) {
		if overlapsOracle(unmarked, m.start, m.end) {
			continue
		}
		file, end := namedFile(doc[m.v0:m.v1])
		if file == "" {
			continue
		}
		out = append(out, doc[last:m.v0]...)
		out = append(out, html.EscapeString(origin+file)...)
		last = m.v0 + end
	}
	return append(out, doc[last:]...)
}

func overlapsOracle(spans [][2]int, start, end int) bool {
	for _, s := range spans {
		if s[0] < end && start < s[1] {
			return true
		}
	}
	return false
}

// checkFinders fails t where a finder or a rewriter differs from its oracle
// on doc, moved to host.
func checkFinders(t *testing.T, doc []byte, host string) {
	t.Helper()
	for _, o := range finderOracles {
		if got, want := finderMatches(o.find, doc), oracleMatches(o.re, doc); !slices.Equal(got, want) {
			t.Fatalf("%s in %q: got %v, want %v", o.name, doc, got, want)
		}
	}
	origin := "http://" + host
	if got, want := withAddress(doc, origin+asmx.ServicePath), withAddressOracle(doc, origin+asmx.ServicePath); !bytes.Equal(got, want) {
		t.Fatalf("withAddress(%q, %q):\n got %q\nwant %q", doc, origin, got, want)
	}
	if got, want := discoAt(doc, origin), discoAtOracle(doc, origin); !bytes.Equal(got, want) {
		t.Fatalf("discoAt(%q, %q):\n got %q\nwant %q", doc, origin, got, want)
	}
}

// docTokens are what the random documents are made of: the pieces of the
// expressions, in every case and spacing they allow or nearly allow.
var docTokens = []string{
	"<", ">", "<!--", "-->", "<![CDATA[", "]]>", "<!", `"`, "'", "?", ":", "=", " ", "\t", "\n", "\r", "\f", "\v",
	"address", "Address", "location", "Location", "schemaLocation", "import", "ref", "docRef", "Ref",
	"soap:", "s:", "_a.b-1:", "1x:", "wsdl:", "x", "_", "-", ".", "/", "é", "\xc5", "\xbf", "ſ", "K",
	"Host:", "host:", "HOST:", "Hoſt:", "hoſt", "&nbsp;", "&NBSP;", "&nbſp;", "&#160;", "&", "h", "H",
	"http://h:1/app/service/service.asmx", "/Service/SERVICE.asmx", "/service-v2.asmx", ".asmx", "?wsdl", "?schema=R",
}

// TestDocFindersMatchTheirExpressions: on random documents of the
// expressions' pieces, and random hosts, each finder finds what its
// expression finds and the rewriters write what they wrote with them.
func TestDocFindersMatchTheirExpressions(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(170, 1))
	hosts := []string{"127.0.0.1:9", "[::1]:8080", "a'b\"c<d>&e", "ex.org", "h:1/app", ""}
	for i := range 20000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(docTokens[rng.IntN(len(docTokens))])
		}
		t.Run(fmt.Sprint(i), func(t *testing.T) { checkFinders(t, []byte(b.String()), hosts[rng.IntN(len(hosts))]) })
	}
}

// FuzzDocFinders: on any document and host, each finder finds what its
// expression finds and the rewriters write what they wrote with them.
func FuzzDocFinders(f *testing.F) {
	docSeeds(f, func(doc []byte) { f.Add(doc, "127.0.0.1:9") })
	f.Add([]byte(`<a:address location="x" location='y'><s:import  schemaLocation = 'h/service/service.asmx?x'/><!-- <address location="z"> -->`), "[::1]:1")
	f.Add([]byte("<p>HOſT:&NBSP;&#160;\th:1<br>host:x Host:&amp;</p>"), "a&b")
	f.Add([]byte(`<c ref="http://h/service/service.asmx?wsdl" docRef='http://h/service-v2.asmx'  address="http://h/x.asmx">`), "h")
	f.Fuzz(func(t *testing.T, doc []byte, host string) { checkFinders(t, doc, host) })
}

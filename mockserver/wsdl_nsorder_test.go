package mockserver

import (
	"strings"
	"testing"
)

// TestWSDLNamespaceOrderOfEachRuntime: the Hashtable model of
// wsdl_nsorder.go writes the declarations of <wsdl:definitions> in the
// orders public WSDLs of .NET ASMX services show, one per runtime: .NET 4
// (the reference source's Hashtable) in 64-bit and 32-bit worker
// processes, .NET 2.0–3.5 (CLR 2's probe step) in both, with no other
// schema and with the s0, s1, s2 of other schemas. It also gives the order
// of XmlSerializer's xsi and xsd (a new Hashtable of the two) that the
// mock writes on a GET/POST root, xmlns:xsd first, in the runtime the WSDL
// follows.
func TestWSDLNamespaceOrderOfEachRuntime(t *testing.T) {
	clr4x64, clr4x32 := netRuntime{}, netRuntime{bits32: true}
	clr2x64, clr2x32 := netRuntime{clr2: true}, netRuntime{clr2: true, bits32: true}
	for _, c := range []struct {
		rt     netRuntime
		others string // the other schemas' prefixes, by index
		want   string
	}{
		{clr4x64, "", "s soap12 http mime tns soap tm soapenc"},
		{clr4x64, "s1", "s soap12 http mime tns s1 soap tm soapenc"},
		{clr4x64, "s0 s1 s2", "s s2 soap12 http mime tns s0 s1 soap tm soapenc"},
		{clr4x32, "", "tm soapenc mime tns soap s soap12 http"},
		{clr4x32, "s1", "tm soapenc mime tns soap s1 s soap12 http"},
		{clr2x64, "", "s soap12 mime tns soap tm http soapenc"},
		{clr2x32, "", "soap tm soapenc mime tns s soap12 http"},
		{clr2x32, "s1", "soap tm soapenc mime tns s1 s soap12 http"},
		{clr2x32, "s1 s2", "soap tm soapenc mime tns s1 s s2 soap12 http"},
	} {
		var others []prefixNS
		for _, p := range strings.Fields(c.others) {
			others = append(others, prefixNS{p, "urn:other:" + p})
		}
		var got []string
		for _, p := range definitionsNamespaces(c.rt, "urn:service", others) {
			got = append(got, p.prefix)
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("%+v with %q: got %v, want %s", c.rt, c.others, got, c.want)
		}
	}
	for rt, want := range map[netRuntime]string{clr4x64: "xsd xsi", clr4x32: "xsi xsd"} {
		h := newNetHashtable(rt, 0)
		h.add("xsi")
		h.add("xsd")
		if got := strings.Join(h.order(), " "); got != want {
			t.Errorf("%+v: xsi and xsd enumerate as %s, want %s", rt, got, want)
		}
	}
}

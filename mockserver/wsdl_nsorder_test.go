package mockserver

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/shape"
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

// TestWSDLNamespaceDeclarationOrder serves typed shapes whose result has
// fields in 0, 1, 2, 3 and 8 other namespaces than the service's: the
// definitions element declares s1, s2, … among the others in the order
// .NET Framework 4 writes them in a 64-bit worker process (the order of a
// Hashtable of their prefixes; eight others grow its 23 buckets to 47 and
// reorder them all), then targetNamespace and xmlns:wsdl. The mock wrote
// soap, tm, soapenc, mime, tns, s, soap12, http (.NET 2.0–3.5's order in a
// 32-bit process) and every sN after them, an order no runtime writes.
func TestWSDLNamespaceDeclarationOrder(t *testing.T) {
	const ns = "http://example.org/atmService"
	for others, want := range map[int]string{
		0: "s soap12 http mime tns soap tm soapenc",
		1: "s soap12 http mime tns s1 soap tm soapenc",
		2: "s soap12 http mime tns s2 s1 soap tm soapenc",
		3: "s soap12 http mime s3 tns s2 s1 soap tm soapenc",
		8: "s s2 soapenc soap tns s5 http s6 soap12 tm s3 mime s4 s7 s1 s8",
	} {
		t.Run(fmt.Sprint(others), func(t *testing.T) {
			fields := "      - {element: Atms, list: locations, item: {element: Atm, fields: [{element: Id, type: int, value: id}]}}\n"
			for i := 1; i <= others; i++ {
				fields += fmt.Sprintf("      - {element: F%d, namespace: \"http://example.org/n%d\", type: int, value: count}\n", i, i)
			}
			sh, err := shape.Parse([]byte(`version: 1
results:
  Finding:
    layout: typed
    namespace: service
    root: Finding
    fields:
` + fields + `  Banks:
    layout: typed
    namespace: service
    root: Banks
    fields:
      - list: institutions
        item: {element: Bank, fields: [{element: Id, type: int, value: id}]}
  Areas:
    layout: typed
    namespace: service
    root: Areas
    fields:
      - list: provinces
        item: {element: Area, fields: [{element: Code, type: string, value: code}]}
operations:
  ReturnAllAtms: Finding
  ReturnAtmSearchByAddress: Finding
  ReturnAtmSearchByCoordinates: Finding
  ReturnAtmSearchByAddressWithMaximum: Finding
  ReturnAtmSearchByInstitution: Finding
  ReturnAtmSearchByCity: Finding
  ReturnInstitutions: Banks
  ReturnProvinces: Areas
`))
			if err != nil {
				t.Fatal(err)
			}
			srv := newTestServer(t, WithShape(sh), WithNamespace(ns))
			r := docGet(t, srv.URL+"/service/service.asmx?WSDL")
			runChecks(t, r, hasStatus(200))
			tag := regexp.MustCompile(`<wsdl:definitions[^>]*>`).FindString(r.body)
			var got []string
			for _, a := range regexp.MustCompile(` ([^ =]+)="([^"]*)"`).FindAllStringSubmatch(tag, -1) {
				got = append(got, a[1])
				uri := map[string]string{
					"xmlns:s": nsXSD, "xmlns:soap12": nsSOAP12, "xmlns:http": nsHTTP, "xmlns:mime": nsMIME,
					"xmlns:tns": ns, "xmlns:soap": nsSOAP, "xmlns:tm": "http://microsoft.com/wsdl/mime/textMatching/",
					"xmlns:soapenc": "http://schemas.xmlsoap.org/soap/encoding/", "targetNamespace": ns, "xmlns:wsdl": nsWSDL,
				}[a[1]]
				if n, ok := strings.CutPrefix(a[1], "xmlns:s"); ok && uri == "" {
					uri = "http://example.org/n" + n
				}
				if a[2] != uri {
					t.Errorf("%s=%q, want %q", a[1], a[2], uri)
				}
			}
			wantAttrs := "xmlns:" + strings.ReplaceAll(want, " ", " xmlns:") + " targetNamespace xmlns:wsdl"
			if strings.Join(got, " ") != wantAttrs {
				t.Errorf("the definitions element's attributes:\n got %s\nwant %s", strings.Join(got, " "), wantAttrs)
			}
		})
	}
}

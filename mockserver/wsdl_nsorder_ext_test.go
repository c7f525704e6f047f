package mockserver_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
)

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
			body := getOK(t, serveShapeYAML(t, findingHead+fields+findingBanksAreas, ns).URL+"/service/service.asmx?WSDL")
			tag := regexp.MustCompile(`<wsdl:definitions[^>]*>`).FindString(string(body))
			var got []string
			for _, a := range regexp.MustCompile(` ([^ =]+)="([^"]*)"`).FindAllStringSubmatch(tag, -1) {
				got = append(got, a[1])
				uri := map[string]string{
					"xmlns:s": "http://www.w3.org/2001/XMLSchema", "xmlns:soap12": "http://schemas.xmlsoap.org/wsdl/soap12/",
					"xmlns:http": "http://schemas.xmlsoap.org/wsdl/http/", "xmlns:mime": "http://schemas.xmlsoap.org/wsdl/mime/",
					"xmlns:tns": ns, "xmlns:soap": "http://schemas.xmlsoap.org/wsdl/soap/", "xmlns:tm": "http://microsoft.com/wsdl/mime/textMatching/",
					"xmlns:soapenc": "http://schemas.xmlsoap.org/soap/encoding/", "targetNamespace": ns, "xmlns:wsdl": "http://schemas.xmlsoap.org/wsdl/",
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

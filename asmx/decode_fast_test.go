package asmx

import (
	"reflect"
	"strings"
	"testing"
)

// plainShapes are requests as clients send them; the fast reader must take
// every one (or the speed-up silently stops applying).
var plainShapes = []struct {
	name string
	b    Binding
	body string
}{
	{"wsdl client soap11", SOAP11, benchEnvelope},
	{"wsdl client soap12", SOAP12, strings.Replace(benchEnvelope, NamespaceSOAP11, NamespaceSOAP12, 1)},
	{"compact", SOAP11, env11(`<ReturnAtmSearchByCoordinates xmlns="` + ns + `"><strAtmServiceKey>k</strAtmServiceKey><bytRadius>7</bytRadius></ReturnAtmSearchByCoordinates>`)},
	{"prefixed", SOAP11, env11(`<a:ReturnAtmSearchByCoordinates xmlns:a="` + ns + `"><a:bytRadius>7</a:bytRadius><a:strAtmServiceKey>k</a:strAtmServiceKey></a:ReturnAtmSearchByCoordinates>`)},
	{"nil and header", SOAP11, `<?xml version='1.0' encoding='UTF-8'?>
<s:Envelope xmlns:s="` + NamespaceSOAP11 + `" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">
	<s:Header><Auth xmlns="urn:x"><Token>t</Token></Auth></s:Header>
	<s:Body>
		<ReturnAtmSearchByCoordinates xmlns="` + ns + `">
			<strAtmServiceKey>k</strAtmServiceKey>
			<strPostalCode i:nil="true" />
			<dblLatitude> 44.5 </dblLatitude>
			<unknown><deeper>x</deeper></unknown>
		</ReturnAtmSearchByCoordinates>
	</s:Body>
</s:Envelope>
`},
}

func TestDecodeSOAPFastTakesPlainShapes(t *testing.T) {
	action := `"` + ns + `/ReturnAtmSearchByCoordinates"`
	for _, tc := range plainShapes {
		t.Run(tc.name, func(t *testing.T) {
			var routed *Operation
			if tc.b == SOAP11 {
				routed, _ = LookupOperation(OpReturnAtmSearchByCoordinates)
			}
			fast, ok := decodeSOAPFast(tc.b, ns, routed, []byte(tc.body))
			if !ok {
				t.Fatalf("the fast reader gave up on a plain request")
			}
			std, e := DecodeSOAP(tc.b, ns, action, tc.b == SOAP11, []byte(strings.Replace(tc.body, "<", "<!-- x --><", 1)))
			if e != nil {
				t.Fatalf("encoding/xml: %s", e.Fault)
			}
			if !reflect.DeepEqual(fast, std) {
				t.Errorf("got %+v, want %+v", fast, std)
			}
		})
	}
}

// FuzzDecodeSOAPFast checks that whenever the fast reader answers, encoding/xml
// answers the same.
func FuzzDecodeSOAPFast(f *testing.F) {
	for _, tc := range plainShapes {
		f.Add([]byte(tc.body), tc.b == SOAP11)
	}
	f.Add([]byte(env11(`<ReturnProvinces xmlns="`+ns+`"/>`)), false)
	f.Add([]byte(`<a:Envelope xmlns:a="`+NamespaceSOAP11+`"><a:Body><x:ReturnAllAtms xmlns:x="`+ns+`" xmlns=""><strAtmServiceKey xmlns="`+ns+`">k</strAtmServiceKey></x:ReturnAllAtms></a:Body></a:Envelope>`), false)
	f.Fuzz(func(t *testing.T, body []byte, v11 bool) {
		b := SOAP12
		var routed *Operation
		if v11 {
			b = SOAP11
			routed, _ = LookupOperation(OpReturnAtmSearchByCoordinates)
		}
		fast, ok := decodeSOAPFast(b, ns, routed, body)
		if !ok {
			return
		}
		std, e := decodeSOAPStd(b, ns, routed, body)
		if e != nil {
			t.Fatalf("fast reader took a request encoding/xml refuses (%s): %q", e.Fault, body)
		}
		if !reflect.DeepEqual(fast, std) {
			t.Fatalf("fast reader: %+v\nencoding/xml: %+v\nfor %q", fast, std, body)
		}
	})
}

func TestOperationOfAction(t *testing.T) {
	for _, n := range []string{ns, "urn:x", "http://example.org/svc/", ""} {
		for _, op := range operations {
			if got := operationOfAction(n, SOAPAction(n, op.Name)); got != op {
				t.Errorf("ns %q, %s: got %v", n, op.Name, got)
			}
		}
		for _, a := range []string{"", n, n + "/", n + "/Nope", n + "ReturnAllAtms/", "x" + SOAPAction(n, "ReturnAllAtms")} {
			if a == SOAPAction(n, "ReturnAllAtms") {
				continue
			}
			if got := operationOfAction(n, a); got != nil {
				t.Errorf("ns %q, action %q: got %s, want none", n, a, got.Name)
			}
		}
	}
}

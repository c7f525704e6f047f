package asmx

import (
	"strings"
	"testing"
)

// plainShapes are requests as clients send them; the fast reader must take
// every one (or the speed-up silently stops applying).
var plainShapes = []struct {
	name string
	req  SOAPRequest
}{
	{"wsdl client soap11", soap11(OpReturnAtmSearchByCoordinates, benchEnvelope)},
	{"wsdl client soap12", soap12(strings.Replace(benchEnvelope, NamespaceSOAP11, NamespaceSOAP12, 1))},
	{"soap12 with an action parameter", with(soap12(strings.Replace(benchEnvelope, NamespaceSOAP11, NamespaceSOAP12, 1)), func(r *SOAPRequest) {
		r.ContentType += `; action="` + SOAPAction(ns, OpReturnAtmSearchByCoordinates) + `"`
	})},
	{"compact", soap11(OpReturnAtmSearchByCoordinates, env11(`<ReturnAtmSearchByCoordinates xmlns="`+ns+`"><strAtmServiceKey>k</strAtmServiceKey><bytRadius>7</bytRadius></ReturnAtmSearchByCoordinates>`))},
	{"text/xml without a charset", with(soap11(OpReturnProvinces, env11(`<ReturnProvinces xmlns="`+ns+`"><strAtmServiceKey>k</strAtmServiceKey></ReturnProvinces>`)), func(r *SOAPRequest) { r.ContentType = "text/xml" })},
	{"prefixed", soap11(OpReturnAtmSearchByCoordinates, env11(`<a:ReturnAtmSearchByCoordinates xmlns:a="`+ns+`"><a:bytRadius>7</a:bytRadius><a:strAtmServiceKey>k</a:strAtmServiceKey></a:ReturnAtmSearchByCoordinates>`))},
	{"nil and header", soap11(OpReturnAtmSearchByCoordinates, `<?xml version='1.0' encoding='UTF-8'?>
<s:Envelope xmlns:s="`+NamespaceSOAP11+`" xmlns:i="http://www.w3.org/2001/XMLSchema-instance">
	<s:Header><Auth xmlns="urn:x" s:mustUnderstand="1"><Token>t</Token></Auth></s:Header>
	<s:Body>
		<ReturnAtmSearchByCoordinates xmlns="`+ns+`">
			<strAtmServiceKey>k</strAtmServiceKey>
			<strPostalCode i:nil="true" />
			<dblLatitude> 44.5 </dblLatitude>
			<unknown><deeper>x</deeper></unknown>
		</ReturnAtmSearchByCoordinates>
	</s:Body>
</s:Envelope>
`)},
}

func TestDecodeSOAPFastTakesPlainShapes(t *testing.T) {
	for _, tc := range plainShapes {
		t.Run(tc.name, func(t *testing.T) {
			op := routedOp(tc.req)
			fast, ok := decodeSOAPFast(tc.req.Namespace, tc.req.ContentType, op, tc.req.Body)
			if !ok {
				t.Fatalf("the fast reader gave up on a plain request")
			}
			std, e := decodeSOAP(tc.req, false)
			if e != nil {
				t.Fatalf("encoding/xml: %s", e.Message)
			}
			if !sameCall(fast, std) {
				t.Errorf("got %+v, want %+v", fast, std)
			}
		})
	}
}

// usualShapes are the plain shapes the usual request's reader takes (the
// others are the general scanner's).
var usualShapes = map[string]bool{"wsdl client soap11": true, "wsdl client soap12": true,
	"soap12 with an action parameter": true, "compact": true, "text/xml without a charset": true, "prefixed": true}

// decodeUsual reads body as the usual request only.
func decodeUsual(ns, ct string, op *Operation, body []byte) (*Call, bool) {
	s := &fastScanner{in: body}
	s.r = soapReader{ns: ns, ct: ct, op: op, param: -1, deferSet: true}
	return s.usual(op)
}

func TestDecodeSOAPUsualTakesWhatClientsSend(t *testing.T) {
	jaxws := `<?xml version='1.0' encoding='UTF-8'?><S:Envelope xmlns:S="` + NamespaceSOAP11 + `"><S:Body><ns2:ReturnAtmSearchByCoordinates xmlns:ns2="` + ns +
		`"><ns2:strAtmServiceKey>k</ns2:strAtmServiceKey><ns2:strPostalCode></ns2:strPostalCode><ns2:dblLatitude>44.5</ns2:dblLatitude>` +
		`<ns2:dblLongitude>-63.5</ns2:dblLongitude><ns2:bytRadius>10</ns2:bytRadius></ns2:ReturnAtmSearchByCoordinates></S:Body></S:Envelope>`
	shapes := append(plainShapes, struct {
		name string
		req  SOAPRequest
	}{"jax-ws", soap11(OpReturnAtmSearchByCoordinates, jaxws)})
	usualShapes["jax-ws"] = true
	for _, tc := range shapes {
		t.Run(tc.name, func(t *testing.T) {
			c, ok := decodeUsual(tc.req.Namespace, tc.req.ContentType, routedOp(tc.req), tc.req.Body)
			if ok != usualShapes[tc.name] {
				t.Fatalf("usual reader took it: %v, want %v", ok, usualShapes[tc.name])
			}
			if !ok {
				return
			}
			std, e := decodeSOAP(tc.req, false)
			if e != nil {
				t.Fatalf("encoding/xml: %s", e.Message)
			}
			if !sameCall(c, std) {
				t.Errorf("got %+v, want %+v", c, std)
			}
		})
	}
}

// routedOp is the operation a request's action names, as DecodeSOAPRequest
// routes it before reading, or nil.
func routedOp(r SOAPRequest) *Operation {
	if r.HasAction && !matchesBase(r.ContentType, "application/soap+xml") {
		return operationOfAction(r.Namespace, urlDecode(strings.Trim(r.Action, `"`)))
	}
	a, _ := contentTypeParam(r.ContentType, "action")
	return operationOfAction(r.Namespace, urlDecode(a))
}

// FuzzDecodeSOAPFast checks that whenever the fast reader answers, encoding/xml
// answers the same.
func FuzzDecodeSOAPFast(f *testing.F) {
	for _, tc := range plainShapes {
		f.Add(tc.req.Body, tc.req.HasAction)
	}
	f.Add([]byte(env11(`<ReturnProvinces xmlns="`+ns+`"/>`)), false)
	f.Add([]byte(`<a:Envelope xmlns:a="`+NamespaceSOAP11+`"><a:Body><x:ReturnAllAtms xmlns:x="`+ns+`" xmlns=""><strAtmServiceKey xmlns="`+ns+`">k</strAtmServiceKey></x:ReturnAllAtms></a:Body></a:Envelope>`), false)
	// Declarations and attributes .NET's reader refuses and encoding/xml
	// reads (attrError): each reader must refuse them.
	f.Add([]byte(env12(`<ReturnProvinces xmlns="`+ns+`" xmlns:q="http://www.w3.org/2000/xmlns/"><strAtmServiceKey>k</strAtmServiceKey></ReturnProvinces>`)), false)
	f.Add([]byte(env12(`<ReturnProvinces xmlns="http://www.w3.org/2000/xmlns/"><strAtmServiceKey>k</strAtmServiceKey></ReturnProvinces>`)), false)
	f.Add([]byte(env12(`<p:ReturnProvinces xmlns:p=""><strAtmServiceKey>k</strAtmServiceKey></p:ReturnProvinces>`)), false)
	f.Add([]byte(env12(`<ReturnProvinces xmlns="`+ns+`" xmlns:a="urn:a" xmlns:b="urn:a"><strAtmServiceKey a:x="1" b:x="2">k</strAtmServiceKey></ReturnProvinces>`)), true)
	f.Fuzz(func(t *testing.T, body []byte, v11 bool) {
		r := soap12(string(body))
		if v11 {
			r = soap11(OpReturnAtmSearchByCoordinates, string(body))
		}
		if c, ok := decodeUsual(r.Namespace, r.ContentType, routedOp(r), body); ok {
			std, e := decodeSOAP(r, false)
			if e != nil {
				t.Fatalf("usual reader took a request encoding/xml refuses (%s): %q", e.Message, body)
			}
			if !sameCall(c, std) {
				t.Fatalf("usual reader: %+v\nencoding/xml: %+v\nfor %q", c, std, body)
			}
		}
		fast, ok := decodeSOAPFast(r.Namespace, r.ContentType, routedOp(r), body)
		if !ok {
			return
		}
		std, e := decodeSOAP(r, false)
		if e != nil {
			t.Fatalf("fast reader took a request encoding/xml refuses (%s): %q", e.Message, body)
		}
		if !sameCall(fast, std) {
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

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
			if !reflect.DeepEqual(fast, std) {
				t.Errorf("got %+v, want %+v", fast, std)
			}
		})
	}
}

// routedOp is the operation a request's action names, as DecodeSOAPRequest
// routes it before reading, or nil.
func routedOp(r SOAPRequest) *Operation {
	if r.HasAction && !matchesBase(r.ContentType, "application/soap+xml") {
		return operationOfAction(r.Namespace, strings.Trim(r.Action, `"`))
	}
	a, _ := contentTypeParam(r.ContentType, "action")
	return operationOfAction(r.Namespace, a)
}

// FuzzDecodeSOAPFast checks that whenever the fast reader answers, encoding/xml
// answers the same.
func FuzzDecodeSOAPFast(f *testing.F) {
	for _, tc := range plainShapes {
		f.Add(tc.req.Body, tc.req.HasAction)
	}
	f.Add([]byte(env11(`<ReturnProvinces xmlns="`+ns+`"/>`)), false)
	f.Add([]byte(`<a:Envelope xmlns:a="`+NamespaceSOAP11+`"><a:Body><x:ReturnAllAtms xmlns:x="`+ns+`" xmlns=""><strAtmServiceKey xmlns="`+ns+`">k</strAtmServiceKey></x:ReturnAllAtms></a:Body></a:Envelope>`), false)
	f.Fuzz(func(t *testing.T, body []byte, v11 bool) {
		r := soap12(string(body))
		if v11 {
			r = soap11(OpReturnAtmSearchByCoordinates, string(body))
		}
		fast, ok := decodeSOAPFast(r.Namespace, r.ContentType, routedOp(r), body)
		if !ok {
			return
		}
		std, e := decodeSOAP(r, false)
		if e != nil {
			t.Fatalf("fast reader took a request encoding/xml refuses (%s): %q", e.Message, body)
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

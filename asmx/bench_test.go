package asmx

import (
	"strings"
	"testing"
)

// benchEnvelope is a SOAP 1.1 coordinate search as a WSDL-generated client
// sends it: declaration, indentation, xsi/xsd declarations.
const benchEnvelope = `<?xml version="1.0" encoding="utf-8"?>
<soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
  <soap:Body>
    <ReturnAtmSearchByCoordinates xmlns="http://tempuri.org/atmService">
      <strAtmServiceKey>bench-key</strAtmServiceKey>
      <strPostalCode />
      <dblLatitude>46.1368</dblLatitude>
      <dblLongitude>-60.1942</dblLongitude>
      <bytRadius>25</bytRadius>
    </ReturnAtmSearchByCoordinates>
  </soap:Body>
</soap:Envelope>`

// BenchmarkDecodeSOAP decodes a SOAP 1.1 and a SOAP 1.2 request.
func BenchmarkDecodeSOAP(b *testing.B) {
	body12 := strings.Replace(benchEnvelope, NamespaceSOAP11, NamespaceSOAP12, 1)
	for _, c := range []struct {
		name string
		req  SOAPRequest
	}{
		{"soap11", soap11(OpReturnAtmSearchByCoordinates, benchEnvelope)},
		{"soap12", soap12(body12)},
		{"soap12-action", with(soap12(body12), func(r *SOAPRequest) {
			r.ContentType += `; action="` + SOAPAction(DefaultNamespace, OpReturnAtmSearchByCoordinates) + `"`
		})},
	} {
		b.Run(c.name, func(b *testing.B) {
			if _, e := DecodeSOAPRequest(c.req); e != nil {
				b.Fatalf("got error %s", e.Message)
			}
			b.SetBytes(int64(len(c.req.Body)))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = DecodeSOAPRequest(c.req)
			}
		})
	}
}

// BenchmarkDecodeValues decodes the same call from a query string, as the
// GET, POST and JSON bindings do (parsing included).
func BenchmarkDecodeValues(b *testing.B) {
	op, _ := LookupOperation(OpReturnAtmSearchByCoordinates)
	q := "strAtmServiceKey=bench-key&strPostalCode=&dblLatitude=46.1368&dblLongitude=-60.1942&bytRadius=25"
	b.ReportAllocs()
	for b.Loop() {
		values := ParseQuery(q)
		if _, e := DecodeValues(op, HTTPGet, values); e != nil {
			b.Fatal(e.Message)
		}
	}
}

// BenchmarkAppendSOAPResponse wraps a 64 KiB result node in an envelope.
func BenchmarkAppendSOAPResponse(b *testing.B) {
	node := []byte("<atmLocations>" + strings.Repeat("\n  <location><id>1</id></location>", 2000) + "\n</atmLocations>")
	dst := AppendSOAPResponse(nil, SOAP11, DefaultNamespace, OpReturnAllAtms, node)
	b.SetBytes(int64(len(dst)))
	b.ReportAllocs()
	for b.Loop() {
		dst = AppendSOAPResponse(dst[:0], SOAP11, DefaultNamespace, OpReturnAllAtms, node)
	}
}

// BenchmarkAppendEscaped escapes a typical address with one entity.
func BenchmarkAppendEscaped(b *testing.B) {
	s := "1234 Barrington St & Spring Garden Rd, Halifax"
	var dst []byte
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		dst = AppendEscaped(dst[:0], s)
	}
}

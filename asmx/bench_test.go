package asmx

import (
	"net/url"
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
	body11 := []byte(benchEnvelope)
	body12 := []byte(strings.Replace(benchEnvelope, NamespaceSOAP11, NamespaceSOAP12, 1))
	action := `"` + SOAPAction(DefaultNamespace, OpReturnAtmSearchByCoordinates) + `"`
	for _, c := range []struct {
		name      string
		b         Binding
		action    string
		hasAction bool
		body      []byte
	}{
		{"soap11", SOAP11, action, true, body11},
		{"soap12", SOAP12, "", false, body12},
	} {
		b.Run(c.name, func(b *testing.B) {
			if _, e := DecodeSOAP(c.b, DefaultNamespace, c.action, c.hasAction, c.body); e != nil {
				b.Fatalf("got error %s", e.Fault)
			}
			b.SetBytes(int64(len(c.body)))
			b.ReportAllocs()
			for b.Loop() {
				_, _ = DecodeSOAP(c.b, DefaultNamespace, c.action, c.hasAction, c.body)
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
		values, err := url.ParseQuery(q)
		if err != nil {
			b.Fatal(err)
		}
		if _, e := DecodeValues(op, HTTPGet, values); e != nil {
			b.Fatal(e.Fault)
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

package mockserver_test

import (
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// TestTypedElementsTakeAPrefixInScope serves a typed shape whose
// attribute in a namespace makes XmlTextWriter bind a prefix (d1p1) that
// later elements in that namespace are written with. XmlSerializer writes
// every element of a typed result with XmlWriter.WriteStartElement(null,
// name, ns) (XmlSerializationWriter.WriteStartElement, and
// WriteElementString through XmlWriter.WriteElementString), and .NET's
// XmlTextWriter.WriteStartElement, given no prefix, takes the prefix
// FindPrefix(ns) finds in scope before it declares a default namespace:
// <d1p1:Leaf>, <d1p1:Obj n="0">, whose child in the service namespace
// needs no declaration (<W>, the default namespace still the root's), and
// <d3p1:Name> beside the item's own d3p1:own. Mono's XmlSerializer writes
// the same bytes for the same classes. The mock gave each such element a
// default namespace declaration of its own (<Leaf xmlns="urn:A">, <W
// xmlns="…atmService">).
func TestTypedElementsTakeAPrefixInScope(t *testing.T) {
	const ns = "http://example.org/atmService"
	srv := serveShapeYAML(t, findingHead+`      - element: Sites
        list: locations
        item: {element: Site, fields: [{attribute: ref, type: int, value: id}]}
`+banks+`  Areas:
    layout: typed
    namespace: service
    root: Areas
    fields:
      - {attribute: kind, namespace: "urn:A", type: string, generated: true}
      - {element: Leaf, namespace: "urn:A", type: string, generated: true}
      - element: Obj
        namespace: "urn:A"
        fields:
          - {attribute: n, type: int, generated: true}
          - {element: V, type: string, generated: true}
          - {element: W, namespace: service, type: string, generated: true}
      - element: List
        namespace: "urn:A"
        list: provinces
        item:
          element: Area
          fields:
            - {attribute: own, namespace: "urn:B", type: string, value: code}
            - {element: Code, type: string, value: code}
            - {element: Name, namespace: "urn:B", type: string, value: name}
      - {element: Plain, type: string, generated: true}
`+operationsOf("Finding", "Banks", "Areas"), ns)

	get := getOK(t, srv.URL+"/service/service.asmx/ReturnProvinces?strAtmServiceKey=k")
	// Mono's XmlSerializer, the same classes, its LF made CR LF.
	wantGET := strings.ReplaceAll(`<?xml version="1.0" encoding="utf-8"?>
<Areas xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" d1p1:kind="kind-0" xmlns:d1p1="urn:A" xmlns="`+ns+`">
  <d1p1:Leaf>Leaf-0</d1p1:Leaf>
  <d1p1:Obj n="0">
    <d1p1:V>V-0</d1p1:V>
    <W>W-0</W>
  </d1p1:Obj>
  <d1p1:List>
    <d1p1:Area d3p1:own="NB" xmlns:d3p1="urn:B">
      <d1p1:Code>NB</d1p1:Code>
      <d3p1:Name>New Brunswick</d3p1:Name>
    </d1p1:Area>
    <d1p1:Area d3p1:own=`, "\n", "\r\n")
	if !strings.HasPrefix(string(get), wantGET) {
		t.Errorf("GET: not as XmlSerializer writes it; want the start\n%s\ngot\n%.900s", wantGET, get)
	}
	if !strings.HasSuffix(string(get), "  </d1p1:List>\r\n  <Plain>Plain-0</Plain>\r\n</Areas>") {
		t.Errorf("GET: the end is not as XmlSerializer writes it:\n%s", get[max(0, len(get)-200):])
	}

	for _, b := range []string{"soap11", "soap12"} {
		status, soap := mocktest.Call(t, srv.URL, ns, b, asmx.OpReturnProvinces, [][2]string{{asmx.ParamKey, "k"}})
		if status != 200 {
			t.Fatalf("%s: %d %.300s", b, status, soap)
		}
		want := `<ReturnProvincesResult d4p1:kind="kind-0" xmlns:d4p1="urn:A"><d4p1:Leaf>Leaf-0</d4p1:Leaf><d4p1:Obj n="0"><d4p1:V>V-0</d4p1:V><W>W-0</W></d4p1:Obj><d4p1:List><d4p1:Area d6p1:own="NB" xmlns:d6p1="urn:B"><d4p1:Code>NB</d4p1:Code><d6p1:Name>New Brunswick</d6p1:Name></d4p1:Area>`
		if !strings.Contains(string(soap), want) {
			t.Errorf("%s: not as XmlSerializer writes it; want\n%s\ngot\n%.900s", b, want, soap)
		}
		if !strings.Contains(string(soap), `</d4p1:List><Plain>Plain-0</Plain></ReturnProvincesResult>`) {
			t.Errorf("%s: the end is not as XmlSerializer writes it:\n%s", b, soap[max(0, len(soap)-200):])
		}
	}
}

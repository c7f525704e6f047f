package mockserver_test

import (
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// TestTypedResultWithNothingInItIsSelfClosed serves typed results whose
// only elements are the location list, unwrapped, and the search point:
// an array (ArrayOfAtm, the result of a method returning Atm[]) and an
// object with an attribute. A search that finds nothing, and has no
// point, leaves the result's element with no content, and XmlSerializer
// writes it as XmlTextWriter closes an element nothing was written in,
// <X />: the array's element is written WriteStartElement, the items,
// WriteEndElement (XmlSerializationWriterCodeGen.WriteElement), and
// XmlTextWriter.WriteEndElement on a start tag still open calls
// WriteEndStartTag(true) (" />"). Mono's XmlSerializer writes
// <ArrayOfAtm xmlns:xsd="…" xmlns:xsi="…" xmlns="urn:svc" /> for an empty
// Atm[] too. The mock wrote <ReturnAtmSearchByCityResult></…> in SOAP
// and the GET/POST root's end tag on a line of its own. A search with a
// point still writes it, and the end tag.
func TestTypedResultWithNothingInItIsSelfClosed(t *testing.T) {
	const ns = "http://example.org/atmService"
	for _, c := range []struct {
		name, result, root, attrs string
	}{
		{"array", `  ArrayOfAtm:
    layout: typed
    namespace: service
    root: ArrayOfAtm
    fields:
      - list: locations
        item: {element: Atm, fields: [{attribute: n, type: int, value: id}]}
`, "ArrayOfAtm", ""},
		{"object", `  Found:
    layout: typed
    namespace: service
    root: Found
    fields:
      - {attribute: total, type: int, value: count}
      - element: Centre
        fields:
          - {element: Lat, type: double, value: coordinates.latitude}
          - {element: Lon, type: double, value: coordinates.longitude}
      - list: locations
        item: {element: Atm, fields: [{attribute: n, type: int, value: id}]}
`, "Found", ` total="0"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := serveShapeYAML(t, "version: 1\nresults:\n"+c.result+banksAreas+operationsOf(c.root, "Banks", "Areas"), ns)
			city := [][2]string{{asmx.ParamKey, "k"}, {"intCityID", "99999"}}
			soapWant := `<soap:Body><ReturnAtmSearchByCityResponse xmlns="` + ns + `"><ReturnAtmSearchByCityResult` + c.attrs + ` /></ReturnAtmSearchByCityResponse></soap:Body></soap:Envelope>`
			plainWant := "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<" + c.root + ` xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"` + c.attrs + ` xmlns="` + ns + `" />`
			for _, b := range []string{"soap11", "soap12", "get", "post"} {
				status, body := mocktest.Call(t, srv.URL, ns, b, asmx.OpReturnAtmSearchByCity, city)
				if status != 200 {
					t.Fatalf("%s: %d %.300s", b, status, body)
				}
				if strings.HasPrefix(b, "soap") {
					if !strings.HasSuffix(string(body), soapWant) {
						t.Errorf("%s: want the answer to end\n%s\ngot\n%s", b, soapWant, body)
					}
				} else if string(body) != plainWant {
					t.Errorf("%s: want\n%q\ngot\n%q", b, plainWant, body)
				}
			}
			if c.attrs == "" {
				return
			}
			// With a point, the result holds it and ends with its end tag.
			coords := [][2]string{{asmx.ParamKey, "k"}, {"strPostalCode", ""}, {"dblLatitude", "10"}, {"dblLongitude", "10"}, {"bytRadius", "1"}}
			status, body := mocktest.Call(t, srv.URL, ns, "soap11", asmx.OpReturnAtmSearchByCoordinates, coords)
			if want := `<ReturnAtmSearchByCoordinatesResult total="0"><Centre><Lat>10</Lat><Lon>10</Lon></Centre></ReturnAtmSearchByCoordinatesResult>`; status != 200 || !strings.Contains(string(body), want) {
				t.Errorf("soap11 with a point: %d, want %s in\n%s", status, want, body)
			}
			status, body = mocktest.Call(t, srv.URL, ns, "get", asmx.OpReturnAtmSearchByCoordinates, coords)
			if want := "  <Centre>\r\n    <Lat>10</Lat>\r\n    <Lon>10</Lon>\r\n  </Centre>\r\n</Found>"; status != 200 || !strings.HasSuffix(string(body), want) {
				t.Errorf("get with a point: %d, want the end %q in\n%q", status, want, body)
			}
		})
	}
}

// TestTypedObjectWithNothingInItIsSelfClosed: an object inside a typed
// result whose elements are only the result's items (unwrapped) or only
// values of the search point is written <X a="0" /> when they vanish, as
// XmlSerializer writes an object none of whose members it writes
// (WriteStartElement, the attributes, WriteEndElement: XmlTextWriter
// closes the start tag with " />"). The mock wrote <Hits n="0"> and its
// end tag on a line of its own (over GET and POST) or right after it.
func TestTypedObjectWithNothingInItIsSelfClosed(t *testing.T) {
	const ns = "http://example.org/atmService"
	srv := serveShapeYAML(t, `version: 1
results:
  Found:
    layout: typed
    namespace: service
    root: Found
    fields:
      - {element: Count, type: int, value: count}
      - element: Search
        fields:
          - {attribute: total, type: int, value: count}
          - {element: Lat, type: double, value: coordinates.latitude}
      - element: Hits
        fields:
          - {attribute: n, type: int, value: count}
          - list: locations
            item: {element: Atm, fields: [{attribute: id, type: int, value: id}]}
      - {element: Tail, type: string, generated: true}
`+banksAreas+operationsOf("Found", "Banks", "Areas"), ns)
	city := [][2]string{{asmx.ParamKey, "k"}, {"intCityID", "99999"}}
	coords := [][2]string{{asmx.ParamKey, "k"}, {"strPostalCode", ""}, {"dblLatitude", "10"}, {"dblLongitude", "10"}, {"bytRadius", "1"}}
	for _, c := range []struct {
		b, op  string
		params [][2]string
		want   string
	}{
		{"soap11", asmx.OpReturnAtmSearchByCity, city,
			`<ReturnAtmSearchByCityResult><Count>0</Count><Search total="0" /><Hits n="0" /><Tail>Tail-0</Tail></ReturnAtmSearchByCityResult>`},
		{"soap12", asmx.OpReturnAtmSearchByCoordinates, coords,
			`<ReturnAtmSearchByCoordinatesResult><Count>0</Count><Search total="0"><Lat>10</Lat></Search><Hits n="0" /><Tail>Tail-0</Tail></ReturnAtmSearchByCoordinatesResult>`},
		{"get", asmx.OpReturnAtmSearchByCity, city,
			"<Found xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns=\"" + ns + "\">\r\n  <Count>0</Count>\r\n  <Search total=\"0\" />\r\n  <Hits n=\"0\" />\r\n  <Tail>Tail-0</Tail>\r\n</Found>"},
		{"post", asmx.OpReturnAtmSearchByCoordinates, coords,
			"\r\n  <Search total=\"0\">\r\n    <Lat>10</Lat>\r\n  </Search>\r\n  <Hits n=\"0\" />\r\n"},
	} {
		status, body := mocktest.Call(t, srv.URL, ns, c.b, c.op, c.params)
		if status != 200 || !strings.Contains(string(body), c.want) {
			t.Errorf("%s %s: %d, want\n%q\nin\n%q", c.b, c.op, status, c.want, body)
		}
	}
	// With items, the object holds them and ends with its end tag.
	status, body := mocktest.Call(t, srv.URL, ns, "get", asmx.OpReturnAllAtms, [][2]string{{asmx.ParamKey, "k"}})
	if status != 200 || !strings.Contains(string(body), "  <Hits n=\"2000\">\r\n    <Atm id=") || !strings.Contains(string(body), "\" />\r\n  </Hits>\r\n  <Tail>") {
		t.Errorf("get ReturnAllAtms: %d, want <Hits n=\"2000\"> holding the items, in\n%.600s", status, body)
	}
}

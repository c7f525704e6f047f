package mockserver_test

import (
	"bytes"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// prefixedNodes is a node shape whose elements and attributes say the
// prefixes the deployment built them with, as the reference deployment's
// nodes site builds its XmlElements (doc.CreateElement("n", name, ns),
// SetAttribute(name, ns, value)).
const prefixedNodes = `version: 1
results:
  atmList:
    layout: node
    namespace: "urn:atmref:nodes:v3"
    prefix: n
    root: atmList
    fields:
      - {attribute: count, type: int, value: count}
      - list: locations
        item:
          element: atm
          prefix: n
          fields:
            - {attribute: id, type: int, value: id}
  banks:
    layout: node
    type: XmlNode
    namespace: "urn:atmref:nodes:v3"
    prefix: n
    root: banks
    fields:
      - list: institutions
        item: {element: bank, prefix: n, fields: [{attribute: id, type: int, value: id}]}
  provinces:
    layout: node
    namespace: "urn:atmref:nodes:v3"
    prefix: n
    root: provinces
    fields:
      - {attribute: total, namespace: "urn:atmref:nodes:v3", prefix: n, type: int, value: count}
      - element: list
        prefix: n
        list: provinces
        item:
          element: province
          prefix: n
          fields:
            - {attribute: code, type: string, value: code}
            - {attribute: seq, namespace: "urn:atmref:meta", prefix: m, type: int, generated: true}
            - {element: name, prefix: n, type: string, value: name}
            - element: where
              namespace: "urn:atmref:geo"
              prefix: geo
              fields:
                - {attribute: lat, namespace: "urn:atmref:geo", prefix: geo, type: string, generated: true}
                - {attribute: zone, namespace: "urn:atmref:meta", type: string, generated: true}
operations:
  ReturnAllAtms: atmList
  ReturnAtmSearchByAddress: atmList
  ReturnAtmSearchByCoordinates: atmList
  ReturnAtmSearchByAddressWithMaximum: atmList
  ReturnAtmSearchByInstitution: atmList
  ReturnAtmSearchByCity: atmList
  ReturnInstitutions: banks
  ReturnProvinces: provinces
`

// TestNodePrefixes serves a node shape with prefixes and reads
// ReturnProvinces in the four XML bindings, byte for byte, as
// XmlTextWriter writes a DOM element (XmlElement.WriteTo): each prefix
// declared on the element that first uses it, after the element's
// attributes (<n:provinces n:total="…" xmlns:n="…">, as the nodes site
// writes <geo:point geo:lat="…" xmlns:geo="…" />); an attribute in its
// element's prefixed namespace takes that prefix (n:total), declaring
// nothing more; a child in the same namespace reuses the prefix without
// declaring it again (<n:list>, <n:province>, <n:name>); an attribute in
// a namespace a prefix of its own (m:seq) is declared on its element,
// and one saying no prefix takes the prefix in scope for its namespace
// (m:zone). The mock wrote every element in the default namespace
// (<provinces xmlns="…">) and made up the attributes' prefixes
// (d3p1:lat).
func TestNodePrefixes(t *testing.T) {
	const ns = "http://nodes.example.org/atmService"
	srv := serveShapeYAML(t, prefixedNodes, ns)
	// The node and its first province, and its end, as XmlTextWriter
	// writes them: over GET and POST the document's root after the XML
	// declaration, indented; in SOAP inside <OpResult>, with no white
	// space between tags (SoapServerProtocol's writer does not indent).
	const first = `<n:provinces n:total="13" xmlns:n="urn:atmref:nodes:v3">
  <n:list>
    <n:province code="NB" m:seq="1" xmlns:m="urn:atmref:meta">
      <n:name>New Brunswick</n:name>
      <geo:where geo:lat="lat-1" m:zone="zone-1" xmlns:geo="urn:atmref:geo" />
    </n:province>
    <n:province code="NS" m:seq="2" xmlns:m="urn:atmref:meta">`
	const last = `
    <n:province code="YT" m:seq="13" xmlns:m="urn:atmref:meta">
      <n:name>Yukon</n:name>
      <geo:where geo:lat="lat-13" m:zone="zone-13" xmlns:geo="urn:atmref:geo" />
    </n:province>
  </n:list>
</n:provinces>`
	flat := strings.NewReplacer("\n", "", "  ", "")
	for _, c := range []struct{ binding, start, end string }{
		{"soap11", `<ReturnProvincesResult>` + flat.Replace(first), flat.Replace(last) + `</ReturnProvincesResult>`},
		{"soap12", `<ReturnProvincesResult>` + flat.Replace(first), flat.Replace(last) + `</ReturnProvincesResult>`},
		{"get", `<?xml version="1.0" encoding="utf-8"?>` + "\r\n" + mocktest.AsDotNetLines(first), mocktest.AsDotNetLines(last)},
		{"post", `<?xml version="1.0" encoding="utf-8"?>` + "\r\n" + mocktest.AsDotNetLines(first), mocktest.AsDotNetLines(last)},
	} {
		status, body := mocktest.Call(t, srv.URL, ns, c.binding, asmx.OpReturnProvinces, [][2]string{{asmx.ParamKey, "k"}})
		if status != 200 {
			t.Fatalf("%s: %d %.300s", c.binding, status, body)
		}
		s := string(body)
		i := strings.Index(s, c.start)
		if i < 0 || (c.binding == "get" || c.binding == "post") && i != 0 {
			t.Errorf("%s: the answer does not start its result with\n%s\ngot\n%.900s", c.binding, c.start, s)
		}
		if !strings.Contains(s, c.end) || (c.binding == "get" || c.binding == "post") && !strings.HasSuffix(s, c.end) {
			t.Errorf("%s: the result does not end with\n%s\ngot\n%s", c.binding, c.end, s[max(0, len(s)-700):])
		}
	}
}

// TestNodePrefixesHelpPage: the help page's samples of a node result, with
// prefixes or without, show the result as the "xml" placeholder, as
// ASMX's help generator (DefaultWsdlHelpGenerator.aspx) writes an xs:any
// whose namespace no schema of the WSDL describes (WriteXmlValue("xml"));
// the prefixes are the deployment's code's, which no WSDL says. Over HTTP
// GET and POST, whose output part names no element, it writes
// `<?xml version="1.0"?>` and the placeholder (WriteHttpReturnPart), not
// the XmlWriter's declaration with encoding="utf-8" the mock wrote.
func TestNodePrefixesHelpPage(t *testing.T) {
	t.Parallel()
	for _, srv := range []*httptest.Server{serveShapeYAML(t, prefixedNodes, "http://nodes.example.org/atmService"), serveShape(t, nil, asmx.DefaultNamespace)} {
		page := string(getOK(t, srv.URL+asmx.ServicePath+"?op=ReturnProvinces"))
		soap := `&lt;ReturnProvincesResult&gt;<span class="value">xml</span>&lt;/ReturnProvincesResult&gt;`
		httpSample := "\n\n" + `&lt;?xml version=&#34;1.0&#34;?&gt;` + "\n" + `<span class="value">xml</span></pre>`
		if got := strings.Count(page, soap); got != 2 {
			t.Errorf("the SOAP samples: got %d of %s, want 2", got, soap)
		}
		if got := strings.Count(page, httpSample); got != 2 {
			t.Errorf("the HTTP GET and POST samples: got %d of %q, want 2", got, httpSample)
		}
		if strings.Contains(page, "provinces&gt;") || strings.Contains(page, "n:provinces") {
			t.Errorf("a sample shows the node's elements")
		}
	}
}

// TestNodeFullEnd: a node result's value marked fullEnd is written, when
// it is an empty string, as .NET writes an XmlElement whose text was set
// to one (InnerText = ""): the element is not IsEmpty, so XmlElement.WriteTo
// ends it with WriteFullEndElement, and the empty text writes nothing, so
// XmlTextWriter puts the end tag on a line of its own, indented as the
// start tag (<n:url>, then </n:url>), where it indents (GET and POST), and
// right after the start tag where it does not (SOAP: <n:url></n:url>).
// The mock wrote <n:url />, which a value without fullEnd still gets (an
// element given no text: IsEmpty). A value written as the text beside an
// element's attributes alike.
func TestNodeFullEnd(t *testing.T) {
	t.Parallel()
	src := strings.Replace(prefixedNodes, "item: {element: bank, prefix: n, fields: [{attribute: id, type: int, value: id}]}", `item:
          element: bank
          prefix: n
          fields:
            - {attribute: id, type: int, value: id}
            - {element: name, prefix: n, type: string, value: name}
            - {element: url, prefix: n, type: string, value: url, fullEnd: true}
            - {element: site, prefix: n, type: string, value: url}`, 1)
	src = strings.Replace(src, "            - {attribute: id, type: int, value: id}\n  banks:",
		"            - {attribute: id, type: int, value: id}\n            - {text: true, type: string, value: address.landmark, fullEnd: true}\n  banks:", 1)
	var noURL, noLandmark int
	base := valuesServer(t, "", src, func(ds *fixtures.Dataset) {
		ds.Institutions[0].URL = ""
		for _, in := range ds.Institutions {
			if in.URL == "" {
				noURL++
			}
		}
		for _, a := range ds.ATMs {
			if a.Address.Landmark == "" {
				noLandmark++
			}
		}
	})
	for _, b := range []string{"soap11", "soap12", "get", "post"} {
		_, body := mocktest.Call(t, base, asmx.DefaultNamespace, b, asmx.OpReturnInstitutions, [][2]string{{asmx.ParamKey, "k"}})
		s := string(body)
		want, atm := "\r\n    <n:url>\r\n    </n:url>\r\n    <n:site />\r\n  </n:bank>", `\r\n  <n:atm id="\d+">\r\n  </n:atm>`
		if strings.HasPrefix(b, "soap") {
			want, atm = "<n:url></n:url><n:site /></n:bank>", `<n:atm id="\d+"></n:atm>`
		}
		if strings.Count(s, want) != noURL {
			t.Errorf("over %s: want the %d empty urls as\n%s\ngot\n%.1500s", b, noURL, want, s)
		}
		if strings.Contains(s, "<n:url />") || strings.Count(s, "<n:site />") != noURL {
			t.Errorf("over %s: an empty url written <n:url />, or the site not <n:site />", b)
		}
		_, body = mocktest.Call(t, base, asmx.DefaultNamespace, b, asmx.OpReturnAllAtms, [][2]string{{asmx.ParamKey, "k"}})
		if n := len(regexp.MustCompile(atm).FindAll(body, -1)); n != noLandmark {
			t.Errorf("over %s: got %d ATMs without a landmark written with a full end tag, want %d:\n%.800s", b, n, noLandmark, body)
		}
		if bytes.Contains(body, []byte(`" />`)) {
			t.Errorf("over %s: an ATM without a landmark written <n:atm id=\"…\" />", b)
		}
	}
}

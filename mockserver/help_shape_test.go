package mockserver_test

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/shape"
)

// helpShapeNS is the service namespace of the help pages' shape tests.
const helpShapeNS = "http://example.org/help/atmService"

// deepShape is a typed result four classes deep below its list, with
// attributes unqualified, qualified in their class's namespace and in
// another namespace, and a class holding text beside attributes.
const deepShape = `version: 1
results:
  AtmResult:
    layout: typed
    namespace: service
    root: AtmResult
    fields:
      - {attribute: total, type: int, value: count}
      - {attribute: stamp, namespace: "http://example.org/help/atmService", type: int, value: count}
      - element: Atms
        type: ArrayOfAtm
        list: locations
        item:
          element: Atm
          type: Atm
          fields:
            - {attribute: Index, type: int, value: index}
            - {attribute: geo, namespace: "urn:geo", type: int, value: id}
            - {element: AtmId, type: int, value: id}
            - element: Note
              type: Note
              fields:
                - {attribute: kind, type: int, value: institution.id}
                - {attribute: tier, namespace: "http://example.org/help/atmService", type: int, value: institution.id}
                - {text: true, type: string, value: institution.url}
            - element: Bank
              type: Institution
              fields:
                - {element: Name, type: string, value: institution.name}
                - element: Home
                  type: Site
                  fields:
                    - {element: Url, type: string, value: institution.url}
  ArrayOfInstitution:
    layout: typed
    namespace: service
    root: ArrayOfInstitution
    fields:
      - list: institutions
        item: {element: Institution, type: Bank, fields: [{element: Name, type: string, value: name}]}
  ArrayOfProvince:
    layout: typed
    namespace: service
    root: ArrayOfProvince
    fields:
      - list: provinces
        item: {element: Province, type: Province, fields: [{element: Name, type: string, value: name}]}
operations:
  ReturnAllAtms: AtmResult
  ReturnAtmSearchByAddress: AtmResult
  ReturnAtmSearchByCoordinates: AtmResult
  ReturnAtmSearchByAddressWithMaximum: AtmResult
  ReturnAtmSearchByInstitution: AtmResult
  ReturnAtmSearchByCity: AtmResult
  ReturnInstitutions: ArrayOfInstitution
  ReturnProvinces: ArrayOfProvince
`

// responseSamples returns the sample responses of op's help page on a
// server of shape src, by binding ("soap11", "get", ...), as text: the
// markup of the page removed, its escapes read.
func responseSamples(t *testing.T, src, op string) map[string]string {
	t.Helper()
	sh, err := shape.Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	srv := serveShape(t, sh, helpShapeNS)
	_, _, body := mocktest.Get(t, srv.URL+asmx.ServicePath+"?op="+op)
	out := map[string]string{}
	re := regexp.MustCompile(`(?s)<h3 id="([a-z0-9]+)">.*?<pre class="response">(.*?)</pre>`)
	tags := regexp.MustCompile(`</?span[^>]*>`)
	for _, m := range re.FindAllStringSubmatch(string(body), -1) {
		out[m[1]] = html.UnescapeString(tags.ReplaceAllString(m[2], ""))
	}
	if len(out) < 4 {
		t.Fatalf("the help page of %s has %d response samples, want 4 or more:\n%s", op, len(out), body)
	}
	return out
}

// TestHelpSampleAsDotNetWritesIt: a typed result's help samples are what
// .NET's DefaultWsdlHelpGenerator.aspx writes from the WSDL
// (maxObjectGraphDepth 4, WriteComplexType, XmlTextWriter's prefixes):
// a class at depth 4 or more (the SOAP envelope's OpResponse, or the
// GET/POST root, is depth 0) is an empty element with xsi:nil="true", the
// GET/POST root declaring no xsi, the writer makes a prefix of its own
// (d5p1, XmlTextWriter.GeneratePrefix: d, the element's depth in the
// writer, p, a count); an attribute qualified in its class's namespace has
// a prefix the writer makes (or the one in scope), one in another namespace (a ref to a global
// attribute) has no name and no value (the generator writes attr.Name,
// null for a ref); a class's text beside its attributes is not written
// (the generator never writes a simpleContent's base type). The mock
// wrote every class whole, every attribute by its name alone, and the
// text.
func TestHelpSampleAsDotNetWritesIt(t *testing.T) {
	t.Parallel()
	s := responseSamples(t, deepShape, asmx.OpReturnAllAtms)
	for _, b := range []string{"soap11", "soap12", "get", "post"} {
		for _, want := range []string{
			`<Atm Index="int" ="">`,
			`<AtmId>int</AtmId>`,
		} {
			if !strings.Contains(s[b], want) {
				t.Errorf("%s: the sample lacks %q:\n%s", b, want, s[b])
			}
		}
	}
	for _, b := range []string{"soap11", "soap12"} {
		for _, want := range []string{
			`<ReturnAllAtmsResult total="int" d4p1:stamp="int" xmlns:d4p1="` + helpShapeNS + `">`,
			"<Note xsi:nil=\"true\" />",
			"<Bank xsi:nil=\"true\" />",
		} {
			if !strings.Contains(s[b], want) {
				t.Errorf("%s: the sample lacks %q:\n%s", b, want, s[b])
			}
		}
	}
	for _, b := range []string{"get", "post"} {
		for _, want := range []string{
			`<AtmResult total="int" d1p1:stamp="int" xmlns:d1p1="` + helpShapeNS + `" xmlns="` + helpShapeNS + `">`,
			`<Note kind="int" d1p1:tier="int" />`, // the root's prefix, in scope
			"<Bank>\n        <Name>string</Name>\n        <Home d5p1:nil=\"true\" xmlns:d5p1=\"http://www.w3.org/2001/XMLSchema-instance\" />\n      </Bank>",
		} {
			if !strings.Contains(s[b], want) {
				t.Errorf("%s: the sample lacks %q:\n%s", b, want, s[b])
			}
		}
	}
}

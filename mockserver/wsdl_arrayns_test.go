package mockserver_test

import (
	"bytes"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"
)

// TestWSDLArrayTypeInItemNamespace serves a typed shape whose list element
// is in one namespace and its items in another (XmlArray and XmlArrayItem
// each with a Namespace): the WSDL declares the ArrayOfX type in the
// items' namespace, the item element locally in it, as .NET and Mono do
// (seen on the reference deployment's layered site); it was declared in
// the list element's namespace, with a reference to an item element of
// the other, a type a proxy generator reads as another.
func TestWSDLArrayTypeInItemNamespace(t *testing.T) {
	const (
		ns    = "http://example.org/atmService"
		sites = "http://example.org/sites"
		site  = "http://example.org/site"
	)
	doc, body := wsdlDoc(t, serveShapeYAML(t, findingHead+`      - {attribute: found, type: int, value: count}
      - element: Sites
        namespace: "`+sites+`"
        list: locations
        item:
          element: Site
          namespace: "`+site+`"
          fields:
            - {element: Ref, type: int, value: id}
`+findingBanksAreas, ns))
	var arrayIn string
	for _, s := range doc.FindElements("//types/schema") {
		for _, ct := range s.SelectElements("complexType") {
			if ct.SelectAttrValue("name", "") == "ArrayOfSite" {
				arrayIn = s.SelectAttrValue("targetNamespace", "")
				if el := ct.FindElement("sequence/element"); el == nil || el.SelectAttrValue("name", "") != "Site" {
					t.Errorf("ArrayOfSite's item: %v, want a local element Site", el)
				}
			}
		}
	}
	if arrayIn != site {
		t.Errorf("ArrayOfSite is declared in %q, want the items' namespace %q\n%s", arrayIn, site, body)
	}
}

// TestWSDLXmlNodeResult serves the built-in shape with ReturnInstitutions
// returning an XmlNode (type: XmlNode): its result element is declared
// with mixed content, as .NET and Mono declare an XmlNode (seen on the
// reference deployment's nodes site); the XmlElement results keep the
// plain sequence of xs:any.
func TestWSDLXmlNodeResult(t *testing.T) {
	sh := shape.Default()
	sh.Result(asmx.OpReturnInstitutions).Type = shape.NodeXmlNode
	if err := sh.Validate(); err != nil {
		t.Fatal(err)
	}
	doc, body := wsdlDoc(t, serveShape(t, sh, asmx.DefaultNamespace))
	for _, op := range []string{asmx.OpReturnAllAtms, asmx.OpReturnInstitutions, asmx.OpReturnProvinces} {
		var ct *etree.Element
		for _, el := range doc.FindElements("//types/schema/element") {
			if el.SelectAttrValue("name", "") == op+"Response" {
				ct = el.FindElement("complexType/sequence/element/complexType")
			}
		}
		if ct == nil || ct.FindElement("sequence/any") == nil {
			t.Fatalf("%s: no result type holding xs:any in\n%s", op, body)
		}
		if got, want := ct.SelectAttrValue("mixed", ""), map[bool]string{true: "true"}[op == asmx.OpReturnInstitutions]; got != want {
			t.Errorf("%s: mixed=%q, want %q", op, got, want)
		}
	}
}

// wsdlDoc is the WSDL srv serves, parsed, and its bytes.
func wsdlDoc(t *testing.T, srv *httptest.Server) (*etree.Document, []byte) {
	t.Helper()
	body := getOK(t, srv.URL+"/service/service.asmx?WSDL")
	doc := etree.NewDocument()
	if err := doc.ReadFromBytes(body); err != nil {
		t.Fatal(err)
	}
	return doc, body
}

// TestWSDLLinesEndWithCRLFInEveryShape: ServiceDescription.Write's
// indenting XmlTextWriter breaks every line with TextWriter.WriteLine, CR
// LF on .NET Framework, in the pieces a shape adds (result types, DataSet
// types, other namespaces' schemas, an XmlNode's mixed type) as in the
// rest of the document.
func TestWSDLLinesEndWithCRLFInEveryShape(t *testing.T) {
	xmlNode := shape.Default()
	xmlNode.Result(asmx.OpReturnInstitutions).Type = shape.NodeXmlNode
	shapes := map[string]*shape.Shape{"default": shape.Default(), "XmlNode": xmlNode}
	var files []string
	for _, pattern := range []string{"testdata/shapes/*.yaml", "../shape/testdata/*.yaml", "../shape/learn/testdata/*.yaml", "../shape/learn/testdata/variants/*.yaml"} {
		matches, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, matches...)
	}
	if len(files) < 10 {
		t.Fatalf("found %d shape files, want the test data's", len(files))
	}
	for _, f := range files {
		sh, err := shape.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		shapes[f] = sh
	}
	for name, sh := range shapes {
		if err := sh.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var data []mockserver.Option
		if strings.Contains(string(shape.Marshal(sh, "")), "enum: ") {
			// An enum of the reference sites': their store, whose
			// provinces it holds (the built-in data set's it does not).
			data = append(data, mockserver.WithFixturesDir(refStore))
		}
		status, _, body := mocktest.Get(t, serveShape(t, sh, "http://example.org/atm/", data...).URL+"/service/service.asmx?WSDL")
		if lf, crlf := bytes.Count(body, []byte("\n")), bytes.Count(body, []byte("\r\n")); status != 200 || lf < 100 || lf != crlf {
			i := bytes.Index(bytes.ReplaceAll(body, []byte("\r\n"), []byte("..")), []byte("\n"))
			t.Errorf("%s: %d, %d line feeds, %d of them after CR; want every line broken with CR LF; the first bare one: %q",
				name, status, lf, crlf, body[max(0, i-80):min(len(body), i+80)])
		}
	}
}

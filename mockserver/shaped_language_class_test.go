package mockserver_test

import (
	"regexp"
	"strings"
	"testing"
)

// TestLanguageItemsOfAClass serves a shape whose language items are
// objects of a class of their own (XmlText holding the code, beside a
// generated attribute), as a deployment writing
// class Tongue { [XmlAttribute] bool primary; [XmlText] string Code; }
// does: every language of a location is written as <Tongue
// primary="false">en</Tongue>, and the WSDL declares the class with
// simpleContent. A shape with fields in a language item was refused.
func TestLanguageItemsOfAClass(t *testing.T) {
	const ns = "http://example.org/atmService"
	srv := serveShapeYAML(t, findingHead+`      - {element: Count, type: int, value: count}
      - element: Sites
        list: locations
        item:
          element: Site
          fields:
            - {element: Ref, type: int, value: id}
            - element: Tongues
              list: languages
              item:
                element: Tongue
                type: Tongue
                fields:
                  - {attribute: primary, type: boolean, generated: true}
                  - {text: true, type: string, value: language}
`+findingBanksAreas, ns)
	answer := string(getOK(t, srv.URL+"/service/service.asmx/ReturnAllAtms?strAtmServiceKey=k"))
	tongues := regexp.MustCompile(`<Tongue primary="false">([a-z]+)</Tongue>`).FindAllStringSubmatch(answer, -1)
	if len(tongues) == 0 || strings.Count(answer, "<Tongue ") != len(tongues) {
		t.Errorf("the languages are not written as Tongue objects holding the code:\n%.2000s", answer)
	}
	wsdl := string(getOK(t, srv.URL+"/service/service.asmx?WSDL"))
	if !regexp.MustCompile(`<s:complexType name="Tongue">\s*<s:simpleContent>\s*<s:extension base="s:string">\s*<s:attribute name="primary" type="s:boolean" use="required" />`).MatchString(wsdl) {
		t.Errorf("the WSDL does not declare the class Tongue:\n%s", wsdl)
	}
	if !strings.Contains(wsdl, `<s:complexType name="ArrayOfTongue">`) {
		t.Errorf("the WSDL does not declare ArrayOfTongue")
	}
}

package mockserver_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// TestAttributeNamespacesDeclaredAtTheEndOfTheStartTag serves a shape
// whose elements hold attributes in namespaces of their own, among
// attributes in none. XmlTextWriter declares the prefixes it makes up for
// them (d<level>p<n>) when it closes the start tag: after every
// attribute, the last made up first, then the element's default
// namespace, as Mono's ASMX writes the reference deployment's layered
// site (<Owner id="200" d4p1:cu="false" web="…"
// xmlns:d4p1="…/flags" xmlns="…/sitetype">) and as XmlTextWriter writes
// two such namespaces on Mono:
// <Owner a="1" d2p1:b="2" c="3" d2p2:d="4" d2p1:e="5" xmlns:d2p2="urn:B" xmlns:d2p1="urn:A" xmlns="urn:t">.
// An attribute in a namespace an enclosing element made a prefix for
// takes that prefix, declaring none (XmlTextWriter's LookupPrefix), as
// the layered site's ReturnInstitutions writes its items:
// <Roster … d1p1:size="4" xmlns:d1p1="…/flags" …><Member id="100"
// d1p1:cu="false" …>. The mock declared each prefix right after its first
// attribute, and made up a new one on every element.
func TestAttributeNamespacesDeclaredAtTheEndOfTheStartTag(t *testing.T) {
	const ns = "http://example.org/atmService"
	srv := serveShapeYAML(t, findingHead+`      - {attribute: total, type: int, value: count}
      - {attribute: kind, namespace: "urn:K", type: string, generated: true}
      - element: Sites
        list: locations
        item:
          element: Site
          fields:
            - {attribute: ref, type: int, value: id}
            - element: Owner
              namespace: "urn:t"
              fields:
                - {attribute: a, type: int, value: institution.id}
                - {attribute: b, namespace: "urn:A", type: boolean, value: institution.isAtlanticCreditUnion}
                - {attribute: k, namespace: "urn:K", type: string, generated: true}
                - {attribute: c, type: string, value: institution.url}
                - {attribute: d, namespace: "urn:B", type: string, generated: true}
                - {attribute: e, namespace: "urn:A", type: string, value: institution.name}
                - {element: X, type: string, generated: true}
`+findingBanksAreas, ns)

	get := getOK(t, srv.URL+"/service/service.asmx/ReturnAllAtms?strAtmServiceKey=k")
	status, soap := mocktest.Call(t, srv.URL, ns, "soap11", asmx.OpReturnAllAtms, [][2]string{{asmx.ParamKey, "k"}})
	if status != 200 {
		t.Fatalf("SOAP 1.1: %d %.300s", status, soap)
	}
	for _, c := range []struct {
		binding string
		body    []byte
		root    *regexp.Regexp
		owner   *regexp.Regexp
	}{
		{"get", get,
			regexp.MustCompile(`<Finding xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" total="\d+" d1p1:kind="[^"]*" xmlns:d1p1="urn:K" xmlns="` + ns + `">`),
			regexp.MustCompile(`<Owner a="\d+" d4p1:b="(true|false)" d1p1:k="[^"]*" c="[^"]*" d4p2:d="[^"]*" d4p1:e="[^"]*" xmlns:d4p2="urn:B" xmlns:d4p1="urn:A" xmlns="urn:t">`)},
		{"soap11", soap,
			regexp.MustCompile(`<ReturnAllAtmsResult total="\d+" d4p1:kind="[^"]*" xmlns:d4p1="urn:K">`),
			regexp.MustCompile(`<Owner a="\d+" d7p1:b="(true|false)" d4p1:k="[^"]*" c="[^"]*" d7p2:d="[^"]*" d7p1:e="[^"]*" xmlns:d7p2="urn:B" xmlns:d7p1="urn:A" xmlns="urn:t">`)},
	} {
		if !c.root.Match(c.body) {
			t.Errorf("%s: the result's start tag is not as XmlTextWriter writes it (want %s):\n%.600s", c.binding, c.root, c.body)
		}
		owners := c.owner.FindAll(c.body, -1)
		if len(owners) == 0 || len(owners) != strings.Count(string(c.body), "<Owner ") {
			t.Errorf("%s: %d of %d <Owner> start tags as XmlTextWriter writes them (want %s):\n%.1500s", c.binding, len(owners), strings.Count(string(c.body), "<Owner "), c.owner, c.body)
		}
	}
}

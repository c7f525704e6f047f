package conformance

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/beevik/etree"
)

// wsdlOrSkip returns the target's WSDL, or a skip when it serves none (an
// error status), or a failure when its 200 answer is no WSDL.
func (s *Session) wsdlOrSkip() (*etree.Element, *Exchange, error) {
	doc, x, err := s.WSDL()
	if err != nil {
		return nil, nil, err
	}
	if doc == nil && x != nil && x.Status == http.StatusOK {
		// ASMX answers ?WSDL with the WSDL or an error status: a 200 that
		// is none is a broken WSDL (cut short, say), not a WSDL not served.
		got := ""
		if d, err := parseXML(x.RespBody, x.masks()...); err != nil {
			got = fmt.Sprintf("%v in %s", err, snippet(x.RespBody, x.masks()...))
		} else {
			got = "root element " + nameOf(d.Root()).String()
		}
		return nil, nil, fail(x, "GET "+servicePath+"?WSDL: body", "a WSDL document ("+qname{wsdlNS, "definitions"}.String()+"), as ASMX answers with 200", "%s", got)
	}
	if doc == nil {
		status := "no answer"
		if x != nil {
			status = fmt.Sprintf("HTTP %d, %s", x.Status, clip(x.ContentType(), 100, x.masks()...))
		}
		return nil, nil, skip("the target serves no WSDL at %s?WSDL (%s)", servicePath, status)
	}
	return doc.Root(), x, nil
}

// wsdlAndNamespace returns the target's WSDL (or a skip, as wsdlOrSkip)
// and the service namespace, for the checks that compare one with the
// other.
func (s *Session) wsdlAndNamespace() (*etree.Element, *Exchange, string, error) {
	defs, x, err := s.wsdlOrSkip()
	if err != nil {
		return nil, nil, "", err
	}
	ns, err := s.Namespace()
	if err != nil {
		return nil, nil, "", err
	}
	return defs, x, ns, nil
}

// children returns e's child elements named {space}local.
func children(e *etree.Element, space, local string) []*etree.Element {
	var out []*etree.Element
	for _, k := range e.ChildElements() {
		if nameOf(k) == (qname{space, local}) {
			out = append(out, k)
		}
	}
	return out
}

// attrQName resolves a QName-valued attribute (type="s:string").
func attrQName(e *etree.Element, attr string) qname {
	v := e.SelectAttrValue(attr, "")
	prefix, local, ok := strings.Cut(v, ":")
	if !ok {
		prefix, local = "", v
	}
	return qname{resolve(e, prefix), local}
}

// schemaElement finds the global xs:element name in the WSDL's schemas for
// namespace ns.
func schemaElement(defs *etree.Element, ns, name string) *etree.Element {
	for _, types := range children(defs, wsdlNS, "types") {
		for _, schema := range children(types, xsdNS, "schema") {
			if schema.SelectAttrValue("targetNamespace", "") != ns {
				continue
			}
			for _, el := range children(schema, xsdNS, "element") {
				if el.SelectAttrValue("name", "") == name {
					return el
				}
			}
		}
	}
	return nil
}

// sequenceOf returns the xs:element children of the element's inline
// complexType sequence, or of the named complexType it refers to.
func sequenceOf(defs, el *etree.Element, ns string) []*etree.Element {
	ct := children(el, xsdNS, "complexType")
	if len(ct) == 0 {
		t := attrQName(el, "type")
		for _, types := range children(defs, wsdlNS, "types") {
			for _, schema := range children(types, xsdNS, "schema") {
				if schema.SelectAttrValue("targetNamespace", "") != t.Space {
					continue
				}
				for _, c := range children(schema, xsdNS, "complexType") {
					if c.SelectAttrValue("name", "") == t.Local {
						ct = append(ct, c)
					}
				}
			}
		}
	}
	for _, c := range ct {
		for _, seq := range children(c, xsdNS, "sequence") {
			return children(seq, xsdNS, "element")
		}
	}
	return nil
}

func wsdlChecks() []Check {
	cs := []Check{{
		Name:        "wsdl/namespace",
		Group:       "the WSDL",
		Description: "the WSDL's targetNamespace is the service namespace and its portType has the eight operations",
		Labels:      []string{"wsdl", "documented"},
		Run: func(s *Session, _ Notef) error {
			defs, x, ns, err := s.wsdlAndNamespace()
			if err != nil {
				return err
			}
			if tns := defs.SelectAttrValue("targetNamespace", ""); tns != ns {
				return fail(x, "WSDL targetNamespace", ns, "%q", tns)
			}
			for _, pt := range children(defs, wsdlNS, "portType") {
				have := map[string]bool{}
				for _, o := range children(pt, wsdlNS, "operation") {
					have[o.SelectAttrValue("name", "")] = true
				}
				for _, op := range Operations {
					if !have[op.Name] {
						return fail(x, "WSDL portType "+pt.SelectAttrValue("name", ""), "an operation "+op.Name, "operations %v", have)
					}
				}
			}
			return nil
		},
	}, {
		Name:        "wsdl/bindings",
		Group:       "the WSDL",
		Description: "the WSDL names its bindings <Service>Soap, Soap12, HttpGet and HttpPost, and SOAP 1.1 actions are {ns}/<Op>",
		// Labelled with the bindings it covers, so that a run narrowed to
		// the bindings a deployment serves leaves it out.
		Labels: []string{"wsdl", "asmx", "soap11", "soap12", "get", "post"},
		Run: func(s *Session, _ Notef) error {
			defs, x, ns, err := s.wsdlAndNamespace()
			if err != nil {
				return err
			}
			var bnames []string
			var soap11 *etree.Element
			for _, b := range children(defs, wsdlNS, "binding") {
				n := b.SelectAttrValue("name", "")
				bnames = append(bnames, n)
				if strings.HasSuffix(n, "Soap") {
					soap11 = b
				}
			}
			for _, suffix := range []string{"Soap", "Soap12", "HttpGet", "HttpPost"} {
				ok := false
				for _, n := range bnames {
					ok = ok || strings.HasSuffix(n, suffix)
				}
				if !ok {
					return fail(x, "WSDL bindings", "a binding named <Service>"+suffix, "%q", bnames)
				}
			}
			actions := map[string]string{}
			for _, o := range children(soap11, wsdlNS, "operation") {
				for _, so := range children(o, wsdlSOAPNS, "operation") {
					actions[o.SelectAttrValue("name", "")] = so.SelectAttrValue("soapAction", "")
				}
			}
			for _, op := range Operations {
				if want := soapAction(ns, op.Name); actions[op.Name] != want {
					return fail(x, "WSDL soapAction of "+op.Name+" in "+soap11.SelectAttrValue("name", ""), want, "%q", actions[op.Name])
				}
			}
			return nil
		},
	}}
	cs = append(cs, Check{
		Name:        "wsdl/addresses",
		Group:       "the WSDL",
		Description: "the WSDL's four ports point at /service/service.asmx below a base address (the address asked, noted when not)",
		Labels:      []string{"wsdl", "asmx", "soap11", "soap12", "get", "post"},
		Run: func(s *Session, note Notef) error {
			defs, x, err := s.wsdlOrSkip()
			if err != nil {
				return err
			}
			ports := 0
			for _, svc := range children(defs, wsdlNS, "service") {
				for _, port := range children(svc, wsdlNS, "port") {
					for _, a := range port.ChildElements() {
						loc := a.SelectAttrValue("location", "")
						if a.Tag != "address" || loc == "" {
							continue
						}
						ports++
						u, err := url.Parse(loc)
						if err != nil || !strings.HasSuffix(u.Path, servicePath) {
							return fail(x, "WSDL port "+port.SelectAttrValue("name", "")+" address", "a location ending in "+servicePath, "%q", loc)
						}
						if base := strings.TrimSuffix(loc, servicePath); base != s.base {
							note("port %s: location %s, not on the address asked (%s)", port.SelectAttrValue("name", ""), loc, withoutPassword(s.base))
						}
					}
				}
			}
			if ports < 4 {
				return fail(x, "WSDL service ports", "four ports with an address (SOAP, SOAP 1.2, HttpGet, HttpPost)", "%d", ports)
			}
			return nil
		},
	})
	for _, op := range Operations {
		cs = append(cs, Check{
			Name:        "wsdl/parameters/" + op.Name,
			Group:       "the WSDL",
			Description: "the WSDL declares " + op.Name + "'s parameters in the document's order with the document's types",
			Labels:      []string{"wsdl", "documented"},
			Run: func(s *Session, _ Notef) error {
				defs, x, ns, err := s.wsdlAndNamespace()
				if err != nil {
					return err
				}
				el := schemaElement(defs, ns, op.Name)
				if el == nil {
					return fail(x, "WSDL types", "an element "+op.Name+" in a schema for "+ns, "none")
				}
				var want, got []string
				for _, p := range op.Params {
					want = append(want, p+":"+paramTypes[p])
				}
				for _, e := range sequenceOf(defs, el, ns) {
					t := attrQName(e, "type")
					typ := t.Local
					if t.Space != xsdNS {
						typ = t.String()
					}
					got = append(got, e.SelectAttrValue("name", "")+":"+typ)
				}
				if strings.Join(want, " ") != strings.Join(got, " ") {
					return fail(x, "WSDL input sequence of "+op.Name, strings.Join(want, " "), "%s", strings.Join(got, " "))
				}
				return nil
			},
		})
	}
	return cs
}

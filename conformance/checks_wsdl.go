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
		Description: "the WSDL names its bindings <Service>Soap, Soap12, HttpGet and HttpPost, each written as ASMX writes it: the SOAP ones document/literal in their own extension's namespace (soap:, soap12:) with actions {ns}/<Op>, the HTTP ones with their verb",
		// Labelled with the bindings it covers, so that a run narrowed to
		// the bindings a deployment serves leaves it out.
		Labels: []string{"wsdl", "asmx", "soap11", "soap12", "get", "post"},
		Run: func(s *Session, _ Notef) error {
			defs, x, ns, err := s.wsdlAndNamespace()
			if err != nil {
				return err
			}
			var bnames []string
			bySuffix := map[string]*etree.Element{}
			for _, b := range children(defs, wsdlNS, "binding") {
				n := b.SelectAttrValue("name", "")
				bnames = append(bnames, n)
				for _, suffix := range []string{"Soap", "Soap12", "HttpGet", "HttpPost"} {
					if strings.HasSuffix(n, suffix) && bySuffix[suffix] == nil {
						bySuffix[suffix] = b
					}
				}
			}
			for _, suffix := range []string{"Soap", "Soap12", "HttpGet", "HttpPost"} {
				if bySuffix[suffix] == nil {
					return fail(x, "WSDL bindings", "a binding named <Service>"+suffix, "%q", bnames)
				}
			}
			if err := checkSOAPBinding(x, bySuffix["Soap"], wsdlSOAPNS, ns); err != nil {
				return err
			}
			if err := checkSOAPBinding(x, bySuffix["Soap12"], wsdlSOAP12NS, ns); err != nil {
				return err
			}
			if err := checkHTTPBinding(x, bySuffix["HttpGet"], "GET"); err != nil {
				return err
			}
			return checkHTTPBinding(x, bySuffix["HttpPost"], "POST")
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

// soapTransport is the transport of ASMX's SOAP bindings: SOAP over HTTP.
const soapTransport = "http://schemas.xmlsoap.org/soap/http"

// checkSOAPBinding checks a SOAP binding of the WSDL as ASMX's
// SoapProtocolReflector and Soap12ProtocolReflector write it: the
// extension of its own SOAP version (bindNS: soap: for <Service>Soap,
// soap12: for <Service>Soap12) on the binding, each operation and each
// body, SOAP over HTTP, document style (on the operation or, by default,
// the binding), literal bodies, and the action {ns}/<Op>. A binding named
// as the SOAP 1.2 one but written with SOAP 1.1's extension, or rpc or
// encoded, describes a service that ASMX is not: a client generated from it
// sends other messages.
func checkSOAPBinding(x *Exchange, b *etree.Element, bindNS, ns string) error {
	name := b.SelectAttrValue("name", "")
	what := "WSDL binding " + name
	ext := children(b, bindNS, "binding")
	if len(ext) != 1 {
		return fail(x, what, "one "+qname{bindNS, "binding"}.String()+" (the binding's SOAP version's extension)", "%s", extensionNames(b))
	}
	if t := ext[0].SelectAttrValue("transport", ""); t != soapTransport {
		return fail(x, what+": transport", soapTransport, "%q", t)
	}
	style := ext[0].SelectAttrValue("style", "document")
	if style != "document" {
		return fail(x, what+": style", `"document" (or none), as ASMX writes it`, "%q", style)
	}
	ops := map[string]*etree.Element{}
	for _, o := range children(b, wsdlNS, "operation") {
		ops[o.SelectAttrValue("name", "")] = o
	}
	for _, op := range Operations {
		o := ops[op.Name]
		at := what + " operation " + op.Name
		if o == nil {
			return fail(x, what, "an operation "+op.Name, "none")
		}
		so := children(o, bindNS, "operation")
		if len(so) != 1 {
			return fail(x, at, "one "+qname{bindNS, "operation"}.String(), "%s", extensionNames(o))
		}
		if want, got := soapAction(ns, op.Name), so[0].SelectAttrValue("soapAction", ""); got != want {
			return fail(x, "WSDL soapAction of "+op.Name+" in "+name, want, "%q", got)
		}
		if s := so[0].SelectAttrValue("style", style); s != "document" {
			return fail(x, at+": style", `"document", as ASMX writes it`, "%q", s)
		}
		for _, dir := range []string{"input", "output"} {
			msg := children(o, wsdlNS, dir)
			if len(msg) != 1 {
				return fail(x, at, "one "+qname{wsdlNS, dir}.String(), "%d", len(msg))
			}
			body := children(msg[0], bindNS, "body")
			if len(body) != 1 {
				return fail(x, at+" "+dir, "one "+qname{bindNS, "body"}.String(), "%s", extensionNames(msg[0]))
			}
			if use := body[0].SelectAttrValue("use", ""); use != "literal" {
				return fail(x, at+" "+dir+": body use", `"literal", as ASMX writes it`, "%q", use)
			}
		}
	}
	return nil
}

// checkHTTPBinding checks an HTTP binding of the WSDL as ASMX writes it:
// an http:binding with its verb.
func checkHTTPBinding(x *Exchange, b *etree.Element, verb string) error {
	what := "WSDL binding " + b.SelectAttrValue("name", "")
	ext := children(b, wsdlHTTPNS, "binding")
	if len(ext) != 1 {
		return fail(x, what, "one "+qname{wsdlHTTPNS, "binding"}.String()+` verb="`+verb+`"`, "%s", extensionNames(b))
	}
	if v := ext[0].SelectAttrValue("verb", ""); v != verb {
		return fail(x, what+": verb", verb, "%q", v)
	}
	return nil
}

// extensionNames lists the names of e's child elements outside the WSDL
// namespace (its extensions), for a failure: "none" when it has none.
func extensionNames(e *etree.Element) string {
	var names []string
	for _, k := range e.ChildElements() {
		if q := nameOf(k); q.Space != wsdlNS {
			names = append(names, q.String())
		}
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

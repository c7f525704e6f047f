package deviate

import (
	"bytes"
	"encoding/xml"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/atmkit/atmkit/asmx"
	"github.com/beevik/etree"
)

// deviationTable is every deviation Wrap knows, in the order List
// lists them. Each one breaks a single rule of the interface document (or of
// ASMX) and nothing else, so a conformance check that fails names it.
var deviationTable = []*deviation{
	{name: "soap11-envelope-ns", desc: "SOAP 1.1 answers use the SOAP 1.2 envelope namespace",
		bindings: soap11, response: replaceAll(asmx.NamespaceSOAP11, asmx.NamespaceSOAP12)},
	{name: "soap12-envelope-ns", desc: "SOAP 1.2 answers use the SOAP 1.1 envelope namespace",
		bindings: soap12, response: replaceAll(asmx.NamespaceSOAP12, asmx.NamespaceSOAP11)},
	{name: "soap11-content-type", desc: "SOAP 1.1 answers are declared application/soap+xml",
		bindings: soap11, response: setContentType(asmx.ContentTypeSOAP12)},
	{name: "soap12-content-type", desc: "SOAP 1.2 answers are declared text/xml",
		bindings: soap12, response: setContentType(asmx.ContentTypeSOAP11)},
	{name: "get-content-type", desc: "HTTP GET results are declared application/xml",
		bindings: []asmx.Binding{asmx.HTTPGet}, response: setContentType("application/xml")},
	{name: "post-content-type", desc: "HTTP POST results are declared text/xml; charset=iso-8859-1",
		bindings: []asmx.Binding{asmx.HTTPPost}, response: setContentType("text/xml; charset=iso-8859-1")},
	{name: "json-content-type", desc: "JSON answers are declared application/json instead of text/xml",
		bindings: []asmx.Binding{asmx.JSON}, response: setContentType("application/json; charset=utf-8")},
	{name: "renamed-response", desc: "SOAP answers name <OpResponse> <OpReply>",
		bindings: soapBoth, response: replaceRE(`(Return\w+)Response\b`, "${1}Reply")},
	{name: "renamed-result", desc: "SOAP answers name <OpResult> <OpReturn>",
		bindings: soapBoth, response: replaceRE(`(Return\w+)Result\b`, "${1}Return")},
	{name: "wrong-service-namespace", desc: "SOAP answers put <OpResponse> in http://example.invalid/atmService",
		bindings: soapBoth, response: func(c *devCall, a *devAnswer) {
			if c.ns != "" {
				a.body = bytes.ReplaceAll(a.body, []byte(c.ns), []byte("http://example.invalid/atmService"))
			}
		}},
	{name: "get-with-envelope", desc: "HTTP GET results come wrapped in a SOAP 1.1 envelope",
		bindings: []asmx.Binding{asmx.HTTPGet}, response: func(_ *devCall, a *devAnswer) {
			if a.status != http.StatusOK {
				return
			}
			body := bytes.TrimSpace(xmlDeclRE.ReplaceAll(bytes.TrimSpace(a.body), nil))
			a.body = []byte(`<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + asmx.NamespaceSOAP11 +
				`"><soap:Body>` + string(body) + `</soap:Body></soap:Envelope>`)
		}},
	{name: "json-count-off", desc: "JSON count is one more than the number of locations",
		bindings: jsonOnly, response: func(_ *devCall, a *devAnswer) {
			done := false
			rewriteJSONNumbers(a, "count", func(n int64) int64 {
				if done {
					return n
				}
				done = true
				return n + 1
			})
		}},
	{name: "json-index-from-1", desc: "JSON location index runs 1..n instead of 0..n-1",
		bindings: jsonOnly, response: func(_ *devCall, a *devAnswer) {
			rewriteJSONNumbers(a, "index", func(n int64) int64 { return n + 1 })
		}},
	{name: "json-value-differs", desc: `JSON atmIdentifier values end in "-X", unlike the XML of the same query`,
		bindings: jsonOnly, response: func(_ *devCall, a *devAnswer) {
			if a.status == http.StatusOK {
				a.body = atmIdentifierRE.ReplaceAll(a.body, []byte(`${1}-X"`))
			}
		}},
	{name: "post-drops-a-location", desc: "HTTP POST location lists lose their last location",
		bindings: []asmx.Binding{asmx.HTTPPost}, response: func(_ *devCall, a *devAnswer) {
			rewriteLocations(a, func(g []*etree.Element) {
				last := g[len(g)-1]
				last.Parent().RemoveChild(last)
			})
		}},
	{name: "soap12-reorders-locations", desc: "SOAP 1.2 location lists come in reverse order",
		bindings: soap12, response: func(_ *devCall, a *devAnswer) {
			rewriteLocations(a, func(g []*etree.Element) {
				p := g[0].Parent()
				for _, e := range g {
					p.RemoveChild(e)
				}
				for i := len(g) - 1; i >= 0; i-- {
					p.AddChild(g[i])
				}
			})
		}},
	{name: "faults-with-status-200", desc: "SOAP faults are answered with HTTP 200 instead of 500",
		bindings: soapBoth, response: func(_ *devCall, a *devAnswer) {
			if a.status == http.StatusInternalServerError {
				a.status = http.StatusOK
			}
		}},
	{name: "soapaction-ignored", desc: "SOAP 1.1 requests are routed by their Body element; a wrong SOAPAction is not refused",
		bindings: soap11, request: func(c *devCall) {
			if c.op != "" {
				c.r.Header.Set("SOAPAction", `"`+asmx.SOAPAction(c.ns, c.op)+`"`)
			}
		}},
	{name: "wsdl-parameters-out-of-order", desc: "the WSDL lists ReturnAtmSearchByAddress's strAddress after strCity",
		bindings: []asmx.Binding{wsdlBinding}, response: func(_ *devCall, a *devAnswer) {
			rewriteXML(a, swapWSDLParameters)
		}},
	{name: "radius-ignored", desc: "ReturnAtmSearchByCoordinates searches within 255 whatever bytRadius says",
		bindings: asmx.Bindings, request: func(c *devCall) {
			if strings.EqualFold(c.op, asmx.OpReturnAtmSearchByCoordinates) {
				setParam(c, asmx.ParamRadius, "255")
			}
		}},
	{name: "address-radius-ignored", desc: "ReturnAtmSearchByAddress searches within 255 whatever bytRadius says",
		bindings: asmx.Bindings, request: func(c *devCall) {
			if strings.EqualFold(c.op, asmx.OpReturnAtmSearchByAddress) {
				setParam(c, asmx.ParamRadius, "255")
			}
		}},
	{name: "maximum-ignored", desc: "ReturnAtmSearchByAddressWithMaximum returns up to 200 whatever intMaximumAtms says",
		bindings: asmx.Bindings, request: func(c *devCall) {
			if strings.EqualFold(c.op, asmx.OpReturnAtmSearchByAddressWithMaximum) {
				setParam(c, asmx.ParamMaximumAtms, "200")
			}
		}},
	{name: "institution-ignored", desc: "ReturnAtmSearchByInstitution returns every institution's ATMs",
		bindings: asmx.XMLBindings, request: ignoreInstitution, response: func(c *devCall, a *devAnswer) {
			if c.called == asmx.OpReturnAtmSearchByInstitution && c.binding.IsSOAP() {
				a.body = allAtmsRE.ReplaceAll(a.body, []byte(asmx.OpReturnAtmSearchByInstitution+"$1"))
			}
		}},
	{name: "search-node-differs", desc: "ReturnAtmSearchByInstitution's locations carry a landmark ending in \" (X)\" in every XML binding, unlike the same locations in ReturnAllAtms",
		bindings: asmx.XMLBindings, response: func(c *devCall, a *devAnswer) {
			if c.op == asmx.OpReturnAtmSearchByInstitution && a.status == http.StatusOK {
				a.body = landmarkRE.ReplaceAll(a.body, []byte("${1} (X)</landmark>"))
			}
		}},
	{name: "provinces-empty", desc: "ReturnProvinces lists no province in every XML binding",
		bindings: asmx.XMLBindings, response: func(c *devCall, a *devAnswer) {
			if strings.EqualFold(c.op, asmx.OpReturnProvinces) {
				rewriteXML(a, func(root *etree.Element) {
					for _, e := range repeatedGroup(root) {
						e.Parent().RemoveChild(e)
					}
				})
			}
		}},
	{name: "any-key-accepted", desc: "any strAtmServiceKey, even an empty or wrong one, is accepted",
		bindings: asmx.Bindings, request: func(c *devCall) { setParam(c, asmx.ParamKey, c.key) }},
	{name: "typed-get-root-no-namespace", desc: "results are typed (the node's children inside <OpResult>, in the service namespace), but the HTTP GET/POST root named by the type and its content are in no namespace",
		bindings: asmx.XMLBindings, response: typedLayout(func(c *devCall, b asmx.Binding) string {
			if b.IsSOAP() {
				return c.ns
			}
			return ""
		})},
	{name: "typed-soap12-content-namespace", desc: "results are typed, in the service namespace, but SOAP 1.2 puts the content of <OpResult> in http://example.invalid/atmData",
		bindings: asmx.XMLBindings, response: typedLayout(func(c *devCall, b asmx.Binding) string {
			if b == asmx.SOAP12 {
				return "http://example.invalid/atmData"
			}
			return c.ns
		})},
	{name: "xsi-type-changed", desc: `results write a member declared object whose value is a short with xsi:type="xsd:int" (a shape's xsiType member)`,
		bindings: asmx.XMLBindings, response: func(_ *devCall, a *devAnswer) {
			if a.status == http.StatusOK {
				a.body = xsiShortRE.ReplaceAll(a.body, []byte(`${1}int"`))
			}
		}},
	{name: "nil-dropped", desc: `results leave out the elements they write xsi:nil="true" (a shape's nillable member that is null)`,
		bindings: asmx.XMLBindings, response: func(_ *devCall, a *devAnswer) {
			rewriteXML(a, dropNils)
		}},
}

var (
	soap11   = []asmx.Binding{asmx.SOAP11}
	soap12   = []asmx.Binding{asmx.SOAP12}
	soapBoth = []asmx.Binding{asmx.SOAP11, asmx.SOAP12}
	jsonOnly = []asmx.Binding{asmx.JSON}

	xmlDeclRE       = regexp.MustCompile(`^<\?xml[^>]*\?>`)
	atmIdentifierRE = regexp.MustCompile(`("atmIdentifier"\s*:\s*"(?:[^"\\]|\\.)*)"`)
	allAtmsRE       = regexp.MustCompile(asmx.OpReturnAllAtms + `(Response|Result)\b`)
	// landmarkRE is a location's landmark with text, in the mock's
	// built-in shape.
	landmarkRE = regexp.MustCompile(`(<landmark>[^<]+)</landmark>`)
	// xsiShortRE is an xsi:type naming xsd:short, whatever the prefixes.
	xsiShortRE = regexp.MustCompile(`(\s[\w.-]+:type="[\w.-]+:)short"`)
)

// repeatedGroup returns the largest set of same-named sibling elements
// under root (with children or without): a list's entries.
func repeatedGroup(root *etree.Element) []*etree.Element {
	var best []*etree.Element
	var walk func(e *etree.Element)
	walk = func(e *etree.Element) {
		groups := map[string][]*etree.Element{}
		for _, k := range e.ChildElements() {
			key := k.NamespaceURI() + " " + k.Tag
			groups[key] = append(groups[key], k)
			if len(groups[key]) > 1 && len(groups[key]) > len(best) {
				best = groups[key]
			}
			walk(k)
		}
	}
	walk(root)
	return best
}

// dropNils removes every element below root written xsi:nil="true": a
// null search result's own root (or the SOAP answer without <OpResult>)
// stays as it was.
func dropNils(root *etree.Element) {
	var walk func(e *etree.Element)
	walk = func(e *etree.Element) {
		for _, k := range e.ChildElements() {
			if isNil(k) {
				e.RemoveChild(k)
				continue
			}
			walk(k)
		}
	}
	walk(root)
}

// isNil reports whether e is written xsi:nil="true".
func isNil(e *etree.Element) bool {
	for i := range e.Attr {
		a := &e.Attr[i]
		if a.Key == "nil" && a.NamespaceURI() == xsiNS && strings.TrimSpace(a.Value) == "true" {
			return true
		}
	}
	return false
}

// xsiNS is the XML Schema instance namespace of xsi:type and xsi:nil.
const xsiNS = "http://www.w3.org/2001/XMLSchema-instance"

// replaceAll replaces old with new everywhere in the answer's body.
func replaceAll(old, new string) func(*devCall, *devAnswer) {
	return func(_ *devCall, a *devAnswer) {
		a.body = bytes.ReplaceAll(a.body, []byte(old), []byte(new))
	}
}

// replaceRE replaces the matches of re with repl in the answer's body.
func replaceRE(re, repl string) func(*devCall, *devAnswer) {
	rx := regexp.MustCompile(re)
	return func(_ *devCall, a *devAnswer) { a.body = rx.ReplaceAll(a.body, []byte(repl)) }
}

// setContentType declares ct on successful answers.
func setContentType(ct string) func(*devCall, *devAnswer) {
	return func(_ *devCall, a *devAnswer) {
		if a.status == http.StatusOK {
			a.header.Set("Content-Type", ct)
		}
	}
}

// rewriteJSONNumbers rewrites the integer values of the JSON field name in a
// successful answer, in place, leaving every other byte as it was.
func rewriteJSONNumbers(a *devAnswer, name string, f func(int64) int64) {
	if a.status != http.StatusOK {
		return
	}
	re := regexp.MustCompile(`("` + regexp.QuoteMeta(name) + `"\s*:\s*)(-?\d+)`)
	a.body = re.ReplaceAllFunc(a.body, func(m []byte) []byte {
		sub := re.FindSubmatch(m)
		n, err := strconv.ParseInt(string(sub[2]), 10, 64)
		if err != nil {
			return m
		}
		return append(append([]byte(nil), sub[1]...), strconv.FormatInt(f(n), 10)...)
	})
}

// rewriteXML parses a successful XML answer, lets f change it, and writes it
// back; an answer that does not parse is left alone.
func rewriteXML(a *devAnswer, f func(root *etree.Element)) {
	if a.status != http.StatusOK {
		return
	}
	doc := etree.NewDocument()
	if doc.ReadFromBytes(a.body) != nil || doc.Root() == nil {
		return
	}
	f(doc.Root())
	if b, err := doc.WriteToBytes(); err == nil {
		a.body = b
	}
}

// rewriteLocations lets f change the location list of a successful XML
// answer: the largest group of repeated sibling elements with children,
// whatever the elements are named. Lists of fewer than two are left alone.
func rewriteLocations(a *devAnswer, f func(group []*etree.Element)) {
	rewriteXML(a, func(root *etree.Element) {
		if g := largestGroup(root); len(g) > 1 {
			f(g)
		}
	})
}

// largestGroup returns the largest set of same-named sibling elements that
// have child elements of their own.
func largestGroup(root *etree.Element) []*etree.Element {
	var best []*etree.Element
	var walk func(e *etree.Element)
	walk = func(e *etree.Element) {
		groups := map[string][]*etree.Element{}
		for _, k := range e.ChildElements() {
			if len(k.ChildElements()) == 0 {
				continue
			}
			key := k.NamespaceURI() + " " + k.Tag
			groups[key] = append(groups[key], k)
			if len(groups[key]) > len(best) {
				best = groups[key]
			}
			walk(k)
		}
	}
	walk(root)
	return best
}

// swapWSDLParameters moves ReturnAtmSearchByAddress's second input parameter
// after its third in every schema of a WSDL.
func swapWSDLParameters(defs *etree.Element) {
	for _, types := range defs.SelectElements("types") {
		for _, schema := range types.SelectElements("schema") {
			for _, el := range schema.SelectElements("element") {
				if el.SelectAttrValue("name", "") != asmx.OpReturnAtmSearchByAddress {
					continue
				}
				for _, ct := range el.SelectElements("complexType") {
					for _, seq := range ct.SelectElements("sequence") {
						ps := seq.SelectElements("element")
						if len(ps) > 2 {
							seq.RemoveChild(ps[1])
							seq.InsertChildAt(ps[2].Index()+1, ps[1])
						}
					}
				}
			}
		}
	}
}

// setParam sets a parameter the request already has, in any binding.
func setParam(c *devCall, name, value string) {
	switch c.binding {
	case asmx.SOAP11, asmx.SOAP12:
		re := regexp.MustCompile(`<((?:[\w.-]+:)?` + regexp.QuoteMeta(name) + `)(\s[^>]*)?/>|<((?:[\w.-]+:)?` +
			regexp.QuoteMeta(name) + `)(\s[^>]*)?>[^<]*</[^>]*>`)
		var v bytes.Buffer
		_ = xml.EscapeText(&v, []byte(value))
		c.body = re.ReplaceAllFunc(c.body, func(m []byte) []byte {
			sub := re.FindSubmatch(m)
			tag, attrs := sub[1], sub[2]
			if len(tag) == 0 {
				tag, attrs = sub[3], sub[4]
			}
			return []byte("<" + string(tag) + string(attrs) + ">" + v.String() + "</" + string(tag) + ">")
		})
	case asmx.HTTPPost:
		q, err := url.ParseQuery(string(c.body))
		if err == nil {
			if _, ok := q[name]; ok {
				q.Set(name, value)
				c.body = []byte(q.Encode())
			}
		}
	default:
		q := c.r.URL.Query()
		if _, ok := q[name]; ok {
			q.Set(name, value)
			c.r.URL.RawQuery = q.Encode()
		}
	}
}

// ignoreInstitution turns a ReturnAtmSearchByInstitution request into a
// ReturnAllAtms one; the response side renames the SOAP elements back.
func ignoreInstitution(c *devCall) {
	if !strings.EqualFold(c.op, asmx.OpReturnAtmSearchByInstitution) {
		return
	}
	c.called, c.op = asmx.OpReturnAtmSearchByInstitution, asmx.OpReturnAllAtms
	switch c.binding {
	case asmx.SOAP11, asmx.SOAP12:
		c.body = institutionOpRE.ReplaceAll(c.body, []byte("${1}"+asmx.OpReturnAllAtms+"$2"))
		c.body = institutionParamRE.ReplaceAll(c.body, nil)
		if c.binding == asmx.SOAP11 {
			c.r.Header.Set("SOAPAction", `"`+asmx.SOAPAction(c.ns, asmx.OpReturnAllAtms)+`"`)
		} else {
			ct := c.r.Header.Get("Content-Type")
			c.r.Header.Set("Content-Type", strings.Replace(ct, "/"+asmx.OpReturnAtmSearchByInstitution, "/"+asmx.OpReturnAllAtms, 1))
		}
	case asmx.HTTPPost:
		q, err := url.ParseQuery(string(c.body))
		if err != nil {
			return
		}
		c.body = []byte(url.Values{asmx.ParamKey: q[asmx.ParamKey]}.Encode())
		c.r.URL.Path = asmx.ServicePath + "/" + asmx.OpReturnAllAtms
	case asmx.HTTPGet:
		c.r.URL.RawQuery = url.Values{asmx.ParamKey: c.r.URL.Query()[asmx.ParamKey]}.Encode()
		c.r.URL.Path = asmx.ServicePath + "/" + asmx.OpReturnAllAtms
	}
	c.r.URL.RawPath = ""
}

var (
	institutionOpRE    = regexp.MustCompile(`(</?(?:[\w.-]+:)?)` + asmx.OpReturnAtmSearchByInstitution + `([\s/>])`)
	institutionParamRE = regexp.MustCompile(`<((?:[\w.-]+:)?)` + asmx.ParamInstitutionID + `(\s[^>]*)?(/>|>[^<]*</[^>]*>)`)
)

// typedLayout rewrites a successful answer from the mock's node layout to a
// typed one, as an XmlSerializer class or array is written: in SOAP the
// result node's children become <OpResult>'s own, in HTTP GET and POST they
// go under a root named after the type (the node's name, capitalized). ns
// gives the namespace of that content (and of the GET/POST root) per binding.
func typedLayout(ns func(c *devCall, b asmx.Binding) string) func(*devCall, *devAnswer) {
	return func(c *devCall, a *devAnswer) {
		rewriteXML(a, func(root *etree.Element) {
			space := ns(c, c.binding)
			if !c.binding.IsSOAP() {
				typed := etree.NewElement(strings.ToUpper(root.Tag[:1]) + root.Tag[1:])
				typed.CreateAttr("xmlns:xsd", "http://www.w3.org/2001/XMLSchema")
				typed.CreateAttr("xmlns:xsi", "http://www.w3.org/2001/XMLSchema-instance")
				if space != "" {
					typed.CreateAttr("xmlns", space)
				}
				for _, k := range root.ChildElements() {
					typed.AddChild(k)
				}
				doc := root.Parent()
				doc.RemoveChild(root)
				doc.AddChild(typed)
				return
			}
			for _, body := range root.SelectElements("Body") {
				for _, resp := range body.ChildElements() {
					for _, result := range resp.ChildElements() {
						nodes := result.ChildElements()
						if len(nodes) != 1 {
							continue
						}
						result.RemoveChild(nodes[0])
						for _, k := range nodes[0].ChildElements() {
							k.RemoveAttr("xmlns")
							k.CreateAttr("xmlns", space)
							result.AddChild(k)
						}
					}
				}
			}
		})
	}
}

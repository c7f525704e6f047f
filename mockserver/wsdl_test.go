package mockserver

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/beevik/etree"
)

const (
	nsWSDL   = "http://schemas.xmlsoap.org/wsdl/"
	nsXSD    = "http://www.w3.org/2001/XMLSchema"
	nsSOAP   = "http://schemas.xmlsoap.org/wsdl/soap/"
	nsSOAP12 = "http://schemas.xmlsoap.org/wsdl/soap12/"
	nsHTTP   = "http://schemas.xmlsoap.org/wsdl/http/"
	nsMIME   = "http://schemas.xmlsoap.org/wsdl/mime/"
)

func docGet(t *testing.T, url string) response {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	if err != nil {
		t.Fatal(err)
	}
	return do(t, req)
}

// fetchWSDL gets and parses the WSDL of the server at base.
func fetchWSDL(t *testing.T, base, query string) *etree.Element {
	t.Helper()
	r := docGet(t, base+"/service/service.asmx?"+query)
	runChecks(t, r, hasStatus(200), hasContentType("text/xml; charset=utf-8"))
	doc := etree.NewDocument()
	if err := doc.ReadFromString(r.body); err != nil {
		t.Fatalf("WSDL is not well-formed: %v\n%.500s", err, r.body)
	}
	root := doc.Root()
	if root == nil || root.Tag != "definitions" || root.NamespaceURI() != nsWSDL {
		t.Fatalf("WSDL root: got %v, want {%s}definitions", root, nsWSDL)
	}
	return root
}

// children returns the child elements of e named {ns}tag.
func xmlChildren(e *etree.Element, ns, tag string) []*etree.Element {
	var out []*etree.Element
	for _, c := range e.ChildElements() {
		if c.Tag == tag && c.NamespaceURI() == ns {
			out = append(out, c)
		}
	}
	return out
}

// named finds the child of e named {ns}tag whose name attribute is name.
func xmlNamed(e *etree.Element, ns, tag, name string) *etree.Element {
	for _, c := range xmlChildren(e, ns, tag) {
		if c.SelectAttrValue("name", "") == name {
			return c
		}
	}
	return nil
}

// one is the only child {ns}tag of e, or nil.
func xmlOne(e *etree.Element, ns, tag string) *etree.Element {
	if e == nil {
		return nil
	}
	if cs := xmlChildren(e, ns, tag); len(cs) == 1 {
		return cs[0]
	}
	return nil
}

// wsdlCheck is one assertion on a parsed WSDL.
type wsdlCheck func(root *etree.Element) error

func TestWSDL(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	root := fetchWSDL(t, srv.URL, "WSDL")
	address := srv.URL + "/service/service.asmx"
	schema := xmlOne(xmlOne(root, nsWSDL, "types"), nsXSD, "schema")

	opsOf := func(root *etree.Element, kind, name string) ([]string, error) {
		e := xmlNamed(root, nsWSDL, kind, name)
		if e == nil {
			return nil, fmt.Errorf("no %s named %s", kind, name)
		}
		var ops []string
		for _, o := range xmlChildren(e, nsWSDL, "operation") {
			ops = append(ops, o.SelectAttrValue("name", ""))
		}
		return ops, nil
	}
	var allOps []string
	for _, op := range asmx.Operations() {
		allOps = append(allOps, op.Name)
	}
	hasOps := func(kind, name string) wsdlCheck {
		return func(root *etree.Element) error {
			ops, err := opsOf(root, kind, name)
			if err != nil {
				return err
			}
			if fmt.Sprint(ops) != fmt.Sprint(allOps) {
				return fmt.Errorf("%s %s operations: got %v, want %v", kind, name, ops, allOps)
			}
			return nil
		}
	}
	attrIs := func(what string, e *etree.Element, attr, want string) error {
		if e == nil {
			return fmt.Errorf("%s: missing", what)
		}
		if got := e.SelectAttrValue(attr, "\x00missing"); got != want {
			return fmt.Errorf("%s %s: got %q, want %q", what, attr, got, want)
		}
		return nil
	}
	port := func(name, ns, tag string) wsdlCheck {
		return func(root *etree.Element) error {
			p := xmlNamed(xmlNamed(root, nsWSDL, "service", DefaultServiceName), nsWSDL, "port", name)
			if err := attrIs("port "+name, p, "binding", "tns:"+name); err != nil {
				return err
			}
			return attrIs("port "+name+" address", xmlOne(p, ns, tag), "location", address)
		}
	}
	bindingType := func(name, portType string) wsdlCheck {
		return func(root *etree.Element) error {
			return attrIs("binding "+name, xmlNamed(root, nsWSDL, "binding", name), "type", "tns:"+portType)
		}
	}

	tests := []struct {
		name  string
		check wsdlCheck
	}{
		{"target namespace", func(root *etree.Element) error {
			if err := attrIs("definitions", root, "targetNamespace", testNS); err != nil {
				return err
			}
			return attrIs("schema", schema, "targetNamespace", testNS)
		}},
		{"schema is qualified", func(*etree.Element) error { return attrIs("schema", schema, "elementFormDefault", "qualified") }},
		{"portType Soap has all eight", hasOps("portType", "AtmServiceSoap")},
		{"portType HttpGet has all eight", hasOps("portType", "AtmServiceHttpGet")},
		{"portType HttpPost has all eight", hasOps("portType", "AtmServiceHttpPost")},
		{"binding Soap has all eight", hasOps("binding", "AtmServiceSoap")},
		{"binding Soap12 has all eight", hasOps("binding", "AtmServiceSoap12")},
		{"binding HttpGet has all eight", hasOps("binding", "AtmServiceHttpGet")},
		{"binding HttpPost has all eight", hasOps("binding", "AtmServiceHttpPost")},
		{"SOAP 1.1 binding on the Soap portType", bindingType("AtmServiceSoap", "AtmServiceSoap")},
		{"SOAP 1.2 binding shares the Soap portType", bindingType("AtmServiceSoap12", "AtmServiceSoap")},
		{"HttpGet binding type", bindingType("AtmServiceHttpGet", "AtmServiceHttpGet")},
		{"HttpPost binding type", bindingType("AtmServiceHttpPost", "AtmServiceHttpPost")},
		{"no portType Soap12", func(root *etree.Element) error {
			if xmlNamed(root, nsWSDL, "portType", "AtmServiceSoap12") != nil {
				return fmt.Errorf("portType AtmServiceSoap12 exists; SOAP 1.2 must share AtmServiceSoap")
			}
			return nil
		}},
		{"transport of the SOAP bindings", func(root *etree.Element) error {
			if err := attrIs("soap:binding", xmlOne(xmlNamed(root, nsWSDL, "binding", "AtmServiceSoap"), nsSOAP, "binding"), "transport", "http://schemas.xmlsoap.org/soap/http"); err != nil {
				return err
			}
			return attrIs("soap12:binding", xmlOne(xmlNamed(root, nsWSDL, "binding", "AtmServiceSoap12"), nsSOAP12, "binding"), "transport", "http://schemas.xmlsoap.org/soap/http")
		}},
		{"verbs of the HTTP bindings", func(root *etree.Element) error {
			if err := attrIs("http:binding", xmlOne(xmlNamed(root, nsWSDL, "binding", "AtmServiceHttpGet"), nsHTTP, "binding"), "verb", "GET"); err != nil {
				return err
			}
			return attrIs("http:binding", xmlOne(xmlNamed(root, nsWSDL, "binding", "AtmServiceHttpPost"), nsHTTP, "binding"), "verb", "POST")
		}},
		{"port AtmServiceSoap at the test server", port("AtmServiceSoap", nsSOAP, "address")},
		{"port AtmServiceSoap12 at the test server", port("AtmServiceSoap12", nsSOAP12, "address")},
		{"port AtmServiceHttpGet at the test server", port("AtmServiceHttpGet", nsHTTP, "address")},
		{"port AtmServiceHttpPost at the test server", port("AtmServiceHttpPost", nsHTTP, "address")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.check(root); err != nil {
				t.Error(err)
			}
		})
	}

	for _, op := range asmx.Operations() {
		t.Run("operation "+op.Name, func(t *testing.T) {
			checkWSDLOperation(t, root, schema, op)
		})
	}
}

// checkWSDLOperation checks everything the WSDL says about op.
func checkWSDLOperation(t *testing.T, root, schema *etree.Element, op *asmx.Operation) {
	t.Helper()
	// Request element: the parameters in the document's order and types.
	seq := xmlOne(xmlOne(xmlNamed(schema, nsXSD, "element", op.Name), nsXSD, "complexType"), nsXSD, "sequence")
	if seq == nil {
		t.Fatalf("no element %s with a sequence in the schema", op.Name)
	}
	var got, want []string
	for _, e := range xmlChildren(seq, nsXSD, "element") {
		got = append(got, fmt.Sprintf("%s:%s min=%s max=%s", e.SelectAttrValue("name", ""), e.SelectAttrValue("type", ""),
			e.SelectAttrValue("minOccurs", ""), e.SelectAttrValue("maxOccurs", "")))
	}
	for _, p := range op.Params {
		min := "1"
		if p.Type == asmx.String {
			min = "0"
		}
		want = append(want, fmt.Sprintf("%s:s:%s min=%s max=1", p.Name, p.Type.XSD(), min))
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("request sequence:\ngot  %v\nwant %v", got, want)
	}

	// Response element: <Op>Result holding a sequence of xs:any.
	resSeq := xmlOne(xmlOne(xmlNamed(schema, nsXSD, "element", op.Name+"Response"), nsXSD, "complexType"), nsXSD, "sequence")
	result := xmlNamed(resSeq, nsXSD, "element", op.Name+"Result")
	if result == nil {
		t.Fatalf("no %sResult in %sResponse", op.Name, op.Name)
	}
	if xmlOne(xmlOne(xmlOne(result, nsXSD, "complexType"), nsXSD, "sequence"), nsXSD, "any") == nil {
		t.Errorf("%sResult is not a sequence holding xs:any", op.Name)
	}

	// Messages.
	parts := func(msg string) []string {
		m := xmlNamed(root, nsWSDL, "message", msg)
		if m == nil {
			t.Errorf("no message %s", msg)
			return nil
		}
		var out []string
		for _, p := range xmlChildren(m, nsWSDL, "part") {
			s := p.SelectAttrValue("name", "")
			if el := p.SelectAttrValue("element", ""); el != "" {
				s += "=" + el
			}
			out = append(out, s)
		}
		return out
	}
	var httpParts []string
	for _, p := range op.Params {
		httpParts = append(httpParts, p.Name)
	}
	for _, m := range []struct {
		msg  string
		want []string
	}{
		{op.Name + "SoapIn", []string{"parameters=tns:" + op.Name}},
		{op.Name + "SoapOut", []string{"parameters=tns:" + op.Name + "Response"}},
		{op.Name + "HttpGetIn", httpParts},
		{op.Name + "HttpGetOut", []string{"Body"}},
		{op.Name + "HttpPostIn", httpParts},
		{op.Name + "HttpPostOut", []string{"Body"}},
	} {
		if got := parts(m.msg); fmt.Sprint(got) != fmt.Sprint(m.want) {
			t.Errorf("message %s parts: got %v, want %v", m.msg, got, m.want)
		}
	}

	// Bindings.
	action := testNS + "/" + op.Name
	for _, b := range []struct{ binding, ns string }{{"AtmServiceSoap", nsSOAP}, {"AtmServiceSoap12", nsSOAP12}} {
		o := xmlNamed(xmlNamed(root, nsWSDL, "binding", b.binding), nsWSDL, "operation", op.Name)
		so := xmlOne(o, b.ns, "operation")
		if so == nil || so.SelectAttrValue("soapAction", "") != action || so.SelectAttrValue("style", "") != "document" {
			t.Errorf("%s %s: soap operation %v, want soapAction %q style document", b.binding, op.Name, so, action)
			continue
		}
		for _, dir := range []string{"input", "output"} {
			if body := xmlOne(xmlOne(o, nsWSDL, dir), b.ns, "body"); body == nil || body.SelectAttrValue("use", "") != "literal" {
				t.Errorf("%s %s %s: want a literal body", b.binding, op.Name, dir)
			}
		}
	}
	for _, b := range []struct{ binding, inNS, inTag, inType string }{
		{"AtmServiceHttpGet", nsHTTP, "urlEncoded", ""},
		{"AtmServiceHttpPost", nsMIME, "content", "application/x-www-form-urlencoded"},
	} {
		o := xmlNamed(xmlNamed(root, nsWSDL, "binding", b.binding), nsWSDL, "operation", op.Name)
		if loc := xmlOne(o, nsHTTP, "operation"); loc == nil || loc.SelectAttrValue("location", "") != "/"+op.Name {
			t.Errorf("%s %s: http:operation location: want /%s", b.binding, op.Name, op.Name)
		}
		in := xmlOne(xmlOne(o, nsWSDL, "input"), b.inNS, b.inTag)
		if in == nil || (b.inType != "" && in.SelectAttrValue("type", "") != b.inType) {
			t.Errorf("%s %s input: want %s type %q", b.binding, op.Name, b.inTag, b.inType)
		}
		// A node result (XmlNode): MimeXmlReflector writes mime:content.
		if out := xmlOne(xmlOne(o, nsWSDL, "output"), nsMIME, "content"); out == nil || out.SelectAttrValue("part", "") != "Body" || out.SelectAttrValue("type", "") != "text/xml" {
			t.Errorf("%s %s output: want mime:content part Body type text/xml", b.binding, op.Name)
		}
	}
}

// TestDocsEndAtTheRootsEndTag: .NET writes ?WSDL (ServiceDescription.Write)
// and ?disco (DiscoveryDocument.Write) with an XmlTextWriter whose last
// call is WriteEndDocument, which writes nothing after the root's end
// tag: the body ends there, with no line break.
func TestDocsEndAtTheRootsEndTag(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	for query, end := range map[string]string{"WSDL": "</wsdl:definitions>", "wsdl": "</wsdl:definitions>", "disco": "</discovery>"} {
		r := docGet(t, srv.URL+"/service/service.asmx?"+query)
		runChecks(t, r, hasStatus(200), hasContentType("text/xml; charset=utf-8"))
		if !strings.HasSuffix(r.body, end) {
			t.Errorf("?%s ends %q, want it to end at %s", query, r.body[max(0, len(r.body)-30):], end)
		}
	}
}

func TestWSDLQueryAnyCase(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	for _, q := range []string{"WSDL", "wsdl", "Wsdl", "wSdL", "WSDL&op=ReturnAllAtms", "w%73dl"} {
		t.Run(q, func(t *testing.T) {
			root := fetchWSDL(t, srv.URL, q)
			if root.SelectAttrValue("targetNamespace", "") != testNS {
				t.Errorf("targetNamespace: got %q, want %q", root.SelectAttrValue("targetNamespace", ""), testNS)
			}
		})
	}
}

func TestWSDLNamespaceAndHostAreEscaped(t *testing.T) {
	t.Parallel()
	ns := `urn:x?a=1&b="<odd>"'`
	srv := newTestServer(t, WithNamespace(ns))
	root := fetchWSDL(t, srv.URL, "wsdl")
	if got := root.SelectAttrValue("targetNamespace", ""); got != ns {
		t.Errorf("targetNamespace: got %q, want %q", got, ns)
	}
	o := xmlNamed(xmlNamed(root, nsWSDL, "binding", "AtmServiceSoap"), nsWSDL, "operation", asmx.OpReturnProvinces)
	if got, want := xmlOne(o, nsSOAP, "operation").SelectAttrValue("soapAction", ""), ns+"/ReturnProvinces"; got != want {
		t.Errorf("soapAction: got %q, want %q", got, want)
	}

	// A Host header other than the listener's shows up, escaped, in every address.
	req, _ := http.NewRequest("GET", srv.URL+"/service/service.asmx?wsdl", nil)
	req.Host = "atm.example:8443"
	r := do(t, req)
	doc := etree.NewDocument()
	if err := doc.ReadFromString(r.body); err != nil {
		t.Fatalf("WSDL for another host is not well-formed: %v", err)
	}
	for _, a := range doc.FindElements("//address") {
		if got := a.SelectAttrValue("location", ""); got != "http://atm.example:8443/service/service.asmx" {
			t.Errorf("%s location: got %q, want the Host header's address", a.FullTag(), got)
		}
	}
	if n := len(doc.FindElements("//address")); n != 4 {
		t.Errorf("addresses: got %d, want 4", n)
	}
}

func TestDisco(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	for _, q := range []string{"disco", "DISCO"} {
		r := docGet(t, srv.URL+"/service/service.asmx?"+q)
		runChecks(t, r, hasStatus(200), hasContentType("text/xml; charset=utf-8"))
		doc := etree.NewDocument()
		if err := doc.ReadFromString(r.body); err != nil {
			t.Fatalf("disco is not well-formed: %v", err)
		}
		root := doc.Root()
		if root.Tag != "discovery" || root.NamespaceURI() != "http://schemas.xmlsoap.org/disco/" {
			t.Fatalf("root: got {%s}%s, want {http://schemas.xmlsoap.org/disco/}discovery", root.NamespaceURI(), root.Tag)
		}
		addr := srv.URL + "/service/service.asmx"
		cr := xmlOne(root, "http://schemas.xmlsoap.org/disco/scl/", "contractRef")
		if cr == nil || cr.SelectAttrValue("ref", "") != addr+"?wsdl" || cr.SelectAttrValue("docRef", "") != addr {
			t.Errorf("contractRef: got %v, want ref %s?wsdl docRef %s", cr, addr, addr)
		}
		var bindings []string
		for _, s := range xmlChildren(root, "http://schemas.xmlsoap.org/disco/soap/", "soap") {
			if s.SelectAttrValue("address", "") != addr {
				t.Errorf("soap address: got %q, want %q", s.SelectAttrValue("address", ""), addr)
			}
			prefix, local, _ := strings.Cut(s.SelectAttrValue("binding", ""), ":")
			bindings = append(bindings, "{"+s.SelectAttrValue("xmlns:"+prefix, "")+"}"+local)
		}
		if want := "[{" + testNS + "}AtmServiceSoap {" + testNS + "}AtmServiceSoap12]"; fmt.Sprint(bindings) != want {
			t.Errorf("soap bindings: got %v, want %s", bindings, want)
		}
	}
}

func TestHelpPages(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t)
	page := func(query string) response {
		u := srv.URL + "/service/service.asmx"
		if query != "" {
			u += "?" + query
		}
		return docGet(t, u)
	}
	html := hasContentType("text/html; charset=utf-8")
	var indexChecks []check
	for _, op := range asmx.Operations() {
		indexChecks = append(indexChecks, bodyContains(`<a href="service.asmx?op=`+op.Name+`">`+op.Name+`</a>`))
	}
	tests := []struct {
		name   string
		query  string
		checks []check
	}{
		{"list", "", append([]check{hasStatus(200), html, bodyContains(`href="service.asmx?WSDL"`),
			bodyContains("List of provinces in the service&#39;s database.")}, indexChecks...)},
		{"operation with every binding", "op=ReturnAtmSearchByCoordinates", []check{hasStatus(200), html,
			bodyContains(`<form id="invoke" action="service.asmx/ReturnAtmSearchByCoordinates" method="POST">`),
			bodyContains(`name="strAtmServiceKey"`), bodyContains(`name="dblLatitude"`), bodyContains(`name="bytRadius"`),
			bodyContains(`<td>bytRadius</td><td>unsignedByte</td>`),
			bodyContains(`<h3 id="soap11">SOAP 1.1</h3>`), bodyContains(`<h3 id="soap12">SOAP 1.2</h3>`),
			bodyContains(`<h3 id="get">HTTP GET</h3>`), bodyContains(`<h3 id="post">HTTP POST</h3>`),
			bodyContains(`<h3 id="json">HTTP JSON GET</h3>`),
			bodyContains(`SOAPAction: &#34;` + testNS + `/ReturnAtmSearchByCoordinates&#34;`),
			bodyContains(`&lt;dblLatitude&gt;<span class="value">double</span>&lt;/dblLatitude&gt;`),
			bodyContains(`GET /service/service.asmx/ReturnAtmSearchByCoordinates?strAtmServiceKey=<span class="value">string</span>&amp;strPostalCode=`),
			bodyContains(`GET /service-v2.asmx/ReturnAtmSearchByCoordinates?`),
			bodyContains(`Content-Type: application/soap&#43;xml; charset=utf-8`),
			bodyContains(`&lt;ReturnAtmSearchByCoordinatesResult&gt;<span class="value">xml</span>`),
			// As .NET's help generator writes them: SOAP 1.2's envelope
			// with its own prefix (soap12Prefix), declared after xsi and
			// xsd; the Host of the service's address without its port
			// (Uri.Host).
			bodyContains(`&lt;soap12:Envelope xmlns:xsi=&#34;http://www.w3.org/2001/XMLSchema-instance&#34; xmlns:xsd=&#34;http://www.w3.org/2001/XMLSchema&#34; xmlns:soap12=&#34;http://www.w3.org/2003/05/soap-envelope&#34;&gt;` +
				"\n  &lt;soap12:Body&gt;"),
			bodyContains("  &lt;/soap12:Body&gt;\n&lt;/soap12:Envelope&gt;</pre>"),
			bodyLacks(`xmlns:soap=&#34;http://www.w3.org/2003/05/soap-envelope&#34;`),
			bodyContains("HTTP/1.1\nHost: 127.0.0.1\n"), bodyLacks("Host: 127.0.0.1:"),
		}},
		{"operation without JSON", "op=ReturnProvinces", []check{hasStatus(200), html,
			bodyContains(`action="service.asmx/ReturnProvinces"`), bodyLacks(`id="json"`), bodyLacks(`name="bytRadius"`)}},
		// .NET's DefaultWsdlHelpGenerator.aspx sets no status: an
		// operation the WSDL does not have (OperationExists false) shows
		// the link back, "Method Not Found" and HelpGeneratorMethodNotFoundText
		// with Server.HtmlEncode(XmlConvert.DecodeName(op)) and the
		// service's name.
		{"unknown operation", "op=DropTables", []check{hasStatus(200), html,
			bodyContains("<title>AtmService Web Service</title>"),
			bodyContains(`Click <a href="service.asmx">here</a> for a complete list of operations.`),
			bodyContains("<h2>Method Not Found</h2>"),
			bodyContains("Method 'DropTables' was not found in service AtmService."),
			bodyLacks(`id="invoke"`)}},
		{"unknown operation is escaped", "op=%3C%20script%3Ealert(1)%3C%20/script%3E", []check{hasStatus(200), html,
			bodyLacks("< script>"), bodyContains("Method '&lt; script&gt;alert(1)&lt; /script&gt;' was not found")}},
		// Markup is refused before: ASMX's discovery protocol reads the
		// query first, and request validation (4.0) with it.
		{"markup in the query: request validation's error page", "op=%3Cscript%3Ealert(1)%3C/script%3E", []check{hasStatus(500), html,
			bodyLacks("<script>"), bodyContains("Runtime Error")}},
		{"unknown operation is encoded as HtmlEncode does", "op=%C3%A9%22", []check{hasStatus(200), html,
			bodyContains("Method '&#233;&quot;' was not found")}},
		{"unknown operation is shown XmlConvert.DecodeName'd", "op=Return_x0041_tm_X00000042__x12_", []check{hasStatus(200), html,
			bodyContains("Method 'ReturnAtmB_x12_' was not found")}},
		{"an operation's name in another case is none", "op=returnprovinces", []check{hasStatus(200), html,
			bodyContains("Method 'returnprovinces' was not found")}},
		{"empty operation", "op=", []check{hasStatus(200), html, bodyContains("<h2>Method Not Found</h2>"),
			bodyContains("Method '' was not found in service AtmService."), bodyLacks(`id="operations"`)}},
		{"other query shows the list", "foo=bar", []check{hasStatus(200), html, bodyContains("?op=ReturnAllAtms")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runChecks(t, page(tt.query), tt.checks...)
		})
	}

	t.Run("a trailing slash is no protocol's path", func(t *testing.T) {
		r := docGet(t, srv.URL+"/service/service.asmx/?op=ReturnAllAtms")
		runChecks(t, r, hasStatus(500), hasContentType("text/html; charset=utf-8"))
	})
	t.Run("HEAD is refused as ASMX refuses it", func(t *testing.T) {
		req, _ := http.NewRequest("HEAD", srv.URL+"/service/service.asmx?wsdl", nil)
		runChecks(t, do(t, req), hasStatus(405), hasContentType("text/html; charset=utf-8"))
	})
	t.Run("help page title", func(t *testing.T) {
		runChecks(t, docGet(t, srv.URL+"/service/service.asmx"), hasStatus(200), bodyContains("<title>AtmService Web Service</title>"))
	})
	t.Run("an unknown operation's page names the service", func(t *testing.T) {
		named := newTestServer(t, WithServiceName("BranchLocator"))
		r := docGet(t, named.URL+"/service/service.asmx?op=Nope")
		runChecks(t, r, hasStatus(200), bodyContains("<title>BranchLocator Web Service</title>"),
			bodyContains("Method 'Nope' was not found in service BranchLocator."))
	})
	t.Run("namespace is escaped", func(t *testing.T) {
		odd := newTestServer(t, WithNamespace(`urn:<b>"x"</b>`))
		r := docGet(t, odd.URL+"/service/service.asmx?op=ReturnAllAtms")
		runChecks(t, r, hasStatus(200), bodyLacks("<b>"), bodyContains("urn:&lt;b&gt;"))
	})
}

// TestDecodeName: the help pages show names as XmlConvert.DecodeName
// (System.Xml/System/Xml/XmlConvert.cs) decodes them.
func TestDecodeName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"":                        "",
		"ReturnProvinces":         "ReturnProvinces",
		"a_x0041_b":               "aAb",
		"_X0041__x0042_":          "AB",
		"_x0001F600_":             "\U0001F600",
		"_x41_ _x00041_":          "_x41_ _x00041_",
		"_xD800_":                 "\uFFFD",
		"_x00110000_a_x0041_":     "_x00110000_aA",
		"x_x00110000_a_x0041_":    "xx_x00110000_aA", // .NET copies the text before a code above U+10FFFF twice
		"_x00110000_":             "_x00110000_",
		"Atm_x0020_Service_x002E": "Atm Service_x002E",
	} {
		if got := decodeName(in); got != want {
			t.Errorf("decodeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func bodyLacks(bad string) check {
	return func(r response) error {
		if strings.Contains(r.body, bad) {
			return fmt.Errorf("body: got %.400q, want it not to contain %q", r.body, bad)
		}
		return nil
	}
}

func BenchmarkWSDL(b *testing.B) {
	h, err := New(WithDataset(smallDataset()))
	if err != nil {
		b.Fatal(err)
	}
	req, _ := http.NewRequest("GET", "http://127.0.0.1/service/service.asmx?WSDL", nil)
	for b.Loop() {
		w := &docDiscardWriter{h: http.Header{}}
		h.ServeHTTP(w, req)
		if w.status != 200 {
			b.Fatalf("status %d", w.status)
		}
	}
}

type docDiscardWriter struct {
	h      http.Header
	status int
}

func (w *docDiscardWriter) Header() http.Header         { return w.h }
func (w *docDiscardWriter) WriteHeader(code int)        { w.status = code }
func (w *docDiscardWriter) Write(p []byte) (int, error) { return len(p), nil }

// TestRecordedWSDLAtTheMocksAddress: a recorded WSDL served under replay
// names the mock in every port's address and in every schema import of
// the service file (a typed DataSet's ?schema=, which the mock replays),
// keeping the query; imports of other documents stay as recorded.
func TestRecordedWSDLAtTheMocksAddress(t *testing.T) {
	t.Parallel()
	const recorded = `<wsdl:definitions xmlns:s="http://www.w3.org/2001/XMLSchema"><wsdl:types>` +
		`<s:schema><s:import namespace="urn:regions" schemaLocation="http://atm.example.org:8080/app/service/Service.asmx?schema=RegionSet" />` +
		`<s:import namespace="urn:other" schemaLocation="http://cdn.example.org/other.xsd?v=1" />` +
		`<s:import namespace="urn:third" schemaLocation='http://atm.example.org/app/other.asmx?schema=X' /></s:schema></wsdl:types>` +
		`<wsdl:port><soap:address location="http://atm.example.org:8080/app/service/service.asmx" /></wsdl:port>` +
		`<wsdl:port><soap12:address location="http://atm.example.org:8080/app/service/service.asmx" /></wsdl:port></wsdl:definitions>`
	const want = `<wsdl:definitions xmlns:s="http://www.w3.org/2001/XMLSchema"><wsdl:types>` +
		`<s:schema><s:import namespace="urn:regions" schemaLocation="http://127.0.0.1:9/service/service.asmx?schema=RegionSet" />` +
		`<s:import namespace="urn:other" schemaLocation="http://cdn.example.org/other.xsd?v=1" />` +
		`<s:import namespace="urn:third" schemaLocation='http://atm.example.org/app/other.asmx?schema=X' /></s:schema></wsdl:types>` +
		`<wsdl:port><soap:address location="http://127.0.0.1:9/service/service.asmx" /></wsdl:port>` +
		`<wsdl:port><soap12:address location="http://127.0.0.1:9/service/service.asmx" /></wsdl:port></wsdl:definitions>`
	if got := string(withAddress([]byte(recorded), "http://127.0.0.1:9/service/service.asmx")); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

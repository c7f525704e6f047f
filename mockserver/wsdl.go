package mockserver

import (
	"bytes"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"text/template"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/shape"
)

// DefaultServiceName is the service's name unless WithServiceName gives
// another: the name of the WSDL's service, of its portTypes, bindings and
// ports (ASMX derives them from it: AtmServiceSoap, AtmServiceSoap12,
// AtmServiceHttpGet and AtmServiceHttpPost), of the disco document's
// bindings, the help pages' title and the service's own stack frames in
// detailed errors.
const DefaultServiceName = asmx.DefaultServiceName

// addressMark stands for the service address while the WSDL is built. It
// cannot occur in the escaped output otherwise: escaping turns NUL into
// U+FFFD.
const addressMark = "\x00address\x00"

// wsdlTemplate is the WSDL 1.1 document in the shape ASMX writes it. Every
// value goes through x, the XML escaper. Its line breaks are CR LF, as
// ServiceDescription.Write's indenting XmlTextWriter writes them on .NET
// Framework (XmlTextWriter.Indent calls TextWriter.WriteLine, and
// TextWriter.CoreNewLine is CR LF): the source's LF become CR LF once,
// before the template is parsed (a raw string cannot hold a CR), and the
// pieces wsdl_shape.go writes into it break their lines with CR LF too.
// Values keep their own line ends.
var wsdlTemplate = template.Must(template.New("wsdl").Funcs(template.FuncMap{"x": xmlEscape}).Parse(strings.ReplaceAll(
	`<?xml version="1.0" encoding="utf-8"?>
<wsdl:definitions{{.Declarations}} targetNamespace="{{x .NS}}" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">
  <wsdl:documentation xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">ATM Location Lookup Service (atmkit mock).</wsdl:documentation>
  <wsdl:types>
    <s:schema elementFormDefault="qualified" targetNamespace="{{x .NS}}">{{.Imports}}
{{- range .Ops}}
      <s:element name="{{x .Name}}">
        <s:complexType>
          <s:sequence>
{{- range .Params}}
            <s:element minOccurs="{{.MinOccurs}}" maxOccurs="1" name="{{x .Name}}" type="s:{{x .XSD}}" />
{{- end}}
          </s:sequence>
        </s:complexType>
      </s:element>{{.Before}}
      <s:element name="{{x .Name}}Response">
        <s:complexType>
          <s:sequence>
{{- if .ResultType}}
            <s:element minOccurs="0" maxOccurs="1" name="{{x .Name}}Result" type="{{x .ResultType}}" />
{{- else if .ResultInline}}
            <s:element minOccurs="0" maxOccurs="1" name="{{x .Name}}Result">{{.ResultInline}}
            </s:element>
{{- else}}
            <s:element minOccurs="0" maxOccurs="1" name="{{x .Name}}Result">
              <s:complexType>
                <s:sequence>
                  <s:any />
                </s:sequence>
              </s:complexType>
            </s:element>
{{- end}}
          </s:sequence>
        </s:complexType>
      </s:element>{{.Types}}
{{- end}}{{.Roots}}
    </s:schema>{{.Others}}
  </wsdl:types>
{{- range .Ops}}
  <wsdl:message name="{{x .Name}}SoapIn">
    <wsdl:part name="parameters" element="tns:{{x .Name}}" />
  </wsdl:message>
  <wsdl:message name="{{x .Name}}SoapOut">
    <wsdl:part name="parameters" element="tns:{{x .Name}}Response" />
  </wsdl:message>
{{- end}}
{{- range $http := .HTTP}}
{{- range $.Ops}}
  <wsdl:message name="{{x .Name}}{{$http.Suffix}}In">
{{- range .Params}}
    <wsdl:part name="{{x .Name}}" type="s:string" />
{{- end}}
  </wsdl:message>
  <wsdl:message name="{{x .Name}}{{$http.Suffix}}Out">
{{- if .Root}}
    <wsdl:part name="Body" element="{{x .Root}}" />
{{- else}}
    <wsdl:part name="Body" />
{{- end}}
  </wsdl:message>
{{- end}}
{{- end}}
{{- range $pt := .PortTypes}}
  <wsdl:portType name="{{$.Service}}{{$pt}}">
{{- range $.Ops}}
    <wsdl:operation name="{{x .Name}}">
      <wsdl:documentation xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">{{x .Summary}}</wsdl:documentation>
      <wsdl:input message="tns:{{x .Name}}{{$pt}}In" />
      <wsdl:output message="tns:{{x .Name}}{{$pt}}Out" />
    </wsdl:operation>
{{- end}}
  </wsdl:portType>
{{- end}}
{{- range $soap := .SOAP}}
  <wsdl:binding name="{{$.Service}}{{$soap.Suffix}}" type="tns:{{$.Service}}Soap">
    <{{$soap.Prefix}}:binding transport="http://schemas.xmlsoap.org/soap/http" />
{{- range $.Ops}}
    <wsdl:operation name="{{x .Name}}">
      <{{$soap.Prefix}}:operation soapAction="{{x .Action}}" style="document" />
      <wsdl:input>
        <{{$soap.Prefix}}:body use="literal" />
      </wsdl:input>
      <wsdl:output>
        <{{$soap.Prefix}}:body use="literal" />
      </wsdl:output>
    </wsdl:operation>
{{- end}}
  </wsdl:binding>
{{- end}}
{{- range $http := .HTTP}}
  <wsdl:binding name="{{$.Service}}{{$http.Suffix}}" type="tns:{{$.Service}}{{$http.Suffix}}">
    <http:binding verb="{{$http.Verb}}" />
{{- range $.Ops}}
    <wsdl:operation name="{{x .Name}}">
      <http:operation location="/{{x .Name}}" />
      <wsdl:input>
        {{$http.Input}}
      </wsdl:input>
      <wsdl:output>
{{- if .Root}}
        <mime:mimeXml part="Body" />
{{- else}}
        <mime:content part="Body" type="text/xml" />
{{- end}}
      </wsdl:output>
    </wsdl:operation>
{{- end}}
  </wsdl:binding>
{{- end}}
  <wsdl:service name="{{.Service}}">
    <wsdl:port name="{{.Service}}Soap" binding="tns:{{.Service}}Soap">
      <soap:address location="{{.Address}}" />
    </wsdl:port>
    <wsdl:port name="{{.Service}}Soap12" binding="tns:{{.Service}}Soap12">
      <soap12:address location="{{.Address}}" />
    </wsdl:port>
    <wsdl:port name="{{.Service}}HttpGet" binding="tns:{{.Service}}HttpGet">
      <http:address location="{{.Address}}" />
    </wsdl:port>
    <wsdl:port name="{{.Service}}HttpPost" binding="tns:{{.Service}}HttpPost">
      <http:address location="{{.Address}}" />
    </wsdl:port>
  </wsdl:service>
</wsdl:definitions>`, "\n", "\r\n")))

type wsdlParam struct {
	Name      string
	XSD       string
	MinOccurs int
}

type wsdlOp struct {
	Name, Summary, Action string
	Params                []wsdlParam
	wsdlOpTypes           // the result's type, for a typed result (wsdl_shape.go)
}

type wsdlSOAP struct{ Suffix, Prefix string }

type wsdlHTTP struct{ Suffix, Verb, Input string }

// wsdlDoc is the WSDL of one namespace, cut where the service address goes.
type wsdlDoc struct {
	parts [][]byte
	size  int // length of the parts together
}

// maxCachedWSDL bounds the WSDL cache: one entry per namespace, name and
// shape in use; when it is full, one leaves for the next.
const maxCachedWSDL = 16

var wsdlCache struct {
	mu   sync.Mutex // guards docs
	docs map[wsdlKey]*wsdlDoc
}

// wsdlKey is what a WSDL depends on: the namespace, the service's name and
// the shape, nil for shape.Default() (a new one per server: keyed by its
// pointer, every server without a shape of its own would build its WSDL
// again, and fill the cache).
type wsdlKey struct {
	ns, service string
	sh          *shape.Shape
}

// wsdlFor returns the WSDL of namespace ns, service name service and shape
// sh, built once per namespace, name and shape; given is the shape the
// server was given (WithShape), nil for the default one.
func wsdlFor(ns, service string, sh, given *shape.Shape) (*wsdlDoc, error) {
	key := wsdlKey{ns, service, given}
	wsdlCache.mu.Lock()
	d, ok := wsdlCache.docs[key]
	wsdlCache.mu.Unlock()
	if ok {
		return d, nil
	}
	d, err := buildWSDL(ns, service, sh)
	if err != nil {
		return nil, err
	}
	wsdlCache.mu.Lock()
	defer wsdlCache.mu.Unlock()
	if wsdlCache.docs == nil {
		wsdlCache.docs = map[wsdlKey]*wsdlDoc{}
	}
	if prev, ok := wsdlCache.docs[key]; ok {
		return prev, nil
	}
	for k := range wsdlCache.docs {
		if len(wsdlCache.docs) < maxCachedWSDL {
			break
		}
		delete(wsdlCache.docs, k) // any: a process of more servers builds again what it uses least
	}
	wsdlCache.docs[key] = d
	return d, nil
}

// buildWSDL renders the WSDL of namespace ns, service name service
// (checked: an NCName, written as is) and shape sh with addressMark for the
// address.
func buildWSDL(ns, service string, sh *shape.Shape) (*wsdlDoc, error) {
	types := buildWSDLTypes(sh, ns)
	ops := []wsdlOp{}
	for _, op := range asmx.Operations() {
		o := wsdlOp{Name: op.Name, Summary: op.Summary, Action: asmx.SOAPAction(ns, op.Name), wsdlOpTypes: types.ops[op.Name]}
		for _, p := range op.Params {
			o.Params = append(o.Params, wsdlParam{Name: p.Name, XSD: p.Type.XSD(), MinOccurs: minOccurs(p.Type)})
		}
		ops = append(ops, o)
	}
	data := map[string]any{
		"NS":        ns,
		"Service":   service,
		"Ops":       ops,
		"PortTypes": []string{"Soap", "HttpGet", "HttpPost"},
		"SOAP":      []wsdlSOAP{{"Soap", "soap"}, {"Soap12", "soap12"}},
		"HTTP": []wsdlHTTP{
			{"HttpGet", "GET", `<http:urlEncoded />`},
			{"HttpPost", "POST", `<mime:content type="` + asmx.ContentTypeForm + `" />`},
		},
		"Address":      addressMark,
		"Roots":        types.roots,
		"Imports":      types.imports,
		"Others":       types.others,
		"Declarations": definitionsDeclarations(ns, types.prefixes),
	}
	var buf bytes.Buffer
	if err := wsdlTemplate.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("building the WSDL for namespace %q: %w", ns, err)
	}
	d := &wsdlDoc{parts: bytes.Split(buf.Bytes(), []byte(addressMark))}
	for _, p := range d.parts {
		d.size += len(p)
	}
	return d, nil
}

// minOccurs is 0 for reference types (strings may be null) and 1 for value
// types, as ASMX declares them.
func minOccurs(t asmx.ParamType) int {
	if t == asmx.String {
		return 0
	}
	return 1
}

// appendTo appends the WSDL with address (escaped) where the service is.
func (d *wsdlDoc) appendTo(dst []byte, address string) []byte {
	addr := asmx.AppendAttr(nil, address)
	for i, p := range d.parts {
		if i > 0 {
			dst = append(dst, addr...)
		}
		dst = append(dst, p...)
	}
	return dst
}

// serveWSDL answers GET service.asmx?WSDL.
func (s *Server) serveWSDL(w http.ResponseWriter, r *http.Request) {
	if wr, ok := s.replayer.(WSDLReplayer); ok {
		if body, ns, ok := wr.RecordedWSDL(); ok && ns == s.cfg.namespace {
			writeDoc(w, asmx.ContentTypeXML, withAddress(body, serviceURL(r)))
			return
		}
	}
	d, err := wsdlFor(s.cfg.namespace, s.cfg.errorForm.Service, s.enc.shape, s.cfg.shape)
	if err != nil {
		s.log.Error("WSDL", "error", err)
		http.Error(w, "the service description could not be built", http.StatusInternalServerError)
		return
	}
	addr := serviceURL(r)
	body := d.appendTo(make([]byte, 0, d.size+len(d.parts)*2*len(addr)), addr)
	writeDoc(w, asmx.ContentTypeXML, body)
}

// The finders of withAddress: the location of a WSDL port's address
// element (soap:address, soap12:address, http:address); the service
// address of a schema import that names a schema of the service
// (<s:import schemaLocation="http://host/app/service/service.asmx?schema=RegionSet">,
// a typed DataSet's), up to its '?'; the service address of a WSDL import
// that names a service description of the service (<wsdl:import
// location="http://host/app/service/service.asmx?wsdl=wsdl1">, which .NET
// writes for a service spanning namespaces), up to its '?'.
var (
	addressLocation = elementAttr("address", "location", false)
	schemaImport    = elementAttr("import", "schemaLocation", true)
	wsdlImport      = elementAttr("import", "location", true)
)

// withAddress returns a recorded WSDL with the location of every port's
// address set to addr, as ASMX writes the address a request came in on,
// and every schema or WSDL import that names a document of the service
// file (…/service/service.asmx?schema=ID, ?wsdl=wsdl1) at addr, so that a
// client fetches it from the mock, which replays it; the rest, comments
// and CDATA sections included, is as recorded.
func withAddress(wsdl []byte, addr string) []byte {
	esc := xmlEscape(addr)
	wsdl = replaceGroup(wsdl, addressLocation, esc, func([]byte) bool { return true })
	ofService := func(u []byte) bool {
		return len(u) >= len(asmx.ServicePath) && strings.EqualFold(string(u[len(u)-len(asmx.ServicePath):]), asmx.ServicePath)
	}
	wsdl = replaceGroup(wsdl, schemaImport, esc, ofService)
	return replaceGroup(wsdl, wsdlImport, esc, ofService)
}

// unmarkedSpans are the comments and CDATA sections of an XML document,
// as [start, end) byte offsets in order: text that only looks like markup.
// One left open runs to the end.
func unmarkedSpans(doc []byte) [][2]int {
	var spans [][2]int
	for i := 0; i < len(doc); {
		j := bytes.Index(doc[i:], []byte("<!"))
		if j < 0 {
			break
		}
		start := i + j
		var closing string
		switch {
		case bytes.HasPrefix(doc[start:], []byte("<!--")):
			closing = "-->"
		case bytes.HasPrefix(doc[start:], []byte("<![CDATA[")):
			closing = "]]>"
		default:
			i = start + 2
			continue
		}
		end := len(doc)
		if k := bytes.Index(doc[start+4:], []byte(closing)); k >= 0 {
			end = start + 4 + k + len(closing)
		}
		spans = append(spans, [2]int{start, end})
		i = end
	}
	return spans
}

// writeDoc writes a 200 documentation response.
func writeDoc(w http.ResponseWriter, ctype string, body []byte) {
	h := w.Header()
	h.Set("Content-Type", ctype)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(body)
}

// serviceURL is the address the request came in on: scheme, Host header
// (hostOf) and the service path.
func serviceURL(r *http.Request) string {
	return schemeOf(r) + "://" + hostOf(r) + asmx.ServicePath
}

func schemeOf(r *http.Request) string {
	if r.TLS != nil {
		return "https"
	}
	return "http"
}

// hostOf is the Host header ("localhost" when there is none) as ASMX
// writes the address it came in on: Request.Url, a System.Uri, is
// canonical (canonicalHost).
func hostOf(r *http.Request) string {
	if r.Host == "" {
		return "localhost"
	}
	return canonicalHost(r.Host, schemeOf(r))
}

// canonicalHost is host (a Host header's value) as a System.Uri of scheme
// writes it: ASCII letters in lower case, the port a number, without the
// zeros before it, and none when it is the scheme's default (or empty).
// A port that is no number is kept as it is.
func canonicalHost(host, scheme string) string {
	name, port, hasPort := host, "", false
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		name, port, hasPort = host[:i], host[i+1:], true
	}
	lower := []byte(name)
	for i, c := range lower {
		if 'A' <= c && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
	}
	name = string(lower)
	if !hasPort {
		return name
	}
	for _, c := range []byte(port) {
		if c < '0' || c > '9' {
			return name + ":" + port
		}
	}
	if port = strings.TrimLeft(port, "0"); port == "" && len(host) > len(name)+1 {
		port = "0"
	}
	if port == "" || scheme == "http" && port == "80" || scheme == "https" && port == "443" {
		return name
	}
	return name + ":" + port
}

// xmlEscape escapes s for XML text and attribute values.
func xmlEscape(s string) string { return string(asmx.AppendAttr(nil, s)) }

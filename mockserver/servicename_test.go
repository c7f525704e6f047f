package mockserver

import (
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// TestServiceName checks WithServiceName: every place ASMX names after the
// service's class follows it, the WSDL's service, portTypes, bindings and
// ports (and the bindings' and ports' references to them, byte for byte
// for one binding and one port), the disco document's bindings, the help
// pages' title and, with detailed errors, the service's own stack frames;
// the default name is nowhere left (but in strAtmServiceKey, the
// parameter's own name).
func TestServiceName(t *testing.T) {
	t.Parallel()
	const name = "AtmLocator"
	srv := newTestServer(t, WithServiceName(name), WithKeys("good-key"), WithDetailedErrors(true))
	svc := srv.URL + asmx.ServicePath
	noDefault := func(what, body string) {
		t.Helper()
		if strings.Contains(strings.ReplaceAll(body, asmx.ParamKey, ""), DefaultServiceName) {
			t.Errorf("%s still names %s:\n%s", what, DefaultServiceName, body)
		}
	}

	root := fetchWSDL(t, srv.URL, "WSDL")
	service := xmlNamed(root, nsWSDL, "service", name)
	if service == nil {
		t.Fatalf("WSDL: no service named %s", name)
	}
	for _, pt := range []string{"Soap", "HttpGet", "HttpPost"} {
		if xmlNamed(root, nsWSDL, "portType", name+pt) == nil {
			t.Errorf("WSDL: no portType named %s%s", name, pt)
		}
	}
	for _, b := range []struct{ suffix, portType string }{{"Soap", "Soap"}, {"Soap12", "Soap"}, {"HttpGet", "HttpGet"}, {"HttpPost", "HttpPost"}} {
		bd := xmlNamed(root, nsWSDL, "binding", name+b.suffix)
		if bd == nil || bd.SelectAttrValue("type", "") != "tns:"+name+b.portType {
			t.Errorf("WSDL: binding %s%s: got %v, want one of type tns:%s%s", name, b.suffix, bd, name, b.portType)
		}
		p := xmlNamed(service, nsWSDL, "port", name+b.suffix)
		if p == nil || p.SelectAttrValue("binding", "") != "tns:"+name+b.suffix {
			t.Errorf("WSDL: port %s%s: got %v, want one of binding tns:%s%s", name, b.suffix, p, name, b.suffix)
		}
	}
	wsdl := docGet(t, svc+"?WSDL")
	runChecks(t, wsdl,
		bodyContains(`<wsdl:binding name="AtmLocatorSoap12" type="tns:AtmLocatorSoap">`),
		bodyContains(`<wsdl:service name="AtmLocator">`+"\r\n"+`    <wsdl:port name="AtmLocatorSoap" binding="tns:AtmLocatorSoap">`+"\r\n"+
			`      <soap:address location="`+svc+`" />`+"\r\n    </wsdl:port>"))
	noDefault("the WSDL", wsdl.body)

	disco := docGet(t, svc+"?disco")
	runChecks(t, disco, bodyContains(`binding="q1:AtmLocatorSoap"`), bodyContains(`binding="q2:AtmLocatorSoap12"`))
	noDefault("the disco document", disco.body)

	for _, q := range []string{"", "?op=ReturnProvinces"} {
		page := docGet(t, svc+q)
		runChecks(t, page, hasStatus(200), bodyContains("<title>AtmLocator Web Service</title>"))
		noDefault("the help page "+q, page.body)
	}

	for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP12, asmx.HTTPGet, asmx.HTTPPost} {
		r := call(t, srv.URL, b, "ReturnProvinces", [][2]string{{asmx.ParamKey, "bad-key"}})
		runChecks(t, r, hasStatus(500),
			bodyContains("at AtmLocator.CheckKey(String strAtmServiceKey)"), bodyContains("at AtmLocator.ReturnProvinces(String strAtmServiceKey)"))
		noDefault("the detailed error over "+b.String(), r.body)
	}
}

// TestServiceNameRefused checks that WithServiceName refuses a name ASMX
// would not write in its WSDL as given: New fails, naming the problem.
func TestServiceNameRefused(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]string{
		"":         "empty",
		"1Service": "'1' cannot begin",
		"atm:Svc":  "':' cannot be in",
		"Atm Svc":  "' ' cannot be in",
	} {
		_, err := New(WithServiceName(name))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("New(WithServiceName(%q)): got %v, want an error with %q", name, err, want)
		}
	}
	for _, name := range []string{"Service", "AttrService", "Atm.Service-2", "_svc", "Službа", "My_x0020_Service"} {
		if _, err := New(WithServiceName(name)); err != nil {
			t.Errorf("New(WithServiceName(%q)): %v", name, err)
		}
	}
}

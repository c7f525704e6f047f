package conformance

import (
	"net/http"
	"net/http/httptest"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// cannedAnswer is one refusal a target might send.
type cannedAnswer struct {
	status int
	header map[string]string
	body   string
}

// soap11Fault and soap12Fault write a fault as ASMX does.
func soap11Fault(code, text string) string {
	return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + soap11EnvNS + `"><soap:Body><soap:Fault><faultcode>soap:` + code +
		`</faultcode><faultstring>` + text + `</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>`
}

func soap12Fault(code, text string) string {
	return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + soap12EnvNS + `"><soap:Body><soap:Fault><soap:Code><soap:Value>soap:` + code +
		`</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">` + text + `</soap:Text></soap:Reason><soap:Detail /></soap:Fault></soap:Body></soap:Envelope>`
}

var _ = Describe("the service's own refusals", Label("selftest"), func() {
	const (
		unable   = "Server was unable to process request. ---&gt; Unknown service key."
		detailed = "System.Web.Services.Protocols.SoapException: Server was unable to process request. ---&gt; System.UnauthorizedAccessException: Unknown service key.\n   at Svc.CheckKey()"
	)
	xml11 := map[string]string{"Content-Type": ctTextXML}
	xml12 := map[string]string{"Content-Type": ctSOAP12}
	plain := map[string]string{"Content-Type": ctTextPlain}
	DescribeTable("are accepted in every form ASMX gives them, and in no other",
		func(b Binding, a cannedAnswer, says string) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				for k, v := range a.header {
					w.Header().Set(k, v)
				}
				w.WriteHeader(a.status)
				_, _ = w.Write([]byte(a.body))
			}))
			DeferCleanup(srv.Close)
			s, err := NewSession(Config{Target: srv.URL, Key: "k", Namespace: altNS})
			Expect(err).NotTo(HaveOccurred())
			x, err := s.Do(Request{Binding: b, Op: opProvinces, Values: map[string]string{pKey: wrongKey}})
			Expect(err).NotTo(HaveOccurred())
			err = checkServiceFault(x, "ReturnProvinces over "+string(b))
			if says == "" {
				Expect(err).NotTo(HaveOccurred())
				return
			}
			Expect(err).To(MatchError(ContainSubstring(says)))
		},
		Entry("SOAP 1.1: a SoapException of the service, Client, its message alone", SOAP11, cannedAnswer{500, xml11, soap11Fault("Client", "The service key is not valid.")}, ""),
		Entry("SOAP 1.1: a SoapException of the service, Server", SOAP11, cannedAnswer{500, xml11, soap11Fault("Server", "Key store unavailable.")}, ""),
		Entry("SOAP 1.1: another exception, wrapped by ASMX with Server", SOAP11, cannedAnswer{500, xml11, soap11Fault("Server", unable)}, ""),
		Entry("SOAP 1.1: the same in the detailed form (customErrors Off)", SOAP11, cannedAnswer{500, xml11, soap11Fault("Server", detailed)}, ""),
		Entry("SOAP 1.1: ASMX's wrapping text with Client, which ASMX never writes", SOAP11, cannedAnswer{500, xml11, soap11Fault("Client", unable)}, "only with Server"),
		Entry("SOAP 1.1: the same in the detailed form", SOAP11, cannedAnswer{500, xml11, soap11Fault("Client", detailed)}, "only with Server"),
		Entry("SOAP 1.1: a VersionMismatch code", SOAP11, cannedAnswer{500, xml11, soap11Fault("VersionMismatch", "The service key is not valid.")}, "fault code"),
		Entry("SOAP 1.1: HTTP 400", SOAP11, cannedAnswer{400, xml11, soap11Fault("Client", "The service key is not valid.")}, "status"),
		Entry("SOAP 1.2: Sender, its message alone", SOAP12, cannedAnswer{500, xml12, soap12Fault("Sender", "The service key is not valid.")}, ""),
		Entry("SOAP 1.2: Receiver, wrapped by ASMX", SOAP12, cannedAnswer{500, xml12, soap12Fault("Receiver", unable)}, ""),
		Entry("SOAP 1.2: ASMX's wrapping text with Sender", SOAP12, cannedAnswer{500, xml12, soap12Fault("Sender", unable)}, "only with Receiver"),
		Entry("SOAP 1.2: HTTP 400, which ASMX writes with no body", SOAP12, cannedAnswer{400, xml12, soap12Fault("Sender", "The service key is not valid.")}, "status"),
		Entry("HTTP GET: 500 text/plain", HTTPGet, cannedAnswer{500, plain, "The service key is not valid."}, ""),
		Entry("HTTP GET: 403", HTTPGet, cannedAnswer{403, plain, "The service key is not valid."}, "status"),
		Entry("HTTP POST: 500 text/html", HTTPPost, cannedAnswer{500, map[string]string{"Content-Type": "text/html"}, "<html>Runtime Error</html>"}, "content type"),
		Entry("JSON path: 500 text/plain", JSON, cannedAnswer{500, plain, "The service key is not valid."}, ""),
		Entry("JSON path: ASP.NET's script handler", JSON, cannedAnswer{500, map[string]string{"Content-Type": "application/json; charset=utf-8", "jsonerror": "true"},
			`{"Message":"There was an error processing the request.","StackTrace":"","ExceptionType":""}`}, ""),
		Entry("JSON path: a JSON object without jsonerror", JSON, cannedAnswer{500, map[string]string{"Content-Type": "application/json"}, `{"Message":"The service key is not valid."}`}, "content type"),
		Entry("JSON path: 403 and a JSON object of its own", JSON, cannedAnswer{403, map[string]string{"Content-Type": "application/json"}, `{"error":"bad key"}`}, "status"),
	)
})

var _ = Describe("the routing specs", Label("selftest"), func() {
	It("fail a server that refuses with a Client fault what ASMX answers, routes or refuses otherwise", func() {
		srv := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", ctTextXML)
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(soap11Fault("Client", "Cannot route the request.")))
		})
		bad := failed(checkAll(srv, Config{Key: "k", Namespace: altNS}, "routing/*"))
		for name, says := range map[string]string{
			"routing/soap12-envelope-as-text-xml":          "status",
			"routing/soap11-envelope-as-soap12":            "415 with no body",
			"routing/unknown-envelope-namespace":           "VersionMismatch",
			"routing/unknown-envelope-namespace-as-soap12": "VersionMismatch",
			"routing/soap11-without-soapaction":            "status",
			"routing/doctype":                              "400 with no body",
		} {
			Expect(bad).To(HaveKeyWithValue(name, ContainSubstring(says)))
		}
		Expect(bad).NotTo(HaveKey("routing/soap11-without-soapaction-unknown-element"), "a Client fault is what ASMX answers there")
	})
})

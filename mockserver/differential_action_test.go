package mockserver

import (
	"testing"

	"github.com/atmkit/atmkit/internal/refdeploy"
)

// TestDifferentialActionDecoded sends SOAP actions holding '+' and '%' to a
// reference deployment of its own whose typed service has a namespace
// holding a '+', and to the mock set alike. ASMX URL-decodes the action
// (SOAPAction header, SOAP 1.2's action parameter) before it looks the
// operation up, '+' becoming a space (.NET's Soap11ServerProtocolHelper
// and Soap12ServerProtocolHelper.RouteRequest: HttpUtility.UrlDecode), so
// the namespace's '+' names the operation only when sent as %2B.
func TestDifferentialActionDecoded(t *testing.T) {
	t.Parallel()
	refdeploy.Require(t)
	const plusNS = "http://atmref.example.org/a+b/atmService"
	ref := refdeploy.Start(t, refdeploy.EditSiteFile(refdeploy.Root, "App_Code/AtmService.cs",
		`Namespace = "`+refdeploy.Namespace+`"`, `Namespace = "`+plusNS+`"`))
	mock := newTestServer(t, WithNamespace(plusNS), WithKeys(refdeploy.Key))
	const (
		sent    = plusNS + "/ReturnProvinces"                                  // the namespace's + as it is
		encoded = "http://atmref.example.org/a%2Bb/atmService/ReturnProvinces" // the + as %2B
		spaced  = "http://atmref.example.org/a b/atmService/ReturnProvinces"   // sent, decoded
		escaped = "http%3A%2F%2Fatmref.example.org%2Fa%2Bb%2FatmService%2FReturnProvinces"
	)
	provinces := `<ReturnProvinces xmlns="` + plusNS + `"><strAtmServiceKey>` + refdeploy.Key + `</strAtmServiceKey></ReturnProvinces>`
	env := func(envNS, inner string) string {
		return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + envNS + `"><soap:Body>` + inner + `</soap:Body></soap:Envelope>`
	}
	s11 := func(action string) diffRequest {
		return diffRequest{"POST", "/service/service.asmx", map[string]string{"Content-Type": ctXML, "SOAPAction": `"` + action + `"`},
			env("http://schemas.xmlsoap.org/soap/envelope/", provinces)}
	}
	s12 := func(action, inner string) diffRequest {
		return diffRequest{"POST", "/service/service.asmx", map[string]string{"Content-Type": `application/soap+xml; charset=utf-8; action="` + action + `"`},
			env("http://www.w3.org/2003/05/soap-envelope", inner)}
	}
	ok := outcome{200, ctXML, "", "*"}
	rows := []struct {
		name string
		req  diffRequest
		want outcome
		mono *monoDiff // Mono's answer where it is not .NET's
	}{
		{"SOAP 1.1, the namespace's + as sent", s11(sent), outcome{500, ctXML, "soap:Client", "Server did not recognize the value of HTTP Header SOAPAction: " + spaced + "."},
			&monoDiff{outcome{500, ctXML, "soap:Client", "Server did not recognize the value of HTTP Header {0}: {1}."}, whyUnformatted}},
		{"SOAP 1.1, the + as %2B", s11(encoded), ok, nil},
		{"SOAP 1.1, the whole action URL-encoded", s11(escaped), ok, nil},
		{"SOAP 1.2, the namespace's + as sent, an empty Body", s12(sent, ""), outcome{500, ctSOAP12, "soap:Sender", "Unable to handle request. The action '" + spaced + "' was not recognized."},
			&monoDiff{outcome{500, ctSOAP12, "soap:Sender", "Unable to handle request. The action '{0}' was not recognized."}, whyUnformatted}},
		{"SOAP 1.2, the namespace's + as sent, routed by the element", s12(sent, provinces), ok.withType(ctSOAP12), nil},
		{"SOAP 1.2, the + as %2B, an empty Body", s12(encoded, ""), outcome{500, ctSOAP12, "soap:Sender", keyMissing}, nil},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			compareRow(t, mock.URL, ref.URL, row.req, row.want, row.mono)
		})
	}
}

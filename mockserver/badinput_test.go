package mockserver

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/serve"
	"github.com/beevik/etree"
)

// rawRequest is one hand-made request of the bad-input table.
type rawRequest struct {
	method, path string
	header       map[string]string
	body         string
}

const coordsBody = `<ReturnAtmSearchByCoordinates xmlns="` + testNS + `"><strAtmServiceKey>good</strAtmServiceKey><strPostalCode></strPostalCode><dblLatitude>44.6488</dblLatitude><dblLongitude>-63.5752</dblLongitude><bytRadius>5</bytRadius></ReturnAtmSearchByCoordinates>`

func s11(action, body string) rawRequest {
	return rawRequest{"POST", "/service/service.asmx", map[string]string{"Content-Type": "text/xml; charset=utf-8", "SOAPAction": action}, body}
}

func s12(body string) rawRequest {
	return rawRequest{"POST", "/service/service.asmx", map[string]string{"Content-Type": "application/soap+xml; charset=utf-8"}, body}
}

func env(version, inner string) string {
	ns := asmx.NamespaceSOAP11
	if version == "1.2" {
		ns = asmx.NamespaceSOAP12
	}
	return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + ns + `"><soap:Body>` + inner + `</soap:Body></soap:Envelope>`
}

func get(pathAndQuery string) rawRequest {
	return rawRequest{"GET", pathAndQuery, nil, ""}
}

func postForm(path, ctype, body string) rawRequest {
	return rawRequest{"POST", path, map[string]string{"Content-Type": ctype}, body}
}

const coordsAction = `"` + testNS + `/ReturnAtmSearchByCoordinates"`

const coordsQuery = "strAtmServiceKey=good&strPostalCode=&dblLatitude=44.6488&dblLongitude=-63.5752&bytRadius=5"

func sendRaw(t *testing.T, base string, rr rawRequest) response {
	t.Helper()
	req, err := http.NewRequest(rr.method, base+rr.path, strings.NewReader(rr.body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range rr.header {
		req.Header.Set(k, v)
	}
	return do(t, req)
}

// Checks of an error's form.

func emptyBody() check {
	return func(r response) error {
		if r.body != "" {
			return fmt.Errorf("body: got %.200q, want empty", r.body)
		}
		return nil
	}
}

func soapFault(version, code, text string) check {
	return func(r response) error {
		envNS, ctype := asmx.NamespaceSOAP11, asmx.ContentTypeSOAP11
		if version == "1.2" {
			envNS, ctype = asmx.NamespaceSOAP12, asmx.ContentTypeSOAP12
		}
		if r.ctype != ctype {
			return fmt.Errorf("fault content type: got %q, want %q", r.ctype, ctype)
		}
		doc := etree.NewDocument()
		if err := doc.ReadFromString(r.body); err != nil {
			return fmt.Errorf("fault does not parse: %v: %.300q", err, r.body)
		}
		root := doc.Root()
		if root == nil || root.Tag != "Envelope" || root.NamespaceURI() != envNS {
			return fmt.Errorf("fault envelope: want {%s}Envelope in %.300q", envNS, r.body)
		}
		var gotCode, gotText string
		if version == "1.2" {
			if v := root.FindElement("./Body/Fault/Code/Value"); v != nil {
				gotCode = v.Text()
			}
			if tx := root.FindElement("./Body/Fault/Reason/Text"); tx != nil {
				gotText = tx.Text()
				if tx.SelectAttrValue("xml:lang", "") != "en" {
					return fmt.Errorf("Reason/Text xml:lang: got %q, want %q", tx.SelectAttrValue("xml:lang", ""), "en")
				}
			}
		} else {
			if v := root.FindElement("./Body/Fault/faultcode"); v != nil {
				gotCode = v.Text()
			}
			if v := root.FindElement("./Body/Fault/faultstring"); v != nil {
				gotText = v.Text()
			}
		}
		if gotCode != "soap:"+code {
			return fmt.Errorf("fault code: got %q, want %q", gotCode, "soap:"+code)
		}
		if !strings.Contains(gotText, text) {
			return fmt.Errorf("fault text: got %q, want it to contain %q", gotText, text)
		}
		return nil
	}
}

func plainText(text string) check {
	return func(r response) error {
		if r.ctype != asmx.ContentTypeText {
			return fmt.Errorf("content type: got %q, want %q", r.ctype, asmx.ContentTypeText)
		}
		if !strings.Contains(r.body, text) {
			return fmt.Errorf("text: got %q, want it to contain %q", r.body, text)
		}
		return nil
	}
}

// errorPage checks ASP.NET's HTML error page, the answer to a request no
// ASMX protocol takes.
func errorPage() check {
	return func(r response) error {
		if r.ctype != asmx.ContentTypeHTML || !strings.Contains(r.body, "<title>Runtime Error</title>") {
			return fmt.Errorf("got %q %.200q, want ASP.NET's error page", r.ctype, r.body)
		}
		return nil
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t, WithKeys("good"), WithMaxBodyBytes(4096))
	big := strings.Repeat("x", 5000)
	laughs := `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>` + env("1.1", `<ReturnProvinces xmlns="`+testNS+`"><strAtmServiceKey>&lol2;</strAtmServiceKey></ReturnProvinces>`)
	xxe := `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>` + env("1.1", `<ReturnProvinces xmlns="`+testNS+`"><strAtmServiceKey>&xxe;</strAtmServiceKey></ReturnProvinces>`)
	deep := env("1.1", `<ReturnAtmSearchByCoordinates xmlns="`+testNS+`">`+strings.Repeat("<a>", 100)+strings.Repeat("</a>", 100)+`</ReturnAtmSearchByCoordinates>`)
	provincesAction := `"` + testNS + `/ReturnProvinces"`
	const keyMissing, keyRejected = "The service key (strAtmServiceKey) is missing or empty.", "The service key (strAtmServiceKey) is not valid."
	tests := []struct {
		name   string
		req    rawRequest
		checks []check
	}{
		// SOAP 1.1
		{"soap11 not XML", s11(coordsAction, "this is not xml"), []check{hasStatus(400), hasContentType(asmx.ContentTypeSOAP11), emptyBody()}},
		{"soap11 truncated", s11(coordsAction, env("1.1", coordsBody)[:120]), []check{hasStatus(400), emptyBody()}},
		{"soap11 empty body", s11(coordsAction, ""), []check{hasStatus(400), emptyBody()}},
		{"soap wrong content type", rawRequest{"POST", "/service/service.asmx", map[string]string{"Content-Type": "application/json"}, env("1.1", coordsBody)}, []check{hasStatus(415), hasContentType(asmx.ContentTypeSOAP12), emptyBody()}},
		{"soap no content type", rawRequest{"POST", "/service/service.asmx", nil, env("1.1", coordsBody)}, []check{hasStatus(415), emptyBody()}},
		{"soap PUT", rawRequest{"PUT", "/service/service.asmx", map[string]string{"Content-Type": "text/xml"}, env("1.1", coordsBody)}, []check{hasStatus(405), errorPage()}},
		{"soap DELETE", rawRequest{"DELETE", "/service/service.asmx", nil, ""}, []check{hasStatus(405), errorPage()}},
		{"soap11 unknown action", s11(`"urn:nope"`, env("1.1", coordsBody)), []check{hasStatus(500), soapFault("1.1", "Client", "Server did not recognize the value of HTTP Header SOAPAction: urn:nope.")}},
		{"soap11 empty action", s11(`""`, env("1.1", coordsBody)), []check{hasStatus(500), soapFault("1.1", "Client", "SOAPAction: .")}},
		// Soap11ServerProtocolHelper.RouteRequest: Substring(1, -1) of a lone quote throws.
		{"soap11 action a lone quote", s11(`"`, env("1.1", coordsBody)), []check{hasStatus(500),
			soapFault("1.1", "Server", "Server was unable to process request. ---> Length cannot be less than zero.\nParameter name: length"),
			bodyContains("<faultstring>Server was unable to process request. ---&gt; Length cannot be less than zero.\r\nParameter name: length</faultstring>")}},
		{"soap12 action parameter a lone quote is none", rawRequest{"POST", "/service/service.asmx", map[string]string{"Content-Type": `application/soap+xml; action="`}, env("1.2", coordsBody)},
			[]check{hasStatus(200), hasContentType(asmx.ContentTypeSOAP12)}},
		{"soap11 action of another operation reads leniently", s11(provincesAction, env("1.1", coordsBody)), []check{hasStatus(500), soapFault("1.1", "Client", keyMissing)}},
		{"soap11 with a 1.2 envelope is SOAP 1.2", s11(coordsAction, env("1.2", coordsBody)), []check{hasStatus(200), hasContentType(asmx.ContentTypeSOAP12)}},
		{"soap11 entity expansion", s11(provincesAction, laughs), []check{hasStatus(400), emptyBody()}},
		{"soap11 external entity", s11(provincesAction, xxe), []check{hasStatus(400), emptyBody()}},
		{"soap11 nesting 100 deep is skipped", s11(coordsAction, deep), []check{hasStatus(500), soapFault("1.1", "Client", keyMissing)}},
		{"soap11 invalid UTF-8 is replaced", s11(coordsAction, env("1.1", strings.Replace(coordsBody, "good", "go\xffod", 1))), []check{hasStatus(500), soapFault("1.1", "Client", keyRejected)}},
		{"soap11 declared UTF-16 is ignored", s11(coordsAction, strings.Replace(env("1.1", coordsBody), "utf-8", "utf-16", 1)), []check{hasStatus(200)}},
		{"soap11 body over the cap", s11(coordsAction, env("1.1", strings.Replace(coordsBody, "<strPostalCode></strPostalCode>", "<strPostalCode>"+big+"</strPostalCode>", 1))), []check{hasStatus(500), soapFault("1.1", "Server", "There was an exception running the extensions specified in the config file. ---> Maximum request length exceeded.")}},
		{"soap11 body over the cap, action a lone quote", s11(`"`, env("1.1", big)), []check{hasStatus(500),
			soapFault("1.1", "Server", "Server was unable to process request. ---> Length cannot be less than zero.\nParameter name: length")}},
		{"soap11 body over the cap, unknown action", s11(`"urn:nope"`, env("1.1", big)), []check{hasStatus(500), soapFault("1.1", "Client", "Server did not recognize the value of HTTP Header SOAPAction: urn:nope.")}},
		{"soap11 body over the cap, no action", rawRequest{"POST", "/service/service.asmx", map[string]string{"Content-Type": "text/xml"}, env("1.1", big)},
			[]check{hasStatus(500), soapFault("1.2", "Receiver", "Server was unable to process request. ---> Object reference not set to an instance of an object.")}},
		{"soap12 body over the cap", s12(env("1.2", big)), []check{hasStatus(500), soapFault("1.2", "Receiver", "Server was unable to process request. ---> Object reference not set to an instance of an object.")}},
		{"soap12 body over the cap, routed by its action", rawRequest{"POST", "/service/service.asmx", map[string]string{"Content-Type": `application/soap+xml; action="` + testNS + `/ReturnProvinces"`}, env("1.2", big)},
			[]check{hasStatus(500), soapFault("1.2", "Receiver", "There was an exception running the extensions specified in the config file. ---> Maximum request length exceeded.")}},
		{"soap11 wrong key", s11(coordsAction, env("1.1", strings.Replace(coordsBody, ">good<", ">bad<", 1))), []check{hasStatus(500), soapFault("1.1", "Client", keyRejected)}},
		{"soap11 empty key", s11(coordsAction, env("1.1", strings.Replace(coordsBody, ">good<", "><", 1))), []check{hasStatus(500), soapFault("1.1", "Client", keyMissing)}},
		{"soap11 no parameters at all", s11(coordsAction, env("1.1", `<ReturnAtmSearchByCoordinates xmlns="`+testNS+`"/>`)), []check{hasStatus(500), soapFault("1.1", "Client", keyMissing)}},
		{"soap11 radius 256", s11(coordsAction, env("1.1", strings.Replace(coordsBody, ">5<", ">256<", 1))), []check{hasStatus(500), soapFault("1.1", "Client", "Server was unable to read request. ---> There is an error in XML document (1, 359). ---> Value was either too large or too small for an unsigned byte.")}},
		{"soap11 radius not a number", s11(coordsAction, env("1.1", strings.Replace(coordsBody, ">5<", ">five<", 1))), []check{hasStatus(500), soapFault("1.1", "Client", "---> Input string was not in a correct format.")}},
		{"soap11 latitude 91 searches", s11(coordsAction, env("1.1", strings.Replace(coordsBody, ">44.6488<", ">91<", 1))), []check{hasStatus(200), bodyContains("<count>0</count>")}},
		{"soap11 institution id overflow", s11(`"`+testNS+`/ReturnAtmSearchByInstitution"`, env("1.1", `<ReturnAtmSearchByInstitution xmlns="`+testNS+`"><strAtmServiceKey>good</strAtmServiceKey><intInstitutionID>99999999999</intInstitutionID></ReturnAtmSearchByInstitution>`)), []check{hasStatus(500), soapFault("1.1", "Client", "---> Value was either too large or too small for an Int32.")}},
		{"soap11 element inside a parameter", s11(coordsAction, env("1.1", strings.Replace(coordsBody, ">good<", ">good<b/><", 1))), []check{hasStatus(400), emptyBody()}},
		{"soap11 root without a namespace", s11(coordsAction, `<html><body/></html>`), []check{hasStatus(500), soapFault("1.1", "VersionMismatch", "Possible SOAP version mismatch: Envelope namespace  was unexpected.")}},
		{"soap11 must understand", s11(coordsAction, `<soap:Envelope xmlns:soap="`+asmx.NamespaceSOAP11+`"><soap:Header><a:Auth xmlns:a="urn:a" soap:mustUnderstand="1"/></soap:Header><soap:Body>`+coordsBody+`</soap:Body></soap:Envelope>`), []check{hasStatus(500), soapFault("1.1", "MustUnderstand", "SOAP header Auth was not understood.")}},
		{"soap11 without SOAPAction is routed by its element", rawRequest{"POST", "/service/service.asmx", map[string]string{"Content-Type": "text/xml; charset=utf-8"}, env("1.1", coordsBody)}, []check{hasStatus(200), hasContentType(asmx.ContentTypeSOAP11)}},
		// SOAP 1.2
		{"soap12 unknown element", s12(env("1.2", `<ReturnEverything xmlns="`+testNS+`"/>`)), []check{hasStatus(500), soapFault("1.2", "Sender", "Unable to handle request without a valid action parameter. Please supply a valid soap action.")}},
		{"soap12 wrong service namespace", s12(env("1.2", strings.Replace(coordsBody, testNS, "http://example.org/other", 1))), []check{hasStatus(500), soapFault("1.2", "Sender", "Unable to handle request without a valid action parameter.")}},
		{"soap12 with a 1.1 envelope", s12(env("1.1", coordsBody)), []check{hasStatus(415), hasContentType(asmx.ContentTypeSOAP11), emptyBody()}},
		{"soap12 unknown action", rawRequest{"POST", "/service/service.asmx", map[string]string{"Content-Type": `application/soap+xml; charset=utf-8; action="urn:nope"`}, env("1.2", `<ReturnEverything xmlns="`+testNS+`"/>`)}, []check{hasStatus(500), soapFault("1.2", "Sender", "Unable to handle request. The action 'urn:nope' was not recognized.")}},
		{"soap12 action of another operation reads leniently", rawRequest{"POST", "/service/service.asmx", map[string]string{"Content-Type": `application/soap+xml; charset=utf-8; action="` + testNS + `/ReturnProvinces"`}, env("1.2", coordsBody)}, []check{hasStatus(500), soapFault("1.2", "Sender", keyMissing)}},
		{"soap12 wrong key", s12(env("1.2", strings.Replace(coordsBody, ">good<", ">nope<", 1))), []check{hasStatus(500), soapFault("1.2", "Sender", keyRejected)}},
		{"soap12 longitude 200 searches", s12(env("1.2", strings.Replace(coordsBody, ">-63.5752<", ">200<", 1))), []check{hasStatus(200), bodyContains("<count>0</count>")}},
		{"soap12 not XML", s12("<<<"), []check{hasStatus(500), soapFault("1.2", "Receiver", "Server was unable to process request. ---> ")}},
		{"soap12 DOCTYPE", s12(laughs), []check{hasStatus(500), soapFault("1.2", "Receiver", "Server was unable to process request. ---> DTD is prohibited in this XML document.")}},
		// HTTP GET
		{"get unknown method", get("/service/service.asmx/ReturnEverything?strAtmServiceKey=good"), []check{hasStatus(500), plainText("ReturnEverything Web Service method name is not valid.\r\n")}},
		{"get method name in the wrong case", get("/service/service.asmx/returnprovinces?strAtmServiceKey=good"), []check{hasStatus(500), plainText("Invalid method name &#39;returnprovinces&#39;,  method names are case sensitive.")}},
		{"get missing parameter", get("/service/service.asmx/ReturnAtmSearchByAddress?strAtmServiceKey=good&strAddress=&strProvince=&strPostalCode=&bytRadius=5"), []check{hasStatus(500), plainText("Missing parameter: strCity.\r\n")}},
		{"get radius 300", get("/service/service.asmx/ReturnAtmSearchByCoordinates?" + strings.Replace(coordsQuery, "bytRadius=5", "bytRadius=300", 1)), []check{hasStatus(500), plainText("Cannot convert 300 to System.Byte.\r\nParameter name: type ---> Value was either too large or too small for an unsigned byte.\r\n")}},
		{"get wrong key", get("/service/service.asmx/ReturnProvinces?strAtmServiceKey=bad"), []check{hasStatus(500), plainText(keyRejected + "\r\n")}},
		{"get no key", get("/service/service.asmx/ReturnProvinces"), []check{hasStatus(500), plainText("Missing parameter: strAtmServiceKey.")}},
		{"get key name in another case", get("/service/service.asmx/ReturnProvinces?STRATMSERVICEKEY=good"), []check{hasStatus(200)}},
		{"get latitude NaN searches", get("/service/service.asmx/ReturnAtmSearchByCoordinates?" + strings.Replace(coordsQuery, "44.6488", "NaN", 1)), []check{hasStatus(200), bodyContains("<latitude>NaN</latitude>")}},
		{"get latitude 0.00001 written as XmlConvert writes it", get("/service/service.asmx/ReturnAtmSearchByCoordinates?" + strings.Replace(coordsQuery, "44.6488&dblLongitude=-63.5752", "0.00001&dblLongitude=46.13680000000001", 1)),
			[]check{hasStatus(200), bodyContains("<latitude>1E-05</latitude>"), bodyContains("<longitude>46.136800000000008</longitude>")}},
		{"json latitude 0.00001 written as Double.ToString(\"r\") writes it", get("/service-v2.asmx/ReturnAtmSearchByCoordinates?" + strings.Replace(coordsQuery, "44.6488&dblLongitude=-63.5752", "0.00001&dblLongitude=46.13680000000001", 1)),
			[]check{hasStatus(200), bodyContains(`"latitude":1E-05,"longitude":46.136800000000008`)}},
		{"get invalid UTF-8 is replaced", get("/service/service.asmx/ReturnAtmSearchByCoordinates?" + strings.Replace(coordsQuery, "strPostalCode=", "strPostalCode=%FF", 1)), []check{hasStatus(200)}},
		{"get bad escape stays", get("/service/service.asmx/ReturnProvinces?strAtmServiceKey=%zz"), []check{hasStatus(500), plainText(keyRejected)}},
		{"get PUT", rawRequest{"PUT", "/service/service.asmx/ReturnProvinces", nil, ""}, []check{hasStatus(500), errorPage()}},
		{"get without a method name", get("/service/service.asmx/?strAtmServiceKey=good"), []check{hasStatus(500), errorPage()}},
		// HTTP POST
		{"post not a form", postForm("/service/service.asmx/ReturnProvinces", "text/plain", "strAtmServiceKey=good"), []check{hasStatus(500), plainText("Request format is invalid: text/plain.\r\n")}},
		{"post unknown method before the content type", postForm("/service/service.asmx/Nope", "text/plain", "x"), []check{hasStatus(500), plainText("Nope Web Service method name is not valid.")}},
		{"post missing parameter", postForm("/service/service.asmx/ReturnAtmSearchByCity", asmx.ContentTypeForm, "strAtmServiceKey=good"), []check{hasStatus(500), plainText("Missing parameter: intCityID.")}},
		{"post parameters in the query are not read", postForm("/service/service.asmx/ReturnProvinces?strAtmServiceKey=good", asmx.ContentTypeForm, "x=1"), []check{hasStatus(500), plainText("Missing parameter: strAtmServiceKey.")}},
		{"post city id 1.5", postForm("/service/service.asmx/ReturnAtmSearchByCity", asmx.ContentTypeForm, "strAtmServiceKey=good&intCityID=1.5"), []check{hasStatus(500), plainText("Cannot convert 1.5 to System.Int32.")}},
		{"post body over the cap", postForm("/service/service.asmx/ReturnProvinces", asmx.ContentTypeForm, "strAtmServiceKey=good&x="+big), []check{hasStatus(500), plainText("Maximum request length exceeded.")}},
		{"post wrong key", postForm("/service/service.asmx/ReturnProvinces", asmx.ContentTypeForm, "strAtmServiceKey=wrong"), []check{hasStatus(500), plainText(keyRejected)}},
		// JSON: an .asmx like the other, answering as ASMX's HTTP GET protocol
		{"json operation not offered", get("/service-v2.asmx/ReturnProvinces?strAtmServiceKey=good"), []check{hasStatus(500), plainText("ReturnProvinces Web Service method name is not valid.")}},
		{"json missing parameter", get("/service-v2.asmx/ReturnAtmSearchByCoordinates?strAtmServiceKey=good"), []check{hasStatus(500), plainText("Missing parameter: strPostalCode.")}},
		{"json radius -1", get("/service-v2.asmx/ReturnAtmSearchByCoordinates?" + strings.Replace(coordsQuery, "bytRadius=5", "bytRadius=-1", 1)), []check{hasStatus(500), plainText("Cannot convert -1 to System.Byte.")}},
		{"json wrong key", get("/service-v2.asmx/ReturnAtmSearchByCoordinates?" + strings.Replace(coordsQuery, "good", "evil", 1)), []check{hasStatus(500), plainText(keyRejected)}},
		{"json no key", get("/service-v2.asmx/ReturnAtmSearchByCoordinates?" + strings.Replace(coordsQuery, "strAtmServiceKey=good&", "", 1)), []check{hasStatus(500), plainText("Missing parameter: strAtmServiceKey.")}},
		{"json latitude 91 searches", get("/service-v2.asmx/ReturnAtmSearchByCoordinates?" + strings.Replace(coordsQuery, "44.6488", "91", 1)), []check{hasStatus(200), bodyContains(`"count":0`)}},
		{"json DELETE", rawRequest{"DELETE", "/service-v2.asmx/ReturnAtmSearchByCoordinates", nil, ""}, []check{hasStatus(500), errorPage()}},
		{"json body over the cap", postForm("/service-v2.asmx/ReturnAtmSearchByCoordinates", asmx.ContentTypeForm, coordsQuery+"&x="+big), []check{hasStatus(500), plainText("Maximum request length exceeded.")}},
	}
	if len(tests) < 40 {
		t.Fatalf("the table has %d rows, want at least 40", len(tests))
	}
	valid := s11(coordsAction, env("1.1", coordsBody))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runChecks(t, sendRaw(t, srv.URL, tt.req), tt.checks...)
			// The server still answers a valid request afterwards.
			runChecks(t, sendRaw(t, srv.URL, valid), hasStatus(200), hasContentType(asmx.ContentTypeSOAP11))
		})
	}
}

// TestErrorForms checks the detailed form (--detailed-errors) and the JSON
// path's ASP.NET AJAX form (--json-errors ajax) of the same errors.
func TestErrorForms(t *testing.T) {
	t.Parallel()
	detailed := newTestServer(t, WithKeys("good"), WithDetailedErrors(true))
	ajax := newTestServer(t, WithKeys("good"), WithJSONErrors(JSONErrorsAjax))
	ajaxDetailed := newTestServer(t, WithKeys("good"), WithJSONErrors(JSONErrorsAjax), WithDetailedErrors(true))
	off := newTestServer(t, WithKeys("good"), WithRequestValidation(asmx.ValidationOff))
	granular := newTestServer(t, WithKeys("good"), WithRequestValidation(asmx.Validation45))
	ajaxError := func(msg, typ string) check {
		return func(r response) error {
			var v struct{ Message, StackTrace, ExceptionType string }
			if err := json.Unmarshal([]byte(r.body), &v); err != nil {
				return fmt.Errorf("JSON error does not parse: %v: %q", err, r.body)
			}
			if r.ctype != asmx.ContentTypeJSONError || v.Message != msg || v.ExceptionType != typ || (typ == "") != (v.StackTrace == "") {
				return fmt.Errorf("got %q %+v, want message %q type %q", r.ctype, v, msg, typ)
			}
			return nil
		}
	}
	tests := []struct {
		name   string
		base   string
		req    rawRequest
		checks []check
	}{
		{"soap detailed", detailed.URL, s11(coordsAction, env("1.1", strings.Replace(coordsBody, ">5<", ">256<", 1))), []check{hasStatus(500), soapFault("1.1", "Client",
			"System.Web.Services.Protocols.SoapException: Server was unable to read request. ---> System.InvalidOperationException: There is an error in XML document (1, 359). ---> System.OverflowException: Value was either too large or too small for an unsigned byte.\n   at System.Byte.Parse(")}},
		{"soap action a lone quote, detailed", detailed.URL, s11(`"`, env("1.1", coordsBody)), []check{hasStatus(500), soapFault("1.1", "Server",
			"System.Web.Services.Protocols.SoapException: Server was unable to process request. ---> System.ArgumentOutOfRangeException: Length cannot be less than zero.\nParameter name: length\n"+
				"   at System.String.Substring(Int32 startIndex, Int32 length)\n   at System.Web.Services.Protocols.Soap11ServerProtocolHelper.RouteRequest()\n"+
				"   at System.Web.Services.Protocols.SoapServerProtocol.RouteRequest(SoapServerMessage message)\n   at System.Web.Services.Protocols.SoapServerProtocol.Initialize()\n")}},
		// The stack's CR LF is written as it is (XmlTextWriter), so a reader sees a line feed.
		{"soap key detailed", detailed.URL, s11(coordsAction, env("1.1", strings.Replace(coordsBody, ">good<", ">bad<", 1))), []check{hasStatus(500), soapFault("1.1", "Client",
			"System.Web.Services.Protocols.SoapException: The service key (strAtmServiceKey) is not valid.\n   at AtmService.CheckKey(String strAtmServiceKey)\n   at AtmService.ReturnAtmSearchByCoordinates(String strAtmServiceKey, String strPostalCode, Double dblLatitude, Double dblLongitude, Byte bytRadius)")}},
		{"get detailed", detailed.URL, get("/service/service.asmx/ReturnAtmSearchByAddress?strAtmServiceKey=good"), []check{hasStatus(500), plainText(
			"System.InvalidOperationException: Missing parameter: strAddress.\r\n   at System.Web.Services.Protocols.ValueCollectionParameterReader.Read(NameValueCollection collection)\r\n   at System.Web.Services.Protocols.UrlParameterReader.Read(HttpRequest request)")}},
		{"json ajax", ajax.URL, get("/service-v2.asmx/ReturnAtmSearchByCoordinates?strAtmServiceKey=good"), []check{hasStatus(500), ajaxError("There was an error processing the request.", "")}},
		{"json ajax detailed", ajaxDetailed.URL, get("/service-v2.asmx/ReturnAtmSearchByCoordinates?strAtmServiceKey=good"), []check{hasStatus(500), ajaxError("Missing parameter: strPostalCode.", "System.InvalidOperationException")}},
		// RestHandlerFactory looks the method up outside RestHandler's
		// try block: ASP.NET's error page, in any case of the name.
		{"json ajax, an unknown method: the error page", ajax.URL, get("/service-v2.asmx/ReturnProvinces?strAtmServiceKey=good"), []check{hasStatus(500), hasContentType(asmx.ContentTypeHTML), bodyContains("Runtime Error")}},
		{"json ajax, a method in another case: the error page, detailed", ajaxDetailed.URL, get("/service-v2.asmx/returnAtmSearchByCoordinates?strAtmServiceKey=good"), []check{hasStatus(500), hasContentType(asmx.ContentTypeHTML),
			bodyContains("<title>Unknown web method returnAtmSearchByCoordinates.\r\nParameter name: methodName</title>")}},
		{"json ajax leaves GET alone", ajax.URL, get("/service/service.asmx/ReturnProvinces?strAtmServiceKey=bad"), []check{hasStatus(500), plainText("The service key (strAtmServiceKey) is not valid.\r\n")}},
		{"request validation, json ajax detailed", ajaxDetailed.URL, get("/service-v2.asmx/ReturnAtmSearchByCoordinates?strAtmServiceKey=good&strPostalCode=%3Cb"), []check{hasStatus(500),
			ajaxError("A potentially dangerous Request.QueryString value was detected from the client (strPostalCode=\"<b\").", "System.Web.HttpRequestValidationException")}},
		{"request validation off", off.URL, get("/service/service.asmx/ReturnAtmSearchByCity?strAtmServiceKey=good&intCityID=1&x=%3Cb"), []check{hasStatus(200)}},
		{"request validation 4.5: unknown names are not read", granular.URL, get("/service/service.asmx/ReturnAtmSearchByCity?strAtmServiceKey=good&intCityID=1&x=%3Cb"), []check{hasStatus(200)}},
		{"request validation 4.0 (the default)", detailed.URL, get("/service/service.asmx/ReturnAtmSearchByCity?strAtmServiceKey=good&intCityID=1&x=%3Cb"), []check{hasStatus(500),
			plainText("System.Web.HttpRequestValidationException (0x80004005): A potentially dangerous Request.QueryString value was detected from the client (x=&quot;&lt;b&quot;).\r\n   at System.Web.HttpRequest.ValidateString(")}},
		{"error page detailed", detailed.URL, rawRequest{"PUT", "/service/service.asmx/ReturnProvinces", nil, ""}, []check{hasStatus(500), bodyContains("System.InvalidOperationException: Request format is unrecognized for URL unexpectedly ending in &#39;/ReturnProvinces&#39;.")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runChecks(t, sendRaw(t, tt.base, tt.req), tt.checks...) })
	}
	t.Run("jsonerror header", func(t *testing.T) {
		resp, err := http.Get(ajax.URL + "/service-v2.asmx/ReturnAtmSearchByCoordinates?strAtmServiceKey=good")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("jsonerror"); got != "true" {
			t.Errorf("got jsonerror %q, want %q", got, "true")
		}
	})
}

// panickingReplayer fails on every call, to show panics become faults.
type panickingReplayer struct{}

func (panickingReplayer) Replay(context.Context, *asmx.Call) (ReplayAnswer, bool, string) {
	panic("boom")
}

func TestPanicBecomesServerFault(t *testing.T) {
	t.Parallel()
	srv := newTestServer(t, WithReplay(panickingReplayer{}, MissFault))
	for _, tc := range []struct {
		b     asmx.Binding
		check check
	}{
		{asmx.SOAP11, soapFault("1.1", "Server", "Server was unable to process request. ---> internal error: boom")},
		{asmx.SOAP12, soapFault("1.2", "Receiver", "internal error: boom")},
		{asmx.HTTPGet, plainText("internal error: boom\r\n")},
		{asmx.JSON, plainText("internal error: boom\r\n")},
	} {
		op := asmx.OpReturnAtmSearchByCoordinates
		runChecks(t, call(t, srv.URL, tc.b, op, paramsFor(op, "k")), hasStatus(500), tc.check)
	}
}

func TestStalledRequestDoesNotHoldASlot(t *testing.T) {
	t.Parallel()
	h, err := New(WithDataset(smallDataset()))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := serve.NewHTTPServer(h)
	// Short enough to drop the stalled client soon, long enough that the
	// valid request's own read, begun as the server accepts it, is not
	// cut by a busy machine (at 200 ms it was once, under a package run on
	// a loaded host: the server closed it unanswered, EOF).
	srv.ReadHeaderTimeout = time.Second
	srv.ReadTimeout = 2 * time.Second
	go func() { _ = srv.Serve(serve.LimitListener(ln, 1)) }()
	t.Cleanup(func() { _ = srv.Close() })

	// A client sends half a request line and stalls: the server must drop it.
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, "GET /service/service.asmx/ReturnProvinces?strAtmServiceKey=k HTTP/1.1\r\nHost: x\r\n"); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
	if _, err := bufio.NewReader(c).ReadString('\n'); err == nil {
		// net/http answers 408 or closes; either way the connection ends.
		_, err = io.ReadAll(c)
		if err != nil {
			t.Fatalf("stalled connection: %v", err)
		}
	}
	// With one slot, a valid request now gets through.
	r := call(t, "http://"+ln.Addr().String(), asmx.HTTPGet, asmx.OpReturnProvinces, paramsFor(asmx.OpReturnProvinces, "k"))
	runChecks(t, r, hasStatus(200))
}

// TestDefaultBodyCap checks the default cap is ASP.NET's maxRequestLength
// (4096 KB): a 1.4 MB request is served. (Refusals are checked with a small
// cap in TestBadInput.)
func TestDefaultBodyCap(t *testing.T) {
	t.Parallel()
	if DefaultMaxBodyBytes != 4096*1024 {
		t.Errorf("got DefaultMaxBodyBytes %d, want %d", DefaultMaxBodyBytes, 4096*1024)
	}
	srv := newTestServer(t)
	body := func(n int) string {
		return env("1.1", strings.Replace(coordsBody, "<strPostalCode></strPostalCode>", "<strPostalCode>"+strings.Repeat("x", n)+"</strPostalCode>", 1))
	}
	runChecks(t, sendRaw(t, srv.URL, s11(coordsAction, body(1400<<10))), hasStatus(200))
}

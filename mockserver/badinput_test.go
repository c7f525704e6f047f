package mockserver

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
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

func jsonError(code, param string) check {
	return func(r response) error {
		if r.ctype != asmx.ContentTypeJSONError {
			return fmt.Errorf("content type: got %q, want %q", r.ctype, asmx.ContentTypeJSONError)
		}
		var v struct {
			Error struct {
				Code, Message, Parameter string
				Status                   int
			}
		}
		if err := json.Unmarshal([]byte(r.body), &v); err != nil {
			return fmt.Errorf("JSON error does not parse: %v: %q", err, r.body)
		}
		if v.Error.Code != code || v.Error.Parameter != param || v.Error.Message == "" || v.Error.Status != r.status {
			return fmt.Errorf("JSON error: got %+v, want code %q parameter %q and the status", v.Error, code, param)
		}
		return nil
	}
}

func TestBadInput(t *testing.T) {
	srv := newTestServer(t, WithKeys("good"), WithMaxBodyBytes(4096))
	big := strings.Repeat("x", 5000)
	laughs := `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>` + env("1.1", `<ReturnProvinces xmlns="`+testNS+`"><strAtmServiceKey>&lol2;</strAtmServiceKey></ReturnProvinces>`)
	xxe := `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>` + env("1.1", `<ReturnProvinces xmlns="`+testNS+`"><strAtmServiceKey>&xxe;</strAtmServiceKey></ReturnProvinces>`)
	deep := env("1.1", `<ReturnAtmSearchByCoordinates xmlns="`+testNS+`">`+strings.Repeat("<a>", 100)+strings.Repeat("</a>", 100)+`</ReturnAtmSearchByCoordinates>`)
	tests := []struct {
		name   string
		req    rawRequest
		checks []check
	}{
		// SOAP 1.1
		{"soap11 not XML", s11(coordsAction, "this is not xml"), []check{hasStatus(400), emptyBody()}},
		{"soap11 truncated", s11(coordsAction, env("1.1", coordsBody)[:120]), []check{hasStatus(400), emptyBody()}},
		{"soap11 empty body", s11(coordsAction, ""), []check{hasStatus(400), emptyBody()}},
		{"soap wrong content type", rawRequest{"POST", "/service/service.asmx", map[string]string{"Content-Type": "application/json"}, env("1.1", coordsBody)}, []check{hasStatus(415), emptyBody()}},
		{"soap no content type", rawRequest{"POST", "/service/service.asmx", nil, env("1.1", coordsBody)}, []check{hasStatus(415), emptyBody()}},
		{"soap PUT", rawRequest{"PUT", "/service/service.asmx", map[string]string{"Content-Type": "text/xml"}, env("1.1", coordsBody)}, []check{hasStatus(405), emptyBody()}},
		{"soap DELETE", rawRequest{"DELETE", "/service/service.asmx", nil, ""}, []check{hasStatus(405), emptyBody()}},
		{"soap11 unknown action", s11(`"urn:nope"`, env("1.1", coordsBody)), []check{hasStatus(500), soapFault("1.1", "Client", "Server did not recognize the value of HTTP Header SOAPAction: urn:nope.")}},
		{"soap11 missing action", s11("", env("1.1", coordsBody)), []check{hasStatus(500), soapFault("1.1", "Client", "SOAPAction: .")}},
		{"soap11 action of another operation", s11(`"`+testNS+`/ReturnProvinces"`, env("1.1", coordsBody)), []check{hasStatus(500), soapFault("1.1", "Client", "was not expected")}},
		{"soap11 with a 1.2 envelope", s11(coordsAction, env("1.2", coordsBody)), []check{hasStatus(500), soapFault("1.1", "VersionMismatch", "Possible SOAP version mismatch")}},
		{"soap11 entity expansion", s11(`"`+testNS+`/ReturnProvinces"`, laughs), []check{hasStatus(500), soapFault("1.1", "Client", "DTD is prohibited")}},
		{"soap11 external entity", s11(`"`+testNS+`/ReturnProvinces"`, xxe), []check{hasStatus(500), soapFault("1.1", "Client", "DTD is prohibited")}},
		{"soap11 nesting 100 deep", s11(coordsAction, deep), []check{hasStatus(500), soapFault("1.1", "Client", "deeper than the limit")}},
		{"soap11 invalid UTF-8", s11(coordsAction, env("1.1", strings.Replace(coordsBody, "good", "go\xffod", 1))), []check{hasStatus(400), emptyBody()}},
		{"soap11 UTF-16 declared", s11(coordsAction, strings.Replace(env("1.1", coordsBody), "utf-8", "utf-16", 1)), []check{notStatus(200)}},
		{"soap11 body over the cap", s11(coordsAction, env("1.1", strings.Replace(coordsBody, "<strPostalCode></strPostalCode>", "<strPostalCode>"+big+"</strPostalCode>", 1))), []check{hasStatus(413), soapFault("1.1", "Client", "exceeds the limit of 4096 bytes")}},
		{"soap11 wrong key", s11(coordsAction, env("1.1", strings.Replace(coordsBody, ">good<", ">bad<", 1))), []check{hasStatus(500), soapFault("1.1", "Client", "(strAtmServiceKey) is not valid")}},
		{"soap11 empty key", s11(coordsAction, env("1.1", strings.Replace(coordsBody, ">good<", "><", 1))), []check{hasStatus(500), soapFault("1.1", "Client", "(strAtmServiceKey) is missing or empty")}},
		{"soap11 no parameters at all", s11(coordsAction, env("1.1", `<ReturnAtmSearchByCoordinates xmlns="`+testNS+`"/>`)), []check{hasStatus(500), soapFault("1.1", "Client", "strAtmServiceKey")}},
		{"soap11 radius 256", s11(coordsAction, env("1.1", strings.Replace(coordsBody, ">5<", ">256<", 1))), []check{hasStatus(500), soapFault("1.1", "Client", "bytRadius")}},
		{"soap11 radius not a number", s11(coordsAction, env("1.1", strings.Replace(coordsBody, ">5<", ">five<", 1))), []check{hasStatus(500), soapFault("1.1", "Client", "bytRadius")}},
		{"soap11 latitude 91", s11(coordsAction, env("1.1", strings.Replace(coordsBody, ">44.6488<", ">91<", 1))), []check{hasStatus(500), soapFault("1.1", "Client", "dblLatitude")}},
		{"soap11 institution id overflow", s11(`"`+testNS+`/ReturnAtmSearchByInstitution"`, env("1.1", `<ReturnAtmSearchByInstitution xmlns="`+testNS+`"><strAtmServiceKey>good</strAtmServiceKey><intInstitutionID>99999999999</intInstitutionID></ReturnAtmSearchByInstitution>`)), []check{hasStatus(500), soapFault("1.1", "Client", "intInstitutionID")}},
		{"soap11 element inside a parameter", s11(coordsAction, env("1.1", strings.Replace(coordsBody, ">good<", "><b>good</b><", 1))), []check{hasStatus(500), soapFault("1.1", "Client", "must hold text only")}},
		{"soap11 root is not an envelope", s11(coordsAction, `<html><body/></html>`), []check{hasStatus(500), soapFault("1.1", "Client", "not a SOAP Envelope")}},
		// SOAP 1.2
		{"soap12 unknown element", s12(env("1.2", `<ReturnEverything xmlns="`+testNS+`"/>`)), []check{hasStatus(500), soapFault("1.2", "Sender", "The request element <ReturnEverything xmlns='"+testNS+"'> was not recognized.")}},
		{"soap12 wrong service namespace", s12(env("1.2", strings.Replace(coordsBody, testNS, "http://example.org/other", 1))), []check{hasStatus(500), soapFault("1.2", "Sender", "was not recognized")}},
		{"soap12 with a 1.1 envelope", s12(env("1.1", coordsBody)), []check{hasStatus(500), soapFault("1.2", "VersionMismatch", "Expecting "+asmx.NamespaceSOAP12)}},
		{"soap12 action of another operation", rawRequest{"POST", "/service/service.asmx", map[string]string{"Content-Type": `application/soap+xml; charset=utf-8; action="` + testNS + `/ReturnProvinces"`}, env("1.2", coordsBody)}, []check{hasStatus(500), soapFault("1.2", "Sender", "was not expected")}},
		{"soap12 wrong key", s12(env("1.2", strings.Replace(coordsBody, ">good<", ">nope<", 1))), []check{hasStatus(500), soapFault("1.2", "Sender", "is not valid")}},
		{"soap12 longitude 200", s12(env("1.2", strings.Replace(coordsBody, ">-63.5752<", ">200<", 1))), []check{hasStatus(500), soapFault("1.2", "Sender", "dblLongitude")}},
		{"soap12 not XML", s12("<<<"), []check{hasStatus(400), emptyBody()}},
		// HTTP GET
		{"get unknown method", get("/service/service.asmx/ReturnEverything?strAtmServiceKey=good"), []check{hasStatus(500), plainText("ReturnEverything Web Service method name is not valid.")}},
		{"get missing parameter", get("/service/service.asmx/ReturnAtmSearchByAddress?strAtmServiceKey=good&strAddress=&strProvince=&strPostalCode=&bytRadius=5"), []check{hasStatus(500), plainText("System.InvalidOperationException: Missing parameter: strCity.")}},
		{"get radius 300", get("/service/service.asmx/ReturnAtmSearchByCoordinates?" + strings.Replace(coordsQuery, "bytRadius=5", "bytRadius=300", 1)), []check{hasStatus(500), plainText("Cannot convert 300 to System.Byte.\r\nParameter name: bytRadius")}},
		{"get wrong key", get("/service/service.asmx/ReturnProvinces?strAtmServiceKey=bad"), []check{hasStatus(500), plainText("System.UnauthorizedAccessException")}},
		{"get no key", get("/service/service.asmx/ReturnProvinces"), []check{hasStatus(500), plainText("Missing parameter: strAtmServiceKey.")}},
		{"get latitude NaN", get("/service/service.asmx/ReturnAtmSearchByCoordinates?" + strings.Replace(coordsQuery, "44.6488", "NaN", 1)), []check{hasStatus(500), plainText("dblLatitude")}},
		{"get invalid UTF-8", get("/service/service.asmx/ReturnAtmSearchByCoordinates?" + strings.Replace(coordsQuery, "strPostalCode=", "strPostalCode=%FF", 1)), []check{hasStatus(500), plainText("not valid UTF-8")}},
		{"get bad escape", get("/service/service.asmx/ReturnProvinces?strAtmServiceKey=%zz"), []check{hasStatus(500), plainText("Request format is invalid")}},
		{"get PUT", rawRequest{"PUT", "/service/service.asmx/ReturnProvinces", nil, ""}, []check{hasStatus(405), emptyBody()}},
		// HTTP POST
		{"post not a form", postForm("/service/service.asmx/ReturnProvinces", "text/plain", "strAtmServiceKey=good"), []check{hasStatus(500), plainText("Request format is invalid: text/plain.")}},
		{"post missing parameter", postForm("/service/service.asmx/ReturnAtmSearchByCity", asmx.ContentTypeForm, "strAtmServiceKey=good"), []check{hasStatus(500), plainText("Missing parameter: intCityID.")}},
		{"post city id 1.5", postForm("/service/service.asmx/ReturnAtmSearchByCity", asmx.ContentTypeForm, "strAtmServiceKey=good&intCityID=1.5"), []check{hasStatus(500), plainText("Cannot convert 1.5 to System.Int32.")}},
		{"post body over the cap", postForm("/service/service.asmx/ReturnProvinces", asmx.ContentTypeForm, "strAtmServiceKey=good&x="+big), []check{hasStatus(413), plainText("Maximum request length exceeded")}},
		{"post wrong key", postForm("/service/service.asmx/ReturnProvinces", asmx.ContentTypeForm, "strAtmServiceKey=wrong"), []check{hasStatus(500), plainText("is not valid")}},
		// JSON
		{"json operation not offered", get("/service-v2.asmx/ReturnProvinces?strAtmServiceKey=good"), []check{hasStatus(404), jsonError("UnknownOperation", "")}},
		{"json missing parameter", get("/service-v2.asmx/ReturnAtmSearchByCoordinates?strAtmServiceKey=good"), []check{hasStatus(400), jsonError("MissingParameter", "strPostalCode")}},
		{"json radius -1", get("/service-v2.asmx/ReturnAtmSearchByCoordinates?" + strings.Replace(coordsQuery, "bytRadius=5", "bytRadius=-1", 1)), []check{hasStatus(400), jsonError("InvalidParameter", "bytRadius")}},
		{"json wrong key", get("/service-v2.asmx/ReturnAtmSearchByCoordinates?" + strings.Replace(coordsQuery, "good", "evil", 1)), []check{hasStatus(403), jsonError("InvalidServiceKey", "strAtmServiceKey")}},
		{"json no key", get("/service-v2.asmx/ReturnAtmSearchByCoordinates?" + strings.Replace(coordsQuery, "strAtmServiceKey=good&", "", 1)), []check{hasStatus(403), jsonError("MissingServiceKey", "strAtmServiceKey")}},
		{"json DELETE", rawRequest{"DELETE", "/service-v2.asmx/ReturnAtmSearchByCoordinates", nil, ""}, []check{hasStatus(405), jsonError("MethodNotAllowed", "")}},
		{"json body over the cap", postForm("/service-v2.asmx/ReturnAtmSearchByCoordinates", asmx.ContentTypeForm, coordsQuery+"&x="+big), []check{hasStatus(413), jsonError("RequestTooLarge", "")}},
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

// panickingReplayer fails on every call, to show panics become faults.
type panickingReplayer struct{}

func (panickingReplayer) Replay(*asmx.Call) (ReplayAnswer, bool, string) { panic("boom") }

func TestPanicBecomesServerFault(t *testing.T) {
	srv := newTestServer(t, WithReplay(panickingReplayer{}, MissFault))
	for _, tc := range []struct {
		b     asmx.Binding
		check check
	}{
		{asmx.SOAP11, soapFault("1.1", "Server", "Server was unable to process request. ---> internal error: boom")},
		{asmx.SOAP12, soapFault("1.2", "Receiver", "internal error: boom")},
		{asmx.HTTPGet, plainText("System.Exception: internal error: boom")},
		{asmx.JSON, jsonError("ServerError", "")},
	} {
		op := asmx.OpReturnAtmSearchByCoordinates
		runChecks(t, call(t, srv.URL, tc.b, op, paramsFor(op, "k")), hasStatus(500), tc.check)
	}
}

func TestStalledRequestDoesNotHoldASlot(t *testing.T) {
	h, err := New(WithDataset(smallDataset()))
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := NewHTTPServer(h)
	srv.ReadHeaderTimeout = 200 * time.Millisecond
	srv.ReadTimeout = 300 * time.Millisecond
	go func() { _ = srv.Serve(LimitListener(ln, 1)) }()
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

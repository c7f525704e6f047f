package asmx

import (
	"encoding/json"
	"math"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestExceptionForms(t *testing.T) {
	x := &Exception{Type: typeSoapException, Message: "Outer.", Stack: []string{"A.B()"},
		Inner: &Exception{Type: typeArgument, Message: argumentMessage("Cannot convert <x> to System.Byte.", "type"), Stack: []string{"C.D(String s)", "E.F()"},
			Inner: &Exception{Type: typeFormat, Message: ""}}}
	for _, tt := range []struct {
		name string
		got  string
		want string
	}{
		{"remote", x.remoteText(false), "Outer. ---> Cannot convert <x> to System.Byte.\r\nParameter name: type ---> SoapException"},
		{"remote, HTML", x.remoteText(true), "Outer. ---> Cannot convert &lt;x&gt; to System.Byte.\r\nParameter name: type ---> SoapException"},
		{"detailed", x.detailedText(false), "System.Web.Services.Protocols.SoapException: Outer. ---> System.ArgumentException: Cannot convert <x> to System.Byte.\r\n" +
			"Parameter name: type ---> System.FormatException\r\n   --- End of inner exception stack trace ---\r\n   at C.D(String s)\r\n   at E.F()\r\n" +
			"   --- End of inner exception stack trace ---\r\n   at A.B()"},
		{"detailed, HTML", x.Inner.Inner.detailedText(true), "System.FormatException"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestHTMLEncode(t *testing.T) {
	if got, want := htmlEncode(`a<b>&"'é€`), "a&lt;b&gt;&amp;&quot;&#39;&#233;€"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestWriteErrorForm checks each binding's form of one service error and of
// errors without a body.
func TestWriteErrorForm(t *testing.T) {
	op, _ := LookupOperation(OpReturnProvinces)
	key := NewKeyRejectedError(SOAP11, op)
	for _, tt := range []struct {
		name   string
		b      Binding
		e      *Error
		form   ErrorForm
		status int
		ct     string
		check  func(body string, h map[string][]string) string
	}{
		// SoapServerProtocol writes faults with an XmlTextWriter that does
		// not indent: one line, no white space between tags.
		{"soap11", SOAP11, key, ErrorForm{}, 500, ContentTypeSOAP11, equals(`<?xml version="1.0" encoding="utf-8"?>` +
			`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
			`<soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>The service key (strAtmServiceKey) is not valid.</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>`)},
		{"soap12", SOAP12, key, ErrorForm{}, 500, ContentTypeSOAP12, equals(`<?xml version="1.0" encoding="utf-8"?>` +
			`<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
			`<soap:Body><soap:Fault><soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">The service key (strAtmServiceKey) is not valid.</soap:Text></soap:Reason><soap:Detail /></soap:Fault></soap:Body></soap:Envelope>`)},
		{"soap11 detailed", SOAP11, key, ErrorForm{Detailed: true}, 500, ContentTypeSOAP11,
			contains("<faultstring>System.Web.Services.Protocols.SoapException: The service key (strAtmServiceKey) is not valid.\r\n   at AtmService.CheckKey(String strAtmServiceKey)\r\n   at AtmService.ReturnProvinces(String strAtmServiceKey)</faultstring>")},
		{"get", HTTPGet, key, ErrorForm{}, 500, ContentTypeText, equals("The service key (strAtmServiceKey) is not valid.\r\n")},
		{"json", JSON, key, ErrorForm{}, 500, ContentTypeText, equals("The service key (strAtmServiceKey) is not valid.\r\n")},
		{"json ajax", JSON, key, ErrorForm{AjaxJSON: true}, 500, ContentTypeJSONError, func(body string, h map[string][]string) string {
			var v map[string]string
			if err := json.Unmarshal([]byte(body), &v); err != nil {
				return err.Error()
			}
			if v["Message"] != "There was an error processing the request." || v["StackTrace"] != "" || v["ExceptionType"] != "" || len(h["Jsonerror"]) != 1 {
				return "body " + body
			}
			return ""
		}},
		{"json ajax detailed", JSON, key, ErrorForm{AjaxJSON: true, Detailed: true}, 500, ContentTypeJSONError, func(body string, h map[string][]string) string {
			var v map[string]string
			if err := json.Unmarshal([]byte(body), &v); err != nil {
				return err.Error()
			}
			if v["Message"] != msgKeyRejected || !strings.HasPrefix(v["StackTrace"], "   at AtmService.CheckKey") || v["ExceptionType"] != typeSoapException {
				return "body " + body
			}
			return ""
		}},
		{"version mismatch carries Upgrade", SOAP12, newVersionMismatchError("urn:x"), ErrorForm{}, 500, ContentTypeSOAP11,
			contains(`<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">` +
				`<soap:Header><soap12:Upgrade xmlns:soap12="http://www.w3.org/2003/05/soap-envelope">` +
				`<soap12:SupportedEnvelope qname="soap:Envelope" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" />` +
				`<soap12:SupportedEnvelope qname="soap12:Envelope" xmlns:soap12="http://www.w3.org/2003/05/soap-envelope" />` +
				`</soap12:Upgrade></soap:Header><soap:Body><soap:Fault><faultcode>soap:VersionMismatch</faultcode>`)},
		{"must understand has no detail", SOAP12, NewMustUnderstandError(SOAP12, "Auth"), ErrorForm{}, 500, ContentTypeSOAP12, func(body string, _ map[string][]string) string {
			if !strings.Contains(body, "<soap:Value>soap:MustUnderstand</soap:Value>") || strings.Contains(body, "Detail") {
				return "body " + body
			}
			return ""
		}},
		{"400 keeps its content type", SOAP11, newUnreadableError(SOAP11, "x"), ErrorForm{}, 400, ContentTypeSOAP11, equals("")},
		{"415 in the version established", SOAP11, newUnsupportedMediaTypeError(SOAP12, "text/plain"), ErrorForm{}, 415, ContentTypeSOAP12, equals("")},
		{"error page", HTTPGet, NewUnrecognizedRequestError("PUT", "/ReturnProvinces"), ErrorForm{}, 500, ContentTypeHTML, contains("<title>Runtime Error</title>")},
		{"error page, detailed", HTTPGet, NewUnrecognizedRequestError("PUT", "/ReturnProvinces"), ErrorForm{Detailed: true}, 500, ContentTypeHTML,
			contains("<title>Request format is unrecognized for URL unexpectedly ending in &#39;/ReturnProvinces&#39;.</title>")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := httptest.NewRecorder()
			WriteErrorForm(w, tt.b, tt.e, tt.form)
			if w.Code != tt.status || w.Header().Get("Content-Type") != tt.ct {
				t.Errorf("got %d %q, want %d %q", w.Code, w.Header().Get("Content-Type"), tt.status, tt.ct)
			}
			if msg := tt.check(w.Body.String(), w.Header()); msg != "" {
				t.Error(msg)
			}
		})
	}
}

func contains(parts ...string) func(string, map[string][]string) string {
	return func(body string, _ map[string][]string) string {
		for _, p := range parts {
			if !strings.Contains(body, p) {
				return "got " + quote(body) + ", want it to contain " + quote(p)
			}
		}
		return ""
	}
}

func equals(want string) func(string, map[string][]string) string {
	return func(body string, _ map[string][]string) string {
		if body != want {
			return "got " + quote(body) + ", want " + quote(want)
		}
		return ""
	}
}

// TestNumbers checks what XmlConvert (SOAP) and Convert (GET, POST) accept.
func TestNumbers(t *testing.T) {
	const bad = "format"
	for _, tt := range []struct {
		typ        ParamType
		in         string
		soap, conv string // the value read, or the exception's message
	}{
		{Double, "44.5", "44.5", "44.5"},
		{Double, " 44.5\n", "44.5", "44.5"},
		{Double, "4.45E1", "44.5", "44.5"},
		{Double, "+.5", "0.5", "0.5"},
		{Double, "1.", "1", "1"},
		{Double, ".", bad, bad},
		{Double, "1,000.5", bad, "1000.5"},
		{Double, ",5", bad, bad},
		{Double, "INF", "+Inf", bad},
		{Double, "-INF", "-Inf", bad},
		{Double, "Infinity", "+Inf", "+Inf"},
		{Double, "NaN", "NaN", "NaN"},
		{Double, "nan", bad, bad},
		{Double, "0x10", bad, bad},
		{Double, "1e400", msgOverflowDouble, msgOverflowDouble},
		{Double, "1e-400", "0", "0"},
		{Double, "1e", bad, bad},
		{Double, "", bad, bad},
		{UnsignedByte, "255", "255", "255"},
		{UnsignedByte, " 7 ", "7", "7"},
		{UnsignedByte, "+5", bad, "5"},
		{UnsignedByte, "-0", bad, "0"},
		{UnsignedByte, "-1", bad, msgOverflowByte},
		{UnsignedByte, "256", msgOverflowByte, msgOverflowByte},
		{UnsignedByte, "5.0", bad, bad},
		{Int, "-2147483648", "-2147483648", "-2147483648"},
		{Int, "2147483648", msgOverflowInt32, msgOverflowInt32},
		{Int, "1e2", bad, bad},
	} {
		for _, b := range []Binding{SOAP11, HTTPGet} {
			want := tt.conv
			if b == SOAP11 {
				want = tt.soap
			}
			if want == bad {
				want = msgFormat
			}
			op, p := opWithParamOfType(tt.typ)
			c := newCall(op, b)
			got := ""
			if x := c.set(p, tt.in); x != nil {
				got = x.Message
			} else {
				switch tt.typ {
				case Double:
					got = FormatDouble(c.Latitude)
					if math.IsNaN(c.Latitude) {
						got = "NaN"
					}
				case UnsignedByte:
					got = itoa(c.Radius)
				default:
					got = itoa(c.CityID)
				}
			}
			if got != want {
				t.Errorf("%s %s %q: got %q, want %q", b, tt.typ.XSD(), tt.in, got, want)
			}
		}
	}
}

// opWithParamOfType returns an operation and the index of its parameter of
// type typ: the latitude, the radius, or the city id.
func opWithParamOfType(typ ParamType) (*Operation, int) {
	name, param := OpReturnAtmSearchByCoordinates, ParamLatitude
	switch typ {
	case UnsignedByte:
		param = ParamRadius
	case Int:
		name, param = OpReturnAtmSearchByCity, ParamCityID
	}
	op, _ := LookupOperation(name)
	for i, p := range op.Params {
		if p.Name == param {
			return op, i
		}
	}
	panic("no parameter " + param)
}

// TestIsFrameworkError: the errors ASMX gives before the service's code
// runs are told from the service's own (the key's), in .NET's words and
// Mono's unformatted ones.
func TestIsFrameworkError(t *testing.T) {
	t.Parallel()
	op, _ := LookupOperation(OpReturnProvinces)
	for _, e := range []*Error{
		newMissingParamError(HTTPGet, "strAtmServiceKey"),
		NewUnrecognizedRequestError("PUT", "/ReturnProvinces"),
		NewBadFormError(HTTPPost, "text/plain"),
		newRequestValidationError(HTTPGet, Validation40, "x", "<b", 0),
	} {
		if text := e.plainText(ErrorForm{}); !IsFrameworkError(text) {
			t.Errorf("%q: not a framework error", text)
		}
	}
	for _, text := range []string{"Server did not recognize the value of HTTP Header {0}: {1}.", "Missing parameter: {0}.", "Cannot convert {0} to {1}."} {
		if !IsFrameworkError(text) {
			t.Errorf("Mono's %q: not a framework error", text)
		}
	}
	for _, e := range []*Error{NewKeyRejectedError(HTTPGet, op), NewKeyMissingError(SOAP11, op), NewServerError(SOAP11, "boom")} {
		if text := e.plainText(ErrorForm{}); IsFrameworkError(text) {
			t.Errorf("%q: a framework error", text)
		}
	}
}

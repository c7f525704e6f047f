package mockserver

import (
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/refdeploy"
)

// Why Mono differs from .NET in a deployment whose requestEncoding is
// ISO-8859-1.
const (
	whyQueryCharsetNoBody = "Mono reads a GET's query string in the charset of its Content-Type; .NET's HttpRequest.ContentEncoding takes a charset only from a request with a body (GetEncodingFromHeaders), so a GET's query is read in requestEncoding (here ISO-8859-1)"
	whyQueryRawLatin1     = "Mono reads bytes above 0x7F sent unescaped in a query string as '?'; .NET decodes the query's raw bytes (HttpRequest.QueryStringBytes) in QueryStringEncoding (here ISO-8859-1)"
)

// TestDifferentialRequestEncoding sends the same requests to a reference
// deployment of its own whose web.config sets <globalization
// requestEncoding="iso-8859-1"> (a legacy French-Canadian site) and
// accepts the key "clé" besides its own, and to the mock set alike
// (WithRequestEncoding): both must answer as .NET does, as its reference
// source has it (HttpRequest.ContentEncoding, QueryStringEncoding,
// HttpValueCollection.FillFromEncodedBytes). A query string, and a form
// whose content type names no charset (or one .NET does not know), is read
// in ISO-8859-1: "cl%E9" is the key, "cl%C3%A9" is "clÃ©"; a form's named
// charset still wins; SOAP bodies are read in their own encoding, never in
// requestEncoding. The shared deployment's rows in
// TestDifferentialAgainstReference cover the default, UTF-8.
func TestDifferentialRequestEncoding(t *testing.T) {
	t.Parallel()
	refdeploy.Require(t)
	ref := refdeploy.Start(t,
		refdeploy.EditSiteFile(refdeploy.Root, "web.config", `<customErrors mode="On"/>`, `<customErrors mode="On"/><globalization requestEncoding="iso-8859-1"/>`),
		refdeploy.EditSiteFile(refdeploy.Root, "web.config", `<add key="ServiceKeys" value="ref-key"/>`, `<add key="ServiceKeys" value="ref-key,cl&#233;"/>`))
	mock := newTestServer(t, WithNamespace(refdeploy.Namespace), WithKeys(refdeploy.Key, "clé"), WithRequestEncoding("iso-8859-1"))
	ns, key := refdeploy.Namespace, refdeploy.Key

	get := func(path string) diffRequest { return diffRequest{"GET", path, nil, ""} }
	post := func(path, ct, body string) diffRequest {
		return diffRequest{"POST", path, map[string]string{"Content-Type": ct}, body}
	}
	soap := func(ct string, body string) diffRequest {
		h := map[string]string{"Content-Type": ct}
		if strings.HasPrefix(ct, "text/xml") {
			h["SOAPAction"] = `"` + ns + `/ReturnProvinces"`
		}
		return diffRequest{"POST", "/service/service.asmx", h, body}
	}
	envelope := func(envNS, k string) string {
		return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + envNS + `"><soap:Body><ReturnProvinces xmlns="` + ns +
			`"><strAtmServiceKey>` + k + `</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`
	}
	okXML := outcome{200, ctXML, "", "*"}
	ok12 := outcome{200, ctSOAP12, "", "*"}
	plain := func(text string) outcome { return outcome{500, ctText, "", text} }
	mono := func(o outcome, why string) *monoDiff { return &monoDiff{o, why} }
	dangerous := func(collection, value string) outcome {
		return plain("A potentially dangerous Request." + collection + " value was detected from the client (strAtmServiceKey=&quot;" + value + "&quot;).")
	}
	svc := "/service/service.asmx/"
	v2 := "/service-v2.asmx/"
	coords := func(k string) string {
		return "strAtmServiceKey=" + k + "&strPostalCode=&dblLatitude=44.6&dblLongitude=-63.5&bytRadius=5"
	}
	form := asmx.ContentTypeForm

	rows := []struct {
		name string
		req  diffRequest
		want outcome
		mono *monoDiff
	}{
		// HTTP GET: the query string in requestEncoding.
		{"get, Latin-1 escapes: the key", get(svc + "ReturnProvinces?strAtmServiceKey=cl%E9"), okXML, nil},
		{"get, UTF-8 escapes: two Latin-1 characters", get(svc + "ReturnProvinces?strAtmServiceKey=cl%C3%A9"), plain(keyRejected), nil},
		{"get, a raw Latin-1 byte", get(svc + "ReturnProvinces?strAtmServiceKey=cl\xe9"), okXML, mono(plain(keyRejected), whyQueryRawLatin1)},
		{"get, raw UTF-8 bytes", get(svc + "ReturnProvinces?strAtmServiceKey=cl\xc3\xa9"), plain(keyRejected), nil},
		{"get, a Latin-1 escape in a name", get(svc + "ReturnProvinces?strAtmServiceKey=" + key + "&n%E9=1"), okXML, nil},
		{"get, request validation echoes a Latin-1 escape", get(svc + "ReturnProvinces?strAtmServiceKey=%E9%3Cb"), dangerous("QueryString", "&#233;&lt;b"), nil},
		{"get, request validation echoes UTF-8 escapes as two characters", get(svc + "ReturnProvinces?strAtmServiceKey=%C3%A9%3Cb"), dangerous("QueryString", "&#195;&#169;&lt;b"), nil},
		{"get, a conversion error repeats the value", get(svc + "ReturnAtmSearchByCity?strAtmServiceKey=" + key + "&intCityID=%E9"),
			plain("Cannot convert &#233; to System.Int32."), mono(plain("Cannot convert {0} to {1}."), whyUnformatted)},
		{"get, %u escapes are UTF-16 in any encoding", get(svc + "ReturnProvinces?strAtmServiceKey=cl%u00E9"), okXML, mono(plain(keyRejected), whyPercentU)},
		{"get with a UTF-8 content type and no body: requestEncoding", diffRequest{"GET", svc + "ReturnProvinces?strAtmServiceKey=cl%C3%A9", map[string]string{"Content-Type": "text/plain; charset=utf-8"}, ""},
			plain(keyRejected), mono(okXML, whyQueryCharsetNoBody)},
		{"get with a UTF-8 content type and a body: its charset", diffRequest{"GET", svc + "ReturnProvinces?strAtmServiceKey=cl%C3%A9", map[string]string{"Content-Type": "text/plain; charset=utf-8"}, "x"},
			okXML, nil},
		{"json, get, Latin-1 escapes: the key", get(v2 + "ReturnAtmSearchByCoordinates?" + coords("cl%E9")), okXML, nil},
		{"json, get, UTF-8 escapes", get(v2 + "ReturnAtmSearchByCoordinates?" + coords("cl%C3%A9")), plain(keyRejected), nil},
		// HTTP POST and the JSON path's forms: in the charset the content
		// type names, else in requestEncoding.
		{"post, no charset, Latin-1 escapes: the key", post(svc+"ReturnProvinces", form, "strAtmServiceKey=cl%E9"), okXML, nil},
		{"post, no charset, UTF-8 escapes", post(svc+"ReturnProvinces", form, "strAtmServiceKey=cl%C3%A9"), plain(keyRejected), nil},
		{"post, no charset, a raw Latin-1 byte", post(svc+"ReturnProvinces", form, "strAtmServiceKey=cl\xe9"), okXML, nil},
		{"post, no charset, raw UTF-8 bytes", post(svc+"ReturnProvinces", form, "strAtmServiceKey=cl\xc3\xa9"), plain(keyRejected), nil},
		{"post, request validation echoes a Latin-1 escape", post(svc+"ReturnProvinces", form, "strAtmServiceKey=%E9%3Cb"), dangerous("Form", "&#233;&lt;b"), nil},
		{"post, a conversion error repeats the value", post(svc+"ReturnAtmSearchByCity", form, "strAtmServiceKey="+key+"&intCityID=%E9+%C3%A9"),
			plain("Cannot convert &#233; &#195;&#169; to System.Int32."), mono(plain("Cannot convert {0} to {1}."), whyUnformatted)},
		{"post, a UTF-8 charset wins: UTF-8 escapes are the key", post(svc+"ReturnProvinces", form+"; charset=utf-8", "strAtmServiceKey=cl%C3%A9"), okXML, nil},
		{"post, a UTF-8 charset wins: a Latin-1 escape is no UTF-8", post(svc+"ReturnProvinces", form+"; charset=utf-8", "strAtmServiceKey=%E9%3Cb"), dangerous("Form", "\ufffd&lt;b"), nil},
		{"post, a windows-1252 charset wins", post(svc+"ReturnProvinces", form+"; charset=windows-1252", "strAtmServiceKey=%80%3Cb"), dangerous("Form", "\u20ac&lt;b"), nil},
		{"post, a charset .NET does not know: requestEncoding", post(svc+"ReturnProvinces", form+"; charset=nope", "strAtmServiceKey=cl%E9"), okXML, nil},
		{"json, post, no charset, Latin-1 escapes: the key", post(v2+"ReturnAtmSearchByCoordinates", form, coords("cl%E9")), okXML, nil},
		{"json, post, no charset, UTF-8 escapes", post(v2+"ReturnAtmSearchByCoordinates", form, coords("cl%C3%A9")), plain(keyRejected), nil},
		{"json, post, a UTF-8 charset wins", post(v2+"ReturnAtmSearchByCoordinates", form+"; charset=utf-8", coords("cl%C3%A9")), okXML, nil},
		// SOAP: the body's encoding comes from its content type or the
		// XML, never from requestEncoding.
		{"soap 1.1, charset=utf-8: UTF-8", soap(ctXML, envelope(asmx.NamespaceSOAP11, "clé")), okXML, nil},
		{"soap 1.2, no charset: the XML's UTF-8", soap("application/soap+xml", envelope(asmx.NamespaceSOAP12, "clé")), ok12, nil},
		{"soap 1.2, no charset: Latin-1 bytes are no UTF-8", soap("application/soap+xml", envelope(asmx.NamespaceSOAP12, "cl\xe9")), outcome{400, ctSOAP12, "", ""}, nil},
		{"soap 1.1, text/xml without a charset: US-ASCII", soap("text/xml", envelope(asmx.NamespaceSOAP11, "clé")),
			outcome{500, ctXML, "soap:Client", keyRejected}, nil},
	}
	monoRows := 0
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			if compareRow(t, mock.URL, ref.URL, row.req, row.want, row.mono) {
				monoRows++
			}
		})
	}
	if t.Failed() {
		t.Logf("the reference deployment's log:\n%s", ref.Log())
	}
	t.Logf("%d requests; %d rows where Mono differs from .NET (marked and explained in the table)", len(rows), monoRows)
}

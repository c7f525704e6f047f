package mocktest

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// What the interface document and the SOAP specifications fix about a
// request, written out here rather than taken from atmkit's packages: the
// calls test them.
const (
	servicePath = "/service/service.asmx"
	jsonPath    = "/service-v2.asmx"

	ctSOAP11 = "text/xml; charset=utf-8"
	ctSOAP12 = "application/soap+xml; charset=utf-8"
	ctForm   = "application/x-www-form-urlencoded"

	soap11EnvNS = "http://schemas.xmlsoap.org/soap/envelope/"
	soap12EnvNS = "http://www.w3.org/2003/05/soap-envelope"

	paramKey = "strAtmServiceKey"
)

// Binding names, as atmkit writes them (asmx.Binding's String, the CLI's
// flags): the document's five bindings.
const (
	bSOAP11 = "soap11"
	bSOAP12 = "soap12"
	bGet    = "get"
	bPost   = "post"
	bJSON   = "json"
)

// BindingsOf returns the names of the bindings the document offers op in,
// in its order: soap11, soap12, get and post, and json for the two
// operations also offered on /service-v2.asmx.
func BindingsOf(op string) []string {
	bs := []string{bSOAP11, bSOAP12, bGet, bPost}
	if op == "ReturnAtmSearchByAddress" || op == "ReturnAtmSearchByCoordinates" {
		bs = append(bs, bJSON)
	}
	return bs
}

// SOAPEnvelope builds a SOAP request body by hand for binding b (soap11 or
// soap12), the operation in namespace ns, the parameters in the given
// order, their values as given (not escaped).
func SOAPEnvelope(ns, b, op string, params [][2]string) string {
	env := soap11EnvNS
	if b == bSOAP12 {
		env = soap12EnvNS
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="%s"><soap:Body><%s xmlns="%s">`, env, op, ns)
	for _, p := range params {
		fmt.Fprintf(&sb, "<%s>%s</%s>", p[0], p[1], p[0])
	}
	fmt.Fprintf(&sb, "</%s></soap:Body></soap:Envelope>", op)
	return sb.String()
}

// NewRequest is the request of op with params in binding b (soap11,
// soap12, get, post or json), to the service at base in namespace ns, as a
// client generated from the WSDL sends it.
func NewRequest(base, ns, b, op string, params [][2]string) (*http.Request, error) {
	form := url.Values{}
	for _, p := range params {
		form.Add(p[0], p[1])
	}
	switch b {
	case bSOAP11, bSOAP12:
		req, err := http.NewRequest("POST", base+servicePath, strings.NewReader(SOAPEnvelope(ns, b, op, params)))
		if err != nil {
			return nil, err
		}
		if b == bSOAP11 {
			req.Header.Set("Content-Type", ctSOAP11)
			req.Header.Set("SOAPAction", `"`+ns+"/"+op+`"`)
		} else {
			req.Header.Set("Content-Type", ctSOAP12)
		}
		return req, nil
	case bGet:
		return http.NewRequest("GET", base+servicePath+"/"+op+"?"+form.Encode(), nil)
	case bPost:
		req, err := http.NewRequest("POST", base+servicePath+"/"+op, strings.NewReader(form.Encode()))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Content-Type", ctForm)
		return req, nil
	case bJSON:
		return http.NewRequest("GET", base+jsonPath+"/"+op+"?"+form.Encode(), nil)
	}
	return nil, fmt.Errorf("binding %q: unknown", b)
}

// Call sends op with params in binding b to the service at base (the mock,
// a reference deployment or a proxy in front of either) in namespace ns,
// as NewRequest builds it, and returns the answer's status and body.
func Call(tb testing.TB, base, ns, b, op string, params [][2]string) (int, []byte) {
	tb.Helper()
	status, _, body := Send(tb, base, ns, b, op, params)
	return status, body
}

// Send is Call that returns the answer's content type too.
func Send(tb testing.TB, base, ns, b, op string, params [][2]string) (status int, contentType string, body []byte) {
	tb.Helper()
	req, err := NewRequest(base, ns, b, op, params)
	if err != nil {
		tb.Fatal(err)
	}
	status, header, body := Do(tb, req)
	return status, header.Get("Content-Type"), body
}

// Do sends req with http.DefaultClient and returns the answer's status,
// header and whole body, failing the test if it cannot.
func Do(tb testing.TB, req *http.Request) (status int, header http.Header, body []byte) {
	tb.Helper()
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		tb.Fatalf("%s %s: %v", req.Method, req.URL, err)
	}
	defer resp.Body.Close()
	body, err = io.ReadAll(resp.Body)
	if err != nil {
		tb.Fatalf("%s %s: read the answer: %v", req.Method, req.URL, err)
	}
	return resp.StatusCode, resp.Header, body
}

// Get is Do of a GET of url.
func Get(tb testing.TB, url string) (status int, header http.Header, body []byte) {
	tb.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return Do(tb, req)
}

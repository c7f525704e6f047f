package recorded

import (
	"net/http"
	"testing"

	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

func TestProbeCtl(t *testing.T) {
	for _, c := range []struct{ url, reqBody, reqCT, resp string }{
		{"http://h/s.asmx/ReturnProvinces?strAtmServiceKey=Ctl%01KeyValue", "", "", "<string>Ctl&#x1;KeyValue</string>"},
		{"http://h/s.asmx/ReturnProvinces?strAtmServiceKey=C%01K", "", "", "<string>C&#x1;K</string>"},
		{"http://h/s.asmx/ReturnProvinces", "strAtmServiceKey=Ctl%1fKeyValue", "application/x-www-form-urlencoded", "<string>Ctl&#x1F;KeyValue</string>"},
		{"http://h/s.asmx", `<soap:Envelope><soap:Body><ReturnProvinces><strAtmServiceKey>Ctl&#x1;KeyValue</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`, "text/xml", "<string>Ctl&#x1;KeyValue</string>"},
		{"http://h/s.asmx", `<soap:Envelope><soap:Body><ReturnProvinces><strAtmServiceKey>Ctl&#1;KeyValue</strAtmServiceKey></ReturnProvinces></soap:Body></soap:Envelope>`, "text/xml", "<string>Ctl&#x1;KeyValue</string>"},
	} {
		i := &cassette.Interaction{Request: cassette.Request{Method: "GET", URL: c.url, Body: c.reqBody, Headers: http.Header{"Content-Type": {c.reqCT}}},
			Response: cassette.Response{Code: 500, Body: c.resp, Headers: http.Header{"Content-Type": {"text/xml"}}}}
		Scrub(i, Placeholder)
		t.Logf("%q -> %q / %q", c.url, i.Request.Body, i.Response.Body)
	}
}

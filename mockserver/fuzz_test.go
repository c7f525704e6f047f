package mockserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// FuzzServeHTTP drives whole requests of every binding through the handler:
// routing, body reading and each binding's decoding. Whatever the input, the
// handler must not panic (a recovered panic would show as an internal
// error), must answer a status it documents, and a 200 must carry its
// binding's content type.
func FuzzServeHTTP(f *testing.F) {
	f.Add("POST", "/service/service.asmx", "text/xml; charset=utf-8", `"`+testNS+`/ReturnAtmSearchByCoordinates"`, "", env("1.1", coordsBody))
	f.Add("POST", "/service/service.asmx", "application/soap+xml; charset=utf-8", "", "", env("1.2", coordsBody))
	f.Add("GET", "/service/service.asmx/ReturnAtmSearchByCoordinates", "", "", coordsQuery, "")
	f.Add("POST", "/service/service.asmx/ReturnAtmSearchByCity", asmx.ContentTypeForm, "", "", "strAtmServiceKey=good&intCityID=10")
	f.Add("GET", "/service-v2.asmx/ReturnAtmSearchByAddress", "", "", "strAtmServiceKey=good&strAddress=&strCity=Halifax&strProvince=NS&strPostalCode=&bytRadius=9", "")
	f.Add("POST", "/service/service.asmx", "text/xml", `"`+testNS+`/ReturnProvinces"`, "", `<!DOCTYPE a [<!ENTITY b "c">]><a>&b;</a>`)
	f.Add("GET", "/service/service.asmx/ReturnProvinces%3C", "", "", "strAtmServiceKey=good", "")                      // a path character ASP.NET refuses
	f.Add("GET", "/service-v2.asmx/ReturnProvinces", "", "", "strAtmServiceKey=good&x="+strings.Repeat("a", 2030), "") // a query over maxQueryStringLength
	h, err := New(WithDataset(smallDataset()), WithKeys("good"), WithMaxBodyBytes(8192))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, method, path, ctype, action, query, body string) {
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " ?#\r\n\x00") || strings.ContainsAny(query, " #\r\n\x00") {
			return // not a request line net/http would pass to a handler
		}
		switch method {
		case "GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS":
		default:
			return
		}
		if method == "POST" && strings.HasPrefix(path, "/__admin/faults") {
			return // a fault added would act on every later input (a drop or a reset cannot hijack a recorder, a delay would stall the run); FuzzFaultJSON reads faults
		}
		target := path
		if query != "" {
			target += "?" + query
		}
		req, err := http.NewRequest(method, "http://mock"+target, strings.NewReader(body))
		if err != nil {
			return
		}
		if ctype != "" {
			req.Header["Content-Type"] = []string{ctype}
		}
		if action != "" {
			req.Header.Set("SOAPAction", action)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		got := rec.Result()
		if strings.Contains(rec.Body.String(), "internal error:") {
			t.Fatalf("recovered panic for %s %s: %s", method, target, rec.Body.String())
		}
		switch got.StatusCode {
		case 200, 400, 403, 404, 405, 415, 500:
		default:
			t.Fatalf("status %d for %s %s", got.StatusCode, method, target)
		}
		if got.StatusCode == 200 && method != "HEAD" {
			ct := got.Header.Get("Content-Type")
			switch ct {
			case asmx.ContentTypeSOAP11, asmx.ContentTypeSOAP12, "text/html; charset=utf-8", "application/json":
			default:
				if !strings.HasPrefix(path, "/__admin") {
					t.Fatalf("200 with content type %q for %s %s", ct, method, target)
				}
			}
		}
	})
}

package mockserver

import (
	"bytes"
	"encoding/xml"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/shape"
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

// FuzzShapeServe serves any shape file that parses (hand-edited names,
// namespaces, nesting, formats): whatever it holds, the server starts or
// refuses it with an error, never panics, and every XML answer, WSDL and
// help page it writes is well-formed XML an XML reader takes whole.
func FuzzShapeServe(f *testing.F) {
	for _, p := range []string{"../shape/testdata/typed.yaml", "../shape/testdata/attrs.yaml", "../shape/testdata/dataset.yaml",
		"../shape/testdata/grouped.yaml", "../shape/learn/testdata/variants/typed-variant.yaml", "../shape/learn/testdata/variants/dataset-spaces.yaml"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add(shape.Marshal(shape.Default(), ""))
	ds := smallDataset()
	requests := []struct{ method, target, ctype, action, body string }{
		{"GET", "/service/service.asmx/ReturnAtmSearchByCoordinates?" + coordsQuery, "", "", ""},
		{"GET", "/service/service.asmx/ReturnProvinces?strAtmServiceKey=good", "", "", ""},
		{"POST", "/service/service.asmx/ReturnInstitutions", asmx.ContentTypeForm, "", "strAtmServiceKey=good"},
		{"POST", "/service/service.asmx", "text/xml; charset=utf-8", `"` + testNS + `/ReturnAtmSearchByCoordinates"`, env("1.1", coordsBody)},
		{"POST", "/service/service.asmx", "application/soap+xml; charset=utf-8", "", env("1.2", coordsBody)},
		{"GET", "/service/service.asmx?WSDL", "", "", ""},
		{"GET", "/service/service.asmx?op=ReturnAllAtms", "", "", ""},
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sh, err := shape.Parse(data)
		if err != nil {
			return
		}
		h, err := New(WithDataset(ds), WithKeys("good"), WithShape(sh), WithNamespace(testNS))
		if err != nil {
			return // refused at start (a type that cannot hold the data set's values)
		}
		for _, r := range requests {
			req := httptest.NewRequest(r.method, r.target, strings.NewReader(r.body))
			if r.ctype != "" {
				req.Header.Set("Content-Type", r.ctype)
			}
			if r.action != "" {
				req.Header.Set("SOAPAction", r.action)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, req)
			if w.Code != http.StatusOK {
				t.Fatalf("%s %s: %d\n%.500s", r.method, r.target, w.Code, w.Body)
			}
			body := w.Body.Bytes()
			if strings.Contains(r.target, "?op=") { // an HTML page: its samples are XML, escaped
				continue
			}
			d := xml.NewDecoder(bytes.NewReader(body))
			for {
				_, err := d.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s %s: not well-formed XML: %v\n%.3000s", r.method, r.target, err, body)
				}
			}
		}
	})
}

package deviate

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
)

// FuzzDeviations serves any request (method, path, query, content type,
// SOAPAction, body) through the mock wrapped with each deviation of List
// in turn, then with all of them at once. The deviations read the
// request to classify it, rewrite some, and rewrite the mock's answers:
// no request may panic (a handler panic, or a recovered one the mock
// answers "internal error"), and each gets an HTTP answer with a status
// net/http writes.
func FuzzDeviations(f *testing.F) {
	for _, op := range asmx.Operations() {
		for _, b := range mocktest.BindingsOf(op.Name) {
			req, err := mocktest.NewRequest("http://mock.invalid", testNS, b, op.Name, paramsFor(op.Name, "good"))
			if err != nil {
				f.Fatal(err)
			}
			var body []byte
			if req.Body != nil {
				body, _ = io.ReadAll(req.Body)
			}
			f.Add(req.Method, req.URL.Path, req.URL.RawQuery, req.Header.Get("Content-Type"), req.Header.Get("SOAPAction"), string(body))
		}
	}
	f.Add("GET", asmx.ServicePath, "WSDL", "", "", "")
	f.Add("GET", asmx.ServicePath, "wsdl&x=1", "", "", "")
	f.Add("POST", asmx.ServicePath, "", asmx.ContentTypeSOAP12, "", env("1.2", coordsBody))
	f.Add("POST", asmx.ServicePath, "", asmx.ContentTypeSOAP11, `"`+testNS+`/ReturnAtmSearchByCoordinates"`, env("1.1", coordsBody))
	f.Add("POST", asmx.ServicePath, "", asmx.ContentTypeSOAP11, "", env("1.1", "<x:Y xmlns:x='urn:a'/>"))
	f.Add("POST", asmx.ServicePath+"/ReturnAtmSearchByCity", "", asmx.ContentTypeForm, "", "strAtmServiceKey=good&intCityID=%zz")
	f.Add("GET", asmx.JSONPath+"/ReturnAtmSearchByAddress", "strAtmServiceKey=good&bytRadius=300", "", "", "")
	f.Add("POST", asmx.JSONPath+"/ReturnAtmSearchByCoordinates", "", "application/json", "", `{"strAtmServiceKey":"good","dblLatitude":"x"}`)
	f.Add("GET", asmx.ServicePath+"/", "", "", "", "")
	f.Add("PUT", strings.ToUpper(asmx.ServicePath)+"/ReturnProvinces", "", "text/plain", "", "\x00")

	names := []string{}
	for _, d := range List() {
		names = append(names, d.Name)
	}
	type wrapped struct {
		name string
		h    http.Handler
	}
	var handlers []wrapped
	for _, set := range append(func() [][]string {
		var s [][]string
		for _, n := range names {
			s = append(s, []string{n})
		}
		return s
	}(), names) {
		// Admin calls are refused (a token the fuzzer cannot guess), so
		// no request changes the mock for the next one.
		s, err := mockserver.New(mockserver.WithDataset(smallDataset()), mockserver.WithAdminToken("fuzz-admin-token-31337"))
		if err != nil {
			f.Fatal(err)
		}
		h, err := Wrap(s, set...)
		if err != nil {
			f.Fatal(err)
		}
		handlers = append(handlers, wrapped{strings.Join(set, ","), h})
	}

	f.Fuzz(func(t *testing.T, method, path, query, ctype, action, body string) {
		if !validMethod(method) {
			return // net/http hands a handler no other method
		}
		req, err := http.NewRequest(method, "http://mock.invalid/", strings.NewReader(body))
		if err != nil {
			return
		}
		req.URL.Path, req.URL.RawQuery = path, query
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, "\x00") {
			return // a server parses no such request line
		}
		req.RequestURI = req.URL.RequestURI()
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		if action != "" {
			req.Header.Set("SOAPAction", action)
		}
		for _, w := range handlers {
			r := req.Clone(req.Context())
			r.Body = io.NopCloser(strings.NewReader(body))
			rec := &answerRecorder{ResponseRecorder: httptest.NewRecorder()}
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("%s: %s %s?%s (%q): panic: %v", w.name, method, path, query, ctype, p)
					}
				}()
				w.h.ServeHTTP(rec, r)
			}()
			if !rec.wrote {
				t.Fatalf("%s: %s %s?%s: no answer", w.name, method, path, query)
			}
			if c := rec.Code; c < 100 || c > 599 {
				t.Fatalf("%s: %s %s?%s: status %d", w.name, method, path, query, c)
			}
			if strings.Contains(rec.Body.String(), "internal error:") {
				t.Fatalf("%s: %s %s?%s (%q): recovered panic: %s", w.name, method, path, query, ctype, rec.Body.String())
			}
		}
	})
}

// validMethod reports whether m is a method net/http passes to a handler
// (a token).
func validMethod(m string) bool {
	if m == "" {
		return false
	}
	for _, c := range []byte(m) {
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`()<>@,;:\"/[]?={}`, c) >= 0 {
			return false
		}
	}
	return true
}

// answerRecorder records whether the handler answered at all (a
// ResponseRecorder's Code is 200 before anything is written).
type answerRecorder struct {
	*httptest.ResponseRecorder
	wrote bool
}

func (a *answerRecorder) WriteHeader(code int) {
	a.wrote = true
	a.ResponseRecorder.WriteHeader(code)
}

func (a *answerRecorder) Write(p []byte) (int, error) {
	a.wrote = true
	return a.ResponseRecorder.Write(p)
}

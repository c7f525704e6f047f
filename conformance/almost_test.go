package conformance

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/atmkit/atmkit/mockserver"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The specs of this file break a conformant server in small ways a real
// deployment, a gateway in front of it or a hand-written mock could, and
// ASMX never does, and check that the suite fails it naming what is wrong.

// answer is an HTTP answer a rewriting server may change before sending.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// bindingOf says which binding a request to a target is a call of, from
// its method, path and content type; "" for documentation pages.
func bindingOf(r *http.Request) Binding {
	p := r.URL.Path
	switch {
	case strings.HasPrefix(p, serviceV2Path+"/"):
		return JSON
	case strings.HasPrefix(p, servicePath+"/"):
		if r.Method == http.MethodGet {
			return HTTPGet
		}
		return HTTPPost
	case p == servicePath && r.Method == http.MethodPost:
		if strings.Contains(r.Header.Get("Content-Type"), "soap+xml") {
			return SOAP12
		}
		return SOAP11
	}
	return ""
}

// rewriting serves h, letting f change every answer of a call (not of a
// documentation page) before it is sent.
func rewriting(h http.Handler, f func(b Binding, a *answer)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := bindingOf(r)
		if b == "" {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		a := &answer{status: rec.Code, header: rec.Header().Clone(), body: rec.Body.Bytes()}
		f(b, a)
		for k, v := range a.header {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(a.status)
		_, _ = w.Write(a.body)
	})
}

// rewritingRequests serves h with every SOAP call's body first changed by f.
func rewritingRequests(h http.Handler, f func(b Binding, r *http.Request, body []byte) []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b := bindingOf(r)
		if b != "" {
			body, _ := io.ReadAll(r.Body)
			body = f(b, r, body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			r.ContentLength = int64(len(body))
		}
		h.ServeHTTP(w, r)
	})
}

// xmlAnswer reports whether a is a successful XML answer of binding b.
func xmlAnswer(b Binding, a *answer) bool { return b != JSON && a.status == http.StatusOK }

// cityResultRE matches the city search's <OpResult> in a SOAP answer.
var cityResultRE = regexp.MustCompile(`(?s)<ReturnAtmSearchByCityResult\b.*</ReturnAtmSearchByCityResult>`)

var declRE = regexp.MustCompile(`^\s*<\?xml[^?]*\?>\s*`)

// editJSON decodes a JSON answer, lets f change it and encodes it again.
func editJSON(a *answer, f func(m map[string]any)) {
	d := json.NewDecoder(bytes.NewReader(a.body))
	d.UseNumber()
	var m map[string]any
	if d.Decode(&m) != nil {
		return
	}
	f(m)
	a.body, _ = json.Marshal(m)
}

// jsonLoc returns location i of a JSON result, nil when it has fewer.
func jsonLoc(m map[string]any, i int) map[string]any {
	arr, _ := m["locations"].([]any)
	if i >= len(arr) {
		return nil
	}
	l, _ := arr[i].(map[string]any)
	return l
}

func flip(v any) any {
	if n, ok := v.(json.Number); ok && n == "0" {
		return json.Number("1")
	}
	return json.Number("0")
}

type almost struct {
	name    string
	f       func(b Binding, a *answer)
	catches []string
	says    string
}

func almostRight() []almost {
	return []almost{
		{"JSON locations[0] with a city padded by a space (a CHAR column)", func(b Binding, a *answer) {
			if b == JSON && a.status == 200 {
				editJSON(a, func(m map[string]any) {
					if l := jsonLoc(m, 0); l != nil {
						ad := l["address"].(map[string]any)
						ad["city"] = ad["city"].(string) + " "
					}
				})
			}
		}, []string{"json/*/matches-xml"}, "city"},
		{"HTTP POST answers with values padded by a space", func(b Binding, a *answer) {
			if b == HTTPPost && a.status == 200 {
				a.body = bytes.ReplaceAll(a.body, []byte("</city>"), []byte(" </city>"))
			}
		}, []string{"equivalence/ReturnAllAtms"}, "text"},
		{"JSON locations[2] with a latitude off in its last digit", func(b Binding, a *answer) {
			if b == JSON && a.status == 200 {
				editJSON(a, func(m map[string]any) {
					if l := jsonLoc(m, 2); l != nil {
						c := l["coordinates"].(map[string]any)
						n := string(c["latitude"].(json.Number))
						last := n[len(n)-1]
						if last == '9' {
							last = '0'
						} else {
							last++
						}
						c["latitude"] = json.Number(n[:len(n)-1] + string(last))
					}
				})
			}
		}, []string{"json/*/matches-xml"}, "latitude"},
		{"JSON locations[0] with a city off by one letter", func(b Binding, a *answer) {
			if b == JSON && a.status == 200 {
				editJSON(a, func(m map[string]any) {
					if l := jsonLoc(m, 0); l != nil {
						ad := l["address"].(map[string]any)
						ad["city"] = ad["city"].(string) + "s"
					}
				})
			}
		}, []string{"json/*/matches-xml"}, "city"},
		{"JSON locations[0] with an empty institution url where XML has one", func(b Binding, a *answer) {
			if b == JSON && a.status == 200 {
				editJSON(a, func(m map[string]any) {
					if l := jsonLoc(m, 0); l != nil {
						l["institution"].(map[string]any)["url"] = ""
					}
				})
			}
		}, []string{"json/*/matches-xml"}, "url"},
		{"JSON locations[0] with its languages changed", func(b Binding, a *answer) {
			if b == JSON && a.status == 200 {
				editJSON(a, func(m map[string]any) {
					if l := jsonLoc(m, 0); l != nil {
						l["languages"] = []any{"xx"}
					}
				})
			}
		}, []string{"json/*/matches-xml"}, "languages"},
		{"JSON locations[1] with a flag flipped", func(b Binding, a *answer) {
			if b == JSON && a.status == 200 {
				editJSON(a, func(m map[string]any) {
					if l := jsonLoc(m, 1); l != nil {
						f := l["features"].(map[string]any)
						f["driveThru"] = flip(f["driveThru"])
					}
				})
			}
		}, []string{"json/*/matches-xml"}, "driveThru"},
		{"JSON locations[0] with a flag flipped", func(b Binding, a *answer) {
			if b == JSON && a.status == 200 {
				editJSON(a, func(m map[string]any) {
					if l := jsonLoc(m, 0); l != nil {
						f := l["creditCards"].(map[string]any)
						f["visa"] = flip(f["visa"])
					}
				})
			}
		}, []string{"json/*/matches-xml"}, "visa"},
		{"SOAP 1.1 faults with a qualified faultcode", func(b Binding, a *answer) {
			if b == SOAP11 && a.status == 500 {
				a.body = bytes.ReplaceAll(a.body, []byte("faultcode>"), []byte("soap:faultcode>"))
			}
		}, []string{"fault/soap11/*-key"}, "faultcode"},
		{"SOAP 1.2 faults with a Reason in no namespace", func(b Binding, a *answer) {
			if b == SOAP12 && a.status == 500 {
				a.body = bytes.ReplaceAll(a.body, []byte("soap:Reason>"), []byte("Reason>"))
			}
		}, []string{"fault/soap12/*-key"}, "Reason"},
		{"XML answers without the XML declaration ASMX writes", func(b Binding, a *answer) {
			if xmlAnswer(b, a) {
				a.body = declRE.ReplaceAll(a.body, nil)
			}
		}, []string{"binding/*/*"}, "XML declaration"},
		{"HTTP GET answers declaring utf-16 in UTF-8 bytes", func(b Binding, a *answer) {
			if b == HTTPGet && a.status == 200 {
				a.body = bytes.Replace(a.body, []byte(`encoding="utf-8"`), []byte(`encoding="utf-16"`), 1)
			}
		}, []string{"binding/get/*"}, "encoding"},
		{"HTTP GET answers with a DOCTYPE", func(b Binding, a *answer) {
			if b == HTTPGet && a.status == 200 {
				a.body = declRE.ReplaceAll(a.body, []byte("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!DOCTYPE x>\n"))
			}
		}, []string{"binding/get/*"}, "document type declaration"},
		{"SOAP 1.2 answers declared with an action parameter", func(b Binding, a *answer) {
			if b == SOAP12 && a.status == 200 {
				a.header.Set("Content-Type", ctSOAP12+`; action="`+mockNS+`/ReturnProvinces"`)
			}
		}, []string{"binding/soap12/*"}, "with action"},
		{"SOAP 1.1 answers declared without a charset", func(b Binding, a *answer) {
			if b == SOAP11 && a.status == 200 {
				a.header.Set("Content-Type", "text/xml")
			}
		}, []string{"binding/soap11/*"}, "content type"},
		{"SOAP 1.2 faults with a Reason/Text without xml:lang", func(b Binding, a *answer) {
			if b == SOAP12 && a.status == 500 {
				a.body = bytes.ReplaceAll(a.body, []byte(` xml:lang="en"`), nil)
			}
		}, []string{"fault/soap12/*-key", "fault/soap12/unknown-operation"}, "xml:lang"},
		{"JSON answers with a brace after the result object", func(b Binding, a *answer) {
			if b == JSON && a.status == 200 {
				a.body = append(bytes.TrimSpace(a.body), '}')
			}
		}, []string{"json/*/shape"}, "after the result object"},
		{"HTTP GET answers with a second Content-Type header a gateway added", func(b Binding, a *answer) {
			if b == HTTPGet && a.status == 200 {
				a.header.Add("Content-Type", "text/html")
			}
		}, []string{"binding/get/*"}, "Content-Type"},
		{"SOAP 1.1 answers with an empty Body before theirs", func(b Binding, a *answer) {
			if b == SOAP11 {
				a.body = bytes.Replace(a.body, []byte("<soap:Body>"), []byte("<soap:Body /><soap:Body>"), 1)
			}
		}, []string{"binding/soap11/*", "fault/soap11/*-key"}, "one "},
		{"SOAP 1.2 faults written as SOAP 1.1 faults", func(b Binding, a *answer) {
			if b == SOAP12 && a.status == 500 {
				a.header.Set("Content-Type", ctTextXML)
				a.body = []byte(soap11Fault("Client", "The service key is not valid."))
			}
		}, []string{"fault/soap12/*-key"}, "content type"},
		{"SOAP 1.2 faults in a SOAP 1.1 envelope", func(b Binding, a *answer) {
			if b == SOAP12 && a.status == 500 {
				a.body = []byte(soap11Fault("Client", "The service key is not valid."))
			}
		}, []string{"fault/soap12/*-key"}, "envelope"},
		{"HTTP GET answers with xsi:nil where the others write an empty element", func(b Binding, a *answer) {
			if b == HTTPGet && a.status == 200 {
				a.body = bytes.ReplaceAll(a.body, []byte("<landmark />"), []byte(`<landmark xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:nil="true" />`))
			}
		}, []string{"equivalence/ReturnAllAtms"}, "attributes"},
		{"SOAP 1.1 answers of the city search with <OpResult> left out (null) where the other bindings give locations", func(b Binding, a *answer) {
			if b == SOAP11 && a.status == 200 {
				a.body = cityResultRE.ReplaceAll(a.body, nil)
			}
		}, []string{"equivalence/ReturnAtmSearchByCity"}, "null"},
		{"HTTP POST answers with an element name's case changed", func(b Binding, a *answer) {
			if b == HTTPPost && a.status == 200 {
				a.body = bytes.ReplaceAll(a.body, []byte("city>"), []byte("City>"))
			}
		}, []string{"equivalence/ReturnAllAtms"}, "element"},
	}
}

var _ = Describe("an almost conformant server", Label("selftest"), func() {
	DescribeTable("fails, naming what is wrong",
		func(a almost) {
			mock, _, cities := referenceMock()
			outs := checkWith(rewriting(mock, a.f), Config{Key: mockKey, Namespace: mockNS, CityIDs: cities}, reference.facts, a.catches...)
			bad := failed(outs)
			for _, pat := range a.catches {
				for _, o := range outs {
					if ok, _ := path.Match(pat, o.Check.Name); ok {
						Expect(bad).To(HaveKey(o.Check.Name), "check %s passed", o.Check.Name)
						Expect(bad[o.Check.Name]).To(ContainSubstring(a.says))
					}
				}
			}
		},
		func() []TableEntry {
			var es []TableEntry
			for _, a := range almostRight() {
				es = append(es, Entry(a.name, a))
			}
			return es
		}(),
	)
})

var _ = Describe("an almost conformant server, in its requests", Label("selftest"), func() {
	It("fails a server that reads SOAP parameters by position, not by name", func() {
		mock, _, cities := referenceMock()
		byPosition := rewritingRequests(mock, func(b Binding, r *http.Request, body []byte) []byte {
			if b != SOAP11 && b != SOAP12 {
				return body
			}
			doc, err := parseXML(body)
			if err != nil {
				return body
			}
			for _, body := range doc.Root().ChildElements() {
				for _, call := range body.ChildElements() {
					params := operation(call.Tag).Params
					for i, p := range call.ChildElements() {
						if i < len(params) {
							p.Tag = params[i]
						}
					}
				}
			}
			out, _ := doc.WriteToBytes()
			return out
		})
		bad := failed(checkWith(byPosition, Config{Key: mockKey, Namespace: mockNS, CityIDs: cities}, reference.facts, "routing/*"))
		Expect(bad).To(HaveKeyWithValue("routing/parameters-in-any-order", ContainSubstring("reverse order")))
		Expect(bad).To(HaveKeyWithValue("routing/soap12-parameters-in-any-order", ContainSubstring("over soap12 with its parameters in reverse order")))
	})

	It("fails a server that reads HTTP GET and POST parameters by position, not by name", func() {
		mock, _, cities := referenceMock()
		// byPosition renames a query's or a form's parameters to the
		// operation's in the document's order, as a deployment reading
		// them by position would take them.
		byPosition := func(op, raw string) string {
			params := operation(op).Params
			pairs := strings.Split(raw, "&")
			for i, pair := range pairs {
				if _, v, ok := strings.Cut(pair, "="); ok && i < len(params) {
					pairs[i] = params[i] + "=" + v
				}
			}
			return strings.Join(pairs, "&")
		}
		h := rewritingRequests(mock, func(b Binding, r *http.Request, body []byte) []byte {
			op := path.Base(r.URL.Path)
			switch b {
			case HTTPGet:
				r.URL.RawQuery = byPosition(op, r.URL.RawQuery)
			case HTTPPost:
				return []byte(byPosition(op, string(body)))
			}
			return body
		})
		bad := failed(checkWith(h, Config{Key: mockKey, Namespace: mockNS, CityIDs: cities}, reference.facts, "routing/*"))
		Expect(bad).To(HaveKeyWithValue("routing/get-parameters-in-any-order", ContainSubstring("over get with its parameters in reverse order")))
		Expect(bad).To(HaveKeyWithValue("routing/post-parameters-in-any-order", ContainSubstring("over post with its parameters in reverse order")))
		Expect(bad).To(HaveLen(2), "the SOAP specs read SOAP parameters by name")
	})

	It("fails a service namespace off the document's form by a trailing slash", func() {
		mock, err := newSelfTestMock(mockserver.WithNamespace(mockNS + "/"))
		Expect(err).NotTo(HaveOccurred())
		_, _, cities := referenceMock()
		bad := failed(checkWith(mock, Config{Key: mockKey, CityIDs: cities}, reference.facts, "namespaces/*", "binding/soap11/*"))
		Expect(bad).To(HaveKeyWithValue("namespaces/service-namespace", ContainSubstring("a trailing slash")))
		Expect(bad).To(HaveLen(1), "the rest of the deployment is conformant")
	})
})

// rewritingWSDL serves h, its ?WSDL answer changed by f.
func rewritingWSDL(h http.Handler, f func([]byte) []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != servicePath || !strings.EqualFold(r.URL.RawQuery, "WSDL") {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		body := f(rec.Body.Bytes())
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	})
}

var _ = Describe("an almost conformant server, in its WSDL", Label("selftest"), func() {
	DescribeTable("fails wsdl/bindings, naming what is wrong",
		func(f func([]byte) []byte, says string) {
			mock, _, cities := referenceMock()
			changed := false
			h := rewritingWSDL(mock, func(b []byte) []byte {
				out := f(b)
				changed = changed || !bytes.Equal(out, b)
				return out
			})
			bad := failed(checkWith(h, Config{Key: mockKey, Namespace: mockNS, CityIDs: cities}, reference.facts, "wsdl/*"))
			Expect(changed).To(BeTrue(), "the rewrite changed the WSDL")
			Expect(bad).To(HaveKeyWithValue("wsdl/bindings", ContainSubstring(says)))
			Expect(bad).To(HaveLen(1))
		},
		Entry("a Soap12 binding written with SOAP 1.1's extension", func(b []byte) []byte {
			for _, el := range []string{"binding", "operation", "body"} {
				b = bytes.ReplaceAll(b, []byte("<soap12:"+el+" "), []byte("<soap:"+el+" "))
			}
			return b
		}, "AtmServiceSoap12"),
		Entry("SOAP bindings of rpc style", func(b []byte) []byte {
			return bytes.ReplaceAll(b, []byte(`style="document"`), []byte(`style="rpc"`))
		}, "style"),
		Entry("a SOAP binding of rpc style on the binding, none on its operations", func(b []byte) []byte {
			b = bytes.ReplaceAll(b, []byte(`<soap:binding `), []byte(`<soap:binding style="rpc" `))
			return bytes.ReplaceAll(b, []byte(` style="document"`), nil)
		}, "style"),
		Entry("SOAP bodies encoded", func(b []byte) []byte {
			return bytes.ReplaceAll(b, []byte(`use="literal"`), []byte(`use="encoded" encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"`))
		}, "use"),
		Entry("an HttpPost binding with the verb GET", func(b []byte) []byte {
			return bytes.ReplaceAll(b, []byte(`<http:binding verb="POST"`), []byte(`<http:binding verb="GET"`))
		}, "verb"),
	)
})

var _ = Describe("a conformant server written differently", Label("selftest"), func() {
	compact := regexp.MustCompile(`>\s+<`)
	DescribeTable("passes every spec, as ASMX behind a gateway may answer",
		func(f func(b Binding, a *answer)) {
			mock, _, cities := referenceMock()
			outs := checkWith(rewriting(mock, f), Config{Key: mockKey, Namespace: mockNS, CityIDs: cities}, reference.facts)
			Expect(failed(outs)).To(BeEmpty())
		},
		Entry("SOAP envelopes with another prefix", func(b Binding, a *answer) {
			if b == SOAP11 || b == SOAP12 {
				a.body = bytes.ReplaceAll(bytes.ReplaceAll(a.body, []byte("soap:"), []byte("env:")), []byte("xmlns:soap="), []byte("xmlns:env="))
			}
		}),
		Entry("content types written in other cases and quoting", func(b Binding, a *answer) {
			switch ct := a.header.Get("Content-Type"); ct {
			case ctTextXML:
				a.header.Set("Content-Type", "Text/XML;charset=UTF-8")
			case ctSOAP12:
				a.header.Set("Content-Type", `application/soap+xml; charset="utf-8"`)
			case ctTextPlain:
				a.header.Set("Content-Type", "text/plain;charset=utf-8")
			}
		}),
		Entry("XML declarations in single quotes, the encoding upper case, after a byte order mark", func(b Binding, a *answer) {
			if b != JSON && bytes.HasPrefix(a.body, []byte("<?xml")) {
				a.body = append([]byte("\ufeff<?xml version='1.0' encoding='UTF-8' standalone='yes'?>"), declRE.ReplaceAll(a.body, nil)...)
			}
		}),
		Entry("XML without indentation, and headers a gateway adds", func(b Binding, a *answer) {
			if b != JSON {
				a.body = compact.ReplaceAll(a.body, []byte("><"))
			}
			a.header.Set("Via", "1.1 gateway")
			a.header.Set("X-AspNet-Version", "4.0.30319")
			a.header.Set("Cache-Control", "private, max-age=0")
			a.header.Add("Set-Cookie", "ARRAffinity=abc; Path=/; HttpOnly")
		}),
	)
})

// gzipping serves h, its answers gzip-encoded and chunked whenever the
// request accepts gzip, as a gateway may; n counts them.
func gzipping(h http.Handler, n *atomic.Int32) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			h.ServeHTTP(w, r)
			return
		}
		n.Add(1)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.Header().Set("Content-Encoding", "gzip")
		w.WriteHeader(rec.Code)
		z := gzip.NewWriter(w)
		for b := rec.Body.Bytes(); len(b) > 0; {
			k := min(len(b), 512)
			_, _ = z.Write(b[:k])
			_ = z.Flush()
			w.(http.Flusher).Flush()
			b = b[k:]
		}
		_ = z.Close()
	})
}

var _ = Describe("a conformant server behind a gateway", Label("selftest"), func() {
	It("passes every spec below a path prefix, gzip-encoded and chunked", func() {
		mock, _, cities := referenceMock()
		var zipped atomic.Int32
		srv := httptest.NewServer(http.StripPrefix("/gw/atm", gzipping(mock, &zipped)))
		DeferCleanup(srv.Close)
		s, err := NewSession(Config{Target: srv.URL + "/gw/atm/", Key: mockKey, Namespace: mockNS, CityIDs: cities})
		Expect(err).NotTo(HaveOccurred())
		s.factsOnce.Do(func() { s.facts = reference.facts })
		outs := RunChecks(s, Checks())
		Expect(failed(outs)).To(BeEmpty())
		Expect(zipped.Load()).To(BeNumerically(">", 50), "the answers were gzip-encoded")
	})
})

var _ = Describe("a server strict about SOAPAction's quotes", Label("selftest"), func() {
	It("fails routing/soapaction-unquoted, naming it", func() {
		mock, _, cities := referenceMock()
		strict := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if a, ok := r.Header["Soapaction"]; ok && !strings.HasPrefix(a[0], `"`) {
				w.Header().Set("Content-Type", ctTextXML)
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write([]byte(soap11Fault("Client", "Server did not recognize the value of HTTP Header SOAPAction: "+a[0]+".")))
				return
			}
			mock.ServeHTTP(w, r)
		})
		bad := failed(checkWith(strict, Config{Key: mockKey, Namespace: mockNS, CityIDs: cities}, reference.facts, "soapaction/*", "routing/*", "binding/soap11/*"))
		Expect(bad).To(HaveKeyWithValue("routing/soapaction-unquoted", ContainSubstring("(unquoted): status")))
		Expect(bad).To(HaveLen(1))
	})
})

var _ = Describe("a server strict about the SOAP 1.2 content type", Label("selftest"), func() {
	It("fails routing/soap12-action-parameter, naming it", func() {
		mock, _, cities := referenceMock()
		strict := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if ct := r.Header.Get("Content-Type"); strings.HasPrefix(ct, "application/soap+xml") && ct != ctSOAP12 {
				w.WriteHeader(http.StatusUnsupportedMediaType)
				return
			}
			mock.ServeHTTP(w, r)
		})
		bad := failed(checkWith(strict, Config{Key: mockKey, Namespace: mockNS, CityIDs: cities}, reference.facts, "routing/*", "binding/soap12/*"))
		Expect(bad).To(HaveKeyWithValue("routing/soap12-action-parameter", ContainSubstring(`sent as application/soap+xml; charset=utf-8; action="`+mockNS+`/ReturnProvinces": status`)))
		// The specs of an action naming no operation send the parameter too.
		Expect(bad).To(HaveKeyWithValue("routing/soap12-unknown-action", ContainSubstring(`action="`+mockNS+`/ReturnNothing": status`)))
		Expect(bad).To(HaveKeyWithValue("routing/soap12-unknown-action-unknown-element", ContainSubstring("415")))
		Expect(bad).To(HaveLen(3))
	})
})

var _ = Describe("a server that routes SOAP 1.2 by the action parameter alone", Label("selftest"), func() {
	It("fails routing/soap12-unknown-action, naming it", func() {
		mock, _, cities := referenceMock()
		byAction := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if ct := r.Header.Get("Content-Type"); strings.HasPrefix(ct, "application/soap+xml") && strings.Contains(ct, `/ReturnNothing"`) {
				w.Header().Set("Content-Type", ctSOAP12)
				w.WriteHeader(http.StatusInternalServerError)
				_, _ = w.Write([]byte(soap12Fault("Sender", "Unable to handle request. The action was not recognized.")))
				return
			}
			mock.ServeHTTP(w, r)
		})
		bad := failed(checkWith(byAction, Config{Key: mockKey, Namespace: mockNS, CityIDs: cities}, reference.facts, "routing/*"))
		Expect(bad).To(HaveKeyWithValue("routing/soap12-unknown-action", ContainSubstring("got:      500")))
		Expect(bad).To(HaveLen(1))
	})
})

var _ = Describe("a server that reads a form only under its bare content type", Label("selftest"), func() {
	It("fails routing/post-charset-parameter, naming it", func() {
		mock, _, cities := referenceMock()
		strict := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if bindingOf(r) == HTTPPost && r.Header.Get("Content-Type") != ctForm {
				// The form is not read: every parameter is missing. The body
				// is drained first: net/http's server, closing a body the
				// handler left unread, starts its background read after it
				// stopped the last one, and panics ("invalid concurrent
				// Body.Read call") when it next reads the connection.
				_, _ = io.Copy(io.Discard, r.Body)
				r.Body, r.ContentLength = http.NoBody, 0
			}
			mock.ServeHTTP(w, r)
		})
		bad := failed(checkWith(strict, Config{Key: mockKey, Namespace: mockNS, CityIDs: cities}, reference.facts, "routing/*", "binding/post/*"))
		Expect(bad).To(HaveKeyWithValue("routing/post-charset-parameter", ContainSubstring("sent as "+ctForm+"; charset=utf-8: status")))
		Expect(bad).To(HaveLen(1))
	})
})

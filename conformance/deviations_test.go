package conformance

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"

	"github.com/beevik/etree"
)

// answer is an upstream response a deviation may rewrite.
type answer struct {
	status int
	header http.Header
	body   []byte
}

// deviation breaks the interface in one named way, by rewriting requests on
// their way to a conformant server or its answers on their way back.
type deviation struct {
	name string
	// catches are patterns (path.Match) of checks that must fail.
	catches []string
	// needsWSDL is true when the deviation rewrites the WSDL.
	needsWSDL bool
	// says is a phrase the first caught failure's message must contain.
	says string
	// request may rewrite the request and return its new body.
	request func(r *http.Request, b Binding, op string, body []byte) []byte
	// response may rewrite the answer.
	response func(b Binding, op string, a *answer)
}

const wsdlBinding Binding = "wsdl"

// classify returns the binding and operation of a request.
func classify(r *http.Request, body []byte) (Binding, string) {
	switch {
	case r.URL.Path == servicePath && r.Method == http.MethodGet:
		return wsdlBinding, ""
	case r.URL.Path == servicePath:
		b := SOAP11
		if mt, _, _ := mediaType(r.Header.Get("Content-Type")); mt == "application/soap+xml" {
			b = SOAP12
		}
		op := ""
		if doc, err := parseXML(body); err == nil {
			for _, bd := range doc.Root().ChildElements() {
				if bd.Tag == "Body" && len(bd.ChildElements()) > 0 {
					op = bd.ChildElements()[0].Tag
				}
			}
		}
		return b, op
	case strings.HasPrefix(r.URL.Path, servicePath+"/"):
		if r.Method == http.MethodPost {
			return HTTPPost, strings.TrimPrefix(r.URL.Path, servicePath+"/")
		}
		return HTTPGet, strings.TrimPrefix(r.URL.Path, servicePath+"/")
	case strings.HasPrefix(r.URL.Path, serviceV2Path+"/"):
		return JSON, strings.TrimPrefix(r.URL.Path, serviceV2Path+"/")
	}
	return "", ""
}

// deviate serves h with d applied.
func deviate(h http.Handler, d deviation) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		b, op := classify(r, body)
		if d.request != nil {
			body = d.request(r, b, op, body)
		}
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
		r.Header.Del("Content-Length")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		a := &answer{status: rec.Code, header: rec.Header().Clone(), body: rec.Body.Bytes()}
		if d.response != nil {
			d.response(b, op, a)
		}
		a.header.Del("Content-Length")
		for k, v := range a.header {
			w.Header()[k] = v
		}
		w.WriteHeader(a.status)
		_, _ = w.Write(a.body)
	})
}

// setParam sets a parameter of a request in any binding and returns the body.
func setParam(r *http.Request, b Binding, body []byte, name, value string) []byte {
	switch b {
	case SOAP11, SOAP12:
		re := regexp.MustCompile(`<` + name + `\s*/>|<` + name + `>[^<]*</` + name + `>`)
		var v bytes.Buffer
		_ = xmlEscape(&v, value)
		return re.ReplaceAll(body, []byte("<"+name+">"+v.String()+"</"+name+">"))
	case HTTPPost:
		q, _ := url.ParseQuery(string(body))
		if _, ok := q[name]; ok {
			q.Set(name, value)
		}
		return []byte(q.Encode())
	default:
		q := r.URL.Query()
		if _, ok := q[name]; ok {
			q.Set(name, value)
		}
		r.URL.RawQuery = q.Encode()
		return body
	}
}

func xmlEscape(w io.Writer, s string) error {
	e := etree.NewDocument()
	e.CreateElement("x").SetText(s)
	b, err := e.WriteToBytes()
	if err != nil {
		return err
	}
	_, err = w.Write(bytes.TrimSuffix(bytes.TrimPrefix(b, []byte("<x>")), []byte("</x>")))
	return err
}

func isSOAP(b Binding) bool { return b == SOAP11 || b == SOAP12 }

// rewriteXML parses an XML answer, lets f change it, and writes it back.
func rewriteXML(a *answer, f func(root *etree.Element)) {
	doc, err := parseXML(a.body)
	if err != nil {
		return
	}
	f(doc.Root())
	if b, err := doc.WriteToBytes(); err == nil {
		a.body = b
	}
}

// rewriteJSON decodes a JSON answer, lets f change it, and encodes it back.
func rewriteJSON(a *answer, f func(m map[string]any)) {
	m, err := decodeJSON(a.body)
	if err != nil || a.status != http.StatusOK {
		return
	}
	if _, ok := m["locations"].([]any); !ok {
		return
	}
	f(m)
	if b, err := json.Marshal(m); err == nil {
		a.body = b
	}
}

// locationGroup returns the largest group of repeated siblings under root.
func locationGroup(root *etree.Element) []*etree.Element {
	q, _ := largestGroup(root)
	return findAll(root, q)
}

// deviations returns the deviations, for a server with namespace ns and key key.
func deviations(ns, key string) []deviation {
	setCT := func(in Binding, ct string) func(Binding, string, *answer) {
		return func(b Binding, _ string, a *answer) {
			if b == in && a.status == 200 {
				a.header.Set("Content-Type", ct)
			}
		}
	}
	replace := func(in []Binding, re, repl string) func(Binding, string, *answer) {
		rx := regexp.MustCompile(re)
		return func(b Binding, _ string, a *answer) {
			for _, x := range in {
				if b == x {
					a.body = rx.ReplaceAll(a.body, []byte(repl))
				}
			}
		}
	}
	soap := []Binding{SOAP11, SOAP12}
	return []deviation{
		{name: "soap11-envelope-ns", catches: []string{"binding/soap11/*"}, says: "envelope",
			response: replace([]Binding{SOAP11}, regexp.QuoteMeta(soap11EnvNS), soap12EnvNS)},
		{name: "soap12-envelope-ns", catches: []string{"binding/soap12/*"}, says: "envelope",
			response: replace([]Binding{SOAP12}, regexp.QuoteMeta(soap12EnvNS), soap11EnvNS)},
		{name: "soap11-content-type", catches: []string{"binding/soap11/*"}, says: "content type",
			response: setCT(SOAP11, ctSOAP12)},
		{name: "soap12-content-type", catches: []string{"binding/soap12/*"}, says: "content type",
			response: setCT(SOAP12, ctTextXML)},
		{name: "get-content-type", catches: []string{"binding/get/*"}, says: "content type",
			response: setCT(HTTPGet, "application/xml")},
		{name: "post-content-type", catches: []string{"binding/post/*"}, says: "content type",
			response: setCT(HTTPPost, "text/xml; charset=iso-8859-1")},
		{name: "json-content-type", catches: []string{"json/*/shape"}, says: "content type",
			response: setCT(JSON, "application/json; charset=utf-8")},
		{name: "renamed-response", catches: []string{"binding/soap1?/*"}, says: "Body",
			response: replace(soap, `(Return\w+)Response\b`, "${1}Reply")},
		{name: "renamed-result", catches: []string{"binding/soap1?/*"}, says: "Response",
			response: replace(soap, `(Return\w+)Result\b`, "${1}Return")},
		{name: "wrong-service-namespace", catches: []string{"binding/soap1?/*"}, says: "Body",
			response: replace(soap, regexp.QuoteMeta(ns), "http://example.invalid/atmService")},
		{name: "get-with-envelope", catches: []string{"binding/get/*"}, says: "no SOAP envelope",
			response: func(b Binding, _ string, a *answer) {
				if b == HTTPGet && a.status == 200 {
					body := regexp.MustCompile(`^<\?xml[^>]*\?>`).ReplaceAll(bytes.TrimSpace(a.body), nil)
					a.body = []byte(`<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="` + soap11EnvNS + `"><soap:Body>` + string(body) + `</soap:Body></soap:Envelope>`)
				}
			}},
		{name: "json-count-off", catches: []string{"json/*/shape"}, says: "count",
			response: func(b Binding, _ string, a *answer) {
				if b == JSON {
					rewriteJSON(a, func(m map[string]any) {
						n, _ := m["count"].(json.Number).Int64()
						m["count"] = n + 1
					})
				}
			}},
		{name: "json-index-from-1", catches: []string{"json/*/shape"}, says: "index",
			response: func(b Binding, _ string, a *answer) {
				if b == JSON {
					rewriteJSON(a, func(m map[string]any) {
						for i, l := range m["locations"].([]any) {
							l.(map[string]any)["index"] = i + 1
						}
					})
				}
			}},
		{name: "json-value-differs", catches: []string{"json/*/matches-xml"}, says: "atmIdentifier",
			response: func(b Binding, _ string, a *answer) {
				if b == JSON {
					rewriteJSON(a, func(m map[string]any) {
						for _, l := range m["locations"].([]any) {
							l.(map[string]any)["atmIdentifier"] = l.(map[string]any)["atmIdentifier"].(string) + "-X"
						}
					})
				}
			}},
		{name: "post-drops-a-location", catches: []string{"equivalence/ReturnAtmSearchBy[CI]*"}, says: "child elements",
			response: func(b Binding, _ string, a *answer) {
				if b == HTTPPost && a.status == 200 {
					rewriteXML(a, func(root *etree.Element) {
						if g := locationGroup(root); len(g) > 1 {
							last := g[len(g)-1]
							last.Parent().RemoveChild(last)
						}
					})
				}
			}},
		{name: "soap12-reorders-locations", catches: []string{"equivalence/ReturnAtmSearchByCoordinates", "equivalence/ReturnAtmSearchByInstitution"}, says: "differ",
			response: func(b Binding, _ string, a *answer) {
				if b == SOAP12 && a.status == 200 {
					rewriteXML(a, func(root *etree.Element) {
						if g := locationGroup(root); len(g) > 1 {
							p := g[0].Parent()
							for _, e := range g {
								p.RemoveChild(e)
							}
							for i := len(g) - 1; i >= 0; i-- {
								p.AddChild(g[i])
							}
						}
					})
				}
			}},
		{name: "faults-with-status-200", catches: []string{"fault/soap11/*", "soapaction/*"}, says: "status",
			response: func(b Binding, _ string, a *answer) {
				if isSOAP(b) && a.status == 500 {
					a.status = 200
				}
			}},
		{name: "soapaction-ignored", catches: []string{"soapaction/*"}, says: "status",
			request: func(r *http.Request, b Binding, op string, body []byte) []byte {
				if b == SOAP11 {
					r.Header.Set("SOAPAction", `"`+ns+"/"+op+`"`)
				}
				return body
			}},
		{name: "wsdl-parameters-out-of-order", needsWSDL: true, catches: []string{"wsdl/parameters/ReturnAtmSearchByAddress"}, says: "input sequence",
			response: func(b Binding, _ string, a *answer) {
				if b == wsdlBinding {
					rewriteXML(a, func(root *etree.Element) {
						if el := schemaElement(root, ns, opByAddress); el != nil {
							seq := sequenceOf(root, el, ns)
							if len(seq) > 2 {
								p := seq[1].Parent()
								p.RemoveChild(seq[1])
								p.InsertChildAt(seq[2].Index()+1, seq[1])
							}
						}
					})
				}
			}},
		{name: "radius-ignored", catches: []string{"semantics/radius"}, says: "distance",
			request: func(r *http.Request, b Binding, op string, body []byte) []byte {
				if op == opByCoords {
					return setParam(r, b, body, pRadius, "255")
				}
				return body
			}},
		{name: "maximum-ignored", catches: []string{"semantics/maximum"}, says: "number of locations",
			request: func(r *http.Request, b Binding, op string, body []byte) []byte {
				if op == opWithMaximum {
					return setParam(r, b, body, pMaximum, "200")
				}
				return body
			}},
		{name: "institution-ignored", catches: []string{"semantics/institution"}, says: "institution",
			request: func(r *http.Request, b Binding, op string, body []byte) []byte {
				if op == opByInst && b == HTTPGet {
					r.URL.Path = servicePath + "/" + opAllAtms
					r.URL.RawQuery = url.Values{pKey: {r.URL.Query().Get(pKey)}}.Encode()
				}
				return body
			}},
		{name: "any-key-accepted", catches: []string{"fault/*/wrong-key", "fault/*/empty-key"}, says: "status",
			request: func(r *http.Request, b Binding, op string, body []byte) []byte {
				return setParam(r, b, body, pKey, key)
			}},
	}
}

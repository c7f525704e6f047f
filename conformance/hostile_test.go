package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"time"

	"github.com/beevik/etree"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The specs of this file check what the suite does with answers no
// deployment should give (see also cmd/atmkit/conform_hostile_test.go,
// which runs the command against such targets, and fuzz_test.go).

var _ = Describe("a hostile target", Label("selftest"), func() {
	It("is never followed through a redirect, whatever the caller's client does", func() {
		var elsewhere atomic.Int32
		other := serve(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { elsewhere.Add(1) }))
		target := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other+r.URL.RequestURI(), http.StatusTemporaryRedirect)
		}))
		client := &http.Client{} // follows redirects
		s, err := NewSession(Config{Target: target, Key: leakKey, Client: client})
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Preflight()
		var pe *PreflightError
		Expect(errors.As(err, &pe)).To(BeTrue(), "%v", err)
		Expect(pe.Cause).To(Equal(CauseRedirect))
		Expect(pe.Message).To(ContainSubstring("answered every call with a redirect (get 307, post 307, json 307), the first to %q", other+"/service/service.asmx/ReturnProvinces?strAtmServiceKey=Le****"))
		expectNoKey(pe.Message, leakKey)
		x, err := s.Do(Request{Binding: SOAP11, Op: opProvinces, Namespace: mockNS})
		Expect(err).NotTo(HaveOccurred())
		Expect(x.Status).To(Equal(http.StatusTemporaryRedirect))
		Expect(answered(x)).To(HavePrefix("307, a redirect to %q (not followed)", other+"/service/service.asmx"))
		Expect(elsewhere.Load()).To(BeZero(), "the other host got calls, the key with them")
		Expect(client.CheckRedirect).To(BeNil(), "the caller's client was changed")
	})

	It("quotes a bounded part of where a redirect points", func() {
		target := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", "http://elsewhere.example/"+strings.Repeat("a", 1<<20))
			w.WriteHeader(http.StatusTemporaryRedirect)
		}))
		_, _, err := preflightOf(target, leakKey, 0)
		var pe *PreflightError
		Expect(errors.As(err, &pe)).To(BeTrue(), "%v", err)
		Expect(pe.Cause).To(Equal(CauseRedirect))
		Expect(pe.Message).To(ContainSubstring(`the first to "http://elsewhere.example/aaa`))
		Expect(len(pe.Message)).To(BeNumerically("<", 2000))
	})

	It("quotes a bounded part of an answer the HTTP client could not read", func() {
		target, _ := listener(func(c net.Conn) {
			defer c.Close()
			_, _ = c.Read(make([]byte, 4096))
			_, _ = c.Write([]byte("HTTP/1.1 2" + strings.Repeat("x", 1<<20) + "\r\n\r\n"))
		})
		_, _, err := preflightOf(target, leakKey, 0)
		var pe *PreflightError
		Expect(errors.As(err, &pe)).To(BeTrue(), "%v", err)
		Expect(pe.Message).To(ContainSubstring("malformed HTTP"))
		Expect(len(pe.Message)).To(BeNumerically("<", 2000))
		Expect(len(pe.Err.Error())).To(BeNumerically("<", 2000))
	})

	It("quotes a bounded part of the content type of a WSDL it does not serve", func() {
		target := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; x="+strings.Repeat("a", 100<<10))
			w.WriteHeader(http.StatusNotFound)
		}))
		s, err := NewSession(Config{Target: target, Key: leakKey})
		Expect(err).NotTo(HaveOccurred())
		_, _, err = s.wsdlOrSkip()
		Expect(IsSkip(err)).To(BeTrue(), "%v", err)
		Expect(err.Error()).To(ContainSubstring("serves no WSDL"))
		Expect(len(err.Error())).To(BeNumerically("<", 1000))
	})

	It("costs one timeout per request that gets no answer, not one per spec", func() {
		target, conns := silentTarget()
		s, err := NewSession(Config{Target: target, Key: leakKey, Timeout: 100 * time.Millisecond})
		Expect(err).NotTo(HaveOccurred())
		r := Request{Binding: HTTPGet, Op: opAllAtms}
		_, err1 := s.Do(r)
		_, err2 := s.Do(r)
		var te *TransportError
		Expect(errors.As(err1, &te)).To(BeTrue(), "%v", err1)
		Expect(te.Kind).To(Equal(TransportTimeout))
		Expect(err2).To(BeIdenticalTo(err1))
		Expect(conns.Load()).To(Equal(int32(1)))
	})

	It("is read no further than a tag limit, and not past its root element", func() {
		_, err := parseXML(bytes.Repeat([]byte("<a/>"), maxTags+1))
		Expect(err).To(MatchError(fmt.Sprintf("parsing XML: more than %d tags, more than atmkit parses of one answer", maxTags)))
		for body, want := range map[string]string{
			"<a>x</a><b/>":                   "parsing XML: a second root element <b> after <a>",
			"<a>x</a>garbage":                `parsing XML: text outside the root element: "garbage"`,
			"junk<a>x</a>":                   `parsing XML: text outside the root element: "junk"`,
			"<a>&lol;</a>":                   "parsing XML: XML syntax error on line 1: invalid character entity &lol;",
			"<a>\x1b[31m</a>":                `parsing XML: XML syntax error on line 1: illegal character code U+001B`,
			strings.Repeat("<a>", 2000):      "parsing XML: etree: XML tree exceeds maximum depth",
			"<a>\xff</a>":                    "parsing XML: XML syntax error on line 1: invalid UTF-8",
			"<!DOCTYPE a [<!ENTITY e 'x'>]>": "parsing XML: no root element",
		} {
			_, err := parseXML([]byte(body))
			Expect(err).To(MatchError(want), "%q", body)
		}
		// A byte order mark, and comments and spaces after the root, are XML.
		for _, body := range []string{"\ufeff<a/>", "<a/>\n<!-- c -->\n"} {
			_, err := parseXML([]byte(body))
			Expect(err).NotTo(HaveOccurred(), "%q", body)
		}
	})

	It("gets a bounded search for its location nodes", func() {
		var jl []map[string]any
		Expect(json.Unmarshal([]byte(`[{"id":1,"institution":{"id":2},"address":{"city":"c","province":"p"},"coordinates":{"latitude":1,"longitude":2}}]`), &jl)).To(Succeed())
		// More element names than any location result has.
		var b strings.Builder
		b.WriteString("<r>")
		for i := range maxNodeNames + 10 {
			fmt.Fprintf(&b, "<n%d><v>%d</v></n%d>", i, i, i)
		}
		b.WriteString("</r>")
		doc, err := parseXML([]byte(b.String()))
		Expect(err).NotTo(HaveOccurred())
		_, err = locationNode(doc.Root(), jl)
		Expect(err).To(MatchError(fmt.Sprintf("no such element among the first %d element names (of %d: no location result has so many)", maxNodeNames, maxNodeNames+11)))
		// A node with more values than any location has.
		b.Reset()
		b.WriteString("<loc>")
		for i := range maxNodeLeaves + 1 {
			fmt.Fprintf(&b, "<v>%d</v>", i)
		}
		b.WriteString("</loc>")
		doc, err = parseXML([]byte(b.String()))
		Expect(err).NotTo(HaveOccurred())
		_, _, err = learnFields(jl, findAll(doc.Root(), qname{"", "loc"}), nil)
		Expect(err).To(MatchError(ContainSubstring(fmt.Sprintf("expected: at most %d values in a location node\n  got:      %d values in node 1", maxNodeLeaves, maxNodeLeaves+1))))
	})

	// A failure quotes the start of an answer, cut at a few hundred bytes:
	// cut before the key was masked, a key the answer repeats across the
	// cut kept its part before it, which no mask matched.
	DescribeTable("leaves no part of a key its answer repeats where the quote of it is cut",
		func(pad int, errorOf func(target string) error) {
			target := serve(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.WriteHeader(http.StatusServiceUnavailable)
				fmt.Fprintf(w, "<html><head><title>%s %s is not a key of ours</title></head></html>", strings.Repeat("y", pad), leakKey)
			}))
			err := errorOf(target)
			Expect(err).To(HaveOccurred())
			text := maskKey(err.Error(), leakKey) // as every text the suite writes is
			Expect(text).To(ContainSubstring("… ("), "the quote is cut")
			Expect(text).NotTo(ContainSubstring(leakKey[:5]), "part of the key is in:\n%s", text)
		},
		Entry("the body a failed call got", 290-len("<html><head><title>"), func(target string) error {
			s, err := NewSession(Config{Target: target, Key: leakKey})
			Expect(err).NotTo(HaveOccurred())
			x, err := s.Do(Request{Binding: HTTPGet, Op: opProvinces})
			Expect(err).NotTo(HaveOccurred())
			_, err = resultOf(x, "")
			return err
		}),
		Entry("the page title the preflight quotes", 190, func(target string) error {
			_, _, err := preflightOf(target, leakKey, 0)
			return err
		}),
	)

	It("leaves no part of a key it repeats after its root element where the parser's quote of that text is cut", func() {
		target := serve(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", ctTextXML)
			fmt.Fprintf(w, "<a>x</a>%s %s is not a key of ours", strings.Repeat("y", 50), leakKey)
		}))
		s, err := NewSession(Config{Target: target, Key: leakKey})
		Expect(err).NotTo(HaveOccurred())
		x, err := s.Do(Request{Binding: HTTPGet, Op: opProvinces})
		Expect(err).NotTo(HaveOccurred())
		_, err = resultOf(x, "")
		Expect(err).To(MatchError(ContainSubstring("text outside the root element")))
		text := maskKey(err.Error(), leakKey)
		Expect(text).NotTo(ContainSubstring(leakKey[:5]), "part of the key is in:\n%s", text)
	})

	It("gets notes of a bounded length on a result of many fields", func() {
		target := serve(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", ctTextXML)
			fmt.Fprint(w, `<?xml version="1.0" encoding="utf-8"?><r>`)
			for i := range 20000 {
				fmt.Fprintf(w, `<f%d xmlns="urn:ns:%d">1</f%d>`, i, i, i)
			}
			fmt.Fprint(w, `</r>`)
		}))
		var c Check
		for _, k := range Checks() {
			if k.Name == "binding/get/ReturnProvinces" {
				c = k
			}
		}
		s, err := NewSession(Config{Target: target, Key: leakKey, Namespace: mockNS})
		Expect(err).NotTo(HaveOccurred())
		outs := RunChecks(s, []Check{c})
		Expect(outs[0].Err).NotTo(HaveOccurred())
		Expect(outs[0].Notes).To(HaveLen(1))
		Expect(outs[0].Notes[0]).To(ContainSubstring("the fields f0, f1"))
		Expect(len(outs[0].Notes[0])).To(BeNumerically("<", 2000), "a note naming every field")
	})

	It("tries a bounded number of the namespaces its help page names", func() {
		var soapCalls atomic.Int32
		target := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.Method == http.MethodPost && r.URL.Path == servicePath:
				soapCalls.Add(1)
				http.Error(w, "no", http.StatusInternalServerError)
			case r.URL.Path == servicePath && r.URL.RawQuery != "WSDL":
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				for i := range 5000 {
					fmt.Fprintf(w, "&lt;a xmlns=\"urn:ns:%d\"/&gt;\n", i)
				}
			default:
				http.NotFound(w, r)
			}
		}))
		s, err := NewSession(Config{Target: target, Key: leakKey})
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Namespace()
		Expect(err).To(MatchError(ContainSubstring("give it with --namespace")))
		Expect(soapCalls.Load()).To(BeNumerically("<=", maxNamespaceCandidates), "a call per namespace the page names")
	})

	It("tries a bounded number of the coordinates its locations may hold", func() {
		var jsonCalls atomic.Int32
		target := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch r.URL.Path {
			case servicePath + "/" + opAllAtms:
				// Two locations of 100 decimal values each: 9,900 ordered
				// pairs each that could be a latitude and a longitude.
				w.Header().Set("Content-Type", ctTextXML)
				_, _ = w.Write([]byte("<r>"))
				for range 2 {
					_, _ = w.Write([]byte("<loc>"))
					for i := range 100 {
						fmt.Fprintf(w, "<v%d>%d.5</v%d>", i, i-50, i)
					}
					_, _ = w.Write([]byte("</loc>"))
				}
				_, _ = w.Write([]byte("</r>"))
			case serviceV2Path + "/" + opByCoords:
				jsonCalls.Add(1)
				w.Header().Set("Content-Type", ctTextXML)
				_, _ = w.Write([]byte(`{"count":0,"coordinates":{"latitude":0,"longitude":0},"locations":[]}`))
			default:
				http.NotFound(w, r)
			}
		}))
		s, err := NewSession(Config{Target: target, Key: leakKey})
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Facts()
		Expect(err).To(MatchError(ContainSubstring("no ATM of ReturnAllAtms found by the JSON binding at its own coordinates")))
		Expect(jsonCalls.Load()).To(BeNumerically("<=", 2*maxCoordinateValues*(maxCoordinateValues-1)), "a call per pair of values")
	})

	// The search for the institution's entry read the values under every
	// element of the chain holding it: a list nested a few hundred levels
	// deep cost its size that many times over.
	It("finds the institution of a location in a deeply nested list at the cost of its size", func() {
		mock, _, _ := referenceMock()
		list := httptest.NewRecorder()
		mock.ServeHTTP(list, httptest.NewRequest(http.MethodGet, servicePath+"/"+opInsts+"?strAtmServiceKey="+mockKey, nil))
		Expect(list.Code).To(Equal(http.StatusOK))
		// The mock's list, its entries 300 levels down, beside 2,000 values.
		doc := etree.NewDocument()
		Expect(doc.ReadFromBytes(list.Body.Bytes())).To(Succeed())
		at := doc.Root()
		entries := at.ChildElements()
		for _, e := range entries {
			at.RemoveChild(e)
		}
		for range 300 {
			at = at.CreateElement("l")
		}
		for _, e := range entries {
			at.AddChild(e)
		}
		for range 2000 {
			at.CreateElement("v").SetText("x")
		}
		body, err := doc.WriteToBytes()
		Expect(err).NotTo(HaveOccurred())
		target := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == servicePath+"/"+opInsts {
				w.Header().Set("Content-Type", ctTextXML)
				_, _ = w.Write(body)
				return
			}
			mock.ServeHTTP(w, r)
		}))
		s, err := NewSession(Config{Target: target, Key: mockKey})
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Facts()
		Expect(err).NotTo(HaveOccurred())
		_, err = s.result(HTTPGet, opInsts) // read and parsed: what follows is the search's own cost
		Expect(err).NotTo(HaveOccurred())
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		err = checkInstitutionList(s, func(string, ...any) {})
		runtime.ReadMemStats(&after)
		Expect(err).NotTo(HaveOccurred())
		// 333 MB when each level read the values under it; 100 KB since
		// (20 MB under -race, whose sync.Pool keeps few of regexp's
		// machines).
		Expect(after.TotalAlloc-before.TotalAlloc).To(BeNumerically("<", 64<<20), "bytes allocated by the search of a %d-byte list", len(body))
	})

	// The XML parser's errors quote the answer (an entity's name, whole),
	// and a declaration's encoding was compared with the content type
	// quoted whole in what was expected.
	It("quotes a bounded part of a parser's error, and of a content type, their keys masked", func() {
		_, err := parseXML([]byte("<a>&"+strings.Repeat("b", 1<<20)+";</a>"), leakKey)
		Expect(err).To(MatchError(HavePrefix("parsing XML: XML syntax error on line 1: invalid character entity &bbb")))
		Expect(len(err.Error())).To(BeNumerically("<", 1000))
		_, err = parseXML([]byte("<a>&"+leakKey+";</a>"), leakKey)
		Expect(err).To(MatchError("parsing XML: XML syntax error on line 1: invalid character entity &Le****;"))

		target := serve(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/xml;"+strings.Repeat(" ", 1<<20)+"charset=utf-8")
			fmt.Fprint(w, `<?xml version="1.0" encoding="utf-16"?><a/>`)
		}))
		s, err := NewSession(Config{Target: target, Key: leakKey})
		Expect(err).NotTo(HaveOccurred())
		x, err := s.Do(Request{Binding: HTTPGet, Op: opProvinces})
		Expect(err).NotTo(HaveOccurred())
		err = checkDeclaration(x, "ReturnProvinces over get")
		Expect(err).To(MatchError(ContainSubstring(`expected: "utf-8", the charset of the content type "text/xml;`)))
		Expect(len(err.Error())).To(BeNumerically("<", 2000))

		// The charset itself, read in lower case: whole, of any length,
		// and a key in it not masked (the masks are of the key as given).
		for _, charset := range []string{leakKey, strings.Repeat("a", 1<<20)} {
			target = serve(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/xml; charset="+charset)
				fmt.Fprint(w, `<?xml version="1.0" encoding="utf-16"?><a/>`)
			}))
			s, err = NewSession(Config{Target: target, Key: leakKey})
			Expect(err).NotTo(HaveOccurred())
			x, err = s.Do(Request{Binding: HTTPGet, Op: opProvinces})
			Expect(err).NotTo(HaveOccurred())
			err = checkDeclaration(x, "ReturnProvinces over get")
			Expect(err).To(MatchError(ContainSubstring("XML declaration's encoding")))
			Expect(len(err.Error())).To(BeNumerically("<", 2000), "%.3000s", err)
			Expect(strings.ToLower(err.Error())).NotTo(ContainSubstring(strings.ToLower(leakKey)))
		}
	})

	// A key or a header value holding a control character or a byte that
	// is not UTF-8, repeated by the target: made printable before it was
	// masked, its escaped form ("\xff") was a text no mask matched, and it
	// went whole into the failure (and so into the reports).
	DescribeTable("masks a key or header value with bytes to escape before it escapes them",
		func(key, secret, tail string, answer func(w http.ResponseWriter)) {
			target := serve(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { answer(w) }))
			s, err := NewSession(Config{Target: target, Key: key, Secrets: []string{secret}})
			Expect(err).NotTo(HaveOccurred())
			x, err := s.Do(Request{Binding: HTTPGet, Op: opProvinces})
			Expect(err).NotTo(HaveOccurred())
			_, err = resultOf(x, "")
			Expect(err).To(HaveOccurred())
			Expect(err.Error()).To(ContainSubstring("Le****"))
			Expect(err.Error()).NotTo(ContainSubstring(tail), "the value is in:\n%s", err)
		},
		Entry("a key in the body of an error", "Leak-\xff-Key-1234", "", "Key-1234", func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, "key Leak-\xff-Key-1234 refused")
		}),
		Entry("a key in the content type", "Leak-\xff-Key-1234", "", "Key-1234", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/plain; k=Leak-\xff-Key-1234")
			fmt.Fprint(w, "<a/>")
		}),
		Entry("a header value in the body of an error", leakKey, "Leak\x01Secret-5678", "Secret-5678", func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, "header Leak\x01Secret-5678 refused")
		}),
	)

	It("masks a key with bytes to escape before it escapes them in the preflight's paragraph", func() {
		target := serve(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, "<html><head><title>key Leak-\xff-Key-1234 refused</title></head></html>")
		}))
		_, _, err := preflightOf(target, "Leak-\xff-Key-1234", 0)
		var pe *PreflightError
		Expect(errors.As(err, &pe)).To(BeTrue(), "%v", err)
		Expect(pe.Message).To(ContainSubstring(`"key Le**** refused"`))
		Expect(pe.Message).NotTo(ContainSubstring("Key-1234"))
	})

	It("has what it sent quoted printably in failures", func() {
		target := serve(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/xml; charset=utf-8")
			_, _ = w.Write([]byte("\x1b]0;owned\x07<a>\xff</a>"))
		}))
		s, err := NewSession(Config{Target: target, Key: leakKey})
		Expect(err).NotTo(HaveOccurred())
		x, err := s.Do(Request{Binding: HTTPGet, Op: opProvinces})
		Expect(err).NotTo(HaveOccurred())
		_, err = resultOf(x, "")
		Expect(err).To(MatchError(ContainSubstring(`got:      parsing XML: XML syntax error on line 1: illegal character code U+001B in \x1b]0;owned\a<a>\xff</a>`)))
	})
})

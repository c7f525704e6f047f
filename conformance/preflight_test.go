package conformance

import (
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/mockserver"
	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"
)

// protocolsRemoved answers HTTP GET and POST calls of /service/service.asmx
// as ASMX does when web.config removes the HttpGet and HttpPost protocols:
// HTTP 500 with ASP.NET's error page.
func protocolsRemoved(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := strings.CutPrefix(r.URL.Path, servicePath+"/"); ok && rest != "" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprintf(w, "<html><head><title>Request format is unrecognized for URL unexpectedly ending in '/%s'.</title></head><body><h1>Server Error in '/' Application.</h1></body></html>", rest)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// echoKeyFault answers every call with HTTP 500 and a SOAP fault that
// quotes the key the call sent, as a service whose key check names the
// key it refuses does, after pad.
func echoKeyFault(pad string) http.Handler {
	keyRE := regexp.MustCompile(`<strAtmServiceKey>([^<]*)<`)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		key := r.URL.Query().Get("strAtmServiceKey")
		if m := keyRE.FindSubmatch(body); m != nil {
			key = html.UnescapeString(string(m[1]))
		} else if v, err := url.ParseQuery(string(body)); err == nil && v.Has("strAtmServiceKey") {
			key = v.Get("strAtmServiceKey")
		}
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprintf(w, `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Server</faultcode><faultstring>%sThe key %s is not valid.</faultstring></soap:Fault></soap:Body></soap:Envelope>`, pad, html.EscapeString(key))
	})
}

func serve(h http.Handler) string {
	srv := httptest.NewServer(h)
	DeferCleanup(srv.Close)
	return srv.URL
}

func preflightOf(target, key string, timeout time.Duration) (*Preflight, *Session, error) {
	GinkgoHelper()
	s, err := NewSession(Config{Target: target, Key: key, Timeout: timeout})
	Expect(err).NotTo(HaveOccurred())
	p, err := s.Preflight()
	return p, s, err
}

var _ = Describe("the preflight", Label("selftest"), func() {
	It("passes the mock and finds every binding", func() {
		mock, _, _ := referenceMock()
		p, _, err := preflightOf(serve(mock), mockKey, 0)
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Disabled).To(BeEmpty())
		for _, b := range []Binding{SOAP11, SOAP12, HTTPGet, HTTPPost, JSON} {
			Expect(p.Status).To(HaveKeyWithValue(b, http.StatusOK))
		}
		Expect(p.DisabledFailure()).To(BeEmpty())
	})

	DescribeTable("stops a target that cannot be checked with one paragraph naming the cause, without the key",
		func(target func() string, key string, cause PreflightCause, says ...string) {
			_, _, err := preflightOf(target(), key, 2*time.Second)
			var pe *PreflightError
			Expect(errors.As(err, &pe)).To(BeTrue(), "%v", err)
			Expect(pe.Cause).To(Equal(cause))
			Expect(pe.Message).NotTo(ContainSubstring("\n"), "one paragraph")
			for _, s := range says {
				Expect(pe.Message).To(ContainSubstring(s))
			}
			expectNoKey(pe.Message, key)
		},
		Entry("a closed port", closedPort, leakKey, CauseRefused, "connection refused at http://127.0.0.1:", "Is the service running"),
		Entry("a target that drops every call", closingTarget, leakKey, CauseClosed, "closed the connection without an answer to ReturnProvinces over get"),
		Entry("the wrong path", func() string { mock, _, _ := referenceMock(); return serve(mock) + "/app" }, mockKey, CauseNotFound, "404 Not Found at the service path", "/app/service/service.asmx", "Is --target the service's base address"),
		Entry("a refused key", func() string { mock, _, _ := referenceMock(); return serve(mock) }, leakKey, CauseKeyRefused, "the key was refused", "The service key (strAtmServiceKey) is not valid.", "Check --key"),
		// ASP.NET 4 refuses the key's "<K" over GET, POST and JSON before the
		// service sees it (request validation): a deployment without it.
		Entry("a refused key with characters to escape", func() string {
			mock, err := newSelfTestMock(mockserver.WithRequestValidation(asmx.ValidationOff))
			Expect(err).NotTo(HaveOccurred())
			return serve(mock)
		}, oddKey, CauseKeyRefused, "the key was refused"),
		// A deployment whose fault quotes the key it refuses: the made-up
		// key's answer is the same text with the other key in it.
		Entry("a refused key the fault quotes", func() string {
			return serve(echoKeyFault(""))
		}, leakKey, CauseKeyRefused, "the key was refused", `"The key Le**** is not valid."`),
		// The same where the quote of the fault is cut: the made-up key was
		// masked after the cut, the given one before it, so the two quotes
		// differed.
		Entry("a refused key the fault quotes where its quote is cut", func() string {
			return serve(echoKeyFault(strings.Repeat("y", 180) + " "))
		}, leakKey, CauseKeyRefused, "the key was refused", `The key Le**** is n… (209 bytes in all)`),
		Entry("TLS with an unknown authority", func() string {
			srv := httptest.NewTLSServer(http.NotFoundHandler())
			DeferCleanup(srv.Close)
			return srv.URL
		}, leakKey, CauseTLS, "TLS failure with https://127.0.0.1:", "an authority not trusted here", "--ca-cert FILE"),
		Entry("an error status for everything", func() string {
			return serve(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				http.Error(w, "maintenance", http.StatusServiceUnavailable)
			}))
		}, leakKey, CauseUnusable, "answered HTTP 503 to every call", `"maintenance"`),
		// A sign-in page or a gateway's page answered 200 to every call: it
		// ran every spec and exited 1, "does not conform".
		Entry("an HTML page with 200 for everything", func() string {
			return serve(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				_, _ = w.Write([]byte("<html><head><title>Sign in to your account</title></head><body>Sign in</body></html>"))
			}))
		}, leakKey, CauseUnusable, "answered every call with 200 and an HTML page", `"Sign in to your account"`, "--header"),
	)

	It("gives up on a silent target after its first request's timeout", func() {
		target, conns := silentTarget()
		_, _, err := preflightOf(target, leakKey, 100*time.Millisecond)
		var pe *PreflightError
		Expect(errors.As(err, &pe)).To(BeTrue(), "%v", err)
		Expect(pe.Cause).To(Equal(CauseTimeout))
		Expect(pe.Message).To(ContainSubstring("no answer from " + target + "/service/service.asmx within 100ms (--timeout)"))
		Expect(pe.Message).To(ContainSubstring("raise --timeout"))
		// One request, one timeout: not one per discovery call.
		Expect(conns.Load()).To(Equal(int32(1)))
	})

	// Without a WSDL, the namespace is found by SOAP calls: one that gets
	// no answer is the target's silence, not a namespace it does not answer
	// in ("no service namespace … give it with --namespace").
	It("gives up on a target whose SOAP calls get no answer, with the cause, when it serves no WSDL", func() {
		mock, _, _ := referenceMock()
		target := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case strings.EqualFold(r.URL.RawQuery, "wsdl"):
				http.NotFound(w, r)
			case r.Method == http.MethodPost && r.URL.Path == servicePath:
				_, _ = io.Copy(io.Discard, r.Body) // then the server sees the client go
				<-r.Context().Done()               // SOAP never answers
			default:
				mock.ServeHTTP(w, r)
			}
		}))
		_, _, err := preflightOf(target, mockKey, 200*time.Millisecond)
		var pe *PreflightError
		Expect(errors.As(err, &pe)).To(BeTrue(), "%v", err)
		Expect(pe.Cause).To(Equal(CauseTimeout))
		Expect(pe.Message).To(ContainSubstring("ReturnProvinces over soap11 got no answer"))
	})

	It("finds HTTP GET and POST disabled, tells how to enable them, and discovers over SOAP instead", func() {
		mock, _, _ := referenceMock()
		p, s, err := preflightOf(serve(protocolsRemoved(mock)), mockKey, 0)
		Expect(err).NotTo(HaveOccurred())
		Expect(p.Disabled).To(Equal([]Binding{HTTPGet, HTTPPost}))
		msg := p.DisabledFailure()
		for _, want := range []string{
			"HTTP GET and HTTP POST are disabled",
			`answered 500 "Request format is unrecognized for URL unexpectedly ending in '/ReturnProvinces'."`,
			`<webServices><protocols><add name="HttpGet"/><add name="HttpPost"/></protocols></webServices>`,
			"--label-filter '!get && !post'",
		} {
			Expect(msg).To(ContainSubstring(want))
		}
		Expect(s.discoveryBinding()).To(Equal(SOAP11))

		// The specs that need neither binding pass without them.
		var rest []Check
		for _, c := range Checks() {
			if !p.disables(c.Labels) {
				rest = append(rest, c)
			}
		}
		Expect(rest).NotTo(BeEmpty())
		Expect(failed(RunChecks(s, rest))).To(BeEmpty())
	})
})

var _ = Describe("the reports", Label("selftest"), func() {
	It("group failures by cause: one text for every request that met it", func() {
		s, err := NewSession(Config{Target: closedPort(), Key: leakKey})
		Expect(err).NotTo(HaveOccurred())
		_, e1 := s.Do(Request{Binding: HTTPGet, Op: opProvinces})
		_, e2 := s.Do(Request{Binding: HTTPPost, Op: opAllAtms})
		Expect(causeOf(e1)).To(HavePrefix("connection refused at 127.0.0.1:"))
		Expect(causeOf(e1)).To(Equal(causeOf(e2)))
		f1 := &Failure{What: "ReturnAllAtms over soap11: ReturnAllAtmsResult", Expected: "one XML result node"}
		f2 := &Failure{What: "ReturnAtmSearchByAddressWithMaximum over soap12: ReturnAtmSearchByAddressWithMaximumResult", Expected: "one XML result node"}
		Expect(causeOf(f1)).To(Equal("<Op>Result: expected one XML result node"))
		Expect(causeOf(f2)).To(Equal(causeOf(f1)))
	})

	It("cite documentation sections, not atmkit's source, and hold no key", func() {
		c := Checks()[0]
		src := types.CodeLocation{FileName: "/build/atmkit/conformance/suite.go", LineNumber: 54, FullStackTrace: "goroutine 1\n/build/atmkit/conformance/suite.go:54"}
		rep := types.Report{
			SpecialSuiteFailureReasons: []string{"interrupted with key " + leakKey},
			SpecReports: types.SpecReports{{
				LeafNodeType:                types.NodeTypeIt,
				LeafNodeText:                c.Description,
				LeafNodeLocation:            src,
				ContainerHierarchyLocations: []types.CodeLocation{src},
				State:                       types.SpecStateFailed,
				Failure: types.Failure{
					Message: "GET http://h/?strAtmServiceKey=" + leakKey + ": EOF", Location: src, FailureNodeLocation: src,
					AdditionalFailure: &types.AdditionalFailure{Failure: types.Failure{Message: leakKey, Location: src}},
				},
				CapturedStdOutErr: "key=" + leakKey,
				ReportEntries:     types.ReportEntries{{Name: "note", Location: src, Value: types.WrapEntryValue("note " + leakKey)}},
				SpecEvents:        types.SpecEvents{{CodeLocation: src, Message: leakKey}},
			}},
		}
		clean := sanitizeReport(rep, func(s string) string { return maskKey(s, leakKey) }, func(types.SpecReport) string { return "left out" })
		text := fmt.Sprintf("%+v", clean)
		expectNoKey(text, leakKey)
		Expect(text).NotTo(ContainSubstring(".go"))
		sr := clean.SpecReports[0]
		Expect(sr.Failure.Location.String()).To(Equal(docSection(c.Name)))
		Expect(sr.LeafNodeLocation.String()).To(Equal("docs/conformance.md#binding-specs"))
		Expect(sr.ReportEntries[0].Value.String()).To(Equal("note Le****"))
		// The original is left as it was.
		Expect(rep.SpecReports[0].Failure.Message).To(ContainSubstring(leakKey))
	})

	It("map every check to a documentation section", func() {
		anchors := docAnchors("../docs/conformance.md")
		Expect(anchors).NotTo(BeEmpty())
		_, err := os.Stat(filepath.Join("..", docSuite))
		Expect(err).NotTo(HaveOccurred(), "the suite's page %s", docSuite)
		for _, c := range Checks() {
			section := docSection(c.Name)
			Expect(section).To(HavePrefix("docs/conformance.md#"), c.Name)
			Expect(section).NotTo(Equal(docSuite), "check %s has no section of its own", c.Name)
			Expect(anchors).To(HaveKey(strings.TrimPrefix(section, "docs/conformance.md#")), "check %s cites %s, a heading the page does not have", c.Name, section)
		}
		for kind, section := range docSections {
			Expect(anchors).To(HaveKey(strings.TrimPrefix(section, "docs/conformance.md#")), "kind %s cites %s, a heading the page does not have", kind, section)
		}
	})
})

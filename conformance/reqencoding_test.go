package conformance

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/mockserver"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// customErrorsOn answers HTTP GET calls whose bytRadius is not a number as
// an ASP.NET deployment with <customErrors mode="On"/> and an error page
// of its own would, hiding ASMX's message: 500 and a generic HTML page.
// Every other call goes to h.
func customErrorsOn(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.RawQuery, pRadius+"=x") {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprint(w, "<html><head><title>Error</title></head><body><h1>Sorry, something went wrong.</h1></body></html>")
			return
		}
		h.ServeHTTP(w, r)
	})
}

// encodingOf runs the preflight against target and returns what the
// request encoding probe found.
func encodingOf(target, key string) *RequestEncoding {
	GinkgoHelper()
	p, _, err := preflightOf(target, key, 0)
	Expect(err).NotTo(HaveOccurred())
	Expect(p.Encoding).NotTo(BeNil())
	return p.Encoding
}

var _ = Describe("the request encoding probe", Label("selftest"), func() {
	DescribeTable("names the mock's --request-encoding that reads a query as the target does",
		func(wrap func(http.Handler) http.Handler, encoding, name, read string, says ...string) {
			mock, err := newSelfTestMock(mockserver.WithRequestEncoding(encoding))
			Expect(err).NotTo(HaveOccurred())
			e := encodingOf(serve(wrap(mock)), mockKey)
			Expect(e.Name).To(Equal(name))
			Expect(e.Read).To(Equal(read))
			Expect(e.Why).To(BeEmpty())
			for _, s := range says {
				Expect(e.Summary()).To(ContainSubstring(s))
			}
		},
		Entry("utf-8, ASP.NET's default", nop, "utf-8", "utf-8", "\ufffd\ufffd",
			"utf-8, ASP.NET's default (a query's %A4%E9%80 read as two U+FFFD)", "--request-encoding utf-8"),
		Entry("iso-8859-1", nop, "iso-8859-1", "iso-8859-1", "¤é\u0080",
			"iso-8859-1 (a query's %A4 read as ¤, %E9 as é, %80 as U+0080); serve the mock with --request-encoding iso-8859-1"),
		Entry("iso-8859-15 (Latin-9), told from iso-8859-1 by %A4", nop, "iso-8859-15", "iso-8859-15", "€é\u0080",
			"iso-8859-15 (a query's %A4 read as €, %E9 as é, %80 as U+0080); serve the mock with --request-encoding iso-8859-15"),
		Entry("windows-1252", nop, "windows-1252", "windows-1252", "¤é€",
			"windows-1252 (a query's %A4 read as ¤, %E9 as é, %80 as €); serve the mock with --request-encoding windows-1252"),
		Entry("us-ascii", nop, "us-ascii", "us-ascii", "???",
			"us-ascii (a query's %A4, %E9 and %80 each read as '?'); serve the mock with --request-encoding us-ascii"),
		Entry("an encoding the probe cannot name: the bytes as read", nop, "iso-8859-5", "", "Єщ\u0080",
			`unknown (a query's %A4%E9%80 read as "\u0404\u0449\u0080"`, "no --request-encoding this probe can name mirrors it"),
		Entry("HTTP GET disabled: over HTTP POST, whose form names no charset", protocolsGetRemoved, "iso-8859-1", "iso-8859-1", "¤é\u0080",
			"--request-encoding iso-8859-1"),
	)

	It("says not found, and why, when the target repeats no value (custom errors on)", func() {
		mock, err := newSelfTestMock(mockserver.WithRequestEncoding("iso-8859-1"))
		Expect(err).NotTo(HaveOccurred())
		e := encodingOf(serve(customErrorsOn(mock)), mockKey)
		Expect(e.Name).To(BeEmpty())
		Expect(e.Read).To(BeEmpty())
		Expect(e.Summary()).To(HavePrefix("not found (ReturnAtmSearchByCoordinates over get with bytRadius=x%A4%E9%80 answered 500 \"Error\", which repeats no value: custom errors, or a gateway"))
	})

	It("shows no key, even one the target repeats", func() {
		mock, err := newSelfTestMock(mockserver.WithKeys(leakKey))
		Expect(err).NotTo(HaveOccurred())
		echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.Contains(r.URL.RawQuery, pRadius+"=x") {
				w.Header().Set("Content-Type", "text/plain; charset=utf-8")
				w.WriteHeader(http.StatusInternalServerError)
				fmt.Fprintf(w, "Bad call by %s.", r.URL.Query().Get(pKey))
				return
			}
			mock.ServeHTTP(w, r)
		})
		e := encodingOf(serve(echo), leakKey)
		Expect(e.Summary()).To(ContainSubstring("not found"))
		expectNoKey(e.Summary(), leakKey)
	})

	// The console's "Request encoding:" line and the reports' finding
	// quote what the target read: three characters, or a bounded quote of
	// what a hostile target says it read.
	It("quotes a bounded part of what the target says it read", func() {
		mock, err := newSelfTestMock(mockserver.WithKeys(leakKey))
		Expect(err).NotTo(HaveOccurred())
		echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if strings.Contains(r.URL.RawQuery, pRadius+"=x") {
				w.Header().Set("Content-Type", "text/plain; charset=utf-8")
				w.WriteHeader(http.StatusInternalServerError)
				fmt.Fprintf(w, "System.ArgumentException: Cannot convert x%s to System.Byte.", strings.Repeat("z", 1<<20))
				return
			}
			mock.ServeHTTP(w, r)
		})
		e := encodingOf(serve(echo), leakKey)
		Expect(e.Summary()).To(HavePrefix("unknown (a query's %A4%E9%80 read as \"zzz"))
		Expect(len(e.Summary())).To(BeNumerically("<", 1000))
	})
})

var _ = Describe("the request encoding probe on Mono", Label("selftest", "refdeploy"), func() {
	// Mono writes the conversion error unformatted ("Cannot convert {0} to
	// {1}."), so it repeats no value whatever its requestEncoding: the
	// probe says so, and names no encoding it did not see.
	DescribeTable("says not found, naming Mono's unformatted message",
		func(start func() string) {
			base := start()
			warmUp(base, refdeploy.Key)
			e := encodingOf(base, refdeploy.Key)
			Expect(e.Name).To(BeEmpty())
			Expect(e.Summary()).To(HavePrefix(`not found (ReturnAtmSearchByCoordinates over get with bytRadius=x%A4%E9%80 answered "Cannot convert {0} to {1}.", a conversion error that names no value, as Mono's ASMX writes it)`))
		},
		Entry("the default site (utf-8)", func() string { return refdeploy.Shared(GinkgoTB()).URL }),
		Entry("a site with requestEncoding iso-8859-1", func() string {
			config, err := refdeploy.SiteFile(refdeploy.Root, "web.config")
			Expect(err).NotTo(HaveOccurred())
			const old = `<customErrors mode="On"/>`
			Expect(config).To(ContainSubstring(old))
			config = strings.Replace(config, old, old+`<globalization requestEncoding="iso-8859-1"/>`, 1)
			return refdeploy.Start(GinkgoTB(), refdeploy.WebConfig(refdeploy.Root, config)).URL
		}),
	)
})

// nop is the handler as it is.
func nop(h http.Handler) http.Handler { return h }

// protocolsGetRemoved answers HTTP GET calls as ASMX does when web.config
// removes the HttpGet protocol (HTTP 500, ASP.NET's error page), leaving
// HTTP POST.
func protocolsGetRemoved(h http.Handler) http.Handler {
	removed := protocolsRemoved(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			removed.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

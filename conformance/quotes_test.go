package conformance

import (
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// The specs of this file check that every text quoting a target masks the
// key and the header values (Config.Secrets) before it escapes what is
// not printable and before it cuts: escaped first ("\xff"), or cut in
// two, a value is a text no mask matches.

// escKey and escSecret hold a byte that is not UTF-8: printable.Text and
// a %q verb escape it.
const (
	escKey    = "Leak-\xff-Key-1234"
	escSecret = "Leak\xffSecret-5678"
)

var _ = Describe("a quote of a hostile target", Label("selftest"), func() {
	It("has a key and a header value with bytes to escape masked in a spec's notes, as the reports write them", func() {
		s, err := NewSession(Config{Target: "http://127.0.0.1:1", Key: escKey, Secrets: []string{escSecret}})
		Expect(err).NotTo(HaveOccurred())
		before := len(CurrentSpecReport().ReportEntries)
		runSpec(newSpecRun(s), Check{Name: "semantics/note", Run: func(_ *Session, note Notef) error {
			note("the target named %q", escKey)
			note("the target named %s", escSecret)
			return nil
		}})
		entries := CurrentSpecReport().ReportEntries[before:]
		Expect(entries).To(HaveLen(2))
		for _, e := range entries {
			text := s.maskReport(e.Value.String())
			Expect(text).To(ContainSubstring("Le****"))
			Expect(text).NotTo(Or(ContainSubstring("Key-1234"), ContainSubstring("Secret-5678")), "the value is in the note %q", text)
		}
	})

	It("has a key and a header value with bytes to escape masked in the namespaces discovery tried", func() {
		target := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet || r.URL.Path != servicePath || strings.EqualFold(r.URL.RawQuery, "wsdl") {
				http.Error(w, "no", http.StatusInternalServerError)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<html><body><pre>xmlns="http://example.org/`+escKey+`" xmlns:h="urn:`+escSecret+`"</pre></body></html>`)
		}))
		s, err := NewSession(Config{Target: target, Key: escKey, Secrets: []string{escSecret}})
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Namespace()
		Expect(err).To(MatchError(ContainSubstring("no service namespace")))
		Expect(err.Error()).To(ContainSubstring(`"http://example.org/Le****"`))
		Expect(err.Error()).NotTo(Or(ContainSubstring("Key-1234"), ContainSubstring("Secret-5678")), "the value is in:\n%s", err)
	})

	It("quotes a bounded part of each namespace discovery tried", func() {
		target := serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodGet || r.URL.Path != servicePath || strings.EqualFold(r.URL.RawQuery, "wsdl") {
				http.Error(w, "no", http.StatusInternalServerError)
				return
			}
			fmt.Fprint(w, `<pre>xmlns="urn:`+strings.Repeat("a", 1<<20)+`"</pre>`)
		}))
		s, err := NewSession(Config{Target: target, Key: leakKey})
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Namespace()
		Expect(err).To(MatchError(ContainSubstring(`in none of ["urn:aaa`)))
		Expect(len(err.Error())).To(BeNumerically("<", 2000))
	})

	// A body's start is read of its first bytes: a key across that cut
	// kept its start, which no mask matched. White space first (trimmed)
	// brings it into the quote.
	It("leaves no part of a key across the cut of a body it quotes the start of", func() {
		body := []byte(strings.Repeat(" ", 4000) + strings.Repeat("x", 86) + " " + leakKey + " refused")
		Expect(snippet(body, leakKey)).To(Equal(strings.Repeat("x", 86)))

		page := strings.Repeat(" ", 64<<10-100) + strings.Repeat("x", 90) + " " + leakKey + " refused"
		target := serve(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, page)
		}))
		s, err := NewSession(Config{Target: target, Key: leakKey})
		Expect(err).NotTo(HaveOccurred())
		x, err := s.Do(Request{Binding: HTTPGet, Op: opProvinces})
		Expect(err).NotTo(HaveOccurred())
		Expect(answerText(x)).To(Equal(`"` + strings.Repeat("x", 90) + `"`))
	})
})

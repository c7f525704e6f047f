package conformance

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// rewriteAnswers wraps h: f rewrites the body of every answer of op (an
// XML binding's: its GET or POST path, or a SOAP answer naming it).
func rewriteAnswers(h http.Handler, op string, f func([]byte) []byte) http.Handler {
	soap := []byte("<" + op + "Response")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		body := rec.Body.Bytes()
		if p := r.URL.Path; strings.HasSuffix(p, "/"+op) && !strings.HasPrefix(p, serviceV2Path) || bytes.Contains(body, soap) {
			body = f(body)
		}
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(rec.Code)
		_, _ = w.Write(body)
	})
}

var _ = Describe("semantics/all-atms", Label("selftest"), func() {
	index := regexp.MustCompile(`\s*<index>\d+</index>`)
	street := regexp.MustCompile(`<streetAddress>`)
	run := func(h http.Handler) map[string]string {
		_, _, cities := referenceMock()
		return failed(checkWith(h, Config{Key: mockKey, Namespace: mockNS, CityIDs: cities}, reference.facts, "semantics/all-atms"))
	}

	It("passes a deployment that writes the index in its searches' results only, or in ReturnAllAtms's only", func() {
		mock, _, _ := referenceMock()
		Expect(run(mock)).To(BeEmpty())
		Expect(run(rewriteAnswers(mock, opAllAtms, func(b []byte) []byte { return index.ReplaceAll(b, nil) }))).To(BeEmpty())
		var h http.Handler = mock
		for _, op := range []string{opByCoords, opByAddress, opWithMaximum, opByInst, opByCity} {
			h = rewriteAnswers(h, op, func(b []byte) []byte { return index.ReplaceAll(b, nil) })
		}
		Expect(run(h)).To(BeEmpty())
	})

	It("fails a deployment whose ReturnAllAtms writes another value than a search, in every XML binding alike, naming it", func() {
		mock, _, _ := referenceMock()
		bad := run(rewriteAnswers(mock, opAllAtms, func(b []byte) []byte { return street.ReplaceAll(b, []byte("<streetAddress>9")) }))
		Expect(bad).To(HaveKeyWithValue("semantics/all-atms", And(
			ContainSubstring("the same location node as ReturnAllAtms's of that id"),
			MatchRegexp(`address/streetAddress = "[^9"][^"]*"; ReturnAllAtms's node: "9`))))
	})
})

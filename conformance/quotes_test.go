package conformance

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
	"github.com/beevik/etree"

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

// ctlKey holds a control character: JSON carries it as \u0001, a %q verb
// writes it \x01. puaKey holds a character XML and JSON carry as it is
// and a %q verb escapes (\U000f0000: not printable, a private use one),
// printable.Text does not (no control character).
const (
	ctlKey = "Leak-\x01-Key-1234"
	puaKey = "Leak-\U000f0000-Key-1234"
)

// echoingTarget is the self-test mock, taking any key, that gives key, the
// key it was called with, in the first location of its answers to
// ReturnAtmSearchByCoordinates: as the city of the JSON binding's answer
// (jsonCity), and in the XML answer over get as a note beside the city
// (xml "note"), or as the city, its own moved to such a note (xml "city").
func echoingTarget(key string, jsonCity bool, xml string) string {
	ds, err := selfTestDataset()
	Expect(err).NotTo(HaveOccurred())
	mock, err := mockserver.New(mockserver.WithDataset(ds))
	Expect(err).NotTo(HaveOccurred())
	return serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		jsonAnswer := r.URL.Path == serviceV2Path+"/"+opByCoords && jsonCity
		xmlAnswer := r.URL.Path == servicePath+"/"+opByCoords && r.Method == http.MethodGet && xml != ""
		if !jsonAnswer && !xmlAnswer {
			mock.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		mock.ServeHTTP(rec, r)
		Expect(rec.Code).To(Equal(http.StatusOK))
		body := rec.Body.Bytes()
		if jsonAnswer {
			var m map[string]any
			Expect(json.Unmarshal(body, &m)).To(Succeed())
			locs, _ := m["locations"].([]any)
			Expect(locs).NotTo(BeEmpty())
			locs[0].(map[string]any)["address"].(map[string]any)["city"] = key
			body, err = json.Marshal(m)
			Expect(err).NotTo(HaveOccurred())
		} else {
			doc := etree.NewDocument()
			Expect(doc.ReadFromBytes(body)).To(Succeed())
			city := doc.FindElement("//address/city")
			Expect(city).NotTo(BeNil())
			note := city.Parent().CreateElement("note")
			if note.SetText(key); xml == "city" {
				note.SetText(city.Text())
				city.SetText(key)
			}
			body, err = doc.WriteToBytes()
			Expect(err).NotTo(HaveOccurred())
		}
		w.Header().Set("Content-Type", rec.Header().Get("Content-Type"))
		_, _ = w.Write(body)
	}))
}

// The JSON and XML location values the suite learns from quote the
// target: a key it echoes in one is masked before a %q verb escapes it.
var _ = Describe("a quote of a location value", Label("selftest"), func() {
	// session is a session with target, after its discovery.
	session := func(target, key string) *Session {
		s, err := NewSession(Config{Target: target, Key: key})
		Expect(err).NotTo(HaveOccurred())
		f, err := s.Facts()
		Expect(err).NotTo(HaveOccurred())
		Expect(f.Unheld).To(HaveKey("address.city"))
		return s
	}
	// asReported is err as runSpec writes a skip's reason or a failure,
	// and the reports mask it.
	asReported := func(s *Session, err error) string {
		return s.maskReport(printablef(reportKeys(s.cfg.Key, s.cfg.Secrets), "%s", err))
	}

	It("has a key the target echoes in JSON masked in the reason a check that needs the value skips", func() {
		s := session(echoingTarget(ctlKey, true, ""), ctlKey)
		err := checkCity(s, func(string, ...any) {})
		Expect(IsSkip(err)).To(BeTrue(), "%v", err)
		text := asReported(s, err)
		Expect(text).To(ContainSubstring(`hold no address.city: no leaf holds the JSON answers' value in every location ("Le****`))
		Expect(text).NotTo(ContainSubstring("Key-1234"), "the key is in:\n%s", text)
	})

	DescribeTable("has a key the target echoes masked in a JSON against XML failure",
		func(key string, jsonCity bool, xml, want string) {
			s := session(echoingTarget(key, jsonCity, xml), key)
			err := checkJSONMatchesXML(s, opByCoords)
			Expect(err).To(HaveOccurred())
			text := asReported(s, err)
			Expect(text).To(ContainSubstring(want))
			Expect(text).NotTo(ContainSubstring("Key-1234"), "the key is in:\n%s", text)
		},
		Entry("what it expected, a JSON value no XML leaf holds", ctlKey, true, "", `expected: JSON address.city = "Le****`),
		Entry("what it expected, a JSON value held by a leaf of another field", puaKey, true, "note", `expected: JSON address.city = "Le****`),
		Entry("what it got, the value of the XML leaf", puaKey, false, "city", `got:      address/city = "Le****`),
	)
})

// The checks that compare a target's answers with each other or with a
// shape quote the values that differ with %q: a key the target echoes in
// one, escaped by the verb, is masked in what the reports write.
var _ = Describe("a %q quote of a compared value", Label("selftest"), func() {
	// asReported is text as a failure's got or a spec's reason carries it
	// (printablef) and the reports write it (maskReport).
	asReported := func(key, text string) string {
		s, err := NewSession(Config{Target: "http://127.0.0.1:1", Key: key})
		Expect(err).NotTo(HaveOccurred())
		return s.maskReport(printablef(reportKeys(key, nil), "%s", text))
	}
	element := func(text string) *etree.Element {
		e := etree.NewElement("city")
		e.SetText(text)
		return e
	}
	DescribeTable("has a key the target echoes masked",
		func(quote func(key string) string) {
			for _, key := range []string{ctlKey, puaKey, "Leak-\xff-Key-1234"} {
				text := asReported(key, quote(key))
				Expect(text).To(ContainSubstring("Le****"), "key %q", key)
				Expect(text).NotTo(ContainSubstring("Key-1234"), "key %q in:\n%s", key, text)
			}
		},
		Entry("in a value the shape says is a number", func(key string) string {
			c := &shapeCompare{}
			c.value("locations/location/id", key, &shape.Field{Type: "int"})
			return strings.Join(c.diffs, "; ")
		}),
		Entry("in the DataSet's locale", func(key string) string {
			return diffDataSets(&shape.DataSet{Locale: key}, &shape.DataSet{Locale: "en-US"}, "")
		}),
		Entry("in a declaration of the DataSet's schema", func(key string) string {
			return firstLineDiff("<xs:element name=\""+key+"\"/>", "<xs:element name=\"id\"/>")
		}),
		Entry("in the text of an element two answers hold", func(key string) string {
			return diffElements(element(key), element("Halifax"))
		}),
		Entry("in the service namespace", func(key string) string {
			return namespaceFailure("http://example.org/" + key).Got
		}),
	)
})

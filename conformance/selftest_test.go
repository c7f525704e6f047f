package conformance

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os/exec"
	"path"
	"runtime"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"
)

// checkAll runs the checks whose names match one of patterns (path.Match;
// none: every check) against the server h and returns the outcomes.
func checkAll(h http.Handler, cfg Config, patterns ...string) []Outcome {
	return checkWith(h, cfg, nil, patterns...)
}

// checkWith is checkAll with the query values already known (facts from a
// run against the undeviated server), so only the checks meet the deviation.
func checkWith(h http.Handler, cfg Config, facts *Facts, patterns ...string) []Outcome {
	srv := httptest.NewServer(h)
	DeferCleanup(srv.Close)
	cfg.Target = srv.URL
	s, err := NewSession(cfg)
	Expect(err).NotTo(HaveOccurred())
	if facts != nil {
		s.factsOnce.Do(func() { s.facts = facts })
	}
	var cs []Check
	for _, c := range Checks() {
		ok := len(patterns) == 0
		for _, p := range patterns {
			m, _ := path.Match(p, c.Name)
			ok = ok || m
		}
		if ok {
			cs = append(cs, c)
		}
	}
	Expect(cs).NotTo(BeEmpty(), "no check matches %q", patterns)
	return RunChecks(s, cs)
}

// failed returns the messages of the outcomes that failed (not skipped), by
// check name.
func failed(outs []Outcome) map[string]string {
	m := map[string]string{}
	for _, o := range outs {
		if o.Err != nil && !IsSkip(o.Err) {
			m[o.Check.Name] = o.Err.Error()
		}
	}
	return m
}

// skipped returns the names of the checks skipped for a reason other
// than a missing shape.
func skipped(outs []Outcome) []string {
	var s []string
	for _, o := range outs {
		if IsSkip(o.Err) && o.Err != errNoShape { // the shape specs need a shape
			s = append(s, o.Check.Name)
		}
	}
	return s
}

// expectCityLeftOut expects of outs what a target whose XML results leave
// out the city the JSON answers hold gets: only the specs comparing the two
// fail, naming it, as for any value a layout omits, and the city's
// semantics are skipped.
func expectCityLeftOut(outs []Outcome) {
	GinkgoHelper()
	bad := failed(outs)
	for _, op := range []string{opByAddress, opByCoords} {
		Expect(bad).To(HaveKeyWithValue("json/"+op+"/matches-xml", ContainSubstring("JSON address.city = ")))
		delete(bad, "json/"+op+"/matches-xml")
	}
	Expect(bad).To(BeEmpty())
	Expect(skipped(outs)).To(Equal([]string{"semantics/city"}))
}

const (
	mockNS = "http://tempuri.org/atmService"
	altNS  = "http://atm.example.org/atmService"
	altKey = "alt-key"
)

// reference holds one mock shared by the self-tests (on selfTestDataset)
// and what a plain run discovers about it, so deviating runs need not probe
// again.
var reference struct {
	once    sync.Once
	mock    http.Handler
	srv     *httptest.Server
	hasWSDL bool
	cityIDs []int
	facts   *Facts
	err     error
}

func referenceMock() (http.Handler, bool, []int) {
	reference.once.Do(func() {
		if reference.mock, reference.err = newSelfTestMock(); reference.err != nil {
			return
		}
		reference.srv = httptest.NewServer(reference.mock)
		var s *Session
		if s, reference.err = NewSession(Config{Target: reference.srv.URL, Key: mockKey}); reference.err != nil {
			return
		}
		doc, _, err := s.WSDL()
		reference.hasWSDL = doc != nil && err == nil
		if reference.facts, reference.err = s.Facts(); reference.err == nil {
			reference.cityIDs = reference.facts.CityIDs
		}
	})
	Expect(reference.err).NotTo(HaveOccurred())
	return reference.mock, reference.hasWSDL, reference.cityIDs
}

func findDeviation(name string) deviation {
	for _, d := range deviations() {
		if d.name == name {
			return d
		}
	}
	Fail("no deviation " + name)
	return deviation{}
}

var _ = Describe("the suite itself", Label("selftest"), func() {
	It("passes the mock, with every spec applicable", func() {
		_, hasWSDL, _ := referenceMock()
		_, s, err := sharedMock()
		Expect(err).NotTo(HaveOccurred())
		outs := RunChecks(s, Checks())
		Expect(failed(outs)).To(BeEmpty())
		if !hasWSDL {
			AddReportEntry("note", "the mock serves no WSDL yet: the WSDL specs skip")
			for _, name := range skipped(outs) {
				Expect(name).To(HavePrefix("wsdl/"))
			}
			return
		}
		Expect(skipped(outs)).To(BeEmpty())
	})

	DescribeTable("passes a conformant server in each ASMX layout, with variations the reference deployments do not show",
		func(l altLayout, saw string) {
			alt := newAltServer(altNS, altKey, true)
			alt.layout = l
			outs := checkAll(alt, Config{Key: altKey})
			Expect(failed(outs)).To(BeEmpty())
			Expect(skipped(outs)).To(BeEmpty())
			notes := notesOf(outs)
			for _, op := range Operations {
				Expect(notes["equivalence/"+op.Name]).To(HavePrefix("layout "+saw), "the layout %s's equivalence spec saw", op.Name)
				Expect(notes["namespaces/"+op.Name]).To(HavePrefix("layout "+saw), "the layout %s's namespaces spec saw", op.Name)
			}
		},
		Entry("a node in a namespace of its own, values in attributes", altNode, "node: "),
		Entry("typed content in no namespace under a root in the service namespace, values in attributes, nested arrays with their own item names", altTyped, "typed: "),
		Entry("DataSets: an inline schema, flat rows in no namespace, a nested child table", altDataSet, "DataSet: "),
	)

	It("passes a conformant server with other XML names and nesting, its own namespace and no WSDL, skipping only the WSDL specs", func() {
		alt := newAltServer(altNS, altKey, false)
		outs := checkAll(alt, Config{Key: altKey, Namespace: altNS})
		Expect(failed(outs)).To(BeEmpty())
		for _, name := range skipped(outs) {
			Expect(name).To(HavePrefix("wsdl/"))
		}
		wsdlChecks := 0
		for _, c := range Checks() {
			if strings.HasPrefix(c.Name, "wsdl/") {
				wsdlChecks++
			}
		}
		Expect(skipped(outs)).To(HaveLen(wsdlChecks))
	})

	It("passes the conformant server when it serves a WSDL", func() {
		outs := checkAll(newAltServer(altNS, altKey, true), Config{Key: altKey})
		Expect(failed(outs)).To(BeEmpty())
		Expect(skipped(outs)).To(BeEmpty())
	})

	// ASMX answers ?WSDL with the WSDL or an error status: a 200 that is
	// no WSDL (cut short, say) is a broken WSDL, not none.
	It("fails the WSDL specs, not skips them, when the WSDL answered 200 is no WSDL document", func() {
		alt := newAltServer(altNS, altKey, true)
		cut := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if !strings.EqualFold(r.URL.RawQuery, "wsdl") {
				alt.ServeHTTP(w, r)
				return
			}
			rec := httptest.NewRecorder()
			alt.ServeHTTP(rec, r)
			w.Header().Set("Content-Type", rec.Header().Get("Content-Type"))
			_, _ = w.Write(rec.Body.Bytes()[:rec.Body.Len()/2])
		})
		outs := checkAll(cut, Config{Key: altKey, Namespace: altNS}, "wsdl/*", "wsdl/*/*")
		Expect(outs).NotTo(BeEmpty())
		Expect(skipped(outs)).To(BeEmpty())
		for _, o := range outs {
			Expect(o.Err).To(MatchError(ContainSubstring("expected: a WSDL document")), o.Check.Name)
		}
	})

	It("finds the namespace of a target without WSDL in its help page", func() {
		alt := newAltServer(altNS, altKey, false)
		srv := httptest.NewServer(alt)
		DeferCleanup(srv.Close)
		s, err := NewSession(Config{Target: srv.URL + "/service/service.asmx", Key: altKey})
		Expect(err).NotTo(HaveOccurred())
		Expect(s.Namespace()).To(Equal(altNS))
		f, err := s.Facts()
		Expect(err).NotTo(HaveOccurred())
		Expect(f.CityIDs).To(Equal([]int{7}), "the first intCityID with locations")
		Expect(f.Fields).To(HaveKeyWithValue("id", "@Key"))
		Expect(f.Fields).To(HaveKeyWithValue("institution.id", "Bank/Number"))
	})

	DescribeTable("fails a deviating mock and names the deviation",
		func(name string) {
			mock, hasWSDL, cities := referenceMock()
			d := findDeviation(name)
			upstream, cfg, facts := mock, Config{Key: mockKey, Namespace: mockNS, CityIDs: cities}, reference.facts
			if d.needsWSDL && !hasWSDL {
				AddReportEntry("note", "the mock serves no WSDL: deviating the second conformant server's WSDL instead")
				upstream, cfg, facts = newAltServer(altNS, altKey, true), Config{Key: altKey, Namespace: altNS}, nil
			}
			if d.shape != "" {
				// The same data set in the shape's results: the query
				// values stay the plain mock's.
				cfg.Shape = loadShape(d.shape)
				upstream = shaped(cfg.Shape)
			}
			// The checks that must catch it (running every check for each
			// deviation would take most of the package's time budget; the
			// full suite runs against the plain mock above).
			outs := checkWith(withDeviation(upstream, d), cfg, facts, d.catches...)
			bad := failed(outs)
			Expect(bad).NotTo(BeEmpty(), "the suite passed a server that breaks the interface")
			for _, pat := range d.catches {
				matched := 0
				for _, o := range outs {
					if ok, _ := path.Match(pat, o.Check.Name); ok {
						matched++
						Expect(bad).To(HaveKey(o.Check.Name), "check %s passed", o.Check.Name)
						Expect(bad[o.Check.Name]).To(ContainSubstring(d.says))
						Expect(bad[o.Check.Name]).To(ContainSubstring("reproduce: curl "))
					}
				}
				Expect(matched).To(BeNumerically(">", 0), "no check matches %s", pat)
			}
			GinkgoWriter.Printf("%s: %d checks failed\n", d.name, len(bad))
		},
		func() []TableEntry {
			var es []TableEntry
			for _, d := range deviations() {
				es = append(es, Entry(d.name, d.name))
			}
			return es
		}(),
	)

	It("prints a curl line that reproduces the deviation", func() {
		if _, err := exec.LookPath("curl"); err != nil {
			Skip("curl is not installed")
		}
		mock, _, cities := referenceMock()
		d := findDeviation("get-content-type")
		outs := checkAll(withDeviation(mock, d), Config{Key: mockKey, Namespace: mockNS, CityIDs: cities}, "binding/get/*")
		msg := failed(outs)["binding/get/ReturnAtmSearchByCity"]
		Expect(msg).NotTo(BeEmpty())
		Expect(msg).To(ContainSubstring("expected: text/xml; charset=utf-8"))
		Expect(msg).To(ContainSubstring(`got:      "application/xml"`))
		_, line, ok := strings.Cut(msg, "reproduce: ")
		Expect(ok).To(BeTrue())
		Expect(line).To(ContainSubstring(`"$ATMKIT_KEY"`), "the key is not written into reports")
		Expect(line).NotTo(ContainSubstring(mockKey))
		cmd := exec.Command("sh", "-c", line)
		cmd.Env = append(cmd.Environ(), "ATMKIT_KEY="+mockKey)
		out, err := cmd.CombinedOutput()
		Expect(err).NotTo(HaveOccurred(), string(out))
		Expect(string(out)).To(MatchRegexp(`(?i)HTTP/1.1 200 OK\r?\n(.*\r?\n)*Content-Type: application/xml`))
	})

	It("writes its curl lines for cmd.exe on Windows", func() {
		mock, _, _ := referenceMock()
		srv := httptest.NewServer(mock)
		DeferCleanup(srv.Close)
		s, err := NewSession(Config{Target: srv.URL, Key: mockKey, Namespace: mockNS})
		Expect(err).NotTo(HaveOccurred())
		soap, err := s.Do(Request{Binding: SOAP11, Op: opProvinces})
		Expect(err).NotTo(HaveOccurred())
		win := soap.CurlFor(true)
		Expect(win).To(HavePrefix("curl.exe -sS -i -X POST " + srv.URL + "/service/service.asmx -H "))
		Expect(win).To(ContainSubstring(`-H ^"SOAPAction: \^"` + mockNS))
		Expect(win).To(ContainSubstring(`--data-binary ^"^<?xml version=\^"1.0\^" encoding=\^"utf-8\^"?^>`))
		Expect(win).To(ContainSubstring(`^<strAtmServiceKey^>%ATMKIT_KEY%^</strAtmServiceKey^>`))
		Expect(win).NotTo(ContainSubstring(mockKey))
		Expect(win).NotTo(ContainSubstring("'"))
		Expect(soap.CurlFor(false)).To(HavePrefix("curl -sS -i -X POST "))
		Expect(soap.CurlFor(false)).To(ContainSubstring(`<strAtmServiceKey>'"$ATMKIT_KEY"'</strAtmServiceKey>`))

		get, err := s.Do(Request{Binding: HTTPGet, Op: opProvinces})
		Expect(err).NotTo(HaveOccurred())
		Expect(get.CurlFor(true)).To(Equal(`curl.exe -sS -i "` + srv.URL + `/service/service.asmx/ReturnProvinces?strAtmServiceKey=%ATMKIT_KEY%"`))

		// A body beyond ASCII: curl.exe gets its arguments in the ANSI
		// code page and would send é as one byte, not UTF-8: for cmd.exe
		// each such character is a character reference, the same XML.
		// A POSIX shell's line keeps the text.
		body := `<?xml version="1.0" encoding="utf-8"?><a x="Lévis"><strAtmServiceKey>` + mockKey + `</strAtmServiceKey><strAddress>12 rue de l'Église, Montréal 🏧</strAddress></a>`
		accented := &Exchange{Method: http.MethodPost, URL: srv.URL + "/service/service.asmx", Body: []byte(body), key: mockKey}
		win = accented.CurlFor(true)
		Expect(win).To(HaveSuffix(`--data-binary ^"^<?xml version=\^"1.0\^" encoding=\^"utf-8\^"?^>^<a x=\^"L^&#xE9;vis\^"^>` +
			`^<strAtmServiceKey^>%ATMKIT_KEY%^</strAtmServiceKey^>^<strAddress^>12 rue de l'^&#xC9;glise, Montr^&#xE9;al ^&#x1F3E7;^</strAddress^>^</a^>^"`))
		Expect(accented.CurlFor(false)).To(ContainSubstring("rue de l'\\''Église, Montréal 🏧"))
		cdata := &Exchange{Method: http.MethodPost, URL: srv.URL, Body: []byte("<a><![CDATA[é]]></a>")}
		Expect(cdata.CurlFor(true)).To(ContainSubstring("é"), "in CDATA a reference is text: left as it is")

		// A line break: no cmd.exe line holds one.
		broken := &Exchange{Method: http.MethodPost, URL: srv.URL + "/service/service.asmx", Body: []byte("<a>\n</a>")}
		Expect(broken.CurlFor(true)).To(Equal("curl -sS -i -X POST " + srv.URL + "/service/service.asmx --data-binary '<a>\n</a>'" +
			"  # for a POSIX shell (Git Bash, WSL): cmd.exe cannot hold the line break in it"))
	})

	// cmd.exe expands %ATMKIT_KEY% before it reads the line: a " of the
	// key's ends the double quotes, and the & | < > ^ after it are its
	// own (a key x" & calc & " would run calc, a > write a file).
	It("writes its curl lines for a POSIX shell on Windows when cmd.exe would read the key's characters as its own", func() {
		for _, key := range []string{`Leak"&calc&"1234`, "Leak|Key", "Leak>Key", "Leak<Key", "Leak^Key", "Leak&Key"} {
			get := &Exchange{Method: http.MethodGet, URL: "http://127.0.0.1:1/service/service.asmx/ReturnProvinces?strAtmServiceKey=" + url.QueryEscape(key), key: key}
			Expect(get.CurlFor(true)).To(Equal(`curl -sS -i 'http://127.0.0.1:1/service/service.asmx/ReturnProvinces?strAtmServiceKey='"$ATMKIT_KEY"`+
				`  # for a POSIX shell (Git Bash, WSL): cmd.exe would read a " & | < > or ^ of %ATMKIT_KEY% as its own`), "key %q", key)
		}
		// A key of other characters keeps its cmd.exe line.
		key := "Leak%(Key)!"
		get := &Exchange{Method: http.MethodGet, URL: "http://127.0.0.1:1/x?strAtmServiceKey=" + url.QueryEscape(key), key: key}
		Expect(get.CurlFor(true)).To(Equal(`curl.exe -sS -i "http://127.0.0.1:1/x?strAtmServiceKey=%ATMKIT_KEY%"`))
	})

	It("writes its curl lines for the shell of Config.Shell: cmd.exe lines for PowerShell too, POSIX lines for Git Bash", func() {
		mock, _, _ := referenceMock()
		srv := httptest.NewServer(mock)
		DeferCleanup(srv.Close)
		cmdGet := `curl.exe -sS -i "` + srv.URL + `/service/service.asmx/ReturnProvinces?strAtmServiceKey=%ATMKIT_KEY%"`
		posixGet := `curl -sS -i '` + srv.URL + `/service/service.asmx/ReturnProvinces?strAtmServiceKey='"$ATMKIT_KEY"`
		system := posixGet
		if runtime.GOOS == "windows" {
			system = cmdGet
		}
		for sh, want := range map[Shell]string{ShellCmd: cmdGet, ShellPowerShell: cmdGet, ShellPOSIX: posixGet, ShellSystem: system} {
			s, err := NewSession(Config{Target: srv.URL, Key: mockKey, Namespace: mockNS, Shell: sh})
			Expect(err).NotTo(HaveOccurred())
			get, err := s.Do(Request{Binding: HTTPGet, Op: opProvinces})
			Expect(err).NotTo(HaveOccurred())
			Expect(get.Curl()).To(Equal(want), "shell %q", sh)
		}
		_, err := NewSession(Config{Target: srv.URL, Key: mockKey, Shell: "bash"})
		Expect(err).To(MatchError(ContainSubstring(`shell "bash"`)))
	})

	It("notes once, before the first reproduce line, that they are cmd.exe lines when the shell is PowerShell", func() {
		failed := func(n int) types.SpecReport {
			return types.SpecReport{LeafNodeType: types.NodeTypeIt, LeafNodeText: fmt.Sprintf("spec %d", n), State: types.SpecStateFailed,
				Failure: types.Failure{Message: fmt.Sprintf("what %d\n  expected: a\n  got:      b\n  reproduce: curl.exe -sS -i \"http://h/%d\"", n, n)}}
		}
		for sh, notes := range map[Shell]int{ShellPowerShell: 1, ShellCmd: 0, ShellPOSIX: 0} {
			for _, verbose := range []bool{true, false} {
				s, err := NewSession(Config{Target: "http://127.0.0.1:1", Key: mockKey, Shell: sh})
				Expect(err).NotTo(HaveOccurred())
				var out bytes.Buffer
				r := &reporter{out: &out, run: newSpecRun(s), verbose: verbose}
				rep := types.Report{SpecReports: types.SpecReports{failed(1), failed(2)}}
				for _, sr := range rep.SpecReports {
					r.afterEach(sr)
				}
				r.afterSuite(rep)
				Expect(strings.Count(out.String(), powerShellNote)).To(Equal(notes), "shell %q, verbose %v:\n%s", sh, verbose, out.String())
				if notes > 0 {
					Expect(strings.Index(out.String(), powerShellNote)).To(BeNumerically("<", strings.Index(out.String(), "reproduce: ")), out.String())
				}
			}
		}
	})

	It("reports distances instead of failing when the radius unit is unknown", func() {
		mock, _, cities := referenceMock()
		srv := httptest.NewServer(withDeviation(mock, findDeviation("radius-ignored")))
		DeferCleanup(srv.Close)
		for unit, passes := range map[RadiusUnit]bool{Kilometres: false, UnknownUnit: true} {
			s, err := NewSession(Config{Target: srv.URL, Key: mockKey, Namespace: mockNS, CityIDs: cities, RadiusUnit: unit})
			Expect(err).NotTo(HaveOccurred())
			var notes []string
			err = checkRadius(s, func(f string, a ...any) { notes = append(notes, f) })
			if passes {
				Expect(err).NotTo(HaveOccurred())
				Expect(notes).To(ContainElement(ContainSubstring("radius unit unknown")))
			} else {
				Expect(err).To(MatchError(ContainSubstring("distance")))
			}
		}
	})

	It("refuses a configuration it cannot run", func() {
		_, err := NewSession(Config{Key: "k"})
		Expect(err).To(MatchError(ContainSubstring("no target")))
		_, err = NewSession(Config{Target: "ftp://x", Key: "k"})
		Expect(err).To(MatchError(ContainSubstring("not an http(s) URL")))
		_, err = NewSession(Config{Target: "http://127.0.0.1:1"})
		Expect(err).To(MatchError(ContainSubstring("no service key")))
		_, err = ParseRadiusUnit("furlongs")
		Expect(err).To(HaveOccurred())
		_, err = Run(Config{Target: "http://127.0.0.1:1", Key: "k"}, RunOptions{LabelFilter: "soap11 &&"})
		Expect(err).To(MatchError(ContainSubstring("label filter")))
	})
})

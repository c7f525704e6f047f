package conformance

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// halifax is a point among the mock's and the alt server's ATMs.
const halifaxLat, halifaxLon = 44.6488, -63.5752

// notesOf returns the notes of the outcomes, by check name.
func notesOf(outs []Outcome) map[string]string {
	m := map[string]string{}
	for _, o := range outs {
		m[o.Check.Name] = strings.Join(o.Notes, "\n")
	}
	return m
}

// allAtmsCounter serves h and counts the requests for ReturnAllAtms over
// HTTP GET, the binding discovery reads it in.
func allAtmsCounter(h http.Handler, n *atomic.Int32) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/"+opAllAtms) {
			n.Add(1)
		}
		h.ServeHTTP(w, r)
	})
}

var _ = Describe("query values given instead of discovered", Label("selftest"), func() {
	It("uses given coordinates, institution, radius and maximum against the mock, and notes them as given", func() {
		mock, hasWSDL, _ := referenceMock()
		var allAtms atomic.Int32
		srv := httptest.NewServer(allAtmsCounter(mock, &allAtms))
		DeferCleanup(srv.Close)
		s, err := NewSession(Config{Target: srv.URL, Key: mockKey, Namespace: mockNS,
			Latitude: new(halifaxLat), Longitude: new(halifaxLon), InstitutionID: new(3), Radius: new(7), Maximum: new(2)})
		Expect(err).NotTo(HaveOccurred())

		f, err := s.Facts()
		Expect(err).NotTo(HaveOccurred())
		Expect(allAtms.Load()).To(BeZero(), "discovery read ReturnAllAtms although a search point was given")
		Expect(f.Latitude).To(Equal("44.6488"))
		Expect(f.Longitude).To(Equal("-63.5752"))
		Expect(f.InstitutionID).To(Equal("3"))
		Expect(f.Radius).To(Equal(7))
		Expect(f.Maximum).To(Equal(2))
		for _, p := range []string{pLatitude, pLongitude, pInstitution, pRadius, pMaximum} {
			Expect(f.Origin).To(HaveKeyWithValue(p, "given"))
		}
		for _, p := range []string{pAddress, pCity, pProvince, pPostalCode} {
			Expect(f.Origin[p]).To(HavePrefix("of location "), "%s is the nearest location's", p)
		}
		Expect(f.Origin[pCityID]).To(HavePrefix("found by probing"))
		Expect(f.AnchorKm).To(BeNumerically("<", 7), "the nearest location is within the given radius")
		anchorInst, _ := jsonField(f.Anchor, "institution.id")
		Expect(anchorInst).NotTo(Equal("3"), "the test means a given institution other than the anchor's")

		outs := RunChecks(s, Checks())
		Expect(failed(outs)).To(BeEmpty())
		for _, name := range skipped(outs) {
			Expect(hasWSDL).To(BeFalse(), "%s skipped", name)
			Expect(name).To(HavePrefix("wsdl/"))
		}
		notes := notesOf(outs)
		Expect(notes["semantics/radius"]).To(ContainSubstring("dblLatitude 44.6488, dblLongitude -63.5752, bytRadius 7 (given)"))
		Expect(notes["semantics/institution"]).To(ContainSubstring("intInstitutionID 3 (given)"))
		Expect(notes["semantics/maximum"]).To(ContainSubstring("bytRadius 7, intMaximumAtms 2 (given)"))
		Expect(notes["semantics/maximum"]).To(MatchRegexp(`strPostalCode "[^"]+" \(of location \d+\)`))
		Expect(f.Summary()).To(MatchRegexp(`^dblLatitude 44.6488, dblLongitude -63.5752 \(given\); strAddress .*; anchor location \d+, 0\.\d{3} km from the search point$`))
	})

	It("uses a given address as it is, the parts not given from the anchor", func() {
		mock, _, cities := referenceMock()
		srv := httptest.NewServer(mock)
		DeferCleanup(srv.Close)
		s, err := NewSession(Config{Target: srv.URL, Key: mockKey, Namespace: mockNS, CityIDs: cities, City: new("Moncton"), PostalCode: new("")})
		Expect(err).NotTo(HaveOccurred())
		f, err := s.Facts()
		Expect(err).NotTo(HaveOccurred())
		Expect(f.City).To(Equal("Moncton"))
		Expect(f.PostalCode).To(BeEmpty())
		Expect(f.Origin).To(HaveKeyWithValue(pCity, "given"))
		Expect(f.Origin).To(HaveKeyWithValue(pPostalCode, "given"))
		Expect(f.Origin[pAddress]).To(HavePrefix("of location "))
		Expect(f.Origin[pCityID]).To(Equal("given"))
		Expect(f.Values(opByAddress)).To(HaveKeyWithValue(pCity, "Moncton"))
		outs := checkWith(mock, Config{Key: mockKey, Namespace: mockNS}, f, "semantics/maximum", "binding/get/ReturnAtmSearchByAddress*")
		Expect(failed(outs)).To(BeEmpty())
	})

	It("still fails a deviating mock with given values", func() {
		mock, _, cities := referenceMock()
		cfg := Config{Key: mockKey, Namespace: mockNS, CityIDs: cities, Latitude: new(halifaxLat), Longitude: new(halifaxLon), InstitutionID: new(3), Radius: new(7)}
		bad := failed(checkAll(withDeviation(mock, findDeviation("radius-ignored")), cfg, "semantics/radius"))
		Expect(bad).To(HaveKeyWithValue("semantics/radius", ContainSubstring("distance")))
		bad = failed(checkAll(withDeviation(mock, findDeviation("institution-ignored")), cfg, "semantics/institution"))
		Expect(bad).To(HaveKeyWithValue("semantics/institution", ContainSubstring("intInstitutionID 3")))
	})

	It("checks a target whose ReturnAllAtms is empty when coordinates are given", func() {
		alt := newAltServer(altNS, altKey, false)
		alt.noAllAtms = true

		bad := failed(checkAll(alt, Config{Key: altKey, Namespace: altNS}, "semantics/*"))
		Expect(bad).To(HaveKeyWithValue("semantics/radius", ContainSubstring("give a search point with --latitude and --longitude")))

		var allAtms atomic.Int32
		cfg := Config{Key: altKey, Namespace: altNS, Latitude: new(halifaxLat), Longitude: new(halifaxLon)}
		outs := checkAll(allAtmsCounter(alt, &allAtms), cfg)
		Expect(failed(outs)).To(BeEmpty())
		var wantSkipped []string
		for _, c := range Checks() {
			if strings.HasPrefix(c.Name, "wsdl/") || c.Name == "semantics/all-atms" {
				wantSkipped = append(wantSkipped, c.Name)
			}
		}
		Expect(skipped(outs)).To(ConsistOf(wantSkipped))
		for _, o := range outs {
			if o.Check.Name == "semantics/all-atms" {
				Expect(o.Err).To(MatchError(ContainSubstring("ReturnAllAtms lists no locations")))
			}
		}
		Expect(notesOf(outs)["semantics/radius"]).To(ContainSubstring("dblLatitude 44.6488, dblLongitude -63.5752"))
	})

	It("learns the location node from a search with one location", func() {
		alt := newAltServer(altNS, altKey, false)
		srv := httptest.NewServer(alt)
		DeferCleanup(srv.Close)
		s, err := NewSession(Config{Target: srv.URL, Key: altKey, Namespace: altNS})
		Expect(err).NotTo(HaveOccurred())
		a := alt.atms[10]
		one := map[string]string{pPostalCode: "", pLatitude: ff(a.Lat), pLongitude: ff(a.Lon), pRadius: "0"}
		_, jl, err := s.jsonQuery(opByCoords, one)
		Expect(err).NotTo(HaveOccurred())
		Expect(jl).To(HaveLen(1))
		x, err := s.Do(Request{Binding: HTTPGet, Op: opByCoords, Values: one})
		Expect(err).NotTo(HaveOccurred())
		root, err := resultOf(x, "")
		Expect(err).NotTo(HaveOccurred())
		// Its wrappers (SearchResult, Terminals) also occur once and hold
		// every value; the location node is the innermost that does.
		Expect(locationNode(root, jl)).To(Equal(qname{altDataNS, "Terminal"}))
	})

	It("says when no location is near the given point", func() {
		mock, _, cities := referenceMock()
		srv := httptest.NewServer(mock)
		DeferCleanup(srv.Close)
		s, err := NewSession(Config{Target: srv.URL, Key: mockKey, Namespace: mockNS, CityIDs: cities, Latitude: new(0.0), Longitude: new(0.0)})
		Expect(err).NotTo(HaveOccurred())
		_, err = s.Facts()
		Expect(err).To(MatchError(ContainSubstring("no location with coordinates within bytRadius 255 of the given point 0,0")))
	})

	It("refuses given values of the wrong type or out of range", func() {
		base := Config{Target: "http://127.0.0.1:1", Key: "k"}
		for _, tc := range []struct {
			cfg  Config
			says string
		}{
			{Config{Latitude: new(44.0)}, "latitude and longitude must be given together"},
			{Config{Longitude: new(-63.0)}, "latitude and longitude must be given together"},
			{Config{Latitude: new(90.5), Longitude: new(0.0)}, "latitude 90.5 is not within -90..90"},
			{Config{Latitude: new(0.0), Longitude: new(-181.0)}, "longitude -181 is not within -180..180"},
			{Config{Radius: new(256)}, "radius 256 is not within 0..255"},
			{Config{Radius: new(-1)}, "radius -1 is not within 0..255"},
			{Config{Maximum: new(-3)}, "maximum -3 is not within"},
		} {
			cfg := tc.cfg
			cfg.Target, cfg.Key = base.Target, base.Key
			_, err := NewSession(cfg)
			Expect(err).To(MatchError(ContainSubstring(tc.says)))
		}
		var c Config
		Expect(c.SetValue("latitude", "north")).To(MatchError(ContainSubstring(`"north" is not a number`)))
		Expect(c.SetValue("latitude", "NaN")).To(MatchError(ContainSubstring("not a number")))
		Expect(c.SetValue("latitude", "-91")).To(MatchError(ContainSubstring("not within -90..90")))
		Expect(c.SetValue("radius", "2.5")).To(MatchError(ContainSubstring("not a 32-bit integer")))
		Expect(c.SetValue("radius", "300")).To(MatchError(ContainSubstring("not within 0..255")))
		Expect(c.SetValue("institution-id", "99999999999")).To(MatchError(ContainSubstring("not a 32-bit integer")))
		Expect(c.SetValue("colour", "red")).To(HaveOccurred())
		Expect(c.SetValue("latitude", " 44.5 ")).To(Succeed())
		Expect(c.SetValue("longitude", "-63.25")).To(Succeed())
		Expect(c.SetValue("radius", "0")).To(Succeed())
		Expect(c.SetValue("postal-code", "")).To(Succeed())
		Expect(*c.Latitude).To(Equal(44.5))
		Expect(*c.Radius).To(Equal(0))
		Expect(c.PostalCode).NotTo(BeNil(), "an empty value given is given")
		Expect(c.given()).To(Equal([]string{"latitude", "longitude", "postal-code", "radius"}))
	})
})

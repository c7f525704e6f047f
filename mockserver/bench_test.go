package mockserver

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/shape"
)

// Benchmarks of the request path, the search index and result encoding.
//
//	go test -run '^$' -bench . -benchmem ./mockserver
//	go test -run '^$' -bench 'Search/1M' -benchmem ./mockserver   # builds a 1,000,000-ATM set first
//
// The 1,000,000-ATM cases run only when the -bench pattern names "1M" or
// ATMKITTEST_BENCH_1M is set, so that go test -bench . stays quick.

// benchSearchPoint is Sydney, NS: 69 locations within 25 km in the
// embedded data set, the default of atmkit bench.
var benchSearchPoint = fixtures.Coordinates{Latitude: 46.1368, Longitude: -60.1942}

func benchServer(b *testing.B, ds *fixtures.Dataset) *Server {
	b.Helper()
	if ds == nil {
		var err error
		if ds, err = fixtures.Default(); err != nil {
			b.Fatal(err)
		}
	}
	s, err := New(WithDataset(ds), WithNamespace(testNS))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// benchParams are the parameters of op in the document's order.
func benchParams(op string) [][2]string {
	var out [][2]string
	o, _ := asmx.LookupOperation(op)
	for _, p := range o.Params {
		v := map[string]string{
			asmx.ParamKey: "bench-key", asmx.ParamRadius: "25", asmx.ParamCity: "Sydney", asmx.ParamProvince: "NS",
			asmx.ParamLatitude:  asmx.FormatDouble(benchSearchPoint.Latitude),
			asmx.ParamLongitude: asmx.FormatDouble(benchSearchPoint.Longitude),
		}[p.Name]
		out = append(out, [2]string{p.Name, v})
	}
	return out
}

// benchRequest is a request of op in binding b, built once; reset rewinds
// its body for the next iteration.
type benchRequest struct {
	req  *http.Request
	body *bytes.Reader
	raw  []byte
}

func newBenchRequest(b asmx.Binding, op string) *benchRequest {
	return newBenchRequestWith(b, op, benchParams(op))
}

// newBenchRequestWith is a request of op in binding b with params, in the
// document's order.
func newBenchRequestWith(b asmx.Binding, op string, params [][2]string) *benchRequest {
	q := url.Values{}
	for _, p := range params {
		q.Set(p[0], p[1])
	}
	br := &benchRequest{}
	var req *http.Request
	switch b {
	case asmx.SOAP11, asmx.SOAP12:
		br.raw = []byte(soapEnvelope(b, op, params))
		req = httptest.NewRequest("POST", asmx.ServicePath, nil)
		req.Header.Set("Content-Type", asmx.ContentType(b))
		if b == asmx.SOAP11 {
			req.Header.Set("SOAPAction", `"`+asmx.SOAPAction(testNS, op)+`"`)
		}
	case asmx.HTTPGet:
		req = httptest.NewRequest("GET", asmx.ServicePath+"/"+op+"?"+q.Encode(), nil)
	case asmx.HTTPPost:
		br.raw = []byte(q.Encode())
		req = httptest.NewRequest("POST", asmx.ServicePath+"/"+op, nil)
		req.Header.Set("Content-Type", asmx.ContentTypeForm)
	case asmx.JSON:
		req = httptest.NewRequest("GET", asmx.JSONPath+"/"+op+"?"+q.Encode(), nil)
	}
	br.body = bytes.NewReader(br.raw)
	req.ContentLength = int64(len(br.raw))
	req.Body = io.NopCloser(br.body)
	br.req = req
	return br
}

func (br *benchRequest) reset() *http.Request {
	br.body.Reset(br.raw)
	return br.req
}

// discardWriter is a ResponseWriter that keeps nothing but the status and
// the byte count, so the handler's own cost is what is measured.
type discardWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *discardWriter) Header() http.Header { return w.h }
func (w *discardWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}
func (w *discardWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = 200
	}
	w.n += len(p)
	return len(p), nil
}

func (w *discardWriter) reset() {
	clear(w.h)
	w.status, w.n = 0, 0
}

var benchOps = []struct {
	name, op string
	bindings []asmx.Binding
}{
	{"Coordinates", asmx.OpReturnAtmSearchByCoordinates, asmx.Bindings},
	{"AllAtms", asmx.OpReturnAllAtms, asmx.XMLBindings},
	{"Institutions", asmx.OpReturnInstitutions, asmx.XMLBindings},
	{"Provinces", asmx.OpReturnProvinces, asmx.XMLBindings},
}

// BenchmarkHandler is each binding's request path through ServeHTTP, in
// process: routing, decoding, search, encoding (fixed answers: cached).
func BenchmarkHandler(b *testing.B) {
	s := benchServer(b, nil)
	for _, o := range benchOps {
		for _, bd := range o.bindings {
			b.Run(o.name+"/"+bd.String(), func(b *testing.B) {
				br := newBenchRequest(bd, o.op)
				w := &discardWriter{h: http.Header{}}
				s.ServeHTTP(w, br.reset())
				if w.status != 200 {
					b.Fatalf("got status %d, want 200", w.status)
				}
				b.SetBytes(int64(w.n))
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					w.reset()
					s.ServeHTTP(w, br.reset())
				}
			})
		}
	}
}

// BenchmarkHandlerSpread is BenchmarkHandler's search by coordinates over
// SOAP 1.1 at 256 points (every ATM's of a stride), in turn, 25 km each:
// as an app asks, rather than one request repeated, so that the cached
// locations each answer copies lie apart in memory and are not all in
// the processor's caches.
func BenchmarkHandlerSpread(b *testing.B) {
	ds, err := fixtures.Default()
	if err != nil {
		b.Fatal(err)
	}
	s := benchServer(b, ds)
	reqs := make([]*benchRequest, 256)
	stride := max(1, len(ds.ATMs)/len(reqs))
	for k := range reqs {
		c := ds.ATMs[(k*stride)%len(ds.ATMs)].Coordinates
		params := benchParams(asmx.OpReturnAtmSearchByCoordinates)
		for j := range params {
			switch params[j][0] {
			case asmx.ParamLatitude:
				params[j][1] = asmx.FormatDouble(c.Latitude)
			case asmx.ParamLongitude:
				params[j][1] = asmx.FormatDouble(c.Longitude)
			}
		}
		reqs[k] = newBenchRequestWith(asmx.SOAP11, asmx.OpReturnAtmSearchByCoordinates, params)
	}
	w := &discardWriter{h: http.Header{}}
	total := 0
	for _, br := range reqs { // every answer's locations cached, as in BenchmarkHandler
		w.reset()
		s.ServeHTTP(w, br.reset())
		if w.status != 200 {
			b.Fatalf("got status %d, want 200", w.status)
		}
		total += w.n
	}
	b.SetBytes(int64(total / len(reqs)))
	b.ReportAllocs()
	b.ResetTimer()
	k := 0
	for b.Loop() {
		w.reset()
		s.ServeHTTP(w, reqs[k%len(reqs)].reset())
		k++
	}
}

// BenchmarkHandlerLogged is BenchmarkHandler's default search with the
// request log atmkit serve writes (a text line a call, to io.Discard here):
// what the log line costs, its keys masked, beside BenchmarkHandler.
func BenchmarkHandlerLogged(b *testing.B) {
	ds, err := fixtures.Default()
	if err != nil {
		b.Fatal(err)
	}
	s, err := New(WithDataset(ds), WithNamespace(testNS), WithKeys("bench-key"),
		WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil))))
	if err != nil {
		b.Fatal(err)
	}
	for _, bd := range []asmx.Binding{asmx.SOAP11, asmx.HTTPGet} {
		b.Run("Coordinates/"+bd.String(), func(b *testing.B) {
			br := newBenchRequest(bd, asmx.OpReturnAtmSearchByCoordinates)
			w := &discardWriter{h: http.Header{}}
			s.ServeHTTP(w, br.reset())
			if w.status != 200 {
				b.Fatalf("got status %d, want 200", w.status)
			}
			b.ReportAllocs()
			for b.Loop() {
				w.reset()
				s.ServeHTTP(w, br.reset())
			}
		})
	}
}

// BenchmarkLoopback is the same request over a real loopback connection
// with net/http's client and server, from as many goroutines as GOMAXPROCS.
func BenchmarkLoopback(b *testing.B) {
	s := benchServer(b, nil)
	srv := httptest.NewServer(s)
	defer srv.Close()
	for _, o := range benchOps[:2] {
		for _, bd := range o.bindings {
			b.Run(o.name+"/"+bd.String(), func(b *testing.B) {
				tmpl := newBenchRequest(bd, o.op)
				client := srv.Client()
				client.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
				b.ReportAllocs()
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						req, err := http.NewRequest(tmpl.req.Method, srv.URL+tmpl.req.URL.RequestURI(), bytes.NewReader(tmpl.raw))
						if err != nil {
							b.Error(err)
							return
						}
						req.Header = tmpl.req.Header
						resp, err := client.Do(req)
						if err != nil {
							b.Error(err)
							return
						}
						_, _ = io.Copy(io.Discard, resp.Body)
						resp.Body.Close()
						if resp.StatusCode != 200 {
							b.Errorf("got status %d, want 200", resp.StatusCode)
							return
						}
					}
				})
			})
		}
	}
}

var (
	bigOnce   sync.Once
	bigServer *Server
	bigErr    error
)

// bigIndex is the index of a 1,000,000-ATM generated data set (seed 1),
// made once per test binary run, as bigMock serves it.
func bigIndex(b *testing.B) *data { return bigMock(b).data }

// bigMock is a mock serving the 1,000,000-ATM generated data set.
func bigMock(b *testing.B) *Server {
	b.Helper()
	bigOnce.Do(func() {
		start := time.Now()
		var ds *fixtures.Dataset
		ds, bigErr = fixtures.Generate(fixtures.GenerateOptions{Seed: 1, ATMs: 1_000_000})
		if bigErr == nil {
			bigServer, bigErr = New(WithDataset(ds), WithNamespace(testNS))
			b.Logf("generated and indexed 1,000,000 ATMs in %s", time.Since(start).Round(time.Millisecond))
		}
	})
	if bigErr != nil {
		b.Fatal(bigErr)
	}
	return bigServer
}

// want1M reports whether the 1,000,000-ATM cases should run.
func want1M() bool {
	if os.Getenv("ATMKITTEST_BENCH_1M") != "" {
		return true
	}
	f := flag.Lookup("test.bench")
	return f != nil && strings.Contains(f.Value.String(), "1M")
}

// searchPlaces are where the search benchmarks look, and how far: Halifax,
// where the generated ATMs are densest (in the generated 1M set a 10 km
// search finds a hundred times more than at 10k, as every place does: the
// generator scales every city with the data set; the same-neighbourhood set
// holds the results still), Halifax within 1 km, Corner Brook, a town on its
// own, and a point at sea 10 km from anything (the index's own overhead).
var searchPlaces = []struct {
	name string
	p    fixtures.Coordinates
	km   float64
}{
	{"Halifax", fixtures.Coordinates{Latitude: 44.6488, Longitude: -63.5752}, 10},
	{"Halifax1km", fixtures.Coordinates{Latitude: 44.6488, Longitude: -63.5752}, 1},
	{"CornerBrook", fixtures.Coordinates{Latitude: 48.95, Longitude: -57.9522}, 10},
	{"Empty", fixtures.Coordinates{Latitude: 43.9, Longitude: -62.0}, 10},
	{"Sydney25km", benchSearchPoint, 25}, // atmkit bench's default call
}

// BenchmarkSearch is a coordinate search in the index (no encoding),
// at 10,000 and 1,000,000 ATMs, with its p99 latency (p99-ns) and results
// per search (results).
func BenchmarkSearch(b *testing.B) {
	sizes := []struct {
		name string
		d    func(b *testing.B) *data
	}{
		{"10k", func(b *testing.B) *data {
			ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 1, ATMs: 10_000})
			if err != nil {
				b.Fatal(err)
			}
			return newData(ds)
		}},
		{"1M", bigIndex},
		{"1MsameNeighbourhood", sameNeighbourhoodIndex},
	}
	for _, size := range sizes {
		b.Run(size.name, func(b *testing.B) {
			if strings.HasPrefix(size.name, "1M") && !want1M() {
				b.Skip("set ATMKITTEST_BENCH_1M=1 or name 1M in -bench to run")
			}
			d := size.d(b)
			for _, pl := range searchPlaces {
				b.Run(pl.name, func(b *testing.B) {
					benchNear(b, d, pl.p, pl.km)
				})
			}
		})
	}
}

// sameNeighbourhoodIndex is the index of a data set of about 1,000,000 ATMs
// that holds, within 25 km of every search place, exactly the ATMs of the
// 10,000-ATM set, and elsewhere those of the 1,000,000-ATM set: the same
// searches find the same results as at 10k, among 100 times more ATMs. It
// measures what the grid costs as the data set grows, with the result count
// held still (the plain 1M case grows the results a hundredfold too).
func sameNeighbourhoodIndex(b *testing.B) *data {
	b.Helper()
	big := bigIndex(b).ds
	small, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 1, ATMs: 10_000})
	if err != nil {
		b.Fatal(err)
	}
	nearPlace := func(c fixtures.Coordinates) bool {
		for _, pl := range searchPlaces {
			if haversine(c, pl.p) <= 25 {
				return true
			}
		}
		return false
	}
	ds := *big
	ds.ATMs = make([]fixtures.ATM, 0, len(big.ATMs))
	for _, a := range small.ATMs {
		if nearPlace(a.Coordinates) {
			ds.ATMs = append(ds.ATMs, a)
		}
	}
	kept := len(ds.ATMs)
	for _, a := range big.ATMs {
		if !nearPlace(a.Coordinates) {
			ds.ATMs = append(ds.ATMs, a)
		}
	}
	for i := range ds.ATMs {
		ds.ATMs[i].ID = i + 1
	}
	b.Logf("%d ATMs: %d of the 10k set near the search places, the rest of the 1M set elsewhere", len(ds.ATMs), kept)
	return newData(&ds)
}

// benchNear runs the search within km of p, and reports the p99 of single
// searches and the cost per result.
func benchNear(b *testing.B, d *data, p fixtures.Coordinates, km float64) {
	b.ReportAllocs()
	var lat []time.Duration
	n := 0
	sc := new(scratch) // as a request's, recycled
	for b.Loop() {
		t0 := time.Now()
		n = len(d.search(p, km, -1, sc))
		lat = append(lat, time.Since(t0))
	}
	reportP99(b, lat)
	b.ReportMetric(float64(n), "results")
	if n > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/result")
	}
}

// reportP99 reports the 99th percentile of single operations' latencies.
func reportP99(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)*99/100]), "p99-ns")
}

// halifax is the centre of Halifax, where the generated ATMs are densest.
var halifax = fixtures.Coordinates{Latitude: 44.6488, Longitude: -63.5752}

// BenchmarkNearest is the 10-nearest search within 25 km of Halifax
// (ReturnAtmSearchByAddressWithMaximum, intMaximumAtms 10) at 10,000 and
// 1,000,000 ATMs: the search in the index alone (Index) and the whole SOAP
// 1.1 request through ServeHTTP, geocoding a postal code known in both
// data sets (Handler), with the p99 of single requests. Its cost does not
// grow with the data set, nor with the 300,000 ATMs within 25 km at 1M.
//
//	go test -run '^$' -bench 'Nearest/(10k|1M)' -benchtime 2s ./mockserver
func BenchmarkNearest(b *testing.B) {
	small, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 1, ATMs: 10_000})
	if err != nil {
		b.Fatal(err)
	}
	// The same postal code at both sizes: the 1M set is made first.
	var big *Server
	if want1M() {
		big = bigMock(b)
	}
	postal := halifaxPostalCode(b, small, big)
	var smallServer *Server
	sizes := []struct {
		name string
		s    func(b *testing.B) *Server
	}{
		{"10k", func(b *testing.B) *Server {
			if smallServer == nil {
				smallServer = benchServer(b, small)
			}
			return smallServer
		}},
		{"1M", bigMock},
	}
	for _, size := range sizes {
		b.Run(size.name, func(b *testing.B) {
			if size.name == "1M" && !want1M() {
				b.Skip("set ATMKITTEST_BENCH_1M=1 or name 1M in -bench to run")
			}
			s := size.s(b)
			b.Run("Index", func(b *testing.B) {
				from := newPoint(halifax, 0, 0)
				var hits []hit
				var lat []time.Duration
				b.ReportAllocs()
				for b.Loop() {
					t0 := time.Now()
					hits = s.data.tree.nearest(&from, 25, 10, hits)
					lat = append(lat, time.Since(t0))
				}
				if len(hits) != 10 {
					b.Fatalf("got %d results, want 10", len(hits))
				}
				reportP99(b, lat)
			})
			b.Run("Handler", func(b *testing.B) {
				params := benchParams(asmx.OpReturnAtmSearchByAddressWithMaximum)
				for i, p := range params {
					switch p[0] {
					case asmx.ParamPostalCode:
						params[i][1] = postal
					case asmx.ParamMaximumAtms:
						params[i][1] = "10"
					case asmx.ParamCity, asmx.ParamProvince:
						params[i][1] = ""
					}
				}
				br := newBenchRequestWith(asmx.SOAP11, asmx.OpReturnAtmSearchByAddressWithMaximum, params)
				w := &discardWriter{h: http.Header{}}
				s.ServeHTTP(w, br.reset())
				if w.status != 200 {
					b.Fatalf("got status %d, want 200", w.status)
				}
				var lat []time.Duration
				b.SetBytes(int64(w.n))
				b.ReportAllocs()
				for b.Loop() {
					w.reset()
					t0 := time.Now()
					s.ServeHTTP(w, br.reset())
					lat = append(lat, time.Since(t0))
				}
				reportP99(b, lat)
			})
		})
	}
}

// halifaxPostalCode is the postal code of the first ATM in Halifax of
// small (in id order) that big (if any) also knows, so that both sizes are
// asked the same question.
func halifaxPostalCode(b *testing.B, small *fixtures.Dataset, big *Server) string {
	for _, a := range small.ATMs {
		if a.Address.City != "Halifax" || a.Address.PostalCode == "" {
			continue
		}
		if big != nil {
			if _, ok := big.data.postal.find(appendNormPostal(nil, a.Address.PostalCode)); !ok {
				continue
			}
		}
		return a.Address.PostalCode
	}
	b.Fatal("no postal code of Halifax in the data sets")
	return ""
}

// encodeLocations appends the XML result of a coordinate search in binding
// b, without the SOAP envelope or the XML declaration.
func encodeLocations(s *Server, dst []byte, b asmx.Binding, a answer) []byte {
	w := s.writers[coordinatesOp][b].(*xmlWriter)
	dst = w.resultHead(dst, a)
	dst = w.items(dst, a, 0, a.n)
	return w.resultTail(dst, a)
}

// coordinatesOp is ReturnAtmSearchByCoordinates.
var coordinatesOp, _ = asmx.LookupOperation(asmx.OpReturnAtmSearchByCoordinates)

// BenchmarkEncode is result encoding alone: the 69 locations of the default
// search, as the XML node and as the JSON object.
func BenchmarkEncode(b *testing.B) {
	s := benchServer(b, nil)
	l := locationList{atms: s.data.near(benchSearchPoint, 25), point: benchSearchPoint, hasPoint: true}
	if len(l.atms) == 0 {
		b.Fatal("no locations")
	}
	a := answer{kind: locationItems, n: len(l.atms), locationList: l}
	js := jsonWriter{d: s.data}
	for _, c := range []struct {
		name string
		enc  func([]byte) []byte
	}{
		{"XML", func(dst []byte) []byte { return encodeLocations(s, dst, asmx.HTTPGet, a) }},
		{"JSON", func(dst []byte) []byte { return js.tail(js.items(js.head(dst, a), a, 0, a.n), a) }},
		{"SOAP11", func(dst []byte) []byte {
			dst = asmx.AppendSOAPResponseHead(dst, asmx.SOAP11, testNS, asmx.OpReturnAtmSearchByCoordinates)
			dst = encodeLocations(s, dst, asmx.SOAP11, a)
			return asmx.AppendSOAPResponseTail(dst, asmx.OpReturnAtmSearchByCoordinates)
		}},
	} {
		b.Run(fmt.Sprintf("%s/%d", c.name, len(l.atms)), func(b *testing.B) {
			buf := c.enc(nil)
			b.SetBytes(int64(len(buf)))
			b.ReportAllocs()
			for b.Loop() {
				buf = c.enc(buf[:0])
			}
		})
	}
}

// BenchmarkEncodeShapes is the encoding of a whole answer of the default
// search (69 locations) in the layouts of the reference deployment's
// sites: typed results with attributes, a DataSet (its schema, and
// each row with its nested languages, cached per ATM with holes for its
// numbers), and a DataSet whose ATMs' rows are nested in their banks'
// (groupsets: put in the order of their groups, each group's row around
// them). Compare with BenchmarkEncode, the built-in shape's node.
//
//	go test -run '^$' -bench EncodeShapes -benchmem ./mockserver
func BenchmarkEncodeShapes(b *testing.B) {
	ds, err := fixtures.Default()
	if err != nil {
		b.Fatal(err)
	}
	for _, site := range []string{"attrs", "dataset", "groupsets"} {
		sh, err := shape.Load("../shape/testdata/" + site + ".yaml")
		if err != nil {
			b.Fatal(err)
		}
		s, err := New(WithDataset(ds), WithNamespace(testNS), WithShape(sh))
		if err != nil {
			b.Fatal(err)
		}
		l := locationList{atms: s.data.near(benchSearchPoint, 25), point: benchSearchPoint, hasPoint: true}
		for _, bd := range []asmx.Binding{asmx.SOAP11, asmx.HTTPGet} {
			w := s.writers[coordinatesOp][bd]
			a := answer{w: w, kind: locationItems, n: len(l.atms), locationList: l, sc: &scratch{}}
			b.Run(fmt.Sprintf("%s/%s/%d", site, bd, a.n), func(b *testing.B) {
				a.inGroups()
				buf := appendBody(nil, a)
				b.SetBytes(int64(len(buf)))
				b.ReportAllocs()
				for b.Loop() {
					a.atms = l.atms
					a.inGroups()
					buf = appendBody(buf[:0], a)
				}
			})
		}
	}
}

// BenchmarkSortWithin is sorting the hits of a search within a radius
// alone: atmkit bench's default call on the embedded data set (69 hits),
// and two places of the 10k set (146 and 2,733 hits).
func BenchmarkSortWithin(b *testing.B) {
	def, err := fixtures.Default()
	if err != nil {
		b.Fatal(err)
	}
	ds10k, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 1, ATMs: 10_000})
	if err != nil {
		b.Fatal(err)
	}
	d, d10k := newData(def), newData(ds10k)
	for _, c := range []struct {
		name string
		d    *data
		p    fixtures.Coordinates
		km   float64
	}{{"default/Sydney25km", d, benchSearchPoint, 25}, {"10k/CornerBrook", d10k, searchPlaces[2].p, 10}, {"10k/Halifax", d10k, halifax, 10}} {
		from := newPoint(c.p, 0, 0)
		found := c.d.tree.within(&from, c.km, nil)
		maxHav := newRadius(c.km).outer
		hits := make([]hit, len(found))
		sc := new(scratch)
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				copy(hits, found)
				sortWithin(hits, maxHav, sc)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(found)), "ns/hit")
		})
	}
}

package cassettes_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/refdeploy"
	"github.com/atmkit/atmkit/mockserver"
	"github.com/atmkit/atmkit/shape"
	"github.com/atmkit/atmkit/shape/learn"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
)

// A cassette recorded from the reference ASMX deployment (a typed service on
// Mono, a legacy site of XmlElement nodes, a DataSet and attribute values, a
// site of DataSets and one of attribute-valued typed results) replays every
// interaction in its own binding byte for byte, in the other SOAP version
// without flags, and over HTTP GET/POST with the shape learned from the
// cassette or from the WSDL the cassette holds.

// refSite is a site of the reference deployment and the calls recorded from it.
type refSite struct {
	name    string // the site: refdeploy.Root, or the directory served at /name
	ns, key string
	calls   []query
	// trim is what the committed testdata keeps of a recording: a few
	// operations, the WSDL and the key rejections.
	trim []string
}

var refSites = []refSite{
	{refdeploy.Root, refdeploy.Namespace, refdeploy.Key, []query{
		{Op: asmx.OpReturnAllAtms},
		{Op: asmx.OpReturnAtmSearchByAddress, Params: [][2]string{{"strAddress", ""}, {"strCity", "Halifax"}, {"strProvince", "NS"}, {"strPostalCode", ""}, {"bytRadius", "5"}}},
		{Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "44.6488"}, {"dblLongitude", "-63.5752"}, {"bytRadius", "3"}}},
		{Op: asmx.OpReturnAtmSearchByAddressWithMaximum, Params: [][2]string{{"strAddress", ""}, {"strCity", "Moncton"}, {"strProvince", "NB"}, {"strPostalCode", ""}, {"bytRadius", "10"}, {"intMaximumAtms", "3"}}},
		{Op: asmx.OpReturnAtmSearchByInstitution, Params: [][2]string{{"intInstitutionID", "300"}}},
		{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "21"}}},
		{Op: asmx.OpReturnInstitutions},
		{Op: asmx.OpReturnProvinces},
	}, []string{asmx.OpReturnAtmSearchByCoordinates, asmx.OpReturnInstitutions, asmx.OpReturnProvinces}},
	{refdeploy.Legacy.Name, refdeploy.Legacy.Namespace, refdeploy.Legacy.Key, []query{
		{Op: asmx.OpReturnAllAtms},
		{Op: asmx.OpReturnAtmSearchByAddress, Params: [][2]string{{"strAddress", ""}, {"strCity", "Summerside"}, {"strProvince", "PE"}, {"strPostalCode", ""}, {"bytRadius", "5"}}},
		{Op: asmx.OpReturnAtmSearchByCoordinates, Params: [][2]string{{"strPostalCode", ""}, {"dblLatitude", "46.413374"}, {"dblLongitude", "-63.770972"}, {"bytRadius", "1"}}},
		{Op: asmx.OpReturnAtmSearchByAddressWithMaximum, Params: [][2]string{{"strAddress", ""}, {"strCity", "Summerside"}, {"strProvince", "PE"}, {"strPostalCode", ""}, {"bytRadius", "10"}, {"intMaximumAtms", "2"}}},
		{Op: asmx.OpReturnAtmSearchByInstitution, Params: [][2]string{{"intInstitutionID", "9"}}},
		{Op: asmx.OpReturnAtmSearchByCity, Params: [][2]string{{"intCityID", "8"}}},
		{Op: asmx.OpReturnInstitutions},
		{Op: asmx.OpReturnProvinces},
	}, []string{asmx.OpReturnAtmSearchByCoordinates, asmx.OpReturnInstitutions, asmx.OpReturnProvinces}},
	{refdeploy.DataSets.Name, refdeploy.DataSets.Namespace, refdeploy.DataSets.Key, typedCalls(), []string{asmx.OpReturnAtmSearchByCoordinates, asmx.OpReturnInstitutions, asmx.OpReturnProvinces}},
	{refdeploy.Attrs.Name, refdeploy.Attrs.Namespace, refdeploy.Attrs.Key, typedCalls(), []string{asmx.OpReturnAtmSearchByCoordinates, asmx.OpReturnInstitutions, asmx.OpReturnProvinces}},
}

// typedCalls are the calls of the typed site's data: the dataset and attrs
// sites hold the same.
func typedCalls() []query {
	var out []query
	for _, c := range refdeploy.Calls {
		if c.Op == asmx.OpReturnAtmSearchByCoordinates && len(out) > 0 && out[len(out)-1].Op == c.Op {
			continue // one search by coordinates, as the other sites record
		}
		out = append(out, query{Op: c.Op, Params: c.Params})
	}
	return out
}

// The key the replaying mock accepts, and one it rejects.
const (
	replayKey = "replay-key-3141"
	wrongKey  = "not-the-key-2718"
)

// TestReferenceRecordReplay records every operation in every binding from
// both sites of the reference deployment, with a wrong key first, and
// replays the cassette in every binding (recordAndReplay). With -update it
// rewrites the trimmed copies in testdata that TestReferenceCassettes
// replays where Mono is missing.
func TestReferenceRecordReplay(t *testing.T) {
	t.Parallel()
	d := refdeploy.Shared(t)
	for _, site := range refSites {
		t.Run(site.name, func(t *testing.T) {
			recordAndReplay(t, d, site, "reference-")
		})
	}
}

// TestReferenceCassettes replays the trimmed recordings of the reference
// deployment in testdata (rewritten by TestReferenceRecordReplay -update),
// with the shape learned from the whole deployment.
func TestReferenceCassettes(t *testing.T) {
	t.Parallel()
	learned := map[string]string{refdeploy.Root: "reference-learned.yaml", refdeploy.DataSets.Name: "dataset-learned.yaml",
		refdeploy.Attrs.Name: "attrs-learned.yaml"}
	for _, site := range refSites {
		t.Run(site.name, func(t *testing.T) {
			var s *shape.Shape
			if f, ok := learned[site.name]; ok {
				var err error
				if s, err = shape.Load(filepath.Join("..", "shape", "learn", "testdata", f)); err != nil {
					t.Fatal(err)
				}
			}
			replayMatrix(t, site, filepath.Join("testdata", "reference-"+site.name+".yaml"), s)
		})
	}
}

// recordAndReplay records every call of site from d (recordSite) into a
// new cassette, which must hold what the deployment answered, as it
// answered, and replays it in every binding (replayMatrix) with the shape
// learned from it. With -update it rewrites the trimmed copy in testdata,
// named prefix and the site's name.
func recordAndReplay(t *testing.T, d *refdeploy.Deployment, site refSite, prefix string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), site.name+".yaml")
	direct := recordSite(t, d, site, path)
	got := recordedCalls(t, path)
	if len(got) != len(direct) {
		t.Fatalf("the cassette holds %d calls, want %d", len(got), len(direct))
	}
	for k, c := range got {
		if c.status != direct[k].status || c.ct != direct[k].ct || c.body != direct[k].body {
			t.Errorf("%s over %s: the cassette holds %d %q %.80q, the deployment answered %d %q %.80q",
				c.q, c.b, c.status, c.ct, c.body, direct[k].status, direct[k].ct, direct[k].body)
		}
	}
	replayMatrix(t, site, path, learnShape(t, path))
	if *update {
		trimmed := filterCassette(t, path, "trimmed", func(e cassettes.Entry, i *cassette.Interaction) bool {
			return isWSDL(e) || cassettes.KeyRejected(i) || slicesContains(site.trim, e.Operation)
		})
		writeCassette(t, filepath.Join("testdata", prefix+site.name+".yaml"), readCassette(t, trimmed))
	}
}

// recordSite records site's calls in every binding through the recording
// proxy: ReturnProvinces with a wrong key first (over GET and SOAP 1.1),
// then every call with the right key, then the WSDL. It returns what the
// deployment answered to the right key, in order.
func recordSite(t *testing.T, d *refdeploy.Deployment, site refSite, path string) []recordedCall {
	t.Helper()
	rec, proxy := recordingProxy(t, d.SiteURL(site.name), path, cassettes.WithHook(cassettes.BeforeSave, normalize))
	send := func(b asmx.Binding, q query, key string) recordedCall {
		resp, err := proxy.Client().Do(requestNS(t, proxy.URL, site.ns, b, q, key, false))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		return recordedCall{b: b, q: q, status: resp.StatusCode, ct: resp.Header.Get("Content-Type"), body: mustRead(t, resp)}
	}
	provinces := query{Op: asmx.OpReturnProvinces}
	for _, b := range []asmx.Binding{asmx.HTTPGet, asmx.SOAP11} {
		if c := send(b, provinces, wrongKey); c.status != 500 {
			t.Fatalf("a wrong key over %s: status %d, want 500: %s", b, c.status, c.body)
		}
	}
	var direct []recordedCall
	for _, q := range site.calls {
		op, _ := asmx.LookupOperation(q.Op)
		for _, b := range asmx.Bindings {
			if b == asmx.JSON && !op.JSON {
				continue
			}
			c := send(b, q, site.key)
			if c.status != 200 {
				t.Fatalf("%s over %s: status %d: %.300s", q, b, c.status, c.body)
			}
			direct = append(direct, c)
		}
	}
	if status, _ := do(t, proxy.Client(), mustGet(t, proxy.URL+asmx.ServicePath+"?WSDL")); status != 200 {
		t.Fatalf("the WSDL: status %d", status)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	assertNoKey(t, path)
	return direct
}

// mustRead reads a response's body.
func mustRead(t *testing.T, resp *http.Response) string {
	t.Helper()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// recordedCall is a call of a cassette and its recorded answer.
type recordedCall struct {
	b      asmx.Binding
	q      query
	status int
	ct     string
	body   string
}

// recordedCalls lists the calls a cassette holds with their answers, key
// rejections left out.
func recordedCalls(t *testing.T, path string) []recordedCall {
	t.Helper()
	list := readCassette(t, path)
	entries, err := cassettes.List(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []recordedCall
	for k, e := range entries {
		if e.Binding == "" || cassettes.KeyRejected(list[k]) {
			continue
		}
		b, err := asmx.ParseBinding(e.Binding)
		if err != nil {
			t.Fatal(err)
		}
		r := list[k].Response
		out = append(out, recordedCall{b: b, q: query{Op: e.Operation, Params: e.Params}, status: r.Code, ct: r.Headers.Get("Content-Type"), body: r.Body})
	}
	return out
}

func isWSDL(e cassettes.Entry) bool {
	return e.Binding == "" && strings.HasSuffix(e.Operation, "?WSDL")
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// filterCassette writes the interactions of the cassette at path that keep
// accepts into a new cassette next to it, and returns its path.
func filterCassette(t *testing.T, path, name string, keep func(cassettes.Entry, *cassette.Interaction) bool) string {
	t.Helper()
	list := readCassette(t, path)
	entries, err := cassettes.List(path)
	if err != nil {
		t.Fatal(err)
	}
	var kept []*cassette.Interaction
	for k, i := range list {
		if keep(entries[k], i) {
			kept = append(kept, i)
		}
	}
	out := filepath.Join(t.TempDir(), name+".yaml")
	writeCassette(t, out, kept)
	return out
}

// learnShape learns the shape of the deployment recorded at path as atmkit
// shape learn --cassette does: from its recorded WSDL and answers.
func learnShape(t *testing.T, path string) *shape.Shape {
	t.Helper()
	recs, err := cassettes.Recordings(path)
	if err != nil {
		t.Fatal(err)
	}
	var in learn.Input
	for _, r := range recs {
		switch {
		case r.IsWSDL() && r.Status == 200:
			in.WSDL = []byte(r.Body)
		case r.Binding != "":
			in.Samples = append(in.Samples, learn.Sample{Binding: r.Binding, Op: r.Operation, Query: fmt.Sprint(r.Params),
				Status: r.Status, Body: []byte(r.Body), Where: fmt.Sprint(r.ID)})
		}
	}
	sh, _, err := learn.Learn(in)
	if err != nil {
		t.Fatalf("learn the shape: %v", err)
	}
	return sh
}

// replayMatrix replays the cassette at path, recorded from site (every
// call in every binding, key rejections, the WSDL), from whole and from
// parts of it, and checks every call in every binding against what the
// deployment answered in that binding. sh is the shape learned from it
// (nil: none, the legacy site).
func replayMatrix(t *testing.T, site refSite, path string, sh *shape.Shape) {
	calls := recordedCalls(t, path)
	want := map[string]recordedCall{} // question and binding → the recorded answer
	var questions []query
	for _, c := range calls {
		k := fmt.Sprint(c.q, c.b)
		if _, dup := want[k]; dup {
			continue
		}
		if _, seen := want[fmt.Sprint(c.q, asmx.SOAP11)]; !seen && c.b == asmx.SOAP11 {
			questions = append(questions, c.q)
		}
		want[k] = c
	}
	if len(questions) == 0 {
		t.Fatal("no SOAP 1.1 call in the cassette")
	}
	only := func(bs ...asmx.Binding) func(cassettes.Entry, *cassette.Interaction) bool {
		return func(e cassettes.Entry, i *cassette.Interaction) bool {
			for _, b := range bs {
				if e.Binding == b.String() {
					return true
				}
			}
			return false
		}
	}
	withWSDL := func(keep func(cassettes.Entry, *cassette.Interaction) bool) func(cassettes.Entry, *cassette.Interaction) bool {
		return func(e cassettes.Entry, i *cassette.Interaction) bool { return isWSDL(e) || keep(e, i) }
	}
	soap11 := filterCassette(t, path, "soap11", only(asmx.SOAP11))
	soap11WSDL := filterCassette(t, path, "soap11-wsdl", withWSDL(only(asmx.SOAP11)))
	get := filterCassette(t, path, "get", only(asmx.HTTPGet))

	// typedOver reports whether an operation's result is typed (the GET
	// root is not the element <OpResult> holds): only those need a root.
	typedOver := func(q query) bool {
		s, g := want[fmt.Sprint(q, asmx.SOAP11)], want[fmt.Sprint(q, asmx.HTTPGet)]
		root := strings.SplitN(strings.SplitN(g.body, "?>\n<", 2)[1], " ", 2)[0]
		root = strings.SplitN(root, ">", 2)[0]
		return !strings.Contains(s.body, "Result><"+root+" ") && !strings.Contains(s.body, "Result><"+root+">")
	}
	scenarios := []struct {
		name  string
		path  string
		shape *shape.Shape
		// gap returns what a call in b must be answered with instead of the
		// recorded answer: a substring of the fault ("" for the answer).
		gap func(q query, b asmx.Binding) string
	}{
		{"whole", path, nil, func(query, asmx.Binding) string { return "" }},
		{"soap11 only", soap11, nil, func(q query, b asmx.Binding) string {
			switch {
			case b.IsSOAP():
				return ""
			case b == asmx.JSON:
				return "JSON answers come only from JSON recordings"
			case strings.Contains(want[fmt.Sprint(q, asmx.SOAP11)].body, "<diffgr:diffgram"):
				return "as a DataSet"
			case typedOver(q):
				return "as a typed result; pass --shape to serve it over " + b.String()
			}
			return "" // a node is its own root
		}},
		{"soap11 with the recorded WSDL", soap11WSDL, nil, func(q query, b asmx.Binding) string {
			if b == asmx.JSON {
				return "JSON answers come only from JSON recordings"
			}
			return ""
		}},
		{"get only", get, nil, func(q query, b asmx.Binding) string {
			if b == asmx.JSON {
				return "JSON answers come only from JSON recordings"
			}
			return ""
		}},
	}
	if sh != nil {
		scenarios = append(scenarios, struct {
			name  string
			path  string
			shape *shape.Shape
			gap   func(q query, b asmx.Binding) string
		}{"soap11 with the learned shape", soap11, sh, func(q query, b asmx.Binding) string {
			if b == asmx.JSON {
				return "JSON answers come only from JSON recordings"
			}
			return ""
		}})
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			ix, err := cassettes.LoadIndex([]string{sc.path})
			if err != nil {
				t.Fatal(err)
			}
			opts := []mockserver.Option{mockserver.WithReplay(ix, mockserver.MissFault), mockserver.WithNamespace(site.ns), mockserver.WithKeys(replayKey)}
			if sc.shape != nil {
				opts = append(opts, mockserver.WithShape(sc.shape))
			}
			h, err := mockserver.New(opts...)
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(h)
			defer srv.Close()
			gaps := map[string]string{}
			for _, g := range ix.Gaps(sc.shape, site.ns) {
				gaps[g.Operation+" "+g.Binding.String()] = g.Reason
			}
			for _, q := range questions {
				op, _ := asmx.LookupOperation(q.Op)
				for _, b := range asmx.Bindings {
					if b == asmx.JSON && !op.JSON {
						continue
					}
					rec, ok := want[fmt.Sprint(q, b)]
					if !ok {
						t.Fatalf("%s over %s: not in the whole cassette", q, b)
					}
					status, ct, body := sendReplay(t, srv, site.ns, b, q, replayKey)
					gap := sc.gap(q, b)
					wantBody := rec.body
					if strings.HasPrefix(sc.name, "soap11 only") || strings.HasPrefix(sc.name, "soap11 with the learned") {
						wantBody = rewrapLineEnds(b, rec.body)
					}
					switch {
					case gap == "" && (status != rec.status || ct != rec.ct || body != wantBody):
						t.Errorf("%s over %s: got %d %q, want the recorded %d %q; %s", q, b, status, ct, rec.status, rec.ct, firstDifference(body, wantBody))
					case gap != "" && (status != 500 || !strings.Contains(body, gap)):
						t.Errorf("%s over %s: got %d %.300q, want a fault saying %q", q, b, status, body, gap)
					case gap != "" && !strings.Contains(gaps[q.Op+" "+b.String()], gap):
						t.Errorf("%s over %s: Gaps says %q, want %q", q, b, gaps[q.Op+" "+b.String()], gap)
					case gap == "" && gaps[q.Op+" "+b.String()] != "":
						t.Errorf("%s over %s: served, but Gaps says %q", q, b, gaps[q.Op+" "+b.String()])
					}
				}
			}
			if sc.name == "whole" {
				checkRejections(t, srv, site, ix, path)
			}
		})
	}
}

// checkRejections: the recorded key rejections answer only keys the mock
// rejects, as recorded, in their binding; the mock's own key fault answers
// elsewhere; accepted keys always get the answer.
func checkRejections(t *testing.T, srv *httptest.Server, site refSite, ix *cassettes.Index, path string) {
	t.Helper()
	if st := ix.Stats(); st.KeyRejections != 2 {
		t.Errorf("got %d key rejections, want 2", st.KeyRejections)
	}
	list := readCassette(t, path)
	rejections := map[string]*cassette.Interaction{}
	for _, i := range list {
		if cassettes.KeyRejected(i) {
			b := asmx.HTTPGet
			if i.Request.Method == http.MethodPost {
				b = asmx.SOAP11
			}
			rejections[b.String()] = i
		}
	}
	provinces := query{Op: asmx.OpReturnProvinces}
	for _, b := range []asmx.Binding{asmx.HTTPGet, asmx.HTTPPost, asmx.SOAP11} {
		from := b
		if b == asmx.HTTPPost {
			from = asmx.HTTPGet // the same document
		}
		r := rejections[from.String()]
		if r == nil {
			t.Fatalf("no key rejection recorded over %s", from)
		}
		status, ct, body := sendReplay(t, srv, site.ns, b, provinces, wrongKey)
		if status != r.Response.Code || ct != r.Response.Headers.Get("Content-Type") || body != r.Response.Body {
			t.Errorf("a wrong key over %s: got %d %q %q, want the recorded rejection %d %q", b, status, ct, body, r.Response.Code, r.Response.Body)
		}
		if status, _, body := sendReplay(t, srv, site.ns, b, provinces, replayKey); status != 200 {
			t.Errorf("the right key over %s: got %d %.200q, want the recorded answer", b, status, body)
		}
	}
	// None recorded over SOAP 1.2: the mock's own key fault.
	status, ct, body := sendReplay(t, srv, site.ns, asmx.SOAP12, provinces, wrongKey)
	if status != 500 || ct != asmx.ContentTypeSOAP12 || strings.Contains(body, rejections[asmx.SOAP11.String()].Response.Body) {
		t.Errorf("a wrong key over soap12: got %d %q %q, want the mock's own SOAP 1.2 key fault", status, ct, body)
	}
}

// sendReplay sends q over b to a replaying mock.
func sendReplay(t *testing.T, srv *httptest.Server, ns string, b asmx.Binding, q query, key string) (int, string, string) {
	t.Helper()
	resp, err := srv.Client().Do(requestNS(t, srv.URL, ns, b, q, key, false))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("Content-Type"), mustRead(t, resp)
}

// firstDifference names where got and want part: the offset and some text
// of each around it.
func firstDifference(got, want string) string {
	k := 0
	for k < len(got) && k < len(want) && got[k] == want[k] {
		k++
	}
	from := max(k-120, 0)
	return fmt.Sprintf("they differ from byte %d (of %d, want %d):\ngot  %q\nwant %q", k, len(got), len(want), got[from:min(k+120, len(got))], want[from:min(k+120, len(want))])
}

// rewrapLineEnds is what a recorded GET/POST answer of Mono's is, re-wrapped
// from a cassette that shows no line end of the deployment's (no GET/POST
// answer, no WSDL): its lines broken with CR LF, as .NET Framework writes
// them on IIS, where Mono on Linux writes LF (a Mono difference).
func rewrapLineEnds(b asmx.Binding, body string) string {
	if b != asmx.HTTPGet && b != asmx.HTTPPost {
		return body
	}
	return mocktest.AsDotNetLines(body)
}

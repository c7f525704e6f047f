package verify_test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cassettes/internal/recordtest"
	"github.com/atmkit/atmkit/cassettes/verify"
	"github.com/atmkit/atmkit/fixtures"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/dnaeon/go-vcr.v3/recorder"
)

// recordGzipped records calls of base (a deployment that compresses)
// with go-vcr v3.2.0's own recorder, its client asking for gzip itself
// (so Go's transport does not decompress): the cassette holds the bodies
// compressed, with Content-Encoding: gzip. Its requests are then
// scrubbed, and its path returned.
func recordGzipped(t *testing.T, base string, ds *fixtures.Dataset) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "gzip")
	rec, err := recorder.NewWithOptions(&recorder.Options{CassetteName: name, Mode: recorder.ModeRecordOnly})
	if err != nil {
		t.Fatal(err)
	}
	xmlQs, jsonQs := queries(ds)
	send := func(b asmx.Binding, q query) {
		req := request(t, base, b, q, testKey)
		req.Header.Set("Accept-Encoding", "gzip")
		if status, body := do(t, rec.GetDefaultClient(), req); status != http.StatusOK {
			t.Fatalf("record %s %s: status %d: %.200q", b, q, status, body)
		}
	}
	for _, b := range asmx.XMLBindings {
		send(b, xmlQs[2])
	}
	send(asmx.JSON, jsonQs[0])
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	// The requests scrubbed, the answers left as go-vcr wrote them
	// (cassettes.ScrubFile would write them decompressed).
	path := name + ".yaml"
	list := readCassette(t, path)
	for _, i := range list {
		resp := i.Response
		i.Response = cassette.Response{}
		cassettes.Scrub(i)
		i.Response = resp
	}
	writeCassette(t, path, list)
	assertGzipped(t, path, true)
	return path
}

// assertGzipped fails unless every answer of the cassette is gzip (want)
// or none is, and an answer not marked gzip is not compressed either.
func assertGzipped(t *testing.T, path string, want bool) {
	t.Helper()
	list := readCassette(t, path)
	for _, i := range list {
		enc, body := i.Response.Headers.Get("Content-Encoding"), i.Response.Body
		gz := strings.HasPrefix(body, "\x1f\x8b")
		if (enc == "gzip") != gz || gz != want {
			t.Errorf("%s: interaction %d: Content-Encoding %q, body %.20q; want gzip %v", path, i.ID, enc, body, want)
		}
	}
}

// acceptGzip asks for gzip itself, as a gateway header (--header
// 'Accept-Encoding: gzip') would: Go's transport then leaves the answer
// compressed.
type acceptGzip struct{}

func (acceptGzip) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("Accept-Encoding", "gzip")
	return http.DefaultTransport.RoundTrip(req)
}

// TestVerifyGzipRecorded: a cassette go-vcr wrote with compressed bodies
// is verified by what the answers say, not by their compressed bytes:
// against the same deployment it has not drifted, whether the live answer
// comes compressed or not; against a drifted one, the drift found is the
// one of the service; Update writes the cassette decompressed (no
// Content-Encoding left over a text body), and the updated cassette
// verifies the same and replays.
func TestVerifyGzipRecorded(t *testing.T) {
	t.Parallel()
	deployment, standin, ds := gzipStandIn(t)
	path := recordGzipped(t, deployment.URL, ds)
	editorURL, _ := url.Parse(editor(t, standin.URL, renameResult))
	changed := httptest.NewServer(recordtest.Gzipping(httputil.NewSingleHostReverseProxy(editorURL)))
	defer changed.Close()

	for _, tc := range []struct {
		name string
		rt   http.RoundTripper
	}{{"decompressed by the transport", nil}, {"compressed", acceptGzip{}}} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustRun(t, path, deployment.URL, verify.Options{Transport: tc.rt})
			allSame(t, r)
			r = mustRun(t, path, changed.URL, verify.Options{Transport: tc.rt})
			drifted("soap11", asmx.OpReturnAtmSearchByCity, verify.StructureDrifted, "renamed to ReturnAtmSearchByCityReturn")(t, r)
			onlyIn("soap11 ReturnAtmSearchByCity", "soap12 ReturnAtmSearchByCity")(t, r)
		})
	}

	r := mustRun(t, path, changed.URL, verify.Options{Transport: acceptGzip{}})
	if _, n, err := r.Update(); err != nil || n != 2 {
		t.Fatalf("Update: %d answers replaced, %v; want 2", n, err)
	}
	list := readCassette(t, path)
	updated := 0
	for _, i := range list {
		enc, body := i.Response.Headers.Get("Content-Encoding"), i.Response.Body
		if strings.Contains(body, "ReturnAtmSearchByCityReturn") {
			updated++
		}
		if enc != "" || !strings.HasPrefix(body, "<") && !strings.HasPrefix(body, "{") {
			t.Errorf("interaction %d after Update: Content-Encoding %q, body %.80q; want every answer decompressed", i.ID, enc, body)
		}
	}
	if updated != 2 {
		t.Errorf("%d answers updated in the file, want 2", updated)
	}
	assertNoKey(t, path)
	again := mustRun(t, path, changed.URL, verify.Options{})
	allSame(t, again)
	if _, err := cassettes.LoadIndex([]string{path}); err != nil {
		t.Errorf("the updated cassette does not load for replay: %v", err)
	}
}

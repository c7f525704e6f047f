package cassettes_test

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/cassettes/internal/recordtest"
	"github.com/atmkit/atmkit/mockserver"
	"gopkg.in/dnaeon/go-vcr.v3/cassette"
	"gopkg.in/dnaeon/go-vcr.v3/recorder"
)

// gzipCall is a question asked in one binding.
type gzipCall struct {
	b asmx.Binding
	q query
}

// plainAnswers asks base each call with a client that does not accept
// gzip, failing unless it answers 200 uncompressed, and returns the
// answers.
func plainAnswers(t *testing.T, base string, calls []gzipCall) []string {
	t.Helper()
	plain := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	var answers []string
	for _, c := range calls {
		status, body := do(t, plain, request(t, base, c.b, c.q, testKey, false))
		if status != http.StatusOK || strings.Contains(body, "\x1f\x8b") {
			t.Fatalf("%s %s: the deployment answered %d %.200q to a client without gzip", c.b, c.q, status, body)
		}
		answers = append(answers, body)
	}
	return answers
}

// TestReplayOfGzipRecordedByGoVCR: a cassette go-vcr v3.2.0's own
// recorder wrote while its client asked for gzip (Accept-Encoding: gzip
// set by the client, so Go's transport does not decompress) holds the
// compressed body and Content-Encoding: gzip. Replayed, every client gets
// the answer it can read, whether it accepts gzip or not: the answer the
// deployment gave a client without gzip.
func TestReplayOfGzipRecordedByGoVCR(t *testing.T) {
	t.Parallel()
	deployment, _, ds := gzipStandIn(t)
	xmlQs, _ := queries(ds)
	calls := []gzipCall{{asmx.SOAP11, xmlQs[0]}, {asmx.SOAP12, xmlQs[2]}, {asmx.HTTPGet, xmlQs[4]}, {asmx.HTTPPost, xmlQs[1]}}
	want := plainAnswers(t, deployment.URL, calls)
	plain := &http.Client{Transport: &http.Transport{DisableCompression: true}}

	path := filepath.Join(t.TempDir(), "gzip")
	rec, err := recorder.NewWithOptions(&recorder.Options{CassetteName: path, Mode: recorder.ModeRecordOnly})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range calls {
		req := request(t, deployment.URL, c.b, c.q, testKey, false)
		req.Header.Set("Accept-Encoding", "gzip")
		status, _ := do(t, rec.GetDefaultClient(), req)
		if status != http.StatusOK {
			t.Fatalf("%s %s through go-vcr: got %d", c.b, c.q, status)
		}
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	list := readCassette(t, path+".yaml")
	for _, i := range list {
		if i.Response.Headers.Get("Content-Encoding") != "gzip" || !strings.HasPrefix(i.Response.Body, "\x1f\x8b") {
			t.Fatalf("go-vcr recorded %s with Content-Encoding %q and body %.20q: no gzip, the test tests nothing",
				i.Request.URL, i.Response.Headers.Get("Content-Encoding"), i.Response.Body)
		}
	}

	replay := replayed(t, path+".yaml", testKey)
	for _, accept := range []string{"gzip", ""} {
		for j, c := range calls {
			req := request(t, replay.URL, c.b, c.q, testKey, false)
			if accept != "" {
				req.Header.Set("Accept-Encoding", accept)
			}
			resp, err := plain.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			enc := resp.Header.Get("Content-Encoding")
			if enc == "gzip" && accept == "gzip" {
				zr, err := gzip.NewReader(bytes.NewReader(body))
				if err != nil {
					t.Fatalf("Accept-Encoding %q, %s %s: Content-Encoding gzip, but %v", accept, c.b, c.q, err)
				}
				if body, err = io.ReadAll(zr); err != nil {
					t.Fatalf("Accept-Encoding %q, %s %s: Content-Encoding gzip, but %v", accept, c.b, c.q, err)
				}
			} else if enc != "" {
				t.Errorf("Accept-Encoding %q, %s %s: got Content-Encoding %q", accept, c.b, c.q, enc)
			}
			if resp.StatusCode != http.StatusOK || string(body) != want[j] {
				t.Errorf("Accept-Encoding %q, %s %s: got %d (Content-Encoding %q) %.200q, want 200 %.200q",
					accept, c.b, c.q, resp.StatusCode, enc, body, want[j])
			}
		}
	}
}

// TestLoadIndexRefusesUndecodableBodies: a body recorded in an encoding
// replay cannot undo, or that does not decode, is refused at load, naming
// the file and the interaction; a deflate body is served decoded.
func TestLoadIndexRefusesUndecodableBodies(t *testing.T) {
	t.Parallel()
	list := readCassette(t, filepath.Join("testdata", "golden.yaml"))
	var call *cassette.Interaction
	for _, i := range list {
		if i.Response.Code == http.StatusOK && strings.Contains(i.Request.URL, asmx.ServicePath+"/") {
			call = i
			break
		}
	}
	if call == nil {
		t.Fatal("golden.yaml holds no GET or POST call")
	}
	plain := call.Response.Body
	for _, tc := range []struct {
		enc, body string
		ok        bool
	}{
		{"deflate", string(deflated(plain)), true},
		{"br", plain, false},
		{"gzip", plain, false},
		{"gzip, br", plain, false},
	} {
		call.Response.Headers = http.Header{"Content-Type": {asmx.ContentTypeXML}, "Content-Encoding": {tc.enc}}
		call.Response.Body = tc.body
		path := filepath.Join(t.TempDir(), "enc.yaml")
		writeCassette(t, path, []*cassette.Interaction{call})
		ix, err := cassettes.LoadIndex([]string{path})
		if !tc.ok {
			if !errors.Is(err, cassettes.ErrInvalidCassette) || !strings.Contains(err.Error(), path+": interaction 0") {
				t.Errorf("Content-Encoding %q: got %v, want ErrInvalidCassette naming %s and interaction 0", tc.enc, err, path)
			}
			continue
		}
		if err != nil {
			t.Fatalf("Content-Encoding %q: %v", tc.enc, err)
		}
		mock, err := mockserver.New(mockserver.WithReplay(ix, mockserver.MissFault))
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(mock)
		defer srv.Close()
		u, err := url.Parse(call.Request.URL)
		if err != nil {
			t.Fatal(err)
		}
		u.Host = strings.TrimPrefix(srv.URL, "http://")
		req, err := http.NewRequest(call.Request.Method, u.String(), strings.NewReader(call.Request.Body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header = call.Request.Headers.Clone()
		if status, body := do(t, http.DefaultClient, req); status != http.StatusOK || body != plain {
			t.Errorf("Content-Encoding %q: got %d %.200q, want 200 %.200q", tc.enc, status, body, plain)
		}
	}
}

// deflated is text compressed as Content-Encoding deflate means (zlib).
func deflated(text string) []byte {
	var b bytes.Buffer
	return compress(&b, zlib.NewWriter(&b), text)
}

// gzipped is text compressed with gzip.
func gzipped(text string) []byte {
	var b bytes.Buffer
	return compress(&b, gzip.NewWriter(&b), text)
}

// compress writes text to w, a compressor writing to b, and returns b's
// bytes once w is closed.
func compress(b *bytes.Buffer, w io.WriteCloser, text string) []byte {
	_, _ = io.WriteString(w, text)
	_ = w.Close()
	return b.Bytes()
}

// notBrotli is the body of an upstream answering with Content-Encoding
// br, which atmkit does not decode.
var notBrotli = []byte("\x1b\x10\x00\xf8\xa5\x02not really brotli")

// encodedUpstream starts an upstream answering every request with body,
// text/xml with Content-Encoding enc, closed when the test ends.
func encodedUpstream(t *testing.T, enc string, body []byte) *httptest.Server {
	t.Helper()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.Header().Set("Content-Encoding", enc)
		_, _ = w.Write(body)
	}))
	t.Cleanup(up.Close)
	return up
}

// readAnswer reads resp as a Go client does that set Accept-Encoding
// itself: a gzip body it decompresses by the header, as the answer says;
// it returns the body and the Content-Encoding.
func readAnswer(t *testing.T, resp *http.Response) (string, string) {
	t.Helper()
	defer resp.Body.Close()
	var r io.Reader = resp.Body
	enc := resp.Header.Get("Content-Encoding")
	if enc == "gzip" {
		zr, err := gzip.NewReader(resp.Body)
		if err != nil {
			t.Fatalf("Content-Encoding gzip, but %v", err)
		}
		r = zr
	}
	b, err := io.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), enc
}

// TestRecorderReplaysGzipRecorded: the Go API's Recorder replays a
// cassette whose answers are gzip-compressed (go-vcr's own recorder, or a
// Recorder, whose client asked for gzip itself) so that every Go client
// reads the answer: one that did not ask for gzip (Recorder.Client(): no
// transport of its own undoes Content-Encoding) gets it decompressed, with
// no Content-Encoding and a Content-Length that fits; one that asked gets
// an answer it reads by its headers. A body that does not decode is
// refused when the Recorder opens the cassette.
func TestRecorderReplaysGzipRecorded(t *testing.T) {
	t.Parallel()
	deployment, _, ds := gzipStandIn(t)
	xmlQs, jsonQs := queries(ds)
	calls := []gzipCall{{asmx.SOAP11, xmlQs[2]}, {asmx.HTTPGet, xmlQs[4]}, {asmx.JSON, jsonQs[0]}}
	want := plainAnswers(t, deployment.URL, calls)

	// Recorded by go-vcr, and by a Recorder, each client asking for gzip.
	dir := t.TempDir()
	vcr, err := recorder.NewWithOptions(&recorder.Options{CassetteName: filepath.Join(dir, "vcr"), Mode: recorder.ModeRecordOnly})
	if err != nil {
		t.Fatal(err)
	}
	own, err := cassettes.New(filepath.Join(dir, "own"), cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	for _, client := range []*http.Client{vcr.GetDefaultClient(), own.Client()} {
		for j, c := range calls {
			req := request(t, deployment.URL, c.b, c.q, testKey, false)
			req.Header.Set("Accept-Encoding", "gzip")
			resp, err := client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			if body, enc := readAnswer(t, resp); body != want[j] || enc != "gzip" {
				t.Fatalf("recording %s %s: got Content-Encoding %q %.100q, want the deployment's gzip answer", c.b, c.q, enc, body)
			}
		}
	}
	if err := vcr.Stop(); err != nil {
		t.Fatal(err)
	}
	if err := own.Stop(); err != nil {
		t.Fatal(err)
	}
	// The Recorder keeps what it records readable, and so scrubbed.
	list := readCassette(t, filepath.Join(dir, "own.yaml"))
	for _, i := range list {
		if enc := i.Response.Headers.Get("Content-Encoding"); enc != "" || strings.HasPrefix(i.Response.Body, "\x1f\x8b") {
			t.Errorf("the Recorder recorded interaction %d with Content-Encoding %q, body %.20q; want it decompressed", i.ID, enc, i.Response.Body)
		}
	}

	for _, name := range []string{"vcr", "own"} {
		rec, err := cassettes.New(filepath.Join(dir, name), cassettes.WithMode(cassettes.ModeReplayOnly))
		if err != nil {
			t.Fatal(err)
		}
		for _, accept := range []string{"", "gzip"} {
			for j, c := range calls {
				req := request(t, "http://replay.invalid", c.b, c.q, testKey, false)
				if accept != "" {
					req.Header.Set("Accept-Encoding", accept)
				}
				resp, err := rec.Client().Do(req)
				if err != nil {
					t.Fatalf("%s, Accept-Encoding %q, %s %s: %v", name, accept, c.b, c.q, err)
				}
				cl := resp.Header.Get("Content-Length")
				body, enc := readAnswer(t, resp)
				if body != want[j] || (accept == "" && enc != "") {
					t.Errorf("%s, Accept-Encoding %q, %s %s: got Content-Encoding %q %.100q, want %.100q", name, accept, c.b, c.q, enc, body, want[j])
				}
				if enc == "" && cl != "" && cl != strconv.Itoa(len(body)) {
					t.Errorf("%s, Accept-Encoding %q, %s %s: Content-Length %s for a body of %d bytes", name, accept, c.b, c.q, cl, len(body))
				}
			}
		}
		if err := rec.Stop(); err != nil && !errors.Is(err, cassettes.ErrNothingRecorded) {
			t.Fatal(err)
		}
	}
	// A body that does not decode is refused at New, naming the interaction.
	list = readCassette(t, filepath.Join(dir, "vcr.yaml"))
	list[1].Response.Headers.Set("Content-Encoding", "br")
	bad := filepath.Join(dir, "bad.yaml")
	writeCassette(t, bad, list)
	if _, err := cassettes.New(bad, cassettes.WithMode(cassettes.ModeReplayOnly)); !errors.Is(err, cassettes.ErrInvalidCassette) || !strings.Contains(err.Error(), "interaction 1") {
		t.Errorf("New on a body in br: got %v, want ErrInvalidCassette naming interaction 1", err)
	}
}

// gzipEcho starts a deployment that answers every call 500 with an error
// that echoes the key of the query, gzip-compressed to a client that
// accepts gzip. It stops when the test ends.
func gzipEcho(t *testing.T) *httptest.Server {
	echo := httptest.NewServer(recordtest.Gzipping(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, "<error>the key "+r.URL.Query().Get(asmx.ParamKey)+" is not valid</error>")
	})))
	t.Cleanup(echo.Close)
	return echo
}

// TestRecorderScrubsCompressedEcho: a deployment that echoes the key in
// an answer its client asked gzip-compressed: the Recorder's cassette
// holds neither the key nor the compressed body that hid it from the
// scrubbing.
func TestRecorderScrubsCompressedEcho(t *testing.T) {
	t.Parallel()
	echo := gzipEcho(t)
	path := filepath.Join(t.TempDir(), "echo.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	req := request(t, echo.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := rec.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if body, enc := readAnswer(t, resp); enc != "gzip" || !strings.Contains(body, testKey) {
		t.Fatalf("got Content-Encoding %q %q, want the echo gzip-compressed: the test tests nothing", enc, body)
	}
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	list := readCassette(t, path)
	if len(list) != 1 || strings.Contains(list[0].Response.Body, testKey) || !strings.Contains(list[0].Response.Body, "the key "+cassettes.Placeholder) {
		t.Errorf("the cassette holds the answer %.200q; want it decompressed, the key as %s", list[0].Response.Body, cassettes.Placeholder)
	}
}

// TestScrubCassetteDecompresses: a cassette go-vcr recorded while its
// client asked for gzip, from a deployment that echoes the key in its
// answer: ScrubCassette finds the key inside the compressed body, and
// the scrubbed cassette holds the answer decompressed, the key redacted
// (kept compressed, the echo would keep the key). A body that does not decode cannot be checked.
func TestScrubCassetteDecompresses(t *testing.T) {
	t.Parallel()
	echo := gzipEcho(t)
	name := filepath.Join(t.TempDir(), "echo")
	vcr, err := recorder.NewWithOptions(&recorder.Options{CassetteName: name, Mode: recorder.ModeRecordOnly})
	if err != nil {
		t.Fatal(err)
	}
	req := request(t, echo.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)
	req.Header.Set("Accept-Encoding", "gzip")
	do(t, vcr.GetDefaultClient(), req)
	if err := vcr.Stop(); err != nil {
		t.Fatal(err)
	}
	path := name + ".yaml"
	list := readCassette(t, path)
	if !strings.HasPrefix(list[0].Response.Body, "\x1f\x8b") {
		t.Fatal("go-vcr recorded no gzip body: the test tests nothing")
	}
	if res, err := cassettes.ScrubCassette(path, true); err != nil || res.Replaced < 2 {
		t.Fatalf("check: %d to replace, %v; want the request's key and the echoed one", res.Replaced, err)
	}
	if _, err := cassettes.ScrubCassette(path, false); err != nil {
		t.Fatal(err)
	}
	list = readCassette(t, path)
	if body := list[0].Response.Body; strings.Contains(body, testKey) || !strings.Contains(body, "the key "+cassettes.Placeholder) || list[0].Response.Headers.Get("Content-Encoding") != "" {
		t.Errorf("scrubbed: Content-Encoding %q, body %.200q; want it decompressed, the key as %s", list[0].Response.Headers.Get("Content-Encoding"), body, cassettes.Placeholder)
	}
	list[0].Response.Headers.Set("Content-Encoding", "br")
	writeCassette(t, path, list)
	if _, err := cassettes.ScrubCassette(path, true); !errors.Is(err, cassettes.ErrInvalidCassette) || !strings.Contains(err.Error(), "interaction 0") {
		t.Errorf("check of a body in br: got %v, want ErrInvalidCassette naming interaction 0", err)
	}
}

// TestUnaskedEncodingRefused: an upstream answering in a compression
// atmkit cannot decode (br) that the request did not accept (the recording
// proxy and serve's upstream ask for gzip or none) is refused, saying who
// should change what: the proxy answers 502 and records nothing; serve's
// upstream answers a Server fault, records nothing and forwards the call
// again. The proxy passed the compressed bytes on and recorded them, and
// the cassette was refused whole at its next use; serve's upstream served
// them as XML without their Content-Encoding, indexed and recorded them.
// A client that asks for br itself through a Recorder gets it, recorded
// as it came.
func TestUnaskedEncodingRefused(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	calls := 0 // SOAP calls: serve's upstream subtest's alone (the record subtest's are GET)
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			mu.Lock()
			calls++
			mu.Unlock()
		}
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		w.Header().Set("Content-Encoding", "br")
		_, _ = w.Write(notBrotli)
	}))
	t.Cleanup(up.Close) // after the parallel subtests
	want := "the upstream answered with Content-Encoding br, which the request did not accept (atmkit asks for gzip or no compression)"
	fix := "have the deployment, or the gateway or CDN in front of it, answer such a request uncompressed or with gzip"

	t.Run("record", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "br.yaml")
		rec, proxy := recordingProxy(t, up.URL, path)
		status, body := do(t, proxy.Client(), request(t, proxy.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false))
		if status != http.StatusBadGateway || !strings.Contains(body, want) || !strings.Contains(body, fix) || strings.Contains(body, testKey) {
			t.Errorf("through the proxy: got %d %q, want 502 saying %q and %q", status, body, want, fix)
		}
		if err := rec.Stop(); !errors.Is(err, cassettes.ErrNothingRecorded) {
			t.Errorf("Stop: got %v, want ErrNothingRecorded", err)
		}
		// Asked for by the client itself: its business, recorded as it came.
		rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
		if err != nil {
			t.Fatal(err)
		}
		req := request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)
		req.Header.Set("Accept-Encoding", "gzip, br")
		resp, err := (&http.Client{Transport: rec}).Do(req)
		if err != nil {
			t.Fatalf("a client asking for br: %v", err)
		}
		resp.Body.Close()
		if resp.Header.Get("Content-Encoding") != "br" {
			t.Errorf("a client asking for br: got Content-Encoding %q, want br", resp.Header.Get("Content-Encoding"))
		}
		if err := rec.Stop(); err != nil {
			t.Errorf("Stop: %v, want the answer recorded", err)
		}
	})

	t.Run("serve's upstream", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		path := filepath.Join(dir, "miss.yaml")
		idx, srv := onMissServer(t, cassettes.Upstream{URL: up.URL, Record: path})
		defer srv.Close()
		mu.Lock()
		before := calls
		mu.Unlock()
		for range 2 {
			status, body := do(t, srv.Client(), request(t, srv.URL, asmx.SOAP11, query{Op: asmx.OpReturnProvinces}, testKey, false))
			if status != 500 || !strings.Contains(body, want) || !strings.Contains(body, fix) || strings.Contains(body, dir) {
				t.Errorf("got %d %q, want a Server fault saying %q and %q, naming no directory", status, body, want, fix)
			}
		}
		mu.Lock()
		forwarded := calls - before
		mu.Unlock()
		if forwarded != 2 {
			t.Errorf("forwarded %d times, want 2: a refused answer is not kept", forwarded)
		}
		if err := idx.Close(); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path); err == nil {
			t.Errorf("%s was written", path)
		}
	})
}

// TestProxyDecodesWhatItAskedFor: an answer the upstream compressed with
// deflate or x-gzip (Go's transport, asking for gzip, undoes gzip alone)
// reaches the app through the recording proxy decoded, as the cassette
// holds it and replay serves it: the proxy drops the app's own
// Accept-Encoding, and the app got bytes in a compression it may not have
// asked for (a client sending none could not read the answer while
// recording, and read it on replay).
func TestProxyDecodesWhatItAskedFor(t *testing.T) {
	t.Parallel()
	text := `<?xml version="1.0" encoding="utf-8"?><string xmlns="http://tempuri.org/atmService/">Ontario</string>`
	for _, c := range []struct {
		enc  string
		body []byte
	}{{"deflate", deflated(text)}, {"x-gzip", gzipped(text)}, {"Deflate", deflated(text)}} {
		up := encodedUpstream(t, c.enc, c.body)
		path := filepath.Join(t.TempDir(), "deflate.yaml")
		rec, proxy := recordingProxy(t, up.URL, path)
		for _, ae := range []string{"", "br", "deflate"} {
			req := request(t, proxy.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)
			if ae != "" {
				req.Header.Set("Accept-Encoding", ae)
			}
			resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(b) != text || resp.Header.Get("Content-Encoding") != "" || resp.ContentLength != -1 && resp.ContentLength != int64(len(text)) {
				t.Errorf("%s, Accept-Encoding %q: got Content-Encoding %q, Content-Length %d, %q; want the answer decoded", c.enc, ae,
					resp.Header.Get("Content-Encoding"), resp.ContentLength, b)
			}
		}
		if err := rec.Stop(); err != nil {
			t.Fatal(err)
		}
		list, err := cassettes.ReadFile(path)
		if err != nil || len(list) != 1 || list[0].Response.Body != text {
			t.Errorf("%s: cassette: %d interactions (%v), want the answer decoded", c.enc, len(list), err)
		}
	}
}

// TestUpstreamDecodesDeflate: serve --on-miss upstream serves an answer
// the upstream compressed with deflate or x-gzip decoded, to this call and
// from its index to the next: the compressed bytes were served as the
// answer's text (no Content-Encoding), and indexed so.
func TestUpstreamDecodesDeflate(t *testing.T) {
	t.Parallel()
	text := `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body><ReturnProvincesResponse xmlns="http://tempuri.org/atmService/"><ReturnProvincesResult><string>Ontario</string></ReturnProvincesResult></ReturnProvincesResponse></soap:Body></soap:Envelope>`
	for _, c := range []struct {
		enc  string
		body []byte
	}{{"deflate", deflated(text)}, {"x-gzip", gzipped(text)}} {
		up := encodedUpstream(t, c.enc, c.body)
		path := filepath.Join(t.TempDir(), "miss.yaml")
		idx, srv := onMissServer(t, cassettes.Upstream{URL: up.URL, Record: path})
		defer srv.Close()
		for n := range 2 {
			status, body := do(t, srv.Client(), request(t, srv.URL, asmx.SOAP11, query{Op: asmx.OpReturnProvinces}, testKey, false))
			if status != 200 || !strings.Contains(body, "<string>Ontario</string>") {
				t.Errorf("%s, call %d: got %d %q, want the answer decoded", c.enc, n+1, status, body)
			}
		}
		if err := idx.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestUnaskedEncodingQZero: a coding the request's Accept-Encoding refuses
// by name (q=0) is not accepted, even when "*" accepts any other (RFC
// 9110, 12.5.3): such an answer is refused; one the client asked for,
// whatever the case of its name, is recorded as it came.
func TestUnaskedEncodingQZero(t *testing.T) {
	t.Parallel()
	up := encodedUpstream(t, "br", notBrotli)
	for _, c := range []struct {
		accept  string
		refused bool
	}{{"br;q=0", true}, {"*, br;q=0", true}, {"br; q=0.000, *", true}, {"*", false}, {"BR", false}, {"gzip, br;q=0.5", false}} {
		rec, err := cassettes.New(filepath.Join(t.TempDir(), "br.yaml"), cassettes.WithMode(cassettes.ModeRecordAll))
		if err != nil {
			t.Fatal(err)
		}
		req := request(t, up.URL, asmx.HTTPGet, query{Op: asmx.OpReturnProvinces}, testKey, false)
		req.Header.Set("Accept-Encoding", c.accept)
		resp, err := (&http.Client{Transport: rec}).Do(req)
		if err == nil {
			resp.Body.Close()
		}
		if refused := errors.Is(err, cassettes.ErrUnaskedEncoding); refused != c.refused {
			t.Errorf("Accept-Encoding %q: got %v, want refused %v", c.accept, err, c.refused)
		}
		_ = rec.Stop()
	}
}

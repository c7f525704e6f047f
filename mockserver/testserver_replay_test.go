package mockserver_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/fixtures"
	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/mockserver"
)

// TestNewTestServerReplay: a test server answers from cassettes loaded with
// package cassettes, and journals the misses.
func TestNewTestServerReplay(t *testing.T) {
	t.Parallel()
	ix, err := cassettes.LoadIndex([]string{"../cassettes/testdata/golden.yaml"})
	if err != nil {
		t.Fatalf("LoadIndex: %v", err)
	}
	t.Cleanup(func() { _ = ix.Close() })
	ts := mockserver.NewTestServer(t, mockserver.WithReplay(ix, mockserver.MissFault))

	get := func(op string) (int, string) {
		t.Helper()
		status, _, body := mocktest.Get(t, ts.ServiceURL()+"/"+op+"?strAtmServiceKey=k")
		return status, string(body)
	}
	if code, body := get(asmx.OpReturnProvinces); code != 200 || !strings.Contains(body, "<provinces>") {
		t.Errorf("recorded ReturnProvinces: got %d %.200q, want 200 with the recorded provinces", code, body)
	}
	if code, _ := get(asmx.OpReturnInstitutions); code != 500 {
		t.Errorf("unrecorded ReturnInstitutions: got status %d, want 500", code)
	}
	got := ts.Journal(mockserver.RequestFilter{})
	if len(got) != 2 || got[0].Error != "" || got[1].Error != asmx.KindNoRecording {
		t.Errorf("journal: got %+v, want a replayed call and a %s", got, asmx.KindNoRecording)
	}
}

// TestReplayRewrapsAsTheMockWrites: an answer recorded over GET (from a
// mock, ../cassettes/testdata/golden.yaml) and replayed over SOAP, where
// replay wraps it in ASMX's envelope, is byte for byte what the mock
// writes over SOAP for the same data, both without white space between
// tags as SoapServerProtocol writes SOAP; an answer recorded over SOAP is
// replayed as recorded, its bytes whatever they were: an indented one too.
func TestReplayRewrapsAsTheMockWrites(t *testing.T) {
	t.Parallel()
	golden := filepath.Join("..", "cassettes", "testdata", "golden.yaml")
	ix, err := cassettes.LoadIndex([]string{golden})
	if err != nil {
		t.Fatalf("LoadIndex: %v", err)
	}
	t.Cleanup(func() { _ = ix.Close() })
	replay := mockserver.NewTestServer(t, mockserver.WithReplay(ix, mockserver.MissFault))
	ds, err := fixtures.Generate(fixtures.GenerateOptions{Seed: 7, ATMs: 50}) // the data the cassette was recorded from
	if err != nil {
		t.Fatal(err)
	}
	mock := mockserver.NewTestServer(t, mockserver.WithDataset(ds))
	key := [][2]string{{asmx.ParamKey, "k"}}
	city := [][2]string{{asmx.ParamKey, "k"}, {asmx.ParamCityID, "202"}}
	for _, c := range []struct {
		b, op  string
		params [][2]string
	}{
		{"soap11", asmx.OpReturnProvinces, key}, // recorded over GET
		{"soap12", asmx.OpReturnProvinces, key},
		{"soap12", asmx.OpReturnAtmSearchByCity, city}, // recorded over SOAP 1.2
		{"soap11", asmx.OpReturnAtmSearchByCity, city},
	} {
		status, got := mocktest.Call(t, replay.URL, asmx.DefaultNamespace, c.b, c.op, c.params)
		_, want := mocktest.Call(t, mock.URL, asmx.DefaultNamespace, c.b, c.op, c.params)
		if status != 200 || !bytes.Equal(got, want) {
			t.Errorf("%s over %s: replay answered %d\n%s\nwant what the mock writes\n%s", c.op, c.b, status, got, want)
		}
		if bytes.Contains(got, []byte(">\n")) {
			t.Errorf("%s over %s: white space between tags: %.300s", c.op, c.b, got)
		}
	}

	// An indented SOAP 1.2 answer recorded (from a stand-in that indents):
	// replayed so.
	_, flat := mocktest.Call(t, mock.URL, asmx.DefaultNamespace, "soap12", asmx.OpReturnAtmSearchByCity, city)
	indented := bytes.Replace(flat, []byte("<soap:Body>"), []byte("\n  <soap:Body>\n    "), 1)
	standIn := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", asmx.ContentTypeSOAP12)
		_, _ = w.Write(indented)
	}))
	t.Cleanup(standIn.Close)
	path := filepath.Join(t.TempDir(), "indented.yaml")
	rec, err := cassettes.New(path, cassettes.WithMode(cassettes.ModeRecordAll))
	if err != nil {
		t.Fatal(err)
	}
	req, err := mocktest.NewRequest(standIn.URL, asmx.DefaultNamespace, "soap12", asmx.OpReturnAtmSearchByCity, city)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := rec.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if err := rec.Stop(); err != nil {
		t.Fatal(err)
	}
	ix2, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatalf("LoadIndex: %v", err)
	}
	t.Cleanup(func() { _ = ix2.Close() })
	replay2 := mockserver.NewTestServer(t, mockserver.WithReplay(ix2, mockserver.MissFault))
	if status, got := mocktest.Call(t, replay2.URL, asmx.DefaultNamespace, "soap12", asmx.OpReturnAtmSearchByCity, city); status != 200 || !bytes.Equal(got, indented) {
		t.Errorf("an indented SOAP recording: replay answered %d\n%.400s\nwant it as recorded\n%.400s", status, got, indented)
	}
}

package cassettes_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/cassettes"
	"github.com/atmkit/atmkit/mockserver"
)

// TestReplayErrorsAcrossBindings: a recorded error served in another
// binding is what the deployment answers there. A SOAP fault of the
// service's own SoapException becomes the HTTP GET/POST text ASMX writes
// for it (the message HTML-encoded, a line end; no type name), and an
// error that did not come from ASMX's protocol (IIS's 503 page) is served
// as recorded whatever the binding, not wrapped in a fault.
func TestReplayErrorsAcrossBindings(t *testing.T) {
	t.Parallel()
	h, err := mockserver.New(mockserver.WithKeys(testKey),
		mockserver.WithFault(mockserver.Fault{Operation: asmx.OpReturnInstitutions, SOAPFault: &mockserver.SOAPFault{Code: "Server", Text: `Database is <down> & "out"`}}),
		mockserver.WithFault(mockserver.Fault{Operation: asmx.OpReturnProvinces, Status: http.StatusServiceUnavailable}))
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(h)
	defer up.Close()
	inst := query{Op: asmx.OpReturnInstitutions}
	prov := query{Op: asmx.OpReturnProvinces}
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		do(t, proxy.Client(), request(t, proxy.URL, asmx.SOAP12, inst, testKey, false))
		do(t, proxy.Client(), request(t, proxy.URL, asmx.SOAP12, prov, testKey, false))
	})
	idx, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	mock, err := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault), mockserver.WithKeys(testKey))
	if err != nil {
		t.Fatal(err)
	}
	replay := httptest.NewServer(mock)
	defer replay.Close()
	for _, q := range []query{inst, prov} {
		for _, b := range []asmx.Binding{asmx.SOAP11, asmx.SOAP12, asmx.HTTPGet, asmx.HTTPPost} {
			want := answerOf(t, up, request(t, up.URL, b, q, testKey, false))
			got := answerOf(t, replay, request(t, replay.URL, b, q, testKey, false))
			if got != want {
				t.Errorf("%s over %s replayed:\n%s\nthe deployment answers:\n%s", q.Op, b, got, want)
			}
		}
	}
}

// answerOf is the status, content type and body of srv's answer to req.
func answerOf(t *testing.T, srv *httptest.Server, req *http.Request) string {
	t.Helper()
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.Status + " " + resp.Header.Get("Content-Type") + "\n" + string(body)
}

// TestReplayOrderPerBinding: a question recorded with several answers
// gives the n-th request in each binding the n-th answer (docs: "the
// n-th request in its binding gets the n-th answer recorded in that
// binding"): a retry test recorded over SOAP (a fault, then the answer)
// replays the same to a SOAP client whether or not a GET client asked the
// question first.
func TestReplayOrderPerBinding(t *testing.T) {
	t.Parallel()
	h, err := mockserver.New(mockserver.WithKeys(testKey),
		mockserver.WithFault(mockserver.Fault{Operation: asmx.OpReturnProvinces, Times: 1, SOAPFault: &mockserver.SOAPFault{Code: "Server", Text: "Try again"}}))
	if err != nil {
		t.Fatal(err)
	}
	up := httptest.NewServer(h)
	defer up.Close()
	prov := query{Op: asmx.OpReturnProvinces}
	var recordedAnswers []string
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
		for range 2 {
			recordedAnswers = append(recordedAnswers, answerOf(t, proxy, request(t, proxy.URL, asmx.SOAP11, prov, testKey, false)))
		}
	})
	if recordedAnswers[0] == recordedAnswers[1] {
		t.Fatalf("recorded the same answer twice:\n%s", recordedAnswers[0])
	}
	idx, err := cassettes.LoadIndex([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	mock, err := mockserver.New(mockserver.WithReplay(idx, mockserver.MissFault), mockserver.WithKeys(testKey))
	if err != nil {
		t.Fatal(err)
	}
	replay := httptest.NewServer(mock)
	defer replay.Close()
	if got := answerOf(t, replay, request(t, replay.URL, asmx.HTTPGet, prov, testKey, false)); !strings.Contains(got, "Try again") {
		t.Errorf("the first GET request got\n%s\nwant the first answer (the fault) re-served over GET", got)
	}
	for i, want := range append(recordedAnswers, recordedAnswers[1]) {
		if got := answerOf(t, replay, request(t, replay.URL, asmx.SOAP11, prov, testKey, false)); got != want {
			t.Errorf("SOAP request %d got\n%s\nwant\n%s", i, got, want)
		}
	}
}

// TestLoadIndexRefusesBadStatus: a cassette whose response code no HTTP
// answer has (a hand edit: 0, 2000, 99, 100) is refused when it is
// loaded, naming the file and the interaction; replayed, it made every
// call it answered panic in net/http (the client got a torn answer).
func TestLoadIndexRefusesBadStatus(t *testing.T) {
	t.Parallel()
	golden, err := os.ReadFile(filepath.Join("testdata", "golden.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{"0", "-1", "99", "100", "2000"} {
		path := filepath.Join(t.TempDir(), "edited.yaml")
		text := strings.Replace(string(golden), "code: 200", "code: "+code, 1)
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := cassettes.LoadIndex([]string{path})
		if !errors.Is(err, cassettes.ErrInvalidCassette) || !strings.Contains(err.Error(), path+": interaction 0: response code "+code) {
			t.Errorf("code %s: got %v, want ErrInvalidCassette naming %s and interaction 0", code, err, path)
		}
	}
}

package cassettes_test

import (
	"io"
	"net/http"
	"net/http/httptest"
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

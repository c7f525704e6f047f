package cassettes_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// TestReplayErrorsRecordedBelowBasePath: requests that are no call (a
// parameter missing or not converting, an unknown SOAPAction), recorded
// from a deployment below a base path (--upstream https://host/atm), are
// answered by the replaying mock at its root with the deployment's own
// errors, as recorded: its texts (Mono's "Missing parameter: {0}."), not
// the mock's. The matcher compared the whole path, /atm/service/... with
// /service/..., and every such request fell through to the mock's own.
func TestReplayErrorsRecordedBelowBasePath(t *testing.T) {
	t.Parallel()
	// A deployment at /atm that answers every request as Mono's ASMX
	// answers a missing parameter, in words the mock never writes.
	const text = "Missing parameter: {0}.\n"
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/atm/service/service.asmx") {
			http.NotFound(w, r)
			return
		}
		if r.Method == http.MethodPost && strings.HasPrefix(r.Header.Get("Content-Type"), "text/xml") {
			w.Header().Set("Content-Type", "text/xml; charset=utf-8")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte(`<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Server did not recognize the value of HTTP Header {0}: {1}.</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>`))
			return
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(text))
	}))
	defer up.Close()
	sent := []struct {
		name  string
		build func(base string) *http.Request
	}{
		{"a missing parameter over get", func(base string) *http.Request {
			req, _ := http.NewRequest(http.MethodGet, base+asmx.ServicePath+"/ReturnAtmSearchByCity?strAtmServiceKey="+testKey, nil)
			return req
		}},
		{"a bad number over post", func(base string) *http.Request {
			req, _ := http.NewRequest(http.MethodPost, base+asmx.ServicePath+"/ReturnAtmSearchByCity", strings.NewReader("strAtmServiceKey="+testKey+"&intCityID=abc"))
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			return req
		}},
		{"an unknown SOAPAction", func(base string) *http.Request {
			req := request(t, base, asmx.SOAP11, query{Op: asmx.OpReturnProvinces}, testKey, false)
			req.Header.Set("SOAPAction", `"http://tempuri.org/atmService/ReturnNothing"`)
			return req
		}},
	}
	recordedAnswers := map[string]string{}
	path := recordVia(t, up.URL+"/atm", func(proxy *httptest.Server) {
		for _, s := range sent {
			recordedAnswers[s.name] = answerOf(t, proxy, s.build(proxy.URL))
		}
	})
	replay := replayed(t, path, testKey)
	for _, s := range sent {
		if got, want := answerOf(t, replay, s.build(replay.URL)), recordedAnswers[s.name]; got != want {
			t.Errorf("%s replayed:\n%s\nwant the recorded\n%s", s.name, got, want)
		}
	}
}

package cassettes_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestReplayRequestsRefusedBeforeTheirBody: requests the mock refuses
// before it reads their body (a JSON call POSTed as application/json,
// which Mono's script handler answers; a PUT, which ASP.NET answers with
// its error page) are matched as recorded, body included, and get the
// deployment's own answer. The mock matched them with no body, so each
// got its own error ("Request format is invalid: application/json").
func TestReplayRequestsRefusedBeforeTheirBody(t *testing.T) {
	t.Parallel()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusInternalServerError)
			_, _ = w.Write([]byte("<html><body>Runtime Error: the deployment's own page</body></html>"))
			return
		}
		w.Header().Set("Content-Type", "text/xml; charset=utf-8")
		_, _ = w.Write([]byte(`{"count":0,"locations":[]}`))
	}))
	defer up.Close()
	sent := []struct {
		name  string
		build func(base string) *http.Request
	}{
		{"a JSON call POSTed", func(base string) *http.Request {
			req, _ := http.NewRequest(http.MethodPost, base+"/service-v2.asmx/ReturnAtmSearchByCoordinates",
				strings.NewReader(`{"strAtmServiceKey":"`+testKey+`","strPostalCode":"","dblLatitude":44.6,"dblLongitude":-63.5,"bytRadius":5}`))
			req.Header.Set("Content-Type", "application/json; charset=utf-8")
			return req
		}},
		{"a PUT", func(base string) *http.Request {
			req, _ := http.NewRequest(http.MethodPut, base+"/service/service.asmx/ReturnProvinces", strings.NewReader("strAtmServiceKey="+testKey))
			return req
		}},
	}
	recordedAnswers := map[string]string{}
	path := recordVia(t, up.URL, func(proxy *httptest.Server) {
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

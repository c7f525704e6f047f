package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestShapeLearnFromAHostileDeployment: a deployment whose ?WSDL answer
// never ends, a gateway whose error page echoes the key it was sent (a
// header with quotes, spaces and non-ASCII, from --header or
// ATMKIT_HEADER), and one whose answer trickles past ATMKIT_TIMEOUT stop
// shape learn with exit 2 (a target that could not be read), saying
// what was answered, the key masked everywhere, and the shape file
// learned before left as it was. The endless answer was cut at 16 MiB and
// learned from: exit 1, "the WSDL does not parse".
func TestShapeLearnFromAHostileDeployment(t *testing.T) {
	t.Parallel()
	const key = `"sé cret" Key-9`
	endless := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<?xml version="1.0"?><wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"><!--`)
		chunk := []byte(strings.Repeat("x", 64<<10))
		for {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}))
	defer endless.Close()
	gateway := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, "<html><head><title>Forbidden: the key %s is not subscribed</title></head></html>", r.Header.Get("X-Api-Key"))
	}))
	defer gateway.Close()
	trickle := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for r.Context().Err() == nil {
			if _, err := w.Write([]byte("<")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-time.After(20 * time.Millisecond):
			}
		}
	}))
	defer trickle.Close()
	out := filepath.Join(t.TempDir(), "learned.yaml")
	const before = "# the shape learned last week\n"
	if err := os.WriteFile(out, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, []string{"--wsdl", endless.URL + "/service/service.asmx", "--header", "X-Api-Key: " + key},
			"an answer over 16 MiB, larger than any WSDL"},
		{nil, []string{"--wsdl", gateway.URL + "/service/service.asmx", "--header", "X-Api-Key: " + key},
			"HTTP 403 (an HTML page: Forbidden: the key \"s"},
		{map[string]string{"ATMKIT_HEADER": "X-Api-Key: " + key}, []string{"--wsdl", gateway.URL + "/service/service.asmx"},
			"HTTP 403 (an HTML page: Forbidden: the key \"s"},
		{map[string]string{"ATMKIT_TIMEOUT": "300ms"}, []string{"--wsdl", trickle.URL + "/service/service.asmx"},
			"the answer did not end within --timeout (300ms)"},
	} {
		code, stdout, errOut := runAtmkit(tc.env, append([]string{"shape", "learn", "--out", out}, tc.args...)...)
		if code != exitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v %v: exit %d, stderr %q; want exit 2 saying %q", tc.env, tc.args, code, errOut, tc.want)
		}
		if s := stdout + errOut; strings.Contains(s, "cret") || strings.Contains(s, "Key-9") {
			t.Errorf("%v %v: the key shows:\n%s", tc.env, tc.args, s)
		}
		if data, err := os.ReadFile(out); err != nil || string(data) != before {
			t.Errorf("%v %v: the shape learned before is now %q (%v)", tc.env, tc.args, data, err)
		}
	}
}

package main

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/atmkit/atmkit/asmx"
	"github.com/atmkit/atmkit/internal/mocktest"
)

// TestCassetteVerifyHostileUpstream points atmkit cassette verify at
// deployments that answer what none should (see conform_hostile_test.go):
// it never panics nor waits past --timeout, says what was wrong, exits 1
// (drifted) or 2 (could not check), shows the target's bytes printably and
// never shows the key nor sends it to another host.
func TestCassetteVerifyHostileUpstream(t *testing.T) {
	t.Parallel()
	const gatewaySecret = "Gateway-Secret-4242"
	path := recordCassette(t, startMock(t, leakKey, nil), asmx.DefaultNamespace, leakKey, verifyCalls[:2])
	other := newElsewhere(t) // neither the key nor the gateway's header goes there
	for _, tc := range []struct {
		name string
		wrap func(http.Handler) http.Handler
		args []string
		code int
		says []string
		// within is how long the command may take (default runAtmkit's).
		within time.Duration
		// noRace skips the case under the race detector, which slows it
		// past any bound (the run without it checks the same).
		noRace bool
	}{
		{
			name: "a redirect to another host",
			wrap: hostile(everyCall, func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, other.url+r.URL.RequestURI(), http.StatusTemporaryRedirect)
			}),
			code: exitFailure,
			says: []string{"#0 soap11 ReturnProvinces(): structure drifted: 1 change\n      status: recorded 200, live 307 a redirect to " + other.url + "/service/service.asmx (not followed)"},
		},
		{
			name: "binary garbage with escape sequences",
			wrap: hostile(everyCall, serveGarbage),
			code: exitFailure,
			says: []string{`status: recorded 500, live 200 "\x00\x01\x1b[31mRED\xff\xfe garbage <<<"`},
		},
		{
			name: "a gateway's HTML error page",
			wrap: hostile(everyCall, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(http.StatusBadGateway)
				_, _ = w.Write([]byte("<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>"))
			}),
			code: exitUsage,
			says: []string{`could not check: the deployment is unavailable: soap11 ReturnProvinces() answered 502 "502 Bad Gateway" (recorded: 200), the error of a gateway`},
		},
		{
			name: "a 404 to every call (a wrong base path)",
			wrap: hostile(everyCall, func(w http.ResponseWriter, r *http.Request) {
				http.NotFound(w, r)
			}),
			code: exitUsage,
			says: []string{`could not check: the deployment has no such path: soap11 ReturnProvinces() answered 404 "404 page not found" (recorded: 200) at http://127.0.0.1:`, "is the upstream the URL the service is at, its base path included?"},
		},
		{
			name:   "a gzip bomb",
			wrap:   hostile(everyCall, serveGzipBomb),
			args:   []string{"--timeout", "2m"}, // time to inflate it (over 20 s on a loaded machine)
			within: 3 * time.Minute,
			noRace: true, // inflating 257 MiB took over 2 min under -race in CI
			code:   exitUsage,
			says:   []string{"could not check: no answer from the deployment: http://127.0.0.1:", "/service/service.asmx answered ReturnProvinces() in soap11: the answer is larger than 256 MiB, the most verify reads of one answer"},
		},
		{
			name: "an endless dribble",
			wrap: hostile(everyCall, dribble("text/xml; charset=utf-8", "<")),
			args: []string{"--timeout", "1s"}, // the others have 10 s, for a loaded machine's slow answers
			code: exitUsage,
			says: []string{"/service/service.asmx within 1s (ReturnProvinces() in soap11)"},
		},
		{
			name: "a body that ends early (chunked)",
			wrap: hostile(everyCall, endsEarly),
			code: exitUsage,
			says: []string{"/service/service.asmx closed the connection without an answer (ReturnProvinces() in soap11)"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.noRace && mocktest.Race {
				t.Skip("too slow under the race detector; the run without it checks this")
			}
			t.Parallel()
			target := startMock(t, leakKey, tc.wrap)
			junit := filepath.Join(t.TempDir(), "verify.xml")
			args := append([]string{"cassette", "verify", "--upstream", target, "--key", leakKey, "--timeout", "10s",
				"--header", "X-Gateway-Key: " + gatewaySecret, "--junit-report", junit}, tc.args...)
			within := 20 * time.Second
			if tc.within > 0 {
				within = tc.within
			}
			code, stdout, stderr := runAtmkitWithin(within, nil, append(args, path)...)
			out := stdout + stderr
			checkHostileOutput(t, out, code, tc.code, tc.says)
			if b, err := os.ReadFile(junit); err == nil && (bytes.ContainsAny(b, "\x00\x1b") || !utf8.Valid(b)) {
				t.Errorf("the JUnit report passes on control characters or bytes that are not UTF-8 from the target")
			}
			checkNoKey(t, leakKey, out, junit)
			checkNoKey(t, gatewaySecret, out, junit)
		})
	}
}

package main

import (
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/mockserver"
)

// TestConformReportsHideHeaderValues: a --header value a target repeats
// (in an error answer the failures quote, in its namespace) is masked in
// the reports as on the console.
func TestConformReportsHideHeaderValues(t *testing.T) {
	t.Parallel()
	const secret = "Gateway-Secret-4242"
	echo := hostile(func(r *http.Request) bool {
		return jsonCall(r) && strings.HasSuffix(r.URL.Path, "/ReturnAtmSearchByAddress")
	},
		func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "gateway: refused X-Gateway-Key "+r.Header.Get("X-Gateway-Key"), http.StatusInternalServerError)
		})
	target := startMock(t, "k1", echo, mockserver.WithNamespace("http://example.org/"+secret))
	dir := t.TempDir()
	junit, jsonReport := filepath.Join(dir, "conform.xml"), filepath.Join(dir, "conform.json")
	code, out := runConformProcessEnv(t, []string{"ATMKIT_SHELL=posix"}, "--target", target, "--key", "k1",
		"--header", "X-Gateway-Key: "+secret, "--label-filter", "json", "--junit-report", junit, "--json-report", jsonReport)
	if code != exitFailure || !strings.Contains(out, "gateway: refused X-Gateway-Key Ga****") {
		t.Fatalf("exit code %d, want %d, the echo quoted masked; output:\n%s", code, exitFailure, out)
	}
	checkNoKey(t, secret, out, junit, jsonReport)
}

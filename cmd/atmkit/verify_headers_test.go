package main

import (
	"bytes"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/asmx"
)

// TestCassetteVerifyHeaderNotSecret: the value of a plain --header
// ('Accept: text/xml') is no secret: the report quotes the live
// Content-Type as it is and --update writes it so, not as REDACTED; the
// value of any other header (X-Api-Key, X-Partner-Id, whose name says
// nothing of a credential) and of a plain one named by --scrub-header
// (User-Agent) is still masked wherever an answer echoes it.
func TestCassetteVerifyHeaderNotSecret(t *testing.T) {
	t.Parallel()
	path := recordCassette(t, startMock(t, leakKey, nil), asmx.DefaultNamespace, leakKey, verifyCalls[:1])
	const gatewayKey, partnerID, agent = "Gateway-Secret-31337", "partner-secret-42", "Partner-Agent-777"
	echo := editing(func(r *http.Request, _ string, body []byte) []byte {
		return bytes.ReplaceAll(body, []byte("Nova Scotia"), []byte("Nova Scotia "+r.Header.Get("X-Api-Key")+" "+r.Header.Get("X-Partner-Id")+" "+r.Header.Get("User-Agent")))
	})
	drifted := startMock(t, leakKey, func(h http.Handler) http.Handler { return echo(deviating("soap12-content-type")(h)) })
	junit := filepath.Join(t.TempDir(), "verify.xml")
	args := []string{"cassette", "verify", "--upstream", drifted, "--key", leakKey, "--junit-report", junit,
		"--header", "Accept: text/xml", "--header", "X-Api-Key: " + gatewayKey,
		"--header", "X-Partner-Id: " + partnerID, "--header", "User-Agent: " + agent, "--scrub-header", "user-agent"}
	code, stdout, stderr := runAtmkit(nil, append(args, "--update", path)...)
	if code != exitOK {
		t.Fatalf("--update: exit %d:\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{
		`content type: recorded "application/soap+xml; charset=utf-8", live "text/xml; charset=utf-8"`,
		`recorded "Nova Scotia", live "Nova Scotia REDACTED REDACTED REDACTED"`,
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if j := readText(t, junit); !strings.Contains(j, "text/xml; charset=utf-8") {
		t.Errorf("the JUnit report lacks the live content type as it is:\n%s", j)
	}
	cassette := readText(t, path)
	if !strings.Contains(cassette, "text/xml; charset=utf-8") || strings.Contains(cassette, "REDACTED; charset") {
		t.Errorf("the updated cassette must hold the live Content-Type as it is:\n%s", cassette)
	}
	checkNoKey(t, gatewayKey, stdout+stderr, junit, path)
	checkNoKey(t, partnerID, stdout+stderr, junit, path)
	checkNoKey(t, agent, stdout+stderr, junit, path)
	checkNoKey(t, leakKey, stdout+stderr, junit, path)
}

package verify_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/cassettes/verify"
)

// TestReportMasksSecretsOfTheUpstream: an upstream URL that holds the key
// or a secret (a gateway's token in its path or query, given as a secret
// so that it is masked) is shown masked in the report and its JUnit
// form, and in the error of a path the deployment does not have: they
// were masked of the URL's password and its strAtmServiceKey parameter
// only.
func TestReportMasksSecretsOfTheUpstream(t *testing.T) {
	t.Parallel()
	up, _, path := recordedStandIn(t)
	const secret = "gw-secret-0815"
	for _, upstream := range []string{up.URL + "/" + secret, up.URL + "/?code=" + secret, up.URL + "/" + testKey} {
		texts := map[string]string{}
		r, err := run(t, path, upstream, verify.Options{Secrets: []string{secret}})
		if err != nil { // a path the deployment does not have: the error names the URL
			texts["error"] = err.Error()
		}
		if r != nil {
			var junit bytes.Buffer
			if err := r.WriteJUnit(&junit); err != nil {
				t.Fatal(err)
			}
			texts["upstream"], texts["report"], texts["JUnit"] = r.Upstream, lines(r), junit.String()
		}
		for name, text := range texts {
			for _, s := range []string{secret, testKey} {
				if strings.Contains(text, s) {
					t.Errorf("upstream %s: the %s holds %q:\n%.600s", upstream, name, s, text)
				}
			}
		}
	}
}

package verify

import (
	"net/url"
	"testing"
)

// FuzzRebase reads any text as the URL recorded in a cassette (a file
// another team may hand over) and moves it below the deployment verify
// checks: the request goes to that deployment, with its scheme, host and
// credentials, whatever the recorded URL holds; never elsewhere.
func FuzzRebase(f *testing.F) {
	for _, s := range [][2]string{
		{"https://user:pw@atm.example.org:8443/app", "http://old.example/App/service/service.asmx/ReturnProvinces?strAtmServiceKey=REDACTED"},
		{"http://127.0.0.1:9", "http://h/service-v2.asmx/ReturnAllAtms?x=1"},
		{"http://127.0.0.1:9/base", "/base/other.asmx?"},
		{"http://127.0.0.1:9", "@evil.example/x"},
		{"http://127.0.0.1:9", "evil.example/service/x"},
		{"http://127.0.0.1:9/p", "//evil.example"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, baseURL, recorded string) {
		base, err := url.Parse(baseURL)
		if err != nil || base.Host == "" || (base.Scheme != "http" && base.Scheme != "https") || base.Opaque != "" {
			return // verify takes an http or https URL with a host only
		}
		out, err := rebase(base, recorded)
		if err != nil {
			return
		}
		u, err := url.Parse(out)
		if err != nil {
			t.Fatalf("rebase(%q, %q) = %q, which does not parse: %v", baseURL, recorded, out, err)
		}
		if u.Scheme != base.Scheme || u.Host != base.Host || u.User.String() != base.User.String() {
			t.Fatalf("rebase(%q, %q) = %q: scheme %q, host %q, user %q; want those of the deployment", baseURL, recorded, out, u.Scheme, u.Host, u.User)
		}
	})
}

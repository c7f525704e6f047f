package mockserver

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// FuzzCanonicalHost reads any Host header as the WSDL, the discovery
// document and the help pages write it (canonicalHost, ASMX's
// Request.Url): of a host[:port] that is a URL's authority, with a port
// from 0 to 65535, it is that authority still, as it is when written
// again, the host in lower case (ASCII letters), the port a
// number without zeros before it and none when it is the scheme's
// default.
func FuzzCanonicalHost(f *testing.F) {
	for _, s := range []string{"ATM.Example.ORG:8080", "atm.example.org:0080", "[FE80::1]:80", "[::1]", "h:", "h:00", "h:x1",
		"h:99999", "É.example:443", "a:b:c", "[::1]:", ":80", "h%41:1"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, host string, tls bool) {
		scheme, def := "http", "80"
		if tls {
			scheme, def = "https", "443"
		}
		got := canonicalHost(host, scheme)
		u, err := url.Parse(scheme + "://" + host + "/")
		if err != nil || u.Host != host || u.Hostname() == "" || strings.Contains(u.Hostname(), ":") && host[0] != '[' {
			return // no authority (url.Parse takes h:: as host h: and an empty port)
		}
		if again := canonicalHost(got, scheme); again != got {
			t.Fatalf("%s %q: %q, then %q", scheme, host, got, again)
		}
		n, err := strconv.Atoi(u.Port())
		if u.Port() != "" && (err != nil || n > 65535) {
			return
		}
		want := u.Port()
		if want != "" {
			want = strconv.Itoa(n)
		}
		if want == def {
			want = ""
		}
		g, err := url.Parse(scheme + "://" + got + "/")
		switch {
		case err != nil:
			t.Fatalf("%s %q: %q, no URL's authority: %v", scheme, host, got, err)
		case g.Hostname() != asciiLower([]byte(u.Hostname())) || g.Port() != want:
			t.Fatalf("%s %q: %q, host %q port %q; want %q and %q", scheme, host, got, g.Hostname(), g.Port(), asciiLower([]byte(u.Hostname())), want)
		}
	})
}

package health

import (
	"net"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
)

// isHostName reports whether host is a DNS name as a listen address gives
// one: letters, digits, dots and hyphens.
func isHostName(host string) bool {
	return host != "" && strings.Trim(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-") == ""
}

// samePort reports whether a URL's port is the number port.
func samePort(p string, port int) bool {
	n, err := strconv.Atoi(p)
	return err == nil && n == port && !strings.HasPrefix(p, "+")
}

// FuzzDefaultURL reads any ATMKIT_ADDR, ATMKIT_TLS_CERT and
// ATMKIT_TLS_SELF_SIGNED (the environment of a container, whose health
// check runs atmkit health with no flags): for an ATMKIT_ADDR health takes
// (addrProblem), of an IP address, a host name or none, DefaultURL is a
// base URL health takes as --url would be, on the port serve listens on,
// over https exactly where ServesTLS; fallbackURL is none or that port on
// 127.0.0.1.
func FuzzDefaultURL(f *testing.F) {
	for _, s := range []string{"", "0.0.0.0:9090", ":9091", "[::]:9092", "10.0.0.7:9093", "[fe80::1%eth0]:9094",
		"[fe80::1%12]:9095", "localhost:9097", "[0:0::0]:9098", "[::ffff:0.0.0.0]:9099", "127.0.0.1:0", "no-port", "127.0.0.1:08080", "localhost:08080"} {
		f.Add(s, "", "")
	}
	f.Add("0.0.0.0:8443", "certs/server.pem", "")
	f.Add("[::]:8443", "", "true")
	f.Add(":8443", "", "yes please")
	f.Fuzz(func(t *testing.T, addr, cert, selfSigned string) {
		env := map[string]string{"ATMKIT_ADDR": addr, "ATMKIT_TLS_CERT": cert, "ATMKIT_TLS_SELF_SIGNED": selfSigned}
		getenv := func(k string) string { return env[k] }
		got, alt := DefaultURL(getenv), fallbackURL(getenv)
		scheme := "http"
		if ServesTLS(getenv) {
			scheme = "https"
		}
		if addr == "" || addrProblem(addr) != "" {
			return // health refuses it, or checks serve's default
		}
		host, port, _ := net.SplitHostPort(addr)
		ip, err := netip.ParseAddr(host)
		if err != nil && host != "" && !isHostName(host) {
			return // no host serve could listen on
		}
		if z := ip.Zone(); strings.Trim(z, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~") != "" {
			// A zone of other characters (RFC 6874 escapes them) names no
			// interface one would give (Go's listener drops a zone it
			// does not know), and net/url refuses some of their escapes
			// in a host ([::1%25%23]): no URL Go reads.
			return
		}
		want, _ := strconv.Atoi(port)
		u, err := url.Parse(got)
		switch {
		case err != nil || cli.CheckHTTPURL(got) != "" || cli.HasQueryOrFragment(got) || IsServiceURL(got) || IsAdminURL(got):
			t.Fatalf("ATMKIT_ADDR=%q: DefaultURL %q, no base URL health takes", addr, got)
		case u.Scheme != scheme:
			t.Fatalf("ATMKIT_ADDR=%q: DefaultURL %q, want %s", addr, got, scheme)
		case !samePort(u.Port(), want) || u.Path != "":
			t.Fatalf("ATMKIT_ADDR=%q: DefaultURL %q, not port %d", addr, got, want)
		}
		if alt == "" {
			return
		}
		// The port as given ([::]:01 has 127.0.0.1:01, which a client dials as 1).
		if a, err := url.Parse(alt); err != nil || a.Scheme != scheme || a.Hostname() != "127.0.0.1" || !samePort(a.Port(), want) || a.Path != "" {
			t.Fatalf("ATMKIT_ADDR=%q: fallbackURL %q, not port %d on 127.0.0.1", addr, alt, want)
		}
	})
}

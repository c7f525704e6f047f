package mockserver

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
)

// anyAdminHost, given to WithAdminHosts, turns the Host check off.
const anyAdminHost = "*"

// WithAdminHosts names the hosts, besides IP addresses, localhost (and
// names under .localhost) and this machine's host name, whose name a
// request may carry in its Host header to reach the admin API on a
// loopback address while no admin token is set; "*" allows any name.
//
// The check keeps web pages out of an admin API that needs no token: a page
// the user has open in a browser may point a DNS name of its own at
// 127.0.0.1 (DNS rebinding) and then read the journal and inject faults as
// if it were the admin page's own site. The browser still sends the page's
// name as Host, which is refused with 403. Calls that reach the mock on
// any other address (from another host or container) and calls with the
// admin token are not checked. Names are matched without case, port or a
// final dot; each may be given with a port, which is ignored.
func WithAdminHosts(names ...string) Option {
	return func(c *config) error {
		for _, n := range names {
			n = strings.TrimSpace(n)
			name := hostName(n)
			if n == anyAdminHost {
				name = anyAdminHost
			} else if name == "" || strings.ContainsAny(n, " \t\r\n/\\@?#*") {
				return fmt.Errorf("mock server admin host %q: want a host name such as mock.test (or * for any)", n)
			}
			if !slices.Contains(c.adminHosts, name) {
				c.adminHosts = append(c.adminHosts, name)
			}
		}
		return nil
	}
}

// hostName is the name of a Host header value or a host[:port] given by a
// user, lower case, without port, brackets or a final dot.
func hostName(host string) string {
	host = strings.TrimSpace(host)
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	} else if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	}
	return strings.ToLower(strings.TrimSuffix(host, "."))
}

// thisHostName is the machine's host name, lower case ("" if unknown):
// Debian, for one, points it at 127.0.1.1 in /etc/hosts, so local tools
// may call the mock by it.
var thisHostName = sync.OnceValue(func() string {
	h, err := os.Hostname()
	if err != nil {
		return ""
	}
	return hostName(h)
})

// foreignHost returns the name in r's Host header when the admin API must
// refuse it (see WithAdminHosts), else "".
func (s *Server) foreignHost(r *http.Request) string {
	if s.cfg.adminToken != "" || r.Host == "" || slices.Contains(s.cfg.adminHosts, anyAdminHost) {
		return ""
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr)
	if !ok || !local.IP.IsLoopback() {
		return ""
	}
	name := hostName(r.Host)
	if ip, _, _ := strings.Cut(name, "%"); net.ParseIP(ip) != nil { // fe80::1%lo: a zone
		return ""
	}
	if name == "localhost" || strings.HasSuffix(name, ".localhost") || name == thisHostName() ||
		slices.Contains(s.cfg.adminHosts, name) {
		return ""
	}
	return name
}

// refuseForeignHost answers 403 to a request foreignHost refuses, and
// reports whether it did.
func (s *Server) refuseForeignHost(w http.ResponseWriter, r *http.Request) bool {
	name := s.foreignHost(r)
	if name == "" {
		return false
	}
	closeUnread(w, r)
	if len(name) > 100 {
		name = name[:100] + "…"
	}
	writeAdminError(w, http.StatusForbidden, adminForbidden,
		"the admin API answers this request only under a name of this host: it came on loopback naming %.80q (Host header), and with no admin token a web page could reach the API through a DNS name of its own pointed at 127.0.0.1 (DNS rebinding). "+
			"Call it as 127.0.0.1, localhost or this host's name, add the name with --admin-host (ATMKIT_ADMIN_HOST; mockserver.WithAdminHosts), or set --admin-token",
		name)
	return true
}

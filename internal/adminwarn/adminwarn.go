// Package adminwarn words the warning of a mock whose admin API is open to
// other hosts, as atmkit serve prints it at start and the admin page shows
// it.
package adminwarn

import (
	"fmt"
	"net"
)

// Text is the warning for a mock listening on addr that requires the admin
// token token: empty unless addr is a TCP address beyond this host (not
// loopback) and token is empty.
func Text(addr net.Addr, token string) string {
	return text(addr, token, "Set --admin-token or ATMKIT_ADMIN_TOKEN, or listen on 127.0.0.1.")
}

// ContainerText is Text for a mock in a container, whose 127.0.0.1 is the
// container's own: listening there, as Text advises, would leave the mock
// unreachable from the host (a published port forwards to the container's
// network interface) and from other containers, so it advises the token
// alone.
func ContainerText(addr net.Addr, token string) string {
	return text(addr, token, "Set --admin-token or ATMKIT_ADMIN_TOKEN (not 127.0.0.1: in a container neither the host, through a published port, nor other containers reach it there).")
}

func text(addr net.Addr, token, advice string) string {
	tcp, ok := addr.(*net.TCPAddr)
	if token != "" || !ok || tcp.IP.IsLoopback() {
		return ""
	}
	where := addr.String()
	if tcp.IP.IsUnspecified() {
		where = fmt.Sprintf("every interface (port %d)", tcp.Port)
	}
	return fmt.Sprintf("listening on %s, reachable from other hosts, with no admin token: anyone who can reach the port can inject faults and read the journal (/__admin). %s", where, advice)
}

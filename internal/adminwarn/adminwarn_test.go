package adminwarn

import (
	"net"
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		addr  net.Addr
		token string
		want  string // a part of the text; "" for none
	}{
		{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, "", ""},
		{&net.TCPAddr{IP: net.IPv6loopback, Port: 8080}, "", ""},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 8080}, "t", ""},
		{&net.UnixAddr{Name: "mock.sock", Net: "unix"}, "", ""},
		{&net.TCPAddr{IP: net.IPv4zero, Port: 8080}, "", "listening on every interface (port 8080), reachable from other hosts, with no admin token"},
		{&net.TCPAddr{IP: net.IPv6unspecified, Port: 9090}, "", "every interface (port 9090)"},
		{&net.TCPAddr{IP: net.IPv4(192, 0, 2, 7), Port: 8080}, "", "listening on 192.0.2.7:8080, reachable"},
	} {
		got := Text(c.addr, c.token)
		if c.want == "" && got != "" || !strings.Contains(got, c.want) {
			t.Errorf("Text(%v, %q): got %q, want %q", c.addr, c.token, got, c.want)
		}
	}
}

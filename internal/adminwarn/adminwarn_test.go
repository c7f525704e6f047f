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

// TestContainerText: in a container the warning advises the token alone,
// not 127.0.0.1, which neither the host nor other containers reach; it
// comes where Text's does.
func TestContainerText(t *testing.T) {
	t.Parallel()
	every := &net.TCPAddr{IP: net.IPv4zero, Port: 8080}
	got := ContainerText(every, "")
	if !strings.Contains(got, "with no admin token") || !strings.HasSuffix(got, "Set --admin-token or ATMKIT_ADMIN_TOKEN (not 127.0.0.1: in a container neither the host, through a published port, nor other containers reach it there).") {
		t.Errorf("ContainerText(%v): got %q", every, got)
	}
	if strings.Contains(got, "or listen on 127.0.0.1") {
		t.Errorf("ContainerText(%v) advises 127.0.0.1: %q", every, got)
	}
	for _, c := range []struct {
		addr  net.Addr
		token string
	}{{&net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}, ""}, {every, "t"}} {
		if got := ContainerText(c.addr, c.token); got != "" {
			t.Errorf("ContainerText(%v, %q): got %q, want none", c.addr, c.token, got)
		}
	}
}

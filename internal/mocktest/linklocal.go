package mocktest

import (
	"errors"
	"fmt"
	"net"
)

// LinkLocalAddr is an address to listen on with port 0: an IPv6 link-local
// address of this host's (fe80::…) with its zone, the interface's name,
// as "[fe80::1%eth0]:0". Its URL must carry the zone (RFC 6874:
// http://[fe80::1%25eth0]:8080/) to be reached. It fails where no
// interface that is up has one this process can listen on.
func LinkLocalAddr() (string, error) {
	return listenableAddr(func(i net.Interface, ip net.IP) (string, bool) {
		return ip.String() + "%" + i.Name, ip.To4() == nil && ip.IsLinkLocalUnicast()
	}, "no IPv6 link-local address to listen on")
}

// HostAddr is an address to listen on with port 0 that the loopback
// interface does not reach: an IPv4 address of another interface of this
// host's (eth0's, say), as "192.0.2.2:0". It fails where no interface
// that is up has one this process can listen on.
func HostAddr() (string, error) {
	return listenableAddr(func(i net.Interface, ip net.IP) (string, bool) {
		return ip.String(), i.Flags&net.FlagLoopback == 0 && ip.To4() != nil && !ip.IsLoopback()
	}, "no IPv4 address but the loopback's to listen on")
}

// listenableAddr returns the first address, with port 0, of an interface
// that is up whose host take accepts and this process can listen on;
// none is the error's text when there is none.
func listenableAddr(take func(net.Interface, net.IP) (host string, ok bool), none string) (string, error) {
	ifs, err := net.Interfaces()
	if err != nil {
		return "", fmt.Errorf("listing interfaces: %w", err)
	}
	for _, i := range ifs {
		if i.Flags&net.FlagUp == 0 {
			continue
		}
		addrs, err := i.Addrs()
		if err != nil {
			continue
		}
		for _, a := range addrs {
			n, ok := a.(*net.IPNet)
			if !ok {
				continue
			}
			host, ok := take(i, n.IP)
			if !ok {
				continue
			}
			addr := net.JoinHostPort(host, "0")
			if ln, err := net.Listen("tcp", addr); err == nil {
				_ = ln.Close()
				return addr, nil
			}
		}
	}
	return "", errors.New(none)
}

package mocktest

import (
	"net"
	"sync"
	"sync/atomic"
)

// Listen starts a raw TCP listener on a loopback port that hands each
// connection it accepts to serve, in a goroutine of its own: a target that
// answers what no HTTP server would, or nothing. It returns the listener's
// http:// URL, the count of connections accepted, and stop, which closes
// the listener and every connection it accepted (the caller registers it
// to run when the test ends).
func Listen(serve func(net.Conn)) (url string, accepted *atomic.Int32, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, nil, err
	}
	var (
		n     atomic.Int32
		mu    sync.Mutex // guards conns
		conns []net.Conn
	)
	stop = func() {
		_ = ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			_ = c.Close()
		}
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			go serve(c)
		}
	}()
	return "http://" + ln.Addr().String(), &n, stop, nil
}

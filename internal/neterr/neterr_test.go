package neterr

import (
	"errors"
	"io"
	"net"
	"testing"
)

func TestRefused(t *testing.T) {
	// A port that was listening and is closed: nothing listens there now
	// (another process could take it in between; then the test says so).
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	c, err := net.Dial("tcp", addr)
	if err == nil {
		c.Close()
		t.Skipf("%s was taken by another listener in between", addr)
	}
	if !Refused(err) || Reset(err) {
		t.Errorf("%v: Refused %v, Reset %v; want true, false", err, Refused(err), Reset(err))
	}
}

func TestReset(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		_ = c.(*net.TCPConn).SetLinger(0) // close with a reset, not a FIN
		_, _ = c.Read(make([]byte, 1))
		c.Close()
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(c)
	if !Reset(err) || Refused(err) {
		t.Errorf("%v: Reset %v, Refused %v; want true, false", err, Reset(err), Refused(err))
	}
}

// TestAddrInUse: a second listener on a port one holds.
func TestAddrInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	again, err := net.Listen("tcp", ln.Addr().String())
	if err == nil {
		again.Close()
		t.Fatalf("a second listener on %s: no error", ln.Addr())
	}
	if !AddrInUse(err) || Refused(err) || Reset(err) {
		t.Errorf("%v: AddrInUse %v, Refused %v, Reset %v; want true, false, false", err, AddrInUse(err), Refused(err), Reset(err))
	}
}

func TestOtherErrors(t *testing.T) {
	for _, err := range []error{nil, io.EOF, errors.New("connection refused")} {
		if Refused(err) || Reset(err) || AddrInUse(err) {
			t.Errorf("%v: classified as refused, reset or in use", err)
		}
	}
}

package serve

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/tlsconf"
)

func listen(t *testing.T) net.Listener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// slowHandler answers "done" once release is closed or its request's
// context ends; started receives a value when a request arrives.
func slowHandler(started chan<- struct{}, release <-chan struct{}) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		select {
		case <-release:
			_, _ = io.WriteString(w, "done")
		case <-r.Context().Done():
		}
	})
}

// get sends a GET in the background; its result arrives on the channel.
func get(client *http.Client, url string) <-chan error {
	out := make(chan error, 1)
	go func() {
		resp, err := client.Get(url)
		if err == nil {
			var body []byte
			body, err = io.ReadAll(resp.Body)
			resp.Body.Close()
			if err == nil && string(body) != "done" {
				err = errors.New("body " + string(body))
			}
		}
		out <- err
	}()
	return out
}

// TestRunShutsDownGracefully: once ctx is done, a request in flight
// finishes and Run returns nil; new connections are refused.
func TestRunShutsDownGracefully(t *testing.T) {
	t.Parallel()
	ln := listen(t)
	started, release := make(chan struct{}, 1), make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- Run(ctx, ln, slowHandler(started, release), Options{Grace: time.Minute}) }()
	answer := get(http.DefaultClient, "http://"+ln.Addr().String())
	<-started
	cancel()
	time.Sleep(100 * time.Millisecond)
	if c, err := net.DialTimeout("tcp", ln.Addr().String(), time.Second); err == nil {
		c.Close()
		t.Errorf("a new connection was accepted during the shutdown")
	}
	close(release)
	if err := <-answer; err != nil {
		t.Errorf("request in flight: got %v, want its answer", err)
	}
	if err := <-ran; err != nil {
		t.Errorf("Run: got %v, want nil", err)
	}
}

// TestShutdownEnds: the grace period running out and an abort both end a
// shutdown with a request still in flight; only the first is an error.
func TestShutdownEnds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		grace time.Duration
		abort bool
		want  error
	}{
		{"grace expired", 50 * time.Millisecond, false, ErrGraceExpired},
		{"aborted", time.Hour, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			started, release := make(chan struct{}, 1), make(chan struct{})
			defer close(release)
			abort := make(chan struct{})
			s := Start(listen(t), slowHandler(started, release), Options{Grace: tc.grace, Abort: abort})
			answer := get(http.DefaultClient, s.URL)
			<-started
			if tc.abort {
				time.AfterFunc(50*time.Millisecond, func() { close(abort) })
			}
			err := s.Shutdown()
			if !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
				t.Errorf("Shutdown: got %v, want %v", err, tc.want)
			}
			if err := <-answer; err == nil {
				t.Errorf("the request in flight was answered, want its connection closed")
			}
			if again := s.Close(); !errors.Is(again, tc.want) || (tc.want == nil) != (again == nil) {
				t.Errorf("Close after Shutdown: got %v, want %v again", again, tc.want)
			}
		})
	}
}

// TestShutdownClosesConnectionsThatSentNothing: a connection that has
// sent no request when the shutdown begins (a TCP probe, a browser's
// preconnect, a client that has only connected) holds no request in
// flight: it is closed at once and the shutdown ends with no error, as
// one that connects during it. Before, net/http took it for a request on
// its way for five seconds, longer than the image's grace of 5s, and
// Shutdown returned ErrGraceExpired (atmkit serve exited 1).
func TestShutdownClosesConnectionsThatSentNothing(t *testing.T) {
	t.Parallel()
	fresh := make(chan net.Conn, 1)
	s := Start(listen(t), http.NotFoundHandler(), Options{Grace: 3 * time.Second, ConnState: func(c net.Conn, st http.ConnState) {
		if st == http.StateNew {
			fresh <- c
		}
	}})
	c, err := net.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	<-fresh // the server holds it
	if err := s.Shutdown(); err != nil {
		t.Errorf("Shutdown with a connection that sent nothing: %v, want nil", err)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := c.Read(make([]byte, 1)); n != 0 || err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("the connection after Shutdown: read %d, %v; want it closed by the server", n, err)
	}
}

// TestStoppingAndCancelRequests: a request's context tells when the
// shutdown begins, and CancelRequests ends the requests' contexts.
func TestStoppingAndCancelRequests(t *testing.T) {
	t.Parallel()
	stopping, canceled := make(chan bool, 1), make(chan bool, 1)
	s := Start(listen(t), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/cancel" {
			<-r.Context().Done()
			canceled <- true
			return
		}
		select {
		case <-Stopping(r.Context()):
			stopping <- true
		case <-time.After(time.Minute):
			stopping <- false
		}
	}), Options{Grace: time.Minute})
	go func() { _, _ = http.Get(s.URL + "/cancel") }()
	time.Sleep(100 * time.Millisecond)
	s.CancelRequests()
	if !<-canceled {
		t.Errorf("CancelRequests did not end the request's context")
	}
	go func() { _, _ = http.Get(s.URL + "/stopping") }()
	time.Sleep(100 * time.Millisecond)
	go func() { _ = s.Shutdown() }()
	if !<-stopping {
		t.Errorf("Stopping was not closed when the shutdown began")
	}
	if ch := Stopping(context.Background()); ch != nil {
		t.Errorf("Stopping of another context: got %v, want nil", ch)
	}
}

// TestStartTLSAndLimit: with TLS the URL is https and a trusting client
// gets answers; MaxConns holds further connections back.
func TestStartTLSAndLimit(t *testing.T) {
	t.Parallel()
	sv, err := tlsconf.Server{SelfSigned: true}.Load()
	if err != nil {
		t.Fatal(err)
	}
	started, release := make(chan struct{}, 2), make(chan struct{})
	s := Start(listen(t), slowHandler(started, release), Options{Grace: time.Minute, TLS: sv.Config, MaxConns: 1})
	defer s.Close()
	if !strings.HasPrefix(s.URL, "https://127.0.0.1:") {
		t.Errorf("URL: got %q, want https://127.0.0.1:port", s.URL)
	}
	client := tlsconf.TrustingClient(sv.Authority.Pool())
	first, second := get(client, s.URL), get(client, s.URL)
	<-started
	select {
	case <-started:
		t.Errorf("a second connection was served while MaxConns (1) was open")
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	for _, answer := range []<-chan error{first, second} {
		if err := <-answer; err != nil {
			t.Errorf("request: got %v, want its answer", err)
		}
	}
}

// TestListenAddr: a request's context names the listener's address, the
// one listened on, not the one the connection reached.
func TestListenAddr(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", ":0") // every interface
	if err != nil {
		t.Fatal(err)
	}
	want := ln.Addr().String()
	s := Start(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a := ListenAddr(r.Context()); a != nil {
			_, _ = io.WriteString(w, a.String())
		}
	}), Options{Grace: time.Second})
	defer s.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	resp, err := http.Get("http://" + net.JoinHostPort("127.0.0.1", strconv.Itoa(port)) + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("ListenAddr: got %q, want %q", got, want)
	}
	if a := ListenAddr(context.Background()); a != nil {
		t.Errorf("ListenAddr of another context: got %v, want nil", a)
	}
}

// TestURLZone: the URL of a server on an IPv6 address with a zone (a
// link-local address, fe80::…%eth0) writes the zone %25 (RFC 6874), and
// reaches the server; a raw % made no URL. It runs where this host has a
// link-local address (listened on without MPTCP, whose listener drops the
// zone from its address).
func TestURLZone(t *testing.T) {
	t.Parallel()
	addr, err := mocktest.LinkLocalAddr()
	if err != nil {
		t.Skip(err)
	}
	var lc net.ListenConfig
	lc.SetMultipathTCP(false)
	ln, err := lc.Listen(context.Background(), "tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	s := Start(ln, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "done") }), Options{Grace: time.Second})
	defer s.Close()
	zone := ln.Addr().(*net.TCPAddr).Zone
	if want := "%25" + zone + "]:"; zone == "" || !strings.Contains(s.URL, want) {
		t.Fatalf("URL: got %q, want it to hold %q", s.URL, want)
	}
	if err := <-get(http.DefaultClient, s.URL); err != nil {
		t.Errorf("GET %s: %v", s.URL, err)
	}
}

// TestHandshakeErrorHints: a failed handshake is logged with what most
// likely caused it, the client's part: TLS 1.1 at most (a .NET Framework
// app before 4.6), no client certificate where one is required, plain HTTP,
// a client that does not trust the certificate, no cipher suite in common
// (the RSA key exchange or 3DES alone, an old Windows's: the flag and the
// certificate that serve it; RC4 alone: never served). A client of no
// common suite was logged without a hint.
func TestHandshakeErrorHints(t *testing.T) {
	t.Parallel()
	sv, err := tlsconf.Server{SelfSigned: true}.Load()
	if err != nil {
		t.Fatal(err)
	}
	mutual := sv.Config.Clone()
	mutual.ClientCAs, mutual.ClientAuth = sv.Authority.Pool(), tls.RequireAndVerifyClientCert
	tls13 := sv.Config.Clone()
	tls13.MinVersion = tls.VersionTLS13
	// --tls-self-signed issues RSA ones below TLS 1.2: an ECDSA one of
	// --tls-cert.
	ecdsaCA, err := tlsconf.NewAuthority("test CA", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	ecdsaLeaf, err := ecdsaCA.Issue(tlsconf.Leaf{Hosts: tlsconf.LoopbackHosts})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ecdsaCert, ecdsaKey := filepath.Join(dir, "ecdsa.pem"), filepath.Join(dir, "ecdsa-key.pem")
	if err := os.WriteFile(ecdsaCert, ecdsaLeaf.CertPEM, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ecdsaKey, ecdsaLeaf.KeyPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	ecdsa10, err := tlsconf.Server{CertFile: ecdsaCert, KeyFile: ecdsaKey, MinVersion: tls.VersionTLS10}.Load()
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile := mocktest.RSACertFiles(t)
	rsa12, err := tlsconf.Server{CertFile: certFile, KeyFile: keyFile}.Load()
	if err != nil {
		t.Fatal(err)
	}
	rsa10, err := tlsconf.Server{CertFile: certFile, KeyFile: keyFile, MinVersion: tls.VersionTLS10}.Load()
	if err != nil {
		t.Fatal(err)
	}
	offering := func(version uint16, suites ...uint16) func(addr string) {
		return func(addr string) {
			c, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true, MinVersion: version, MaxVersion: version, CipherSuites: suites})
			if err == nil {
				c.Close()
			}
		}
	}
	for _, tc := range []struct {
		name   string
		server *tls.Config
		call   func(addr string)
		want   string
	}{
		{"TLS 1.1", sv.Config, func(addr string) {
			if c, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: sv.Authority.Pool(), MinVersion: tls.VersionTLS10, MaxVersion: tls.VersionTLS11}); err == nil {
				c.Close()
			}
		}, "--tls-min-version 1.0 accepts it"},
		{"TLS 1.2 to a TLS 1.3 minimum", tls13, func(addr string) {
			if c, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: sv.Authority.Pool(), MaxVersion: tls.VersionTLS12}); err == nil {
				c.Close()
			}
		}, "needs --tls-min-version 1.2 (the default) or lower"},
		{"no client certificate", mutual, func(addr string) {
			_, _ = tlsconf.TrustingClient(sv.Authority.Pool()).Get("https://" + addr)
		}, "the client sent no client certificate, which --tls-client-ca requires"},
		{"plain HTTP", sv.Config, func(addr string) { _, _ = http.Get("http://" + addr) }, "the client used http:// for this https:// address"},
		{"an authority not trusted", sv.Config, func(addr string) { _, _ = http.Get("https://" + addr) }, "the client refused the certificate served"},
		{"the RSA key exchange alone", rsa12.Config, offering(tls.VersionTLS12, tls.TLS_RSA_WITH_AES_128_GCM_SHA256),
			"--tls-min-version 1.0 serves the RSA key exchange and 3DES (RC4 never)"},
		{"3DES alone to an ECDSA certificate", ecdsa10.Config, offering(tls.VersionTLS10, tls.TLS_RSA_WITH_3DES_EDE_CBC_SHA),
			"give a certificate of an RSA key with --tls-cert and --tls-key"},
		{"RSA certificates alone to an ECDSA one", sv.Config, offering(tls.VersionTLS12, tls.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256),
			"give a certificate of an RSA key with --tls-cert and --tls-key, and for an old client --tls-min-version 1.0"},
		{"RC4 alone", rsa10.Config, offering(tls.VersionTLS10, tls.TLS_RSA_WITH_RC4_128_SHA),
			"turn on AES or 3DES in the client's TLS settings"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			var mu sync.Mutex
			logger := slog.New(slog.NewTextHandler(writerFunc(func(p []byte) (int, error) {
				mu.Lock()
				defer mu.Unlock()
				return out.Write(p)
			}), nil))
			s := Start(listen(t), http.NotFoundHandler(), Options{Grace: time.Second, TLS: tc.server, Logger: logger})
			defer s.Close()
			tc.call(strings.TrimPrefix(s.URL, "https://"))
			deadline := time.Now().Add(10 * time.Second) // the server logs after the client's call returns
			for {
				mu.Lock()
				got := out.String()
				mu.Unlock()
				if strings.Contains(got, "TLS handshake error") {
					if !strings.Contains(got, tc.want) || !strings.Contains(got, "level=WARN") {
						t.Errorf("got %q, want a warning with %q", got, tc.want)
					}
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("no handshake error logged: %q", got)
				}
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

// writerFunc is an io.Writer of a function.
type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

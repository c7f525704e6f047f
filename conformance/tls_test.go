package conformance

import (
	"crypto/tls"
	"errors"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/atmkit/atmkit/internal/tlsconf"
)

// testPKI is a private authority and the certificates the TLS specs serve
// and present, made in the test.
type testPKI struct {
	ca                            *tlsconf.Authority
	caFile                        string
	server, wrongName, expired    *tlsconf.KeyPair
	clientCertFile, clientKeyFile string
}

func newTestPKI() *testPKI {
	GinkgoHelper()
	dir := GinkgoT().TempDir()
	ca, err := tlsconf.NewAuthority("conformance test CA", time.Hour)
	Expect(err).NotTo(HaveOccurred())
	issue := func(l tlsconf.Leaf) *tlsconf.KeyPair {
		kp, err := ca.Issue(l)
		Expect(err).NotTo(HaveOccurred())
		return kp
	}
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		Expect(os.WriteFile(path, data, 0o600)).To(Succeed())
		return path
	}
	p := &testPKI{ca: ca, caFile: write("ca.pem", ca.CertPEM())}
	p.server = issue(tlsconf.Leaf{Hosts: tlsconf.LoopbackHosts})
	p.wrongName = issue(tlsconf.Leaf{Hosts: []string{"atm.example.org"}})
	p.expired = issue(tlsconf.Leaf{Hosts: tlsconf.LoopbackHosts, NotBefore: time.Now().Add(-48 * time.Hour), NotAfter: time.Now().Add(-time.Hour)})
	client := issue(tlsconf.Leaf{Client: true})
	p.clientCertFile, p.clientKeyFile = write("client.pem", client.CertPEM), write("client-key.pem", client.KeyPEM)
	return p
}

// serveTLS serves the reference mock over HTTPS with cfg.
func serveTLS(cfg *tls.Config) string {
	GinkgoHelper()
	mock, _, _ := referenceMock()
	srv := httptest.NewUnstartedServer(mock)
	srv.TLS = cfg
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	DeferCleanup(srv.Close)
	return srv.URL
}

// clientOf is an HTTP client configured as atmkit conform configures one.
func clientOf(c tlsconf.Client) *http.Client {
	GinkgoHelper()
	c.URLSetting = "target"
	ct, err := c.Load()
	Expect(err).NotTo(HaveOccurred())
	return &http.Client{Transport: ct.Transport()}
}

var _ = Describe("the preflight over TLS", Label("selftest"), func() {
	var p *testPKI
	BeforeEach(func() { p = newTestPKI() })

	It("checks an HTTPS target whose private authority is given, presenting a client certificate it requires", func() {
		target := serveTLS(tlsconf.ServerConfig(p.server.TLS, p.ca.Pool()))
		s, err := NewSession(Config{Target: target, Key: mockKey, Client: clientOf(tlsconf.Client{CAFile: p.caFile, CertFile: p.clientCertFile, KeyFile: p.clientKeyFile})})
		Expect(err).NotTo(HaveOccurred())
		pre, err := s.Preflight()
		Expect(err).NotTo(HaveOccurred())
		Expect(pre.Status).To(HaveKeyWithValue(SOAP11, http.StatusOK))
	})

	DescribeTable("stops with one line that says what failed and which flag fixes it",
		func(server func() *tls.Config, plainTarget bool, client func() tlsconf.Client, says ...string) {
			var target string
			if plainTarget {
				mock, _, _ := referenceMock()
				target = strings.Replace(serve(mock), "http://", "https://", 1)
			} else {
				target = serveTLS(server())
			}
			var hc *http.Client
			if client != nil {
				hc = clientOf(client())
			}
			s, err := NewSession(Config{Target: target, Key: leakKey, Client: hc, Timeout: 5 * time.Second})
			Expect(err).NotTo(HaveOccurred())
			_, err = s.Preflight()
			var pe *PreflightError
			Expect(errors.As(err, &pe)).To(BeTrue(), "%v", err)
			Expect(pe.Cause).To(Equal(CauseTLS))
			Expect(pe.Message).To(HavePrefix("could not check the target: TLS failure with " + target + "/service/service.asmx: TLS: "))
			Expect(pe.Message).NotTo(ContainSubstring("\n"))
			for _, w := range says {
				Expect(pe.Message).To(ContainSubstring(w))
			}
			expectNoKey(pe.Message, leakKey)
		},
		Entry("no CA given (Go's default client)", func() *tls.Config { return tlsconf.ServerConfig(p.server.TLS, nil) }, false, nil,
			`was issued by "conformance test CA", an authority not trusted here`, "--ca-cert FILE"),
		Entry("no CA given", func() *tls.Config { return tlsconf.ServerConfig(p.server.TLS, nil) }, false, func() tlsconf.Client { return tlsconf.Client{} },
			"an authority not trusted here", "--ca-cert FILE"),
		Entry("a certificate for another name", func() *tls.Config { return tlsconf.ServerConfig(p.wrongName.TLS, nil) }, false,
			func() tlsconf.Client { return tlsconf.Client{CAFile: p.caFile} },
			"not valid for 127.0.0.1 (it is for atm.example.org)", "in --target"),
		Entry("an expired certificate", func() *tls.Config { return tlsconf.ServerConfig(p.expired.TLS, nil) }, false,
			func() tlsconf.Client { return tlsconf.Client{CAFile: p.caFile} },
			"expired on", "the server must serve a valid certificate"),
		Entry("a client certificate required", func() *tls.Config { return tlsconf.ServerConfig(p.server.TLS, p.ca.Pool()) }, false,
			func() tlsconf.Client { return tlsconf.Client{CAFile: p.caFile} },
			"the server requires a client certificate and none was sent", "--client-cert FILE --client-key FILE"),
		Entry("https:// to a plain HTTP port", nil, true, func() tlsconf.Client { return tlsconf.Client{} },
			"does not speak TLS at that address", "use http:// in --target"),
	)

	It("tells a plain HTTP call to an HTTPS port to use https://", func() {
		target := strings.Replace(serveTLS(tlsconf.ServerConfig(p.server.TLS, nil)), "https://", "http://", 1)
		_, _, err := preflightOf(target, leakKey, 5*time.Second)
		var pe *PreflightError
		Expect(errors.As(err, &pe)).To(BeTrue(), "%v", err)
		Expect(pe.Cause).To(Equal(CauseTLS))
		Expect(pe.Message).To(ContainSubstring("speaks HTTPS at that port"))
		Expect(pe.Message).To(ContainSubstring("use https:// in --target"))
	})
})

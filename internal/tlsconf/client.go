package tlsconf

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"slices"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/atmkit/atmkit/internal/neterr"
)

// Client says how a client reaches an HTTPS deployment. The zero value
// trusts the system's authorities (SSL_CERT_FILE and SSL_CERT_DIR
// included) and presents no certificate.
type Client struct {
	// CAFile holds authorities (PEM) trusted besides the system's
	// (--ca-cert).
	CAFile string
	// CertFile and KeyFile are the client certificate and its key, PEM
	// (--client-cert, --client-key).
	CertFile, KeyFile string
	// InsecureSkipVerify accepts any server certificate
	// (--insecure-skip-verify).
	InsecureSkipVerify bool
	// URLSetting is the setting naming the server's URL ("target",
	// "upstream"), for the advice on a certificate for another name.
	URLSetting string
	// LegacyTLS allows TLS 1.0 and 1.1, and the RSA key exchange and 3DES
	// of their servers (--legacy-tls): a deployment on an old Windows
	// Server may offer nothing newer (IIS 6 on Server 2003: 3DES and RC4
	// alone; RC4 is never offered). Off, the client speaks TLS 1.2 and 1.3.
	LegacyTLS bool
}

// legacySuites are the cipher suites of a --legacy-tls client: crypto/tls's
// own for TLS 1.0 to 1.2, then the RSA key exchange with AES-CBC, which
// crypto/tls no longer offers unless asked and which old IIS servers may
// offer alone.
var legacySuites = func() []uint16 {
	var ids []uint16
	for _, s := range tls.CipherSuites() {
		if !slices.Contains(s.SupportedVersions, tls.VersionTLS13) {
			ids = append(ids, s.ID)
		}
	}
	return append(ids, tls.TLS_RSA_WITH_AES_128_GCM_SHA256, tls.TLS_RSA_WITH_AES_256_GCM_SHA384,
		tls.TLS_RSA_WITH_AES_128_CBC_SHA, tls.TLS_RSA_WITH_AES_256_CBC_SHA)
}()

// clientLegacySuites are the cipher suites a --legacy-tls client offers:
// legacySuites, then 3DES (tripleDESSuites), for an IIS on Windows Server
// 2003 whose SChannel offers 3DES and RC4 alone. crypto/tls ranks 3DES
// last, so it is chosen only from a server offering nothing better.
var clientLegacySuites = slices.Concat(legacySuites, tripleDESSuites)

// ClientTLS is a client's TLS, ready to connect.
type ClientTLS struct {
	// Config is the configuration.
	Config *tls.Config
	// Warnings are problems the server will likely have that do not stop
	// the client (its certificate expired).
	Warnings []string
	hints    Hints

	// asked and withheld record, for Explain, that a server asked for a
	// client certificate and that the configured one was not sent.
	asked, withheld atomic.Bool
}

// Load checks c and makes its configuration. Wrong settings are
// *SettingError values.
func (c Client) Load() (*ClientTLS, error) {
	switch {
	case c.CertFile != "" && c.KeyFile == "":
		return nil, bad("client-cert", "needs --client-key FILE, the certificate's private key")
	case c.KeyFile != "" && c.CertFile == "":
		return nil, bad("client-key", "needs --client-cert FILE, the certificate it is the key of")
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: c.InsecureSkipVerify}
	if c.LegacyTLS {
		cfg.MinVersion, cfg.CipherSuites = tls.VersionTLS10, clientLegacySuites
	}
	ct := &ClientTLS{Config: cfg, hints: Hints{URLSetting: c.URLSetting, ClientCert: c.CertFile != "", LegacyTLS: c.LegacyTLS}}
	if c.CAFile != "" {
		data, err := readFile(c.CAFile, "ca-cert")
		if err != nil {
			return nil, err
		}
		roots, err := x509.SystemCertPool()
		if err != nil {
			roots = x509.NewCertPool()
		}
		n, err := addPEM(roots, data)
		if err != nil {
			return nil, bad("ca-cert", "%v", err)
		}
		if n == 0 {
			return nil, bad("ca-cert", "%s", noPEMCert(data))
		}
		cfg.RootCAs = roots
	}
	if c.CertFile != "" {
		cert, err := loadKeyPair(c.CertFile, c.KeyFile, "client-cert", "client-key")
		if err != nil {
			return nil, err
		}
		cfg.Certificates = []tls.Certificate{cert}
		if w := validity(cert.Leaf, time.Now()); w != "" {
			ct.Warnings = append(ct.Warnings, "the certificate of --client-cert "+w+": servers will refuse it")
		}
	}
	certs := cfg.Certificates
	cfg.Certificates = nil
	cfg.GetClientCertificate = func(cri *tls.CertificateRequestInfo) (*tls.Certificate, error) {
		ct.asked.Store(true)
		// crypto/tls's own choice: the first certificate an authority
		// the server accepts issued; none otherwise.
		for i := range certs {
			if cri.SupportsCertificate(&certs[i]) == nil {
				return &certs[i], nil
			}
		}
		if len(certs) > 0 {
			ct.withheld.Store(true)
		}
		return &tls.Certificate{}, nil
	}
	return ct, nil
}

// Transport is an HTTP transport with this configuration: a clone of
// http.DefaultTransport, so proxies come from HTTPS_PROXY, HTTP_PROXY and
// NO_PROXY, whose TLS failures are *Error values saying what failed and
// which setting fixes it.
func (ct *ClientTLS) Transport() http.RoundTripper {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.TLSClientConfig = ct.Config.Clone()
	t.Proxy = http.ProxyFromEnvironment
	return &explaining{next: t, ct: ct}
}

// Explain explains err as Explain does, with what this configuration
// knows: whether a client certificate was configured, asked for and sent.
func (ct *ClientTLS) Explain(err error) *Error {
	h := ct.hints
	h.ServerAsked, h.Withheld = ct.asked.Load(), ct.withheld.Load()
	return Explain(err, h)
}

// explaining is a transport whose TLS failures are explained.
type explaining struct {
	next *http.Transport
	ct   *ClientTLS
}

// RoundTrip sends req and explains a TLS failure, and a plain HTTP
// request answered by an HTTPS server (ExplainPlainHTTP).
func (e *explaining) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := e.next.RoundTrip(req)
	if err != nil {
		if x := e.ct.Explain(err); x != nil {
			return nil, x
		}
		if x := e.explainReset(req, err); x != nil {
			return nil, x
		}
		return nil, err
	}
	if x := ExplainPlainHTTP(resp, e.ct.hints.URLSetting); x != nil {
		return nil, x
	}
	return resp, nil
}

// explainReset explains a plain HTTP request whose connection was reset
// or closed while its body was still being written: an HTTPS server
// answers its 400 and closes without reading the body, and the client's
// write may fail before the answer is read (ExplainPlainHTTP's case). A
// TLS handshake with the same address, sending no request, tells whether
// it serves HTTPS; nil when it does not, or through a proxy.
func (e *explaining) explainReset(req *http.Request, err error) *Error {
	if req.URL.Scheme != "http" || !(neterr.Reset(err) || errors.Is(err, syscall.EPIPE)) {
		return nil
	}
	if e.next.Proxy != nil {
		if p, perr := e.next.Proxy(req); perr != nil || p != nil {
			return nil
		}
	}
	host := req.URL.Host
	if req.URL.Port() == "" {
		host = net.JoinHostPort(req.URL.Hostname(), "80")
	}
	ctx, cancel := context.WithTimeout(req.Context(), 5*time.Second)
	defer cancel()
	// A probe: nothing is sent but a handshake, so any version and suite
	// will do. A server speaking TLS 1.0 only is an HTTPS port too; the
	// https:// request then explains its version (OldVersion).
	d := tls.Dialer{Config: &tls.Config{InsecureSkipVerify: true, MinVersion: tls.VersionTLS10, CipherSuites: clientLegacySuites}}
	conn, derr := d.DialContext(ctx, "tcp", host)
	if derr != nil {
		return nil
	}
	_ = conn.Close()
	return &Error{Kind: PlainToTLS, Err: err,
		Problem: "the server speaks HTTPS at that address, not plain HTTP (it closed the plain HTTP request's connection; a TLS handshake there succeeds)",
		Fix:     "use https:// in " + Hints{URLSetting: e.ct.hints.URLSetting}.url()}
}

// CloseIdleConnections closes the transport's idle connections.
func (e *explaining) CloseIdleConnections() { e.next.CloseIdleConnections() }

// TrustingClient is an HTTP client that trusts roots only (and no proxy):
// the client of a test server whose certificate roots issued.
func TrustingClient(roots *x509.CertPool) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	t.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	return &http.Client{Transport: t}
}

package tlsconf

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"slices"
	"time"

	"github.com/atmkit/atmkit/internal/printable"
)

// DefaultValidity is how long the certificates an Authority issues (and
// the authority itself) are valid when nothing else is asked for.
const DefaultValidity = 365 * 24 * time.Hour

// backdate is how far before now certificates become valid, so that a
// client whose clock is a little behind accepts them.
const backdate = time.Hour

// Authority is a private certificate authority held in memory: its
// certificate may be written out for clients to trust, its key never is.
type Authority struct {
	// Cert is the authority's certificate.
	Cert *x509.Certificate
	key  crypto.Signer
	pem  []byte
	rsa  bool // keys are RSA 2048 ones, not ECDSA P-256
}

// ThrowawayName is the common name of the throwaway authority of
// Server.SelfSigned, whose certificate serve --tls-ca-out writes.
const ThrowawayName = "atmkit throwaway CA"

// NotThrowawayCA says what data, a file about to be replaced by a
// throwaway authority's certificate, holds when it is not one written
// before (a single PEM certificate of an authority named ThrowawayName,
// of the organization atmkit): the types of its PEM blocks ("a PRIVATE
// KEY"), or the certificate's subject, never key material; "" when it is
// one, which may be replaced.
func NotThrowawayCA(data []byte) string {
	b, rest := pem.Decode(data)
	switch {
	case b == nil:
		return "no PEM certificate"
	case b.Type != "CERTIFICATE" || len(bytes.TrimSpace(rest)) > 0:
		return pemTypes(data)
	}
	c, err := x509.ParseCertificate(b.Bytes)
	switch {
	case err != nil:
		return "a CERTIFICATE that does not parse"
	case c.Subject.CommonName != ThrowawayName || !slices.Equal(c.Subject.Organization, []string{"atmkit"}):
		return "the certificate of " + printable.Text(c.Subject.String()) // a subject is any text
	}
	return ""
}

// RSABits is the size of the RSA keys of NewRSAAuthority and of the
// certificates it issues.
const RSABits = 2048

// NewAuthority makes a certificate authority named name (its common name)
// with a new ECDSA P-256 key, valid from an hour ago for validFor (0:
// DefaultValidity).
func NewAuthority(name string, validFor time.Duration) (*Authority, error) {
	return newAuthority(name, validFor, false)
}

// NewRSAAuthority is NewAuthority with an RSA key (RSABits) instead, whose
// certificates Issue makes with RSA keys too, usable for key encipherment:
// the RSA key exchange and 3DES need them, and the SChannel of Windows XP
// and Server 2003 knows no ECDSA.
func NewRSAAuthority(name string, validFor time.Duration) (*Authority, error) {
	return newAuthority(name, validFor, true)
}

// newKey makes a new key: RSA (RSABits) or ECDSA P-256.
func newKey(rsaKey bool) (crypto.Signer, error) {
	if rsaKey {
		return rsa.GenerateKey(rand.Reader, RSABits)
	}
	return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
}

func newAuthority(name string, validFor time.Duration, rsaKey bool) (*Authority, error) {
	if validFor <= 0 {
		validFor = DefaultValidity
	}
	key, err := newKey(rsaKey)
	if err != nil {
		return nil, fmt.Errorf("certificate authority %q: %w", name, err)
	}
	serial, err := serialNumber()
	if err != nil {
		return nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: name, Organization: []string{"atmkit"}},
		NotBefore:             now.Add(-backdate),
		NotAfter:              now.Add(validFor),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, fmt.Errorf("certificate authority %q: %w", name, err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("certificate authority %q: %w", name, err)
	}
	return &Authority{Cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), rsa: rsaKey}, nil
}

// CertPEM is the authority's certificate in PEM, the file clients trust
// (curl --cacert, atmkit's --ca-cert, an app's trust store).
func (a *Authority) CertPEM() []byte { return append([]byte(nil), a.pem...) }

// Pool is a certificate pool holding the authority alone.
func (a *Authority) Pool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(a.Cert)
	return p
}

// Leaf says what certificate Issue makes.
type Leaf struct {
	// Name is the subject's common name; empty: the first host, or "client".
	Name string
	// Hosts are the DNS names and IP addresses a server certificate is
	// valid for (subject alternative names).
	Hosts []string
	// Client makes a client certificate (extended key usage client
	// authentication) instead of a server certificate.
	Client bool
	// NotBefore and NotAfter bound its validity; zero values mean an hour
	// ago and DefaultValidity from now. Tests make expired certificates
	// with them.
	NotBefore, NotAfter time.Time
}

// KeyPair is an issued certificate with its key, ready to serve or to
// present, and in PEM for files.
type KeyPair struct {
	// TLS is the certificate and key as crypto/tls uses them.
	TLS tls.Certificate
	// Cert is the parsed certificate.
	Cert *x509.Certificate
	// CertPEM and KeyPEM are the certificate and its key (PKCS #8) in PEM.
	CertPEM, KeyPEM []byte
}

// Issue makes a certificate signed by the authority, with a new key of
// the authority's kind: ECDSA P-256, or RSA (NewRSAAuthority).
func (a *Authority) Issue(l Leaf) (*KeyPair, error) {
	key, err := newKey(a.rsa)
	if err != nil {
		return nil, fmt.Errorf("issue a certificate: %w", err)
	}
	serial, err := serialNumber()
	if err != nil {
		return nil, err
	}
	name := l.Name
	if name == "" {
		name = "client"
		if !l.Client && len(l.Hosts) > 0 {
			name = l.Hosts[0]
		}
	}
	now := time.Now()
	notBefore, notAfter := l.NotBefore, l.NotAfter
	if notBefore.IsZero() {
		notBefore = now.Add(-backdate)
	}
	if notAfter.IsZero() {
		notAfter = now.Add(DefaultValidity)
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: name, Organization: []string{"atmkit"}},
		NotBefore:    notBefore,
		NotAfter:     notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	if a.rsa {
		// The RSA key exchange encrypts the premaster secret with the
		// certificate's key; SChannel checks the usage allows it.
		tmpl.KeyUsage |= x509.KeyUsageKeyEncipherment
	}
	if l.Client {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	}
	for _, h := range l.Hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		} else {
			tmpl.DNSNames = append(tmpl.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, a.Cert, key.Public(), a.key)
	if err != nil {
		return nil, fmt.Errorf("issue a certificate for %q: %w", name, err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("issue a certificate for %q: %w", name, err)
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("issue a certificate for %q: %w", name, err)
	}
	return &KeyPair{
		TLS:     tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: cert},
		Cert:    cert,
		CertPEM: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		KeyPEM:  pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8}),
	}, nil
}

// serialNumber is a random 128-bit certificate serial number.
func serialNumber() (*big.Int, error) {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return nil, fmt.Errorf("certificate serial number: %w", err)
	}
	return n, nil
}

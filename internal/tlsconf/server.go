package tlsconf

import (
	"bytes"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/atmkit/atmkit/internal/printable"
)

// SettingError is a setting whose value cannot be used: a file that does
// not exist or holds no certificate, a key that does not match, a setting
// that needs another.
type SettingError struct {
	// Setting is the flag's name without its dashes, e.g. "tls-cert".
	Setting string
	// Problem says what is wrong, without the value.
	Problem string
}

// Error names the setting and its problem, as a command line error.
func (e *SettingError) Error() string { return "--" + e.Setting + ": " + e.Problem }

func bad(setting, format string, args ...any) error {
	return &SettingError{Setting: setting, Problem: fmt.Sprintf(format, args...)}
}

// LoopbackHosts are the names a throwaway certificate is always valid for.
var LoopbackHosts = []string{"127.0.0.1", "::1", "localhost"}

// ServerConfig is the TLS configuration every atmkit server serves with:
// cert, TLS 1.2 or later, HTTP/1.1 (the protocol of ASMX's clients, and
// the one in which a connection can be dropped as a fault drops it) and,
// when clientCAs is not nil, a client certificate required and verified
// against clientCAs.
func ServerConfig(cert tls.Certificate, clientCAs *x509.CertPool) *tls.Config {
	cfg := &tls.Config{
		Certificates: []tls.Certificate{cert},
		MinVersion:   tls.VersionTLS12,
		NextProtos:   []string{"http/1.1"},
	}
	if clientCAs != nil {
		cfg.ClientCAs = clientCAs
		cfg.ClientAuth = tls.RequireAndVerifyClientCert
	}
	return cfg
}

// Server says how a server serves TLS: with a certificate and key from PEM
// files, or with a throwaway certificate issued at start. The zero value
// serves plain HTTP.
type Server struct {
	// CertFile and KeyFile are the certificate (chain) and its private
	// key, PEM (--tls-cert, --tls-key).
	CertFile, KeyFile string
	// ClientCAFile holds the authorities (PEM) whose client certificates
	// the server requires (--tls-client-ca); empty: none is asked for.
	ClientCAFile string
	// SelfSigned issues a throwaway certificate from a throwaway authority
	// for LoopbackHosts and Hosts (--tls-self-signed): ECDSA P-256 ones,
	// or RSA ones (RSABits) when MinVersion is below TLS 1.2.
	SelfSigned bool
	// Hosts are further names of a throwaway certificate, such as the
	// address the server listens on.
	Hosts []string
	// MinVersion is the oldest TLS version served (--tls-min-version);
	// 0 is TLS 1.2. TLS 1.0 and 1.1 are for legacy clients only: a .NET
	// Framework app before 4.6 offers nothing newer unless told to. Below
	// 1.2, the RSA key exchange is served too, which crypto/tls leaves
	// out by default and an old Windows's client may offer alone; at 1.0,
	// 3DES too (tripleDESSuites), last.
	MinVersion uint16
}

// tripleDESSuites are crypto/tls's 3DES suites, which it leaves out
// unless asked: served with --tls-min-version 1.0 only, for a client of
// Windows XP or Server 2003, which offers 3DES and RC4 alone. Both need a
// certificate of an RSA key.
var tripleDESSuites = []uint16{tls.TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA, tls.TLS_RSA_WITH_3DES_EDE_CBC_SHA}

// ParseVersion reads a TLS version as --tls-min-version takes it: 1.0,
// 1.1, 1.2 or 1.3.
func ParseVersion(v string) (uint16, error) {
	switch v {
	case "1.0":
		return tls.VersionTLS10, nil
	case "1.1":
		return tls.VersionTLS11, nil
	case "1.2":
		return tls.VersionTLS12, nil
	case "1.3":
		return tls.VersionTLS13, nil
	}
	return 0, fmt.Errorf("%q: want 1.0, 1.1, 1.2 or 1.3", v)
}

// Enabled reports whether s serves TLS.
func (s Server) Enabled() bool { return s.CertFile != "" || s.KeyFile != "" || s.SelfSigned }

// Serving is a server's TLS, ready to serve.
type Serving struct {
	// Config is the configuration (ServerConfig).
	Config *tls.Config
	// Cert is the certificate served.
	Cert *x509.Certificate
	// Authority issued Cert when it is a throwaway one; nil otherwise.
	Authority *Authority
	// ClientCAs is how many authorities client certificates may come
	// from; 0 when none is asked for.
	ClientCAs int
	// Warnings are problems clients will have that do not stop the server
	// (a certificate expired or not yet valid).
	Warnings []string
}

// Load checks s and makes its serving configuration; nil when s serves
// plain HTTP. Wrong settings are *SettingError values.
func (s Server) Load() (*Serving, error) {
	switch {
	case s.SelfSigned && (s.CertFile != "" || s.KeyFile != ""):
		return nil, bad("tls-self-signed", "cannot be combined with --tls-cert and --tls-key: give a certificate or ask for a throwaway one")
	case s.CertFile != "" && s.KeyFile == "":
		return nil, bad("tls-cert", "needs --tls-key FILE, the certificate's private key")
	case s.KeyFile != "" && s.CertFile == "":
		return nil, bad("tls-key", "needs --tls-cert FILE, the certificate it is the key of")
	case s.ClientCAFile != "" && !s.Enabled():
		return nil, bad("tls-client-ca", "needs TLS: --tls-cert FILE --tls-key FILE, or --tls-self-signed")
	case s.MinVersion != 0 && !s.Enabled():
		return nil, bad("tls-min-version", "needs TLS: --tls-cert FILE --tls-key FILE, or --tls-self-signed")
	case !s.Enabled():
		return nil, nil
	}
	sv := &Serving{}
	var cert tls.Certificate
	if s.SelfSigned {
		newCA := NewAuthority
		if s.MinVersion != 0 && s.MinVersion < tls.VersionTLS12 {
			// A client of TLS 1.0 or 1.1 is most likely an old
			// Windows's, whose SChannel knows no ECDSA (XP's and Server
			// 2003's), and the RSA key exchange and 3DES served for it
			// need an RSA key: with ECDSA ones it shares no suite.
			newCA = NewRSAAuthority
			// At 1.1, no XP or 2003 client connects (their SChannel
			// speaks TLS 1.0 at most) and 3DES is not served: only
			// the RSA key exchange needs the RSA key.
			why := "the RSA key exchange served below TLS 1.2 needs an RSA key"
			if s.MinVersion == tls.VersionTLS10 {
				why = "a client of Windows XP or Server 2003 knows no ECDSA, and the RSA key exchange and 3DES need an RSA key"
			}
			sv.Warnings = append(sv.Warnings, fmt.Sprintf("--tls-self-signed with --tls-min-version %s: the throwaway certificate and authority are RSA %d ones, not ECDSA: %s",
				tls.VersionName(s.MinVersion)[len("TLS "):], RSABits, why))
		}
		ca, err := newCA(ThrowawayName, 0)
		if err != nil {
			return nil, err
		}
		hosts := append([]string(nil), LoopbackHosts...)
		for _, h := range s.Hosts {
			if h != "" && !slices.Contains(hosts, h) {
				hosts = append(hosts, h)
			}
		}
		kp, err := ca.Issue(Leaf{Hosts: hosts})
		if err != nil {
			return nil, err
		}
		cert, sv.Authority = kp.TLS, ca
	} else {
		var err error
		if cert, err = loadKeyPair(s.CertFile, s.KeyFile, "tls-cert", "tls-key"); err != nil {
			return nil, err
		}
	}
	sv.Cert = cert.Leaf
	var clientCAs *x509.CertPool
	if s.ClientCAFile != "" {
		pool, n, err := loadPool(s.ClientCAFile, "tls-client-ca")
		if err != nil {
			return nil, err
		}
		clientCAs, sv.ClientCAs = pool, n
	}
	if w := validity(sv.Cert, time.Now()); w != "" {
		sv.Warnings = append(sv.Warnings, "the certificate of --tls-cert "+w+": clients will refuse it")
	}
	sv.Config = ServerConfig(cert, clientCAs)
	if s.MinVersion != 0 {
		sv.Config.MinVersion = s.MinVersion
	}
	if v := sv.Config.MinVersion; v < tls.VersionTLS12 {
		// A client of TLS 1.0 may offer the RSA key exchange alone (an
		// old Windows Server's): served as --legacy-tls offers it.
		sv.Config.CipherSuites = legacySuites
		accepted := "TLS 1.0 and 1.1 are accepted, and 3DES for a client that offers nothing better (Windows XP's); they are deprecated (RFC 8996; 3DES: Sweet32) and no current client needs them"
		if v == tls.VersionTLS11 {
			accepted = "TLS 1.1 is accepted (1.0 is not); it is deprecated (RFC 8996) and no current client needs it"
		} else {
			// TLS 1.0 is also Windows XP's and Server 2003's: their
			// SChannel offers 3DES and RC4 alone (a .NET Framework 2.0
			// to 3.5 app there). 3DES is served last: crypto/tls picks
			// it only for a client that offers nothing better. RC4
			// never (RFC 7465).
			sv.Config.CipherSuites = slices.Concat(legacySuites, tripleDESSuites)
		}
		sv.Warnings = append(sv.Warnings, fmt.Sprintf("--tls-min-version %s: %s: for a legacy app only", tls.VersionName(v)[len("TLS "):], accepted))
	}
	return sv, nil
}

// Describe is one line on the certificate served: the names it is valid
// for, its issuer and when it expires, and the client certificates asked for.
func (sv *Serving) Describe() string {
	c := sv.Cert
	s := fmt.Sprintf("for %s, issued by %s, valid until %s", strings.Join(names(c), ", "),
		c.Issuer.CommonName, c.NotAfter.UTC().Format("2006-01-02"))
	if _, ok := c.PublicKey.(*rsa.PublicKey); ok && sv.Authority != nil {
		s += fmt.Sprintf("; an RSA %d key (for TLS 1.0 and 1.1 clients)", RSABits)
	}
	if sv.ClientCAs > 0 {
		s += fmt.Sprintf("; client certificates required (from %d authorit%s)", sv.ClientCAs, plural(sv.ClientCAs, "y", "ies"))
	}
	if v := sv.Config.MinVersion; v != tls.VersionTLS12 {
		s += "; " + tls.VersionName(v) + " and later"
	}
	return s
}

// validity says what is wrong with c's validity period at now, or "".
func validity(c *x509.Certificate, now time.Time) string {
	switch {
	case c == nil:
		return ""
	case now.After(c.NotAfter):
		return "expired on " + c.NotAfter.UTC().Format(time.RFC3339)
	case now.Before(c.NotBefore):
		return "is not valid before " + c.NotBefore.UTC().Format(time.RFC3339)
	}
	return ""
}

// loadKeyPair reads a certificate (chain) and its key from PEM files,
// naming the setting of whichever is wrong.
func loadKeyPair(certFile, keyFile, certSetting, keySetting string) (tls.Certificate, error) {
	certPEM, err := readFile(certFile, certSetting)
	if err != nil {
		return tls.Certificate{}, err
	}
	keyPEM, err := readFile(keyFile, keySetting)
	if err != nil {
		return tls.Certificate{}, err
	}
	if !hasBlock(certPEM, func(t string) bool { return t == "CERTIFICATE" }) {
		return tls.Certificate{}, bad(certSetting, "%s", noPEMCert(certPEM))
	}
	if !hasBlock(keyPEM, func(t string) bool { return strings.HasSuffix(t, "PRIVATE KEY") }) {
		return tls.Certificate{}, bad(keySetting, "%s", noPEMKey(keyPEM))
	}
	if encrypted(keyPEM) {
		return tls.Certificate{}, bad(keySetting, "the key is encrypted (protected by a passphrase), which atmkit cannot read: "+
			"give it unencrypted, e.g. openssl pkey -in KEY -out KEY-plain.pem (it asks for the passphrase), in a file only its user can read")
	}
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "tls: ")
		switch {
		case strings.Contains(msg, "does not match"):
			return tls.Certificate{}, bad(keySetting, "not the key of the certificate of --%s (the first certificate in it, the server's or client's own)", certSetting)
		case strings.Contains(msg, "private key"): // "failed to parse private key", "unknown private key type"
			return tls.Certificate{}, bad(keySetting, "%s", msg)
		}
		return tls.Certificate{}, bad(certSetting, "with the key of --%s: %s", keySetting, msg)
	}
	return cert, nil
}

// pkcs7Data is the DER of the object identifier pkcs7-data
// (1.2.840.113549.1.7.1), which a PKCS #12 bundle's content names first.
var pkcs7Data = []byte{0x06, 0x09, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x07, 0x01}

// isPKCS12 reports whether data looks like a PKCS #12 bundle (.pfx, .p12,
// what Windows exports a certificate with its key as): a DER sequence,
// version 3, whose content is pkcs7-data.
func isPKCS12(data []byte) bool {
	head := data[:min(len(data), 32)]
	return len(data) > 4 && data[0] == 0x30 && bytes.Contains(head, []byte{0x02, 0x01, 0x03}) && bytes.Contains(head, pkcs7Data)
}

// pkcs12Advice is the way out of a PKCS #12 bundle.
const pkcs12Advice = "a PKCS #12 bundle (.pfx, .p12), not PEM: extract the certificate with openssl pkcs12 -in FILE -clcerts -nokeys -out cert.pem, and its key with openssl pkcs12 -in FILE -nocerts -nodes -out key.pem"

// noPEMCert says why data, which holds no PEM certificate, is none: a DER
// (binary) certificate, as Windows exports .cer files, or a PKCS #12
// bundle, with the command that converts it.
func noPEMCert(data []byte) string {
	const problem = "no PEM certificate (-----BEGIN CERTIFICATE-----) in it"
	switch {
	case pemTypes(data) != "":
		return problem + ": it holds " + pemTypes(data) + ", not a certificate"
	case isPKCS12(data):
		return problem + ": " + pkcs12Advice
	case len(data) > 0 && data[0] == 0x30:
		if _, err := x509.ParseCertificate(data); err == nil {
			return problem + ": a DER (binary) certificate: convert it with openssl x509 -inform DER -in FILE -out cert.pem"
		}
	}
	return problem
}

// pemTypes names the kinds of the PEM blocks of data, by their types
// ("a PRIVATE KEY", "a CERTIFICATE REQUEST and a PUBLIC KEY"), never
// their content: what a file given for another by mistake holds; "" when
// data holds no PEM block. A type is any text of its line: it is shown
// as printable text (a terminal's escape sequences escaped), cut after
// maxShownType characters.
func pemTypes(data []byte) string {
	var types []string
	for len(types) < 3 {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			break
		}
		name := b.Type
		for i := range name {
			if i >= maxShownType {
				name = name[:i] + "…"
				break
			}
		}
		t := "a " + printable.Text(name)
		if strings.ContainsAny(name[:min(len(name), 1)], "AEIOU") {
			t = "an " + printable.Text(name) // an EC PRIVATE KEY, an ENCRYPTED PRIVATE KEY
		}
		if !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	return strings.Join(types, " and ")
}

// maxShownType is the most of a PEM block's type pemTypes shows, in
// bytes: the longest type OpenSSL writes is under 40.
const maxShownType = 60

// noPEMKey is noPEMCert for a private key.
func noPEMKey(data []byte) string {
	const problem = "no PEM private key (-----BEGIN PRIVATE KEY-----) in it"
	switch {
	case pemTypes(data) != "":
		return problem + ": it holds " + pemTypes(data) + ", not a private key"
	case isPKCS12(data):
		return problem + ": " + pkcs12Advice
	case len(data) > 0 && data[0] == 0x30:
		_, err8 := x509.ParsePKCS8PrivateKey(data)
		_, errEC := x509.ParseECPrivateKey(data)
		_, err1 := x509.ParsePKCS1PrivateKey(data)
		if err8 == nil || errEC == nil || err1 == nil {
			return problem + ": a DER (binary) key: convert it with openssl pkey -inform DER -in FILE -out key.pem"
		}
	}
	return problem
}

// encrypted reports whether the first private key of data is encrypted:
// PKCS #8's ENCRYPTED PRIVATE KEY, or OpenSSL's traditional form with a
// Proc-Type: 4,ENCRYPTED header.
func encrypted(data []byte) bool {
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		switch {
		case b == nil:
			return false
		case b.Type == "ENCRYPTED PRIVATE KEY" || strings.Contains(b.Headers["Proc-Type"], "ENCRYPTED"):
			return true
		case strings.HasSuffix(b.Type, "PRIVATE KEY"):
			return false
		}
	}
}

// loadPool reads the PEM certificates of file into a new pool.
func loadPool(file, setting string) (*x509.CertPool, int, error) {
	data, err := readFile(file, setting)
	if err != nil {
		return nil, 0, err
	}
	pool := x509.NewCertPool()
	n, err := addPEM(pool, data)
	if err != nil {
		return nil, 0, bad(setting, "%v", err)
	}
	if n == 0 {
		return nil, 0, bad(setting, "%s", noPEMCert(data))
	}
	return pool, n, nil
}

// addPEM adds every certificate of data to pool and returns how many.
func addPEM(pool *x509.CertPool, data []byte) (int, error) {
	n := 0
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			return n, nil
		}
		if b.Type != "CERTIFICATE" {
			continue
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			return n, fmt.Errorf("certificate %d does not parse: %w", n+1, err)
		}
		pool.AddCert(c)
		n++
	}
}

// maxPEM is the most read of a PEM file, in bytes: a certificate and its
// chain are a few KB, the system's CA bundle a few hundred.
const maxPEM = 4 << 20

// readFile reads the PEM file of setting, no more than maxPEM bytes and
// one: a device that never ends (/dev/zero) is refused having read that
// much, not read until memory runs out; a pipe (<(vault read …)) is read.
func readFile(file, setting string) ([]byte, error) {
	f, err := os.Open(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, bad(setting, "the file does not exist")
	case err != nil:
		return nil, bad(setting, "%v", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, bad(setting, "a directory; want a PEM file") // not "read DIR: is a directory"
	}
	data, err := io.ReadAll(io.LimitReader(f, maxPEM+1))
	switch {
	case err != nil:
		return nil, bad(setting, "%v", err)
	case len(bytes.TrimSpace(data)) == 0:
		return nil, bad(setting, "the file is empty; want a PEM file")
	case len(data) > maxPEM:
		return nil, bad(setting, "over %d MiB, larger than any PEM file or CA bundle: is it the right file?", maxPEM>>20)
	}
	return data, nil
}

func hasBlock(data []byte, typeOK func(string) bool) bool {
	for {
		var b *pem.Block
		b, data = pem.Decode(data)
		if b == nil {
			return false
		}
		if typeOK(b.Type) {
			return true
		}
	}
}

// names are the host names and addresses c is valid for.
func names(c *x509.Certificate) []string {
	out := append([]string(nil), c.DNSNames...)
	for _, ip := range c.IPAddresses {
		out = append(out, ip.String())
	}
	if len(out) == 0 {
		return []string{"no host name (no subject alternative names)"}
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

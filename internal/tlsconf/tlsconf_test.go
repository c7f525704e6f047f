package tlsconf

import (
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/atmkit/atmkit/internal/mocktest"
)

// pki is a private authority, another one, and certificates they issued,
// made in the test and written to files.
type pki struct {
	dir           string
	ca, other     *Authority
	caFile        string // ca's certificate
	otherFile     string // other's certificate
	server        *KeyPair
	client        *KeyPair // issued by ca
	otherClient   *KeyPair // issued by other
	expiredClient *KeyPair // issued by ca, expired
}

func newPKI(t *testing.T) *pki {
	t.Helper()
	p := &pki{dir: t.TempDir()}
	var err error
	if p.ca, err = NewAuthority("test CA", time.Hour); err != nil {
		t.Fatal(err)
	}
	if p.other, err = NewAuthority("other CA", time.Hour); err != nil {
		t.Fatal(err)
	}
	p.caFile = p.write(t, "ca.pem", p.ca.CertPEM())
	p.otherFile = p.write(t, "other.pem", p.other.CertPEM())
	p.server = p.issue(t, p.ca, Leaf{Hosts: LoopbackHosts})
	p.client = p.issue(t, p.ca, Leaf{Client: true, Name: "app"})
	p.otherClient = p.issue(t, p.other, Leaf{Client: true, Name: "stranger"})
	p.expiredClient = p.issue(t, p.ca, Leaf{Client: true, Name: "old app", NotBefore: time.Now().Add(-48 * time.Hour), NotAfter: time.Now().Add(-24 * time.Hour)})
	return p
}

func (p *pki) issue(t *testing.T, a *Authority, l Leaf) *KeyPair {
	t.Helper()
	kp, err := a.Issue(l)
	if err != nil {
		t.Fatal(err)
	}
	return kp
}

func (p *pki) write(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(p.dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// files writes kp's certificate and key and returns their paths.
func (p *pki) files(t *testing.T, name string, kp *KeyPair) (cert, key string) {
	t.Helper()
	return p.write(t, name+".pem", kp.CertPEM), p.write(t, name+"-key.pem", kp.KeyPEM)
}

// serveTLS starts an HTTPS server with cfg answering "ok".
func serveTLS(t *testing.T, cfg *tls.Config) string {
	t.Helper()
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, "ok")
	}))
	srv.TLS = cfg
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv.URL
}

func call(t *testing.T, c Client, url string) error {
	t.Helper()
	ct, err := c.Load()
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	client := &http.Client{Transport: ct.Transport(), Timeout: 10 * time.Second}
	defer client.CloseIdleConnections()
	resp, err := client.Get(url)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err == nil && string(body) != "ok" {
		t.Errorf("body: got %q, want %q", body, "ok")
	}
	return err
}

// TestExplain: every certificate problem comes back as one line saying
// what failed and which setting fixes it.
func TestExplain(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	clientCert, clientKey := p.files(t, "client", p.client)
	otherCert, otherKey := p.files(t, "stranger", p.otherClient)
	oldCert, oldKey := p.files(t, "old", p.expiredClient)
	wrongName := p.issue(t, p.ca, Leaf{Hosts: []string{"atm.example.org"}})
	expired := p.issue(t, p.ca, Leaf{Hosts: LoopbackHosts, NotBefore: time.Now().Add(-48 * time.Hour), NotAfter: time.Now().Add(-24 * time.Hour)})
	future := p.issue(t, p.ca, Leaf{Hosts: LoopbackHosts, NotBefore: time.Now().Add(24 * time.Hour), NotAfter: time.Now().Add(48 * time.Hour)})

	plain := ServerConfig(p.server.TLS, nil)
	mutual := ServerConfig(p.server.TLS, p.ca.Pool())
	mutual12 := ServerConfig(p.server.TLS, p.ca.Pool())
	mutual12.MaxVersion = tls.VersionTLS12
	plainHTTP := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	t.Cleanup(plainHTTP.Close)
	// nginx's answer to plain HTTP on its HTTPS port; and a 400 of a
	// plain HTTP server, which is the server's answer (body and all).
	nginx := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, "<html>\r\n<head><title>400 The plain HTTP request was sent to HTTPS port</title></head>\r\n<body>\r\n<center><h1>400 Bad Request</h1></center>\r\n<center>The plain HTTP request was sent to HTTPS port</center>\r\n</body>\r\n</html>\r\n")
	}))
	t.Cleanup(nginx.Close)
	plain400 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = io.WriteString(w, "ok")
	}))
	t.Cleanup(plain400.Close)

	trusting := Client{CAFile: p.caFile, URLSetting: "target"}
	withCert := trusting
	withCert.CertFile, withCert.KeyFile = clientCert, clientKey
	stranger := trusting
	stranger.CertFile, stranger.KeyFile = otherCert, otherKey
	old := trusting
	old.CertFile, old.KeyFile = oldCert, oldKey

	tests := []struct {
		name   string
		server *tls.Config
		url    string // instead of a server
		client Client
		kind   Kind // "": no error
		want   []string
	}{
		{"trusted", plain, "", trusting, "", nil},
		{"unknown authority", plain, "", Client{URLSetting: "target"}, UnknownAuthority,
			[]string{`TLS: the server's certificate (127.0.0.1) was issued by "test CA", an authority not trusted here`, "--ca-cert FILE"}},
		{"another authority", plain, "", Client{CAFile: p.otherFile}, UnknownAuthority, []string{"--ca-cert FILE"}},
		{"name mismatch", ServerConfig(wrongName.TLS, nil), "", trusting, NameMismatch,
			[]string{"not valid for 127.0.0.1 (it is for atm.example.org)", "use a host name the certificate names in --target"}},
		{"expired", ServerConfig(expired.TLS, nil), "", trusting, Expired,
			[]string{"TLS: the server's certificate (127.0.0.1) expired on " + expired.Cert.NotAfter.UTC().Format(time.RFC3339), "--insecure-skip-verify only hides it"}},
		{"not yet valid", ServerConfig(future.TLS, nil), "", trusting, Expired, []string{"is not valid before"}},
		{"insecure accepts a wrong name", ServerConfig(wrongName.TLS, nil), "", Client{InsecureSkipVerify: true}, "", nil},
		{"client certificate", mutual, "", withCert, "", nil},
		{"client certificate required (TLS 1.3)", mutual, "", trusting, ClientCertRequired,
			[]string{"the server requires a client certificate and none was sent (it said: certificate required)", "--client-cert FILE --client-key FILE"}},
		{"client certificate required (TLS 1.2)", mutual12, "", trusting, ClientCertRequired,
			[]string{"the server requires a client certificate and none was sent (it said: handshake failure)", "--client-cert FILE --client-key FILE"}},
		{"client certificate of another authority (TLS 1.3)", mutual, "", stranger, ClientCertRefused,
			[]string{"requires a client certificate from an authority it accepts, and the one of --client-cert is from another, so none was sent (it said: certificate required)"}},
		{"client certificate of another authority (TLS 1.2)", mutual12, "", stranger, ClientCertRefused,
			[]string{"the one of --client-cert is from another, so none was sent (it said: handshake failure)"}},
		{"client certificate expired", mutual, "", old, ClientCertRefused, []string{"refused the client certificate of --client-cert: it expired"}},
		{"plain HTTP server", nil, strings.Replace(plainHTTP.URL, "http://", "https://", 1), trusting, NotTLS,
			[]string{"does not speak TLS at that address", "use http:// in --target"}},
		{"http:// to an HTTPS port", nil, "-", trusting, PlainToTLS,
			[]string{`the server speaks HTTPS at that address, not plain HTTP (it answered with 400 "Client sent an HTTP request to an HTTPS server.")`, "use https:// in --target"}},
		{"http:// to nginx's HTTPS port", nil, nginx.URL, trusting, PlainToTLS,
			[]string{`400 "The plain HTTP request was sent to HTTPS port"`, "use https:// in --target"}},
		{"a 400 of a plain HTTP server", nil, plain400.URL, trusting, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			url := tt.url
			switch url {
			case "":
				url = serveTLS(t, tt.server)
			case "-": // plain HTTP to an HTTPS server
				url = strings.Replace(serveTLS(t, plain), "https://", "http://", 1)
			}
			err := call(t, tt.client, url)
			if tt.kind == "" {
				if err != nil {
					t.Fatalf("got %v, want no error", err)
				}
				return
			}
			var x *Error
			if !errors.As(err, &x) {
				t.Fatalf("got %v (%T), want a *tlsconf.Error", err, err)
			}
			if x.Kind != tt.kind {
				t.Errorf("kind: got %q, want %q (%v)", x.Kind, tt.kind, x)
			}
			for _, w := range tt.want {
				if !strings.Contains(x.Error(), w) {
					t.Errorf("got %q, want %q in it", x.Error(), w)
				}
			}
			t.Log(x)
			if strings.Contains(x.Error(), "\n") {
				t.Errorf("got %q, want one line", x.Error())
			}
		})
	}
}

// TestExplainOther: errors that are no TLS failure are not explained.
func TestExplainOther(t *testing.T) {
	t.Parallel()
	for _, err := range []error{nil, io.EOF, errors.New("dial tcp 127.0.0.1:1: connect: connection refused")} {
		if x := Explain(err, Hints{}); x != nil {
			t.Errorf("Explain(%v): got %q, want nil", err, x)
		}
	}
}

// TestLoad: wrong files and settings are setting errors naming the setting.
func TestLoad(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	cert, key := p.files(t, "server", p.server)
	_, otherKey := p.files(t, "client", p.client)
	missing := filepath.Join(p.dir, "missing.pem")
	garbage := p.write(t, "garbage.pem", []byte("not a certificate\n"))
	empty := p.write(t, "empty.pem", []byte("\n"))
	// Encrypted keys as openssl writes them (the ciphertext does not
	// matter: atmkit reads no encrypted key), and a key that does not parse.
	encrypted8 := p.write(t, "enc8.pem", pem.EncodeToMemory(&pem.Block{Type: "ENCRYPTED PRIVATE KEY", Bytes: []byte("ciphertext")}))
	encryptedEC := p.write(t, "enc-ec.pem", pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY",
		Headers: map[string]string{"Proc-Type": "4,ENCRYPTED", "DEK-Info": "AES-256-CBC,61AC90747EA61EC8F31C87E8F62EBA84"}, Bytes: []byte("ciphertext")}))
	brokenKey := p.write(t, "broken.pem", pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte("not DER")}))
	// A certificate and a key in DER, as Windows exports .cer files, and
	// the start of a PKCS #12 bundle as openssl pkcs12 -export writes it.
	derCA := p.write(t, "ca.cer", p.ca.Cert.Raw)
	keyBlock, _ := pem.Decode(p.server.KeyPEM)
	derKey := p.write(t, "server-key.der", keyBlock.Bytes)
	pfx := p.write(t, "client.pfx", append(append([]byte{0x30, 0x82, 0x04, 0x0c, 0x02, 0x01, 0x03, 0x30, 0x82, 0x03, 0xc2}, pkcs7Data...), make([]byte, 1000)...))
	// Larger than any PEM file or CA bundle: what /dev/zero, read without
	// end, was (it used all memory).
	huge := p.write(t, "huge.pem", make([]byte, maxPEM+1))
	tests := []struct {
		name    string
		load    func() error
		setting string
		want    string
	}{
		{"cert over the limit", func() error { _, err := Server{CertFile: huge, KeyFile: key}.Load(); return err }, "tls-cert", "over 4 MiB, larger than any PEM file or CA bundle"},
		{"CA over the limit", func() error { _, err := Client{CAFile: huge}.Load(); return err }, "ca-cert", "over 4 MiB"},
		{"cert without key", func() error { _, err := Server{CertFile: cert}.Load(); return err }, "tls-cert", "needs --tls-key FILE"},
		{"key without cert", func() error { _, err := Server{KeyFile: key}.Load(); return err }, "tls-key", "needs --tls-cert FILE"},
		{"self-signed and files", func() error { _, err := Server{SelfSigned: true, CertFile: cert, KeyFile: key}.Load(); return err }, "tls-self-signed", "cannot be combined"},
		{"client CA without TLS", func() error { _, err := Server{ClientCAFile: p.caFile}.Load(); return err }, "tls-client-ca", "needs TLS"},
		{"cert missing", func() error { _, err := Server{CertFile: missing, KeyFile: key}.Load(); return err }, "tls-cert", "the file does not exist"},
		{"key missing", func() error { _, err := Server{CertFile: cert, KeyFile: missing}.Load(); return err }, "tls-key", "does not exist"},
		{"cert not PEM", func() error { _, err := Server{CertFile: garbage, KeyFile: key}.Load(); return err }, "tls-cert", "no PEM certificate"},
		{"key not PEM", func() error { _, err := Server{CertFile: cert, KeyFile: garbage}.Load(); return err }, "tls-key", "no PEM private key"},
		{"key of another certificate", func() error { _, err := Server{CertFile: cert, KeyFile: otherKey}.Load(); return err }, "tls-key", "not the key of the certificate of --tls-cert"},
		{"client CA not PEM", func() error {
			_, err := Server{CertFile: cert, KeyFile: key, ClientCAFile: garbage}.Load()
			return err
		}, "tls-client-ca", "no PEM certificate"},
		{"CA missing", func() error { _, err := Client{CAFile: missing}.Load(); return err }, "ca-cert", "does not exist"},
		{"CA not PEM", func() error { _, err := Client{CAFile: garbage}.Load(); return err }, "ca-cert", "no PEM certificate"},
		{"client cert without key", func() error { _, err := Client{CertFile: cert}.Load(); return err }, "client-cert", "needs --client-key FILE"},
		{"client key without cert", func() error { _, err := Client{KeyFile: key}.Load(); return err }, "client-key", "needs --client-cert FILE"},
		{"client key of another certificate", func() error { _, err := Client{CertFile: cert, KeyFile: otherKey}.Load(); return err }, "client-key", "not the key of the certificate of --client-cert"},
		{"key encrypted (PKCS #8)", func() error { _, err := Server{CertFile: cert, KeyFile: encrypted8}.Load(); return err }, "tls-key", "the key is encrypted (protected by a passphrase)"},
		{"key encrypted (OpenSSL's traditional form)", func() error { _, err := Server{CertFile: cert, KeyFile: encryptedEC}.Load(); return err }, "tls-key", "openssl pkey -in KEY"},
		{"client key encrypted", func() error { _, err := Client{CertFile: cert, KeyFile: encrypted8}.Load(); return err }, "client-key", "the key is encrypted"},
		{"CA in DER", func() error { _, err := Client{CAFile: derCA}.Load(); return err }, "ca-cert", "a DER (binary) certificate: convert it with openssl x509 -inform DER"},
		{"client CA in DER", func() error { _, err := Server{CertFile: cert, KeyFile: key, ClientCAFile: derCA}.Load(); return err }, "tls-client-ca", "a DER (binary) certificate"},
		{"key in DER", func() error { _, err := Server{CertFile: cert, KeyFile: derKey}.Load(); return err }, "tls-key", "a DER (binary) key: convert it with openssl pkey -inform DER"},
		{"client certificate in PKCS #12", func() error { _, err := Client{CertFile: pfx, KeyFile: pfx}.Load(); return err }, "client-cert", "a PKCS #12 bundle (.pfx, .p12), not PEM: extract the certificate with openssl pkcs12"},
		{"key that does not parse", func() error { _, err := Server{CertFile: cert, KeyFile: brokenKey}.Load(); return err }, "tls-key", "failed to parse private key"},
		// A file of the other kind given by mistake: what it holds is
		// named, by its PEM type, never its content.
		{"CA a private key", func() error { _, err := Client{CAFile: key}.Load(); return err }, "ca-cert", "it holds a PRIVATE KEY, not a certificate"},
		{"client CA a private key", func() error { _, err := Server{CertFile: cert, KeyFile: key, ClientCAFile: key}.Load(); return err }, "tls-client-ca", "it holds a PRIVATE KEY, not a certificate"},
		{"cert a private key", func() error { _, err := Server{CertFile: key, KeyFile: key}.Load(); return err }, "tls-cert", "it holds a PRIVATE KEY, not a certificate"},
		// A directory or an empty file is said to be one: "read DIR: is
		// a directory", and "no PEM certificate in it" for an empty file.
		{"CA a directory", func() error { _, err := Client{CAFile: p.dir}.Load(); return err }, "ca-cert", "a directory; want a PEM file"},
		{"key empty", func() error { _, err := Server{CertFile: cert, KeyFile: empty}.Load(); return err }, "tls-key", "the file is empty; want a PEM file"},
		{"key a certificate", func() error { _, err := Server{CertFile: cert, KeyFile: cert}.Load(); return err }, "tls-key", "it holds a CERTIFICATE, not a private key"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := tt.load()
			var se *SettingError
			if !errors.As(err, &se) {
				t.Fatalf("got %v, want a *SettingError", err)
			}
			if se.Setting != tt.setting || !strings.Contains(se.Problem, tt.want) {
				t.Errorf("got %q: %q, want %q: %q", se.Setting, se.Problem, tt.setting, tt.want)
			}
			if material := base64.StdEncoding.EncodeToString(keyBlock.Bytes)[:16]; strings.Contains(se.Problem, material) {
				t.Errorf("got %q: it prints the key's material", se.Problem)
			}
		})
	}
}

// TestSelfSigned: a throwaway certificate is valid for the loopback names
// and the hosts given, and a client trusting its authority's PEM reaches
// the server by each of them.
func TestSelfSigned(t *testing.T) {
	t.Parallel()
	sv, err := Server{SelfSigned: true, Hosts: []string{"atm.test"}}.Load()
	if err != nil {
		t.Fatal(err)
	}
	if sv.Authority == nil {
		t.Fatal("got no authority, want the throwaway one")
	}
	got := strings.Join(names(sv.Cert), ",")
	if want := "localhost,atm.test,127.0.0.1,::1"; got != want {
		t.Errorf("names: got %q, want %q", got, want)
	}
	if d := sv.Describe(); !strings.Contains(d, "issued by atmkit throwaway CA") || strings.Contains(d, "client certificates") {
		t.Errorf("Describe: got %q", d)
	}
	url := serveTLS(t, sv.Config)
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, sv.Authority.CertPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{url, strings.Replace(url, "127.0.0.1", "localhost", 1)} {
		if err := call(t, Client{CAFile: caFile}, u); err != nil {
			t.Errorf("GET %s: got %v, want no error", u, err)
		}
	}
	if sv.Config.NextProtos[0] != "http/1.1" || len(sv.Config.NextProtos) != 1 {
		t.Errorf("NextProtos: got %q, want [http/1.1]", sv.Config.NextProtos)
	}
}

// TestSelfSignedOldClients: below TLS 1.2, the throwaway certificate and
// its authority are RSA ones (for key encipherment), so that a TLS 1.0
// client offering the RSA key exchange with 3DES alone (Windows XP's and
// Server 2003's SChannel, which knows no ECDSA) or with AES is served and
// verifies the certificate against the authority's file; the warning and
// Describe say so. They were ECDSA ones, with which such a client shares
// no suite. From TLS 1.2 they stay ECDSA.
func TestSelfSignedOldClients(t *testing.T) {
	t.Parallel()
	des3, aesCBC := tls.TLS_RSA_WITH_3DES_EDE_CBC_SHA, tls.TLS_RSA_WITH_AES_128_CBC_SHA
	for _, tc := range []struct {
		min, client uint16
		suites      []uint16
	}{
		{tls.VersionTLS10, tls.VersionTLS10, []uint16{des3}},
		{tls.VersionTLS10, tls.VersionTLS10, []uint16{aesCBC}},
		{tls.VersionTLS11, tls.VersionTLS11, []uint16{aesCBC}},
	} {
		name := fmt.Sprintf("minimum %s, a %s client offering %s", tls.VersionName(tc.min), tls.VersionName(tc.client), suiteNames(tc.suites))
		sv, err := Server{SelfSigned: true, MinVersion: tc.min}.Load()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := sv.Cert.PublicKey.(*rsa.PublicKey); !ok || sv.Cert.KeyUsage&x509.KeyUsageKeyEncipherment == 0 {
			t.Errorf("%s: certificate key %T, usage %b: want an RSA key for key encipherment", name, sv.Cert.PublicKey, sv.Cert.KeyUsage)
		}
		if _, ok := sv.Authority.Cert.PublicKey.(*rsa.PublicKey); !ok {
			t.Errorf("%s: authority key %T, want RSA", name, sv.Authority.Cert.PublicKey)
		}
		if !slices.ContainsFunc(sv.Warnings, func(w string) bool {
			return strings.Contains(w, "the throwaway certificate and authority are RSA 2048 ones, not ECDSA")
		}) {
			t.Errorf("%s: warnings %q lack the RSA certificate", name, sv.Warnings)
		}
		// Windows XP and Server 2003 speak TLS 1.0 at most, and 3DES is
		// served at 1.0 alone: at 1.1 the warning names neither.
		if xp := slices.ContainsFunc(sv.Warnings, func(w string) bool {
			return strings.Contains(w, "Windows XP") || strings.Contains(w, "3DES")
		}); xp != (tc.min == tls.VersionTLS10) {
			t.Errorf("%s: warnings %q: naming Windows XP and 3DES %v, want %v", name, sv.Warnings, xp, tc.min == tls.VersionTLS10)
		}
		if d := sv.Describe(); !strings.Contains(d, "; an RSA 2048 key (for TLS 1.0 and 1.1 clients)") {
			t.Errorf("%s: Describe: got %q, want the RSA key named", name, d)
		}
		addr := strings.TrimPrefix(serveTLS(t, sv.Config), "https://")
		c, err := tls.Dial("tcp", addr, &tls.Config{RootCAs: sv.Authority.Pool(), ServerName: "localhost",
			MinVersion: tc.client, MaxVersion: tc.client, CipherSuites: tc.suites})
		if err != nil {
			t.Errorf("%s: got %v, want served", name, err)
			continue
		}
		if got := c.ConnectionState().CipherSuite; got != tc.suites[0] {
			t.Errorf("%s: served %s", name, tls.CipherSuiteName(got))
		}
		c.Close()
	}
	for _, v := range []uint16{0, tls.VersionTLS12, tls.VersionTLS13} {
		sv, err := Server{SelfSigned: true, MinVersion: v}.Load()
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := sv.Cert.PublicKey.(*ecdsa.PublicKey); !ok {
			t.Errorf("minimum %s: certificate key %T, want ECDSA", tls.VersionName(sv.Config.MinVersion), sv.Cert.PublicKey)
		}
		if d := sv.Describe(); strings.Contains(d, "RSA") {
			t.Errorf("minimum %s: Describe: got %q, want no RSA key named", tls.VersionName(sv.Config.MinVersion), d)
		}
	}
}

// TestServeWarnsExpired: an expired certificate serves, with a warning.
func TestServeWarnsExpired(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	expired := p.issue(t, p.ca, Leaf{Hosts: LoopbackHosts, NotBefore: time.Now().Add(-48 * time.Hour), NotAfter: time.Now().Add(-24 * time.Hour)})
	cert, key := p.files(t, "expired", expired)
	sv, err := Server{CertFile: cert, KeyFile: key, ClientCAFile: p.caFile}.Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(sv.Warnings) != 1 || !strings.Contains(sv.Warnings[0], "the certificate of --tls-cert expired on") {
		t.Errorf("warnings: got %q, want one saying the certificate expired", sv.Warnings)
	}
	if d := sv.Describe(); !strings.Contains(d, "client certificates required (from 1 authority)") {
		t.Errorf("Describe: got %q, want the client certificates named", d)
	}
}

// TestExplainPlainHTTPPost: a plain HTTP POST to an HTTPS port, whose body
// the server does not read before it answers 400 and closes (a reset), is
// explained as GET is.
func TestExplainPlainHTTPPost(t *testing.T) {
	t.Parallel()
	p := newPKI(t)
	url := strings.Replace(serveTLS(t, ServerConfig(p.server.TLS, nil)), "https://", "http://", 1)
	ct, err := Client{URLSetting: "upstream"}.Load()
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: ct.Transport(), Timeout: 10 * time.Second}
	defer client.CloseIdleConnections()
	for _, size := range []int{100, 1 << 20} {
		resp, err := client.Post(url+"/service/service.asmx", "text/xml; charset=utf-8", strings.NewReader(strings.Repeat("x", size)))
		if err == nil {
			resp.Body.Close()
		}
		var x *Error
		if !errors.As(err, &x) || x.Kind != PlainToTLS || !strings.Contains(x.Error(), "use https:// in --upstream") {
			t.Errorf("a %d-byte POST: got %v, want the server said to speak HTTPS", size, err)
		}
	}
}

// TestServeWarnsOldVersions: --tls-min-version 1.0 and 1.1 warn naming the
// versions they accept, and only those; 1.2 and 1.3 do not warn.
func TestServeWarnsOldVersions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		v    uint16
		want string // "": no warning
	}{
		{tls.VersionTLS10, "--tls-min-version 1.0: TLS 1.0 and 1.1 are accepted, and 3DES for a client that offers nothing better (Windows XP's); they are deprecated (RFC 8996; 3DES: Sweet32)"},
		{tls.VersionTLS11, "--tls-min-version 1.1: TLS 1.1 is accepted (1.0 is not); it is deprecated (RFC 8996)"},
		{tls.VersionTLS12, ""},
		{tls.VersionTLS13, ""},
	} {
		sv, err := Server{SelfSigned: true, MinVersion: tc.v}.Load()
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case tc.want == "" && len(sv.Warnings) != 0:
			t.Errorf("%s: got warnings %q, want none", tls.VersionName(tc.v), sv.Warnings)
		case tc.want != "" && !slices.ContainsFunc(sv.Warnings, func(w string) bool { return strings.HasPrefix(w, tc.want) }):
			t.Errorf("%s: got warnings %q, want one starting %q", tls.VersionName(tc.v), sv.Warnings, tc.want)
		}
	}
}

// TestExplainPlainHTTPPostOldServer: a plain HTTP POST to the HTTPS port of
// a server speaking TLS 1.0 only, with the RSA key exchange only (an old
// IIS), whose connection is reset while the body is written, is explained
// as to a current server: the probe handshake that tells an HTTPS port
// accepts any version (it sends nothing), with or without --legacy-tls.
// Whether the reset or the server's 400 reaches the client first is a
// race, so the reset is given to the transport's explanation directly.
func TestExplainPlainHTTPPostOldServer(t *testing.T) {
	t.Parallel()
	// httptest's certificate: an RSA key, as the RSA key exchange needs.
	cfg := &tls.Config{MinVersion: tls.VersionTLS10, MaxVersion: tls.VersionTLS10, CipherSuites: []uint16{tls.TLS_RSA_WITH_AES_128_CBC_SHA}}
	url := strings.Replace(serveTLS(t, cfg), "https://", "http://", 1)
	reset := &net.OpError{Op: "write", Net: "tcp", Err: os.NewSyscallError("write", syscall.ECONNRESET)}
	for _, legacy := range []bool{false, true} {
		ct, err := Client{URLSetting: "upstream", LegacyTLS: legacy}.Load()
		if err != nil {
			t.Fatal(err)
		}
		req, err := http.NewRequest(http.MethodPost, url+"/service/service.asmx", strings.NewReader("<x/>"))
		if err != nil {
			t.Fatal(err)
		}
		e := ct.Transport().(*explaining)
		e.next.Proxy = nil
		x := e.explainReset(req, reset)
		if x == nil || x.Kind != PlainToTLS || !strings.Contains(x.Error(), "use https:// in --upstream") {
			t.Errorf("legacy TLS %v: got %v, want the server said to speak HTTPS", legacy, x)
		}
	}
}

// TestServeOldClientRSAKeyExchange: with --tls-min-version 1.0 and an RSA
// certificate, a TLS 1.0 client offering the RSA key exchange alone (an
// old Windows Server's) is served; at the default minimum, a TLS 1.2
// client offering it alone is not (crypto/tls's own suites). A client
// offering 3DES alone (Windows XP's and Server 2003's SChannel offers 3DES
// and RC4 only) is served at --tls-min-version 1.0 only; it was not at all.
// RC4 never is. A client offering 3DES among better suites gets a better.
func TestServeOldClientRSAKeyExchange(t *testing.T) {
	t.Parallel()
	certFile, keyFile := mocktest.RSACertFiles(t)
	aesCBC, des3, ecdhe3DES, rc4 := tls.TLS_RSA_WITH_AES_128_CBC_SHA, tls.TLS_RSA_WITH_3DES_EDE_CBC_SHA, tls.TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA, tls.TLS_RSA_WITH_RC4_128_SHA
	for _, tc := range []struct {
		min, client uint16
		suites      []uint16
		served      uint16 // the suite chosen; 0: refused
	}{
		{tls.VersionTLS10, tls.VersionTLS10, []uint16{aesCBC}, aesCBC},
		{tls.VersionTLS11, tls.VersionTLS11, []uint16{aesCBC}, aesCBC},
		{0, tls.VersionTLS12, []uint16{aesCBC}, 0},
		{tls.VersionTLS10, tls.VersionTLS10, []uint16{des3}, des3},
		{tls.VersionTLS10, tls.VersionTLS10, []uint16{ecdhe3DES}, ecdhe3DES},
		{tls.VersionTLS10, tls.VersionTLS10, []uint16{des3, aesCBC}, aesCBC},
		{tls.VersionTLS11, tls.VersionTLS11, []uint16{des3}, 0},
		{0, tls.VersionTLS12, []uint16{des3}, 0},
		{tls.VersionTLS10, tls.VersionTLS10, []uint16{rc4}, 0},
	} {
		sv, err := Server{CertFile: certFile, KeyFile: keyFile, MinVersion: tc.min}.Load()
		if err != nil {
			t.Fatal(err)
		}
		addr := strings.TrimPrefix(serveTLS(t, sv.Config), "https://")
		c, err := tls.Dial("tcp", addr, &tls.Config{InsecureSkipVerify: true, MinVersion: tc.client, MaxVersion: tc.client,
			CipherSuites: tc.suites})
		var served uint16
		if err == nil {
			served = c.ConnectionState().CipherSuite
			c.Close()
		}
		if served != tc.served {
			t.Errorf("minimum %s, a %s client offering %s: got %s (%v), want %s", tls.VersionName(sv.Config.MinVersion), tls.VersionName(tc.client),
				suiteNames(tc.suites), suiteNames([]uint16{served}), err, suiteNames([]uint16{tc.served}))
		}
	}
}

// TestExplainRSAKeyExchangeOnly: a TLS 1.2 server offering the RSA key
// exchange alone (an old IIS's) ends the handshake; the explanation names
// --legacy-tls, with which the call succeeds.
func TestExplainRSAKeyExchangeOnly(t *testing.T) {
	t.Parallel()
	// httptest's certificate: an RSA key, as the RSA key exchange needs.
	url := serveTLS(t, &tls.Config{MinVersion: tls.VersionTLS12, MaxVersion: tls.VersionTLS12,
		CipherSuites: []uint16{tls.TLS_RSA_WITH_AES_128_GCM_SHA256, tls.TLS_RSA_WITH_AES_128_CBC_SHA}})
	err := call(t, Client{InsecureSkipVerify: true, URLSetting: "target"}, url)
	var x *Error
	if !errors.As(err, &x) || x.Kind != HandshakeFailed || !strings.Contains(x.Error(), "offering only the RSA key exchange or 3DES, as an old IIS may, or only TLS 1.0 or 1.1 needs --legacy-tls") {
		t.Errorf("without --legacy-tls: got %v, want the handshake's end explained naming --legacy-tls", err)
	}
	if err := call(t, Client{InsecureSkipVerify: true, URLSetting: "target", LegacyTLS: true}, url); err != nil {
		t.Errorf("with --legacy-tls: got %v, want no error", err)
	}
}

// TestLegacyTLS3DES: --legacy-tls reaches a server offering 3DES alone (an
// IIS on Windows Server 2003, whose SChannel offers 3DES and RC4 only),
// over TLS 1.0 or 1.2; without it, the explanation names --legacy-tls. A
// server offering RC4 alone is not reached even with it, and the
// explanation says RC4 is never offered. 3DES was not offered at all.
func TestLegacyTLS3DES(t *testing.T) {
	t.Parallel()
	des3, rc4 := tls.TLS_RSA_WITH_3DES_EDE_CBC_SHA, tls.TLS_RSA_WITH_RC4_128_SHA
	for _, tc := range []struct {
		version    uint16
		suite      uint16
		without    string // the explanation without --legacy-tls
		legacyFail string // "": reached with --legacy-tls; else its explanation
	}{
		{tls.VersionTLS10, des3, "the server speaks only TLS 1.0 or 1.1, which atmkit does not use unless told to; give --legacy-tls", ""},
		{tls.VersionTLS12, des3, "a server offering only the RSA key exchange or 3DES, as an old IIS may, or only TLS 1.0 or 1.1 needs --legacy-tls", ""},
		{tls.VersionTLS10, tls.TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA, "give --legacy-tls", ""},
		{tls.VersionTLS10, rc4, "give --legacy-tls", "never RC4: a server offering RC4 alone must turn on 3DES or AES"},
	} {
		name := fmt.Sprintf("a %s server offering %s alone", tls.VersionName(tc.version), tls.CipherSuiteName(tc.suite))
		// httptest's certificate: an RSA key, as these suites need.
		url := serveTLS(t, &tls.Config{MinVersion: tc.version, MaxVersion: tc.version, CipherSuites: []uint16{tc.suite}})
		err := call(t, Client{InsecureSkipVerify: true, URLSetting: "target"}, url)
		var x *Error
		if !errors.As(err, &x) || !strings.Contains(x.Error(), tc.without) {
			t.Errorf("%s, without --legacy-tls: got %v, want %q", name, err, tc.without)
		}
		err = call(t, Client{InsecureSkipVerify: true, URLSetting: "target", LegacyTLS: true}, url)
		switch {
		case tc.legacyFail == "" && err != nil:
			t.Errorf("%s, with --legacy-tls: got %v, want no error", name, err)
		case tc.legacyFail != "" && (!errors.As(err, &x) || !strings.Contains(x.Error(), tc.legacyFail)):
			t.Errorf("%s, with --legacy-tls: got %v, want %q", name, err, tc.legacyFail)
		}
	}
	ct, err := Client{LegacyTLS: true}.Load()
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(ct.Config.CipherSuites, rc4) || slices.Contains(ct.Config.CipherSuites, tls.TLS_ECDHE_RSA_WITH_RC4_128_SHA) {
		t.Errorf("--legacy-tls offers RC4: %s", suiteNames(ct.Config.CipherSuites))
	}
}

// suiteNames names suites (0: none).
func suiteNames(suites []uint16) string {
	var names []string
	for _, s := range suites {
		if s == 0 {
			names = append(names, "none")
			continue
		}
		names = append(names, tls.CipherSuiteName(s))
	}
	return strings.Join(names, ", ")
}

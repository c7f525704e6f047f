package main

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"html"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/internal/mocktest"
	"github.com/atmkit/atmkit/internal/tlsconf"
	"github.com/atmkit/atmkit/mockserver"
)

// gatewaySecret is the value of the header a gateway requires; like a key,
// it may appear in no output, cassette, journal or report.
const gatewaySecret = "Gateway-Secret-5678"

// certs are the files of a private authority and the certificates the
// end-to-end TLS tests serve and present, made in the test.
type certs struct {
	dir                         string
	ca                          *tlsconf.Authority
	caFile, otherCAFile         string
	serverCert, serverKey       string // for 127.0.0.1, ::1, localhost
	wrongNameCert, wrongNameKey string // for atm.example.org only
	expiredCert, expiredKey     string // expired yesterday
	clientCert, clientKey       string // a client certificate from ca
	strangerCert, strangerKey   string // a client certificate from another authority
	serverPair                  *tlsconf.KeyPair
}

func newCerts(t *testing.T) *certs {
	t.Helper()
	c := &certs{dir: t.TempDir()}
	var err error
	if c.ca, err = tlsconf.NewAuthority("atmkit test CA", time.Hour); err != nil {
		t.Fatal(err)
	}
	other, err := tlsconf.NewAuthority("another CA", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	c.caFile = c.write(t, "ca.pem", c.ca.CertPEM())
	c.otherCAFile = c.write(t, "other-ca.pem", other.CertPEM())
	pair := func(a *tlsconf.Authority, name string, l tlsconf.Leaf) (string, string, *tlsconf.KeyPair) {
		kp, err := a.Issue(l)
		if err != nil {
			t.Fatal(err)
		}
		return c.write(t, name+".pem", kp.CertPEM), c.write(t, name+"-key.pem", kp.KeyPEM), kp
	}
	c.serverCert, c.serverKey, c.serverPair = pair(c.ca, "server", tlsconf.Leaf{Hosts: tlsconf.LoopbackHosts})
	c.wrongNameCert, c.wrongNameKey, _ = pair(c.ca, "wrong-name", tlsconf.Leaf{Hosts: []string{"atm.example.org"}})
	c.expiredCert, c.expiredKey, _ = pair(c.ca, "expired", tlsconf.Leaf{Hosts: tlsconf.LoopbackHosts,
		NotBefore: time.Now().Add(-48 * time.Hour), NotAfter: time.Now().Add(-24 * time.Hour)})
	c.clientCert, c.clientKey, _ = pair(c.ca, "client", tlsconf.Leaf{Client: true, Name: "app"})
	c.strangerCert, c.strangerKey, _ = pair(other, "stranger", tlsconf.Leaf{Client: true, Name: "stranger"})
	return c
}

func (c *certs) write(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(c.dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// httpsClient is a client trusting caFile and presenting a client
// certificate when cert is not empty.
func httpsClient(t *testing.T, caFile, cert, key string) *http.Client {
	t.Helper()
	ct, err := tlsconf.Client{CAFile: caFile, CertFile: cert, KeyFile: key}.Load()
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Transport: ct.Transport(), Timeout: 30 * time.Second}
	t.Cleanup(c.CloseIdleConnections)
	return c
}

// fetch GETs url with c and returns the status and body; an error is
// returned, not fatal.
func fetch(c *http.Client, url string) (int, string, error) {
	resp, err := c.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

// gateway serves the mock over HTTPS (a certificate of c's authority)
// behind a gate that answers 401 to a call without the gateway's header.
func gateway(t *testing.T, c *certs, key string) string {
	t.Helper()
	h, err := mockserver.New(withSmallDataset(t), mockserver.WithKeys(key))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Api-Key") != gatewaySecret {
			http.Error(w, "gateway: missing or wrong X-Api-Key", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	}))
	srv.TLS = tlsconf.ServerConfig(c.serverPair.TLS, nil)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	return srv.URL
}

// noSecret fails the test if the gateway's secret, or a key, is in s.
func noSecret(t *testing.T, what, s string) {
	t.Helper()
	for _, secret := range []string{gatewaySecret, leakKey} {
		if strings.Contains(s, secret) {
			t.Errorf("%s holds %q: %.600q", what, secret, s)
		}
	}
}

// TestTLSEndToEnd: with a private authority and client certificates
// required, serve, conform and record work from the command line, and each
// certificate problem makes conform exit 2 with the line that names it.
func TestTLSEndToEnd(t *testing.T) {
	t.Parallel()
	c := newCerts(t)
	srv := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0", "--key", leakKey, "--fixtures", smallFixturesDir(t),
		"--tls-cert", c.serverCert, "--tls-key", c.serverKey, "--tls-client-ca", c.caFile)
	if !strings.HasPrefix(srv.base, "https://127.0.0.1:") {
		t.Fatalf("serve: listening on %q, want https://127.0.0.1:<port>", srv.base)
	}
	out := srv.stdout.String()
	// The try lines set no variable an atmkit command reads: serve started
	// again in the shell they were pasted into must not refuse one.
	if _, try, _ := strings.Cut(out, "try:"); strings.Contains(try, "ATMKIT_") || strings.Contains(try, "export") {
		t.Errorf("serve banner: the try lines set a variable atmkit reads, or export one:%s", try)
	}
	for _, want := range []string{"tls:        certificate for localhost, 127.0.0.1, ::1, issued by atmkit test CA",
		"client certificates required (from 1 authority)", `try:        CLIENT_CERT='<a client certificate from ` + c.caFile + `>' CLIENT_KEY='<its key>'`,
		`--cert "$CLIENT_CERT" --key "$CLIENT_KEY"`,
		"SOAP:       POST " + srv.base + "/service/service.asmx"} {
		if !strings.Contains(out, want) {
			t.Errorf("serve banner: want %q in %q", want, out)
		}
	}

	t.Run("a client with the certificates", func(t *testing.T) {
		t.Parallel()
		client := httpsClient(t, c.caFile, c.clientCert, c.clientKey)
		status, body, err := fetch(client, srv.base+provincesPath+leakKey)
		if err != nil || status != 200 {
			t.Fatalf("ReturnProvinces: got %d, %v, want 200: %.300s", status, err, body)
		}
		_, wsdl, err := fetch(client, srv.base+"/service/service.asmx?WSDL")
		if want := `location="` + srv.base + `/service/service.asmx"`; err != nil || !strings.Contains(wsdl, want) {
			t.Errorf("WSDL: got %v, want %q in %.300q", err, want, wsdl)
		}
		_, help, err := fetch(client, srv.base+"/service/service.asmx")
		if err != nil || strings.Contains(help, "http://127.0.0.1") {
			t.Errorf("help page: got %v, and want no http:// address of the server in it", err)
		}
	})
	t.Run("a client without a client certificate", func(t *testing.T) {
		t.Parallel()
		_, _, err := fetch(httpsClient(t, c.caFile, "", ""), srv.base+"/__admin/health")
		if err == nil || !strings.Contains(err.Error(), "the server requires a client certificate and none was sent") {
			t.Errorf("got %v, want the client certificate required", err)
		}
	})

	t.Run("conform passes with --ca-cert and --client-cert", func(t *testing.T) {
		t.Parallel()
		report := filepath.Join(t.TempDir(), "conform.xml")
		code, out := runConformProcess(t, "--target", srv.base, "--key", leakKey, "--ca-cert", c.caFile,
			"--client-cert", c.clientCert, "--client-key", c.clientKey, "--junit-report", report)
		if code != 0 {
			t.Fatalf("conform: exit %d, want 0:\n%s", code, out)
		}
		if j := readJUnit(t, report); j.Tests == 0 || j.Failures != 0 {
			t.Errorf("JUnit report: %d tests, %d failures, want some and none", j.Tests, j.Failures)
		}
		noSecret(t, "conform output", out)
	})
	for _, tt := range []struct {
		name string
		args []string
		want []string
	}{
		{"no CA", []string{"--client-cert", c.clientCert, "--client-key", c.clientKey},
			[]string{`TLS: the server's certificate (127.0.0.1) was issued by "atmkit test CA", an authority not trusted here; give that authority's certificate (PEM) with --ca-cert FILE`}},
		{"another CA", []string{"--ca-cert", c.otherCAFile, "--client-cert", c.clientCert, "--client-key", c.clientKey},
			[]string{"an authority not trusted here", "--ca-cert FILE"}},
		{"no client certificate", []string{"--ca-cert", c.caFile},
			[]string{"TLS: the server requires a client certificate and none was sent", "--client-cert FILE --client-key FILE"}},
		{"a client certificate of another authority", []string{"--ca-cert", c.caFile, "--client-cert", c.strangerCert, "--client-key", c.strangerKey},
			[]string{"the one of --client-cert is from another, so none was sent", "--client-cert FILE --client-key FILE"}},
	} {
		t.Run("conform exits 2: "+tt.name, func(t *testing.T) {
			t.Parallel()
			code, out := runConformProcess(t, append([]string{"--target", srv.base, "--key", leakKey}, tt.args...)...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d:\n%s", code, exitUsage, out)
			}
			if want := "TLS failure with " + srv.base + "/service/service.asmx: "; !strings.Contains(out, want) {
				t.Errorf("want %q in %q", want, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("want %q in %q", w, out)
				}
			}
			if strings.Contains(out, "goroutine ") || strings.Contains(out, ".go:") {
				t.Errorf("a stack trace in %q", out)
			}
			noSecret(t, "conform output", out)
		})
	}

	t.Run("record through an HTTPS proxy from the HTTPS upstream", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		cassette, proxyCA := filepath.Join(dir, "atm.yaml"), filepath.Join(dir, "proxy-ca.pem")
		rec := startCmd(t, nil, "record", "--upstream", srv.base, "--cassette", cassette, "--addr", "127.0.0.1:0",
			"--ca-cert", c.caFile, "--client-cert", c.clientCert, "--client-key", c.clientKey,
			"--tls-self-signed", "--tls-ca-out", proxyCA)
		if !strings.HasPrefix(rec.base, "https://") || !rec.stdout.waitFor("CA:         "+proxyCA) {
			t.Fatalf("record banner: got %q, want an https proxy and its CA %s", rec.stdout, proxyCA)
		}
		status, body, err := fetch(httpsClient(t, proxyCA, "", ""), rec.base+provincesPath+leakKey)
		if err != nil || status != 200 {
			t.Fatalf("ReturnProvinces through the proxy: got %d, %v, want 200: %.300s", status, err, body)
		}
		if code := rec.stop(); code != 0 {
			t.Fatalf("record: exit %d, want 0; stderr: %s", code, rec.stderr)
		}
		b, err := os.ReadFile(cassette)
		if err != nil || !strings.Contains(string(b), "Nova Scotia") {
			t.Errorf("cassette: got %v, want the recorded provinces", err)
		}
		noSecret(t, "cassette", string(b))
	})
}

// TestTLSServerCertificateProblems: conform against a deployment serving a
// certificate for another name, or an expired one, exits 2 naming it; a
// recording proxy answers 502 and logs the same line.
func TestTLSServerCertificateProblems(t *testing.T) {
	t.Parallel()
	c := newCerts(t)
	for _, tt := range []struct {
		name, cert, key string
		want            []string
	}{
		{"wrong name", c.wrongNameCert, c.wrongNameKey,
			[]string{"TLS: the server's certificate is not valid for 127.0.0.1 (it is for atm.example.org); use a host name the certificate names in --"}},
		{"expired", c.expiredCert, c.expiredKey,
			[]string{"TLS: the server's certificate (127.0.0.1) expired on", "no flag fixes it"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0", "--key", leakKey, "--tls-cert", tt.cert, "--tls-key", tt.key)
			if tt.name == "expired" && !strings.Contains(srv.stderr.String(), "WARNING: the certificate of --tls-cert expired on") {
				t.Errorf("serve: want a warning that the certificate expired in %q", srv.stderr)
			}
			code, out := runConformProcess(t, "--target", srv.base, "--key", leakKey, "--ca-cert", c.caFile)
			if code != exitUsage {
				t.Errorf("conform: exit %d, want %d:\n%s", code, exitUsage, out)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w+"target") && !strings.Contains(out, w) {
					t.Errorf("conform: want %q in %q", w, out)
				}
			}

			rec := startCmd(t, nil, "record", "--upstream", srv.base, "--cassette", filepath.Join(t.TempDir(), "c"), "--addr", "127.0.0.1:0", "--ca-cert", c.caFile)
			status, body, err := fetch(http.DefaultClient, rec.base+provincesPath+leakKey)
			if err != nil || status != http.StatusBadGateway || !strings.Contains(body, tt.want[0]) {
				t.Errorf("through the proxy: got %d %q, %v, want 502 with %q", status, body, err, tt.want[0])
			}
			rec.stop()
			if !strings.Contains(rec.stderr.String(), tt.want[0]) {
				t.Errorf("record's log: want %q in %q", tt.want[0], rec.stderr)
			}
			noSecret(t, "record's log", rec.stderr.String())
			noSecret(t, "the proxy's answer", body)
		})
	}
}

// TestGatewayHeader: --header reaches the deployment with every call of
// conform, record and serve's upstream, and is written to no cassette,
// report, journal or log.
func TestGatewayHeader(t *testing.T) {
	t.Parallel()
	c := newCerts(t)
	gw := gateway(t, c, leakKey)
	header := "X-Api-Key: " + gatewaySecret

	t.Run("conform", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		junit, jsonReport := filepath.Join(dir, "c.xml"), filepath.Join(dir, "c.json")
		code, out := runConformProcess(t, "--target", gw, "--key", leakKey, "--ca-cert", c.caFile, "--header", header,
			"--junit-report", junit, "--json-report", jsonReport, "--label-filter", "soap11 || get")
		if code != 0 {
			t.Fatalf("conform through the gateway: exit %d, want 0:\n%s", code, out)
		}
		noSecret(t, "conform output", out)
		for _, f := range []string{junit, jsonReport} {
			b, _ := os.ReadFile(f)
			noSecret(t, f, string(b))
		}
		code, out = runConformProcess(t, "--target", gw, "--key", leakKey, "--ca-cert", c.caFile)
		if code != exitUsage || !strings.Contains(out, `get answered 401 "gateway: missing or wrong X-Api-Key"`) || !strings.Contains(out, "--header 'Name: value'") {
			t.Errorf("conform without the header: exit %d, want %d and the 401 named:\n%s", code, exitUsage, out)
		}
	})
	t.Run("record", func(t *testing.T) {
		t.Parallel()
		cassette := filepath.Join(t.TempDir(), "gw.yaml")
		rec := startCmd(t, map[string]string{"ATMKIT_HEADER": header}, "record", "--upstream", gw, "--cassette", cassette,
			"--addr", "127.0.0.1:0", "--ca-cert", c.caFile, "--log-format", "json")
		status, body, err := fetch(http.DefaultClient, rec.base+provincesPath+leakKey)
		if err != nil || status != 200 {
			t.Fatalf("through the proxy: got %d, %v, want 200: %.300s", status, err, body)
		}
		if code := rec.stop(); code != 0 {
			t.Fatalf("record: exit %d; stderr: %s", code, rec.stderr)
		}
		b, err := os.ReadFile(cassette)
		if err != nil {
			t.Fatal(err)
		}
		noSecret(t, "cassette", string(b))
		if strings.Contains(strings.ToLower(string(b)), "x-api-key") {
			t.Errorf("cassette: the gateway's header is recorded: %s", b)
		}
		noSecret(t, "stdout", rec.stdout.String())
		noSecret(t, "stderr", rec.stderr.String())
	})
	t.Run("shape learn --wsdl", func(t *testing.T) {
		t.Parallel()
		out := filepath.Join(t.TempDir(), "learned.yaml")
		code, stdout, stderr := runAtmkit(nil, "shape", "learn", "--wsdl", gw+"/service/service.asmx", "--ca-cert", c.caFile, "--header", header, "--out", out)
		if code != 0 {
			t.Fatalf("shape learn through the gateway: exit %d, want 0:\n%s%s", code, stdout, stderr)
		}
		if _, err := os.Stat(out); err != nil {
			t.Errorf("no shape written: %v", err)
		}
		noSecret(t, "shape learn output", stdout+stderr)
		code, stdout, stderr = runAtmkit(nil, "shape", "learn", "--wsdl", gw+"/service/service.asmx", "--ca-cert", c.caFile, "--out", out)
		if code != exitUsage || !strings.Contains(stderr, "HTTP 401") {
			t.Errorf("shape learn without the header: exit %d, want %d and the 401 named:\n%s%s", code, exitUsage, stdout, stderr)
		}
		code, stdout, stderr = runAtmkit(nil, "shape", "learn", "--wsdl", gw+"/service/service.asmx", "--header", header, "--out", out)
		if code != exitUsage || !strings.Contains(stderr, "--ca-cert FILE") {
			t.Errorf("shape learn without the authority: exit %d, want %d and --ca-cert named:\n%s%s", code, exitUsage, stdout, stderr)
		}
		noSecret(t, "shape learn output", stdout+stderr)
	})
	t.Run("serve --on-miss upstream", func(t *testing.T) {
		t.Parallel()
		cassette := filepath.Join(t.TempDir(), "grow.yaml")
		config := writeConfig(t, "replay: "+cassette+"\non-miss: upstream\nupstream: "+gw+"\nca-cert: "+c.caFile+"\nheaders: ['"+header+"']\ntimeout: 20s\n")
		srv := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0", "--key", leakKey, "--config", config)
		status, body := get(t, srv.base+provincesPath+leakKey, "")
		if status != 200 || !strings.Contains(body, "Nova Scotia") {
			t.Fatalf("a miss forwarded to the gateway: got %d %.300q, want 200 and the provinces", status, body)
		}
		_, journal := get(t, srv.base+"/__admin/requests", "")
		srv.stop()
		b, err := os.ReadFile(cassette)
		if err != nil {
			t.Fatal(err)
		}
		for what, s := range map[string]string{"cassette": string(b), "journal": journal, "stdout": srv.stdout.String(), "stderr": srv.stderr.String()} {
			noSecret(t, what, s)
		}
	})
}

// TestServeSelfSigned: --tls-self-signed (also from ATMKIT_TLS_SELF_SIGNED
// or the config file) serves HTTPS; the banner names the authority's file,
// its try line works as printed, and the file is removed at exit.
func TestServeSelfSigned(t *testing.T) {
	t.Parallel()
	for name, how := range map[string]struct {
		env  map[string]string
		args []string
	}{
		"flag":        {nil, []string{"--tls-self-signed"}},
		"variable":    {map[string]string{"ATMKIT_TLS_SELF_SIGNED": "true"}, nil},
		"config file": {nil, []string{"--config", writeConfig(t, "tls-self-signed: true\n")}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := startCmd(t, how.env, append([]string{"serve", "--addr", "127.0.0.1:0"}, how.args...)...)
			ca := bannerLine(t, r.stdout.String(), "CA:")
			caFile := strings.Fields(ca)[0]
			if !strings.Contains(ca, "removed when atmkit stops") || !strings.Contains(ca, "curl --cacert "+caFile) {
				t.Errorf("banner: got CA line %q, want the file, that it is removed, and curl --cacert", ca)
			}
			try := bannerLine(t, r.stdout.String(), "try:")
			u, opts, _ := strings.Cut(strings.TrimPrefix(try, `curl "`), `"`)
			if strings.TrimSpace(opts) != "--cacert "+caFile {
				t.Errorf("try line: got %q, want the URL and --cacert %s", try, caFile)
			}
			if status, body, err := fetch(httpsClient(t, caFile, "", ""), u); err != nil || status != 200 {
				t.Errorf("the try line's URL: got %d, %v: %.200s", status, err, body)
			}
			if code := r.stop(); code != 0 {
				t.Errorf("serve: exit %d", code)
			}
			if _, err := os.Stat(caFile); !os.IsNotExist(err) {
				t.Errorf("CA file after exit: got %v, want it removed", err)
			}
		})
	}
}

// TestInsecureSkipVerify: --insecure-skip-verify reaches a server whose
// authority is not given, with a loud warning.
func TestInsecureSkipVerify(t *testing.T) {
	t.Parallel()
	srv := mockserver.NewTestServer(t, withSmallDataset(t), mockserver.WithKeys(leakKey), mockserver.WithTLS())
	code, out := runConformProcess(t, "--target", srv.URL, "--key", leakKey, "--insecure-skip-verify", "--label-filter", "get")
	if code != 0 {
		t.Errorf("conform: exit %d, want 0:\n%s", code, out)
	}
	if want := "atmkit: WARNING: --insecure-skip-verify: the certificate of --target is NOT CHECKED"; !strings.Contains(out, want) {
		t.Errorf("want %q in %q", want, out)
	}
}

// TestTLSMisconfiguration: every wrong TLS, header or timeout setting stops
// the command at start with exit 2 and one line naming it, never showing a
// header's value.
func TestTLSMisconfiguration(t *testing.T) {
	t.Parallel()
	c := newCerts(t)
	missing := filepath.Join(c.dir, "missing.pem")
	empty := emptyCassette(t)
	serve := func(args ...string) []string { return append([]string{"serve", "--addr", "127.0.0.1:0"}, args...) }
	record := func(args ...string) []string {
		return append([]string{"record", "--upstream", "https://127.0.0.1:1", "--cassette", filepath.Join(c.dir, "c"), "--addr", "127.0.0.1:0"}, args...)
	}
	conform := func(args ...string) []string {
		return append([]string{"conform", "--target", "https://127.0.0.1:1", "--key", "k"}, args...)
	}
	tests := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"cert without key", serve("--tls-cert", c.serverCert), nil, "atmkit serve: --tls-cert " + c.serverCert + ": needs --tls-key FILE"},
		{"key without cert", serve("--tls-key", c.serverKey), nil, "--tls-key " + c.serverKey + ": needs --tls-cert FILE"},
		{"cert missing", serve("--tls-cert", missing, "--tls-key", c.serverKey), nil, "--tls-cert " + missing + ": the file does not exist"},
		{"cert not PEM", serve("--tls-cert", c.serverKey, "--tls-key", c.serverKey), nil, "no PEM certificate (-----BEGIN CERTIFICATE-----) in it"},
		{"key of another certificate", serve("--tls-cert", c.serverCert, "--tls-key", c.clientKey), nil, "--tls-key " + c.clientKey + ": not the key of the certificate of --tls-cert"},
		{"client CA without TLS", serve("--tls-client-ca", c.caFile), nil, "--tls-client-ca " + c.caFile + ": needs TLS"},
		{"self-signed and a certificate", serve("--tls-self-signed", "--tls-cert", c.serverCert, "--tls-key", c.serverKey), nil, "--tls-self-signed true: cannot be combined"},
		{"CA out without self-signed", serve("--tls-ca-out", filepath.Join(c.dir, "x.pem")), nil, "needs --tls-self-signed"},
		{"name without self-signed", serve("--tls-cert", c.serverCert, "--tls-key", c.serverKey, "--tls-name", "atmkit"), nil, "--tls-name atmkit: needs --tls-self-signed"},
		{"name with a scheme", record("--tls-self-signed", "--tls-name", "https://atmkit:8443"), nil, "atmkit record: --tls-name https://atmkit:8443: not a host name or IP address"},
		{"name from a variable", serve("--tls-self-signed"), map[string]string{"ATMKIT_TLS_NAME": "atmkit,bad name"}, `ATMKIT_TLS_NAME="atmkit,bad name": not a host name or IP address`},
		{"CA out in a missing directory", serve("--tls-self-signed", "--tls-ca-out", filepath.Join(missing, "x.pem")), nil, "--tls-ca-out " + filepath.Join(missing, "x.pem") + ": its directory"},
		{"cert from a variable", serve(), map[string]string{"ATMKIT_TLS_CERT": missing, "ATMKIT_TLS_KEY": c.serverKey}, `ATMKIT_TLS_CERT="` + missing + `": the file does not exist (--tls-cert)`},
		{"cert from the config file", serve("--config", writeConfig(t, "tls-cert: "+missing+"\ntls-key: "+c.serverKey+"\n")), nil, "tls-cert in config file "},
		{"client CA missing (record)", record("--tls-self-signed", "--tls-client-ca", missing), nil, "atmkit record: --tls-client-ca " + missing + ": the file does not exist"},
		{"CA missing (conform)", conform("--ca-cert", missing), nil, "atmkit conform: --ca-cert " + missing + ": the file does not exist"},
		{"CA not PEM (record)", record("--ca-cert", c.serverKey), nil, "atmkit record: --ca-cert " + c.serverKey + ": no PEM certificate"},
		{"client cert without key", conform("--client-cert", c.clientCert), nil, "--client-cert " + c.clientCert + ": needs --client-key FILE"},
		{"client key of another certificate", conform("--client-cert", c.clientCert, "--client-key", c.serverKey), nil, "not the key of the certificate of --client-cert"},
		{"header without a value", conform("--header", gatewaySecret), nil, "atmkit conform: --header Ga****: want 'Name: value'"},
		{"header set by atmkit", record("--header", "Content-Type: "+gatewaySecret), nil, "header Content-Type is set by atmkit for each request"},
		{"header name", conform("--header", "X Key: "+gatewaySecret), nil, `header name "X Key" holds characters`},
		{"header from a variable", conform(), map[string]string{"ATMKIT_HEADER": "X-Api-Key " + gatewaySecret}, `ATMKIT_HEADER="X-****": want 'Name: value'`},
		{"timeout of record", record("--timeout", "0s"), nil, "atmkit record: --timeout 0s: must be positive"},
		{"timeout of serve", serve("--timeout", "-1s"), nil, "atmkit serve: --timeout -1s: must be positive"},
		{"ca-cert without upstream", serve("--ca-cert", c.caFile), nil, "--ca-cert " + c.caFile + ": used only with --replay PATH --on-miss upstream"},
		{"header without upstream", serve("--replay", empty, "--on-miss", "fixtures", "--header", "X-Api-Key: "+gatewaySecret), nil, "--header: used only with --on-miss upstream"},
		{"CA of the upstream missing", serve("--replay", empty, "--on-miss", "upstream", "--upstream", "https://127.0.0.1:1", "--ca-cert", missing), nil, "--ca-cert " + missing + ": the file does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runAtmkit(tt.env, tt.args...)
			wantUsageLine(t, strings.Join(tt.args, " "), code, stdout, stderr, tt.want)
			noSecret(t, "stderr", stderr)
			noSecret(t, "stdout", stdout)
		})
	}
}

// TestPlainHTTPToHTTPSPort: every client given http:// for a deployment
// that speaks HTTPS on that port says to use https://, naming its flag,
// and exits 2; the HTTPS server's 400 is no answer of the service, so
// record and serve's upstream record nothing and verify finds no drift.
func TestPlainHTTPToHTTPSPort(t *testing.T) {
	t.Parallel()
	c := newCerts(t)
	srv := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0", "--key", leakKey, "--tls-cert", c.serverCert, "--tls-key", c.serverKey)
	plain := strings.Replace(srv.base, "https://", "http://", 1)
	const said = `the server speaks HTTPS at that address, not plain HTTP (it answered with 400 "Client sent an HTTP request to an HTTPS server."); use https:// in --`

	t.Run("record", func(t *testing.T) {
		t.Parallel()
		cassette := filepath.Join(t.TempDir(), "atm.yaml")
		rec := startCmd(t, nil, "record", "--upstream", plain, "--cassette", cassette, "--addr", "127.0.0.1:0")
		status, body, err := fetch(http.DefaultClient, rec.base+provincesPath+leakKey)
		if err != nil || status != http.StatusBadGateway || !strings.Contains(body, said+"upstream") {
			t.Errorf("through the proxy: got %d %q, %v, want 502 saying %q", status, body, err, said+"upstream")
		}
		rec.stop()
		if b, err := os.ReadFile(cassette); err == nil {
			t.Errorf("the HTTPS server's 400 was recorded: %s", b)
		}
	})
	t.Run("serve --on-miss upstream", func(t *testing.T) {
		t.Parallel()
		cassette := filepath.Join(t.TempDir(), "grow.yaml")
		s := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0", "--replay", cassette, "--on-miss", "upstream", "--upstream", plain)
		if status, body := get(t, s.base+provincesPath+leakKey, ""); status == http.StatusOK || status == http.StatusBadRequest || !strings.Contains(html.UnescapeString(body), said+"upstream") {
			t.Errorf("a miss: got %d %.300q, want an error saying %q", status, body, said+"upstream")
		}
		s.stop()
		if b, err := os.ReadFile(cassette); err == nil {
			t.Errorf("the HTTPS server's 400 was recorded: %s", b)
		}
	})
	for _, tc := range []struct {
		name string
		args []string
		flag string
	}{
		{"cassette verify", []string{"cassette", "verify", "--upstream", plain, "--key", leakKey, goldenCassette(t, 0)}, "upstream"},
		{"shape learn", []string{"shape", "learn", "--wsdl", plain + "/service/service.asmx", "--out", filepath.Join(t.TempDir(), "s.yaml")}, "wsdl"},
		{"health", []string{"health", "--url", plain}, "url"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := runAtmkit(nil, tc.args...)
			if code != exitUsage || !strings.Contains(stderr, said+tc.flag) {
				t.Errorf("got exit %d and %q, want %d and %q", code, stdout+stderr, exitUsage, said+tc.flag)
			}
			noSecret(t, "output", stdout+stderr)
		})
	}
}

// TestServeSelfSignedNames: --tls-name (ATMKIT_TLS_NAME) adds names to the
// throwaway certificate, such as the compose service name other containers
// reach the mock by; a client reaching it by that name and trusting the
// authority's file completes the handshake.
func TestServeSelfSignedNames(t *testing.T) {
	t.Parallel()
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	srv := startCmd(t, map[string]string{"ATMKIT_TLS_NAME": "atm.test, atmkit,10.9.8.7"}, "serve", "--addr", "127.0.0.1:0",
		"--tls-self-signed", "--tls-ca-out", caFile)
	if tl := bannerLine(t, srv.stdout.String(), "tls:"); !strings.Contains(tl, "certificate for localhost, atm.test, atmkit, 127.0.0.1, ::1, 10.9.8.7, issued by atmkit throwaway CA") {
		t.Errorf("banner: got tls line %q, want the names given", tl)
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(pem)
	for _, name := range []string{"atm.test", "atmkit"} {
		conn, err := tls.Dial("tcp", strings.TrimPrefix(srv.base, "https://"), &tls.Config{ServerName: name, RootCAs: roots, MinVersion: tls.VersionTLS12})
		if err != nil {
			t.Errorf("a client reaching the mock as %s: %v", name, err)
			continue
		}
		_ = conn.Close()
	}
}

// TestTLSMinVersion: a client offering TLS 1.0 only (a .NET Framework app
// before 4.6) fails its handshake with serve by default, the log naming
// --tls-min-version, and gets its answer from serve --tls-min-version 1.0
// (or ATMKIT_TLS_MIN_VERSION), which warns and says so in its banner.
func TestTLSMinVersion(t *testing.T) {
	t.Parallel()
	tls10 := func(t *testing.T, caFile string) *http.Client {
		ct, err := tlsconf.Client{CAFile: caFile, LegacyTLS: true}.Load()
		if err != nil {
			t.Fatal(err)
		}
		ct.Config.MaxVersion = tls.VersionTLS10
		c := &http.Client{Transport: ct.Transport(), Timeout: 30 * time.Second}
		t.Cleanup(c.CloseIdleConnections)
		return c
	}
	call := "/service/service.asmx/ReturnProvinces?strAtmServiceKey=demo-key"

	t.Run("default: TLS 1.2 and later", func(t *testing.T) {
		t.Parallel()
		r := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0", "--tls-self-signed")
		caFile := strings.Fields(bannerLine(t, r.stdout.String(), "CA:"))[0]
		if _, _, err := fetch(tls10(t, caFile), r.base+call); err == nil || !strings.Contains(err.Error(), "protocol version") {
			t.Errorf("a TLS 1.0 client: got %v, want a handshake refused for its protocol version", err)
		}
		if code := r.stop(); code != 0 {
			t.Errorf("serve: exit %d", code)
		}
		if log := r.stderr.String(); !strings.Contains(log, "--tls-min-version 1.0 accepts it") {
			t.Errorf("serve's log lacks the hint naming --tls-min-version:\n%s", log)
		}
	})
	for name, how := range map[string]struct {
		env  map[string]string
		args []string
	}{
		"flag":     {nil, []string{"--tls-min-version", "1.0"}},
		"variable": {map[string]string{"ATMKIT_TLS_MIN_VERSION": "1.0"}, nil},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := startCmd(t, how.env, append([]string{"serve", "--addr", "127.0.0.1:0", "--tls-self-signed"}, how.args...)...)
			out := r.stdout.String()
			caFile := strings.Fields(bannerLine(t, out, "CA:"))[0]
			if tl := bannerLine(t, out, "tls:"); !strings.HasSuffix(tl, "; TLS 1.0 and later") {
				t.Errorf("banner's tls line: got %q, want it to end with TLS 1.0 and later", tl)
			}
			if status, body, err := fetch(tls10(t, caFile), r.base+call); err != nil || status != 200 {
				t.Errorf("a TLS 1.0 client: got %d, %v: %.200s", status, err, body)
			}
			if code := r.stop(); code != 0 {
				t.Errorf("serve: exit %d", code)
			}
			if log := r.stderr.String(); !strings.Contains(log, "WARNING: --tls-min-version 1.0: TLS 1.0 and 1.1 are accepted") {
				t.Errorf("serve's stderr lacks the warning:\n%s", log)
			}
		})
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--tls-min-version", "1.0"}, "atmkit serve: --tls-min-version 1.0: needs TLS: --tls-cert FILE --tls-key FILE, or --tls-self-signed"},
		{[]string{"--tls-self-signed", "--tls-min-version", "TLS1.0"}, `atmkit serve: --tls-min-version TLS1.0: "TLS1.0": want 1.0, 1.1, 1.2 or 1.3`},
	} {
		code, _, stderr := runAtmkit(nil, append([]string{"serve", "--addr", "127.0.0.1:0"}, tc.args...)...)
		if code != exitUsage || !strings.Contains(stderr, tc.want) {
			t.Errorf("serve %s: exit %d, %q; want 2 and %q", strings.Join(tc.args, " "), code, stderr, tc.want)
		}
	}
}

// TestTLS3DESClient: a client offering 3DES alone over TLS 1.0 (a .NET
// Framework 2.0 to 3.5 app on Windows XP or Server 2003, whose SChannel
// offers 3DES and RC4 only) gets its answer from serve --tls-min-version
// 1.0 with a certificate of an RSA key, which warns of 3DES; by default
// it is refused, the log naming the flag. It was refused with either, and
// logged without a hint.
func TestTLS3DESClient(t *testing.T) {
	t.Parallel()
	certFile, keyFile := mocktest.RSACertFiles(t)
	client := func(version uint16) *http.Client {
		tr := &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true, MinVersion: version, MaxVersion: version,
			CipherSuites: []uint16{tls.TLS_RSA_WITH_3DES_EDE_CBC_SHA}}}
		t.Cleanup(tr.CloseIdleConnections)
		return &http.Client{Transport: tr, Timeout: 30 * time.Second}
	}
	call := "/service/service.asmx/ReturnProvinces?strAtmServiceKey=demo-key"
	args := []string{"serve", "--addr", "127.0.0.1:0", "--tls-cert", certFile, "--tls-key", keyFile}

	r := startCmd(t, nil, append(args, "--tls-min-version", "1.0")...)
	status, body, err := fetch(client(tls.VersionTLS10), r.base+call)
	if err != nil || status != 200 {
		t.Errorf("--tls-min-version 1.0, a TLS 1.0 client offering 3DES alone: got %d, %v: %.200s", status, err, body)
	}
	if code := r.stop(); code != 0 {
		t.Errorf("serve: exit %d", code)
	}
	if log := r.stderr.String(); !strings.Contains(log, "WARNING: --tls-min-version 1.0: TLS 1.0 and 1.1 are accepted, and 3DES") {
		t.Errorf("serve's stderr lacks the warning naming 3DES:\n%s", log)
	}

	r = startCmd(t, nil, args...)
	if _, _, err := fetch(client(tls.VersionTLS12), r.base+call); err == nil {
		t.Error("by default, a client offering 3DES alone was served")
	}
	if code := r.stop(); code != 0 {
		t.Errorf("serve: exit %d", code)
	}
	if log := r.stderr.String(); !strings.Contains(log, "--tls-min-version 1.0 serves the RSA key exchange and 3DES (RC4 never)") {
		t.Errorf("serve's log lacks the hint naming --tls-min-version 1.0:\n%s", log)
	}
}

// TestTLSSelfSignedOldClient: serve --tls-self-signed --tls-min-version
// 1.0 serves a TLS 1.0 client offering the RSA key exchange with 3DES
// alone (Windows XP's and Server 2003's SChannel, which knows no ECDSA),
// or with AES, which verifies the certificate against the authority's
// file the banner names; the banner and the warning say the certificate
// is RSA's, and the file is removed at exit. The certificate was ECDSA's,
// with which such a client shares no suite.
func TestTLSSelfSignedOldClient(t *testing.T) {
	t.Parallel()
	r := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0", "--tls-self-signed", "--tls-min-version", "1.0")
	out := r.stdout.String()
	caFile := strings.Fields(bannerLine(t, out, "CA:"))[0]
	if tl := bannerLine(t, out, "tls:"); !strings.Contains(tl, "; an RSA 2048 key (for TLS 1.0 and 1.1 clients)") {
		t.Errorf("banner's tls line: got %q, want the RSA key named", tl)
	}
	ca, err := os.ReadFile(caFile)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(ca) {
		t.Fatalf("%s holds no certificate", caFile)
	}
	call := "/service/service.asmx/ReturnProvinces?strAtmServiceKey=demo-key"
	for _, suite := range []uint16{tls.TLS_RSA_WITH_3DES_EDE_CBC_SHA, tls.TLS_RSA_WITH_AES_128_CBC_SHA} {
		tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS10, MaxVersion: tls.VersionTLS10,
			CipherSuites: []uint16{suite}}}
		status, body, err := fetch(&http.Client{Transport: tr, Timeout: 30 * time.Second}, r.base+call)
		tr.CloseIdleConnections()
		if err != nil || status != 200 {
			t.Errorf("a TLS 1.0 client offering %s alone: got %d, %v: %.200s", tls.CipherSuiteName(suite), status, err, body)
		}
	}
	if code := r.stop(); code != 0 {
		t.Errorf("serve: exit %d", code)
	}
	if log := r.stderr.String(); !strings.Contains(log, "WARNING: --tls-self-signed with --tls-min-version 1.0: the throwaway certificate and authority are RSA 2048 ones") {
		t.Errorf("serve's stderr lacks the warning naming the RSA certificate:\n%s", log)
	}
	if _, err := os.Stat(caFile); !os.IsNotExist(err) {
		t.Errorf("CA file after exit: got %v, want it removed", err)
	}
}

// TestLegacyTLSDeployment: a deployment that speaks TLS 1.0 only, with the
// RSA key exchange only (an old Windows Server's IIS), or with 3DES only
// (IIS 6 on Windows Server 2003, whose SChannel offers 3DES and RC4
// alone), is explained as such, naming --legacy-tls, and checked with it,
// with a warning naming 3DES. The 3DES one was refused even with it.
func TestLegacyTLSDeployment(t *testing.T) {
	t.Parallel()
	for _, suite := range []uint16{tls.TLS_RSA_WITH_AES_128_CBC_SHA, tls.TLS_RSA_WITH_3DES_EDE_CBC_SHA} {
		t.Run(tls.CipherSuiteName(suite), func(t *testing.T) {
			t.Parallel()
			h, err := mockserver.New(withSmallDataset(t), mockserver.WithKeys(leakKey))
			if err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewUnstartedServer(h)
			srv.TLS = &tls.Config{MinVersion: tls.VersionTLS10, MaxVersion: tls.VersionTLS10, CipherSuites: []uint16{suite}}
			srv.StartTLS()
			t.Cleanup(srv.Close)
			ca := filepath.Join(t.TempDir(), "ca.pem")
			if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"--target", srv.URL, "--key", leakKey, "--ca-cert", ca, "--label-filter", "get"}

			code, out := runConformProcess(t, args...)
			if want := "TLS: the server speaks only TLS 1.0 or 1.1, which atmkit does not use unless told to; give --legacy-tls to allow them to --target"; code != exitUsage || !strings.Contains(out, want) {
				t.Errorf("conform without --legacy-tls: exit %d, want 2 and %q:\n%s", code, want, out)
			}
			code, out = runConformProcess(t, append(args, "--legacy-tls")...)
			if want := "atmkit: WARNING: --legacy-tls: TLS 1.0 and 1.1 are allowed to --target, and 3DES for a server that offers nothing better"; code != exitOK || !strings.Contains(out, want) {
				t.Errorf("conform --legacy-tls: exit %d, want 0 and %q:\n%s", code, want, out)
			}
		})
	}
}

// TestLegacyTLSRecord: record's proxy in front of a deployment that speaks
// TLS 1.0 only, with the RSA key exchange only, answers 502 explaining
// --legacy-tls, and records nothing; with --legacy-tls it records.
func TestLegacyTLSRecord(t *testing.T) {
	t.Parallel()
	h, err := mockserver.New(withSmallDataset(t))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.TLS = &tls.Config{MinVersion: tls.VersionTLS10, MaxVersion: tls.VersionTLS10,
		CipherSuites: []uint16{tls.TLS_RSA_WITH_AES_128_CBC_SHA}}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes
	srv.StartTLS()
	t.Cleanup(srv.Close)
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	call := "/service/service.asmx/ReturnProvinces?strAtmServiceKey=demo-key"
	for _, legacy := range []bool{false, true} {
		cassette := filepath.Join(t.TempDir(), "legacy.yaml")
		args := []string{"record", "--upstream", srv.URL, "--ca-cert", ca, "--cassette", cassette, "--addr", "127.0.0.1:0"}
		if legacy {
			args = append(args, "--legacy-tls")
		}
		r := startCmd(t, nil, args...)
		status, body, err := fetch(http.DefaultClient, r.base+call)
		if err != nil {
			t.Fatal(err)
		}
		code := r.stop()
		_, statErr := os.Stat(cassette)
		switch want := "give --legacy-tls to allow them to --upstream"; {
		case !legacy && (status != http.StatusBadGateway || !strings.Contains(body, want) || statErr == nil):
			t.Errorf("without --legacy-tls: got %d %q, cassette written %v; want 502 with %q and no cassette", status, body, statErr == nil, want)
		case legacy && (status != http.StatusOK || code != exitOK || statErr != nil):
			t.Errorf("with --legacy-tls: got %d, exit %d, cassette: %v; want 200, 0 and a cassette: %.300s", status, code, statErr, body)
		}
	}
}

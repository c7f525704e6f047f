package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atmkit/atmkit/internal/tlsconf"
)

// TestOutputsReplaceOnlyTheirOwn: a file a command writes atomically over
// what is there (serve's --tls-ca-out, conform's and cassette verify's
// reports, shape learn's --out) is refused, exit 2 naming the flag and what
// the file holds, when it holds something else: a private key or a
// certificate of the user's given by mistake was replaced. The file is
// left as it was. Its own kind is replaced (TestOutputsReplaceTheirOwn).
func TestOutputsReplaceOnlyTheirOwn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ca, err := tlsconf.NewAuthority("Corp Root CA", 0)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := ca.Issue(tlsconf.Leaf{Hosts: []string{"localhost"}})
	if err != nil {
		t.Fatal(err)
	}
	write := func(name string, data []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	key := write("server-key.pem", leaf.KeyPEM)
	cert := write("corp-ca.pem", ca.CertPEM())
	config := write("atmkit.yaml", []byte("keys: [k1]\n"))
	const closed = "http://127.0.0.1:1" // never reached: the outputs are checked first
	for _, tc := range []struct {
		name  string
		args  []string
		file  string
		flag  string
		holds string
	}{
		{"a key for --tls-ca-out", []string{"serve", "--addr", "127.0.0.1:0", "--tls-self-signed", "--tls-ca-out", key}, key, "tls-ca-out", "holds a PRIVATE KEY, not the certificate of a throwaway authority atmkit wrote"},
		{"another authority for --tls-ca-out", []string{"serve", "--addr", "127.0.0.1:0", "--tls-self-signed", "--tls-ca-out", cert}, cert, "tls-ca-out", "holds the certificate of CN=Corp Root CA,O=atmkit, not the certificate"},
		{"a config for --tls-ca-out", []string{"serve", "--addr", "127.0.0.1:0", "--tls-self-signed", "--tls-ca-out", config}, config, "tls-ca-out", "holds no PEM certificate, not the certificate"},
		{"a key for conform --junit-report", []string{"conform", "--target", closed, "--key", "k", "--junit-report", key}, key, "junit-report", "holds a PRIVATE KEY, not a JUnit XML report"},
		{"a config for conform --json-report", []string{"conform", "--target", closed, "--key", "k", "--json-report", config}, config, "json-report", "holds other content, not a JSON report of Ginkgo's"},
		{"a certificate for verify --junit-report", []string{"cassette", "verify", "--upstream", closed, "--key", "k", "--junit-report", cert, goldenCassette(t, 0)}, cert, "junit-report", "holds a CERTIFICATE, not a JUnit XML report"},
		{"a key for bench --cpuprofile", []string{"bench", "-d", "1s", "--cpuprofile", key}, key, "cpuprofile", "holds a PRIVATE KEY, not a CPU profile"},
		{"a key for shape learn --out", []string{"shape", "learn", "--cassette", goldenCassette(t, 0), "--out", key}, key, "out", "holds a PRIVATE KEY, not a shape file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, err := os.ReadFile(tc.file)
			if err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runAtmkit(nil, tc.args...)
			wantUsageLine(t, tc.name, code, stdout, stderr, "--"+tc.flag+" "+tc.file+": exists and "+tc.holds)
			if !strings.Contains(stderr, "remove it, or name another file") {
				t.Errorf("%s: the refusal says no way out: %s", tc.name, stderr)
			}
			if after, err := os.ReadFile(tc.file); err != nil || !bytes.Equal(after, before) {
				t.Errorf("%s: the file was replaced (%v)", tc.name, err)
			}
			if strings.Contains(stderr, "BEGIN") || strings.Contains(stderr, string(leaf.KeyPEM[28:60])) {
				t.Errorf("%s: the refusal prints the file's content: %s", tc.name, stderr)
			}
		})
	}
}

// TestOutputsReplaceTheirOwn: serve --tls-self-signed --tls-ca-out
// replaces the throwaway authority's certificate a run before wrote, and
// an empty file; shape learn --out replaces a shape file.
func TestOutputsReplaceTheirOwn(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	caFile := filepath.Join(dir, "ca.pem")
	if err := os.WriteFile(caFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	var first []byte
	for run := range 2 {
		srv := startCmd(t, nil, "serve", "--addr", "127.0.0.1:0", "--tls-self-signed", "--tls-ca-out", caFile)
		srv.stop()
		got, err := os.ReadFile(caFile)
		if err != nil || tlsconf.NotThrowawayCA(got) != "" {
			t.Fatalf("run %d: --tls-ca-out holds %q (%v), want the throwaway authority's certificate", run+1, got, err)
		}
		if run == 1 && bytes.Equal(got, first) {
			t.Errorf("the second run left the first run's certificate, want its own")
		}
		first = got
	}
	out := filepath.Join(dir, "shape.yaml")
	for run := range 2 {
		if code, stdout, stderr := runAtmkit(nil, "shape", "learn", "--cassette", goldenCassette(t, 0), "--out", out); code != 0 {
			t.Fatalf("run %d: shape learn: exit %d\n%s%s", run+1, code, stdout, stderr)
		}
	}
}

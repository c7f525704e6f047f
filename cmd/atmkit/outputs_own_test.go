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

// TestFixturesGenerateReplacesOnlyFixtures: fixtures generate --out DIR
// replaces each of its four files only when it holds that file of a data
// set (or nothing), as the other outputs replace only their own kind: an
// atms.jsonl that holds no ATMs (a log, a key), or a cities.json holding
// a data set's institutions, is refused, exit 2 naming --out, the file
// and what it holds, and nothing in DIR is written. Any file in the way
// was replaced unchecked. A data set, broken or whole, and an empty file
// are replaced (TestFixturesGenerateAndCheck regenerates over its own).
func TestFixturesGenerateReplacesOnlyFixtures(t *testing.T) {
	t.Parallel()
	ca, err := tlsconf.NewAuthority("Corp Root CA", 0)
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := ca.Issue(tlsconf.Leaf{Hosts: []string{"localhost"}})
	if err != nil {
		t.Fatal(err)
	}
	institutions, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "default", "institutions.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, file string
		data       []byte
		holds      string
	}{
		{"a log as atms.jsonl", "atms.jsonl", []byte(`{"level":"info","msg":"started"}` + "\n"), "holds other content, not the ATMs of a data set"},
		{"a key as atms.jsonl", "atms.jsonl", leaf.KeyPEM, "holds a PRIVATE KEY, not the ATMs of a data set"},
		{"a certificate as provinces.json", "provinces.json", ca.CertPEM(), "holds a CERTIFICATE, not the provinces of a data set"},
		{"institutions as cities.json", "cities.json", institutions, "holds the institutions of a data set, not the cities of a data set"},
		{"a config as institutions.json", "institutions.json", []byte("keys: [k1]\n"), "holds other content, not the institutions of a data set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tc.file)
			if err := os.WriteFile(path, tc.data, 0o600); err != nil {
				t.Fatal(err)
			}
			code, stdout, stderr := runAtmkit(nil, "fixtures", "generate", "--atms", "3", "--out", dir)
			wantUsageLine(t, tc.name, code, stdout, stderr, "--out "+dir+": "+tc.file+" in it exists and "+tc.holds+
				": atmkit replaces only a file of that kind, never another given by mistake; remove it, or name another directory")
			if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, tc.data) {
				t.Errorf("%s: the file was replaced (%v)", tc.name, err)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("%s: %d files in --out, want the one there before", tc.name, len(entries))
			}
			if strings.Contains(stderr, "BEGIN") || strings.Contains(stderr, "started") {
				t.Errorf("%s: the refusal prints the file's content: %s", tc.name, stderr)
			}
		})
	}

	// Its own: a data set a run wrote, one with a broken record, an
	// empty file, an empty table.
	dir := t.TempDir()
	if code, _, stderr := runAtmkit(nil, "fixtures", "generate", "--atms", "3", "--out", dir); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "atms.jsonl"), []byte("{\"id\":1,\"atmIdentifier\":\"X\",\"institutionId\":\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cities.json"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "provinces.json"), []byte("\ufeff[ ]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code, stdout, stderr := runAtmkit(nil, "fixtures", "generate", "--atms", "4", "--out", dir); code != 0 || !strings.Contains(stdout, "4 ATMs") {
		t.Fatalf("generate over its own: exit %d: %s%s", code, stdout, stderr)
	}
	if code, stdout, _ := runAtmkit(nil, "fixtures", "check", dir); code != 0 || !strings.Contains(stdout, "4 ATMs") {
		t.Errorf("after generating over its own: check: exit %d: %s", code, stdout)
	}
}

// TestOutputFlagsHelpSayWhatTheyReplace: the help of each output flag
// that replaces only its own kind of file says so, on the flag's line:
// the rule was in docs/asmx.md only, and fixtures generate's --out said
// "existing files are replaced".
func TestOutputFlagsHelpSayWhatTheyReplace(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cmd  []string
		flag string
	}{
		{[]string{"serve"}, "tls-ca-out"},
		{[]string{"conform"}, "junit-report"},
		{[]string{"conform"}, "json-report"},
		{[]string{"cassette", "verify"}, "junit-report"},
		{[]string{"shape", "learn"}, "out"},
		{[]string{"bench"}, "cpuprofile"},
		{[]string{"fixtures", "generate"}, "out"},
	} {
		code, stdout, stderr := runAtmkit(nil, append(tc.cmd, "--help")...)
		help := stdout + stderr
		_, after, ok := strings.Cut(help, "\n  -"+tc.flag+" ") // "  -out string", its usage on the next line
		lines := strings.SplitN(after, "\n", 3)
		line := lines[min(1, len(lines)-1)]
		if code != 0 || !ok || !strings.Contains(line, "replaced only when empty or ") {
			t.Errorf("atmkit %s --help: --%s: got exit %d and %q, want it to say a file there is replaced only when empty or of its kind",
				strings.Join(tc.cmd, " "), tc.flag, code, line)
		}
	}
}

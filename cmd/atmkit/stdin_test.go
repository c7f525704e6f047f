package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/atmkit/atmkit/cmd/atmkit/internal/cli"
)

// runAtmkitStdin is runAtmkit with stdin as the command's standard input.
func runAtmkitStdin(stdin string, args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	m := &Main{cli.Env{Stdout: &out, Stderr: &errOut, Getenv: func(string) string { return "" }, Stdin: strings.NewReader(stdin)}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	code = m.Exit(m.Run(ctx, args))
	return code, out.String(), errOut.String()
}

// TestInputsReadStdinOrSayTheyDoNot: "-" reads standard input where the
// input is one document read once, as a CI step pipes it: --shape (serve,
// bench, conform, fixtures check, shape show) and serve's --config. The
// inputs that do not read it (cassettes, a data set's directory, PEM
// files) refuse "-" saying so, exit 2. Each said "-" was not found (a
// shape file, a config file, -.yaml, a directory), while shape learn
// --wsdl - read standard input.
func TestInputsReadStdinOrSayTheyDoNot(t *testing.T) {
	t.Parallel()
	code, builtin, stderr := runAtmkit(nil, "shape", "show")
	if code != 0 {
		t.Fatalf("shape show: exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runAtmkitStdin(builtin, "shape", "show", "--shape", "-")
	if _, body, _ := strings.Cut(builtin, "\n\n"); code != 0 || !strings.HasPrefix(stdout, "# atmkit result shape: - (standard input)\n") || !strings.Contains(stdout, body) {
		t.Errorf("shape show --shape - < built-in shape: got exit %d, %q (stderr %q); want the shape read from standard input", code, stdout, stderr)
	}
	data := t.TempDir()
	if code, _, stderr := runAtmkit(nil, "fixtures", "generate", "--atms", "5", "--out", data); code != 0 {
		t.Fatalf("fixtures generate: exit %d: %s", code, stderr)
	}
	code, stdout, stderr = runAtmkitStdin(builtin, "fixtures", "check", "--shape", "-", data)
	if code != 0 || !strings.Contains(stdout, "every value fits --shape -") {
		t.Errorf("fixtures check --shape - < built-in shape: got exit %d, %q (stderr %q)", code, stdout, stderr)
	}
	code, stdout, stderr = runAtmkitStdin("results: [\n", "serve", "--addr", "127.0.0.1:0", "--shape", "-")
	wantUsageLine(t, "serve --shape - < broken YAML", code, stdout, stderr, "--shape: invalid shape - (standard input): ")
	code, stdout, stderr = runAtmkitStdin("max-body: 0\n", "serve", "--addr", "127.0.0.1:0", "--config", "-")
	wantUsageLine(t, "serve --config - < max-body: 0", code, stdout, stderr, "max-body in config file - (standard input)")
	// Nothing on standard input (docker run without -i) is no config.
	code, stdout, stderr = runAtmkitStdin("\n", "serve", "--addr", "127.0.0.1:0", "--config", "-")
	wantUsageLine(t, "serve --config - < nothing", code, stdout, stderr, "--config -: standard input is empty: pipe the settings in")
	code, stdout, stderr = runAtmkitStdin("shape: '-'\n", "serve", "--addr", "127.0.0.1:0", "--config", "-")
	wantUsageLine(t, "serve --config - < shape: -", code, stdout, stderr, "standard input was read by --config already; give this one a file")

	cassette := goldenCassette(t, 0)
	const closed = "http://127.0.0.1:1" // never reached: the inputs are checked first
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"serve", "--addr", "127.0.0.1:0", "--replay", "-"}, "--replay -: standard input is not read here: name a cassette file or directory"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--replay", "-", "--on-miss", "upstream", "--upstream", closed}, "--replay -: standard input is not read here"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--fixtures", "-"}, "--fixtures -: standard input is not read here: name a directory"},
		{[]string{"serve", "--addr", "127.0.0.1:0", "--tls-cert", "-", "--tls-key", "k.pem"}, "--tls-cert -: standard input is not read here: name a PEM file"},
		{[]string{"cassette", "list", cassette, "-"}, "cassette list: -: standard input is not read here: name a cassette file or directory"},
		{[]string{"cassette", "verify", "--upstream", closed, "--key", "k", "-"}, "cassette verify: -: standard input is not read here"},
		{[]string{"cassette", "scrub", "-"}, "cassette scrub: -: standard input is not read here"},
		{[]string{"shape", "learn", "--cassette", "-", "--out", "learned.yaml"}, "--cassette -: standard input is not read here"},
		{[]string{"fixtures", "check", "-"}, "fixtures check: -: standard input is not read here: name a directory"},
		{[]string{"bench", "--fixtures", "-"}, "--fixtures -: standard input is not read here"},
		{[]string{"bench", "--replay", "-"}, "--replay -: standard input is not read here"},
		{[]string{"conform", "--target", "https://127.0.0.1:1", "--key", "k", "--ca-cert", "-"}, "--ca-cert -: standard input is not read here: name a PEM file"},
	} {
		code, stdout, stderr := runAtmkitStdin("whatever\n", tc.args...)
		wantUsageLine(t, strings.Join(tc.args, " "), code, stdout, stderr, tc.want)
	}
}

package cli

import (
	"bytes"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const (
	secret  = "Gateway-Secret-5678" // a --header value
	leakKey = "Leak-Key-1234"       // a key given to a command
)

// TestHeaderFlag: --header values are parsed one per line, and the flag's
// String (which help and errors may print) shows names only.
func TestHeaderFlag(t *testing.T) {
	t.Parallel()
	var f Headers
	if err := f.Set("X-Api-Key: " + secret + "\nx-tenant: blue\r\n\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Set("X-Tenant: green"); err != nil {
		t.Fatal(err)
	}
	if got, want := f.h.Get("X-Api-Key"), secret; got != want {
		t.Errorf("X-Api-Key: got %q, want %q", got, want)
	}
	if got := f.h.Values("X-Tenant"); len(got) != 2 || got[0] != "blue" || got[1] != "green" {
		t.Errorf("X-Tenant: got %q, want [blue green]", got)
	}
	if got, want := f.String(), "X-Api-Key: ******, X-Tenant: ******"; got != want {
		t.Errorf("String: got %q, want %q", got, want)
	}
	var tr headerTransport
	tr.h = f.h
	tr.next = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if r.Header.Get("X-Api-Key") != secret {
			t.Errorf("sent without the header: %v", r.Header)
		}
		return &http.Response{StatusCode: 200, Body: http.NoBody}, nil
	})
	req, _ := http.NewRequest(http.MethodGet, "https://x/", nil)
	if _, err := tr.RoundTrip(req); err != nil {
		t.Fatal(err)
	}
	if len(req.Header) != 0 {
		t.Errorf("the caller's request got headers: %v", req.Header)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestHideKeys: the output streams mask the keys a command was given, but
// not keys too short to tell from ordinary words.
func TestHideKeys(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	m := &Env{Stdout: &out, Stderr: &errOut}
	m.HideKeys(leakKey, "k", "")
	n, err := io.WriteString(m.Stdout, "key "+leakKey+", k, ok\n")
	if err != nil || n != len("key "+leakKey+", k, ok\n") {
		t.Errorf("write: got %d, %v; want the whole length, nil", n, err)
	}
	io.WriteString(m.Stderr, "no key here\n")
	if got, want := out.String(), "key Le****, k, ok\n"; got != want {
		t.Errorf("stdout: got %q, want %q", got, want)
	}
	if got, want := errOut.String(), "no key here\n"; got != want {
		t.Errorf("stderr: got %q, want %q", got, want)
	}
}

// TestGivenSecrets: the values of the secret flags are found in the
// command line's every spelling and in their variables, without a parse;
// other flags' values, a plain header's (Accept), arguments after "--"
// and flags the command does not have are not taken.
func TestGivenSecrets(t *testing.T) {
	t.Parallel()
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	var keys List
	var token string
	var headers Headers
	fs.Var(&keys, "key", "")
	fs.StringVar(&token, "admin-token", "", "")
	fs.Var(&headers, "header", "")
	fs.String("fault", "", "")
	env := map[string]string{"ATMKIT_KEYS": "k-env-1,k-env-2", "ATMKIT_ADMIN_TOKEN": "t-env", "ATMKIT_HEADER": "X-A: h-env\nAuthorization: Bearer b-env"}
	e := &Env{Getenv: func(k string) string { return env[k] }}
	got := e.GivenSecrets(fs, []string{"--fault", "text=x", "--key", "k1", "-key=k2", "--admin-token=t1", "-header", "X-Api-Key: h1", "--header", "Accept: text/xml",
		"arg", "--", "--key", "k-after-dashes"}, map[string]string{"key": "ATMKIT_KEYS"})
	for _, want := range []string{"k1", "k2", "t1", "h1", "k-env-1", "k-env-2", "t-env", "h-env", "Bearer b-env", "b-env"} {
		if !slices.Contains(got, want) {
			t.Errorf("GivenSecrets: got %q, want it to hold %q", got, want)
		}
	}
	for _, not := range []string{"text=x", "k-after-dashes", "arg", "text/xml"} {
		if slices.Contains(got, not) {
			t.Errorf("GivenSecrets: got %q, want no %q", got, not)
		}
	}
}

// TestHideKeysInEveryForm: the output streams mask a key beyond ASCII in
// the forms it takes besides UTF-8 (escaped, %u, HTML-encoded as ASP.NET's
// error texts echo it, a form's ISO-8859-1 bytes), not only as it is.
func TestHideKeysInEveryForm(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	m := &Env{Stdout: &out, Stderr: io.Discard}
	m.HideKeys("Clé-秘密-1234")
	in := "Clé-秘密-1234 Cl%C3%A9-%E7%A7%98%E5%AF%86-1234 Cl%u00E9-%u79D8%u5BC6-1234 Cl&#233;-秘密-1234 Cl\\u00e9-\\u79d8\\u5bc6-1234\n"
	if _, err := io.WriteString(m.Stdout, in); err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), "Cl**** Cl**** Cl**** Cl**** Cl****\n"; got != want {
		t.Errorf("stdout: got %q, want %q", got, want)
	}
}

// TestCheckMakeDir: a directory that exists, or whose nearest existing
// part is a directory, can be made; one under a file cannot.
func TestCheckMakeDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		dir:                                  "",
		filepath.Join(dir, "a", "b", "c"):    "",
		"testdata":                           "",
		file:                                 file + " is not a directory",
		filepath.Join(file, "testdata", "x"): file + " is not a directory",
	} {
		if got := CheckMakeDir(path); got != want {
			t.Errorf("%s: got %q, want %q", path, got, want)
		}
	}
}

// TestParseFlags: flags are read before, between and after arguments; "--"
// and "-" are arguments, and a flag's value is never one.
func TestParseFlags(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args      []string
		check     bool
		upstream  string
		arguments []string
	}{
		{[]string{"--check", "a.yaml"}, true, "", []string{"a.yaml"}},
		{[]string{"a.yaml", "--check"}, true, "", []string{"a.yaml"}},
		{[]string{"a.yaml", "--upstream", "http://h", "b", "--check", "c"}, true, "http://h", []string{"a.yaml", "b", "c"}},
		{[]string{"--upstream", "dir", "x"}, false, "dir", []string{"x"}},
		{[]string{"a", "--", "--check", "b"}, false, "", []string{"a", "--check", "b"}},
		{[]string{"-", "--check"}, true, "", []string{"-"}},
		{nil, false, "", nil},
	} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		check := fs.Bool("check", false, "")
		upstream := fs.String("upstream", "", "")
		if err := ParseFlags(fs, tc.args); err != nil {
			t.Errorf("%q: %v", tc.args, err)
			continue
		}
		if *check != tc.check || *upstream != tc.upstream || !slices.Equal(fs.Args(), tc.arguments) {
			t.Errorf("%q: check %v, upstream %q, arguments %q; want %v, %q, %q", tc.args, *check, *upstream, fs.Args(), tc.check, tc.upstream, tc.arguments)
		}
	}
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if err := ParseFlags(fs, []string{"a", "--nope"}); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("an unknown flag after an argument: %v, want an error naming it", err)
	}
}

// TestHeaderFlagNamesItsVariable: --header's help names the variable the
// command reads it from: health's own ATMKIT_HEALTH_HEADER (health reads
// no ATMKIT_HEADER, which is serve's upstream's), the others ATMKIT_HEADER.
func TestHeaderFlagNamesItsVariable(t *testing.T) {
	t.Parallel()
	for cmd, want := range map[string]string{"health": "ATMKIT_HEALTH_HEADER", "conform": "ATMKIT_HEADER"} {
		fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
		var r Reach
		r.Register(fs, "the target", false)
		if usage := fs.Lookup("header").Usage; !strings.Contains(usage, "one per line in "+want+")") {
			t.Errorf("%s --header: %q, want it to name %s", cmd, usage, want)
		}
	}
}

// TestHideKeysTogether: keys hidden by separate calls (serve's keys, then
// its --header values) are masked together, whole, whichever holds or
// overlaps the other: masked by one call's writer and then the next's,
// the first masking ate the other's match, whose rest was printed (a key
// holding a secret showed "s3cr3t-" and "-partner9" around the secret's
// mask).
func TestHideKeysTogether(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ key, secret, text string }{
		{"s3cr3t-KEY-4242-partner9", "KEY-4242", "s3cr3t-KEY-4242-partner9"},
		{"s3cr3t-KEY-4242", "s3cr3t-KEY-4242-partner9", "s3cr3t-KEY-4242-partner9"},
		{"s3cr3t-KEY-4242", "KEY-4242-partner9", "s3cr3t-KEY-4242-partner9"},
		{"s3cr3t-KEY-4242", "KEY-4242-partner9", "KEY-4242-partner9 s3cr3t-KEY-4242"},
	} {
		var out bytes.Buffer
		m := &Env{Stdout: &out, Stderr: io.Discard}
		m.HideKeys(tc.key)
		m.HideKeys(tc.secret)
		if _, err := io.WriteString(m.Stdout, "got "+tc.text+"\n"); err != nil {
			t.Fatal(err)
		}
		for _, part := range []string{"cr3t", "4242", "partner9"} {
			if strings.Contains(out.String(), part) {
				t.Errorf("key %q, secret %q: stdout %q holds %q", tc.key, tc.secret, out.String(), part)
			}
		}
	}
}
